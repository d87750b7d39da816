"""vision.consistent: the rules settle doubtful reads, and what stays doubtful is flagged."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from vision_fakes import prob_vector as pv

from engine.rules import DEFAULT_RULES
from engine.sets import analyse_set
from engine.tiles import parse_tile
from vision.consistent import (copy_warnings, group_witness, laid_in_order, meld_warnings, read_again,
                               read_consistently, rules_settle_turn, turned_lies_better)
from vision.upright import turned_code
from vision.yolo_format import CLASS_NAMES


def test_meld_invalidating_misread_is_fixed_and_flagged():
    probs = [pv({"O5": 0.95}), pv({"O6": 0.95}), pv({"K7": 0.50, "O7": 0.45}), pv({"O8": 0.95})]
    r = read_consistently(probs, [[0, 1, 2, 3]])
    assert r.codes == ["O5", "O6", "O7", "O8"]
    tile = r.tiles[2]
    assert tile.changed and tile.doubtful
    assert tile.model_code == "K7" and tile.model_p == pytest.approx(0.5, abs=0.01)
    assert tile.confidence > 0.9  # the rules make O7 far more likely than K7
    assert tile.alternatives and tile.alternatives[0][0] == "K7"
    assert not any(t.doubtful for k, t in enumerate(r.tiles) if k != 2)
    assert r.warnings == ["tile 3: read as O7 so that meld 1 is valid; it looked more like K7 (50%) - check it"]


def test_confident_valid_meld_is_untouched():
    probs = [pv({"R10": 0.97}), pv({"R11": 0.96}), pv({"R12": 0.98})]
    r = read_consistently(probs, [[0, 1, 2]])
    assert r.codes == ["R10", "R11", "R12"]
    assert not any(t.doubtful or t.changed for t in r.tiles)
    assert all(t.confidence > 0.95 for t in r.tiles)
    assert r.warnings == []


def test_a_meld_that_really_is_invalid_stays_invalid():
    probs = [pv({"K5": 0.97}), pv({"K6": 0.97}), pv({"B8": 0.97})]
    r = read_consistently(probs, [[0, 1, 2]])
    assert r.codes == ["K5", "K6", "B8"]
    assert meld_warnings([r.codes]) == [
        "meld 1 (K5 K6 B8) is not valid: K5 K6 B8 mixes colours and numbers: a run is one colour, "
        "a group is one number"
    ]


def test_third_copy_is_read_as_its_next_best():
    probs = [pv({"R7": 0.98, "R1": 0.01}), pv({"R7": 0.97, "K7": 0.02}), pv({"R7": 0.90, "R1": 0.08}), pv({"K3": 0.9})]
    r = read_consistently(probs)  # a rack: no melds
    assert r.codes == ["R7", "R7", "R1", "K3"]
    assert r.tiles[2].changed and r.tiles[2].doubtful
    assert not r.tiles[0].doubtful and not r.tiles[1].doubtful
    assert r.warnings == [
        "tile 3: read as R1 because a set has only 2 R7s and the photo has them elsewhere; "
        "it looked more like R7 (90%) - check it"
    ]


def test_a_certain_third_copy_is_kept_and_reported():
    probs = [pv({"R7": 0.999})] * 3
    r = read_consistently(probs)
    assert r.codes == ["R7", "R7", "R7"]
    assert all(t.doubtful for t in r.tiles)
    assert r.warnings == ["R7 appears 3 times in the photo; a set has only 2 - check tiles 1, 2, 3"]


def test_at_most_two_jokers():
    probs = [pv({"J": 0.99}), pv({"J": 0.98}), pv({"J": 0.70, "K13": 0.25})]
    r = read_consistently(probs)
    assert r.codes == ["J", "J", "K13"]
    assert r.tiles[2].doubtful


def test_known_tiles_elsewhere_count_towards_the_limit():
    probs = [pv({"B4": 0.8, "B1": 0.15}), pv({"O9": 0.9})]
    r = read_consistently(probs, known=["B4", "B4"])
    assert r.codes == ["B1", "O9"]
    assert r.tiles[0].changed and r.tiles[0].doubtful


def test_copy_limits_across_melds():
    # two melds each want K9; a third lone tile also looks like K9 a bit less
    probs = [
        pv({"K8": 0.95}), pv({"K9": 0.95}), pv({"K10": 0.95}),
        pv({"R9": 0.95}), pv({"B9": 0.95}), pv({"K9": 0.95}),
        pv({"K9": 0.60, "K6": 0.35}),
    ]
    r = read_consistently(probs, [[0, 1, 2], [3, 4, 5]])
    assert r.codes == ["K8", "K9", "K10", "R9", "B9", "K9", "K6"]
    assert r.tiles[6].doubtful and r.tiles[6].changed
    assert not any(t.doubtful for t in r.tiles[:6])


def test_lone_unsure_tile_is_doubtful_with_alternatives():
    r = read_consistently([pv({"B3": 0.55, "B8": 0.35})])
    t = r.tiles[0]
    assert t.code == "B3" and t.doubtful and not t.changed
    assert t.confidence == pytest.approx(0.55 + 0.1 / len(CLASS_NAMES), abs=1e-6)  # a lone tile: the model's p
    assert t.alternatives[0][0] == "B8"


def test_close_reads_in_a_meld_that_rules_cannot_settle_stay_doubtful():
    # K7 R7 ? where ? is B7 or O7 - both make a valid group
    probs = [pv({"K7": 0.97}), pv({"R7": 0.97}), pv({"B7": 0.5, "O7": 0.46})]
    r = read_consistently(probs, [[0, 1, 2]])
    assert r.codes[2] == "B7" and r.tiles[2].doubtful and not r.tiles[2].changed
    assert 0.4 < r.tiles[2].confidence < 0.6


def test_a_group_of_sixes_is_no_surer_of_its_way_up_than_each_tile():
    # each tile alone leans to 9 (its ink or its neighbours fooled alike): read jointly as independent
    # evidence, the group of 9s would be 0.8 ** 3 against 0.2 ** 3, a sure reading of three tiles that are all
    # wrong together if the photo is upside down
    probs = [pv({f"{c}9": 0.8, f"{c}6": 0.19}) for c in "RKO"]
    r = read_consistently(probs, [[0, 1, 2]], doubt_below=0.95)
    assert r.codes == ["R9", "K9", "O9"]
    for tile in r.tiles:
        assert tile.confidence == pytest.approx(0.8 + 0.01 / len(CLASS_NAMES), abs=1e-6)  # each tile's own
        assert tile.doubtful
        assert tile.alternatives[0][0] == tile.code[0] + "6"
        assert tile.alternatives[0][1] == pytest.approx(0.19 + 0.01 / len(CLASS_NAMES), abs=1e-6)


def test_a_group_misread_alike_is_no_surer_than_its_surest_tile():
    # a group of 7s in one font, blurred alike: each tile alone leans to a 1. Taken as four independent witnesses
    # the group of 1s would be all but certain (0.95 ** 4 against 0.04 ** 4); it is one number read four times
    probs = [pv({"O1": 0.95, "O7": 0.04}), pv({"B1": 0.96, "B7": 0.03}), pv({"R1": 0.94, "R7": 0.05}),
             pv({"K1": 0.96, "K7": 0.03})]
    r = read_consistently(probs, [[0, 1, 2, 3]], doubt_below=0.975)
    assert r.codes == ["O1", "B1", "R1", "K1"]
    surest = 0.96 + 4 * 0.01 / len(CLASS_NAMES)  # the surest tile's own 1, every colour counted
    for tile in r.tiles:
        assert tile.confidence == pytest.approx(surest, abs=1e-6)
        assert tile.doubtful


def test_one_clear_tile_settles_its_groups_number():
    # the group's number is as sure as its surest tile reads it: a clear K5 makes the blurred R5 beside it sure
    probs = [pv({"K5": 0.999}), pv({"R5": 0.6, "R6": 0.3}), pv({"B5": 0.97})]
    r = read_consistently(probs, [[0, 1, 2]], doubt_below=0.975)
    assert r.codes == ["K5", "R5", "B5"]
    assert r.tiles[1].confidence > 0.975 and not any(t.doubtful for t in r.tiles)


def test_group_witness():
    group = [pv({"K5": 0.9, "K6": 0.05}), pv({"J": 0.9}), pv({"R5": 0.7, "B5": 0.25})]
    # the joker witnesses nothing; the R5's 5 is 0.95, its colour aside (and the rest spread over all classes)
    assert group_witness(group, ["K5", "J", "R5"]) == pytest.approx(0.95 + 4 * 0.05 / len(CLASS_NAMES), abs=1e-6)
    assert group_witness(group, ["K5", "J", "K6"]) is None  # two numbers: no group
    assert group_witness(group, ["K5", "J", "J"]) is None  # one numbered tile: nothing read twice
    assert group_witness([pv({"R4": 0.9})] * 3, ["R4", "R5", "R6"]) is None  # a run


@settings(max_examples=200, derandomize=True, deadline=None)
@given(number=st.integers(1, 13), colours=st.sampled_from(["KRB", "KRBO", "ROB", "KO"]), data=st.data())
def test_a_group_is_never_surer_of_its_number_than_its_surest_tile_alone(number, colours, data):
    # each tile alone torn between the group's number and another, the same for all (one font misread alike)
    other = data.draw(st.integers(1, 13).filter(lambda m: m != number))
    probs, codes = [], []
    for colour in colours:
        right = data.draw(st.floats(0.05, 0.94))
        probs.append(pv({f"{colour}{number}": right, f"{colour}{other}": 0.95 - right}))
        codes.append(f"{colour}{number}")
    if len(colours) == 2:  # and a joker, to make a meld of three
        probs.append(pv({"J": 0.95}))
    r = read_consistently(probs, [list(range(len(probs)))])
    read = [t for t in r.tiles if t.code != "J"]
    shown = {int(t.code[1:]) for t in read}
    assume(len(shown) == 1)
    surest = max(float(p[CLASS_NAMES.index(f"{c}{n}")]) for p in probs[:len(colours)] for c in "KRBO"
                 for n in shown)
    own = max(sum(float(p[CLASS_NAMES.index(f"{c}{n}")]) for c in "KRBO") for p in probs[:len(colours)] for n in shown)
    assert surest <= own
    assert all(t.confidence <= own + 1e-9 for t in read)


def test_a_run_shows_which_way_up_its_six_lies():
    probs = [pv({"R4": 0.97}), pv({"R5": 0.97}), pv({"R6": 0.8, "R9": 0.19})]
    r = read_consistently(probs, [[0, 1, 2]], doubt_below=0.95)
    assert r.codes == ["R4", "R5", "R6"]
    assert r.tiles[2].confidence > 0.99 and not r.tiles[2].doubtful  # R4 R5 R9 is no meld: the rules settle it


def test_a_run_laid_in_order_tells_its_six_from_its_nine_and_one_laid_out_of_order_does_not():
    # turned over, B6 B7 B8 B9 holds the same tiles, but laid B9 B7 B8 B6 it is no run in order
    probs = [pv({"B6": 0.9, "B9": 0.09}), pv({"B7": 0.97}), pv({"B8": 0.97}), pv({"B9": 0.9, "B6": 0.09})]
    r = read_consistently(probs, [[0, 1, 2, 3]])
    assert r.codes == ["B6", "B7", "B8", "B9"]
    assert r.tiles[0].confidence > 0.97 and r.tiles[3].confidence > 0.97
    # the same tiles as a layout that mixed up their order reads them: the order shows nothing
    probs = [probs[1], probs[0], probs[2], probs[3]]
    r = read_consistently(probs, [[0, 1, 2, 3]])
    assert r.codes == ["B7", "B6", "B8", "B9"]
    assert r.tiles[1].confidence <= 0.91 and r.tiles[3].confidence <= 0.91
    assert r.tiles[0].confidence > 0.9  # a meld valid only as a set is trusted less than one in order


def test_a_run_is_read_in_the_order_it_is_laid_where_the_readers_turn_its_six_and_nine():
    # both readers lean the wrong way up on the 6 and the 9 (a row upside down they took for upright): read
    # alone, O9 O7 O8 O6 holds the same tiles as a run, but no run is laid that way
    probs = [pv({"O9": 0.6, "O6": 0.39}), pv({"O7": 0.97}), pv({"O8": 0.97}), pv({"O6": 0.6, "O9": 0.39})]
    r = read_consistently(probs, [[0, 1, 2, 3]], doubt_below=0.95)
    assert r.codes == ["O6", "O7", "O8", "O9"]
    assert r.tiles[0].changed and r.tiles[3].changed and r.tiles[0].doubtful  # the rules overrode the readers
    # laid the other way (a run read right to left), the same
    r = read_consistently(probs[::-1], [[0, 1, 2, 3]], doubt_below=0.95)
    assert r.codes == ["O9", "O8", "O7", "O6"]
    # a joker in its place: O9 J O7 O6 runs in order, O6 J O7 O9 does not
    probs = [pv({"O6": 0.6, "O9": 0.39}), pv({"J": 0.97}), pv({"O7": 0.97}), pv({"O9": 0.6, "O6": 0.39})]
    assert read_consistently(probs, [[0, 1, 2, 3]]).codes == ["O9", "J", "O7", "O6"]
    # and where no order runs (a group), the readers decide
    probs = [pv({"O9": 0.6, "O6": 0.39}), pv({"K9": 0.6, "K6": 0.39}), pv({"R9": 0.6, "R6": 0.39})]
    assert read_consistently(probs, [[0, 1, 2]]).codes == ["O9", "K9", "R9"]


@settings(max_examples=200, derandomize=True, deadline=None)
@given(colour=st.sampled_from("KRBO"), start=st.integers(1, 11), length=st.integers(3, 8), backwards=st.booleans(),
       data=st.data())
def test_a_run_laid_in_order_is_read_in_order_however_the_readers_lean_on_its_six_and_nine(colour, start, length,
                                                                                          backwards, data):
    # each 6 and 9 as likely as not read turned over (a quarter of a chance to three quarters): only the order
    # laid tells a run's 6 and 9 from the same tiles turned over
    codes = [f"{colour}{n}" for n in range(start, min(start + length, 14))]
    assume(len(codes) >= 3 and any(c[1:] in ("6", "9") for c in codes))
    codes = codes[::-1] if backwards else codes
    probs = []
    for code in codes:
        if code[1:] in ("6", "9"):
            turned = data.draw(st.floats(0.25, 0.75))
            probs.append(pv({code: 0.98 - turned, turned_code(code): turned}))
        else:
            probs.append(pv({code: 0.97}))
    assert read_consistently(probs, [list(range(len(codes)))]).codes == codes


def test_a_meld_valid_only_out_of_order_is_still_likelier_than_no_meld():
    # K5 ? K6 K7 with ? a K4 (no run as laid, but a run as a set) or a K12 (no meld at all)
    probs = [pv({"K5": 0.97}), pv({"K4": 0.5, "K12": 0.45}), pv({"K6": 0.97}), pv({"K7": 0.97})]
    assert read_consistently(probs, [[0, 1, 2, 3]]).codes == ["K5", "K4", "K6", "K7"]


def test_rules_settle_turn():
    assert turned_code("K6") == "K9" and turned_code("O9") == "O6" and turned_code("R8") == "R8" and turned_code("J") == "J"
    assert rules_settle_turn(["R4", "R5", "R6"])  # R4 R5 R9 is no meld
    assert rules_settle_turn(["K9", "K10", "K11"])
    assert rules_settle_turn(["R6", "R7", "R8"])  # R9 R7 R8 holds a run, but not laid in order
    assert rules_settle_turn(["R8", "R7", "R6"])  # laid the other way
    assert rules_settle_turn(["B6", "B7", "B8", "B9"])
    assert rules_settle_turn(["R6", "J", "R8"])  # R9 J R8: 7 or 10 for the joker, never in order
    assert not rules_settle_turn(["R6", "K6", "O6"])  # a group of 9s upside down
    assert not rules_settle_turn(["R6", "J", "O6"])
    assert not rules_settle_turn(["R7", "R6", "R8"])  # not laid in order as read: the order says nothing
    assert not rules_settle_turn(["K3", "K4", "K5"])  # no 6 or 9
    assert not rules_settle_turn(["R6", "K7", "B8"])  # no meld either way
    assert rules_settle_turn(["O9", "O10", "O11"], DEFAULT_RULES.with_(wrap_around=True))


def test_a_six_and_a_nine_read_the_wrong_way_up_in_a_run_laid_in_order_are_doubtful():
    # both readers sure of the wrong turn: K3 K4 K5 K9 K7 K8 K6 is a valid run, but not as laid
    probs = [pv({f"K{n}": 0.99}) for n in (3, 4, 5)] + [pv({"K9": 0.985, "K6": 0.014})] + \
            [pv({f"K{n}": 0.99}) for n in (7, 8)] + [pv({"K6": 0.985, "K9": 0.014})]
    r = read_consistently(probs, [list(range(7))], doubt_below=0.9)
    assert r.codes == ["K3", "K4", "K5", "K9", "K7", "K8", "K6"]
    assert r.tiles[3].doubtful and r.tiles[6].doubtful
    assert not any(t.doubtful for k, t in enumerate(r.tiles) if k not in (3, 6))
    assert turned_lies_better(r.codes) and not turned_lies_better(["K3", "K4", "K5", "K6", "K7", "K8", "K9"])
    assert not turned_lies_better(["R6", "K6", "O6"])


def test_laid_in_order():
    assert laid_in_order(["R4", "R5", "R6"]) and laid_in_order(["R6", "R5", "R4"]) and laid_in_order(["R4", "J", "R6"])
    assert laid_in_order(["K7", "B7", "R7"]) and laid_in_order(["J", "J", "K2"])
    assert not laid_in_order(["R5", "R4", "R6"]) and not laid_in_order(["R4", "R6", "J"])
    assert not laid_in_order(["O12", "O13", "O1"])
    assert laid_in_order(["O12", "O13", "O1"], DEFAULT_RULES.with_(wrap_around=True))
    assert laid_in_order(["K7", "K8", "JM", "K8", "K7"])  # a Twist joker says nothing of the order


def test_two_tile_groups_and_lone_tiles_get_no_validity_prior():
    probs = [pv({"K7": 0.6, "O7": 0.4}), pv({"O8": 0.9})]
    r = read_consistently(probs, [[0, 1]])
    assert r.codes == ["K7", "O8"]


def test_wrap_around_rule_is_respected():
    probs = [pv({"O12": 0.95}), pv({"O13": 0.95}), pv({"K1": 0.55, "O1": 0.4})]
    assert read_consistently(probs, [[0, 1, 2]]).codes == ["O12", "O13", "K1"]
    wrap = DEFAULT_RULES.with_(wrap_around=True)
    assert read_consistently(probs, [[0, 1, 2]], rules=wrap).codes == ["O12", "O13", "O1"]


_FACES = [c for c in CLASS_NAMES if c[0] in "KRBO"] + ["J"]


@settings(max_examples=400, derandomize=True, deadline=None)
@given(data=st.data(), wrap=st.booleans(), twist=st.booleans())
def test_no_valid_meld_is_ruled_out_before_the_rules_are_asked(data, wrap, twist):
    # the beam keeps a reading's validity only where the cheap test of its prefixes lets it through: the test may let
    # an invalid meld through, never stop a valid one (runs and groups, as laid or shuffled, with jokers)
    from vision.consistent import _could_be_valid

    rules = DEFAULT_RULES.with_(wrap_around=wrap, twist=twist)
    kind = data.draw(st.sampled_from(["run", "group", "any"]))
    if kind == "run":
        colour, length = data.draw(st.sampled_from("KRBO")), data.draw(st.integers(3, 13))
        start = data.draw(st.integers(1, 13 if wrap else 14 - length))
        codes = [f"{colour}{(start - 1 + k) % 13 + 1}" for k in range(length)]
    elif kind == "group":
        number = data.draw(st.integers(1, 13))
        codes = [f"{c}{number}" for c in data.draw(st.sampled_from(["KRB", "KRBO", "ROB"]))]
    else:
        codes = data.draw(st.lists(st.sampled_from(_FACES + (["JD", "JM", "JC"] if twist else [])), min_size=3, max_size=6))
    for k in data.draw(st.lists(st.integers(0, len(codes) - 1), max_size=2, unique=True)):
        codes[k] = "J"
    codes = data.draw(st.permutations(codes))
    if analyse_set([parse_tile(c, twist=True) for c in codes], rules).valid:
        assert _could_be_valid(tuple(codes), len(codes), rules)
        for cut in range(len(codes)):
            assert _could_be_valid(tuple(codes[:cut]), len(codes), rules)


def test_long_meld_is_fast_and_finds_the_valid_run():
    # 13-tile run, every tile unsure between its true face and another colour
    probs = [pv({f"B{k}": 0.5, f"O{k}": 0.42}) for k in range(1, 14)]
    probs[6] = pv({"K7": 0.5, "B7": 0.45})
    r = read_consistently(probs, [list(range(13))])
    codes = r.codes
    assert all(c[0] == codes[0][0] for c in codes) and [int(c[1:]) for c in codes] == list(range(1, 14))


def test_empty_and_bad_input():
    assert read_consistently(np.zeros((0, len(CLASS_NAMES)))).tiles == []
    with pytest.raises(ValueError, match=str(len(CLASS_NAMES))):
        read_consistently(np.ones((2, 10)))
    with pytest.raises(ValueError, match="meld 1 names tile 5"):
        read_consistently([pv({"K1": 0.9})], [[0, 5]])


def test_copy_warnings_text():
    assert copy_warnings(["R7", "J", "R7", "J", "J"]) == [
        "3 jokers in the photo; a set has only 2 jokers - check tiles 2, 4, 5"
    ]
    assert copy_warnings(["B2"], known=["B2", "B2"]) == [
        "B2 appears once in the photo (and 2 more elsewhere); a set has only 2 - check tile 1"
    ]


def test_read_again_changes_only_the_tiles_read_again():
    """A K8 and two B8s on a rack; the K8's ink shows it blue. Read jointly again, the copy limit moves one of the other
    two off B8, though nothing new was learnt of them; read again, only the first changes, and the three B8s are
    told as a copy too many."""
    first = read_consistently([pv({"K8": 0.99}), pv({"B8": 0.95, "B6": 0.05}), pv({"B8": 0.97, "R8": 0.03})])
    assert first.codes == ["K8", "B8", "B8"] and first.warnings == []
    held = [pv({"B8": 0.99}), pv({"B8": 0.95, "B6": 0.05}), pv({"B8": 0.97, "R8": 0.03})]
    joint = read_consistently(held)
    assert joint.codes != ["B8", "B8", "B8"]  # a copy limit moved a tile nothing new was learnt of
    both = read_again(first, joint, [0])
    assert both.codes == ["B8", "B8", "B8"]
    assert both.tiles[1].confidence == first.tiles[1].confidence and both.tiles[0].confidence == joint.tiles[0].confidence
    assert both.warnings == copy_warnings(["B8", "B8", "B8"]) and both.warnings[0].startswith("B8 appears 3 times")
    assert not first.tiles[1].doubtful and all(t.doubtful for t in both.tiles)  # one of the three is no B8
    # the tile read again loses its old warnings; another's stay
    meld = read_consistently([pv({"O5": 0.95}), pv({"O6": 0.95}), pv({"K7": 0.50, "O7": 0.45}), pv({"O8": 0.95})],
                             [[0, 1, 2, 3]])
    assert meld.warnings and read_again(meld, meld, [2]).warnings == [] and read_again(meld, meld, [0]).warnings == meld.warnings
    assert read_again(first, first, [], known=["K8", "K8"]).warnings == copy_warnings(first.codes, known=["K8", "K8"])
    with pytest.raises(ValueError, match="cannot stand in for"):
        read_again(first, meld, [0])
