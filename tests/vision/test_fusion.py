"""vision.fusion, and the reader with a stand-in number reader: agreement, disagreement, 6/9, blanks, jokers."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from vision_fakes import FakeModel, FakeNumberReader, number_vector, prob_vector, raw_tile

from vision.calibration import Calibration
from vision.fusion import (FusionParams, colour_disagreement, colour_marginal, disagreement, fuse, number_marginal, ocr_likelihood,
                           way_unconfirmed, without_twist)
from vision.model import MODELS_DIR
from vision.reader import Reader
from vision.types import Image
from vision.yolo_format import CLASS_NAMES

I = {c: i for i, c in enumerate(CLASS_NAMES)}  # noqa: E741


def _one(classifier: dict[str, float], ocr: dict[int | None, float] | None, params: FusionParams = FusionParams()):
    p = prob_vector(classifier)[None]
    o = None if ocr is None else number_vector(ocr)[None]
    return fuse(p, o, params)[0], p, o


def test_agreement_sharpens_and_is_no_disagreement():
    fused, p, o = _one({"K7": 0.8, "K1": 0.1}, {7: 0.95})
    assert CLASS_NAMES[int(fused.argmax())] == "K7"
    assert fused[I["K7"]] > p[0, I["K7"]]  # a second reader saying the same makes it surer
    assert not disagreement(["K7"], p, o)[0]


def test_disagreement_on_the_number_keeps_the_classifiers_colour():
    fused, p, o = _one({"K3": 0.97}, {8: 0.97})
    assert CLASS_NAMES[int(fused.argmax())][0] == "K"
    assert disagreement(["K3"], p, o)[0]  # the recogniser clearly reads another number
    assert disagreement(["K8"], p, o)[0]  # the classifier's own number is 3


def test_colour_is_the_classifiers_alone():
    fused, p, _ = _one({"B7": 0.6, "K7": 0.3}, {7: 0.9})
    assert fused[I["B7"]] / fused[I["K7"]] == pytest.approx(p[0, I["B7"]] / p[0, I["K7"]])


def test_other_evidence_counts_at_its_weight():
    p = prob_vector({"K7": 0.6, "B7": 0.3})[None]
    evidence = np.ones((1, len(CLASS_NAMES)))
    evidence[0, I["B7"]] = 4.0
    full = fuse(p, None, FusionParams(evidence_weight=1.0), evidence)[0]
    half = fuse(p, None, FusionParams(evidence_weight=0.5), evidence)[0]
    assert full[I["B7"]] / full[I["K7"]] == pytest.approx(2.0, rel=0.01)  # 0.3 * 4 against 0.6 (the rest spread evenly)
    assert half[I["B7"]] / half[I["K7"]] == pytest.approx(1.0, rel=0.01)  # 0.3 * 2 against 0.6
    assert np.allclose(fuse(p, None, FusionParams(evidence_weight=0.0), evidence), fuse(p, None))
    with pytest.raises(ValueError, match="evidence: expected"):
        fuse(p, None, FusionParams(), np.ones((2, len(CLASS_NAMES))))
    with pytest.raises(ValueError, match="evidence_weight"):
        FusionParams(evidence_weight=1.5)


def test_a_colour_other_than_the_classifiers_is_a_disagreement():
    p = np.stack([prob_vector({"K7": 0.5, "K8": 0.2, "B7": 0.25}), prob_vector({"J": 0.9})])
    marg = colour_marginal(p)
    assert marg.shape == (2, 5) and np.allclose(marg.sum(1), 1.0)
    assert colour_disagreement(["B7", "J"], p).tolist() == [True, False]
    assert colour_disagreement(["K9", "JM"], p).tolist() == [False, False]  # the number is another matter; every joker is one kind here
    with pytest.raises(ValueError, match="1 codes but 2"):
        colour_disagreement(["K7"], p)


def test_upside_down_six_or_nine_leaves_the_choice_to_the_classifier():
    fused, p, o = _one({"B9": 0.9}, {6: 0.48, 9: 0.48})
    assert CLASS_NAMES[int(fused.argmax())] == "B9"
    # evidence against the other numbers, none between 6 and 9
    assert fused[I["B9"]] / fused[I["B6"]] == pytest.approx(p[0, I["B9"]] / p[0, I["B6"]])
    assert not disagreement(["B9"], p, o)[0]
    # neither reader can tell: the fused reading stays split, so the reader will doubt it
    fused, _, _ = _one({"B9": 0.5, "B6": 0.5}, {6: 0.48, 9: 0.48})
    assert fused[I["B9"]] == pytest.approx(fused[I["B6"]])


def test_on_a_rack_the_classifier_has_its_own_six_nine_share():
    params = FusionParams(six_nine=0.02, ocr_six_nine=0.02, rack_six_nine=0.5)
    assert params.on_rack() == FusionParams(six_nine=0.5, ocr_six_nine=0.02, rack_six_nine=0.5)
    assert FusionParams(six_nine=0.02).on_rack() == FusionParams(six_nine=0.02)  # fitted before: the one share
    # a classifier sure of a K9 and a recogniser leaning to a 6 (with the rack's neighbours): on a table the
    # classifier's way up wins, on a rack, where it cannot see the marks that show it, the recogniser's does
    table, _, _ = _one({"K9": 0.97, "K6": 0.01}, {6: 0.55, 9: 0.35}, params)
    rack, _, _ = _one({"K9": 0.97, "K6": 0.01}, {6: 0.55, 9: 0.35}, params.on_rack())
    assert CLASS_NAMES[int(table.argmax())] == "K9" and CLASS_NAMES[int(rack.argmax())] == "K6"
    # only the classifier's 6 and 9 are mixed: its 7 is as sure on a rack as on a table
    assert _one({"K7": 0.9}, {7: 0.9}, params)[0] == pytest.approx(_one({"K7": 0.9}, {7: 0.9}, params.on_rack())[0])
    with pytest.raises(ValueError, match="rack_six_nine"):
        FusionParams(rack_six_nine=0.7)


def test_on_a_rack_the_classifier_has_its_own_temperature():
    params = FusionParams(cls_temperature=1.5, rack_temperature=3.0, rack_six_nine=0.5)
    assert params.on_rack() == FusionParams(cls_temperature=3.0, rack_temperature=3.0, six_nine=0.5, rack_six_nine=0.5)
    assert FusionParams(cls_temperature=1.5).on_rack() == FusionParams(cls_temperature=1.5)  # fitted before: one
    # a classifier sure of an O10 against a recogniser fairly sure of a 2: softer on a rack, the recogniser wins there
    table, _, _ = _one({"O10": 0.995, "O2": 0.001}, {2: 0.8, None: 0.2}, params)
    rack, _, _ = _one({"O10": 0.995, "O2": 0.001}, {2: 0.8, None: 0.2}, params.on_rack())
    assert CLASS_NAMES[int(table.argmax())] == "O10" and CLASS_NAMES[int(rack.argmax())] == "O2"
    with pytest.raises(ValueError, match="rack_temperature"):
        FusionParams(rack_temperature=0.0)


def test_on_a_rack_the_classifiers_number_has_a_temperature_apart_from_its_colour():
    params = FusionParams(cls_temperature=1.5, rack_temperature=1.5, rack_number_temperature=4.0)
    assert params.on_rack() == dataclasses.replace(params, number_temperature=4.0)
    assert params.number_temperature is None  # on a table: one temperature
    # fitted before: none of its own, and the rack's one temperature for both
    assert FusionParams(rack_temperature=2.0).on_rack().number_temperature is None
    # a classifier sure of an O10 against a recogniser fairly sure of a 2: with the number softer on a rack the
    # recogniser wins the number there, and the colour the classifier reads stays surer than one temperature as soft
    # for both would leave it
    classifier, ocr = {"O10": 0.995, "O2": 0.002}, {2: 0.8, None: 0.2}
    table, _, _ = _one(classifier, ocr, params)
    rack, _, _ = _one(classifier, ocr, params.on_rack())
    assert CLASS_NAMES[int(table.argmax())] == "O10" and CLASS_NAMES[int(rack.argmax())] == "O2"
    soft, _, _ = _one(classifier, ocr, FusionParams(cls_temperature=4.0))
    assert CLASS_NAMES[int(soft.argmax())] == "O2" and rack.max() > soft.max() + 0.1
    orange = CLASS_NAMES.index("O2")
    assert rack[orange] / colour_marginal(rack[None])[0, :4].sum() > soft[orange] / colour_marginal(soft[None])[0, :4].sum() + 0.1
    with pytest.raises(ValueError, match="rack_number_temperature"):
        FusionParams(rack_number_temperature=0.0)


def test_a_number_temperature_equal_to_the_colours_is_the_one_temperature():
    rng = np.random.default_rng(3)
    p = rng.dirichlet(np.full(len(CLASS_NAMES), 0.3), size=5)
    one = fuse(p, None, FusionParams(cls_temperature=2.0))
    both = fuse(p, None, FusionParams(cls_temperature=2.0, number_temperature=2.0))
    assert both == pytest.approx(one)


def test_a_recogniser_that_reads_nothing_is_weak_evidence_and_no_confirmation():
    fused, p, o = _one({"R5": 0.95}, {None: 1.0})
    assert CLASS_NAMES[int(fused.argmax())] == "R5"
    assert fused[I["R5"]] > 0.5
    # but the number stands on the classifier alone (an unknown joker's mark it takes for a 4): someone should look
    assert disagreement(["R5"], p, o)[0]
    _, p, o = _one({"R5": 0.95}, {None: 0.5, 5: 0.5})  # unsure whether it reads anything: no disagreement
    assert not disagreement(["R5"], p, o)[0]


def test_joker_from_the_classifier():
    fused, p, o = _one({"J": 0.95}, {None: 0.98})
    assert CLASS_NAMES[int(fused.argmax())] == "J" and fused[I["J"]] > 0.95
    assert not disagreement(["J"], p, o)[0]
    _, p, o = _one({"J": 0.95}, {4: 0.95})
    assert disagreement(["J"], p, o)[0]  # a number where the classifier sees a joker


def test_likelihood_model():
    params = FusionParams(ocr_hit=0.8, ocr_blank=0.08, joker_blank=0.9)
    like = ocr_likelihood(number_vector({5: 1.0})[None], params)[0]
    assert like[4] == pytest.approx(0.8)
    assert like[0] == pytest.approx((1 - 0.8 - 0.08) / 12)
    assert like[13] == pytest.approx(0.1 / 13)
    like = ocr_likelihood(number_vector({None: 1.0})[None], params)[0]
    assert like[4] == pytest.approx(0.08) and like[13] == pytest.approx(0.9)


def test_a_read_number_counts_toward_a_joker_as_unsurely_as_the_softness_says():
    params = FusionParams(ocr_hit=0.8, ocr_blank=0.08, joker_blank=0.6, joker_softness=2.0)
    like = ocr_likelihood(number_vector({5: 0.7, None: 0.3})[None], params)[0]
    assert like[13] == pytest.approx(0.4 / 13 * 0.7 * 0.3 ** 2 + 0.6 * 0.3)
    assert like[4] == pytest.approx(ocr_likelihood(number_vector({5: 0.7, None: 0.3})[None], FusionParams(
        ocr_hit=0.8, ocr_blank=0.08, joker_blank=0.6))[0, 4])  # a number tile's likelihood is left as it was
    # a number read for certain says nothing for a joker; reading nothing still does
    assert ocr_likelihood(number_vector({5: 1.0})[None], params)[0, 13] == pytest.approx(0.0)
    with pytest.raises(ValueError, match="joker_softness"):
        FusionParams(joker_softness=-1.0)


def test_a_number_the_recogniser_is_sure_of_is_no_joker():
    """A big 3 of an edition the classifier never learnt, which it takes for a joker (the blind racks' "R1 R10 J R12
    J J ..."), read as a 3 by the recogniser for certain. Taken linearly, a joker was the likeliest compromise
    between the two; a joker's unsure reads make it a 3, shown doubtful since the classifier's own reading differs."""
    classifier, ocr = {"J": 0.97, "K3": 0.0005, "K8": 0.02}, {3: 0.995, None: 0.005}
    linear = FusionParams(cls_temperature=1.6, ocr_hit=0.93, ocr_blank=0.05, joker_blank=0.45)
    assert CLASS_NAMES[int(_one(classifier, ocr, linear)[0].argmax())] == "J"
    fused, p, o = _one(classifier, ocr, dataclasses.replace(linear, joker_softness=20.0))
    assert CLASS_NAMES[int(fused.argmax())] == "K3"
    assert disagreement(["K3"], p, o)[0]
    # a joker the recogniser reads nothing on stays a joker
    fused, _, _ = _one(classifier, {None: 0.9, 3: 0.1}, dataclasses.replace(linear, joker_softness=20.0))
    assert CLASS_NAMES[int(fused.argmax())] == "J"


def test_a_sharpened_recogniser_outvotes_a_classifier_sure_of_a_style_it_never_learnt():
    """The blind edition's big 2s: the classifier near certain of a 9, the recogniser reading 2 at 0.85. Its own odds
    (0.85 against 0.1) lose to the classifier's; sharpened as the fit finds it should be, they win."""
    classifier, ocr = {"K9": 0.999, "K2": 0.001}, {2: 0.85, 9: 0.1}
    assert CLASS_NAMES[int(_one(classifier, ocr, FusionParams(cls_temperature=1.6))[0].argmax())] == "K9"
    fused, p, o = _one(classifier, ocr, FusionParams(cls_temperature=1.6, ocr_temperature=0.4))
    assert CLASS_NAMES[int(fused.argmax())] == "K2"
    assert disagreement(["K2"], p, o)[0]  # against the classifier's own number: still doubtful


def test_the_recogniser_temperature_leaves_a_certain_answer_and_the_old_model_alone():
    params = FusionParams(ocr_hit=0.8, ocr_blank=0.08, joker_blank=0.9)
    certain = number_vector({5: 1.0})[None]
    soft = number_vector({5: 0.7, 3: 0.2, None: 0.1})[None]
    sharp = FusionParams(ocr_hit=0.8, ocr_blank=0.08, joker_blank=0.9, ocr_temperature=0.5)
    assert ocr_likelihood(certain, sharp) == pytest.approx(ocr_likelihood(certain, params))
    # at 1 the likelihood is the linear model's, unchanged
    expected = 0.8 * 0.7 + (1 - 0.8 - 0.08) / 12 * 0.2 + 0.08 * 0.1
    assert ocr_likelihood(soft, params)[0, 4] == pytest.approx(expected)
    # sharpened, the read number gains on the runner-up
    ratio = lambda like: like[0, 4] / like[0, 2]  # noqa: E731
    assert ratio(ocr_likelihood(soft, sharp)) > 3 * ratio(ocr_likelihood(soft, params))


def test_sharpening_leaves_the_way_up_of_a_six_or_nine_as_the_recogniser_read_it():
    """A recogniser torn between a 6 and a 9 (0.5 against 0.4): sharpened, it is surer the tile is a 6 or a 9 than of
    anything else, but no surer which way up it stands."""
    params = FusionParams(ocr_temperature=0.5)
    turned = number_vector({6: 0.5, 9: 0.4, 3: 0.1})[None]
    like, plain = ocr_likelihood(turned, params)[0], ocr_likelihood(turned, FusionParams())[0]
    assert like[5] / like[8] == pytest.approx(plain[5] / plain[8], rel=1e-3)
    assert like[5] / like[2] > 2 * plain[5] / plain[2]


def test_without_a_recogniser_only_the_temperature_acts():
    p = prob_vector({"O13": 0.9})[None]
    assert fuse(p, None)[0] == pytest.approx(p[0])
    soft = fuse(p, None, FusionParams(cls_temperature=2.0))[0]
    assert soft[I["O13"]] < 0.9 and int(soft.argmax()) == I["O13"]
    assert number_marginal(prob_vector({"K4": 0.5, "B4": 0.4})[None])[0, 3] == pytest.approx(0.9 + 0.1 * 4 / len(CLASS_NAMES))


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="recogniser: expected shape"):
        fuse(prob_vector({"K1": 1.0})[None], np.ones((1, 13)))
    with pytest.raises(ValueError, match="1 tiles from the classifier but 2"):
        fuse(prob_vector({"K1": 1.0})[None], np.ones((2, 14)))
    with pytest.raises(ValueError, match="ocr_hit"):
        FusionParams(ocr_hit=1.5)
    with pytest.raises(ValueError, match="cls_temperature"):
        FusionParams(cls_temperature=0)
    with pytest.raises(ValueError, match="ocr_temperature"):
        FusionParams(ocr_temperature=-1.0)


