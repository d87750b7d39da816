"""vision.turn: a rack photographed sideways is told by its tiles' boxes, read turned upright, and given back on
the photo as taken."""

from __future__ import annotations

import numpy as np
import pytest
from vision_fakes import FakeModel, FakeNumberReader, number_vector, raw_tile

from vision.reader import Reader
from vision.turn import OVER_MIN, stands_sideways, stands_upside_down, touching_pairs, turned, turned_back, turned_box, way_up
from vision.types import Image, NumberAnswers, PhotoReading, TileReading

ROW = [(100 + 42 * k, 200, 140 + 42 * k, 256) for k in range(6)]  # six tiles standing side by side, 2 px apart
TIERS = ROW + [(x1, y1 + 80, x2, y2 + 80) for x1, y1, x2, y2 in ROW]  # and a second tier below, past the ledge


def _across(boxes):
    """The same boxes with x and y swapped: the rack as a photo turned a quarter shows it."""
    return [(y1, x1, y2, x2) for x1, y1, x2, y2 in boxes]


def test_a_racks_tiles_touch_side_by_side_along_its_tiers():
    assert touching_pairs(ROW) == (5, 0)
    assert touching_pairs(TIERS) == (10, 0)  # the tiers lie apart: their tiles are no column
    assert touching_pairs(_across(ROW)) == (0, 5)
    assert touching_pairs(_across(TIERS)) == (0, 10)
    assert touching_pairs([]) == (0, 0) and touching_pairs(ROW[:1]) == (0, 0)


def test_tiles_on_each_other_or_far_apart_do_not_touch():
    on_top = [(100, 100, 140, 156), (110, 100, 150, 156)]  # a box three quarters over another: no neighbour
    apart = [(100, 100, 140, 156), (160, 100, 200, 156)]  # half a tile apart
    offset = [(100, 100, 140, 156), (142, 140, 182, 196)]  # beside it, but sharing under 0.6 of its height
    assert touching_pairs(on_top) == touching_pairs(apart) == touching_pairs(offset) == (0, 0)


def test_a_rack_stands_sideways_when_its_tiles_touch_one_above_another():
    assert not stands_sideways(ROW) and not stands_sideways(TIERS)
    assert stands_sideways(_across(ROW)) and stands_sideways(_across(TIERS))
    # one pair in a column is too little to turn a photo for
    assert not stands_sideways(_across(ROW[:2]))
    # as many columns as rows: as taken
    assert not stands_sideways(ROW[:3] + [(500, y, 540, y + 56) for y in (100, 158, 216)])


