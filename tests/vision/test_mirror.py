"""vision.mirror: a photo saved mirrored is told by the number reader, which reads backwards numbers as none, read
mirrored back, and given back on the photo as taken."""

from __future__ import annotations

import numpy as np
import pytest
from vision_fakes import FakeModel, FakeNumberReader, number_vector, raw_tile

from vision.mirror import CLEARLY, MIN_SAMPLE, SURE_READ, better_mirrored, held_mirrored, mirror_gap, mirrored, mirrored_back, mirrored_box, reads_surely, sample
from vision.reader import Reader
from vision.types import DOUBT_TEXT, MIRRORED, Image, PhotoReading, TileReading

WIDTH, HEIGHT = 400, 300
RUN = [(100 + 42 * k, 120, 140 + 42 * k, 176) for k in range(4)]  # a run laid left to right, 2 px apart
TRUE = ["R3", "R4", "R5", "R6"]
# what the classifier makes of those tiles' backwards numbers, surely and wrongly (a 3 backwards looks like an E, a
# 5 like a 2, a 6 like an 8 or a 9)
BACKWARDS = ["R8", "R1", "R2", "R9"]


def _photo(mirrored_photo: bool) -> Image:
    """A blank photo with a white corner at its top left, or (mirrored) at its top right."""
    rgb = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    if mirrored_photo:
        rgb[:8, -8:] = 255
    else:
        rgb[:8, :8] = 255
    return Image(rgb, "table.jpg")


def _is_mirrored(rgb: np.ndarray) -> bool:
    return bool(rgb[0, -1, 0])


def _boxes(on_mirrored: bool) -> list[tuple[float, float, float, float]]:
    """The run's boxes on the photo the right way round, or on it mirrored (the run then lies right to left)."""
    return [mirrored_box(b, WIDTH) for b in RUN] if on_mirrored else [tuple(float(v) for v in b) for b in RUN]


def _scene():
    """A detector and classifier, and a number reader, for the run photographed the right way round: on the photo
    mirrored the classifier reads each tile's backwards number surely as another; the number reader reads the
    numbers the right way round and reads backwards ones as no number."""
    def tiles(rgb: np.ndarray) -> list:
        wrong_way = _is_mirrored(rgb)
        return [raw_tile(b, {(bad if wrong_way else good): 0.99})
                for b, good, bad in zip(_boxes(wrong_way), TRUE, BACKWARDS)]

    numbers = FakeNumberReader({b: {int(c[1:]): 0.97} for b, c in zip(_boxes(False), TRUE)})
    return FakeModel(tiles), numbers


