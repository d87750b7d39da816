"""vision.reader with a fake model: grouping, rule-aware reads, engine checks, recheck, JSON."""

from __future__ import annotations

import numpy as np
import pytest
from vision_fakes import FakeModel, FakeNumberReader, raw_tile

from engine.tiles import NotationError
from vision.reader import NO_TILES, Reader, get_reader, recheck
from vision.types import Image, NumberAnswers


def _blank(w: int = 640, h: int = 480, path: str = "table.jpg") -> Image:
    return Image(rgb=np.zeros((h, w, 3), dtype=np.uint8), path=path)


def test_table_photo(table_fixture):
    data, model = table_fixture
    reading = Reader(model=model).read(_blank())
    assert model.calls == 1
    assert (reading.path, reading.width, reading.height, reading.rack) == ("table.jpg", 640, 480, False)
    assert [m.codes for m in reading.melds] == data["expected"]["melds"]
    assert [t.code for t in reading.tiles if t.meld is None] == data["expected"]["lone"]
    # tiles are numbered in reading order: melds in order, each left to right, then the lone tile
    assert reading.codes() == ["R10", "R11", "R12", "O5", "O6", "O7", "O8", "K5", "K6", "B8", "B3"]
    assert [t.meld for t in reading.tiles] == [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, None]
    assert [m.tiles for m in reading.melds] == [[0, 1, 2], [3, 4, 5, 6], [7, 8, 9]]
    assert [(m.valid, m.kind, m.value) for m in reading.melds] == [
        (True, "run", 33), (True, "run", 26), (False, None, 0)
    ]
    assert "mixes colours and numbers" in reading.melds[2].reason
    assert reading.tiles[0].box == (60.0, 60.0, 100.0, 116.0)
    doubtful = [i for i, t in enumerate(reading.tiles) if t.doubtful]
    assert doubtful == [5, 10]  # O7 (the rules changed K7) and the unsure lone B3
    assert reading.warnings == [
        "tile 6: read as O7 so that meld 2 is valid; it looked more like K7 (50%) - check it",
        "meld 3 (K5 K6 B8) is not valid: K5 K6 B8 mixes colours and numbers: a run is one colour, "
        "a group is one number",
    ]
    assert reading.ms > 0


def test_rack_photo_keeps_rack_order_and_has_no_melds():
    boxes = [(x, y, x + 40, y + 56) for y in (300, 200) for x in (100, 140, 180)]  # bottom tier first
    codes = ["B1", "B2", "B3", "K9", "K10", "J"]
    model = FakeModel([raw_tile(b, {c: 0.95}) for b, c in zip(boxes, codes)])
    reading = Reader(model=model).read(_blank(), rack=True)
    assert reading.rack and reading.melds == []
    assert reading.codes() == ["K9", "K10", "J", "B1", "B2", "B3"]  # top tier, then bottom
    assert all(t.meld is None for t in reading.tiles)
    assert reading.warnings == []


def test_no_tiles():
    reading = Reader(model=FakeModel([])).read(_blank())
    assert reading.tiles == [] and reading.melds == []
    assert reading.warnings == [NO_TILES] == ["no tiles found in this photo"]


def test_duplicate_and_weak_detections_are_dropped():
    tiles = [
        raw_tile((10, 10, 50, 66), {"R1": 0.9}, score=0.9),
        raw_tile((11, 11, 51, 67), {"R7": 0.9}, score=0.6),  # the same tile found twice
        raw_tile((300, 10, 340, 66), {"K2": 0.9}, score=0.1),
        raw_tile((-20, 400, 30, 470), {"B5": 0.9}, score=0.9),  # runs off the left edge: clipped
    ]
    reading = Reader(model=FakeModel(tiles), min_score=0.2).read(_blank())
    assert sorted(reading.codes()) == ["B5", "R1"]
    assert [t.box for t in reading.tiles if t.code == "B5"] == [(0.0, 400.0, 30.0, 470.0)]


def test_recheck_applies_corrections_and_checks_again(table_fixture):
    _, model = table_fixture
    reader = Reader(model=model)
    reading = reader.read(_blank())
    fixed = reader.recheck(reading, {9: "k7", 5: "O7"})
    assert model.calls == 1  # no model
    assert fixed.melds[2].codes == ["K5", "K6", "K7"]
    assert (fixed.melds[2].valid, fixed.melds[2].kind, fixed.melds[2].value) == (True, "run", 18)
    for i in (5, 9):
        assert fixed.tiles[i].confidence == 1.0 and not fixed.tiles[i].doubtful
        assert fixed.tiles[i].alternatives == []
    assert fixed.tiles[10].doubtful  # B3 was not corrected
    assert fixed.warnings == []  # tile 6 is settled, meld 3 is now valid
    # the original reading is unchanged
    assert reading.melds[2].valid is False and reading.tiles[9].code == "B8" and len(reading.warnings) == 2

    worse = recheck(reading, {0: "K1"})
    assert not worse.melds[0].valid
    assert [w[:34] for w in worse.warnings] == [
        "tile 6: read as O7 so that meld 2 ",
        "meld 1 (K1 R11 R12) is not valid: ",
        "meld 3 (K5 K6 B8) is not valid: K5",
    ]


