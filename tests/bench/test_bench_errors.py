"""bench/bench_errors.py: each tile is counted under the reader its number followed, and a wrong tile is
credited to a reader not followed only where that reader had the true number."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_errors import FOLLOWED, _Recorded, followed, other_right  # noqa: E402

from vision.fusion import NUMBER_COLUMNS  # noqa: E402
from vision.lowview import squeezed  # noqa: E402
from vision.model import RawTile  # noqa: E402
from vision.types import PhotoReading  # noqa: E402
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


def test_a_low_view_read_stretched_finds_its_answers_on_the_stretched_photo():
    box = (10.0, 30.0, 50.0, 90.0)  # on the photo stretched twice as tall
    cls, ocr = _classifier(R7=0.9), _recogniser(7, 0.8)
    fake = SimpleNamespace(predict=lambda rgb: [RawTile(box, 0.9, cls)], read=lambda rgb, boxes, upright=False: ocr[None])
    recorded = _Recorded(SimpleNamespace(model=fake, number_reader=fake))
    for height in (60, 120):  # the photo as taken, then stretched
        rgb = np.zeros((height, 80, 3), np.uint8)
        recorded.read(rgb, np.array([r.box for r in recorded.predict(rgb)]))
    reading = PhotoReading(path="p.jpg", width=80, height=60, tiles=[], melds=[], stretch=2.0)
    opinions = recorded.opinions(reading)
    assert list(opinions) == [squeezed(box, 2.0)]
    got_cls, got_ocr = opinions[squeezed(box, 2.0)]
    assert np.array_equal(got_cls, cls) and np.array_equal(got_ocr, ocr)
    recorded.forget()
    assert recorded.opinions(reading) == {}
