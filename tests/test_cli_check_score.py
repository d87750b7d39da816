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
        "meld_value": 33,
        "meld_reading": ["R10", "R11", "R12"],
        "reason_code": None,
        "why": None,
        "stands": {},
    }
    assert data["melds"][1]["kind"] == "group" and data["melds"][1]["value"] == 18
    assert data["total"] == 51
    assert data["initial_meld"]["threshold"] == 30 and data["initial_meld"]["ok"] is True
    assert "over_supply" not in data  # more tiles than a set has is bad input (exit 2), never an answer
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
    assert bad["reason_code"] == "group_colour_twice"
    assert bad["why"] == {"code": "group_colour_twice", "params": {"tile": "R7"}, "parts": []}
    assert data["initial_meld"]["reason_code"] == "initial_invalid_sets"
    assert data["initial_meld"]["why"]["parts"][0]["params"] == {"set": 1, "tiles": "R7 R7 B7"}
    assert data["total"] == 33
    assert data["initial_meld"]["ok"] is False


def test_check_threshold_and_wrap(capsys):
    rc, out, _ = run(capsys, "check", "O12 O13 O1", "--json")
    assert rc == 1 and "wraps 13-1" in json.loads(out)["melds"][0]["reason"]
    rc, out, _ = run(capsys, "check", "O12 O13 O1", "--wrap", "--threshold", "20", "--json")
    data = json.loads(out)
    assert rc == 0 and data["total"] == 26
    assert data["initial_meld"] == {"threshold": 20, "ok": True, "reason": None, "reason_code": None, "why": None}
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
    rc, out, _ = run(
        capsys, "score", "--player", "dana=K5 R7", "--player", "omer=B12 O13", "--player", "lior=", "--winner", "lior",
        "--json",
    )
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
        capsys, "score", "--player", "dana=J", "--player", "lior=", "--winner", "lior", "--joker-penalty", "50", "--json"
    )
    assert json.loads(out)["scores"] == {"dana": -50, "lior": 50}


def test_score_exhausted(capsys):
    rc, out, _ = run(
        capsys, "score", "--player", "ann=K4 R6", "--player", "bob=B12 O13", "--player", "cy=K13 R13 O13 R1",
        "--exhausted", "--exhausted-scoring", "difference", "--json",
    )
    assert rc == 0
    data = json.loads(out)
    assert data["scores"] == {"ann": 45, "bob": -15, "cy": -30}
    assert data["winners"] == ["ann"]
    assert data["rack_values"] == {"ann": 10, "bob": 25, "cy": 40}


def test_score_human_output(capsys):
    rc, out, _ = run(capsys, "score", "--player", "dana=K5 R7", "--player", "omer=B12 O13", "--player", "lior=", "--winner", "lior")
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
        (["--player", "dana=K5", "--player", "lior=", "--winner", " "], "empty"),
        (["--player", "dana=K5", "--player", "lior=R1", "--winner", "lior"], "must be empty"),
        (["--winner", "lior"], "--player"),
        (["--player", "dana=K5", "--winner", "lior", "--joker-penalty", "-3"], "--joker-penalty"),
        (["--player", "dana=K5", "--player", "Dana=R7", "--winner", "lior"], "given twice (as 'dana')"),
    ],
)
def test_score_bad_input_exit_2(capsys, argv, message):
    rc, out, err = run(capsys, "score", *argv)
    assert rc == 2
    assert message in err
    assert out == ""


# --------------------------------------------------------------------------- the rule texts (issue 13)


def test_score_names_match_ignoring_case_and_unknown_names_are_an_error(capsys):
    # a winner names one of the players; "Dana" is dana, and dana still holds tiles
    rc, out, err = run(capsys, "score", "--player", "dana=K5 R7", "--player", "omer=B12 O13", "--winner", "Dana")
    assert rc == 2 and out == "" and "dana went out, so their rack must be empty" in err
    # a name no player has is an error that names it, never a new player
    rc, out, err = run(capsys, "score", "--player", "dana=K5 R7", "--player", "omer=B12 O13", "--winner", "lior")
    assert rc == 2 and out == "" and "unknown player 'lior'" in err and "dana, omer" in err
    rc, out, _ = run(
        capsys, "score", "--player", "dana=K5 R7", "--player", "omer=B12 O13", "--player", "Lior=", "--winner", "lior",
        "--json",
    )
    assert rc == 0 and json.loads(out)["scores"] == {"dana": -12, "omer": -25, "Lior": 37}


