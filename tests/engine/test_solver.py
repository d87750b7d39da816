"""The hint solver: the known traps, the tie-breaks, jokers, the opening, moves text."""

from __future__ import annotations

import types
from collections import Counter

import numpy as np
import pytest

from engine.rules import DEFAULT_RULES, HouseRules
from engine.solver import Hint, best_play, best_meld_points, ilp
from engine.solver.catalogue import catalogue, exposed_jokers
from engine.supply import OverSupply
from engine.tiles import format_tiles, parse_melds, parse_tiles
from engine.turns import validate_turn


def hint(table: str, rack: str, rules: HouseRules = DEFAULT_RULES, **kw) -> Hint:
    h = best_play(parse_melds(table), parse_tiles(rack), rules, **kw)
    if not h.draw:  # every answer is a legal turn
        check = validate_turn(parse_melds(table), parse_tiles(rack), h.table, rules, kw.get("opened", True))
        assert check.ok, check.violations
        assert Counter(check.placed) == Counter(h.placed)
        assert Counter(h.rack_left) + Counter(h.placed) == Counter(parse_tiles(rack))
    return h


def sets(h: Hint) -> list[str]:
    return [format_tiles(s) for s in h.table]


# --------------------------------------------------------------------------- the traps


def test_redundant_joker_on_the_table_is_no_obstacle():
    h = hint("R4 R5 R6 J", "B1 B2 B3")
    assert h.tiles_placed == 3 and h.optimal and not h.draw
    assert "R4 R5 R6 J" in sets(h)


def test_four_of_a_kind_opens_with_40():
    h = hint("", "K10 B10 O10 R10", opened=False)
    assert h.tiles_placed == 4 and h.meld_points == 40


def test_joker_counts_as_the_tile_it_stands_for_in_the_opening():
    h = hint("", "K10 B10 J", opened=False)
    assert h.tiles_placed == 3 and h.meld_points == 30 and not h.draw


def test_equal_sets_are_both_counted_in_the_opening():
    h = hint("", "K5 R5 B5 K5 R5 B5", DEFAULT_RULES.with_(initial_meld=30), opened=False)
    assert h.tiles_placed == 6 and h.meld_points == 30


def test_tiny_time_limit_still_returns_a_play():
    h = hint("K3 K4 K5 K6 K7 | O9 R9 B9 K9", "B1 B2 B3 O10 O11 K5", time_limit=1e-9)
    assert not h.draw and h.tiles_placed >= 3


def test_joker_from_the_rack_goes_at_the_end_of_a_run_or_into_a_group_of_four():
    assert hint("K3 K4 K5", "J").tiles_placed == 1
    assert hint("K5 R5 B5", "J").tiles_placed == 1
    assert hint("R1 R2 R3 R4", "J").exposed_jokers == 1  # nowhere safer to put it


def test_catalogue_has_every_face_set():
    # groups: 13 numbers x (4 groups of three + 1 of four); runs of 3-5 in 4 colours
    assert len(catalogue(DEFAULT_RULES)) == 13 * 5 + 4 * (11 + 10 + 9)
    assert len(catalogue(DEFAULT_RULES.with_(wrap_around=True))) == 13 * 5 + 4 * 13 * 3


# --------------------------------------------------------------------------- rearranging


def test_extends_a_run_without_disturbing_it():
    h = hint("K3 K4 K5 K6 K7", "K8")
    assert h.tiles_placed == 1 and h.sets_disturbed == 0
    assert sets(h) == ["K3 K4 K5 K6 K7 K8"]
    assert h.moves == ("add K8 from your rack to K3 K4 K5 K6 K7, making K3 K4 K5 K6 K7 K8",)


def test_split_and_take_moves():
    h = hint("K3 K4 K5 K6 K7 | O9 R9 B9 K9", "O10 O11 K5")
    assert h.tiles_placed == 3 and h.sets_disturbed == 2
    assert "split K3 K4 K5 K6 K7 into K3 K4 K5 and K6 K7" in h.moves
    assert "take O9 from O9 R9 B9 K9" in h.moves
    assert "add K5 from your rack to K6 K7, making K5 K6 K7" in h.moves
    assert "make O9 O10 O11 from O9 and O10 O11 from your rack" in h.moves


