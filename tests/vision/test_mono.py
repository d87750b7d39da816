"""vision.mono and the reader: a photo with no colour in it (a black-and-white filter) shows every numbered tile as
doubtful, with its reason, and says so once; a colour photo, and a blank frame, are read as before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_fakes import FakeModel, raw_tile

from vision.mono import MonoSettings, chroma, colourless
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
    return cv2.cvtColor(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)


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


def test_a_blank_frame_shows_nothing_to_judge():
    assert not colourless(np.zeros((50, 80, 3), np.uint8))
    assert not colourless(np.full((50, 80, 3), 200, np.uint8))


def test_the_most_colourful_pixels_decide_not_the_most_of_the_photo():
    # a grey table whose only colour is a few red inks: a colour photo
    rgb = np.full((200, 200, 3), 128, np.uint8)
    rgb[:100] = 60
    rgb[10:20, 10:20] = (200, 30, 30)  # a quarter of a percent of the photo
    assert not colourless(rgb)
    assert colourless(rgb, MonoSettings(share=0.99))  # a looser share looks past them


def test_settings_are_checked():
    with pytest.raises(ValueError, match="share"):
        MonoSettings(share=1.0)
    with pytest.raises(ValueError, match="side"):
        MonoSettings(side=4)
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


def test_a_colour_photo_is_read_as_before():
    _, reading = _read(_table())
    assert not any(t.doubt == NO_COLOUR for t in reading.tiles)
    assert NO_COLOUR_WARNING not in reading.warnings
    assert [t.doubtful for t in reading.tiles[:3]] == [False] * 3