def test_recheck_reports_copies_and_bad_corrections(table_fixture):
    _, model = table_fixture
    reading = Reader(model=model).read(_blank())
    three = recheck(reading, {0: "R11", 2: "R11"})
    assert "R11 appears 3 times in the photo; a set has only 2 - check tiles 1, 2, 3" in three.warnings
    with pytest.raises(ValueError, match="tile 11: no such tile in this photo \\(tiles 0-10\\)"):
        recheck(reading, {11: "K1"})
    with pytest.raises(NotationError, match="numbers run 1-13"):
        recheck(reading, {0: "K14"})


def test_model_is_loaded_lazily_and_once(fake_model_module, table_fixture):
    _, model = table_fixture
    fake_model_module.model = model
    reader = Reader(models_dir="somewhere")
    assert fake_model_module.loads == 0
    reader.read(_blank())
    reader.read(_blank())
    assert fake_model_module.loads == 1 and fake_model_module.dirs == ["somewhere"]
    assert model.calls == 2


def test_get_reader_is_cached():
    assert get_reader() is get_reader()
    assert get_reader("a") is get_reader("a") is not get_reader("b")


def test_read_path_uses_the_photo_as_seen(tmp_path):
    from PIL import Image as PILImage

    stored = PILImage.new("RGB", (60, 30), (10, 200, 10))
    exif = PILImage.Exif()
    exif[0x0112] = 6  # shown rotated: 30 wide, 60 high
    f = tmp_path / "phone.jpg"
    stored.save(f, "JPEG", exif=exif.tobytes())
    model = FakeModel(lambda rgb: [raw_tile((2, 30, 28, 58), {"K1": 0.9})])
    reading = Reader(model=model).read_path(f)
    assert model.shapes == [(60, 30, 3)]
    assert (reading.width, reading.height) == (30, 60)
    assert reading.tiles[0].box == (2.0, 30.0, 28.0, 58.0)


def test_json_shape(table_fixture):
    _, model = table_fixture
    out = Reader(model=model).read(_blank()).to_json()
    assert set(out) == {"image", "tiles", "melds", "warnings", "ms"}
    assert out["image"] == {"path": "table.jpg", "width": 640, "height": 480, "stretch": 1.0, "turned": 0, "mirrored": False}
    tile = out["tiles"][5]
    assert set(tile) >= {"box", "code", "confidence", "alternatives", "meld"}
    assert tile["code"] == "O7" and tile["meld"] == 1 and tile["box"] == [380.0, 200.0, 420.0, 256.0]
    assert tile["alternatives"][0]["code"] == "K7" and 0 < tile["alternatives"][0]["p"] < 0.1
    assert out["melds"][0] == {
        "tiles": [0, 1, 2], "codes": ["R10", "R11", "R12"], "valid": True, "kind": "run", "value": 33, "reason": None,
    }
    assert out["tiles"][10]["meld"] is None


def test_a_photo_larger_than_the_models_working_side_is_shrunk_once_and_read_in_its_own_pixels():
    from vision.model import ModelSettings

    class Shrinking(FakeModel):  # a model that looks at photos shrunk to 300 px, as the committed one at 2048 px
        settings = ModelSettings(work_side=300, ocr=False)

    boxes = [(30 + 30 * k, 100, 56 + 30 * k, 136) for k in range(3)]  # on the photo as the model sees it
    model = Shrinking([raw_tile(b, {c: 0.99}) for b, c in zip(boxes, ["R4", "R5", "R6"])])
    reading = Reader(model=model, low_view=None).read(Image(np.zeros((450, 600, 3), np.uint8), "p.jpg"))
    assert model.shapes == [(225, 300, 3)]  # shrunk once, before the model looks
    assert [t.box for t in reading.tiles] == [(2.0 * x1, 2.0 * y1, 2.0 * x2, 2.0 * y2) for x1, y1, x2, y2 in boxes]
    assert reading.codes() == ["R4", "R5", "R6"] and (reading.width, reading.height) == (600, 450)
    small = Shrinking([raw_tile(b, {c: 0.99}) for b, c in zip(boxes, ["R4", "R5", "R6"])])
    Reader(model=small, low_view=None).read(Image(np.zeros((150, 200, 3), np.uint8), "small.jpg"))
    assert small.shapes == [(150, 200, 3)]  # no larger than the working side: as it is