def test_steps_are_reasons_the_moves_say_in_english():
    h = hint("K3 K4 K5 K6 K7 | O9 R9 B9 K9", "O10 O11 K5")
    assert h.moves == tuple(s.text for s in h.steps)
    codes = {s.code: dict(s.params) for s in h.steps}
    assert codes["step_split"] == {"set": "K3 K4 K5 K6 K7", "pieces": ("K3 K4 K5", "K6 K7")}
    assert codes["step_take"] == {"tiles": ("O9",), "set": "O9 R9 B9 K9"}
    assert codes["step_make"] == {"made": "O9 O10 O11", "pieces": ("O9",), "rack": "O10 O11"}
    as_json = h.best.as_dict()["steps"]
    assert [s["code"] for s in as_json] == [s.code for s in h.steps]


def test_replacing_a_joker_is_one_step_and_the_joker_is_named():
    # the rulebook: the joker's tile from the rack takes its place, the joker goes on with rack tiles
    h = hint("B9 B10 J B12 | K3 K4 K5", "B11 K7 K6")
    assert h.moves == (
        "replace the joker in B9 B10 J B12 with B11 from your rack, making B9 B10 B11 B12",
        "make K6 K7 J from the joker and K6 K7 from your rack",
    )
    assert [s.code for s in h.steps] == ["step_replace_joker", "step_make"]
    assert h.steps[1].params["pieces"] == ("J",)  # the joker alone: the words are the app's to choose


def test_lay_down_move_and_untouched_sets_not_mentioned():
    h = hint("R4 R5 R6 J | K7 B7 O7", "B1 B2 B3 K7")
    assert h.moves == ("lay down B1 B2 B3 from your rack",)
    assert h.sets_disturbed == 0


def test_fewer_sets_disturbed_breaks_a_tie():
    # K7 fits as K1 K2 K3 | K4 K5 K6 K7 (a split) or at the end of the run (nothing disturbed)
    h = hint("K1 K2 K3 K4 K5 K6", "K7")
    assert h.tiles_placed == 1 and h.sets_disturbed == 0
    assert sets(h) == ["K1 K2 K3 K4 K5 K6 K7"]


def test_higher_value_breaks_a_tie_on_tiles():
    # one joker: K1 K2 J or J K12 K13, three tiles either way; the high one is worth more
    h = hint("", "K1 K2 J K12 K13")
    assert h.tiles_placed == 3
    assert Counter(h.placed) == Counter(parse_tiles("K12 K13 J"))
    assert h.rack_points_shed == 12 + 13 + DEFAULT_RULES.joker_penalty  # the objective's measure
    assert h.value_placed == 11 + 12 + 13  # the rules': the joker is K11


def test_exposed_joker_breaks_a_tie():
    # K1 K2 K3 K4 K5 J leaves the joker at the end; K4 K5 J on its own does not
    h = hint("R9 B9 O9 | K1 K2 K3", "J K4 K5")
    assert h.tiles_placed == 3 and h.sets_disturbed == 0 and h.exposed_jokers == 0


def test_alternatives_place_different_rack_tiles():
    h = hint("K5 K6 K7 | R9 B9 O9", "K4 K8", top_k=3)
    assert h.tiles_placed == 2
    placed = [Counter(h.placed)] + [Counter(a.placed) for a in h.alternatives]
    assert len(h.alternatives) == 2
    assert all(placed[i] != placed[j] for i in range(3) for j in range(i))
    assert all(a.tiles_placed <= h.tiles_placed for a in h.alternatives)


# --------------------------------------------------------------------------- jokers on the table


def test_joker_retrieved_by_its_tile_and_played_again():
    h = hint("R4 J R6 | K7 B7 O7", "R5 K8 K9")
    assert h.tiles_placed == 3
    assert "R4 R5 R6" in sets(h)
    assert any("J" in s and "K8" in s and "K9" in s for s in sets(h))


def test_freed_joker_goes_into_a_new_meld_with_rack_tiles():
    # the rulebook: K7 frees the joker of K5 K6 J, but the joker then needs a new set with tiles
    # from the rack; sliding it to the end of its own run (K5 K6 K7 J) is not a new set
    assert hint("K5 K6 J | R9 B9 O9", "K7").draw
    # the encyclopedia text (house rule): the freed joker may go anywhere on the table
    h = hint("K5 K6 J | R9 B9 O9", "K7", DEFAULT_RULES.with_(joker_reuse="anywhere"))
    assert h.tiles_placed == 1


