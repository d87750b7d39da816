"""vision.evaluate and ``rummi evaluate`` on a tiny labelled set, with a fake reader (exact numbers)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from vision_fakes import FIXTURES, FakeModel, raw_tile

from app.cli import main
from vision.evaluate import evaluate_dataset, loosely_misread, loosely_on_own_tile, match_tiles, open_dataset
from vision.yolo_format import DatasetError, class_code
from vision.types import Image, PhotoReading, TileReading

TINY = FIXTURES / "vision_eval_tiny"

# what the fake reader "reads" in each photo: (box, code)
READS = {
    "a.png": [
        ((10, 10, 30, 40), "K1"),  # right
        ((40, 10, 60, 40), "O7"),  # labelled K7: number right, colour wrong
        ((70, 10, 90, 40), "K13"),  # labelled joker: wrong
        ((10, 50, 30, 75), "R10"),  # nothing there
    ],
    "b.png": [
        ((13, 10, 37, 46), "O7"),  # right, box a little off (IoU 0.85)
        ((75, 9, 99, 45), "R1"),  # labelled R10 at 60-84: IoU 0.23, no match
        # B3 (12,50,36,86) is missed
    ],
}
TIMES = {"a.png": 100.0, "b.png": 300.0}


class FakeReader:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def read(self, image: Image, rack: bool = False) -> PhotoReading:
        name = Path(image.path).name
        self.seen.append(name)
        tiles = [TileReading(box=tuple(map(float, b)), code=c, confidence=0.9) for b, c in READS[name]]
        return PhotoReading(image.path, image.width, image.height, tiles, [], ms=TIMES[name])


def test_exact_numbers():
    reader = FakeReader()
    report = evaluate_dataset(TINY, reader, progress=False)
    assert reader.seen == ["a.png", "b.png"]  # val.txt lists a and b; c is train only
    assert (report.photos, report.labelled, report.detected, report.matched) == (2, 6, 6, 4)
    assert (report.exact, report.number_right, report.colour_right) == (2, 3, 2)
    assert report.recall == pytest.approx(4 / 6)
    assert report.precision == pytest.approx(4 / 6)
    assert report.exact_accuracy == pytest.approx(2 / 6)  # missed tiles count as wrong
    assert report.number_accuracy == pytest.approx(3 / 4)  # over matched tiles
    assert report.colour_accuracy == pytest.approx(2 / 4)
    assert report.confusions == [("K7", "O7", 1), ("J", "K13", 1)]
    assert report.ms_median == pytest.approx(200.0)
    assert report.ms_p90 == pytest.approx(280.0)
    assert report.failed == []
    assert report.sure_on_no_tile == 2  # R10 where nothing is, R1 off its tile: both read as sure
    js = report.to_json()
    assert js["confusions"][0] == {"true": "K7", "read": "O7", "count": 1}
    assert js["recall"] == 0.6667
    text = report.format()
    assert "66.7%" in text and "(2 of 6 labelled tiles; a missed tile counts as wrong)" in text
    assert "K7 -> O7" in text and "median 200 ms, p90 280 ms" in text
    assert "(2 of the 2 tiles read where no tile is labelled; 0 of those loosely on a tile" in text


class LooseReader(FakeReader):
    """The fake reader's reads, and in b.png one more box, on the missed B3 but loosely (IoU 0.45)."""

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code

    def read(self, image: Image, rack: bool = False) -> PhotoReading:
        reading = super().read(image, rack)
        if Path(image.path).name == "b.png":
            reading.tiles.append(TileReading(box=(18.0, 56.0, 42.0, 92.0), code=self.code, confidence=0.9))
        return reading


@pytest.mark.parametrize("code, own", [("B3", 1), ("B8", 0)])
def test_a_loose_box_read_right_on_a_tile_no_box_found_is_counted_apart(code, own):
    report = evaluate_dataset(TINY, LooseReader(code), progress=False)
    assert report.matched == 4 and report.recall == pytest.approx(4 / 6)  # still no match: IoU under 0.5
    assert (report.sure_on_no_tile, report.sure_on_own_tile) == (3, own)  # R10 on nothing, R1 at IoU 0.23: never own
    assert report.to_json()["sure_on_own_tile"] == own
    # read as another tile, the loose box is a sure misread that no match counts
    assert report.sure_misread_loosely == 1 - own and report.to_json()["sure_misread_loosely"] == 1 - own
    assert f"{own} of those loosely on a tile no other box found, read right, {1 - own} read wrong" in report.format()


