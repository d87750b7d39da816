"""The ink's own colour (vision.ink): a third opinion on the colour alone, as evidence and as doubt.

The tiles are drawn here: a body in some plastic, a thick digit in some ink, under some light.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_fakes import FakeModel, raw_tile

from engine.rules import HouseRules
from vision.calibration import Calibration
from vision.fusion import FusionParams, colour_of
from vision.ink import (CLEAR_INK, InkRates, clear_inks, held_to_blue, held_to_colour_change, ink_colour, ink_colours, ink_disagrees, ink_lab,
                        ink_likelihood, ink_opinion, ink_shares, shows_every_colour)
from vision.reader import Reader
from vision.types import DOUBT_TEXT, INK_COLOUR, INK_RECOLOURED, TWIST_UNCONFIRMED, Image

IVORY, WHITE, GREY = (236, 229, 206), (250, 250, 247), (206, 208, 206)
INKS = {
    "black": (22, 22, 28), "dark-grey": (64, 64, 68),
    "red": (205, 32, 45), "crimson": (160, 18, 50), "raspberry": (192, 24, 88),
    "orange": (240, 138, 38), "amber": (242, 172, 22), "yellow": (230, 200, 30),
    "blue": (22, 88, 185), "navy": (26, 54, 150), "teal": (0, 128, 126),
    "turquoise": (62, 140, 110),  # on ivory, a hue of about 175: green of blue, where only a blue edition's ink lies
}
BOX = (20.0, 20.0, 72.0, 90.0)


def _photo(ink: tuple[int, int, int], body: tuple[int, int, int] = IVORY, light: tuple[float, float, float] = (1.0, 1.0, 1.0),
           digit: str = "8", size: tuple[int, int] = (120, 100)) -> np.ndarray:
    """A green table with one tile in BOX, its number in ``ink``, the whole photo seen under ``light``."""
    rgb = np.zeros((size[0], size[1], 3), np.uint8)
    rgb[:] = (40, 110, 60)
    x1, y1, x2, y2 = (int(v) for v in BOX)
    rgb[y1:y2, x1:x2] = body
    cv2.putText(rgb, digit, (x1 + 10, y1 + 45), cv2.FONT_HERSHEY_SIMPLEX, 1.5, ink, 5, cv2.LINE_AA)
    return np.clip(rgb.astype(np.float32) * np.asarray(light, np.float32), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("name, expected", [
    ("black", None), ("dark-grey", None),
    ("red", "R"), ("crimson", "R"), ("raspberry", "R"),
    ("orange", "O"), ("amber", "O"), ("yellow", "O"),
    ("blue", "B"), ("navy", "B"), ("teal", "B"), ("turquoise", "B"),
])
def test_the_ink_names_a_clear_hue_and_nothing_for_black(name: str, expected: str | None) -> None:
    assert ink_colour(_photo(INKS[name]), BOX) == expected


@pytest.mark.parametrize("body", [IVORY, WHITE, GREY])
@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (1.0, 0.85, 0.6), (0.75, 0.85, 1.0), (0.55, 0.55, 0.55)])
def test_the_body_cancels_the_light_and_the_plastic(body, light) -> None:
    """Warm lamp light, a cool shade, a dim room: the plastic is the white the ink is measured against."""
    for name, expected in (("black", None), ("red", "R"), ("orange", "O"), ("blue", "B")):
        assert ink_colour(_photo(INKS[name], body, light), BOX) == expected, (name, body, light)


def test_a_big_photo_gives_the_same_opinion() -> None:
    small = _photo(INKS["blue"])
    big = cv2.resize(small, None, fx=8, fy=8, interpolation=cv2.INTER_CUBIC)
    assert ink_colour(big, tuple(8 * v for v in BOX)) == "B"


def test_the_faces_clear_ink_tells_a_blue_leaning_further_toward_green() -> None:
    """A turquoise of hue about 164 (a teal blurred by a JPEG's coarse colour): the doubt's measurement names it blue,
    the evidence's sector stops at 170."""
    photo = _photo((70, 140, 100))
    assert ink_colour(photo, BOX, CLEAR_INK) == "B" and ink_colour(photo, BOX) is None


def _turned_tile(ink: tuple[int, int, int], table: tuple[int, int, int]) -> tuple[np.ndarray, tuple[float, ...]]:
    """A tile lying turned 35 degrees on a table, a small number in ``ink`` at its centre, and its upright box."""
    rgb = np.zeros((160, 160, 3), np.uint8)
    rgb[:] = table
    corners = cv2.boxPoints(((80.0, 80.0), (52.0, 70.0), 35.0))
    cv2.fillPoly(rgb, [np.round(corners).astype(np.int32)], IVORY)
    cv2.putText(rgb, "8", (71, 89), cv2.FONT_HERSHEY_SIMPLEX, 0.6, ink, 2, cv2.LINE_AA)
    (x1, y1), (x2, y2) = corners.min(0), corners.max(0)
    return rgb, (float(x1), float(y1), float(x2), float(y2))


@pytest.mark.parametrize("table", [(70, 55, 80), (40, 110, 60), (30, 30, 30)])
def test_on_its_face_a_turned_tiles_ink_is_its_number_not_the_table_in_its_boxs_corners(table) -> None:
    """A turned tile's upright box holds the table in its corners, darker than a small number's ink: the share of
    the box farthest from white is the table, and says nothing of a teal; the face's clear ink says blue."""
    for name, expected in (("teal", "B"), ("blue", "B"), ("red", "R"), ("black", None)):
        rgb, box = _turned_tile(INKS[name], table)
        assert [ink_opinion(lab, CLEAR_INK) for lab in clear_inks(rgb, [box])[0]] == [expected], (name, table)
    rgb, box = _turned_tile(INKS["teal"], (40, 110, 60))
    assert ink_colour(rgb, box) is None


@pytest.mark.parametrize("name, expected", [
    ("black", None), ("dark-grey", None), ("red", "R"), ("crimson", "R"), ("orange", "O"), ("yellow", "O"),
    ("blue", "B"), ("navy", "B"), ("teal", "B"),
])
@pytest.mark.parametrize("body", [IVORY, WHITE, GREY])
def test_the_faces_clear_ink_names_the_same_colours(name: str, expected: str | None, body) -> None:
    assert ink_colour(_photo(INKS[name], body), BOX, CLEAR_INK) == expected


def test_no_opinion_where_there_is_nothing_to_see() -> None:
    photo = _photo(INKS["blue"])
    assert ink_colour(photo, (10, 10, 13, 13)) is None  # a box too small
    assert ink_colour(photo, (500, 500, 560, 580)) is None  # outside the photo
    assert ink_colour(np.zeros((120, 100, 3), np.uint8), BOX) is None  # a black frame
    assert ink_colours(photo, np.zeros((0, 4))) == []


def test_only_a_clear_contradiction_is_a_disagreement() -> None:
    codes = ["K5", "K5", "B5", "B5", "R5", "R5", "O5", "O5", "J", "JC", "K5"]
    inks = ["B", "R", "R", "O", "O", "B", "R", "B", "B", "R", None]
    assert ink_disagrees(codes, inks).tolist() == [True, False, True, True, True, True, True, True, False, False, False]
    # the ink never contradicts its own colour
    assert not ink_disagrees(["R1", "O1", "B1"], ["R", "O", "B"]).any()
    with pytest.raises(ValueError, match="2 codes but 1 ink"):
        ink_disagrees(["K1", "K2"], ["B"])


def _three_tiles(inks: tuple[str, str, str] = ("blue", "black", "red")) -> tuple[np.ndarray, list]:
    """Three tiles side by side on a green table, by default a blue, a black and a red one."""
    rgb = np.full((120, 240, 3), (40, 110, 60), np.uint8)
    boxes = [(20.0, 20.0, 72.0, 90.0), (90.0, 20.0, 142.0, 90.0), (160.0, 20.0, 212.0, 90.0)]
    for box, ink in zip(boxes, inks):
        tile = _photo(INKS[ink])
        x1, y1, x2, y2 = (int(v) for v in box)
        rgb[y1:y2, x1:x2] = tile[20:90, 20:72]
    return rgb, boxes


def test_a_sure_black_whose_ink_is_blue_is_read_blue_and_shown_as_doubtful_with_the_reason() -> None:
    """The blind photos' mistake: blue read as black with high confidence. The ink tells the colour, the readers
    the number: a blue 7, shown as doubtful."""
    rgb, boxes = _three_tiles()
    model = FakeModel([raw_tile(boxes[0], {"K7": 0.99}), raw_tile(boxes[1], {"K5": 0.99}), raw_tile(boxes[2], {"R9": 0.99})])
    reading = Reader(model=model, ocr=False).read(Image(rgb=rgb, path="ink.jpg"), rack=True)
    first, second, third = reading.tiles
    assert first.code == "B7" and first.doubtful and first.doubt == INK_RECOLOURED and INK_RECOLOURED in DOUBT_TEXT
    assert first.to_json()["doubt"] == INK_RECOLOURED
    assert second.code == "K5" and not second.doubtful and second.doubt is None
    assert third.code == "R9" and not third.doubtful


def test_only_blue_read_as_black_is_corrected_other_contradictions_are_doubted() -> None:
    """A red read on an orange ink: the warm colours lie next to each other, so the ink only doubts it."""
    rgb, boxes = _three_tiles(("orange", "black", "blue"))
    model = FakeModel([raw_tile(boxes[0], {"R9": 0.99}), raw_tile(boxes[1], {"K5": 0.99}), raw_tile(boxes[2], {"B2": 0.99})])
    first, second, third = Reader(model=model, ocr=False).read(Image(rgb=rgb), rack=True).tiles
    assert first.code == "R9" and first.doubtful and first.doubt == INK_COLOUR and INK_COLOUR in DOUBT_TEXT
    assert (second.code, third.code) == ("K5", "B2") and not second.doubtful and not third.doubtful


def test_a_blue_read_as_black_in_a_group_is_read_again_with_its_meld() -> None:
    """R6 K6 O6 laid as a group, the black 6's ink blue: read again as blue, the group is valid, the 6 doubtful."""
    rgb = np.full((120, 260, 3), (40, 110, 60), np.uint8)
    boxes = [(20.0 + 54 * k, 20.0, 72.0 + 54 * k, 90.0) for k in range(3)]
    for box, ink in zip(boxes, ("red", "blue", "orange")):
        x1, y1, x2, y2 = (int(v) for v in box)
        rgb[y1:y2, x1:x2] = _photo(INKS[ink], digit="6")[20:90, 20:72]
    model = FakeModel([raw_tile(boxes[0], {"R6": 0.99}), raw_tile(boxes[1], {"K6": 0.99}), raw_tile(boxes[2], {"O6": 0.99})])
    reading = Reader(model=model, ocr=False).read(Image(rgb=rgb, path="group.jpg"))
    assert [t.code for t in reading.tiles] == ["R6", "B6", "O6"]
    assert len(reading.melds) == 1 and reading.melds[0].valid
    assert reading.tiles[1].doubtful and reading.tiles[1].doubt == INK_RECOLOURED
    assert not reading.tiles[0].doubtful and not reading.tiles[2].doubtful


def _lab(chroma: float, hue: float, lightness: float = 50.0) -> tuple[float, float, float]:
    return lightness, chroma * float(np.cos(np.radians(hue))), chroma * float(np.sin(np.radians(hue)))


def test_held_to_blue_gives_each_numbers_probability_to_its_blue_tile() -> None:
    names = ["K6", "B6", "R6", "K7", "B7", "J", "JD"]
    probs = np.array([[0.6, 0.05, 0.05, 0.2, 0.0, 0.1, 0.0]] * 5)
    codes = ["K6", "K6", "K6", "B6", "J"]
    labs = [_lab(30.0, 200.0), _lab(19.0, 291.0), None, _lab(30.0, 200.0), _lab(30.0, 200.0)]
    out, held = held_to_blue(probs, codes, labs, names)
    assert held.tolist() == [True, False, False, False, False]  # a black's blue cast, no ink, read blue, a joker
    assert out[0] == pytest.approx([0.0, 0.7, 0.0, 0.0, 0.2, 0.1, 0.0])
    assert (out[1:] == probs[1:]).all()
    # a teal leaning green is blue; a red or an orange ink never holds a black
    assert held_to_blue(probs[:3], ["K6"] * 3, [_lab(30.0, 165.0), _lab(40.0, 20.0), _lab(40.0, 80.0)], names)[1].tolist() == [
        True, False, False]
    with pytest.raises(ValueError, match="2 inks for 5 codes"):
        held_to_blue(probs, codes, labs[:2], names)


def test_a_sure_black_on_a_turned_tile_whose_face_shows_teal_is_read_blue_and_doubtful() -> None:
    """The share of the box farthest from white is the table in its corners (no opinion); the face's ink is teal."""
    rgb, box = _turned_tile(INKS["teal"], (40, 110, 60))
    reading = Reader(model=FakeModel([raw_tile(box, {"K8": 0.999})]), ocr=False, sideways=False).read(
        Image(rgb=rgb, path="turned.jpg"), rack=True)
    assert reading.tiles[0].code == "B8" and reading.tiles[0].doubtful and reading.tiles[0].doubt == INK_RECOLOURED
    rgb, box = _turned_tile(INKS["black"], (40, 110, 60))
    reading = Reader(model=FakeModel([raw_tile(box, {"K8": 0.999})]), ocr=False, sideways=False).read(
        Image(rgb=rgb, path="turned.jpg"), rack=True)
    assert reading.tiles[0].doubt != INK_COLOUR


def _rates() -> InkRates:
    """Made-up counts: each colour's ink is named half the time, another colour's rarely; jokers often look red."""
    truth, opinions = [], []
    for colour, named in (("K", None), ("R", "R"), ("B", "B"), ("O", "O")):
        for k in range(100):
            truth.append(f"{colour}5")
            opinions.append(named if k < 50 else None)
    truth += ["J"] * 20
    opinions += ["R"] * 8 + [None] * 12
    return InkRates.count(truth, opinions)


def test_the_rates_are_counted_per_true_colour_with_a_prior() -> None:
    rates = _rates()
    assert rates.rates["B"]["B"] == pytest.approx(51 / 104) and rates.rates["B"]["none"] == pytest.approx(51 / 104)
    assert rates.rates["K"]["B"] == pytest.approx(1 / 104)  # never seen, so rare, not impossible
    assert rates.rates["J"]["R"] == pytest.approx(9 / 24)
    assert colour_of("JD") == colour_of("J") == "J" and colour_of("O12") == "O"
    assert InkRates.from_json(rates.to_json()) == rates
    with pytest.raises(ValueError, match="2 true codes but 1 ink"):
        InkRates.count(["K1", "K2"], ["B"])


def test_bad_rates_are_named() -> None:
    good = _rates().to_json()
    with pytest.raises(ValueError, match="no row for the colour J"):
        InkRates({c: row for c, row in good.items() if c != "J"})
    with pytest.raises(ValueError, match="row for B sums to"):
        InkRates({**good, "B": {"R": 0.5, "O": 0.5, "B": 0.5, "none": 0.5}})
    with pytest.raises(ValueError, match="row for R needs"):
        InkRates({**good, "R": {"R": 1.0, "O": 0.0, "B": 0.0, "none": 0.0}})


def test_a_clear_hue_is_evidence_and_no_opinion_is_none() -> None:
    rates = _rates()
    like = ink_likelihood(["B", None], ["K7", "B7", "J"], rates)
    assert like.shape == (2, 3)
    assert like[0, 1] / like[0, 0] == pytest.approx(51.0)  # blue ink: 51 times likelier on a blue tile
    assert like[1].tolist() == [1.0, 1.0, 1.0]  # dark or black ink says nothing


def test_with_rates_the_ink_corrects_a_black_that_is_blue_and_says_so() -> None:
    """The classifier leans to black on a blue tile it never learnt; the ink's blue tips it, and the
    tile stays doubtful: the two opinions disagree, so a person should look."""
    rgb, boxes = _three_tiles()
    model = FakeModel([raw_tile(boxes[0], {"K7": 0.85, "B7": 0.15}), raw_tile(boxes[1], {"K5": 0.85, "B5": 0.15}),
                       raw_tile(boxes[2], {"R9": 0.99})])
    cal = Calibration(alone=FusionParams(evidence_weight=1.0), doubt_below_alone=0.5, ink=_rates())
    reading = Reader(model=model, ocr=False, calibration=cal).read(Image(rgb=rgb, path="ink.jpg"), rack=True)
    first, second, third = reading.tiles
    assert first.code == "B7" and first.doubtful and first.doubt == INK_RECOLOURED and INK_RECOLOURED in DOUBT_TEXT
    assert second.code == "K5" and not second.doubtful  # black ink: no opinion, the classifier decides
    assert third.code == "R9" and not third.doubtful
    # weight 0: the ink is no evidence, and the face's clear ink alone corrects the black (``held_to_blue``)
    cal0 = Calibration(alone=FusionParams(evidence_weight=0.0), doubt_below_alone=0.5, ink=_rates())
    first0, second0, _ = Reader(model=model, ocr=False, calibration=cal0).read(Image(rgb=rgb), rack=True).tiles
    assert first0.code == "B7" and first0.doubtful and first0.doubt == INK_RECOLOURED
    assert first0.confidence == pytest.approx(1.0)  # the 7's probability in both colours, given to the blue 7
    assert second0.code == "K5"


class _Inks:
    def __init__(self, opinions: list) -> None:
        self.opinions = opinions

    def read(self, rgb: np.ndarray, boxes: np.ndarray) -> list:
        return list(self.opinions)


def test_the_ink_reader_is_injected_and_checked() -> None:
    box = (20.0, 20.0, 72.0, 90.0)
    model = FakeModel([raw_tile(box, {"O3": 0.8, "R3": 0.2})])
    cal = Calibration(alone=FusionParams(evidence_weight=1.0), doubt_below_alone=0.5, ink=_rates())
    image = Image(np.zeros((120, 240, 3), np.uint8))
    tile = Reader(model=model, ocr=False, calibration=cal, ink_reader=_Inks(["R"])).read(image, rack=True).tiles[0]
    assert tile.code == "R3" and tile.doubt == INK_RECOLOURED
    with pytest.raises(ValueError, match="2 opinions for 1 tiles"):
        Reader(model=model, ocr=False, calibration=cal, ink_reader=_Inks(["R", "B"])).read(image, rack=True)


def _arcs_tile(colours: tuple[str, ...] = ("red", "orange", "blue", "black"), body: tuple[int, int, int] = IVORY) -> np.ndarray:
    """A tile in BOX marked with a ring of coloured arcs, one arc per colour: a colour-change joker drawn in a way
    the models never saw."""
    rgb = np.zeros((120, 100, 3), np.uint8)
    rgb[:] = (40, 110, 60)
    x1, y1, x2, y2 = (int(v) for v in BOX)
    rgb[y1:y2, x1:x2] = body
    step = 360 // len(colours)
    for k, name in enumerate(colours):
        cv2.ellipse(rgb, ((x1 + x2) // 2, (y1 + y2) // 2), (17, 17), 0, k * step + 8, (k + 1) * step - 8, INKS[name], 7, cv2.LINE_AA)
    return rgb


def test_the_colour_change_jokers_ink_shows_every_colour_a_numbered_tile_one() -> None:
    assert shows_every_colour(ink_shares(_arcs_tile(), BOX))
    assert shows_every_colour(ink_shares(_arcs_tile(body=GREY), BOX))
    for name in ("red", "orange", "blue", "teal", "yellow", "black"):
        assert not shows_every_colour(ink_shares(_photo(INKS[name]), BOX)), name
    # a joker's face in red and black, or in two colours, is no colour-change joker
    assert not shows_every_colour(ink_shares(_arcs_tile(("red", "black")), BOX))
    assert not shows_every_colour(ink_shares(_arcs_tile(("red", "blue")), BOX))
    assert ink_shares(np.zeros((10, 10, 3), np.uint8), (2.0, 2.0, 4.0, 4.0)) is None
    assert not shows_every_colour(None)


def test_held_to_colour_change_gives_a_tile_to_the_colour_change_joker_keeping_the_readers_reading() -> None:
    names = ("R5", "J", "JC", "B5")
    probs = np.array([[0.1, 0.8, 0.05, 0.05], [0.7, 0.1, 0.1, 0.1], [0.2, 0.1, 0.6, 0.1], [0.1, 0.8, 0.05, 0.05]])
    every = [shows_every_colour(s) for s in ({"R": 0.3, "O": 0.2, "B": 0.25}, {"R": 0.9, "O": 0.05, "B": 0.0}, {"R": 0.3, "O": 0.2, "B": 0.25}, None)]
    out, held = held_to_colour_change(probs, ["J", "R5", "JC", "J"], every, names)
    assert held.tolist() == [True, False, False, False]
    # the ink's reading first, the readers' own kept beside it at a fiftieth of its weight
    assert np.allclose(out[0], [0.002, 0.016, 0.981, 0.001]) and np.isclose(out[0].sum(), 1.0)
    assert np.array_equal(out[1:], probs[1:])  # one colour, read as it already is, or no ink to tell: kept
    with pytest.raises(ValueError, match="3 inks for 4 codes"):
        held_to_colour_change(probs, ["J", "R5", "JC", "J"], every[:3], names)


@pytest.mark.parametrize("read", [{"J": 0.96, "JC": 0.02}, {"O4": 0.97}])
def test_with_the_twist_rule_a_tile_showing_every_colour_is_the_colour_change_joker(read: dict[str, float]) -> None:
    """Read as a plain joker, or as a number, by a classifier that never saw its mark: its ink says it is the
    colour-change joker. It stays doubtful, as every Twist joker read is. Without the Twist rule its reading is left
    alone, and read as a number it is doubted."""
    rgb, boxes = _three_tiles(("black", "red", "blue"))
    rgb[20:90, 20:72] = _arcs_tile()[20:90, 20:72]
    model = FakeModel([raw_tile(boxes[0], read), raw_tile(boxes[1], {"R8": 0.99}), raw_tile(boxes[2], {"B2": 0.99})])
    twist = Reader(model=model, ocr=False).read(Image(rgb=rgb, path="twist.jpg"), rack=True, rules=HouseRules(twist=True))
    assert [t.code for t in twist.tiles] == ["JC", "R8", "B2"]
    assert twist.tiles[0].doubtful and twist.tiles[0].doubt == TWIST_UNCONFIRMED
    assert twist.tiles[0].alternatives[0][0] == max(read, key=read.get)  # what the readers read, offered to check
    assert not twist.tiles[1].doubtful and not twist.tiles[2].doubtful
    plain = Reader(model=model, ocr=False).read(Image(rgb=rgb, path="plain.jpg"), rack=True)
    assert [t.code for t in plain.tiles] == [max(read, key=read.get), "R8", "B2"]
    # no numbered tile shows every colour: read as one without the Twist rule, it is doubted; a joker stays a joker
    if max(read, key=read.get) == "J":
        assert plain.tiles[0].doubt != INK_COLOUR
    else:
        assert plain.tiles[0].doubtful and plain.tiles[0].doubt == INK_COLOUR
    assert not plain.tiles[1].doubtful and not plain.tiles[2].doubtful


def test_the_clear_ink_in_one_pass_gives_the_colour_and_every_colour_as_measured_alone() -> None:
    rgb, boxes = _three_tiles(("blue", "black", "red"))
    rgb[20:90, 90:142] = _arcs_tile()[20:90, 20:72]
    labs, every = clear_inks(rgb, boxes)
    assert labs == [ink_lab(rgb, box, CLEAR_INK) for box in boxes]
    assert every.tolist() == [shows_every_colour(ink_shares(rgb, box)) for box in boxes] == [False, True, False]
    labs, every = clear_inks(rgb, np.zeros((0, 4)))
    assert labs == [] and every.shape == (0,)
