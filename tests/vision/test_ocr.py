"""vision.ocr: CTC decoding, orientation, turn merging; and the real recogniser on drawn tiles."""

from __future__ import annotations

import dataclasses
import itertools
import math

import cv2
import numpy as np
import pytest

from drawn_rack import rack_row
from vision import ocr
from vision.ocr import NO_NUMBER, NumberReader, OcrSettings, ctc_string_probs, merge_turns, number_probs, tile_geometry, tilt, way_read

# a tiny alphabet: column 0 blank, then "1", "3", "x", "I"; the other digits share column 9
COLUMNS = {d: (9,) for d in "0123456789"}
COLUMNS.update({"1": (1, 4), "3": (2,)})


def _steps(*rows: dict[int, float], width: int = 10) -> np.ndarray:
    out = np.zeros((1, len(rows), width))
    for t, row in enumerate(rows):
        for c, p in row.items():
            out[0, t, c] = p
    return out


def test_ctc_collapses_repeats_and_needs_a_blank_between_equal_digits():
    one_three = _steps({1: 1.0}, {1: 1.0}, {0: 1.0}, {2: 1.0})
    assert ctc_string_probs(one_three, ["13", "1", "3", "11"], COLUMNS)[0] == pytest.approx([1, 0, 0, 0])
    eleven = _steps({1: 1.0}, {0: 1.0}, {1: 1.0})
    assert ctc_string_probs(eleven, ["11", "1"], COLUMNS)[0] == pytest.approx([1, 0])
    one = _steps({1: 1.0}, {1: 1.0}, {0: 1.0})
    assert ctc_string_probs(one, ["11", "1"], COLUMNS)[0] == pytest.approx([0, 1])


def test_ctc_counts_look_alikes_as_the_digit():
    capital_i = _steps({0: 1.0}, {4: 1.0}, {0: 1.0})
    assert ctc_string_probs(capital_i, ["1"], COLUMNS)[0, 0] == pytest.approx(1.0)


def _collapse(path: tuple[int, ...], label: dict[int, str]) -> str:
    out, prev = [], None
    for c in path:
        if c != prev and c != 0:
            out.append(label[c])
        prev = c
    return "".join(out)


def test_ctc_matches_summing_every_path():
    rng = np.random.default_rng(5)
    probs = rng.dirichlet(np.ones(4), size=(2, 4))  # 2 crops, 4 steps, classes blank/"1"/"3"/"x"
    columns = {d: (3,) for d in "0123456789"}
    columns.update({"1": (1,), "3": (2,)})
    label = {1: "1", 2: "3", 3: "?"}
    strings = ["1", "3", "13", "31", "11", "113"]
    want = np.zeros((2, len(strings)))
    for path in itertools.product(range(4), repeat=4):
        s = _collapse(path, label)
        if s in strings:
            want[:, strings.index(s)] += np.prod([probs[:, t, c] for t, c in enumerate(path)], axis=0)
    assert ctc_string_probs(probs, strings, columns) == pytest.approx(want)


def test_one_whole_eleven_glyph_reads_as_eleven():
    # column 5: an "n", the joined-serif 11 some editions print; it is no number without the ELEVEN key
    columns = {**COLUMNS, ocr.ELEVEN: (5,)}
    n = _steps({0: 0.2, 5: 0.8}, {0: 1.0})
    assert number_probs(n, columns)[0, 10] == pytest.approx(0.8)
    assert number_probs(n, COLUMNS)[0, NO_NUMBER] == pytest.approx(1.0)
    # the two ones as digits still read 11, and the glyph beside a digit is no number
    assert number_probs(_steps({1: 1.0}, {0: 1.0}, {1: 1.0}), columns)[0, 10] == pytest.approx(1.0)
    assert number_probs(_steps({1: 1.0}, {5: 1.0}), columns)[0, NO_NUMBER] == pytest.approx(1.0)


def test_the_eleven_glyphs_are_in_the_alphabet_they_are_looked_up_in():
    columns = ocr.digit_columns(["1", "n", "0", "2", "3", "4", "5", "6", "7", "8", "9", "u"])
    assert columns[ocr.ELEVEN] == (2, 12)
    assert ocr.ELEVEN not in ocr.digit_columns(list("0123456789"))


def test_number_probs_puts_the_rest_on_no_number():
    probs = _steps({2: 0.6, 3: 0.4}, {0: 1.0})  # "3" or an "x": not a number
    p = number_probs(probs, COLUMNS)[0]
    assert p.shape == (14,)
    assert p[2] == pytest.approx(0.6) and p[NO_NUMBER] == pytest.approx(0.4)