def test_the_base_game_drops_the_twist_jokers_share_and_keeps_the_others_odds():
    p = np.stack([prob_vector({"JM": 0.6, "O11": 0.3, "J": 0.05}), np.zeros(len(CLASS_NAMES))])
    p[1, I["JD"]] = 1.0
    before = p.copy()
    out = without_twist(p)
    assert out[:, [I["JD"], I["JM"], I["JC"]]].sum() == 0 and np.allclose(out.sum(1), 1.0)
    assert out[0, I["O11"]] / out[0, I["J"]] == pytest.approx(p[0, I["O11"]] / p[0, I["J"]])
    assert CLASS_NAMES[int(out[0].argmax())] == "O11"
    assert np.allclose(out[1][out[1] > 0], 1 / 53) and (out[1] > 0).sum() == 53  # nothing else: every base code alike
    assert np.array_equal(p, before)  # the input is left as it was
    with pytest.raises(ValueError, match="fused: expected shape"):
        without_twist(np.ones((1, 13)))


# --------------------------------------------------------------------------- through the reader

BOXES = [(100 + 45 * k, 100, 140 + 45 * k, 156) for k in range(4)]


def _read(classifier: list[dict[str, float]], numbers: dict | None, **kw):
    model = FakeModel([raw_tile(b, c) for b, c in zip(BOXES, classifier)])
    fake = FakeNumberReader({b: a for b, a in zip(BOXES, numbers)}) if numbers is not None else None
    # a rack of a tile or two is read turned a quarter too (vision.turn): here only as taken, whose reading is asked
    reader = Reader(model, number_reader=fake, ocr=fake is not None, calibration=Calibration(), sideways=False, mirror=False, **kw)
    image = Image(np.zeros((300, 400, 3), np.uint8), "t.jpg")
    return reader.read(image, rack=True), fake


