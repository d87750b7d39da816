"""``rummi cards check|declare|score|redeal``: JSON shapes, human output and exit codes."""

from __future__ import annotations

import json

import pytest

from app.cli import main

FOURTEEN = "7H 8H 9H 10H 5D 6D 7D 2S 2D 2C * QS QD QC"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["cards", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


# --------------------------------------------------------------------------- check


def test_check_json_shape(capsys):
    rc, out, _ = run(capsys, "check", "7H 8H 9H | QS QD QC *", "--json")
    assert rc == 0
    data = json.loads(out)
    assert data["melds"][0] == {
        "codes": ["7H", "8H", "9H"],
        "valid": True,
        "kind": "run",
        "value": 24,
        "jokers": {},
        "reason": None,
        "resolved": ["7H", "8H", "9H"],
        "interpretations": [["7H", "8H", "9H"]],
        "reason_code": None,
        "why": None,
    }
    group = data["melds"][1]
    assert group["kind"] == "group" and group["value"] == 40 and group["jokers"] == {"3": ["QH"]}
    assert data["total"] == 64 and data["game"] == "closed"


def test_check_invalid_exits_1(capsys):
    rc, out, _ = run(capsys, "check", "7H 8H 9H | KS AS 2S")
    assert rc == 1
    assert "1. 7H 8H 9H: valid run, 24 points" in out
    assert "INVALID" in out and "round the corner" in out
    assert "total: 24 points" in out


def test_check_ace_high(capsys):
    assert run(capsys, "check", "QS KS AS", "--json")[0] == 1
    rc, out, _ = run(capsys, "check", "QS KS AS", "--ace-high", "--json")
    assert rc == 0 and json.loads(out)["melds"][0]["valid"] is True


def test_check_human_output_explains_jokers(capsys):
    rc, out, _ = run(capsys, "check", "* 8H 9H")
    assert rc == 0
    assert "joker at position 1 = 7H (could also be 10H)" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["check", "1H 2H 3H"], "1H: ranks are A, 2-10, J, Q, K"),
        (["check", "QX QS QD"], "QX: suits are S H D C"),
        (["check", "7H 8H *", "--game", "classic"], "without jokers"),
        (["check", "7H 7H 7H"], "3 copies of 7H"),
        (["check", "  "], "no series given"),
        (["declare", "7H 8H 9H"], "a closed-rummy hand is 14 cards"),
        (["declare", FOURTEEN + " KS", "--cut", "KC"], "with a cut card the hand is 14 cards"),
        (["declare", FOURTEEN, "--cut", "KX"], "--cut KX: suits are S H D C"),
        (["redeal", "7H 8H"], "a dealt hand is 14 cards"),
        (["score", "--player", "shir", "--winner", "roni"], 'write NAME="CARDS"'),
        (["score", "--player", "a=KS", "--player", "a=2C", "--winner", "r"], "given twice"),
        (["score", "--player", "a=KS", "--winner", "r", "--rummy"], "classic-rummy house rule"),
    ],
)
def test_bad_input_exits_2(capsys, argv, message):
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert message in err
    assert "Traceback" not in err and out == ""


# --------------------------------------------------------------------------- declare


def test_declare_json(capsys):
    rc, out, _ = run(capsys, "declare", FOURTEEN + " KS", "--json")
    assert rc == 0
    data = json.loads(out)
    assert data["declare"] is True and data["discard"] == "KS"
    assert sorted(map(tuple, data["series"])) == sorted(
        [("7H", "8H", "9H", "10H"), ("5D", "6D", "7D"), ("2S", "2D", "2C", "*"), ("QS", "QD", "QC")]
    )
    assert set(data) >= {"declare", "series", "discard"}


def test_declare_fourteen_needs_no_discard(capsys):
    rc, out, _ = run(capsys, "declare", FOURTEEN, "--json")
    assert rc == 0 and json.loads(out)["discard"] is None


def test_declare_cannot_exits_1(capsys):
    rc, out, _ = run(capsys, "declare", "2S 2H 2D 5S 5H 5C 9S 9D 9C KS KH KD KC *")
    assert rc == 1
    assert out.startswith("cannot declare:") and "at least one run" in out


def test_declare_with_cut(capsys):
    hand = "7H 8H 9H 5D 6D 7D 2S 2D 2C * QS QD QC 4C"
    rc, out, _ = run(capsys, "declare", hand, "--cut", "10H")
    assert rc == 0
    assert "taking the cut 10H" in out and "discard 4C" in out
    rc, out, _ = run(capsys, "declare", hand, "--cut", "10H", "--json")
    data = json.loads(out)
    assert data["cut"] == "10H" and data["discard"] == "4C"


def test_declare_classic(capsys):
    rc, out, _ = run(capsys, "declare", "7H 8H 9H QS QD QC 2C", "--game", "classic", "--json")
    assert rc == 0 and json.loads(out)["discard"] == "2C"