def test_bad_ctc_input():
    with pytest.raises(ValueError, match="batch, steps, classes"):
        ctc_string_probs(np.zeros((3, 4)), ["1"], COLUMNS)
    with pytest.raises(ValueError, match="only digit strings"):
        ctc_string_probs(np.zeros((1, 3, 10)), ["J"], COLUMNS)


def test_merge_turns_keeps_the_turn_that_reads_a_number():
    upright = np.zeros(14)
    upright[11] = 0.9  # "12"
    upright[NO_NUMBER] = 0.1
    upside_down = np.zeros(14)
    upside_down[NO_NUMBER] = 1.0
    merged = merge_turns([upside_down, upright])
    assert int(merged.argmax()) == 11 and merged[11] > 0.85
    six, nine = np.zeros(14), np.zeros(14)
    six[5], nine[8] = 0.97, 0.97
    six[NO_NUMBER] = nine[NO_NUMBER] = 0.03
    merged = merge_turns([six, nine])
    assert merged[5] == pytest.approx(merged[8]) == pytest.approx(0.485)


# --------------------------------------------------------------------------- orientation


def test_geometry_of_straight_boxes():
    g = tile_geometry((0, 0, 74, 100), 0.0)
    assert g.angles == (0.0, -180.0) or g.angles == (0.0, 180.0)
    assert (g.width, g.height) == pytest.approx((74, 100))
    g = tile_geometry((0, 0, 100, 74), 0.0)  # lying on its side
    assert sorted(abs(a) for a in g.angles) == [90.0, 90.0]
    assert (g.width, g.height) == pytest.approx((74, 100))
    assert len(tile_geometry((0, 0, 100, 100), 44.0).angles) == 4  # at 45 degrees: any way
    with pytest.raises(ValueError, match="positive width"):
        tile_geometry((10, 10, 10, 30), 0.0)


def _face(number: str, w: int = 74, h: int = 100, ink=(200, 30, 40)) -> np.ndarray:
    face = np.full((h, w, 3), (236, 229, 206), np.uint8)
    size, _ = cv2.getTextSize(number, cv2.FONT_HERSHEY_DUPLEX, 1.6, 4)
    org = ((w - size[0]) // 2, int(h * 0.42 + size[1] / 2))
    cv2.putText(face, number, org, cv2.FONT_HERSHEY_DUPLEX, 1.6, ink, 4, cv2.LINE_AA)
    return face


def _photo_with(face: np.ndarray, angle: float, size: int = 240) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """The face turned ``angle`` degrees clockwise on a dark table; returns the photo and the tile's box."""
    photo = np.full((size, size, 3), (70, 45, 30), np.uint8)
    h, w = face.shape[:2]
    c = size / 2
    m = cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0)  # OpenCV turns counter-clockwise
    m[:, 2] += (c - w / 2, c - h / 2)
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, (size, size))
    turned = cv2.warpAffine(face, m, (size, size))
    photo[mask > 127] = turned[mask > 127]
    ys, xs = np.nonzero(mask > 127)
    return photo, (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))


@pytest.mark.parametrize("angle", [0.0, 20.0, -25.0, 90.0, 180.0, -90.0, 160.0])
def test_the_first_turn_brings_the_tile_upright(angle):
    photo, box = _photo_with(_face("5"), angle)
    plan = NumberReader().plan(photo, box)  # no model needed
    first = plan.turns[0]  # the number sits above the face's centre: that end is the top
    assert abs((first - angle + 180) % 360 - 180) < 6
    assert len(plan.turns) == 2 and abs((plan.turns[1] - first) % 360 - 180) < 1e-6
    # a tile on its side has a box as wide as a standing tile shortened by the view: its other turns come later
    assert sorted(round((a - first) % 360) for a in plan.later) == ([90, 270] if abs(angle) == 90 else [])


def _seen_from_above(face: np.ndarray, shortened: float = 0.6) -> np.ndarray:
    """The face of a tile standing on a rack, seen from above: shortened top to bottom."""
    h, w = face.shape[:2]
    return cv2.resize(face, (w, int(round(h * shortened))), interpolation=cv2.INTER_AREA)


def test_a_standing_tile_seen_from_above_is_also_read_upright():
    photo, box = _photo_with(_seen_from_above(_face("5")), 0.0)
    assert (box[2] - box[0]) > (box[3] - box[1])  # its box is wider than tall, as a tile lying on its side
    plan = NumberReader().plan(photo, box)
    assert all(abs(a) > 45 for a in plan.turns)  # read first: the two sideways turns a lying tile would need
    assert any(abs(a) < 6 for a in plan.later)  # and then, where neither reads a number, upright
    assert NumberReader(settings=ocr.OcrSettings(foreshortened=(0.0, 0.0))).plan(photo, box).later == ()


