"""Turn validation (engine/turns.py): one test per violation code, and legal turns."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules import DEFAULT_RULES, HouseRules
from engine.tiles import ALL_FACES, JOKER, parse_melds, parse_tiles
from engine.turns import CODES, TurnCheck, validate_turn


def turn(before: str, rack: str, after: str, rules: HouseRules = DEFAULT_RULES, opened: bool = True) -> TurnCheck:
    return validate_turn(parse_melds(before), parse_tiles(rack), parse_melds(after), rules, opened)


def codes(tiles) -> list[str]:
    return [t.code for t in tiles]


def assert_legal(check: TurnCheck) -> None:
    assert check.ok, [v.message for v in check.violations]
    assert check.violations == ()


def only(check: TurnCheck, code: str) -> str:
    assert not check.ok
    assert check.codes == (code,), [v.message for v in check.violations]
    return check.violations[0].message


# --------------------------------------------------------------------------- legal turns


def test_new_set_from_the_rack():
    c = turn("R1 R2 R3", "K5 K6 K7 B9", "R1 R2 R3 | K5 K6 K7")
    assert_legal(c)
    assert codes(c.placed) == ["K5", "K6", "K7"]
    assert codes(c.rack_after) == ["B9"]


def test_adding_to_a_set_on_the_table():
    c = turn("R1 R2 R3", "R4 B9", "R1 R2 R3 R4")
    assert_legal(c)
    assert codes(c.placed) == ["R4"]
    assert codes(c.rack_after) == ["B9"]


def test_rearrangement_moves_table_tiles_between_sets():
    # R8 leaves the run to make a group with two rack tiles
    assert_legal(turn("R5 R6 R7 R8 | K9 B9 O9 R9", "O8 B8", "R5 R6 R7 | R8 O8 B8 | K9 B9 O9 R9"))
    # splitting a run and adding in the middle
    assert_legal(turn("B1 B2 B3 B4 B5 B6", "B3 B7", "B1 B2 B3 | B3 B4 B5 B6 B7"))


def test_first_tables_can_be_empty():
    c = turn("", "R10 R11 R12", "R10 R11 R12", opened=False)
    assert_legal(c)
    assert c.rack_after == ()


def test_empty_sets_are_ignored():
    c = validate_turn([[]], parse_tiles("R1 R2 R3"), parse_melds("R1 R2 R3") + [[]])
    assert_legal(c)


def test_joker_retrieval_from_a_group_of_three_either_colour():
    assert_legal(turn("K5 R5 J", "B5 O6 O7", "K5 R5 B5 | J O6 O7"))
    assert_legal(turn("K5 R5 J", "O5 B6 B7", "K5 R5 O5 | J B6 B7"))


def test_joker_retrieval_from_a_group_of_four_needs_its_colour():
    assert_legal(turn("K5 R5 B5 J", "O5 B6 B7", "K5 R5 B5 O5 | J B6 B7"))
    wrong = turn("K5 R5 B5 J", "R5 B6 B7", "K5 R5 B5 R5 | J B6 B7")
    assert set(wrong.codes) == {"invalid_set", "joker_not_replaced"}
    assert "stood for O5" in next(v.message for v in wrong.violations if v.code == "joker_not_replaced")


def test_joker_retrieval_from_a_run():
    assert_legal(turn("K5 J K7", "K6 R1 R2", "K5 K6 K7 | R1 R2 J"))


def test_joker_stays_when_its_run_grows_or_splits():
    assert_legal(turn("K7 K8 J", "K10", "K7 K8 J K10"))
    assert_legal(turn("K7 K8 J", "K6", "K6 K7 K8 J"))
    assert_legal(turn("K5 J K7 K8 K9", "K10", "K5 J K7 | K8 K9 K10"))


def test_joker_in_a_group_of_three_may_change_colour_when_the_group_grows():
    # K5 R5 J stood for B5 or O5; adding B5 keeps the joker as O5
    assert_legal(turn("K5 R5 J", "B5", "K5 R5 B5 J"))


def test_tiles_may_move_around_a_joker_that_stays():
    # K5 leaves the group: the joker still stands for a 5 next to R5
    assert_legal(turn("K5 R5 J | K6 K7 K8", "B5", "R5 B5 J | K5 K6 K7 K8"))
    # K5 leaves the run: the joker is still K6 next to K7
    assert_legal(turn("K5 J K7 K8 | R5 B5 O5", "K9", "J K7 K8 K9 | K5 R5 B5 O5"))


def test_joker_reused_with_a_rack_tile_and_set_order_ignored():
    assert_legal(turn("R1 R2 R3 | K5 R5 J", "B5 O9 O10", "O9 J O10 | B5 R5 K5 | R3 R2 R1"))


def test_both_jokers_retrieved():
    assert_legal(turn("K5 R5 J J", "B5 O5 K1", "K5 R5 B5 O5 | K1 J J"))


def test_one_of_two_jokers_retrieved():
    assert_legal(turn("K5 R5 J J", "B5 K1 K2", "K5 R5 B5 J | K1 K2 J"))
    assert_legal(turn("K5 R5 J J", "O5 K1 K2", "K5 R5 O5 J | K1 K2 J"))


def test_rack_joker_and_retrieved_joker_together():
    # the rack's joker may go anywhere; the retrieved one sits with rack tiles
    assert_legal(turn("K5 R5 J | R1 R2 R3", "B5 J O9 O10", "K5 R5 B5 | R1 R2 R3 J | J O9 O10"))


# --------------------------------------------------------------------------- one test per code


def test_invalid_set():
    msg = only(turn("R1 R2 R3", "K5 B6 O7", "R1 R2 R3 | K5 B6 O7"), "invalid_set")
    assert "set 2 (K5 B6 O7)" in msg and "mixes colours and numbers" in msg


def test_no_tile_played():
    only(turn("R1 R2 R3", "K5", "R1 R2 R3"), "no_tile_played")
    # rearranging without playing a tile is not a turn either
    only(turn("R1 R2 R3 R4 R5 R6", "K5", "R1 R2 R3 | R4 R5 R6"), "no_tile_played")


def test_table_tile_taken():
    c = turn("R1 R2 R3 R4", "K5 K6 K7", "R1 R2 R3 | K5 K6 K7")
    msg = only(c, "table_tile_taken")
    assert "R4" in msg
    assert codes(c.rack_after) == []  # the taken tile does not count as the rack's


def test_not_from_rack():
    msg = only(turn("R1 R2 R3", "R4", "R1 R2 R3 R4 | B11 B12 B13"), "not_from_rack")
    assert "B11, B12, B13" in msg


def test_initial_meld_too_low():
    c = turn("", "K2 R2 B2 K3 R3 B3", "K2 R2 B2 | K3 R3 B3", opened=False)
    msg = only(c, "initial_meld_too_low")
    assert "15" in msg and "30" in msg
    # the same turn once opened is fine
    assert_legal(turn("", "K2 R2 B2 K3 R3 B3", "K2 R2 B2 | K3 R3 B3", opened=True))


def test_initial_meld_reaches_the_threshold_with_a_joker():
    assert_legal(turn("R1 R2 R3", "J R11 R12", "R1 R2 R3 | J R11 R12", opened=False))
    only(turn("", "J R2 R3", "J R2 R3", opened=False), "initial_meld_too_low")


def test_initial_meld_touched_table():
    c = turn("R1 R2 R3 R4", "R5 R6 K10 K11 K12", "R1 R2 R3 | R4 R5 R6 | K10 K11 K12", opened=False)
    msg = only(c, "initial_meld_touched_table")
    assert "R1 R2 R3 R4" in msg


def test_initial_meld_added_to_table():
    msg = only(turn("R1 R2 R3", "R4 K10 K11 K12", "R1 R2 R3 R4 | K10 K11 K12", opened=False), "initial_meld_added_to_table")
    assert "R4" in msg and "R1 R2 R3" in msg


def test_opening_additions_house_rule():
    rules = HouseRules(opening_additions=True)
    assert_legal(turn("R1 R2 R3", "R4 K10 K11 K12", "R1 R2 R3 R4 | K10 K11 K12", rules, opened=False))
    # the addition does not count toward the threshold
    c = turn("R1 R2 R3", "R4 K8 K9 K10", "R1 R2 R3 R4 | K8 K9 K10", rules, opened=False)
    assert only(c, "initial_meld_too_low")
    # adding alone is not an initial meld
    assert "no new sets" in only(turn("R1 R2 R3", "R4", "R1 R2 R3 R4", rules, opened=False), "initial_meld_too_low")


def test_joker_not_replaced():
    msg = only(turn("K5 R5 B5 J", "O6 O7", "K5 R5 B5 | J O6 O7"), "joker_not_replaced")
    assert "K5 R5 B5 J" in msg and "O5" in msg


def test_joker_replaced_by_the_wrong_end_of_a_run():
    # written K7 K8 J, the joker stands for K9 (it comes after K8)
    only(turn("K7 K8 J", "K6 R1 R2", "K6 K7 K8 | R1 R2 J"), "joker_not_replaced")


def test_joker_taken_when_its_set_is_broken_up():
    c = turn("K5 R5 J", "K3 K4 R6 R7 O6 O7", "K3 K4 K5 | R5 R6 R7 | J O6 O7")
    assert only(c, "joker_not_replaced")


def test_joker_not_reused():
    msg = only(turn("K5 R5 J | R1 R2 R3", "B5", "K5 R5 B5 | R1 R2 R3 J"), "joker_not_reused")
    assert "K5 R5 J" in msg


def test_joker_taken_back_to_the_rack():
    c = turn("K5 R5 J", "B5", "K5 R5 B5")
    assert only(c, "table_tile_taken")
    assert "J" in c.violations[0].message


def test_over_supply():
    c = turn("R1 R2 R3 | R1 R2 R3", "R1 R2 R3", "R1 R2 R3 | R1 R2 R3 | R1 R2 R3")
    assert set(c.codes) == {"over_supply"}
    assert any("3 copies of R1" in v.message for v in c.violations)


def test_every_code_is_documented():
    import engine.turns as turns

    for code in CODES:
        assert f"``{code}``" in turns.__doc__


def test_violations_are_listed_together():
    c = turn("R1 R2 R3 R4", "K5", "R1 R2 R3 | K5 B6 O7")
    assert set(c.codes) == {"invalid_set", "table_tile_taken", "not_from_rack"}


def test_invalid_table_before_does_not_crash_joker_checks():
    # the invalid set is still invalid after the turn, but its joker raises nothing else
    only(turn("K5 B6 J", "R1 R2 R3", "K5 B6 J | R1 R2 R3"), "invalid_set")


def test_too_many_jokers_skips_joker_matching():
    c = turn("R1 J J | K1 J J | B1 J J", "R2", "R1 R2 J J | K1 J J | B1 J J")
    assert "over_supply" in c.codes
    assert "joker_not_replaced" not in c.codes


# --------------------------------------------------------------------------- properties

tiles = st.sampled_from(ALL_FACES + (JOKER,))
melds = st.lists(st.lists(tiles, min_size=0, max_size=5), max_size=4)


@given(melds, st.lists(tiles, max_size=6), melds, st.booleans(), st.booleans())
@settings(max_examples=150, deadline=None)
def test_random_turns_never_crash(before, rack, after, opened, additions):
    c = validate_turn(before, rack, after, HouseRules(opening_additions=additions), opened)
    assert c.ok == (not c.violations)
    assert set(c.codes) <= set(CODES)
    assert len(c.placed) + len(c.rack_after) == len(rack)


# --------------------------------------------------------------------------- the rule texts (issue 13)


def test_a_table_joker_is_freed_only_with_a_tile_from_the_rack():
    # the rulebook: once opened you may take a joker from the table by putting in its place the
    # tile it stands for *from your rack*; a tile moved from another set on the table does not free it
    msg = only(turn("B1 B2 J | R3 O3 K3 B3", "R9 K9", "B1 B2 B3 | R3 O3 K3 | K9 R9 J"), "joker_not_replaced")
    assert "B3 was moved from the table" in msg and "from your rack" in msg
    only(turn("R5 K5 J | B5 B6 B7 B8", "O4 O6", "R5 K5 B5 | B6 B7 B8 | O4 J O6"), "joker_not_replaced")
    # with B3 from the rack it is a legal retrieval
    assert_legal(turn("B1 B2 J | R3 O3 K3 B3", "B3 R9 K9", "B1 B2 B3 | R3 O3 K3 B3 | K9 R9 J"))


def test_two_jokers_for_one_tile_need_two_copies_from_the_rack():
    # each freed joker needs its own tile from the rack: one B3 frees one joker, not two
    before = "B1 B2 J | J B4 B5 | B3 R3 K3 O3"
    after = "B1 B2 B3 | B3 B4 B5 | R3 K3 O3 | K9 R9 J J"
    assert "joker_not_replaced" in turn(before, "B3 K9 R9", after).codes
    assert_legal(turn("B1 B2 J | J B4 B5 | R3 K3 O3", "B3 B3 K9 R9", "B1 B2 B3 | B3 B4 B5 | R3 K3 O3 | K9 R9 J J"))


def test_a_freed_joker_goes_into_a_new_meld_with_rack_tiles():
    # the rulebook: the freed joker is played the same turn in a new set together with rack tiles;
    # growing an old set with it (K3 K4 K5 J K7) is not a new set
    msg = only(turn("B9 B10 J B12 | K3 K4 K5", "B11 K7", "B9 B10 B11 B12 | K3 K4 K5 J K7"), "joker_not_reused")
    assert "new set" in msg
    # nor is sliding the joker to the end of its own run
    only(turn("B9 B10 J B12", "B11", "B9 B10 B11 B12 J"), "joker_not_reused")
    assert_legal(turn("B9 B10 J B12 | K3 K4 K5", "B11 K7 K8", "B9 B10 B11 B12 | K3 K4 K5 | J K7 K8"))


def test_a_freed_joker_may_go_anywhere_as_a_house_rule():
    # the encyclopedia text only says the joker is moved elsewhere in the same turn
    anywhere = HouseRules(joker_reuse="anywhere")
    assert_legal(turn("B9 B10 J B12 | K3 K4 K5", "B11 K7", "B9 B10 B11 B12 | K3 K4 K5 J K7", anywhere))
    assert_legal(turn("K5 R5 J | R1 R2 R3", "B5", "K5 R5 B5 | R1 R2 R3 J", anywhere))
    # still only with its tile from the rack
    assert "joker_not_replaced" in turn(
        "B1 B2 J | R3 O3 K3 B3", "R9 K9", "B1 B2 B3 | R3 O3 K3 | K9 R9 J", anywhere
    ).codes


def test_placed_value_counts_a_joker_as_the_tile_it_stands_for():
    # in a meld a joker is worth the tile it stands for; 30 is only a joker left on a rack
    c = turn("", "R9 R10 J K1", "R9 R10 J", opened=False)
    assert c.ok and c.placed_value == 30
