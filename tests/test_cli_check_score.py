"""``rummi check`` and ``rummi score``: JSON shapes, human output and exit codes."""

from __future__ import annotations

import json

import pytest

from app.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


# --------------------------------------------------------------------------- check


def test_check_json_shape(capsys):
    rc, out, _ = run(capsys, "check", "R10 R11 R12 | B6 K6 O6", "--json")
    assert rc == 0
    data = json.loads(out)
    assert data["melds"][0] == {
        "codes": ["R10", "R11", "R12"],
        "valid": True,
        "kind": "run",
        "value": 33,
        "jokers": {},
        "reason": None,
        "resolved": ["R10", "R11", "R12"],
        "interpretations": [["R10", "R11", "R12"]],
    }
    assert data["melds"][1]["kind"] == "group" and data["melds"][1]["value"] == 18
    assert data["total"] == 51
    assert data["initial_meld"]["threshold"] == 30 and data["initial_meld"]["ok"] is True
    assert data["over_supply"] == []
    # the documented keys are all there (fields may be added, never renamed)
    assert {"melds", "total", "initial_meld"} <= set(data)
    assert {"codes", "valid", "kind", "value", "jokers", "reason"} <= set(data["melds"][0])


def test_check_json_jokers(capsys):
    rc, out, _ = run(capsys, "check", "K5 R5 J | B9 B10 J B12", "--json")
    assert rc == 0
    melds = json.loads(out)["melds"]
    assert melds[0]["jokers"] == {"2": ["B5", "O5"]}
    assert melds[0]["resolved"] == ["K5", "R5", "B5"]
    assert melds[1]["jokers"] == {"2": ["B11"]}
    assert melds[1]["value"] == 42


def test_check_invalid_meld_exit_1(capsys):
    rc, out, _ = run(capsys, "check", "R7 R7 B7 | R10 R11 R12", "--json")
    assert rc == 1
    data = json.loads(out)
    bad = data["melds"][0]
    assert bad["valid"] is False and bad["kind"] is None and bad["value"] == 0
    assert "R7 appears twice" in bad["reason"]
    assert data["total"] == 33
    assert data["initial_meld"]["ok"] is False


def test_check_threshold_and_wrap(capsys):
    rc, out, _ = run(capsys, "check", "O12 O13 O1", "--json")
    assert rc == 1 and "wraps 13-1" in json.loads(out)["melds"][0]["reason"]
    rc, out, _ = run(capsys, "check", "O12 O13 O1", "--wrap", "--threshold", "20", "--json")
    data = json.loads(out)
    assert rc == 0 and data["total"] == 26
    assert data["initial_meld"] == {"threshold": 20, "ok": True, "reason": None}
    rc, out, _ = run(capsys, "check", "R10 R11 R12", "--threshold", "50", "--json")
    assert rc == 0  # a valid meld below the threshold is still valid
    assert json.loads(out)["initial_meld"]["ok"] is False


def test_check_human_output(capsys):
    rc, out, _ = run(capsys, "check", "R10 R11 R12 | O5 J J | R7 R7 B7")
    assert rc == 1
    assert "R10 R11 R12: valid run, 33 points" in out
    assert "joker at position 2 = O6" in out and "could also be" in out
    assert "R7 R7 B7: INVALID - R7 appears twice" in out
    assert "total: 51 points" in out
    assert "initial meld (30): no - set 3 (R7 R7 B7) is not valid" in out
    rc, out, _ = run(capsys, "check", "K2 R2 B2")
    assert rc == 0 and "initial meld (30): no - the sets add up to 6 points" in out
    rc, out, _ = run(capsys, "check", "R10 R11 R12")
    assert rc == 0 and "initial meld (30): ok" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["R14"], "numbers run 1-13"),
        (["R1 R2 X3"], "unknown colour"),
        (["R1 R2 R3 ||"], "empty"),
        ([""], "no melds"),
        (["R1 R2 R3 | R1 R2 R3 | R1 K1 B1"], "3 copies of R1"),
        (["J J J"], "3 jokers"),
        (["R1 R2 R3", "--threshold", "-1"], "--threshold"),
    ],
)
def test_check_bad_input_exit_2(capsys, argv, message):
    rc, out, err = run(capsys, "check", *argv)
    assert rc == 2
    assert message in err
    assert out == ""


# --------------------------------------------------------------------------- score


def test_score_json(capsys):
    rc, out, _ = run(capsys, "score", "--player", "dana=K5 R7", "--player", "omer=B12 O13", "--winner", "lior", "--json")
    assert rc == 0
    data = json.loads(out)
    assert data["scores"] == {"dana": -12, "omer": -25, "lior": 37}
    assert list(data["scores"]) == ["dana", "omer", "lior"]
    assert data["winners"] == ["lior"]
    assert sum(data["scores"].values()) == 0


def test_score_joker_penalty(capsys):
    rc, out, _ = run(capsys, "score", "--player", "dana=J", "--player", "lior=", "--winner", "lior", "--json")
    assert rc == 0 and json.loads(out)["scores"] == {"dana": -30, "lior": 30}
    rc, out, _ = run(
        capsys, "score", "--player", "dana=J", "--winner", "lior", "--joker-penalty", "50", "--json"
    )
    assert json.loads(out)["scores"] == {"dana": -50, "lior": 50}


def test_score_exhausted(capsys):
    rc, out, _ = run(
        capsys, "score", "--player", "ann=K4 R6", "--player", "bob=B12 O13", "--player", "cy=K13 R13 O13 R1",
        "--exhausted", "--json",
    )
    assert rc == 0
    data = json.loads(out)
    assert data["scores"] == {"ann": 45, "bob": -15, "cy": -30}
    assert data["winners"] == ["ann"]
    assert data["rack_values"] == {"ann": 10, "bob": 25, "cy": 40}


def test_score_human_output(capsys):
    rc, out, _ = run(capsys, "score", "--player", "dana=K5 R7", "--player", "omer=B12 O13", "--winner", "lior")
    assert rc == 0
    assert "lior  +37" in out and "(winner)" in out
    assert "dana  -12  rack 12" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--player", "dana", "--winner", "lior"], 'NAME="TILES"'),
        (["--player", "=K5", "--winner", "lior"], "name before '=' is empty"),
        (["--player", "dana=K5", "--player", "dana=R7", "--winner", "lior"], "given twice"),
        (["--player", "dana=K5", "--player", "omer=K5", "--player", "lior=K5", "--winner", "x"], "3 copies of K5"),
        (["--player", "dana=K14", "--winner", "lior"], "numbers run 1-13"),
        (["--player", "dana=K5", "--player", "lior=R1", "--exhausted", "--winner", "lior"], "leave out --winner"),
        (["--player", "dana=K5"], "--winner"),
        (["--player", "dana=K5", "--winner", " "], "empty"),
        (["--player", "dana=K5", "--player", "lior=R1", "--winner", "lior"], "must be empty"),
        (["--winner", "lior"], "--player"),
        (["--player", "dana=K5", "--winner", "lior", "--joker-penalty", "-3"], "--joker-penalty"),
    ],
)
def test_score_bad_input_exit_2(capsys, argv, message):
    rc, out, err = run(capsys, "score", *argv)
    assert rc == 2
    assert message in err
    assert out == ""