def test_joker_cannot_be_taken_without_its_tile():
    # without R5 the joker of R4 J R6 stays, so K8 K9 cannot use it
    h = hint("R4 J R6", "K8 K9")
    assert h.draw and h.optimal


def test_exposed_joker_measure():
    t = parse_tiles
    assert exposed_jokers(t("K3 K4 K5 J"), DEFAULT_RULES) == 1
    assert exposed_jokers(t("K3 J K5 K6"), DEFAULT_RULES) == 0
    assert exposed_jokers(t("K5 R5 B5 J"), DEFAULT_RULES) == 1
    assert exposed_jokers(t("K5 R5 J"), DEFAULT_RULES) == 0


# --------------------------------------------------------------------------- opening and draws


def test_opening_leaves_the_table_alone():
    h = hint("K3 K4 K5", "K6 R10 R11 R12", opened=False)
    assert h.tiles_placed == 3 and "K3 K4 K5" in sets(h)
    assert h.meld_points == 33


def test_opening_additions_house_rule():
    rules = DEFAULT_RULES.with_(opening_additions=True)
    h = hint("K3 K4 K5", "K6 R10 R11 R12", rules, opened=False)
    assert h.tiles_placed == 4


def test_no_opening_says_how_far_off():
    h = hint("", "K7 K8 K9 R1 B1", opened=False)
    assert h.draw and h.best_meld == 24 and h.shortfall == 6 and h.optimal
    assert best_meld_points(parse_tiles("K7 K8 K9 R1 B1")) == 24


def test_draw_when_nothing_fits():
    h = hint("K3 K4 K5", "R9 B1 O13")
    assert h.draw and h.tiles_placed == 0 and h.rack_left == tuple(parse_tiles("R9 B1 O13"))


def test_wrap_around_house_rule():
    assert hint("", "O12 O13 O1").draw
    assert hint("", "O12 O13 O1", DEFAULT_RULES.with_(wrap_around=True)).tiles_placed == 3


# --------------------------------------------------------------------------- bad input


def test_invalid_table_set_is_an_error():
    with pytest.raises(ValueError, match="table set 1"):
        best_play(parse_melds("R4 R5"), parse_tiles("B1"))


def test_over_supply_is_an_error():
    with pytest.raises(OverSupply):
        best_play(parse_melds("B1 B2 B3"), parse_tiles("B1 B1"))


BIG_TABLE = (
    "B5 K5 R5 O5 | R13 B13 O13 K13 | K3 K4 K5 K6 | O10 O11 J | B8 O8 R8 K8 | B1 B2 B3 B4 | O3 O4 O5 | "
    "R1 R2 R3 R4 | B13 K13 O13 | R6 J R8 R9 R10 R11 | R2 R3 R4 R5 R6 R7 | O6 O7 O8 O9 O10 O11 | "
    "K12 O12 R12 B12 | B12 O12 K12 | B2 B3 B4 B5 B6 B7 | K7 B7 O7 R7 | R1 B1 K1 | B10 K10 R10 | "
    "R9 K9 B9 O9 | K6 K7 K8 K9 | K1 K2 K3 | R11 R12 R13"
)
BIG_RACK = "K11 O2 O4 B8 K4 K2 O2 O1 K11 B6 O6 B11 B9 O1 K10 B11"


def test_a_90_tile_table_goes_out_and_is_proven():
    h = hint(BIG_TABLE, BIG_RACK)
    assert h.tiles_placed == 16 and h.rack_left == () and h.optimal


def test_time_limit_returns_the_best_found_not_proven(monkeypatch):
    # a clock that jumps a second at every look: the integer program is out of time at once
    clock = iter(range(10**6))
    monkeypatch.setattr(ilp, "time", types.SimpleNamespace(perf_counter=lambda: float(next(clock))))
    h = hint(BIG_TABLE, BIG_RACK, time_limit=1e-6)
    assert not h.draw and 0 < h.tiles_placed <= 16
    assert not h.optimal


