"""``rummi hint``: human output, the JSON shape, exit codes."""

from __future__ import annotations

import json

import pytest

from app.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["hint", *argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_json_shape(capsys):
    rc, out, _ = run(capsys, "--table", "R4 R5 R6 J | K7 B7 O7", "--rack", "B1 B2 B3 K7", "--json")
    assert rc == 0
    data = json.loads(out)  # nothing but the JSON on stdout (no solver banner)
    for key in ("tiles_placed", "value_placed", "placed", "table", "rack_left", "moves", "optimal", "solve_ms",
                "draw", "alternatives", "sets_disturbed", "exposed_jokers", "shortfall"):
        assert key in data
    assert data["tiles_placed"] == 3 and data["optimal"] is True and data["draw"] is False
    assert data["placed"] == ["B1", "B2", "B3"]
    assert ["R4", "R5", "R6", "J"] in data["table"] and ["B1", "B2", "B3"] in data["table"]
    assert data["rack_left"] == ["K7"]
    assert data["moves"] == ["lay down B1 B2 B3 from your rack"]
    assert data["alternatives"] == []


def test_top_gives_alternatives(capsys):
    rc, out, _ = run(capsys, "--table", "K5 K6 K7 | R9 B9 O9", "--rack", "K4 K8", "--top", "3", "--json")
    data = json.loads(out)
    assert rc == 0 and len(data["alternatives"]) == 2
    for alt in data["alternatives"]:
        assert {"tiles_placed", "value_placed", "placed", "table", "moves"} <= set(alt)
        assert alt["placed"] != data["placed"]


def test_human_output(capsys):
    rc, out, _ = run(capsys, "--table", "K3 K4 K5 K6 K7 | O9 R9 B9 K9", "--rack", "O10 O11 K5")
    assert rc == 0
    assert "best play: play 3 tiles" in out
    assert "split K3 K4 K5 K6 K7 into K3 K4 K5 and K6 K7" in out
    assert "take O9 from O9 R9 B9 K9" in out
    assert "rack left: (empty - you go out!)" in out


def test_initial_meld(capsys):
    rc, out, _ = run(capsys, "--rack", "K10 B10 J", "--initial", "--json")
    data = json.loads(out)
    assert rc == 0 and data["tiles_placed"] == 3 and data["meld_points"] == 30 and data["opened"] is False


def test_no_initial_meld_is_a_draw_with_the_shortfall(capsys):
    rc, out, _ = run(capsys, "--rack", "K7 K8 K9 R1 B1", "--initial")
    assert rc == 1
    assert "draw" in out and "24 of the 30" in out and "short by 6" in out
    rc, out, _ = run(capsys, "--rack", "K7 K8 K9 R1 B1", "--initial", "--threshold", "20", "--json")
    assert rc == 0 and json.loads(out)["tiles_placed"] == 3


def test_draw_exit_code(capsys):
    rc, out, _ = run(capsys, "--table", "K3 K4 K5", "--rack", "R9 B1", "--json")
    data = json.loads(out)
    assert rc == 1 and data["draw"] is True and data["tiles_placed"] == 0 and data["rack_left"] == ["R9", "B1"]


def test_wrap_flag(capsys):
    assert run(capsys, "--rack", "O12 O13 O1")[0] == 1
    assert run(capsys, "--rack", "O12 O13 O1", "--wrap")[0] == 0


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--table", "R4 R5 | K7 B7 O7", "--rack", "B1"], "table set 1 (R4 R5) is not valid"),
        (["--table", "R4 R5 R6", "--rack", "B1 X2"], "X2"),
        (["--table", "B1 B2 B3", "--rack", "B1 B1"], "3 copies of B1"),
        (["--rack", "J J J"], "jokers"),
        (["--rack", ""], "rack is empty"),
        (["--rack", "B1", "--top", "0"], "--top"),
    ],
)
def test_bad_input_exits_2_with_a_message(capsys, argv, message):
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert message in err
    assert out == ""


def test_json_stdout_is_clean_in_a_fresh_process():
    """HiGHS prints a banner from C++ the first time it starts; it must not reach stdout."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, YOLO_OFFLINE="1")
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "hint", "--rack", "B1 B2 B3", "--json"],
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tiles_placed"] == 3


# --------------------------------------------------------------------------- Rummikub Twist


def test_twist_double_joker_opens(capsys):
    rc, out, _ = run(capsys, "--twist", "--rack", "R2 R5 JD B9 B10 B11", "--initial", "--json")
    data = json.loads(out)
    assert rc == 0 and data["tiles_placed"] == 6 and data["meld_points"] == 44 and data["optimal"] is True
    assert sorted(map(tuple, data["table"])) == [("B9", "B10", "B11"), ("R2", "JD", "R5")]
    assert data["rack_left"] == [] and data["cuts"] == 0


def test_twist_human_output_and_table_specials(capsys):
    rc, out, _ = run(capsys, "--twist", "--table", "K7 K8 JM K8 K7", "--rack", "K6 K6 R1")
    assert rc == 0
    assert "add K6 K6 from your rack to K7 K8 JM K8 K7, making K6 K7 K8 JM K8 K7 K6" in out
    rc, out, _ = run(capsys, "--twist", "--rack", "R6 R7 JC B9 B10", "--json")
    assert rc == 0 and json.loads(out)["table"] == [["R6", "R7", "JC", "B9", "B10"]]


def test_twist_draw_and_bad_input_exit_codes(capsys):
    rc, out, _ = run(capsys, "--twist", "--rack", "J J JD", "--json")  # a set needs a numbered tile
    assert rc == 1 and json.loads(out)["draw"] is True
    rc, out, _ = run(capsys, "--twist", "--rack", "K7 K7 JM", "--initial")  # 14 of 30
    assert rc == 1 and "14 of the 30" in out
    rc, out, err = run(capsys, "--rack", "R2 R5 JD")  # without --twist: can't be read
    assert rc == 2 and "JD" in err and "twist" in err and out == ""
    rc, out, err = run(capsys, "--twist", "--table", "R5 JD R7", "--rack", "B1")
    assert rc == 2 and "table set 1 (R5 JD R7) is not valid" in err
