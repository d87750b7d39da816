"""Where the reader loses numbers on a labelled set, and which reader to believe on a 6 or a 9.

Reads every photo with the committed models, as ``rummi evaluate`` does (the same reader, rules and
calibration), and keeps each tile's two opinions: the classifier's and the number recogniser's. Each found
tile whose number (or joker) is read wrong is put in one class, the first that fits:

- a joker read as a number;
- a joker read as another kind of joker (the Twist edition's);
- a number read as a joker;
- a 6 and a 9 turned (the right number upside down);
- the recogniser right, outvoted (its likeliest answer is the true number, at p >= 0.5);
- the classifier right, outvoted (its likeliest number, summed over colours, is the true one);
- both wrong, the recogniser unsure (no number, or no answer at p >= 0.5);
- both wrong, each with another number.

Then, on the tiles showing a 6 or a 9 that both readers read as a 6 or a 9, how often each reader alone
has it the right way up: which opinion on the way up holds on editions the classifier never saw.

Last, every found tile by whom the reading followed on its number: both readers' likeliest numbers (a joker
counted as one), the recogniser's where they differ, the classifier's, or neither's (the fusion's third choice),
each with how many were read right and how many of the wrong ones the reader not followed had right. Where a
reader not followed was right more often than the one followed, a better fusion has tiles to win; where
neither was right, only a better reader does.

    .venv/bin/python bench/bench_errors.py DATASET [--split SPLIT] [--models DIR] [--limit N] [--rack]

e.g. ``RUN/synth --split unseen``, ``RUN/synth --split unseen_racks --rack``, ``RUN/real --split heldout``.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from typing import Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from vision.evaluate import edition_rules, open_dataset, same_number  # noqa: E402
from vision.fusion import NO_NUMBER, number_column, number_marginal  # noqa: E402
from vision.load import load_image  # noqa: E402
from vision.lowview import stretched  # noqa: E402
from vision.metrics import match  # noqa: E402
from vision.mirror import mirrored, mirrored_box  # noqa: E402
from vision.reader import Reader, number_answers  # noqa: E402
from vision.turn import turned, turned_box  # noqa: E402
from vision.types import Image, NumberAnswers, PhotoReading  # noqa: E402
from vision.upright import TURNED_PAIR  # noqa: E402
from vision.yolo_format import read_labels  # noqa: E402

SURE_ENOUGH = 0.5
FOLLOWED = ("both readers (they agree)", "the recogniser", "the classifier", "neither (a third number)")
CLASSES = (
    "a joker read as a number",
    "a joker read as another kind",
    "a number read as a joker",
    "a 6 and a 9 turned",
    "the recogniser right, outvoted",
    "the classifier right, outvoted",
    "both wrong, the recogniser unsure",
    "both wrong, each with another number",
)


def likeliest(classifier: np.ndarray, ocr: np.ndarray) -> tuple[int, int]:
    """Each reader's likeliest number column (a joker of any kind in the last): the classifier's, the recogniser's."""
    return int(np.argmax(number_marginal(classifier[None])[0])), int(np.argmax(ocr))


def error_class(truth: str, read: str, classifier: np.ndarray, ocr: np.ndarray) -> str:
    """The class of a tile whose number is read wrong: ``classifier`` its probabilities over the classes,
    ``ocr`` the recogniser's over 1..13 and no number."""
    true_n, read_n = number_column(truth), number_column(read)
    if true_n == NO_NUMBER:
        return CLASSES[0] if read_n != NO_NUMBER else CLASSES[1]
    if read_n == NO_NUMBER:
        return CLASSES[2]
    if {true_n + 1, read_n + 1} == set(TURNED_PAIR):
        return CLASSES[3]
    by_classifier, top = likeliest(classifier, ocr)
    if top == true_n and ocr[top] >= SURE_ENOUGH:
        return CLASSES[4]
    if by_classifier == true_n:
        return CLASSES[5]
    if top == NO_NUMBER or ocr[top] < SURE_ENOUGH:
        return CLASSES[6]
    return CLASSES[7]