def _boxed(box, code):
    return TileReading(box=tuple(map(float, box)), code=code, confidence=0.9)


def test_loosely_on_own_tile_takes_each_tile_once_and_never_a_found_one():
    truth = [_boxed((0, 0, 20, 30), "K5"), _boxed((30, 0, 50, 30), "R7")]
    found = [
        _boxed((0, 0, 20, 30), "K5"),  # matches K5
        _boxed((4, 6, 24, 36), "K5"),  # loose on K5, which is found already: a tile found twice
        _boxed((33, 5, 53, 35), "R7"),  # on R7 at IoU 0.55
    ]
    pairs = match_tiles([t.box for t in truth], [t.box for t in found])
    assert pairs == [(0, 0), (1, 2)]  # every tile found: nothing is loose
    assert loosely_on_own_tile(truth, found, pairs) == []
    found[2] = _boxed((36, 8, 56, 38), "R7")  # IoU 0.36 with R7: loose, and R7 has no other box
    found.append(_boxed((37, 8, 57, 38), "R7"))  # a second loose box on R7 (IoU 0.31): the tile goes with the nearer
    pairs = match_tiles([t.box for t in truth], [t.box for t in found])
    assert pairs == [(0, 0)]
    assert loosely_on_own_tile(truth, found, pairs) == [2]
    assert loosely_misread(truth, found, pairs) == []
    found[2] = _boxed((36, 8, 56, 38), "R1")  # the nearer box read wrong: the tile is its, the farther one a second
    assert loosely_on_own_tile(truth, found, pairs) == []
    assert loosely_misread(truth, found, pairs) == [2]


def test_limit_and_split():
    reader = FakeReader()
    assert evaluate_dataset(TINY, reader, limit=1, progress=False).labelled == 3
    assert open_dataset(TINY, "train").photos[2][0].name == "c.png"
    with pytest.raises(DatasetError, match="no 'test' entry \\(it has: train, val\\)"):
        open_dataset(TINY, "test")


def test_plain_folder_with_tile_code_names(tmp_path):
    shutil.copytree(TINY / "images", tmp_path / "images")
    shutil.copytree(TINY / "labels", tmp_path / "labels")
    (tmp_path / "images" / "c.png").unlink()
    (tmp_path / "classes.txt").write_text("K1\nK7\nJ\nO7\nR10\nB3\n")
    report = evaluate_dataset(tmp_path, FakeReader(), progress=False)
    assert (report.labelled, report.matched, report.exact) == (6, 4, 2)


def test_unreadable_photo_is_reported_not_fatal(tmp_path):
    shutil.copytree(TINY, tmp_path / "set")
    (tmp_path / "set" / "images" / "b.png").write_text("not a png")
    report = evaluate_dataset(tmp_path / "set", FakeReader(), progress=False)
    assert report.photos == 1 and len(report.failed) == 1 and "b.png" in report.failed[0]


def test_class_names():
    assert class_code("black_1") == "K1"
    assert class_code("orange_13") == "O13"
    assert class_code("Red 10") == "R10"
    assert class_code("yellow-7") == "O7"
    assert class_code("joker") == class_code("J") == class_code("red_joker") == "J"
    assert class_code("b12") == "B12"
    assert class_code("anything", {"number": 5, "colour": "blue", "joker": False}) == "B5"
    assert class_code("x", {"number": None, "colour": "red", "joker": True}) == "J"
    with pytest.raises(DatasetError, match="class 'green_3' is not a tile"):
        class_code("green_3")


def test_real_dev_set_names_are_understood():
    real = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "rummikub-real-dev"
    if not real.exists():
        pytest.skip("the real dev set is not next to this checkout")
    ds = open_dataset(real)
    assert len(ds.names) == 53 and sorted(ds.names) == sorted(set(ds.names))
    assert ds.names[0] == "K1" and ds.names[26] == "J" and ds.names[-1] == "R9"


def test_greedy_matching_takes_best_overlap_first():
    truth = [(0, 0, 10, 10), (8, 0, 18, 10)]
    found = [(7, 0, 17, 10), (1, 0, 11, 10)]
    assert sorted(match_tiles(truth, found)) == [(0, 1), (1, 0)]
    assert match_tiles(truth, []) == [] and match_tiles([], found) == []


def _tiles_by_size(rgb):
    h, w = rgb.shape[:2]
    name = {(80, 100): "a.png", (90, 120): "b.png"}.get((h, w))
    # a rack photo with few tiles found is looked at turned a quarter too (vision.turn): no tiles stand that way
    return [raw_tile(box, {code: 0.97}) for box, code in READS[name]] if name else []