def test_a_box_mirrors_with_its_photo():
    rgb = np.zeros((60, 100, 3), np.uint8)
    rgb[10:20, 70:95] = 255  # a box (70, 10, 95, 20)
    photo = mirrored(Image(rgb, "p.jpg"))
    assert photo.path == "p.jpg" and photo.rgb.flags.c_contiguous
    ys, xs = np.nonzero(photo.rgb[..., 0])
    assert mirrored_box((70, 10, 95, 20), 100) == (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
    assert mirrored_box(mirrored_box((70, 10, 95, 20), 100), 100) == (70, 10, 95, 20)


def test_a_photo_mirrors_pixel_for_pixel():
    rgb = np.random.default_rng(3).integers(0, 256, (7, 11, 3), dtype=np.uint8)
    assert np.array_equal(mirrored(Image(rgb)).rgb, rgb[:, ::-1])
    assert np.array_equal(mirrored(mirrored(Image(rgb))).rgb, rgb)


def test_a_reading_of_a_mirrored_photo_is_given_on_the_photo_as_taken():
    tile = TileReading(box=(70.0, 10.0, 95.0, 20.0), code="R5", confidence=0.9)
    reading = PhotoReading(path="p.jpg", width=100, height=60, tiles=[tile], melds=[], turned=1)
    back = mirrored_back(reading)
    assert back.mirrored and back.turned == 1 and (back.width, back.height) == (100, 60)
    assert back.tiles[0].box == (5.0, 10.0, 30.0, 20.0) and back.tiles[0].code == "R5"
    assert not reading.mirrored  # a new reading; the one given is left as it was


def test_the_largest_tiles_are_asked():
    boxes = [(0, 0, 10, 10), (0, 0, 30, 30), (0, 0, 20, 20), (0, 0, 30, 30)]
    assert sample(boxes, 3) == [1, 3, 2]  # largest first, ties in order
    assert sample([], 3) == []


def test_the_gap_is_how_much_more_surely_numbers_read_as_taken():
    sure = np.stack([number_vector({7: 0.9}), number_vector({2: 0.8})])
    none = np.stack([number_vector({None: 1.0}), number_vector({None: 1.0})])
    assert mirror_gap(sure, none) > 5 and mirror_gap(none, sure) < -5
    assert mirror_gap(sure, sure) == pytest.approx(0.0)
    # a number that reads alike mirrored (an 8, a 0, a joker's face) weighs nothing either way
    eight = number_vector({8: 0.9})[None]
    assert mirror_gap(np.concatenate([sure, eight]), np.concatenate([none, eight])) == pytest.approx(
        mirror_gap(sure, none) * 2 / 3)
    assert mirror_gap(np.zeros((0, 14)), np.zeros((0, 14))) == 0.0
    with pytest.raises(ValueError, match="2 tiles read as taken but 1 mirrored"):
        mirror_gap(sure, none[:1])


def test_a_photo_reads_better_mirrored_where_its_tiles_read_more_surely_mirrored_back():
    _, numbers = _scene()
    taken, boxes = _photo(True), _boxes(True)
    as_taken = numbers.read(taken.rgb, np.array(boxes))  # no number: the numbers are backwards
    found = better_mirrored(taken, boxes, as_taken, numbers.read)
    assert found is not None and np.array_equal(found[0].rgb, taken.rgb[:, ::-1]) and found[1] < CLEARLY
    assert numbers.asked[-1] == _boxes(False)  # the largest tiles (here all four), on the photo mirrored
    # the right way round, the numbers read as taken, and not mirrored
    right = _boxes(False)
    unsure = {b: {int(c[1:]): 0.6} for b, c in zip(right, TRUE)}  # not so surely that the test is skipped
    numbers = FakeNumberReader(unsure)
    assert better_mirrored(_photo(False), right, numbers.read(_photo(False).rgb, np.array(right)), numbers.read) is None
    assert len(numbers.asked) == 2


def test_numbers_read_surely_as_taken_are_not_asked_mirrored():
    sure = np.stack([number_vector({7: 0.95}), number_vector({2: 0.9}), number_vector({None: 0.9})])
    assert not reads_surely(sure)  # a third of the tiles reads no number: mean log far below SURE_READ
    assert reads_surely(sure[:2]) and not reads_surely(np.zeros((0, 14)))
    assert np.log(0.74) == pytest.approx(SURE_READ, abs=0.01)  # a geometric mean of 0.74
    numbers = FakeNumberReader({})
    assert better_mirrored(_photo(True), _boxes(True), sure[[0, 1, 0, 1]], numbers.read) is None
    assert numbers.asked == []


def test_a_tile_or_two_found_say_nothing_of_which_way_round_a_photo_is():
    """A photo with few tiles found (a rack standing sideways, its standing tiles missed) is not asked about mirrored:
    its reading mirrored back, finding more tiles by chance, would be kept as the surer and read every tile wrong."""
    _, numbers = _scene()
    taken, boxes = _photo(True), _boxes(True)[: MIN_SAMPLE - 1]
    as_taken = numbers.read(taken.rgb, np.array(boxes))  # backwards: no number
    assert better_mirrored(taken, boxes, as_taken, numbers.read) is None and len(numbers.asked) == 1
    assert better_mirrored(taken, _boxes(True)[:MIN_SAMPLE], numbers.read(taken.rgb, np.array(_boxes(True)[:MIN_SAMPLE])),
                           numbers.read) is not None


def test_the_reader_reads_a_mirrored_photo_mirrored_back():
    model, numbers = _scene()
    reading = Reader(model=model, number_reader=numbers, low_view=None).read(_photo(True))
    assert reading.mirrored and reading.turned == 0 and model.calls == 2
    assert (reading.width, reading.height) == (WIDTH, HEIGHT)
    # the boxes on the photo as handed over, each with its true code, sure, in one valid run
    by_box = {t.box: t.code for t in reading.tiles}
    assert by_box == dict(zip(_boxes(True), TRUE))
    assert not any(t.doubtful for t in reading.tiles)
    assert [sorted(m.codes) for m in reading.melds] == [TRUE] and reading.melds[0].valid
    assert reading.to_json()["image"]["mirrored"] is True


def test_a_photo_the_right_way_round_is_read_once():
    model, numbers = _scene()
    reading = Reader(model=model, number_reader=numbers, low_view=None).read(_photo(False))
    assert not reading.mirrored and model.calls == 1
    assert [t.code for t in reading.tiles] == TRUE and not any(t.doubtful for t in reading.tiles)
    assert len(numbers.asked) == 1  # its numbers read surely: the mirror test asks nothing more


def test_a_mirrored_reading_is_kept_only_with_more_tiles_sure():
    # the number reader reads no tile either way round: the test calls the photo mirrored on nothing, and reads
    # it once, as taken
    model, _ = _scene()
    blind = FakeNumberReader({})
    reading = Reader(model=model, number_reader=blind, low_view=None).read(_photo(True))
    assert not reading.mirrored and model.calls == 1
    # the number reader reads the largest tiles a little more surely mirrored, but mirrored back the classifier
    # reads other numbers, and fewer tiles are sure than as taken: the reading as taken stands
    def tiles(rgb: np.ndarray) -> list:
        codes, p = (BACKWARDS, 0.6) if _is_mirrored(rgb) else (TRUE, 0.99)
        return [raw_tile(b, {c: p}) for b, c in zip(_boxes(False), codes)]

    numbers = FakeNumberReader({**{b: {int(c[1:]): 0.6} for b, c in zip(_boxes(False), TRUE)},
                                **{b: {int(c[1:]): 0.9} for b, c in zip(_boxes(True), TRUE)}})
    model = FakeModel(tiles)
    reading = Reader(model=model, number_reader=numbers, low_view=None).read(_photo(False))
    assert model.calls == 2 and not reading.mirrored
    assert [t.code for t in reading.tiles] == TRUE and not any(t.doubtful for t in reading.tiles)


def test_one_sure_tile_mirrored_back_where_none_is_sure_as_taken_is_no_evidence():
    # mirrored back, the classifier reads the first tile as the recogniser does, the rest as other numbers; as
    # taken, nothing is sure: one tile (a 1 or an 8 would read alike both ways) does not turn the photo round
    def tiles(rgb: np.ndarray) -> list:
        wrong_way = _is_mirrored(rgb)
        return [raw_tile(b, {(bad if wrong_way else good if k == 0 else "B12"): 0.99})
                for k, (b, good, bad) in enumerate(zip(_boxes(wrong_way), TRUE, BACKWARDS))]

    _, numbers = _scene()
    model = FakeModel(tiles)
    reading = Reader(model=model, number_reader=numbers, low_view=None).read(_photo(True))
    assert model.calls == 2 and not reading.mirrored
    assert not any(t.doubtful for t in Reader(model=FakeModel(tiles), number_reader=numbers, low_view=None,
                                              mirror=False).read(_photo(False)).tiles[:1])


def test_a_photo_clearly_read_better_mirrored_but_no_surer_mirrored_back_shows_no_tile_as_sure():
    # as taken, the recogniser reads two backwards numbers as the classifier does (a 3 backwards as an 8, a 4 as a
    # 1), at 0.6; it reads the tiles mirrored back far more surely, but there the classifier reads another number on
    # every tile, so no tile is sure mirrored back
    def tiles(rgb: np.ndarray) -> list:
        wrong_way = _is_mirrored(rgb)
        return [raw_tile(b, {(bad if wrong_way else "B12"): 0.99}) for b, bad in zip(_boxes(wrong_way), BACKWARDS)]

    answers = {b: {int(c[1:]): 0.97} for b, c in zip(_boxes(False), TRUE)}
    answers.update({b: {int(c[1:]): 0.6} for b, c in zip(_boxes(True)[:2], BACKWARDS)})
    model, numbers = FakeModel(tiles), FakeNumberReader(answers)
    seen = Reader(model=model, number_reader=numbers, low_view=None, mirror=False).read(_photo(True))
    assert sum(not t.doubtful for t in seen.tiles) == 2  # without the test: R8 and R1, both wrong, shown as sure
    reading = Reader(model=model, number_reader=numbers, low_view=None).read(_photo(True))
    assert not reading.mirrored and not any(t.doubtful is False for t in reading.tiles)
    assert sorted(t.code for t in reading.tiles if t.doubt == MIRRORED) == ["R1", "R8"] and MIRRORED in DOUBT_TEXT
    assert [t.code for t in reading.tiles] == [t.code for t in seen.tiles]  # read as before, only doubted


def test_held_mirrored_doubts_the_sure_tiles_and_keeps_the_other_reasons():
    tiles = [TileReading(box=(0.0, 0.0, 1.0, 1.0), code="R5", confidence=0.99),
             TileReading(box=(2.0, 0.0, 3.0, 1.0), code="R6", confidence=0.6, doubtful=True, doubt="partial")]
    held = held_mirrored(PhotoReading(path="p.jpg", width=4, height=1, tiles=tiles, melds=[]))
    assert [(t.doubtful, t.doubt) for t in held.tiles] == [(True, MIRRORED), (True, "partial")]
    assert not tiles[0].doubtful  # a new reading


def test_without_the_mirror_test_or_a_number_reader_a_photo_is_read_as_taken():
    model, numbers = _scene()
    assert not Reader(model=model, number_reader=numbers, low_view=None, mirror=False).read(_photo(True)).mirrored
    assert model.calls == 1
    model, _ = _scene()
    assert not Reader(model=model, ocr=False, low_view=None).read(_photo(True)).mirrored
    assert model.calls == 1