def test_reader_asks_the_number_reader_once_with_every_box():
    reading, fake = _read([{"K7": 0.95}, {"R2": 0.95}], [{7: 0.95}, {2: 0.95}])
    assert len(fake.asked) == 1 and sorted(fake.asked[0]) == sorted(BOXES[:2])
    assert reading.codes() == ["K7", "R2"]
    assert [t.doubtful for t in reading.tiles] == [False, False]


def test_the_reader_tells_the_number_reader_a_racks_tiles_stand_upright():
    _, fake = _read([{"K7": 0.95}], [{7: 0.95}])  # read as a rack
    model = FakeModel([raw_tile(BOXES[0], {"K7": 0.95})])
    table = FakeNumberReader({BOXES[0]: {7: 0.95}})
    Reader(model, number_reader=table, ocr=True).read(Image(np.zeros((300, 400, 3), np.uint8)))
    assert fake.upright == [True] and table.upright and not any(table.upright)  # a table: every ask, the mirror test too


def test_reader_flags_a_sure_classifier_the_recogniser_contradicts():
    reading, _ = _read([{"B13": 0.99}, {"K5": 0.97}], [{13: 0.9}, {3: 0.97}])
    assert reading.tiles[0].doubtful is False
    assert reading.tiles[1].doubtful is True  # sure classifier, but the recogniser reads a 3
    assert reading.tiles[1].code[0] == "K"