def test_tilt_of_a_turned_rectangle():
    photo, box = _photo_with(_face("8"), 17.0)
    x1, y1, x2, y2 = (int(v) for v in box)
    deg, strength = tilt(cv2.cvtColor(photo[y1:y2, x1:x2], cv2.COLOR_RGB2GRAY))
    assert abs(deg - 17.0) < 3 and strength > 0.2


def test_reader_rejects_bad_input():
    reader = NumberReader(model_path="/nonexistent/model.onnx")
    assert reader.read(np.zeros((10, 10, 3), np.uint8), np.zeros((0, 4))).shape == (0, 14)
    with pytest.raises(ValueError, match="uint8 RGB"):
        reader.read(np.zeros((10, 10), np.uint8), [(0, 0, 5, 5)])
    with pytest.raises(ValueError, match="positive width"):
        reader.read(np.zeros((10, 10, 3), np.uint8), [(5, 5, 5, 9)])


def test_a_missing_model_file_is_a_clear_error():
    from vision.errors import ModelMissing

    with pytest.raises(ModelMissing, match="number recogniser is missing"):
        NumberReader(model_path="/nonexistent/model.onnx").read(*_photo_with(_face("3"), 0.0)[:1], [(80, 70, 154, 170)])


# --------------------------------------------------------------------------- the real recogniser

needs_model = pytest.mark.skipif(not ocr.ocr_available(), reason=f"{ocr.OCR_PACKAGE} is not installed (pip install -e .)")


def _pil_face(number: str) -> np.ndarray:
    """A tile face with the number in a TrueType font (DejaVu Sans Bold when there), not OpenCV's."""
    from PIL import Image, ImageDraw, ImageFont

    face = Image.new("RGB", (74, 100), (236, 229, 206))
    try:
        font = ImageFont.truetype("DejaVuSans-Bold.ttf", 40)
    except OSError:
        font = ImageFont.load_default(size=40)
    draw = ImageDraw.Draw(face)
    left, top, right, bottom = draw.textbbox((0, 0), number, font=font)
    draw.text(((74 - (right - left)) / 2 - left, 42 - (bottom - top) / 2 - top), number, fill=(22, 88, 185), font=font)
    return np.asarray(face)


@needs_model
@pytest.mark.parametrize(
    # a tile's digits are heavy: OpenCV's thin stroke font draws a 7 no edition prints (the recogniser takes it for a 1)
    "number,angle,draw", [("7", 0.0, _pil_face), ("12", 0.0, _pil_face), ("4", 90.0, _pil_face), ("10", 180.0, _face), ("3", -20.0, _pil_face)]
)
def test_recogniser_reads_a_drawn_tile(number, angle, draw):
    photo, box = _photo_with(draw(number), angle)
    p = NumberReader().read(photo, [box])[0]
    assert p.shape == (14,) and p.sum() == pytest.approx(1.0)
    assert int(p.argmax()) == int(number) - 1, p.round(3)
    assert p[int(number) - 1] > 0.5


@needs_model
@pytest.mark.parametrize("angle", [0.0, 90.0, 180.0, -90.0, 15.0])
def test_the_way_a_tile_lies_is_the_turn_it_reads_a_number_under(angle):
    """A tile's way (``NumberAnswers.ways``) is the turn under which it reads a number surely: which way it lies on
    the table, whichever end is up it has (a 4 has one). The probabilities are ``read``'s."""
    photo, box = _photo_with(_pil_face("4"), angle)
    answers = NumberReader().read_with_ways(photo, [box])
    assert np.array_equal(answers.probs, NumberReader().read(photo, [box]))
    assert abs((answers.ways[0] - angle + 180) % 360 - 180) < 8, answers.ways


@needs_model
def test_a_blank_tile_lies_no_way_it_can_tell():
    photo, box = _photo_with(np.full((100, 74, 3), (236, 229, 206), np.uint8), 90.0)
    answers = NumberReader().read_with_ways(photo, [box])
    assert answers.ways.shape == (1,) and math.isnan(answers.ways[0])
    empty = NumberReader().read_with_ways(photo, np.zeros((0, 4)))
    assert empty.probs.shape == (0, 14) and empty.ways.shape == (0,)


