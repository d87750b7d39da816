"""How far each reader carries to tiles unlike its training, one style dimension at a time.

The ``unseen`` set (``datasets/synth/styles.py`` ``HELD_OUT``) holds every style dimension out at once, so it
says how well an edition nobody here has seen reads, not what makes it hard. Here each set renders the same
scenes (the same seed and indices: the same tables and racks) with one dimension drawn from the held-out sides
(``CALIB`` and ``HELD_OUT`` together) and every other from the training side:

* ``trained``: the training side, each font drawn as it is (the held-out sides thicken, thin, widen and narrow
  no font, so neither does any set here);
* ``sizes``: the held-out digit sizes (small digits in a circle, digits filling the face);
* ``fonts``: the held-out fonts;
* ``inks``: the held-out ink shades and plastics;
* ``jokers``: the held-out joker faces.

Each labelled tile is read at its labelled box (the detector is not measured) by the classifier alone and by
the number recogniser alone, and the table gives, for each set, the share of numbered tiles whose number each
reads right, the classifier's colours, and the jokers the classifier reads as jokers; beside each share, its
ratio to ``trained``'s. A dimension whose ratio is far under 1 is one the training renders do not cover.

    .venv/bin/python bench/bench_styles.py [--n 80] [--seed 6100] [--size 1024] [--models DIR] [--only sizes,fonts] [--no-ocr]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from datasets.synth.generate import synth_one  # noqa: E402
from datasets.synth.styles import CALIB, HELD_OUT, TRAIN, StyleSet  # noqa: E402
from vision.fusion import N_NUMBERS, number_marginal  # noqa: E402
from vision.model import load_model  # noqa: E402
from vision.yolo_format import CLASS_NAMES  # noqa: E402

BASELINE = "trained"


def one_dimension_sets() -> dict[str, StyleSet]:
    """The training side drawn plain, and that side with one dimension taken from the held-out sides."""
    plain = dataclasses.replace(TRAIN, name=BASELINE, weights=(), stretches=())
    held = (CALIB, HELD_OUT)
    return {
        BASELINE: plain,
        "sizes": dataclasses.replace(plain, name="sizes", sizes=tuple(b for s in held for b in s.sizes)),
        "fonts": dataclasses.replace(plain, name="fonts", fonts=frozenset().union(*(s.fonts for s in held))),
        "inks": dataclasses.replace(plain, name="inks", inks={c: tuple(x for s in held for x in s.inks[c]) for c in plain.inks},
                                    plastics=tuple(p for s in held for p in s.plastics)),
        "jokers": dataclasses.replace(plain, name="jokers", jokers=tuple(j for s in held for j in s.jokers)),
    }


@dataclass
class Tally:
    numbered: int = 0
    classifier: int = 0  # numbers the classifier reads right
    colours: int = 0  # colours the classifier reads right
    recogniser: int = 0  # numbers the recogniser reads right
    jokers: int = 0
    jokers_read: int = 0  # jokers the classifier reads as a joker

    def add(self, codes: list[str], classifier: np.ndarray, recogniser: np.ndarray | None) -> None:
        """``classifier``: (N, codes) probabilities; ``recogniser``: (N, 14) over 1..13 and no number."""
        numbers = number_marginal(classifier).argmax(1)
        for i, code in enumerate(codes):
            if code.startswith("J"):
                self.jokers += 1
                self.jokers_read += int(numbers[i] == N_NUMBERS)
                continue
            want = int(code[1:]) - 1
            self.numbered += 1
            self.classifier += int(numbers[i] == want)
            self.colours += int(CLASS_NAMES[int(classifier[i].argmax())][0] == code[0])
            if recogniser is not None:
                self.recogniser += int(recogniser[i].argmax() == want)


def share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def cell(value: float | None, base: float | None) -> str:
    if value is None:
        return f"{'-':>15}"
    ratio = f"{value / base:.2f}" if base else "-"
    return f"{100 * value:6.1f}% ({ratio:>4})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=80, help="photos per set")
    ap.add_argument("--seed", type=int, default=6100, help="the renders' seed (apart from every training seed)")
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--models", default=None, help="models folder (default: the committed models/)")
    ap.add_argument("--only", default="", help="comma-separated sets beside trained, e.g. sizes,fonts")
    ap.add_argument("--no-ocr", action="store_true", help="the classifier alone")
    args = ap.parse_args()
    sets = one_dimension_sets()
    wanted = [BASELINE] + [s for s in args.only.split(",") if s and s != BASELINE] if args.only else list(sets)
    unknown = [s for s in wanted if s not in sets]
    if unknown:
        sys.exit(f"bench_styles: unknown set {', '.join(unknown)}: use {', '.join(sets)}")
    model = load_model(args.models)
    numbers = None
    if not args.no_ocr:
        from vision.ocr import load_number_reader, ocr_available

        numbers = load_number_reader() if ocr_available() else None
    tallies: dict[str, Tally] = {}
    for name in wanted:
        tally = tallies.setdefault(name, Tally())
        for index in tqdm(range(args.n), desc=name, unit="photo"):
            rendered = synth_one(args.seed, index, "mix-all", args.size, styles=sets[name])
            if not rendered.labels:
                continue
            boxes = np.array([t.box for t in rendered.labels], float)
            probs = model.classify(rendered.rgb, boxes)
            read = numbers.read(rendered.rgb, boxes) if numbers is not None else None
            tally.add([t.code for t in rendered.labels], probs, read)
    base = tallies[BASELINE]
    print(f"{args.n} photos a set, seed {args.seed}, {args.size} px; each share with its ratio to {BASELINE}'s")
    print(f"{'set':<8} {'numbered':>8}  {'classifier numbers':>18}  {'recogniser numbers':>18}  {'colours':>15}  {'jokers as jokers':>16}")
    for name, t in tallies.items():
        print(f"{name:<8} {t.numbered:>8}  {cell(share(t.classifier, t.numbered), share(base.classifier, base.numbered)):>18}  "
              f"{cell(share(t.recogniser, t.numbered) if numbers else None, share(base.recogniser, base.numbered)):>18}  "
              f"{cell(share(t.colours, t.numbered), share(base.colours, base.numbered))}  "
              f"{cell(share(t.jokers_read, t.jokers), share(base.jokers_read, base.jokers)):>16}")


if __name__ == "__main__":
    main()