def test_reader_without_the_recogniser_does_not_flag_the_same_tile():
    reading, _ = _read([{"B13": 0.99}, {"K5": 0.97}], None)
    assert [t.doubtful for t in reading.tiles] == [False, False]
    assert Reader(FakeModel([])).uses_ocr is False  # a model without settings: no recogniser


def test_reader_turns_off_the_recogniser_when_told():
    model = FakeModel([raw_tile(BOXES[0], {"K7": 0.95})])
    fake = FakeNumberReader({BOXES[0]: {3: 0.99}})
    reading = Reader(model, number_reader=fake, ocr=False).read(Image(np.zeros((300, 400, 3), np.uint8)))
    assert fake.asked == [] and not reading.tiles[0].doubtful


def test_reader_rejects_a_number_reader_of_the_wrong_shape():
    class Bad:
        def read(self, rgb, boxes, upright=False):
            return np.ones((len(boxes), 13)) / 13

    model = FakeModel([raw_tile(BOXES[0], {"K7": 0.95})])
    with pytest.raises(ValueError, match=r"expected \(1, 14\)"):
        Reader(model, number_reader=Bad(), ocr=True).read(Image(np.zeros((300, 400, 3), np.uint8)))


def test_the_reader_uses_the_rack_share_only_on_a_rack():
    model = FakeModel([raw_tile(BOXES[0], {"B9": 0.97, "B6": 0.01})])
    fake = FakeNumberReader({BOXES[0]: {6: 0.55, 9: 0.35}})
    cal = Calibration(fusion=FusionParams(rack_six_nine=0.5))
    reader = Reader(model, number_reader=fake, ocr=True, calibration=cal)
    image = Image(np.zeros((300, 400, 3), np.uint8))
    assert reader.read(image, rack=True).codes() == ["B6"]
    assert reader.read(image).codes() == ["B9"]