@needs_model
def test_the_numbers_read_do_not_depend_on_the_order_the_tiles_are_asked_in():
    """Crops of one width share a batch in an order of their own: more tiles than one batch holds read alike (to the
    last bits of a float sum) whatever order the detector gave their boxes in (the reader asks before it groups the
    tiles)."""
    faces = [_pil_face(str(n % 13 + 1)) for n in range(30)]
    photo = np.full((2 * 110, 15 * 84, 3), (70, 45, 30), np.uint8)
    boxes = []
    for k, face in enumerate(faces):
        x, y = 5 + (k % 15) * 84, 5 + (k // 15) * 110
        photo[y : y + 100, x : x + 74] = face
        boxes.append((x, y, x + 74, y + 100))
    boxes = np.array(boxes, dtype=np.float64)
    reader = NumberReader(settings=dataclasses.replace(OcrSettings(), batch=16))  # 30 tiles, several batches
    first = reader.read_with_ways(photo, boxes)
    order = np.random.default_rng(1).permutation(len(boxes))
    again = reader.read_with_ways(photo, boxes[order])
    assert np.allclose(again.probs, first.probs[order], rtol=0, atol=1e-12)
    assert np.array_equal(again.ways, first.ways[order], equal_nan=True)


def test_way_read_is_the_surest_turn_reading_a_number():
    sure_four, nothing = np.zeros(14), np.zeros(14)
    sure_four[3], nothing[NO_NUMBER] = 0.9, 1.0
    sure_four[NO_NUMBER] = 0.1
    assert way_read([90.0, -90.0], np.stack([nothing, sure_four]), 0.8) == -90.0
    assert math.isnan(way_read([90.0, -90.0], np.stack([nothing, nothing]), 0.8))
    assert math.isnan(way_read([0.0], sure_four[None], 0.95))  # not sure enough


def _joined_eleven() -> np.ndarray:
    """An 11 whose two ones share one top serif: a "П", as some editions print it."""
    face = np.full((100, 74, 3), (236, 229, 206), np.uint8)
    for x in (20, 43):
        cv2.rectangle(face, (x, 18), (x + 11, 68), (200, 30, 40), -1)
    cv2.rectangle(face, (14, 16), (60, 25), (200, 30, 40), -1)
    return face


@needs_model
@pytest.mark.parametrize("angle", [0.0, -15.0])
def test_recogniser_reads_an_eleven_printed_as_one_glyph(angle):
    photo, box = _photo_with(_joined_eleven(), angle)
    p = NumberReader().read(photo, [box])[0]
    assert int(p.argmax()) == 10, p.round(3)


@needs_model
@pytest.mark.parametrize("number", ["4", "12"])
def test_recogniser_reads_a_standing_tile_seen_from_above(number):
    photo, box = _photo_with(_seen_from_above(_pil_face(number)), 0.0)
    p = NumberReader().read(photo, [box])[0]
    assert int(p.argmax()) == int(number) - 1, p.round(3)


def _small_jpeg_photo(number: str) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A tile 16 px wide (its digit some 9 px high) in a photo saved as a JPEG at quality 40: a far tile of a phone's photo."""
    small = cv2.resize(_pil_face(number), None, fx=0.22, fy=0.22, interpolation=cv2.INTER_AREA)
    photo, box = _photo_with(small, 0.0, size=60)
    jpeg = cv2.imencode(".jpg", photo[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 40])[1]
    return np.ascontiguousarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR)[..., ::-1]), box


@needs_model
@pytest.mark.parametrize("number", ["2", "7"])
def test_a_small_compressed_tile_is_read_surely(number):
    # blown up from a few pixels, the cut's blocky steps read as strokes unless it is smoothed (vision.ocr.CUT_SMOOTH):
    # unsmoothed, the recogniser gives these two numbers under 0.7
    photo, box = _small_jpeg_photo(number)
    p = NumberReader().read(photo, [box])[0]
    assert int(p.argmax()) == int(number) - 1 and p[int(number) - 1] > 0.9, p.round(3)


@needs_model
def test_the_alphabet_comes_from_the_package_where_the_model_carries_none(tmp_path):
    from vision.errors import ModelMissing

    shipped = ocr.rec_model_path()
    chars = ocr.rec_characters(shipped, {})
    assert all(d in chars for d in "0123456789") and len(chars) > 1000
    assert ocr.rec_characters(shipped, {"character": "0\n1\n2"}) == ["0", "1", "2"]  # a model that carries its own
    elsewhere = tmp_path / "rec.onnx"
    elsewhere.write_bytes(shipped.read_bytes())
    with pytest.raises(ModelMissing, match="carries no character list"):
        NumberReader(model_path=elsewhere).read(*_photo_with(_pil_face("3"), 0.0)[:1], [(80, 70, 154, 170)])


