"""vision.upright: a tile that cannot tell which end is up (a 6 or a 9 filling the face) goes the way its
neighbours show; and the number reader uses it."""

from __future__ import annotations

import numpy as np
import pytest

from vision import ocr
from vision.ocr import NO_NUMBER, NumberReader, merge_turns
from vision.upright import NeighbourSettings, ShownUp, neighbour_priors, reads_turned, shown_up, turned_over


def _reads(number: int | None, p: float = 0.97) -> np.ndarray:
    row = np.zeros(14)
    if number is None:
        row[NO_NUMBER] = 1.0
    else:
        row[number - 1], row[NO_NUMBER] = p, 1.0 - p
    return row


# --------------------------------------------------------------------------- what a tile shows by itself


def test_a_telling_number_shows_the_turn_it_reads_under():
    got = shown_up([10.0, 190.0], np.stack([_reads(12), _reads(None)]))
    assert got.angle == 10.0 and got.weight == pytest.approx(0.97)
    # read under one turn only (the ink said which end is up and the read was sure): still shown
    assert shown_up([-90.0], _reads(4)[None]).weight == pytest.approx(0.97)


@pytest.mark.parametrize("number", [1, 6, 8, 9, 11])
def test_a_number_that_reads_turned_over_shows_nothing(number):
    turned = {6: 9, 9: 6}.get(number, number)
    assert shown_up([0.0, 180.0], np.stack([_reads(number), _reads(turned)])).weight == 0.0


def test_an_unsure_or_two_way_read_shows_little():
    assert shown_up([0.0, 180.0], np.stack([_reads(7, 0.6), _reads(None)])).weight == 0.0  # below min_tell
    both = shown_up([0.0, 180.0], np.stack([_reads(12, 0.95), _reads(2, 0.9)]))
    assert both.weight == pytest.approx(0.05)  # the margin over the other turn


# --------------------------------------------------------------------------- what the neighbours show


def _row(n: int, step: float = 80.0) -> np.ndarray:
    return np.stack([np.arange(n) * step, np.zeros(n)], axis=1)


def test_a_row_that_shows_one_way_up_turns_its_doubtful_tile():
    centres, heights = _row(5), np.full(5, 100.0)
    shown = [ShownUp(0.0, 0.95)] * 2 + [ShownUp(0.0, 0.0)] + [ShownUp(2.0, 0.9)] * 2
    turns = [[0.0]] * 2 + [[0.0, 180.0]] + [[2.0]] * 2
    prior = neighbour_priors(centres, heights, shown, turns)[2]
    agree = (0.95 * 2 + 0.9 * 2) / (0.95 * 2 + 0.9 * 2 + 1.0)  # the four agree up to 2 degrees
    assert prior[0] == pytest.approx(0.5 + 0.45 * agree, abs=1e-3)
    assert prior[1] == pytest.approx(0.5 - 0.45 * agree, abs=1e-3)
    # the order of the turns does not matter; a turned-over row shows the other way
    assert neighbour_priors(centres, heights, shown, [[0.0]] * 2 + [[180.0, 0.0]] + [[2.0]] * 2)[2][0] == pytest.approx(prior[1])
    flipped = [ShownUp(s.angle + 180.0, s.weight) for s in shown]
    assert neighbour_priors(centres, heights, flipped, turns)[2][0] == pytest.approx(prior[1], abs=1e-3)


def test_tiles_at_every_angle_show_no_way_up():
    centres, heights = _row(5), np.full(5, 100.0)
    shown = [ShownUp(0.0, 1.0), ShownUp(90.0, 1.0), ShownUp(0.0, 0.0), ShownUp(180.0, 1.0), ShownUp(-90.0, 1.0)]
    prior = neighbour_priors(centres, heights, shown, [[0.0]] * 2 + [[0.0, 180.0]] + [[0.0]] * 2)[2]
    assert prior == pytest.approx([0.5, 0.5], abs=1e-9)


def test_far_tiles_and_the_tile_itself_are_no_evidence():
    heights = np.full(2, 100.0)
    far = np.array([[0.0, 0.0], [1000.0, 0.0]])
    shown = [ShownUp(0.0, 1.0), ShownUp(0.0, 1.0)]
    assert neighbour_priors(far, heights, shown, [[0.0, 180.0], [0.0, 180.0]])[0] == pytest.approx([0.5, 0.5])
    alone = neighbour_priors(np.zeros((1, 2)), np.full(1, 100.0), [ShownUp(0.0, 1.0)], [[0.0, 180.0]])
    assert alone[0] == pytest.approx([0.5, 0.5])