def test_cli(fake_model_module, capsys):
    fake_model_module.model = FakeModel(_tiles_by_size)
    assert main(["evaluate", str(TINY), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["labelled"], out["matched"], out["exact"], out["photos"]) == (6, 4, 2, 2)
    assert main(["evaluate", str(TINY), "--limit", "1"]) == 0
    text = capsys.readouterr().out
    assert "1 photos, 3 labelled tiles" in text and "tiles found (recall)" in text


def test_cli_bad_dataset_and_missing_model(fake_model_module, capsys, tmp_path):
    assert main(["evaluate", str(tmp_path / "nope")]) == 2
    assert "no such dataset folder" in capsys.readouterr().err
    fake_model_module.missing = "models/tiles.onnx is missing - run rummi train"
    assert main(["evaluate", str(TINY)]) == 2
    err = capsys.readouterr().err
    assert "models/tiles.onnx is missing" in err and "Traceback" not in err


class FlaggingReader(FakeReader):
    """FakeReader whose tiles carry doubt flags: per photo, which reads are marked doubtful."""

    DOUBTFUL = {"a.png": [False, True, False, True], "b.png": [False, False]}

    def read(self, image: Image, rack: bool = False) -> PhotoReading:
        reading = super().read(image, rack)
        for tile, doubtful in zip(reading.tiles, self.DOUBTFUL[Path(image.path).name]):
            tile.doubtful = doubtful
        return reading


def test_sure_but_wrong_and_errors_flagged():
    # matched: a.png K1 right (sure), O7 wrong (flagged), K13 wrong (sure); b.png O7 right (sure)
    report = evaluate_dataset(TINY, FlaggingReader(), progress=False)
    assert (report.sure, report.sure_wrong, report.wrong, report.wrong_flagged) == (3, 1, 2, 1)
    assert report.sure_wrong_rate == pytest.approx(1 / 3)
    assert report.errors_flagged == pytest.approx(1 / 2)
    assert report.ocr is None  # the fake reader does not say
    js = report.to_json()
    assert js["sure_wrong_rate"] == 0.3333 and js["errors_flagged"] == 0.5
    text = report.format()
    assert "sure but wrong              33.3%  (1 of the 3 matched tiles shown as sure)" in text
    assert "errors flagged              50.0%  (1 of the 2 matched tiles read wrong were marked doubtful)" in text


def test_nothing_wrong_leaves_the_rates_undefined():
    class AllFlagged(FakeReader):
        def read(self, image: Image, rack: bool = False) -> PhotoReading:
            reading = super().read(image, rack)
            for tile in reading.tiles:
                tile.doubtful = True
            return reading

    report = evaluate_dataset(TINY, AllFlagged(), progress=False)
    assert report.sure == 0 and report.sure_wrong_rate is None and report.errors_flagged == 1.0
    assert report.to_json()["sure_wrong_rate"] is None


def test_cli_no_ocr_flag(fake_model_module, capsys):
    fake_model_module.model = FakeModel(_tiles_by_size)
    assert main(["evaluate", str(TINY), "--json", "--no-ocr"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ocr"] is False
    assert out["wrong"] == out["matched"] - out["exact"] == 2
    assert out["sure_wrong"] + out["wrong_flagged"] == out["wrong"]
    assert main(["evaluate", str(TINY), "--no-ocr"]) == 0
    text = capsys.readouterr().out
    assert "with the classifier alone" in text and "sure but wrong" in text and "errors flagged" in text


def test_rack_reads_every_photo_as_a_rack():
    class Recording(FakeReader):
        def __init__(self) -> None:
            super().__init__()
            self.racks: list[bool] = []

        def read(self, image: Image, rack: bool = False) -> PhotoReading:
            self.racks.append(rack)
            return super().read(image, rack)

    reader = Recording()
    assert evaluate_dataset(TINY, reader, progress=False).rack is False and reader.racks == [False, False]
    reader = Recording()
    report = evaluate_dataset(TINY, reader, progress=False, rack=True)
    assert reader.racks == [True, True] and report.rack is True and report.to_json()["rack"] is True
    assert "each photo as a rack" in report.format()


def test_cli_rack_flag(fake_model_module, capsys):
    fake_model_module.model = FakeModel(_tiles_by_size)
    assert main(["evaluate", str(TINY), "--json", "--rack"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rack"] is True and out["matched"] == 4
    assert main(["evaluate", str(TINY), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rack"] is False
