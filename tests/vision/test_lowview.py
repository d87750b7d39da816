"""vision.lowview and the reader: a photo whose tiles' boxes are flat (a table seen from low down) is read again
stretched back to a view from above, its boxes squeezed back to the photo, and the reading with more sure tiles is
kept (of two as sure, the one that expects more tiles right); a photo of tiles seen from above is read once, as
taken."""

from __future__ import annotations

import numpy as np
import pytest
from vision_fakes import FakeModel, raw_tile

from vision.lowview import FACE_ASPECT, LowView, squeezed, stretched
from vision.reader import Reader
from vision.types import DOUBT_TEXT, LOW_VIEW, Image

UPRIGHT = [(20, 100, 50, 140), (60, 100, 90, 140), (100, 100, 130, 140)]  # 30 x 40: a face seen from above
FLAT = [(20, 120, 80, 140), (90, 120, 150, 140), (160, 121, 220, 141)]  # 60 x 20: three times as wide as tall


def test_tiles_seen_from_above_are_not_stretched():
    assert LowView().stretch(UPRIGHT) == 1.0
    assert LowView().stretch([]) == 1.0


def test_flat_tiles_are_stretched_until_the_median_box_is_a_face_seen_from_above():
    boxes = [(0, 0, 60, 40), (0, 0, 60, 40), (0, 0, 60, 30)]  # median 1.5 times as wide as tall
    assert LowView().stretch(boxes) == pytest.approx(1.5 / FACE_ASPECT)


def test_the_median_box_decides_not_a_stray_flat_one():
    assert LowView().stretch([*UPRIGHT, (0, 0, 90, 10)]) == 1.0


def test_a_stretch_is_bounded():
    assert LowView().stretch([(0, 0, 100, 10)]) == 3.0
    assert LowView(max_stretch=2.0).stretch([(0, 0, 100, 10)]) == 2.0


def test_the_bound_for_flat_lies_above_a_face_seen_from_above():
    with pytest.raises(ValueError, match="flat_aspect"):
        LowView(flat_aspect=0.7)
    with pytest.raises(ValueError, match="max_stretch"):
        LowView(max_stretch=0.5)


def test_stretched_and_squeezed_undo_each_other():
    image = Image(np.zeros((100, 80, 3), np.uint8), "low.jpg")
    tall = stretched(image, 2.5)
    assert (tall.width, tall.height, tall.path) == (80, 250, "low.jpg")
    assert squeezed((10, 50, 30, 100), 2.5) == (10.0, 20.0, 30.0, 40.0)
    with pytest.raises(ValueError, match="stretched"):
        stretched(image, 0.5)


def _low_view(rgb: np.ndarray) -> list:
    """A detector stand-in: flat boxes on the 200 px photo as taken, their numbers unclear; on the photo stretched 3
    times, the same tiles as faces seen from above, read surely, and a far tile found only there."""
    if rgb.shape[0] == 200:
        return [raw_tile(b, {"R7": 0.5, "R1": 0.5}) for b in FLAT]
    assert rgb.shape[0] == 600
    tall = [(x1, y1 * 3, x2, y2 * 3) for x1, y1, x2, y2 in FLAT] + [(250, 30, 300, 90)]
    return [raw_tile(b, {c: 0.99}) for b, c in zip(tall, ["R7", "R8", "R9", "K2"])]


def _sideways(rgb: np.ndarray) -> list:
    """A detector stand-in: tiles seen from above lying sideways (flat boxes), read surely as taken; stretched,
    their numbers come out unclear."""
    if rgb.shape[0] == 200:
        return [raw_tile(b, {c: 0.99}) for b, c in zip(FLAT, ["B3", "B4", "B5"])]
    return [raw_tile((x1, y1 * 3, x2, y2 * 3), {"B3": 0.5, "B8": 0.5}) for x1, y1, x2, y2 in FLAT]


def test_the_reader_reads_a_low_view_stretched_and_gives_its_boxes_on_the_photo():
    model = FakeModel(_low_view)
    reading = Reader(model=model, ocr=False).read(Image(np.full((200, 400, 3), 90, np.uint8), "low.jpg"))
    assert [s[0] for s in model.shapes] == [200, 600]
    assert (reading.width, reading.height, reading.stretch) == (400, 200, 3.0)
    assert reading.to_json()["image"] == {"path": "low.jpg", "width": 400, "height": 200, "stretch": 3.0, "turned": 0, "mirrored": False}
    assert sorted(reading.codes()) == ["K2", "R7", "R8", "R9"]
    boxes = {t.code: t.box for t in reading.tiles}
    assert boxes["R7"] == pytest.approx(FLAT[0]) and boxes["K2"] == pytest.approx((250, 10, 300, 30))
    assert [m.codes for m in reading.melds] == [["R7", "R8", "R9"]]


