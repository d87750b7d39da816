"""bench/bench_errors.py: each tile is counted under the reader its number followed, and a wrong tile is
credited to a reader not followed only where that reader had the true number."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_errors import FOLLOWED, _Recorded, followed, other_right  # noqa: E402

from vision.fusion import NUMBER_COLUMNS  # noqa: E402
from vision.lowview import squeezed, stretched  # noqa: E402
from vision.mirror import mirrored, mirrored_box  # noqa: E402
from vision.model import RawTile  # noqa: E402
from vision.turn import turned, turned_box  # noqa: E402
from vision.types import Image, PhotoReading, TileReading  # noqa: E402
from vision.yolo_format import CLASS_NAMES  # noqa: E402


def _classifier(**probs: float) -> np.ndarray:
    p = np.full(len(CLASS_NAMES), 1e-4)
    for code, v in probs.items():
        p[CLASS_NAMES.index(code)] = v
    return p / p.sum()


def _recogniser(number: int | None, p: float) -> np.ndarray:
    """The recogniser reading ``number`` (None: no number) at ``p``, the rest spread evenly."""
    o = np.full(NUMBER_COLUMNS, (1.0 - p) / (NUMBER_COLUMNS - 1))
    o[NUMBER_COLUMNS - 1 if number is None else number - 1] = p
    return o


def test_a_reading_follows_both_one_or_neither_reader():
    both, recogniser, classifier, neither = FOLLOWED
    assert followed("R7", _classifier(R7=0.9), _recogniser(7, 0.8)) == both
    # the classifier's number is summed over colours: a K7 against its R7 is still its 7
    assert followed("K7", _classifier(R7=0.5, K7=0.4), _recogniser(7, 0.8)) == both
    assert followed("O2", _classifier(O10=0.84, O9=0.07), _recogniser(2, 0.82)) == recogniser
    assert followed("O10", _classifier(O10=0.84, O9=0.07), _recogniser(2, 0.82)) == classifier
    assert followed("O9", _classifier(O10=0.84, O9=0.07), _recogniser(2, 0.82)) == neither
    # a joker of any kind is the recogniser's "no number"
    assert followed("J", _classifier(R4=0.6, J=0.3), _recogniser(None, 0.9)) == recogniser
    assert followed("J", _classifier(R4=0.51, R8=0.39, J=0.04), _recogniser(11, 0.84)) == neither
    # both readers agree on a number the reading did not take: a third choice
    assert followed("R4", _classifier(R8=0.9), _recogniser(8, 0.9)) == neither


def test_a_reader_not_followed_is_credited_only_with_the_true_number():
    cls, ocr = _classifier(O10=0.84, O9=0.07), _recogniser(2, 0.82)
    assert other_right("O2", "O9", cls, ocr)  # the recogniser had it
    assert other_right("O10", "O9", cls, ocr)  # the classifier had it
    assert not other_right("O3", "O9", cls, ocr)  # nobody had it
    assert not other_right("O2", "O2", cls, ocr)  # the reader followed is no other reader


def _recording(photos: list[tuple[Image, tuple[float, float, float, float], np.ndarray, np.ndarray]]) -> _Recorded:
    """A record of each photo's one box and the two readers' answers on it."""
    def answers(rgb: np.ndarray) -> tuple:
        return next((box, cls, ocr) for image, box, cls, ocr in photos if np.array_equal(image.rgb, rgb))

    def predict(rgb: np.ndarray) -> list:
        box, cls, _ = answers(rgb)
        return [RawTile(box, 0.9, cls)]

    def read(rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> np.ndarray:
        return answers(rgb)[2][None]

    fake = SimpleNamespace(predict=predict, read=read)
    recorded = _Recorded(SimpleNamespace(model=fake, number_reader=fake))
    for image, *_ in photos:
        recorded.read(image.rgb, np.array([r.box for r in recorded.predict(image.rgb)]))
    return recorded


def _tile(box: tuple[float, float, float, float]) -> TileReading:
    return TileReading(box=box, code="R7", confidence=0.9, alternatives=[])


def _marked(width: int, height: int) -> Image:
    """A photo with a white corner at its top left: mirrored or turned, it is another photo."""
    rgb = np.zeros((height, width, 3), np.uint8)
    rgb[:4, :4] = 255
    return Image(rgb, "p.jpg")


def test_a_low_view_read_stretched_finds_its_answers_on_the_stretched_photo():
    photo = _marked(80, 60)
    box = (10.0, 30.0, 50.0, 90.0)  # on the photo stretched twice as tall
    recorded = _recording([(photo, (10.0, 15.0, 50.0, 45.0), _classifier(R1=0.9), _recogniser(1, 0.8)),
                           (stretched(photo, 2.0), box, _classifier(R7=0.9), _recogniser(7, 0.8))])
    reading = PhotoReading(path="p.jpg", width=80, height=60, tiles=[_tile(squeezed(box, 2.0))], melds=[], stretch=2.0)
    [(got_cls, got_ocr)] = recorded.opinions(photo, reading)
    assert np.argmax(got_ocr) == 6 and got_cls[CLASS_NAMES.index("R7")] > 0.5
    recorded.forget()
    assert recorded.opinions(photo, dataclasses.replace(reading, tiles=[])) == []


def test_a_photo_read_turned_finds_its_answers_on_the_turned_photo():
    # a photo 80 wide and 60 tall, read turned a quarter clockwise (60 wide, 80 tall) and stretched 1.5 times there
    photo = _marked(80, 60)
    box = (10.0, 30.0, 20.0, 60.0)  # on the turned photo, stretched (120 tall)
    as_taken = turned_box(squeezed(box, 1.5), 3, 60, 80)  # turned back onto the photo as taken
    recorded = _recording([(photo, as_taken, _classifier(R1=0.9), _recogniser(1, 0.8)),
                           (stretched(turned(photo, 1), 1.5), box, _classifier(R7=0.9), _recogniser(7, 0.8))])
    reading = PhotoReading(path="p.jpg", width=80, height=60, tiles=[_tile(as_taken)], melds=[], stretch=1.5, turned=1)
    [(got_cls, got_ocr)] = recorded.opinions(photo, reading)
    assert np.argmax(got_ocr) == 6 and got_cls[CLASS_NAMES.index("R7")] > 0.5


def test_a_photo_read_mirrored_back_finds_its_answers_on_the_mirrored_photo():
    # as large as the photo as taken, and its tile where the photo's is: known by its pixels
    photo = _marked(80, 60)
    box = (10.0, 20.0, 30.0, 40.0)
    recorded = _recording([(photo, box, _classifier(R1=0.9), _recogniser(1, 0.8)),
                           (mirrored(photo), mirrored_box(box, 80), _classifier(R7=0.9), _recogniser(7, 0.8))])
    reading = PhotoReading(path="p.jpg", width=80, height=60, tiles=[_tile(box)], melds=[], mirrored=True)
    [(got_cls, got_ocr)] = recorded.opinions(photo, reading)
    assert np.argmax(got_ocr) == 6 and got_cls[CLASS_NAMES.index("R7")] > 0.5
    [(got_cls, got_ocr)] = recorded.opinions(photo, dataclasses.replace(reading, mirrored=False))
    assert np.argmax(got_ocr) == 0 and got_cls[CLASS_NAMES.index("R1")] > 0.5