def test_a_lone_neighbour_cannot_decide_and_the_strength_bounds_the_rest():
    centres, heights = _row(2), np.full(2, 100.0)
    one = neighbour_priors(centres, heights, [ShownUp(0.0, 0.0), ShownUp(0.0, 1.0)], [[0.0, 180.0], [0.0]])[0]
    assert 0.6 < one[0] < 0.8 and one[0] + one[1] == pytest.approx(1.0)
    many = neighbour_priors(_row(40, 10.0), np.full(40, 100.0), [ShownUp(0.0, 0.0)] + [ShownUp(0.0, 1.0)] * 39,
                            [[0.0, 180.0]] + [[0.0]] * 39, NeighbourSettings(reach=100.0))[0]
    assert many[0] <= 0.95 and many[1] >= 0.05
    off = neighbour_priors(centres, heights, [ShownUp(0.0, 0.0), ShownUp(0.0, 1.0)], [[0.0, 180.0], [0.0]], NeighbourSettings(strength=0.0))
    assert off[0] == pytest.approx([0.5, 0.5])


def test_priors_need_one_entry_per_tile():
    with pytest.raises(ValueError, match="one per tile"):
        neighbour_priors(_row(2), np.full(3, 100.0), [ShownUp(0.0, 1.0)] * 2, [[0.0]] * 2)


# --------------------------------------------------------------------------- merged with the turns' readings


def test_a_prior_decides_between_a_six_and_a_nine():
    six, nine = _reads(6), _reads(9)
    merged = merge_turns([six, nine], prior=[0.9, 0.1])
    assert merged[5] == pytest.approx(0.9 * 0.97, abs=1e-6) and merged[8] == pytest.approx(0.1 * 0.97, abs=1e-6)
    # a turn that reads no number stays out, whatever the prior says
    merged = merge_turns([_reads(None), _reads(12)], prior=[0.95, 0.05])
    assert int(merged.argmax()) == 11
    with pytest.raises(ValueError, match="one weight per turn"):
        merge_turns([six, nine], prior=[1.0])


# --------------------------------------------------------------------------- the real recogniser

needs_model = pytest.mark.skipif(not ocr.ocr_available(), reason=f"{ocr.OCR_PACKAGE} is not installed (pip install -e .)")


def _big_face(number: str, w: int = 74, h: int = 100) -> np.ndarray:
    """A face whose digit fills it, centred, no circle: nothing on it says which end is up."""
    from PIL import Image, ImageDraw, ImageFont

    face = Image.new("RGB", (w, h), (236, 229, 206))
    try:
        font = ImageFont.truetype("DejaVuSans-Bold.ttf", 78 if len(number) == 1 else 44)
    except OSError:
        pytest.skip("DejaVu Sans Bold is not installed")
    draw = ImageDraw.Draw(face)
    left, top, right, bottom = draw.textbbox((0, 0), number, font=font)
    draw.text(((w - (right - left)) / 2 - left, (h - (bottom - top)) / 2 - top), number, fill=(20, 20, 20), font=font)
    return np.asarray(face)


def _rack(numbers: list[str], turned: bool) -> tuple[np.ndarray, np.ndarray]:
    """Faces side by side on a dark table (the photo turned half a turn if ``turned``), and their boxes."""
    photo = np.full((160, 40 + len(numbers) * 78, 3), (70, 45, 30), np.uint8)
    boxes = []
    for k, number in enumerate(numbers):
        x = 20 + k * 78
        photo[30:130, x : x + 74] = _big_face(number)
        boxes.append((x, 30, x + 74, 130))
    boxes = np.array(boxes, dtype=float)
    if turned:
        h, w = photo.shape[:2]
        photo = np.ascontiguousarray(photo[::-1, ::-1])
        boxes = np.stack([w - boxes[:, 2], h - boxes[:, 3], w - boxes[:, 0], h - boxes[:, 1]], axis=1)
    return photo, boxes


@needs_model
@pytest.mark.parametrize("turned", [False, True])
@pytest.mark.parametrize("numbers,at,number", [(["4", "6", "7"], 1, 6), (["12", "9", "5", "3"], 1, 9)])
def test_the_reader_reads_a_six_or_nine_the_way_its_row_is_up(numbers, at, number, turned):
    photo, boxes = _rack(numbers, turned)
    p = NumberReader().read(photo, boxes)
    other = {6: 9, 9: 6}[number]
    # the neighbours lean it clearly the row's way up (how far depends on how surely they read)
    assert int(p[at].argmax()) == number - 1 and p[at, number - 1] > 0.6 and p[at, other - 1] < 0.4, p[at].round(2)
    # without its neighbours the same tile stays a toss-up between the two: doubt, not a guess
    alone = NumberReader().read(photo, boxes[at : at + 1])[0]
    assert abs(alone[5] - alone[8]) < 0.15 and alone[5] + alone[8] > 0.9, alone.round(2)
    off = NumberReader(neighbours=NeighbourSettings(strength=0.0)).read(photo, boxes)[at]
    assert abs(off[5] - off[8]) < 0.15


def test_six_and_nine_turn_into_each_other_and_nothing_else_does() -> None:
    assert [turned_over(n) for n in range(1, 14)] == [1, 2, 3, 4, 5, 9, 7, 8, 6, 10, 11, 12, 13]
    assert [c for c in ("K6", "R9", "B9", "O6", "K8", "R16", "O1", "J", "JD", "K") if reads_turned(c)] == ["K6", "R9", "B9", "O6"]
