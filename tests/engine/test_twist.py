"""Rummikub Twist (the ``twist`` house rule): the special jokers JD (double), JM (mirror) and JC
(colour change) in the notation, set validity, the initial meld, turns and scoring - one test per
rule of the Twist sheet, with the sheet's examples, and property tests."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.initial import check_initial_meld
from engine.reasons import render
from engine.rules import DEFAULT_RULES, HouseRules
from engine.scoring import rack_value, score_round
from engine.sets import analyse_set
from engine.supply import check_supply
from engine.tiles import (
    ALL_FACES,
    COLOURS,
    COLOUR_JOKER,
    DOUBLE_JOKER,
    JOKER,
    MIRROR_JOKER,
    NotationError,
    Tile,
    parse_melds,
    parse_tile,
    parse_tiles,
)
from engine.turns import validate_turn

TWIST = HouseRules(twist=True)


def T(text: str) -> list[Tile]:
    return parse_tiles(text, twist=True)


def check(text: str, rules: HouseRules = TWIST):
    return analyse_set(T(text), rules)


def codes(tiles) -> list[str]:
    return [t.code for t in tiles]


def turn(before: str, rack: str, after: str, rules: HouseRules = TWIST, opened: bool = True):
    return validate_turn(parse_melds(before, twist=True), T(rack), parse_melds(after, twist=True), rules, opened)


# --------------------------------------------------------------------------- notation


def test_special_jokers_are_read_only_with_twist():
    for code in ("JD", "JM", "JC", "jd", "Jm"):
        with pytest.raises(NotationError) as exc:
            parse_tile(code, 0)
        assert exc.value.why_code.code == "twist_off"
        assert "only with the twist house rule" in str(exc.value)
    assert parse_tile("JD", twist=True) == DOUBLE_JOKER == Tile(None, None, "D")
    assert parse_tile("jm", twist=True) == MIRROR_JOKER
    assert parse_tile("JC", twist=True) == COLOUR_JOKER
    assert parse_tile("J", twist=True) == JOKER
    assert codes(T("R1 JD JM JC J")) == ["R1", "JD", "JM", "JC", "J"]
    assert not DOUBLE_JOKER.is_joker and DOUBLE_JOKER.is_special and JOKER.is_joker and not JOKER.is_special
    assert DOUBLE_JOKER != JOKER and len({JOKER, DOUBLE_JOKER, MIRROR_JOKER, COLOUR_JOKER}) == 4
    assert sorted(T("JC J JD K1 JM")) == T("K1 J JD JM JC")  # jokers last, then D, M, C
    with pytest.raises(NotationError):
        Tile(None, None, "X")


def test_one_of_each_special_joker_in_the_box():
    assert check_supply(T("JD JM JC J J")) == []
    assert check_supply(T("JD JD")) == ["2 copies of JD: a full set has only 1"]


def test_twist_off_a_special_joker_is_invalid_and_says_why():
    c = analyse_set([Tile("R", 2), DOUBLE_JOKER, Tile("R", 5)], DEFAULT_RULES)
    assert not c.valid and c.why.code == "twist_off"


# --------------------------------------------------------------------------- general rules


def test_special_jokers_never_take_the_place_of_a_regular_joker():
    assert check("R5 J R7").valid  # the regular joker as R6
    assert not check("R5 JC R7").valid  # a colour-change joker that changes nothing
    assert not check("R5 JD R7").valid  # a double joker for one number
    assert not check("K5 R5 JD B5").valid  # ... or for one colour


def test_every_set_keeps_three_tiles_even_with_a_double_joker():
    c = check("R12 JD")  # three numbers, two tiles
    assert not c.valid and c.why.code == "set_too_few_tiles"
    assert check("R11 R12 JD").valid


def test_a_set_may_hold_more_than_one_joker_of_any_kind():
    c = check("R1 J JD R5")
    assert c.valid and codes(c.resolved) == ["R1", "R2", "R3", "R4", "R5"]
    c = check("R5 JD JC B9")
    assert c.valid and codes(c.resolved) == ["R5", "R6", "R7", "R8", "B9"]
    assert check("K7 J JM K8 K7").valid


def test_a_set_needs_a_numbered_tile():
    assert check("J J JD").why.code == "twist_only_specials"
    assert check("JD JM JC").why.code == "twist_only_specials"


# --------------------------------------------------------------------------- double joker


def test_double_joker_in_a_run_the_sheets_example():
    c = check("R2 JD R5")  # "2 - Double Joker - 5: the Double Joker represents 3 and 4"
    assert c.valid and c.kind == "run"
    assert c.stands == {1: ((Tile("R", 3), Tile("R", 4)),)}
    assert c.meld_value == 14 and sum(t.number for t in c.stands[1][0]) == 7  # it counts 7


def test_double_joker_in_a_group_the_sheets_example():
    c = check("B3 R3 JD")  # "Blue 3 - Pink 3 - Double Joker: it represents the other two 3s"
    assert c.valid and c.kind == "group"
    assert set(c.stands[2][0]) == {Tile("K", 3), Tile("O", 3)}
    assert c.meld_value == 12
    assert not check("K3 R3 B3 JD").valid  # only one colour missing
    assert check("K3 J JD").valid  # a joker and a double: the three missing 3s (or a run)


def test_double_joker_first_last_or_middle():
    assert codes(check("JD R3 R4").resolved) == ["R1", "R2", "R3", "R4"]
    assert codes(check("R3 R4 JD").resolved) == ["R3", "R4", "R5", "R6"]
    assert codes(check("R3 JD R6").resolved) == ["R3", "R4", "R5", "R6"]


def test_double_joker_never_before_a_2_or_after_a_12():
    assert codes(check("JD R2 R3").resolved) == ["R2", "R3", "R4", "R5"]  # not R0 R1: it goes after
    assert codes(check("R12 R13 JD").resolved) == ["R10", "R11", "R12", "R13"]  # not after 13
    long = check("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 JD")
    assert not long.valid and long.why.code == "twist_double_end"
    # with wrap-around the double still never stands for 13-1
    wrap = TWIST.with_(wrap_around=True)
    assert not check("R12 JD R3", wrap).valid
    assert codes(check("R13 JD R3", wrap).resolved) == ["R13", "R1", "R2", "R3"]


def test_double_joker_freed_by_both_tiles_or_by_rearranging():
    # both tiles it stands for put in from the rack
    assert turn("R2 JD R5", "R3 R4 K1 K2", "R2 R3 R4 R5 | K1 K2 JD").ok
    # by rearranging the set (the sheet): R6 leaves, the double stays with R2 and R5
    assert turn("R2 JD R5 R6 | K7 B7 O7 R7", "R8", "R2 JD R5 | R6 R7 R8 | K7 B7 O7").ok
    # or moves to a new set: special jokers are not bound by the regular joker's replacement rule
    assert turn("R2 JD R5 | R3 K3 B3 O3 | R4 K4 B4 O4", "K5 K6", "R2 R3 R4 R5 | K3 B3 O3 | K4 B4 O4 | JD K5 K6").ok
    # but like every table tile it stays on the table
    assert "table_tile_taken" in turn("R2 JD R5 | K3 B3 O3", "R3 R4", "R2 R3 R4 R5 | K3 B3 O3").codes


# --------------------------------------------------------------------------- mirror joker


@pytest.mark.parametrize("text, kind_value", [("K7 K8 JM K8 K7", 30), ("K7 R7 JM R7 K7", 28), ("K7 JM K7", 14)])
def test_mirror_joker_makes_a_mirrored_series(text, kind_value):
    c = check(text)
    assert c.valid and c.kind == "mirror"
    assert c.meld_value == kind_value  # the mirror itself counts 0
    assert check_initial_meld([T(text)], TWIST.with_(initial_meld=kind_value)).ok
    assert 2 not in c.stands and not any(t.is_special for t in c.resolved)


def test_mirror_joker_a_tile_added_or_taken_on_one_side_goes_on_the_other_too():
    assert check("K6 K7 K8 JM K8 K7 K6").valid
    assert check("K7 K8 JM K8 K7 K6").why.code == "twist_mirror_unbalanced"
    assert not check("K7 JM K8 K7").valid
    assert not check("K7 R7 JM R7 K7 B7").valid
    assert check("B7 K7 R7 JM R7 K7 B7").valid


def test_mirror_holds_only_numbered_tiles_and_regular_jokers():
    assert check("K7 JM K7 JD").why.code == "twist_mirror_alone"
    assert check("K7 J JM K8 K7").valid


# --------------------------------------------------------------------------- colour-change joker


def test_colour_change_joker_lets_a_run_change_colour():
    c = check("R6 R7 JC B9 B10")
    assert c.valid and c.kind == "run" and c.meld_value == 40  # JC counts its number, 8
    assert codes(c.resolved) == ["R6", "R7", "R8", "B9", "B10"]
    assert check("O6 JC R8").valid
    assert check("O6 JC R8 JC B10", TWIST).why.code == "supply_copies"  # one in the box


def test_a_joker_only_part_of_a_colour_change_run_is_any_other_colour():
    c = check("J JC K11 K12")  # the joker's part has no numbered tile: red, blue or orange 9
    assert c.valid and {t.code for t in c.jokers[0]} == {"R9", "B9", "O9"}
    assert c.jokers[0][0] == Tile("R", 9)  # chosen: the first colour (K R B O) that fits
    assert codes(c.resolved) == ["R9", "R10", "K11", "K12"]


def test_colour_change_joker_needs_a_change_a_place_inside_and_numbers_going_on():
    assert check("R6 R7 JC R9 R10").why.code == "twist_colour_change_place"  # no colour change
    assert check("JC R7 R8").why.code == "twist_colour_change_place"  # at an end
    assert not check("R6 R7 JC B10").valid  # the numbers must go on
    assert check("K5 R5 JC").why.code == "twist_colour_change_group"
    assert not check("R6 B7 JC O9").valid  # one colour before it


# --------------------------------------------------------------------------- scoring, turns


def test_special_jokers_left_on_a_rack_cost_the_joker_penalty():
    assert rack_value(T("JD JM JC K5"), TWIST) == 95
    assert rack_value(T("JM"), TWIST.with_(joker_penalty=50)) == 50
    assert score_round({"a": T("JM"), "b": []}, "b", TWIST) == {"a": -30, "b": 30}


def test_placed_value_counts_what_the_special_jokers_stand_for():
    c = turn("", "R2 JD R5 K7 JM", "R2 JD R5", opened=False, rules=TWIST.with_(initial_meld=14))
    assert c.ok and c.placed_value == 14
    c = turn("", "R2 JD R5 K7 JM", "R2 JD R5", opened=False, rules=TWIST.with_(initial_meld=15))
    assert c.codes == ("initial_meld_too_low",)


def test_reasons_render_for_every_twist_code():
    for text in ["J J JD", "K7 JM K7 JD", "K7 K8 JM K8", "K5 R5 JC", "JC R7 R8", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 JD", "K3 R3 B3 JD"]:
        c = check(text)
        assert not c.valid and c.reason == render(c.why) and c.why.code.startswith(("twist_", "set_"))


# --------------------------------------------------------------------------- properties

FACES = st.sampled_from(ALL_FACES)
NOT_TWIST_SPECIAL = TWIST


def _runs(colour: str, start: int, length: int) -> list[Tile]:
    return [Tile(colour, start + k) for k in range(length)]


@settings(max_examples=300, deadline=None)
@given(
    colour=st.sampled_from(COLOURS),
    start=st.integers(1, 11),
    length=st.integers(4, 13),
    at=st.integers(0, 12),
    jokers=st.lists(st.integers(0, 12), max_size=2),
    data=st.randoms(use_true_random=False),
)
def test_a_run_with_a_double_joker_is_the_run_it_stands_for(colour, start, length, at, jokers, data):
    assume(start + length - 1 <= 13 and at + 1 < length)
    run = _runs(colour, start, length)
    written: list[Tile] = list(run)
    written[at : at + 2] = [DOUBLE_JOKER]
    for j in jokers:
        if j < len(written) and not written[j].is_special and sum(t.is_joker for t in written) < 2:
            written[j] = JOKER
    assume(any(not t.is_joker and not t.is_special for t in written))
    data.shuffle(written)
    c = analyse_set(written, TWIST)
    assert c.valid, (written, c.reason)
    for reading in c.interpretations:  # every reading, jokers replaced: a valid base-game set
        assert analyse_set(list(reading)).valid
    assert analyse_set(run).valid


@settings(max_examples=200, deadline=None)
@given(number=st.integers(1, 13), colours=st.permutations(COLOURS), joker=st.booleans(), data=st.randoms(use_true_random=False))
def test_a_group_with_a_double_joker_is_the_group_of_four(number, colours, joker, data):
    faces = [Tile(c, number) for c in colours[: 1 if joker else 2]]
    written = faces + [DOUBLE_JOKER] + ([JOKER] if joker else [])
    data.shuffle(written)
    c = analyse_set(written, TWIST)
    assert c.valid
    for reading, kind in zip(c.interpretations, c.kinds):
        assert analyse_set(list(reading)).valid
        if kind == "group":
            assert sorted(reading) == sorted(Tile(x, number) for x in COLOURS)


@settings(max_examples=300, deadline=None)
@given(
    first=st.sampled_from(COLOURS),
    second=st.sampled_from(COLOURS),
    start=st.integers(1, 11),
    before=st.integers(1, 6),
    after=st.integers(1, 6),
    data=st.randoms(use_true_random=False),
)
def test_a_run_that_changes_colour_at_the_colour_change_joker(first, second, start, before, after, data):
    length = before + 1 + after
    assume(first != second and start + length - 1 <= 13)
    written = _runs(first, start, before) + [COLOUR_JOKER] + _runs(second, start + before + 1, after)
    data.shuffle(written)
    c = analyse_set(written, TWIST)
    assert c.valid and c.kind == "run"
    for reading in c.interpretations:  # the numbers go on; one colour before the joker, one after
        numbers = [t.number for t in reading]
        assert numbers == list(range(numbers[0], numbers[0] + length))
        left, right = reading[: before + 1], reading[before + 1 :]
        assert len({t.colour for t in left}) == 1 and len({t.colour for t in right}) == 1
        assert analyse_set(list(left)).valid or len(left) < 3
    # the same tiles without the change of colour are never valid
    same = _runs(first, start, before) + [COLOUR_JOKER] + _runs(first, start + before + 1, after)
    assert not analyse_set(same, TWIST).valid


@settings(max_examples=300, deadline=None)
@given(tiles=st.lists(st.sampled_from(ALL_FACES + (JOKER,)), min_size=0, max_size=7))
def test_twist_changes_nothing_without_special_jokers(tiles):
    base, twist = analyse_set(tiles), analyse_set(tiles, TWIST)
    assert (base.valid, base.kind, base.value, base.meld_value, base.reason, base.resolved) == (
        twist.valid, twist.kind, twist.value, twist.meld_value, twist.reason, twist.resolved
    )


def test_a_special_joker_never_frees_a_regular_joker():
    # J stood for O10; afterwards the JD covers O10 and J is O13: the joker was taken without O10
    c = turn("O9 J JD | R8 R9 R10", "O8 R6 O12", "O8 O9 JD O12 J | R8 R9 R10")
    assert "joker_not_replaced" in c.codes
    # with O10 from the rack in its place, it is freed
    assert turn("O9 J JD | R8 R9 R10", "O10 R11 R12", "O9 O10 JD | R8 R9 R10 | R11 R12 J").ok