def test_flat_tiles_read_surer_as_taken_keep_the_reading_as_taken():
    model = FakeModel(_sideways)
    reading = Reader(model=model, ocr=False).read(Image(np.full((200, 400, 3), 90, np.uint8)))
    assert [s[0] for s in model.shapes] == [200, 600]
    assert reading.stretch == 1.0 and reading.codes() == ["B3", "B4", "B5"] and reading.ms > 0
    assert [t.box for t in reading.tiles] == [tuple(float(v) for v in b) for b in FLAT]


def test_of_two_readings_as_sure_the_one_expecting_more_tiles_right_is_kept():
    """A photo so hard that no tile is sure either way: the stretched reading leans the right way on every tile,
    the one as taken on none, and it is kept."""
    from vision.calibration import Calibration

    def hard(rgb: np.ndarray) -> list:
        if rgb.shape[0] == 200:
            return [raw_tile(b, {"R7": 0.3, "R1": 0.3, "K7": 0.3}) for b in FLAT]
        return [raw_tile((x1, y1 * 3, x2, y2 * 3), {c: 0.8, "K1": 0.1})
                for (x1, y1, x2, y2), c in zip(FLAT, ["R7", "R8", "R9"])]

    reader = Reader(model=FakeModel(hard), ocr=False, calibration=Calibration(doubt_below_alone=0.9999))
    both = [reader._read(Image(np.full((200, 400, 3), 90, np.uint8)), k, False, (), reader.rules) for k in (1.0, 3.0)]
    assert [sure for _, sure, _ in both] == [0, 0]  # no tile sure either way
    reading = reader.read(Image(np.full((200, 400, 3), 90, np.uint8)))
    assert reading.stretch == 3.0 and reading.codes() == ["R7", "R8", "R9"]


def test_tiles_seen_from_above_are_read_once():
    model = FakeModel(lambda rgb: [raw_tile(b, {"K5": 0.99}) for b in UPRIGHT])
    reading = Reader(model=model, ocr=False).read(Image(np.full((200, 400, 3), 90, np.uint8)))
    assert model.calls == 1 and reading.stretch == 1.0


def test_a_reader_without_a_low_view_reads_every_photo_as_taken():
    model = FakeModel(_low_view)
    reading = Reader(model=model, ocr=False, low_view=None).read(Image(np.full((200, 400, 3), 90, np.uint8)))
    assert [s[0] for s in model.shapes] == [200] and reading.stretch == 1.0
    assert [t.box for t in reading.tiles] == [tuple(float(v) for v in b) for b in FLAT]


def test_a_low_views_tiles_are_held_to_the_calibrations_low_view_threshold():
    """A number read on a photo stretched back from a low view was drawn with fewer pixels than it is read with:
    the calibration gives such tiles a threshold of their own, and the reader holds them to it."""
    from vision.calibration import Calibration

    apart = [(20, 20, 80, 40), (200, 90, 260, 110), (330, 160, 390, 180)]  # three stray tiles, no meld

    def low_view(rgb: np.ndarray) -> list:
        if rgb.shape[0] == 200:
            return [raw_tile(b, {"R7": 0.5, "R1": 0.5}) for b in apart]
        tall = [(x1, y1 * 3, x2, y2 * 3) for x1, y1, x2, y2 in apart]
        return [raw_tile(tall[0], {"K7": 0.999}), raw_tile(tall[1], {"B2": 0.99}), raw_tile(tall[2], {"O11": 0.999})]

    photo = Image(np.full((200, 400, 3), 90, np.uint8))
    plain = Calibration(doubt_below_alone=0.6)
    held = Calibration(doubt_below_alone=0.6, low_view_below_alone=0.995)
    before = Reader(model=FakeModel(low_view), ocr=False, calibration=plain).read(photo)
    after = Reader(model=FakeModel(low_view), ocr=False, calibration=held).read(photo)
    assert before.stretch == after.stretch == 3.0
    assert [t.doubtful for t in before.tiles] == [False, False, False]
    assert {t.code: t.doubtful for t in after.tiles} == {"K7": False, "B2": True, "O11": False}
    assert {t.code: t.doubt for t in after.tiles} == {"K7": None, "B2": LOW_VIEW, "O11": None} and LOW_VIEW in DOUBT_TEXT
    # a photo seen from above is not held to it
    above = Reader(model=FakeModel([raw_tile(UPRIGHT[0], {"B2": 0.99})]), ocr=False, calibration=held)
    assert not any(t.doubtful for t in above.read(photo).tiles)


def test_the_low_view_threshold_round_trips_and_an_older_calibration_has_none(tmp_path):
    from vision.calibration import Calibration

    cal = Calibration(low_view_below=0.99, low_view_below_alone=0.995)
    cal.save(tmp_path / "calibration.json")
    assert Calibration.load(tmp_path) == cal
    assert Calibration.from_json({}).low_view_threshold(True) == 0.0
    assert cal.low_view_threshold(True) == 0.99 and cal.low_view_threshold(False) == 0.995
