"""The initial meld (engine/initial.py): the rulebook's examples and the edges."""

from __future__ import annotations

from engine.initial import InitialMeldCheck, check_initial_meld
from engine.rules import DEFAULT_RULES, HouseRules
from engine.tiles import parse_melds


def meld(text: str, rules: HouseRules = DEFAULT_RULES) -> InitialMeldCheck:
    return check_initial_meld(parse_melds(text), rules)


def test_run_of_33_opens():
    c = meld("R10 R11 R12")
    assert c.ok and c.total == 33 and c.threshold == 30 and c.reason is None
    assert len(c.sets) == 1 and c.sets[0].kind == "run"


def test_run_and_group_of_30_open():
    c = meld("K3 K4 K5 | K6 R6 B6")
    assert c.ok and c.total == 30


def test_two_small_groups_do_not_open():
    c = meld("K2 R2 B2 | K3 R3 B3")
    assert not c.ok and c.total == 15
    assert "15" in c.reason and "30" in c.reason


def test_jokers_count_as_the_tile_they_stand_for():
    c = meld("R10 J R12")
    assert c.ok and c.total == 33
    # J J O5 reads O3 O4 O5, but the group of 5s fits the written order as well and is worth more
    assert meld("J J O5").total == 15
    assert meld("J K7 K8").total == 21  # the written order leaves only K6 K7 K8
    assert meld("O5 J J").total == 18  # O5 O6 O7


def test_invalid_set_fails_and_is_named():
    c = meld("R10 R11 R12 | R7 R7 B7")
    assert not c.ok
    assert c.total == 33  # the valid sets only
    assert "set 2 (R7 R7 B7)" in c.reason and "appears twice" in c.reason


def test_house_threshold():
    rules = HouseRules(initial_meld=50)
    c = meld("R10 R11 R12", rules)
    assert not c.ok and c.threshold == 50
    assert meld("K2 R2 B2", HouseRules(initial_meld=0)).ok


def test_no_sets_is_not_a_meld():
    c = meld("")
    assert not c.ok and c.total == 0 and c.sets == ()
    assert "no sets" in c.reason
