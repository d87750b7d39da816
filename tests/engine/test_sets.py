"""Set validity, joker readings and the explanations (engine/sets.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules import DEFAULT_RULES, HouseRules
from engine.sets import analyse_set, interpretations, is_valid_set, set_value
from engine.tiles import ALL_FACES, COLOURS, JOKER, Tile, parse_tile, parse_tiles

WRAP = HouseRules(wrap_around=True)


def T(text: str) -> list[Tile]:
    return parse_tiles(text)


def codes(tiles) -> list[str]:
    return [t.code for t in tiles]


def check(text: str, rules: HouseRules = DEFAULT_RULES):
    return analyse_set(T(text), rules)


# --------------------------------------------------------------------------- plain sets


@pytest.mark.parametrize(
    "text, kind, value",
    [
        ("R10 R11 R12", "run", 33),
        ("R12 R10 R11", "run", 33),
        ("K1 K2 K3", "run", 6),
        ("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13", "run", 91),
        ("K7 R7 B7", "group", 21),
        ("K7 R7 B7 O7", "group", 28),
        ("O6 B6 K6", "group", 18),
    ],
)
def test_valid_sets(text, kind, value):
    c = check(text)
    assert c.valid and c.reason is None
    assert c.kind == kind
    assert c.value == value
    assert set_value(T(text)) == value
    assert is_valid_set(T(text))
    assert c.tiles == tuple(T(text))
    assert c.jokers == {}
    assert c.interpretations == (c.resolved,)


def test_run_resolves_in_play_order():
    assert codes(check("R12 R10 R11").resolved) == ["R10", "R11", "R12"]


def test_group_keeps_written_order():
    assert codes(check("O6 K6 B6").resolved) == ["O6", "K6", "B6"]


@pytest.mark.parametrize(
    "text, reason",
    [
        ("R7 R7 B7", "R7 appears twice: a group needs different colours"),
        ("K7 B7 R7 O7 J", "a group has at most 4 tiles"),
        ("O12 O13 O1", "O12 O13 O1 wraps 13-1: not allowed unless the wrap-around house rule is on"),
        ("J J J", "a full set has only 2 jokers"),
        ("R5 R6", "a set needs at least 3 tiles"),
        ("", "a set needs at least 3 tiles"),
        ("R7 B8 K9", "mixes colours and numbers"),
        ("R3 R4 R4", "R4 appears twice: a run needs different numbers"),
        ("R7 R7 J", "R7 appears twice: a group needs different colours, a run different numbers"),
        ("R3 R5 R9", "needs R4 R6 R7 R8 to be consecutive (4 tiles missing, 0 jokers"),
        ("R3 J R9", "needs R4 R5 R6 R7 R8 to be consecutive (5 tiles missing, 1 joker to fill them)"),
        ("O13 J O2", "wraps 13-1"),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J", "a run has at most 13 tiles"),
    ],
)
def test_invalid_sets_say_why(text, reason):
    c = check(text)
    assert not c.valid
    assert c.kind is None and c.value == 0
    assert c.resolved == () and c.interpretations == () and c.jokers == {}
    assert reason in c.reason
    assert not is_valid_set(T(text))
    assert set_value(T(text)) == 0


def test_wrap_around_house_rule():
    assert not check("O12 O13 O1").valid
    c = check("O12 O13 O1", WRAP)
    assert c.valid and c.kind == "run" and c.value == 26
    assert codes(c.resolved) == ["O12", "O13", "O1"]
    assert check("O12 O13 O1 O2", WRAP).valid
    assert check("O1 O2 O13 O12", WRAP).valid  # any written order
    assert codes(check("O13 J O2", WRAP).resolved) == ["O13", "O1", "O2"]
    # with wrap a run is still at most 13 tiles and still needs consecutive numbers
    assert not check("O1 O5 O13", WRAP).valid
    assert "needs O2 O3 O4" in check("O1 O5 O13", WRAP).reason
    assert "needs O10 O11 O12 O13 to be" in check("O1 O2 O9", WRAP).reason  # through 13-1
    full = "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13"
    assert check(full, WRAP).valid
    assert codes(check(full, WRAP).resolved) == full.split()  # the non-wrapping reading first
    assert not check(full + " J", WRAP).valid


# --------------------------------------------------------------------------- jokers


def test_forced_joker_in_a_run():
    c = check("B9 B10 J B12")
    assert c.valid and c.kind == "run"
    assert c.jokers == {2: (parse_tile("B11"),)}
    assert codes(c.resolved) == ["B9", "B10", "B11", "B12"]
    assert c.value == 42


def test_joker_in_the_middle_counts_its_value():
    c = check("B8 J B10")
    assert c.value == 27
    assert c.jokers == {1: (parse_tile("B9"),)}
    assert len(c.interpretations) == 1


def test_two_jokers_after_a_tile():
    c = check("O5 J J")
    assert c.valid and c.kind == "run"
    assert codes(c.resolved) == ["O5", "O6", "O7"]
    assert c.value == 18
    # the other readings are reported too: O4 O5 O6, O3 O4 O5 and groups of 5s
    assert ["O4", "O5", "O6"] in [codes(r) for r in c.interpretations]
    assert ["O3", "O4", "O5"] in [codes(r) for r in c.interpretations]
    assert "group" in c.kinds
    assert c.jokers[1][0] == parse_tile("O6") and c.jokers[2][0] == parse_tile("O7")
    assert parse_tile("O4") in c.jokers[1] and parse_tile("O3") in c.jokers[1]
    assert codes(c.interpretations[0]) == codes(c.resolved)


def test_two_jokers_before_a_tile():
    c = check("J J O5")
    assert codes(c.resolved) == ["O3", "O4", "O5"]
    assert c.value == 12


def test_group_joker_can_be_either_missing_colour():
    c = check("K5 R5 J")
    assert c.kind == "group"
    assert c.jokers == {2: (parse_tile("B5"), parse_tile("O5"))}
    assert c.value == 15
    assert c.best == 2  # both readings fit the written order


def test_group_of_four_joker_is_forced():
    c = check("K5 R5 B5 J")
    assert c.jokers == {3: (parse_tile("O5"),)}


def test_joker_at_the_end_of_a_run_follows_the_written_order():
    c = check("K7 K8 J")
    assert c.jokers == {2: (parse_tile("K9"), parse_tile("K6"))}
    assert c.value == 24
    assert c.best == 1
    c = check("J K7 K8")
    assert c.jokers == {0: (parse_tile("K6"), parse_tile("K9"))}
    assert c.value == 21


def test_equal_fit_prefers_the_higher_value():
    c = check("K7 J K8")  # K6 or K9 are both written out of order
    assert codes(c.resolved) == ["K7", "K8", "K9"]
    assert c.best == 2


def test_run_or_group_ambiguity():
    c = check("J J K5")
    assert c.kind == "run" and codes(c.resolved) == ["K3", "K4", "K5"]
    assert set(c.kinds) == {"run", "group"}
    assert ["R5", "B5", "K5"] in [codes(r) for r in c.interpretations]
    # a run would have to be written backwards: the group reading fits better
    c = check("J J K1")
    assert c.kind == "group" and codes(c.resolved) == ["R1", "B1", "K1"]
    assert ["K1", "K2", "K3"] in [codes(r) for r in c.interpretations]
    c = check("K13 J J")
    assert c.kind == "group"


def test_ambiguous_joker_at_the_edge_of_the_numbers():
    assert check("K12 K13 J").jokers == {2: (parse_tile("K11"),)}
    assert check("J K1 K2").jokers == {0: (parse_tile("K3"),)}


def test_interpretations_api_matches_analyse_set():
    readings = interpretations(T("O5 J J"))
    assert tuple(r.resolved for r in readings) == check("O5 J J").interpretations
    assert interpretations(T("R7 R7 B7")) == ()


def test_memoised():
    a = analyse_set(T("R1 R2 R3"))
    b = analyse_set(tuple(T("R1 R2 R3")))
    assert a is b
    assert analyse_set(T("O12 O13 O1"), WRAP) is not analyse_set(T("O12 O13 O1"))
    hash(a)  # usable as a dict key despite its jokers dict


# --------------------------------------------------------------------------- properties

colours = st.sampled_from(COLOURS)


@st.composite
def valid_runs(draw, wrap: bool = False):
    colour = draw(colours)
    length = draw(st.integers(3, 13))
    if wrap:
        start = draw(st.integers(1, 13))
        nums = [(start - 1 + k) % 13 + 1 for k in range(length)]
    else:
        start = draw(st.integers(1, 14 - length))
        nums = list(range(start, start + length))
    return [Tile(colour, n) for n in nums]


@st.composite
def valid_groups(draw):
    number = draw(st.integers(1, 13))
    cs = draw(st.lists(colours, min_size=3, max_size=4, unique=True))
    return [Tile(c, number) for c in cs]


valid_sets = st.one_of(valid_runs(), valid_groups())


@st.composite
def with_jokers(draw, sets):
    tiles = draw(sets)
    k = draw(st.integers(0, 2))
    where = draw(st.lists(st.integers(0, len(tiles) - 1), min_size=k, max_size=k, unique=True))
    return tiles, [JOKER if i in where else t for i, t in enumerate(tiles)]


@given(valid_sets, st.randoms(use_true_random=False))
@settings(max_examples=150, deadline=None)
def test_shuffled_valid_set_stays_valid(tiles, rnd):
    shuffled = list(tiles)
    rnd.shuffle(shuffled)
    c = analyse_set(shuffled)
    assert c.valid
    assert c.value == sum(t.number for t in tiles)


@given(valid_runs(wrap=True), st.randoms(use_true_random=False))
@settings(max_examples=80, deadline=None)
def test_shuffled_wrap_run_is_valid_with_wrap(tiles, rnd):
    rnd.shuffle(tiles)
    assert analyse_set(tiles, WRAP).valid


@given(with_jokers(valid_sets))
@settings(max_examples=200, deadline=None)
def test_jokers_keep_a_valid_set_valid(pair):
    original, jokered = pair
    c = analyse_set(jokered)
    assert c.valid
    # the original tiles are one of the readings
    assert any(sorted(r) == sorted(original) for r in c.interpretations)
    for reading in c.interpretations:
        assert JOKER not in reading
        assert analyse_set(reading).valid
        assert len(reading) == len(jokered)
    # each joker's choices are what the readings put in its place
    assert set(c.jokers) == {i for i, t in enumerate(jokered) if t.is_joker}
    for pos, choices in c.jokers.items():
        assert choices and all(not t.is_joker for t in choices)
    assert c.value == sum(t.number for t in c.resolved)


@given(with_jokers(valid_sets))
@settings(max_examples=100, deadline=None)
def test_resolving_the_jokers_gives_a_valid_set(pair):
    _, jokered = pair
    c = analyse_set(jokered)
    resolved = list(jokered)
    for pos, choices in c.jokers.items():
        resolved[pos] = choices[0]
    assert analyse_set(resolved).valid


tile_lists = st.lists(st.sampled_from(ALL_FACES + (JOKER,)), max_size=16)


@given(tile_lists, st.booleans())
@settings(max_examples=300, deadline=None)
def test_random_tiles_never_crash(tiles, wrap):
    c = analyse_set(tiles, WRAP if wrap else DEFAULT_RULES)
    assert c.valid == (c.reason is None)
    assert c.valid == bool(c.interpretations)
    if c.valid:
        assert c.kind in ("run", "group")
        assert c.value > 0
    else:
        assert c.reason and c.value == 0


def test_random_sets_order_independent_exhaustive_small():
    rnd = random.Random(7)
    for _ in range(300):
        tiles = [rnd.choice(ALL_FACES + (JOKER,)) for _ in range(rnd.randint(3, 5))]
        shuffled = tiles[:]
        rnd.shuffle(shuffled)
        assert is_valid_set(tiles) == is_valid_set(shuffled)


def test_codes_property():
    assert check("R1 J R3").codes == ["R1", "J", "R3"]


# --------------------------------------------------------------------------- the rule texts (issue 13)


def test_a_permissive_house_rule_never_changes_a_rulebook_reading():
    # K13 J J is the group of 13s under the rulebook; wrap-around adds K13 K1 K2 but keeps the group
    c = check("K13 J J", WRAP)
    assert c.kind == "group" and c.value == 39 and c.meld_value == 39
    assert ["K13", "K1", "K2"] in [codes(r) for r in c.interpretations]


def test_the_initial_meld_counts_the_reading_worth_most_the_written_order_allows():
    # a joker is worth the tile it stands for; of the readings the written order allows the
    # player counts the one worth most
    c = check("J J O5")
    assert c.value == 12 and c.meld_value == 15 and codes(c.meld_reading)[-1] == "O5"
    assert check("J K7 K8").meld_value == 21  # only K6 K7 K8 fits the written order
    # wrap-around: K12 K13 K1 K2 fits the order best, but the rulebook's K10-K13 is still claimable
    assert check("K12 K13 J J").meld_value == 46
    assert check("K12 K13 J J", WRAP).meld_value == 46


@given(tile_lists)
@settings(max_examples=300, deadline=None)
def test_wrap_around_never_makes_a_legal_meld_fail_or_count_less(tiles):
    # a permissive house rule must never make a legal meld or opening fail
    strict, loose = analyse_set(tiles), analyse_set(tiles, WRAP)
    if strict.valid:
        assert loose.valid and loose.meld_value >= strict.meld_value
    if loose.valid:
        assert loose.meld_value >= loose.value