class _WaysNumberReader(FakeNumberReader):
    """A number reader that also says the way each tile lies (``vision.reader.WaysReading``): every tile ``way``."""

    def __init__(self, answers, way: float) -> None:
        super().__init__(answers)
        self.way = way

    def read_with_ways(self, rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> NumberAnswers:
        return NumberAnswers(self.read(rgb, boxes, upright), np.full(len(boxes), self.way))


def _runs_laid_close_beside_each_other():
    """Three runs, each running down the photo, laid so close beside each other that their tiles touch across as
    well as along (tiles lying on their side, 56 x 40): by the boxes, the rows could run either way."""
    boxes, codes = [], []
    for c, numbers in enumerate([(3, 4, 5), (7, 8, 9), (10, 11, 12)]):
        for k, n in enumerate(numbers):
            x, y = 100.0 + c * 58.0, 60.0 + k * 40.0
            boxes.append((x, y, x + 56.0, y + 40.0))
            codes.append(f"R{n}")
    return boxes, codes


@pytest.mark.parametrize("way", [90.0, None])
def test_the_way_the_tiles_lie_groups_runs_laid_close_beside_each_other(way):
    """The number reader reads before the tiles are grouped: tiles it reads lying on their side show the rows run
    down the photo, and each run is read whole. A reader of numbers alone leaves the boxes to say, and they say the
    rows run across: the runs come out cut across, no valid meld."""
    boxes, codes = _runs_laid_close_beside_each_other()
    tiles = [raw_tile(b, {c: 0.99}) for b, c in zip(boxes, codes)]
    model = FakeModel(lambda rgb: tiles if rgb.shape[:2] == (300, 400) else [])  # nothing found turned a quarter
    answers = {b: {int(c[1:]): 0.99} for b, c in zip(boxes, codes)}
    numbers = FakeNumberReader(answers) if way is None else _WaysNumberReader(answers, way)
    reading = Reader(model=model, number_reader=numbers, low_view=None, mirror=False).read(
        Image(np.full((300, 400, 3), 90, np.uint8)))
    melds = sorted(m.codes for m in reading.melds)
    if way is None:
        assert melds == [["R3", "R7", "R10"], ["R4", "R8", "R11"], ["R5", "R9", "R12"]]
        assert not any(m.valid for m in reading.melds)
    else:
        assert melds == [["R10", "R11", "R12"], ["R3", "R4", "R5"], ["R7", "R8", "R9"]]
        assert all(m.valid for m in reading.melds) and not any(t.doubtful for t in reading.tiles)
        assert model.calls == 2 and reading.turned == 0  # read turned a quarter too, where nothing was found


def _sixes_and_nines(nine_read: dict[int | None, float]):
    """A run R7 R8 R9 laid in a row, and two lone tiles far from it, a K9 and an R9 (numbers as the classifier reads
    them, surely); the recogniser reads the run's 9 and the lone R9 as ``nine_read`` says, the rest surely."""
    boxes = [(100.0 + 49.0 * k, 60.0, 148.0 + 49.0 * k, 124.0) for k in range(3)] + [(420.0, 300.0, 468.0, 364.0),
                                                                                   (620.0, 300.0, 668.0, 364.0)]
    codes = ["R7", "R8", "R9", "K9", "R9"]
    tiles = [raw_tile(b, {c: 0.99}) for b, c in zip(boxes, codes)]
    answers = {b: {int(c[1:]): 0.99} for b, c in zip(boxes, codes)}
    answers[boxes[2]] = answers[boxes[4]] = nine_read
    return FakeModel(tiles), FakeNumberReader(answers)


def test_a_nine_only_the_classifier_is_sure_is_the_right_way_up_is_doubtful():
    """The classifier tells a 6 from a 9 by an edition's marks below the number, and on an edition with none it can be
    sure of the wrong end; the recogniser reads the number the way it stands. A lone 9 the recogniser reads hardly
    more as a 9 than as a 6 is doubtful, however sure the classifier is; in a run the rules settle it (turned over,
    R7 R8 R6 is no run), and a 9 the recogniser reads clearly stays sure."""
    model, numbers = _sixes_and_nines({9: 0.5, 6: 0.38})
    reading = Reader(model=model, number_reader=numbers, low_view=None, mirror=False).read(
        Image(np.full((400, 800, 3), 90, np.uint8)))
    assert [t.code for t in reading.tiles] == ["R7", "R8", "R9", "K9", "R9"]
    assert [t.doubtful for t in reading.tiles] == [False, False, False, False, True]
    model, numbers = _sixes_and_nines({9: 0.9, 6: 0.05})
    reading = Reader(model=model, number_reader=numbers, low_view=None, mirror=False).read(
        Image(np.full((400, 800, 3), 90, np.uint8)))
    assert not any(t.doubtful for t in reading.tiles)