def test_the_committed_calibration_reads_a_sure_number_on_a_tile_the_classifier_takes_for_a_joker():
    """A rack of an edition the classifier never learnt: it takes a big 3 and a big 2 for jokers; the recogniser
    reads each number for certain. Each reads as its number, doubtful (the readers disagree); a joker the
    recogniser reads nothing on stays a joker."""
    model = FakeModel([raw_tile(BOXES[0], {"J": 0.97, "K3": 0.0005, "K8": 0.02}),
                       raw_tile(BOXES[1], {"J": 0.86, "R2": 0.002, "R6": 0.1}),
                       raw_tile(BOXES[2], {"J": 0.9, "K3": 0.05})])
    fake = FakeNumberReader({BOXES[0]: {3: 0.995, None: 0.005}, BOXES[1]: {2: 0.95, None: 0.05},
                             BOXES[2]: {None: 0.9, 3: 0.1}})
    reader = Reader(model, number_reader=fake, ocr=True, calibration=Calibration.load(MODELS_DIR))
    reading = reader.read(Image(np.zeros((300, 400, 3), np.uint8)), rack=True)
    assert [t.code for t in reading.tiles] == ["K3", "R2", "J"]
    assert [t.doubtful for t in reading.tiles[:2]] == [True, True]


def test_calibrated_threshold_makes_unsure_tiles_doubtful():
    strict = Calibration(doubt_below=0.99, doubt_below_alone=0.99)
    model = FakeModel([raw_tile(BOXES[0], {"O8": 0.97})])
    image = Image(np.zeros((300, 400, 3), np.uint8))
    assert Reader(model, ocr=False, calibration=Calibration()).read(image, rack=True).tiles[0].doubtful is False
    assert Reader(model, ocr=False, calibration=strict).read(image, rack=True).tiles[0].doubtful is True


def test_a_six_or_nine_the_recogniser_does_not_read_that_way_up_is_unconfirmed():
    codes = ["R9", "K6", "B9", "O6", "B5", "J", "K9"]
    ocr = np.stack([number_vector(a) for a in (
        {9: 0.53, 6: 0.39},  # hardly more a 9 than a 6
        {6: 0.9, 9: 0.05},  # clearly a 6
        {6: 0.7, 9: 0.2},  # the other way up
        {6: 0.66, 9: 0.34},  # enough
        {5: 0.5, 6: 0.3},  # no 6 or 9 read: no way up to confirm
        {None: 0.9},
        {None: 1.0},  # a 9 it reads as no number at all: nothing confirms it
    )])
    assert way_unconfirmed(codes, ocr).tolist() == [True, False, True, False, False, False, True]
    assert way_unconfirmed(codes, None).tolist() == [False] * 7
    with pytest.raises(ValueError, match="recogniser rows"):
        way_unconfirmed(codes[:2], ocr)