# --------------------------------------------------------------------------- score


def test_score_three_player_example(capsys):
    rc, out, _ = run(
        capsys, "score", "--player", "shir=KS 3D", "--player", "idan=QH JD 2C", "--winner", "roni",
        "--game", "classic", "--json",
    )
    assert rc == 0
    data = json.loads(out)
    assert data["scores"] == {"shir": 0, "idan": 0, "roni": 35}
    assert data["hands"] == {"shir": 13, "idan": 22, "roni": 0}


def test_score_rummy_and_closed(capsys):
    args = ["score", "--player", "shir=KS 3D", "--player", "idan=QH JD 2C", "--winner", "roni"]
    rc, out, _ = run(capsys, *args, "--game", "classic", "--rummy", "--json")
    assert json.loads(out)["scores"]["roni"] == 70
    rc, out, _ = run(capsys, *args, "--json")  # closed by default: played for a pot
    data = json.loads(out)
    assert data["scores"] == {"shir": -1, "idan": -1, "roni": 2}
    assert data["pot"] == 3 and data["entry"] == 1 and data["winners"] == ["roni"]
    rc, out, _ = run(capsys, *args)
    assert rc == 0 and "shir: -1 coin(s) (hand 13)" in out and "roni: +2 coin(s) (went out)" in out


def test_closed_game_is_played_for_a_pot(capsys):
    # the Israeli closed-rummy text: each player's entry goes into a pot and the declarer takes it
    args = ["score", "--player", "shir=KS 3D", "--player", "idan=QH JD 2C", "--winner", "roni"]
    rc, out, _ = run(capsys, *args, "--entry", "5", "--json")
    assert rc == 0 and json.loads(out)["scores"] == {"shir": -5, "idan": -5, "roni": 10}
    assert json.loads(out)["pot"] == 15
    # a tie returns each player's entry, with no fee
    rc, out, _ = run(capsys, "score", "--player", "shir=", "--player", "idan=", "--winner", "shir", "--winner", "idan",
                     "--json")
    assert rc == 0 and json.loads(out)["scores"] == {"shir": 0, "idan": 0}
    rc, out, err = run(capsys, *args, "--entry", "0")
    assert rc == 2 and "--entry" in err
    # the classic game keeps the points its text defines, and has one winner
    rc, out, err = run(capsys, "score", "--player", "shir=", "--player", "idan=", "--winner", "shir", "--winner",
                       "idan", "--game", "classic")
    assert rc == 2 and "tie" in err


def test_a_round_needs_two_players(capsys):
    rc, out, err = run(capsys, "score", "--player", "shir=", "--winner", "shir")
    assert rc == 2 and "at least one other player" in err


def test_suit_symbols_with_a_variation_selector(capsys):
    # rule texts write suits as symbols that carry an invisible variation selector (U+FE0E/U+FE0F)
    rc, out, _ = run(capsys, "check", "5\u2663\ufe0e 6\u2663\ufe0e 7\u2663\ufe0e 8\u2663\ufe0f", "--json")
    assert rc == 0 and json.loads(out)["melds"][0]["codes"] == ["5C", "6C", "7C", "8C"]


def test_cut_errors_name_the_option(capsys):
    rc, out, err = run(capsys, "declare", FOURTEEN, "--cut", "1Z")
    assert rc == 2 and out == "" and err.startswith("rummi cards: --cut 1Z:")


# --------------------------------------------------------------------------- redeal


def test_redeal(capsys):
    rc, out, _ = run(capsys, "redeal", "7H 7H 8S 8S 9D 9D 2C 4C 6C 10S JS QH KD AC", "--json")
    assert rc == 1
    data = json.loads(out)
    assert data["redeal"] is True and data["pairs"] == ["8S", "7H", "9D"]
    rc, out, _ = run(capsys, "redeal", "2H 3H 4H 7S 7D 7C JD QD 5S 9H 10C 2D 6C KC")
    assert rc == 0 and out.startswith("the hand stands")
    rc, out, _ = run(capsys, "redeal", "2H 3H 4H 7S 7D 7C JD QD KD 5S 9H 10C 2D 6C")
    assert rc == 1 and out.startswith("redeal: 9 cards already form series")


def test_redeal_two_jokers_are_a_pair(capsys):
    # "three pairs of exactly identical cards": the two jokers are exactly alike, so they are a pair
    rc, out, _ = run(capsys, "redeal", "2H 2H 5S 5S * * KD 3C 7S JC QD 4C 8H 10D", "--json")
    data = json.loads(out)
    assert rc == 1 and data["redeal"] is True and data["pairs"] == ["5S", "2H", "*"]


def test_cards_needs_an_action(capsys):
    with pytest.raises(SystemExit) as info:
        main(["cards"])
    assert info.value.code == 2
