"""vision.mono and the reader: a photo with no colour to read in it (a black-and-white or sepia filter) shows every
numbered tile as doubtful, with its reason, and says so once; a colour photo, and a blank frame, are read as before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_fakes import FakeModel, raw_tile

from bench.bench_phones import CHANGES
from vision.mono import MonoSettings, chroma, colourless, off_one_way, off_tint, tile_pixels
from vision.reader import NO_COLOUR_WARNING, Reader
from vision.types import DOUBT_TEXT, NO_COLOUR, Image

BOXES = [(20, 40, 60, 100), (64, 40, 104, 100), (108, 40, 148, 100), (200, 40, 240, 100)]
CODES = ["R5", "B5", "O5", "J"]
INKS = {"R": (210, 30, 40), "B": (30, 80, 200), "O": (240, 140, 20), "K": (20, 20, 20), "J": (20, 20, 20)}


def _table() -> np.ndarray:
    """A wooden table with four ivory tiles on it, each with a blob of its ink (RGB)."""
    rgb = np.zeros((160, 300, 3), np.uint8)
    rgb[:] = (150, 100, 60)
    for (x1, y1, x2, y2), code in zip(BOXES, CODES):
        rgb[y1:y2, x1:x2] = (235, 228, 210)
        cv2.circle(rgb, ((x1 + x2) // 2, (y1 + y2) // 2), 10, INKS[code[0]], -1)
    return rgb


def _grey(rgb: np.ndarray) -> np.ndarray:
    return CHANGES["mono"](rgb, np.random.default_rng(0))  # a phone's black-and-white filter


def _sepia(rgb: np.ndarray) -> np.ndarray:
    return CHANGES["sepia"](rgb, np.random.default_rng(0))  # a phone's sepia filter


def _toned(rgb: np.ndarray) -> np.ndarray:
    """A toned print: blue-black shadows shading to cream lights."""
    light = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)[..., None] / 255.0
    dark, cream = np.array([20, 30, 70], np.float32), np.array([255, 245, 220], np.float32)
    return (dark + light * (cream - dark) + 0.5).astype(np.uint8)


def _jpeg(rgb: np.ndarray) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 70])
    assert ok
    return cv2.cvtColor(cv2.imdecode(data, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def test_a_black_and_white_photo_holds_no_colour_and_a_colour_one_does():
    table = _table()
    assert chroma(table) > 100 and not colourless(table)
    assert chroma(_grey(table)) == 0 and colourless(_grey(table))
    assert colourless(_jpeg(_grey(table)))  # passed on as a JPEG: its rounding is no colour
    assert not colourless(_jpeg(table))


def test_a_filter_of_one_tint_leaves_no_colour_to_read_in_the_tiles():
    table = _table()
    for filtered in (_sepia(table), _toned(table), _jpeg(_sepia(table))):
        assert chroma(filtered) > 20  # brown or blue: not grey
        assert colourless(filtered, BOXES)
        assert not colourless(filtered)  # only the tiles tell a filter from a brown photo
    assert not colourless(table, BOXES) and not colourless(_jpeg(table), BOXES)


def test_black_tiles_on_a_table_of_colour_are_a_colour_photo():
    # the tiles hold nothing but black ink, but at their brightness the photo holds a red and a green cloth
    rgb = _table()
    for x1, y1, x2, y2 in BOXES:
        cv2.circle(rgb, ((x1 + x2) // 2, (y1 + y2) // 2), 10, INKS["K"], -1)
    assert colourless(rgb, BOXES)  # a flat brown table: nothing tells the photo from a sepia one
    rgb[110:, ::2], rgb[110:, 1::2] = (180, 60, 60), (60, 170, 70)  # as bright as each other
    assert not colourless(rgb, BOXES)


def test_off_tint_is_the_colour_beyond_what_each_brightness_shares():
    light = np.arange(20, 240, dtype=np.float32)
    tinted = np.stack([light * 1.1, light, light * 0.8], axis=1)  # one tint, deeper with brightness
    assert off_tint(tinted, 0.99) < 1.0 and off_one_way(tinted) < 1.0
    # a red ink beside a grey one as bright, and a green one beside a lighter grey
    red = np.array([[170.0, 100.0, 100.0]] * 50 + [[123.0, 123.0, 123.0]] * 50)
    green = np.array([[150.0, 220.0, 160.0]] * 50 + [[177.0, 177.0, 177.0]] * 50)
    assert off_tint(np.concatenate([tinted, red]), 0.99) > 20
    # inks of two colours stand off their brightness's tint two ways; one ink's, and a filter's, one way only
    assert off_one_way(np.concatenate([tinted, red])) < 3.0
    assert off_one_way(np.concatenate([tinted, red, green])) > MonoSettings().max_tiles_off_one_way
    with pytest.raises(ValueError, match="no pixels"):
        off_tint(np.zeros((0, 3)), 0.99)


def test_the_tiles_pixels_are_their_boxes_shrunk():
    rgb = np.zeros((400, 400, 3), np.uint8)
    rgb[100:300, 100:200] = 255
    assert len(tile_pixels(rgb, [(100, 100, 200, 300)], side=48)) == 24 * 48
    assert len(tile_pixels(rgb, [(100, 100, 120, 130)], side=48)) == 20 * 30  # a small tile as it is
    assert len(tile_pixels(rgb, [(390, 390, 480, 480), (500, 500, 510, 510)])) == 100  # cut by the frame; outside
    assert tile_pixels(rgb, []).shape == (0, 3)


def test_a_blank_frame_shows_nothing_to_judge():
    assert not colourless(np.zeros((50, 80, 3), np.uint8))
    assert not colourless(np.full((50, 80, 3), 200, np.uint8))


def test_the_most_colourful_pixels_decide_not_the_most_of_the_photo():
    # a grey table whose only colour is a few red inks: a colour photo
    rgb = np.full((200, 200, 3), 128, np.uint8)
    rgb[:100] = 60
    rgb[10:20, 10:20] = (200, 30, 30)  # a quarter of a percent of the photo
    assert not colourless(rgb)
    assert colourless(rgb, settings=MonoSettings(share=0.99))  # a looser share looks past them


def test_settings_are_checked():
    with pytest.raises(ValueError, match="share"):
        MonoSettings(share=1.0)
    with pytest.raises(ValueError, match="side"):
        MonoSettings(side=4)
    with pytest.raises(ValueError, match="tile_share"):
        MonoSettings(tile_share=0.0)
    with pytest.raises(ValueError, match="tile_side"):
        MonoSettings(tile_side=2)
    with pytest.raises(ValueError, match="levels"):
        MonoSettings(levels=0)
    with pytest.raises(ValueError, match="RGB"):
        chroma(np.zeros((10, 10), np.uint8))


def _read(rgb: np.ndarray) -> tuple[Reader, object]:
    model = FakeModel([raw_tile(b, {c: 0.99}) for b, c in zip(BOXES, CODES)])
    reader = Reader(model=model)
    return reader, reader.read(Image(rgb, "t.jpg"))


def test_every_numbered_tile_of_a_black_and_white_photo_is_doubtful_and_told_why():
    reader, reading = _read(_grey(_table()))
    assert [t.code for t in reading.tiles] == CODES
    assert [(t.doubtful, t.doubt) for t in reading.tiles[:3]] == [(True, NO_COLOUR)] * 3
    assert reading.tiles[3].doubt != NO_COLOUR  # a joker has no colour to read
    assert reading.warnings[0] == NO_COLOUR_WARNING
    assert NO_COLOUR in DOUBT_TEXT
    # a person names two colours: the warning stays while one tile's colour is still unread
    fixed = reader.recheck(reading, {0: "R5", 1: "B5"})
    assert NO_COLOUR_WARNING in fixed.warnings and fixed.tiles[2].doubt == NO_COLOUR
    assert NO_COLOUR_WARNING not in reader.recheck(fixed, {2: "O5"}).warnings


def test_every_numbered_tile_of_a_sepia_photo_is_doubtful_and_told_why():
    _, reading = _read(_sepia(_table()))
    assert [(t.doubtful, t.doubt) for t in reading.tiles[:3]] == [(True, NO_COLOUR)] * 3
    assert reading.warnings[0] == NO_COLOUR_WARNING


def test_a_colour_photo_is_read_as_before():
    _, reading = _read(_table())
    assert not any(t.doubt == NO_COLOUR for t in reading.tiles)
    assert NO_COLOUR_WARNING not in reading.warnings
    assert [t.doubtful for t in reading.tiles[:3]] == [False] * 3