def _drawn_face(number: str, size: int, centre_y: int, ring: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """A 74 x 100 face with ``number`` in DejaVu Sans Bold ``size`` px, centred at ``centre_y``, in a ring
    (its bounding box) if given."""
    from PIL import Image, ImageDraw, ImageFont

    face = Image.new("RGB", (74, 100), (236, 229, 206))
    try:
        font = ImageFont.truetype("DejaVuSans-Bold.ttf", size)
    except OSError:
        pytest.skip("DejaVu Sans Bold is not installed")
    draw = ImageDraw.Draw(face)
    left, top, right, bottom = draw.textbbox((0, 0), number, font=font)
    draw.text(((74 - (right - left)) / 2 - left, centre_y - (bottom - top) / 2 - top), number, fill=(20, 20, 20), font=font)
    if ring is not None:
        draw.ellipse(ring, outline=(20, 20, 20), width=2)
    return np.asarray(face)


def _filling_face(number: str) -> np.ndarray:
    """A face whose digit fills it from top to foot (no circle, no mark), as some editions print them."""
    return _drawn_face(number, 78, 50)


@needs_model
@pytest.mark.parametrize("number", ["7", "4", "5"])
def test_a_digit_filling_the_face_is_read_though_its_strokes_slant(number):
    # a 7's slanted stroke is the strongest line on such a face: the tilt is measured with the face's edges around it
    # (such a face is read both ways up, and an upside-down 7 reads a little as a 1: hence not 0.9)
    photo, box = _photo_with(_filling_face(number), 0.0)
    p = NumberReader().read(photo, [box])[0]
    assert int(p.argmax()) == int(number) - 1 and p[int(number) - 1] > 0.7, p.round(3)


@needs_model
def test_a_digit_filling_the_face_is_read_both_ways_up():
    # a 2 is heavy at its foot, so its ink says the face is upside down, and upside down it reads as a sure 7 in
    # every window; ink that fills the face says nothing of which end is up, so both turns are read
    photo, box = _photo_with(_filling_face("2"), 0.0)
    reader = NumberReader()
    plan = reader.plan(photo, box)
    upside_down = reader.read_crops(photo, [(plan.geometry, plan.turns[0], plan.ink)])[0][0]
    assert int(upside_down.argmax()) == 6 and upside_down[6] > 0.8, upside_down.round(3)
    assert plan.unsure
    p = reader.read(photo, [box])[0]
    assert p[1] >= p[6] and p[6] < 0.5, p.round(3)


def test_on_a_rack_the_photos_way_up_is_read_first():
    # a tile's ink says it lies upside down; on a table that decides the first turn, on a rack (tiles standing the
    # photo's way up, a few put in upside down) the photo's up comes first and the other turn is read too
    photo, box = _photo_with(_face("5"), 180.0)
    reader = NumberReader()
    table, rack = reader.plan(photo, box), reader.plan(photo, box, upright=True)
    assert abs(abs(table.turns[0]) - 180) < 6 and table.lean > 0
    assert abs(rack.turns[0]) < 6 and rack.lean == pytest.approx(-table.lean) and rack.unsure
    standing = _photo_with(_face("5"), 0.0)
    assert reader.plan(*standing, upright=True) == reader.plan(*standing)  # the ink agrees with the photo's up
    # the ink's lean still weighs for the turn it points to
    assert reader.lean_prior(rack, rack.turns)[1] > 0.5 > reader.lean_prior(rack, rack.turns)[0]


@needs_model
def test_on_a_rack_a_digit_filling_the_face_reads_the_photos_way_up():
    # on a table its ink says nothing and upside down it reads as a sure 7 (above); a rack's tiles stand upright
    photo, box = _photo_with(_filling_face("2"), 0.0)
    p = NumberReader().read(photo, [box], upright=True)[0]
    assert int(p.argmax()) == 1 and p[1] > 0.7, p.round(3)


@needs_model
@pytest.mark.parametrize("number", ["4", "12"])
def test_a_tile_put_on_a_rack_upside_down_reads_as_itself(number):
    photo, box = _photo_with(_pil_face(number), 180.0)
    p = NumberReader().read(photo, [box], upright=True)[0]
    assert int(p.argmax()) == int(number) - 1 and p[int(number) - 1] > 0.5, p.round(3)


def _rack_row(numbers: str, angle: float) -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
    """Tiles whose digits fill their faces standing side by side on a light rack, the row turned ``angle`` degrees
    clockwise; the photo and each tile's box."""
    photo, corners = rack_row([_filling_face(n) for n in numbers], angle)
    return photo, [(c[:, 0].min(), c[:, 1].min(), c[:, 0].max(), c[:, 1].max()) for c in corners]


def test_a_tile_tilted_apart_from_its_neighbours_takes_theirs():
    boxes = np.array([(k * 76.0, 0.0, k * 76.0 + 74, 100.0) for k in range(5)])
    tilts = [5.0, 5.3, 18.1, 3.4, 4.7]
    out = ocr.tilts_together(tilts, boxes, reach=3.5, off=6.0)
    assert out[2] == pytest.approx(np.median(tilts))  # all five lie within reach here
    assert list(out[[0, 1, 3, 4]]) == [5.0, 5.3, 3.4, 4.7]  # those that agree keep their own
    # two tilted digits among five do not carry the row: the median, not the mean
    out = ocr.tilts_together([5.0, 4.0, 18.1, 4.9, 17.9], boxes, reach=3.5, off=6.0)
    assert list(out) == [5.0, 4.0, 5.0, 4.9, 5.0]
    # within ``off`` of the median, or alone, a tile keeps its own
    assert list(ocr.tilts_together([5.0, 10.0, 5.0], boxes[:3], reach=3.5, off=6.0)) == [5.0, 10.0, 5.0]
    far = np.array([(0.0, 0.0, 74.0, 100.0), (1000.0, 0.0, 1074.0, 100.0)])
    assert list(ocr.tilts_together([5.0, 30.0], far, reach=3.5, off=6.0)) == [5.0, 30.0]


def test_tilts_together_wrap_at_a_quarter_turn():
    # 44 and -44 degrees are two degrees apart (a tile's edges repeat every quarter turn)
    boxes = np.array([(k * 76.0, 0.0, k * 76.0 + 74, 100.0) for k in range(4)])
    out = ocr.tilts_together([44.0, -44.0, 44.5, 10.0], boxes, reach=3.5, off=6.0)
    assert list(out[:3]) == [44.0, -44.0, 44.5]
    assert abs((out[3] - 44.0 + 45.0) % 90.0 - 45.0) < 2 and -45.0 <= out[3] < 45.0


@needs_model
def test_on_a_rack_a_digit_whose_strokes_tilt_its_own_measure_is_cut_along_its_neighbours():
    # a 7 filling its face between faint edges: its stroke outweighs them and its own tilt is about 14 degrees off;
    # cut that askew it reads as a sure 1. Its neighbours' tilt is the row's.
    photo, boxes = _rack_row("58737", 4.0)
    assert abs(ocr.box_tilt(photo, boxes[2])[0] - 4.0) > 10 and abs(ocr.box_tilt(photo, boxes[4])[0] - 4.0) > 10
    alone = NumberReader(settings=OcrSettings(rack_tilt_reach=0.0)).read(photo, boxes, upright=True)
    assert int(alone[2].argmax()) == int(alone[4].argmax()) == 0, alone.round(3)
    p = NumberReader().read(photo, boxes, upright=True)
    assert [int(row.argmax()) + 1 for row in p] == [5, 8, 7, 3, 7], p.round(3)
    assert p[2, 6] > 0.9 and p[4, 6] > 0.9, p.round(3)


@needs_model
def test_on_a_rack_a_tile_seen_from_above_is_read_upright_first_though_it_reads_a_number_sideways():
    # a big 11 on a standing tile seen from above: its box is as wide as a tile lying on its side's, and turned
    # sideways it reads as a number surely; a rack's tiles stand the photo's way up, so there the upright turn, cut as
    # the box shows the face, is read first
    photo, box = _photo_with(_seen_from_above(_drawn_face("11", 56, 42), 0.6), 0.0)
    reader = NumberReader()
    plan = reader.plan(photo, box, upright=True)
    assert abs(plan.turns[0]) < 6 and all(abs(a) > 45 for a in plan.later)
    assert all(abs(a) > 45 for a in reader.plan(photo, box).turns)  # on a table: a tile on its side first
    side = plan.later[0]
    sideways = reader.read_crops(photo, [(plan.geometry_at(side), side, reader.ink_at(photo, plan, side))])[0][0]
    assert int(sideways.argmax()) != 10 and sideways[:NO_NUMBER].max() >= reader.settings.confident, sideways.round(3)
    p = reader.read(photo, [box], upright=True)[0]
    assert int(p.argmax()) == 10 and p[10] > 0.5, p.round(3)


def test_a_standing_tile_seen_from_above_is_cut_as_the_box_shows_it_under_its_upright_turns():
    photo, box = _photo_with(_seen_from_above(_face("5")), 0.0)
    for upright in (False, True):  # on a table its upright turns come later, on a rack first
        plan = NumberReader().plan(photo, box, upright=upright)
        up, side = (plan.turns[0], plan.later[0]) if upright else (min(plan.later, key=abs), plan.turns[0])
        assert abs(up) < 6 and abs(side) > 45
        seen, own = plan.geometry_at(up), plan.geometry_at(side)
        assert own.height > own.width  # lying on its side: its long side across the photo
        # under the upright turns, the face shortened top to bottom: the box's own width across it and its height down
        assert (seen.width, seen.height) == pytest.approx((own.height, own.width))
        assert (seen.width, seen.height) == pytest.approx((box[2] - box[0], box[3] - box[1]), rel=0.05)


def test_under_a_later_turn_the_ink_window_is_fitted_on_the_face_the_view_shows():
    photo, box = _photo_with(_seen_from_above(_drawn_face("13", 26, 42, ring=(15, 18, 59, 66)), 0.6), 0.0)
    reader = NumberReader()
    plan = reader.plan(photo, box)  # a table: a tile on its side first, upright later
    upright = min(plan.later, key=abs)
    # the first turn's window cannot be turned a quarter (the face's sides would lie across the crop) ...
    assert ocr.turned_window(plan.ink, upright - plan.turns[0]) is None
    # ... so one is fitted round the number on the face as its box shows it: the ring the 13 is printed in spans
    # 0.18-0.66 of the face's height, and the window holds it with a margin, short of the whole face
    left, top, right, bottom = reader.ink_at(photo, plan, upright)
    assert 0.0 < top <= 0.18 and 0.66 <= bottom < 1.0
    assert reader.ink_at(photo, plan, plan.turns[0]) == plan.ink
    assert NumberReader(settings=OcrSettings(fit_ink=False)).ink_at(photo, plan, upright) is None


@needs_model
def test_a_small_number_on_a_standing_tile_seen_from_above_is_read_in_the_face_the_view_shows():
    # a small 13 in a ring: cut upright as a tile's full height, the window reaches past the shortened face above
    # and below it and the number shrinks to a fraction of the recogniser's height (it read as a 3)
    photo, box = _photo_with(_seen_from_above(_drawn_face("13", 26, 42, ring=(15, 18, 59, 66)), 0.6), 0.0)
    p = NumberReader().read(photo, [box], upright=True)[0]
    assert int(p.argmax()) == 12 and p[12] > 0.7, p.round(3)


def test_ink_extent():
    face = np.full((32, 24, 3), (236, 229, 206), np.uint8)
    assert ocr.ink_extent(ocr.ink_rows(face)) == 0.0
    face[4:28, 8:12] = (20, 20, 20)
    assert ocr.ink_extent(ocr.ink_rows(face)) == pytest.approx(24 / 32)
    face[4:28] = (236, 229, 206)
    face[10:14, 6:18] = (20, 20, 20)
    assert ocr.ink_extent(ocr.ink_rows(face)) == pytest.approx(4 / 32)


@needs_model
def test_a_small_digit_in_a_circle_is_read_in_the_tight_window():
    # a digit a quarter of the face high in a ring (older editions): the tight window, cut close around it,
    # makes it fill more of the recogniser's height; the usual window alone reads the ring with it and no number
    photo, box = _photo_with(_drawn_face("8", 26, 42, ring=(15, 18, 59, 66)), 0.0)
    usual = NumberReader(settings=OcrSettings(windows=OcrSettings().windows[:1], fit_ink=False)).read(photo, [box])[0]
    assert int(usual.argmax()) != 7, usual.round(3)
    p = NumberReader(settings=OcrSettings(fit_ink=False)).read(photo, [box])[0]
    assert int(p.argmax()) == 7 and p[7] > 0.5, p.round(3)


@needs_model
def test_recogniser_sees_no_number_on_a_blank_tile():
    photo, box = _photo_with(np.full((100, 74, 3), (236, 229, 206), np.uint8), 0.0)
    p = NumberReader().read(photo, [box])[0]
    assert int(p.argmax()) == NO_NUMBER


def test_settings_are_frozen():
    with pytest.raises(Exception):
        OcrSettings().windows = ()  # type: ignore[misc]
    assert math.isclose(OcrSettings().aspect, 0.74)


def _marked_face(number: str, size: int, centre_y: int) -> np.ndarray:
    """``_drawn_face`` with a maker's mark in pale grey at its foot, apart from the number."""
    from PIL import Image, ImageDraw, ImageFont

    face = Image.fromarray(_drawn_face(number, size, centre_y))
    try:
        font = ImageFont.truetype("DejaVuSans-Bold.ttf", 9)
    except OSError:
        pytest.skip("DejaVu Sans Bold is not installed")
    ImageDraw.Draw(face).text((14, 84), "OKEY", fill=(150, 150, 150), font=font)
    return np.asarray(face)


@pytest.mark.parametrize("angle", [0.0, 30.0, 180.0])
def test_the_ink_window_fits_the_number_and_leaves_the_mark_out(angle):
    # "12" 22 px high about y = 34 of a 100 px face: its ink spans about 0.26-0.42 of the face; the mark lies at 0.84
    photo, box = _photo_with(_marked_face("12", 22, 34), angle)
    plan = NumberReader().plan(photo, box)  # no model needed
    left, top, right, bottom = plan.ink
    assert 0.15 < top < 0.26 and 0.42 < bottom < 0.6, plan.ink  # the number and a margin, not the mark
    assert 0.1 < left < 0.3 and 0.7 < right < 0.9, plan.ink
    assert ocr.ink_window(photo, plan.geometry, plan.turns[0]) == plan.ink
    # measured on the face turned the other way up, the window lies where the number lies that way
    other = ocr.ink_window(photo, plan.geometry, plan.turns[1])
    assert other == pytest.approx(ocr.turned_window(plan.ink, 180.0), abs=0.06)


def test_no_ink_window_on_a_blank_face():
    photo, box = _photo_with(np.full((100, 74, 3), (236, 229, 206), np.uint8), 0.0)
    assert NumberReader().plan(photo, box).ink is None
    assert NumberReader(settings=OcrSettings(fit_ink=False)).plan(*_photo_with(_face("5"), 0.0)).ink is None


def test_a_window_turned_with_the_face():
    window = (0.1, 0.2, 0.7, 0.5)
    assert ocr.turned_window(window, 0.0) == window
    assert ocr.turned_window(window, 360.0) == window
    assert ocr.turned_window(window, -180.0) == pytest.approx((0.3, 0.5, 0.9, 0.8))
    assert ocr.turned_window(window, 90.0) is None  # the face's sides then lie across the crop
    assert ocr.turned_window(None, 0.0) is None


@needs_model
def test_a_small_number_is_read_surely_in_its_ink_window():
    # a small two-digit number high on the face: the usual window holds it at a third of the recogniser's height
    photo, box = _photo_with(_marked_face("12", 22, 34), 0.0)
    usual = OcrSettings(windows=OcrSettings().windows[:1], fit_ink=False)
    alone = NumberReader(settings=usual).read(photo, [box])[0]
    fitted = NumberReader(settings=dataclasses.replace(usual, fit_ink=True)).read(photo, [box])[0]
    assert alone[11] < 0.6 and int(fitted.argmax()) == 11 and fitted[11] > 0.85, (alone.round(3), fitted.round(3))


@needs_model
def test_the_other_turns_are_read_in_the_photos_best_windows(monkeypatch):
    # a 2 filling the face is read both ways up: the second turn in the two fixed windows that read best on the
    # first turn and in the ink window, not in all four
    photo, box = _photo_with(_filling_face("2"), 0.0)
    reader = NumberReader()
    calls: list[int] = []
    recognise = NumberReader.recognise

    def counted(self, images, keep=None):
        calls.append(len(images))
        return recognise(self, images, keep)

    monkeypatch.setattr(NumberReader, "recognise", counted)
    assert reader.plan(photo, box).unsure and reader.plan(photo, box).ink is not None
    reader.read(photo, [box])
    assert calls == [len(OcrSettings().windows) + 1, OcrSettings().later_windows + 1]


@needs_model
def test_a_span_is_read_as_one_line_the_photos_way_up():
    """``read_spans``: what a box holds, read whole as one line of text (two boxes side by side taken together)."""
    photo, box = _photo_with(_pil_face("13"), 0.0)
    x1, y1, x2, y2 = box
    blank = (x1 - 60.0, y1, x1 - 10.0, y2)  # the dark table beside the tile: no number
    p = NumberReader().read_spans(photo, np.array([box, blank]))
    assert p.shape == (2, 14) and np.allclose(p.sum(1), 1.0)
    assert int(p[0].argmax()) == 12 and p[0, 12] > 0.5, p[0].round(3)  # the 13
    assert int(p[1].argmax()) == NO_NUMBER
    assert NumberReader().read_spans(photo, np.zeros((0, 4))).shape == (0, 14)