def followed(read: str, classifier: np.ndarray, ocr: np.ndarray) -> str:
    """Whose likeliest number (or joker) the reading's number is (``FOLLOWED``)."""
    read_n = number_column(read)
    by_classifier, by_recogniser = likeliest(classifier, ocr)
    if by_classifier == by_recogniser:
        return FOLLOWED[0] if read_n == by_classifier else FOLLOWED[3]
    return FOLLOWED[1] if read_n == by_recogniser else FOLLOWED[2] if read_n == by_classifier else FOLLOWED[3]


def other_right(truth: str, read: str, classifier: np.ndarray, ocr: np.ndarray) -> bool:
    """Whether a reader the reading did not follow has the true number as its likeliest."""
    true_n, read_n = number_column(truth), number_column(read)
    return any(top == true_n and top != read_n for top in likeliest(classifier, ocr))


def turned_right(truth: str, classifier: np.ndarray, ocr: np.ndarray) -> tuple[bool, bool] | None:
    """For a tile showing a 6 or a 9 that both readers read as one (half their mass or more): whether the
    classifier, and the recogniser, have it the right way up. None for any other tile."""
    if truth.startswith("J") or int(truth[1:]) not in TURNED_PAIR:
        return None
    six, nine = (n - 1 for n in TURNED_PAIR)
    marg = number_marginal(classifier[None])[0]
    if marg[six] + marg[nine] < 0.5 or ocr[six] + ocr[nine] < 0.5:
        return None
    is_six = int(truth[1:]) == TURNED_PAIR[0]
    return (marg[six] > marg[nine]) == is_six, (ocr[six] > ocr[nine]) == is_six