def test_score_a_round_needs_two_players(capsys):
    # a round is scored between players: one alone scores nothing against nobody
    rc, out, err = run(capsys, "score", "--player", "lior=", "--winner", "lior")
    assert rc == 2 and "at least two players" in err
    rc, out, err = run(capsys, "score", "--player", "ann=K1", "--exhausted")
    assert rc == 2 and "at least two players" in err


def test_score_exhausted_pool_by_the_encyclopedia_text(capsys):
    # the lowest rack wins and gets the sum of the others' racks; each other player pays their own
    rc, out, _ = run(
        capsys, "score", "--player", "ann=K4 R6", "--player", "bob=B12 O13", "--player", "cy=K13 R13 O13 R1",
        "--exhausted", "--json",
    )
    assert rc == 0 and json.loads(out)["scores"] == {"ann": 65, "bob": -25, "cy": -40}


def test_check_house_rule_never_makes_a_legal_opening_fail(capsys):
    # K13 J J is the group of 13s (39) under the rulebook; wrap-around only adds readings
    for extra in ([], ["--wrap"]):
        rc, out, _ = run(capsys, "check", "K13 J J", "--json", *extra)
        data = json.loads(out)
        assert rc == 0 and data["total"] == 39 and data["initial_meld"]["ok"] is True
        assert data["melds"][0]["kind"] == "group"


def test_check_initial_meld_counts_the_reading_worth_most(capsys):
    # J J O5 reads O3 O4 O5 (12), but the group of 5s fits the written order as well: it counts 15
    rc, out, _ = run(capsys, "check", "J J O5", "--json")
    meld = json.loads(out)["melds"][0]
    assert meld["value"] == 12 and meld["meld_value"] == 15 and json.loads(out)["total"] == 15
    assert meld["resolved"] == ["O3", "O4", "O5"] and ["O3", "O4", "O5"] in meld["interpretations"]
    rc, out, _ = run(capsys, "check", "J J O5")
    assert "counts 15 toward the initial meld" in out


# --------------------------------------------------------------------------- Rummikub Twist


def test_check_twist_special_jokers(capsys):
    rc, out, _ = run(capsys, "check", "--twist", "R2 JD R5 | K7 K8 JM K8 K7 | R6 R7 JC B9 B10", "--json")
    assert rc == 0
    data = json.loads(out)
    double, mirror, change = data["melds"]
    assert double["stands"] == {"1": [["R3", "R4"]]} and double["meld_value"] == 14
    assert mirror["kind"] == "mirror" and mirror["meld_value"] == 30 and mirror["stands"] == {}
    assert change["resolved"] == ["R6", "R7", "R8", "B9", "B10"] and change["meld_value"] == 40
    assert data["total"] == 84 and data["initial_meld"]["ok"] is True
    rc, out, _ = run(capsys, "check", "--twist", "R2 JD R5 | K7 K8 JM K8 K7")
    assert rc == 0
    assert "double joker at position 2 = R3 R4" in out and "valid mirror, 30 points" in out


def test_check_twist_invalid_and_off(capsys):
    rc, out, _ = run(capsys, "check", "--twist", "R6 R7 JC R9 R10", "--json")
    assert rc == 1 and json.loads(out)["melds"][0]["reason_code"] == "twist_colour_change_place"
    rc, out, err = run(capsys, "check", "R2 JD R5")
    assert rc == 2 and "JD is a Rummikub Twist joker: only with the twist house rule" in err
    assert "Traceback" not in err
    rc, _, err = run(capsys, "check", "--twist", "R2 JD R5 | K1 K2 JD")
    assert rc == 2 and "2 copies of JD" in err


def test_score_twist_special_jokers_cost_the_joker_penalty(capsys):
    rc, out, _ = run(capsys, "score", "--twist", "--player", "a=JM K5", "--player", "b=", "--winner", "b", "--json")
    assert rc == 0 and json.loads(out)["scores"] == {"a": -35, "b": 35}
    rc, _, err = run(capsys, "score", "--player", "a=JM K5", "--player", "b=", "--winner", "b")
    assert rc == 2 and "--twist" in err


def test_hint_twist(capsys):
    rc, out, _ = run(capsys, "hint", "--twist", "--table", "R2 R3 R4", "--rack", "K1 K2 K3", "--json")
    assert rc == 0 and json.loads(out)["tiles_placed"] == 3
    # the solver places the special jokers (it used to refuse them: twist_solver_unsupported)
    rc, out, _ = run(capsys, "hint", "--twist", "--table", "R2 JD R5", "--rack", "K1 K2 K3 R6", "--json")
    data = json.loads(out)
    assert rc == 0 and data["tiles_placed"] == 4 and ["R2", "JD", "R5", "R6"] in data["table"]