@pytest.mark.parametrize("quarters", [0, 1, 2, 3, 4, -1])
def test_a_box_turns_with_its_photo(quarters):
    rgb = np.zeros((60, 100, 3), np.uint8)
    rgb[10:20, 70:95] = 255  # a box (70, 10, 95, 20)
    photo = turned(Image(rgb, "p.jpg"), quarters)
    assert photo.path == "p.jpg"
    ys, xs = np.nonzero(photo.rgb[..., 0])
    assert turned_box((70, 10, 95, 20), quarters, 100, 60) == (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
    # and back
    back = (4 - quarters % 4) % 4
    assert turned_box(turned_box((70, 10, 95, 20), quarters, 100, 60), back, photo.width, photo.height) == (70, 10, 95, 20)


@pytest.mark.parametrize("quarters", [0, 1, 2, 3, 5, -1])
def test_a_photo_turns_pixel_for_pixel_as_numpy_turns_it(quarters):
    rgb = np.random.default_rng(quarters % 7).integers(0, 256, (7, 11, 3), dtype=np.uint8)
    photo = turned(Image(rgb, "p.jpg"), quarters)
    assert np.array_equal(photo.rgb, np.rot90(rgb, -quarters)) and photo.rgb.flags.c_contiguous


def test_a_reading_of_a_turned_photo_is_given_on_the_photo_as_taken():
    tile = TileReading(box=(70.0, 10.0, 95.0, 20.0), code="R5", confidence=0.99)
    reading = PhotoReading(path="p.jpg", width=100, height=60, tiles=[tile], melds=[], rack=True)
    back = turned_back(reading, 1)  # read turned a quarter clockwise: the photo as taken is 60 wide, 100 tall
    assert (back.width, back.height, back.turned) == (60, 100, 1)
    assert back.tiles[0].box == turned_box(tile.box, 3, 100, 60) == (10.0, 5.0, 20.0, 30.0)
    assert back.tiles[0].code == "R5" and back.to_json()["image"]["turned"] == 1


CODES = ["B1", "B2", "B3", "B4", "B5", "B6"]


def _marked(width: int, height: int) -> Image:
    """A blank photo with a white corner at its top left, to tell how it was turned."""
    rgb = np.zeros((height, width, 3), np.uint8)
    rgb[:8, :8] = 255
    return Image(rgb, "rack.jpg")


def _sideways_rack(rgb: np.ndarray) -> list:
    """A detector stand-in for a rack photographed turned a quarter counter-clockwise (its top on the photo's left):
    as taken, four of the six tiles found, one above another, unsure; turned a quarter clockwise, upright, all six
    side by side and sure; turned the other way (upside down), all six and unsure."""
    h, w = rgb.shape[:2]
    if h > w:  # as taken
        return [raw_tile(b, {c: 0.5, "K8": 0.5}) for b, c in zip(_across(ROW[:4]), CODES)]
    upright = rgb[0, w - 1, 0] == 255  # the photo's top left, turned a quarter clockwise, is at the top right
    return [raw_tile(b, {c: 0.99} if upright else {c: 0.5, "K8": 0.5}) for b, c in zip(ROW, CODES)]


def test_a_rack_photographed_sideways_is_read_turned_upright():
    model = FakeModel(_sideways_rack)
    photo = _marked(400, 700)
    reading = Reader(model=model, ocr=False, low_view=None).read(photo, rack=True)
    assert [s[:2] for s in model.shapes] == [(700, 400), (400, 700), (400, 700)]  # as taken, then each quarter
    assert reading.turned == 1 and (reading.width, reading.height) == (400, 700)
    assert reading.codes() == CODES and not any(t.doubtful for t in reading.tiles)
    # the boxes lie on the photo as taken, its top on the photo's left: the rack's left end at the photo's foot
    assert [t.box for t in reading.tiles] == [turned_box(b, 3, 700, 400) for b in ROW]
    assert reading.tiles[0].box[1] > reading.tiles[-1].box[1]
    assert reading.to_json()["image"]["turned"] == 1


def test_a_rack_standing_upright_or_a_table_is_read_as_taken():
    rack = FakeModel(lambda rgb: [raw_tile(b, {c: 0.99}) for b, c in zip(ROW, CODES)])
    reading = Reader(model=rack, ocr=False, low_view=None).read(_marked(700, 400), rack=True)
    assert rack.calls == 1 and reading.turned == 0
    # a table whose tiles touch side by side: its rows run across the photo
    table = FakeModel(lambda rgb: [raw_tile(b, {c: 0.99}) for b, c in zip(ROW, CODES)])
    reading = Reader(model=table, ocr=False, low_view=None).read(_marked(700, 400))
    assert table.calls == 1 and reading.turned == 0
    # a reader told to read every rack as taken (the calibration's replay)
    rack = FakeModel(_sideways_rack)
    reading = Reader(model=rack, ocr=False, low_view=None, sideways=False).read(_marked(400, 700), rack=True)
    assert rack.calls == 1 and reading.turned == 0


def test_a_sideways_rack_read_no_surer_turned_keeps_its_reading_as_taken():
    model = FakeModel(lambda rgb: [raw_tile(b, {c: 0.99}) for b, c in zip(_across(ROW), CODES)]
                      if rgb.shape[0] > rgb.shape[1] else [])
    reading = Reader(model=model, ocr=False, low_view=None).read(_marked(400, 700), rack=True)
    assert model.calls == 3 and reading.turned == 0 and reading.codes() == CODES
    assert [t.box for t in reading.tiles] == [tuple(float(v) for v in b) for b in _across(ROW)]


def _numbers_read_on(quarters_right: int):
    """A number reader stand-in for a photo whose rack stands upright turned ``quarters_right`` clockwise: there each
    tile reads its number surely the photo's way up; turned the other way (upside down) it reads no number."""
    def read(rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        upright = rgb[0, rgb.shape[1] - 1, 0] == 255 if quarters_right == 1 else rgb[rgb.shape[0] - 1, 0, 0] == 255
        return np.stack([number_vector({5: 0.95} if upright else {None: 0.6, 2: 0.4}) for _ in boxes])
    return read


@pytest.mark.parametrize("right", [1, 3])
def test_the_number_reader_says_which_quarter_turn_stands_a_rack_the_right_way_up(right):
    photo = _marked(400, 700)
    asked = []

    def read(rgb, boxes):
        asked.append((rgb.shape[:2], [tuple(b) for b in boxes]))
        return _numbers_read_on(right)(rgb, boxes)

    assert way_up(photo, _across(ROW), read) == right
    # each quarter read on the photo turned, its boxes turned with it
    assert [a[0] for a in asked] == [(400, 700), (400, 700)]
    assert asked[0][1] == [turned_box(b, 1, 400, 700) for b in _across(ROW)]
    assert asked[1][1] == [turned_box(b, 3, 400, 700) for b in _across(ROW)]


def test_a_sideways_rack_is_read_once_more_the_way_the_number_reader_says_is_up():
    model = FakeModel(_sideways_rack)
    upright = {tuple(float(v) for v in b): {n: 0.99} for b, n in zip(ROW, range(1, 7))}
    numbers = FakeNumberReader(upright)
    reading = Reader(model=model, number_reader=numbers, low_view=None, mirror=False).read(_marked(400, 700), rack=True)
    # as taken, then the one turn the number reader chose: its two looks are number readings only
    assert [s[:2] for s in model.shapes] == [(700, 400), (400, 700)]
    assert len(numbers.asked) == 4 and all(numbers.upright)
    assert reading.turned == 1 and reading.codes() == CODES


def _answers(ways, numbers=None) -> NumberAnswers:
    """The number reader's answers on tiles lying ``ways``, each read surely as its number (default 2, whose ink
    shows its way up)."""
    numbers = [2] * len(ways) if numbers is None else numbers
    return NumberAnswers(np.stack([number_vector({n: 0.95}) for n in numbers]) if ways else np.zeros((0, 14)),
                         np.array(ways, dtype=np.float64))


def test_a_rack_stands_upside_down_when_more_of_its_tiles_read_surely_turned_over():
    nan = float("nan")
    assert stands_upside_down(_answers([180.0, 175.0, -170.0, 540.0, nan]))  # -170 and 540 lie near a half turn too
    assert stands_upside_down(_answers([180.0] * 5 + [0.0] * 3))
    assert not stands_upside_down(_answers([0.0, 5.0, -10.0, 180.0]))  # a tile or two put in upside down
    assert not stands_upside_down(_answers([180.0] * 3 + [0.0] * 3))  # as many each way: nothing says so
    assert not stands_upside_down(_answers([180.0] * (OVER_MIN - 1) + [nan] * 6))  # too few read surely to say
    # a few tiles read surely turned over by chance, among many that read no number surely (a photo read badly)
    assert not stands_upside_down(_answers([180.0] * 3 + [0.0] + [nan] * 42))
    assert stands_upside_down(_answers([180.0] * 12 + [0.0] + [nan] * 33))
    assert not stands_upside_down(_answers([90.0, 90.0, 270.0, 180.0]))  # lying on their sides is not upside down
    assert not stands_upside_down(_answers([]))


def test_numbers_that_read_alike_turned_over_say_nothing_of_a_racks_way_up():
    """An 8, a 1 or an 11 reads as itself turned over, and a 6 as a 9: under either turn as surely, so the turn they
    read best under is chance. Only the numbers whose ink shows their way up count."""
    ambiguous = [1, 6, 8, 9, 11]
    assert not stands_upside_down(_answers([180.0] * 5 + [0.0, 0.0], ambiguous + [2, 12]))
    assert stands_upside_down(_answers([180.0] * 5 + [0.0, 0.0], [2, 3, 4, 5, 7, 8, 1]))


class _WaysOnPhoto(FakeNumberReader):
    """A number reader that also gives each tile's way (``vision.reader.WaysReading``): ``way_taken`` on the photo
    as ``_marked`` makes it (its white corner top left), and 0 (upright) on the photo turned a half."""

    def __init__(self, answers, way_taken: float) -> None:
        super().__init__(answers)
        self.way_taken = way_taken

    def read_with_ways(self, rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> NumberAnswers:
        way = self.way_taken if rgb[0, 0, 0] == 255 else 0.0
        return NumberAnswers(self.read(rgb, boxes, upright), np.full(len(boxes), way))


def _upside_down_rack(sure_turned: bool):
    """A detector stand-in for a rack photographed upside down (700 x 400): as taken its six tiles, unsure; turned a
    half, upright, the same six and sure (``sure_turned``), or only two of them, unsure."""
    def find(rgb: np.ndarray) -> list:
        if rgb[0, 0, 0] == 255:  # as taken
            return [raw_tile(turned_box(b, 2, 700, 400), {c: 0.5, "K8": 0.5}) for b, c in zip(ROW, CODES)]
        if sure_turned:
            return [raw_tile(b, {c: 0.99}) for b, c in zip(ROW, CODES)]
        return [raw_tile(b, {c: 0.5, "K8": 0.5}) for b, c in zip(ROW[:2], CODES)]
    return find


def _numbers_upside_down(way_taken: float) -> _WaysOnPhoto:
    # as taken each reads its number (1 to 6) surely turned over: 2, 3, 4 and 5 show their way up
    turned_over_boxes = {turned_box(b, 2, 700, 400): {k + 1: 0.9} for k, b in enumerate(ROW)}
    upright = {tuple(float(v) for v in b): {k + 1: 0.99} for k, b in enumerate(ROW)}
    return _WaysOnPhoto({**turned_over_boxes, **upright}, way_taken)


def test_a_rack_photographed_upside_down_is_read_turned_a_half():
    """Photographed from across the table (or by a phone that got its way up wrong), a rack's tiles stand upside
    down: the number reader reads them surely only turned over, and the rack is read again turned a half, its
    tiles in the order their owner sees them and their boxes on the photo as taken."""
    model = FakeModel(_upside_down_rack(sure_turned=True))
    reading = Reader(model=model, number_reader=_numbers_upside_down(180.0), low_view=None, mirror=False).read(
        _marked(700, 400), rack=True)
    assert model.calls == 2 and reading.turned == 2 and (reading.width, reading.height) == (700, 400)
    assert reading.codes() == CODES and not any(t.doubtful for t in reading.tiles)
    assert [t.box for t in reading.tiles] == [turned_box(b, 2, 700, 400) for b in ROW]
    assert reading.to_json()["image"]["turned"] == 2


def test_a_rack_read_no_surer_turned_a_half_or_standing_upright_keeps_its_reading_as_taken():
    model = FakeModel(_upside_down_rack(sure_turned=False))
    reading = Reader(model=model, number_reader=_numbers_upside_down(180.0), low_view=None, mirror=False).read(
        _marked(700, 400), rack=True)
    assert model.calls == 2 and reading.turned == 0 and len(reading.tiles) == 6  # turned a half, no surer: as taken
    # its tiles read surely the photo's way up: no second reading
    model = FakeModel(_upside_down_rack(sure_turned=True))
    reading = Reader(model=model, number_reader=_numbers_upside_down(0.0), low_view=None, mirror=False).read(
        _marked(700, 400), rack=True)
    assert model.calls == 1 and reading.turned == 0


class _SurerUpsideDown(FakeNumberReader):
    """A number reader that reads the sideways rack's numbers (1 to 6) a little more surely on the photo turned the
    wrong quarter (upside down) than the right one, so that ``way_up`` picks the wrong turn, but says its tiles lie
    turned over there (``NumberAnswers.ways``)."""

    def read(self, rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> np.ndarray:
        self.asked.append([tuple(float(v) for v in b) for b in np.asarray(boxes).reshape(-1, 4)])
        p = 0.9 if _stands_upright(rgb) else 0.99
        return np.stack([number_vector({k + 1: p}) for k in range(len(boxes))]) if len(boxes) else np.zeros((0, 14))

    def read_with_ways(self, rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> NumberAnswers:
        return NumberAnswers(self.read(rgb, boxes, upright), np.full(len(boxes), 0.0 if _stands_upright(rgb) else 180.0))


def _stands_upright(rgb: np.ndarray) -> bool:
    """``_marked``'s photo turned a quarter clockwise: its white corner at the top right."""
    return bool(rgb[0, rgb.shape[1] - 1, 0] == 255)


def test_a_sideways_rack_turned_the_wrong_quarter_is_read_the_other_quarter_too():
    """The number reader's sureness picks the quarter that stands the rack on its head; read that way, its tiles read
    surely only turned over: the other quarter is read too, and its reading, surer, kept."""
    model = FakeModel(_sideways_rack)
    reading = Reader(model=model, number_reader=_SurerUpsideDown({}), low_view=None, mirror=False).read(
        _marked(400, 700), rack=True)
    assert [s[:2] for s in model.shapes] == [(700, 400), (400, 700), (400, 700)]  # as taken, the wrong turn, the right
    assert reading.turned == 1 and reading.codes() == CODES and not any(t.doubtful for t in reading.tiles)


def _found_turned(sure: bool):
    """A detector stand-in for a close-up rack turned a quarter: as taken one tile found, unsure; turned upright, its
    eight tiles (``sure`` or not)."""
    eight = [(60 + 42 * k, 200, 100 + 42 * k, 256) for k in range(8)]
    return lambda rgb: ([raw_tile(ROW[0], {"K5": 0.5, "K6": 0.5})] if rgb.shape[0] > rgb.shape[1]
                        else [raw_tile(b, {f"R{k + 1}": 0.99} if sure else {"R7": 0.5, "R1": 0.5}) for k, b in enumerate(eight)])


def test_a_rack_photo_with_few_tiles_found_is_read_turned_and_kept_where_it_reads_more_surely():
    """Turned a quarter, a close-up rack's standing tiles may be missed nearly all: too few boxes to show how the rack
    stands. Read turned, the rack's eight tiles, sure, are kept over the one found as taken."""
    model = FakeModel(_found_turned(sure=True))
    reading = Reader(model=model, ocr=False, low_view=None).read(_marked(400, 700), rack=True)
    assert model.calls == 3 and reading.turned in (1, 3) and reading.codes() == [f"R{k}" for k in range(1, 9)]


def test_boxes_found_only_turned_and_no_surer_are_not_taken_for_a_rack():
    """An empty rack: a box or two as taken, more turned, none sure. Only sure tiles say a turned reading is the
    better one where the rack showed no way it stands."""
    model = FakeModel(_found_turned(sure=False))
    reading = Reader(model=model, ocr=False, low_view=None).read(_marked(400, 700), rack=True)
    assert model.calls == 3 and reading.turned == 0 and len(reading.tiles) == 1


def test_a_small_rack_standing_upright_keeps_its_reading_as_taken():
    three = [raw_tile(b, {c: 0.99}) for b, c in zip(ROW[:3], CODES)]
    model = FakeModel(lambda rgb: three if rgb.shape[1] > rgb.shape[0] else
                      [raw_tile(b, {"K5": 0.5, "K6": 0.5}) for b in _across(ROW[:4])])  # turned: unsure, one more
    reading = Reader(model=model, ocr=False, low_view=None).read(_marked(700, 400), rack=True)
    assert model.calls == 3 and reading.turned == 0 and reading.codes() == CODES[:3]


def test_a_sideways_rack_read_as_surely_turned_is_kept_turned_where_it_finds_more_tiles():
    column = [raw_tile(b, {f"R{k + 1}": 0.5, f"B{k + 1}": 0.5}) for k, b in enumerate(_across(ROW[:4]))]
    row = [raw_tile(b, {f"R{k + 1}": 0.5, f"B{k + 1}": 0.5}) for k, b in enumerate(ROW)]
    model = FakeModel(lambda rgb: column if rgb.shape[0] > rgb.shape[1] else row)
    reading = Reader(model=model, ocr=False, low_view=None).read(_marked(400, 700), rack=True)
    assert reading.turned in (1, 3) and len(reading.tiles) == 6 and all(t.doubtful for t in reading.tiles)
    # as many tiles turned as taken: the reading as taken stays
    model = FakeModel(lambda rgb: column if rgb.shape[0] > rgb.shape[1] else row[:4])
    reading = Reader(model=model, ocr=False, low_view=None).read(_marked(400, 700), rack=True)
    assert reading.turned == 0 and len(reading.tiles) == 4


def test_a_table_whose_rows_run_down_the_photo_is_read_turned_its_melds_across():
    """A table taken from its side, or turned a quarter: the layout, a low view's stretch and the detector know a
    table whose rows run across the photo. Read turned, its meld is found whole: two tiles more, sure."""
    column = [raw_tile(b, {c: 0.99}) for b, c in zip(_across(ROW[:4]), ["R3", "R4", "R5", "R6"])]
    row = [raw_tile(b, {c: 0.99}) for b, c in zip(ROW, ["R3", "R4", "R5", "R6", "R7", "R8"])]
    model = FakeModel(lambda rgb: column if rgb.shape[0] > rgb.shape[1] else row)
    numbers = FakeNumberReader({tuple(float(v) for v in b): {n: 0.99} for b, n in zip(ROW, range(3, 9))})
    reading = Reader(model=model, number_reader=numbers, low_view=None, mirror=False).read(_marked(400, 700))
    # a table is turned one way, clockwise, without asking which way is up: its tiles read alike either way
    assert reading.turned == 1 and (reading.width, reading.height) == (400, 700) and len(numbers.asked) == 2
    assert [sorted(m.codes) for m in reading.melds] == [["R3", "R4", "R5", "R6", "R7", "R8"]]
    assert reading.melds[0].valid and not any(t.doubtful for t in reading.tiles)
    assert {t.box for t in reading.tiles} == {turned_box(b, (4 - reading.turned) % 4, 700, 400) for b in ROW}


def test_a_table_whose_rows_run_down_keeps_its_reading_where_turned_reads_no_surer():
    column = [raw_tile(b, {c: 0.99}) for b, c in zip(_across(ROW), ["R3", "R4", "R5", "R6", "R7", "R8"])]
    model = FakeModel(lambda rgb: column if rgb.shape[0] > rgb.shape[1] else [])
    reading = Reader(model=model, ocr=False, low_view=None).read(_marked(400, 700))
    assert model.calls == 2 and reading.turned == 0  # one turn: a table reads alike either way up
    assert [sorted(m.codes) for m in reading.melds] == [["R3", "R4", "R5", "R6", "R7", "R8"]]