def test_a_pooled_instance_gives_each_relaxation_its_whole_time_limit(monkeypatch):
    """HiGHS instances are reused (the app's process lives for hours), and HiGHS's simplex holds its
    time limit against an instance's clock over all its runs: a program whose relaxation is integral
    must still be settled by the branch and bound, not handed on as out of time."""
    rng = np.random.default_rng(0)
    n, m = 60, 20  # a 0/1 knapsack with 20 constraints: HiGHS's MIP solver spends its whole limit on it
    a = rng.integers(1, 20, (m, n)).astype(float)
    hard = ilp.Ilp(rng.integers(1, 30, n).astype(float), np.zeros(n), np.ones(n), np.arange(0, m * n + 1, m),
                   np.tile(np.arange(m), n), a.T.reshape(-1), np.full(m, -np.inf), np.full(m, 60.0))
    assert not hard.solve(0.3, quick=False).optimal
    del hard  # its instance, with 0.3 s on its clock, is the next program's
    # an assignment of 8 to 8 (its relaxation is integral), the best one the diagonal
    k = 8
    cost = np.where(np.eye(k, dtype=bool), 10.0, rng.integers(0, 5, (k, k))).reshape(-1)
    index = np.stack([np.repeat(np.arange(k), k), k + np.tile(np.arange(k), k)], axis=1).reshape(-1)
    monkeypatch.setattr(ilp.Ilp, "_mip", lambda self, deadline: pytest.fail("the relaxation was cut short"))
    res = ilp.Ilp(cost, np.zeros(k * k), np.ones(k * k), np.arange(0, 2 * k * k + 1, 2), index,
                  np.ones(2 * k * k), np.full(2 * k, -np.inf), np.ones(2 * k)).solve(0.2)
    assert res.optimal and res.objective == 80.0


# --------------------------------------------------------------------------- the rule texts (issue 13)


@pytest.mark.parametrize(
    "table, rack",
    [("B1 B2 J | R3 O3 K3 B3", "R9 K9"), ("R5 K5 J | B5 B6 B7 B8", "O4 O6")],
)
def test_a_table_joker_is_freed_only_with_a_tile_from_the_rack(table, rack):
    # the rulebook: the joker's tile must come from the rack, not from another set on the table
    h = hint(table, rack)
    assert h.draw and h.optimal and h.cuts == 0


def test_a_freed_joker_goes_into_a_new_meld_not_an_old_one():
    # the rulebook: the freed joker goes into a new set with rack tiles, not into K3 K4 K5
    h = hint("B9 B10 J B12 | K3 K4 K5", "B11 K7")
    assert h.draw and h.optimal
    h = hint("B9 B10 J B12 | K3 K4 K5", "B11 K7", DEFAULT_RULES.with_(joker_reuse="anywhere"))
    assert h.tiles_placed == 2


@pytest.mark.parametrize("rack", ["K13 J J", "R13 J J", "K12 J J", "O13 J J"])
def test_optimal_means_only_that_the_time_limit_did_not_stop_the_search(rack):
    # "not proven best" is said only when the time limit struck; no rule check cuts these off
    h = hint("", rack, DEFAULT_RULES.with_(wrap_around=True), opened=False)
    assert h.optimal and h.cuts == 0 and h.tiles_placed == 3 and h.meld_points >= 36


def test_values_shown_follow_the_rules():
    # the joker in R9 R10 J stands for R11: the play is worth 30, not 49 (30 is a rack penalty)
    h = hint("", "R9 R10 J K1", opened=False)
    assert h.value_placed == 30 and h.meld_points == 30
    assert h.rack_points_shed == 9 + 10 + DEFAULT_RULES.joker_penalty
    data = h.as_dict()
    assert data["value_placed"] == 30 and data["rack_points_shed"] == 49 and data["cuts"] == 0


def test_hint_holds_its_play():
    h = hint("R4 R5 R6 J | K7 B7 O7", "B1 B2 B3 K7")
    assert h.play is h.best and h.tiles_placed == h.best.tiles_placed
    data = h.as_dict()
    assert list(data)[:4] == ["draw", "optimal", "solve_ms", "opened"]
    assert {k: v for k, v in h.best.as_dict().items() if k != "optimal"}.items() <= data.items()
    assert hint("K3 K4 K5", "R9").play is None