class _Recorded:
    """The reader's model and number reader, each answer kept by the photo it was asked about (a low view is read
    twice, as taken and stretched, ``vision.lowview``; a rack standing sideways or a table whose rows run down, as
    taken and turned a quarter, ``vision.turn``; a photo the number reader reads better mirrored, as taken and
    mirrored back, ``vision.mirror``) and its tile's box there. A photo is known by its pixels (``_key``): a
    mirrored photo is as large as the photo as taken."""

    def __init__(self, reader: Reader) -> None:
        self.model, self.numbers = reader.model, reader.number_reader
        self.classifier: dict[tuple, dict[tuple[float, ...], np.ndarray]] = {}
        self.ocr: dict[tuple, list[dict[tuple[float, ...], np.ndarray]]] = {}

    def forget(self) -> None:
        """Drop the answers on the photo before."""
        self.classifier, self.ocr = {}, {}

    def predict(self, rgb: np.ndarray) -> list:
        raw = self.model.predict(rgb)
        self.classifier[_key(rgb)] = {tuple(float(v) for v in r.box): np.asarray(r.probs, dtype=np.float64) for r in raw}
        return raw

    def read(self, rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> np.ndarray:
        return self.read_with_ways(rgb, boxes, upright).probs

    def read_with_ways(self, rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> NumberAnswers:
        boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
        answers = number_answers(self.numbers, rgb, boxes, upright)
        asked = {tuple(float(v) for v in b): row for b, row in zip(boxes, answers.probs)}
        self.ocr.setdefault(_key(rgb), []).append(asked)
        return answers

    def opinions(self, image: Image, reading: PhotoReading) -> list[tuple[np.ndarray, np.ndarray]]:
        """The classifier's and the recogniser's answers on each of ``reading``'s tiles (its boxes on ``image``, the
        photo as taken), asked on the photo the reading was read from: mirrored, turned, then stretched as the
        reading says. The recogniser's answer is its last on that photo (a photo read whole after a few of its tiles
        were asked about, ``vision.mirror``)."""
        photo = mirrored(image) if reading.mirrored else image
        photo = turned(photo, reading.turned)
        photo = stretched(photo, reading.stretch) if reading.stretch > 1 else photo
        key = _key(photo.rgb)
        classifier, asks = self.classifier.get(key, {}), self.ocr.get(key, [])
        out = []
        for tile in reading.tiles:
            box = mirrored_box(tile.box, image.width) if reading.mirrored else tile.box
            x1, y1, x2, y2 = turned_box(box, reading.turned, image.width, image.height)
            # the box it was asked about, turned and stretched back and forth: equal but for rounding
            centre = np.array([(x1 + x2) / 2, (y1 + y2) / 2 * reading.stretch])
            asked, hit = next((asked, hit) for asked in reversed(asks) for hit in [_nearest(asked, centre)]
                              if hit is not None and hit in classifier)
            out.append((classifier[hit], asked[hit]))
        return out


def _key(rgb: np.ndarray) -> tuple:
    """A photo, by its size and a sample of its pixels."""
    return rgb.shape, rgb[:: max(1, rgb.shape[0] // 61), :: max(1, rgb.shape[1] // 67)].tobytes()


def _nearest(asked: dict[tuple[float, ...], np.ndarray], centre: np.ndarray, within: float = 1.0) -> tuple[float, ...] | None:
    """The box of ``asked`` whose centre lies within ``within`` pixels of ``centre`` (the nearest), or None."""
    best, gap = None, within
    for box in asked:
        d = abs((box[0] + box[2]) / 2 - centre[0]) + abs((box[1] + box[3]) / 2 - centre[1])
        if d <= gap:
            best, gap = box, d
    return best


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--split", default="val")
    ap.add_argument("--models", default=None, help="models folder (default: the committed models/)")
    ap.add_argument("--limit", type=int, default=None, help="read only the first N photos")
    ap.add_argument("--rack", action="store_true", help="read each photo as a rack, as `rummi evaluate --rack` does")
    args = ap.parse_args(argv)

    data = open_dataset(args.dataset, args.split)
    plain = Reader(models_dir=args.models, ocr=True)
    recorded = _Recorded(plain)
    reader = Reader(recorded, number_reader=recorded, ocr=True, calibration=plain.calibration)
    found = right = 0
    classes: collections.Counter[str] = collections.Counter()
    turns = np.zeros(3, int)  # tiles, classifier right way up, recogniser right way up
    whom: dict[str, np.ndarray] = {name: np.zeros(3, int) for name in FOLLOWED}  # tiles, right, wrong but another right
    for image_path, label_path in tqdm(data.photos[: args.limit], desc="reading", unit="photo"):
        image = load_image(image_path)
        truth = read_labels(label_path, data.names, image.width, image.height)
        rules = edition_rules(reader, (t.code for t in truth))
        recorded.forget()
        reading = reader.read(image, rack=args.rack) if rules is None else reader.read(image, rack=args.rack, rules=rules)
        opinions = recorded.opinions(image, reading)
        for i, j in match([t.box for t in truth], [t.box for t in reading.tiles]):
            code, tile = truth[i].code, reading.tiles[j]
            cls, ocr = opinions[j]
            found += 1
            way_up = turned_right(code, cls, ocr)
            if way_up is not None:
                turns += (1, *way_up)
            counts = whom[followed(tile.code, cls, ocr)]
            counts[0] += 1
            if same_number(code, tile.code):
                right += 1
                counts[1] += 1
            else:
                classes[error_class(code, tile.code, cls, ocr)] += 1
                counts[2] += other_right(code, tile.code, cls, ocr)
    wrong = found - right
    print(f"{args.dataset} ({args.split}): {found} tiles found, number right {right / max(found, 1):.1%}, {wrong} wrong")
    for name in CLASSES:
        print(f"  {name:40s} {classes[name]:5d}  {classes[name] / max(wrong, 1):6.1%} of the wrong")
    if turns[0]:
        print(f"  6s and 9s both readers read as a 6 or a 9: {turns[0]}; the right way up: classifier "
              f"{turns[1] / turns[0]:.1%}, recogniser {turns[2] / turns[0]:.1%}")
    print("  the number read follows:                  tiles   right   wrong, the other reader right")
    for name in FOLLOWED:
        n, ok, other = (int(v) for v in whom[name])
        print(f"    {name:38s} {n:6d}  {ok / max(n, 1):6.1%}  {other:6d}")


if __name__ == "__main__":
    main()
