"""A stand-in for an edition the classifier never saw: tiles drawn here with fonts the renders do not
use, very large digits, no circle, no maker's mark, close up in a row like a standing rack.

Reads each photo's tiles at their known boxes (the detector is not measured here) with the
classifier alone, the recogniser alone, and both fused, through the same reader as ``rummi read``
(rack mode: no melds, so no help from the rules). Prints number accuracy, exact reads, the
sure-but-wrong rate and the share of errors flagged.

    .venv/bin/python bench/bench_unseen_font.py [--photos 40] [--seed 11] [--save DIR]
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image as PILImage  # noqa: E402
from PIL import ImageDraw, ImageFont  # noqa: E402

from datasets.synth.faces import INK  # noqa: E402
from datasets.synth.fonts import PREFERRED  # noqa: E402
from vision.model import RawTile, load_model  # noqa: E402
from vision.ocr import NO_NUMBER, load_number_reader  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.types import Image  # noqa: E402

# fonts the renders never use (datasets/synth/fonts.py PREFERRED), where this machine has them
UNSEEN = (
    "DejaVuSerif-Bold", "DejaVuSansMono-Bold", "LiberationMono-Bold", "LiberationSansNarrow-Bold",
    "DejaVuSansCondensed-Bold", "LiberationSerif-Bold", "DejaVuSans", "LiberationSans-Regular",
)
FACE_W, FACE_H = 74, 100


def unseen_fonts() -> list[str]:
    found = {}
    for path in glob.glob("/usr/share/fonts/**/*.[ot]tf", recursive=True):
        stem = Path(path).stem
        if stem in UNSEEN and stem not in PREFERRED:
            found[stem] = path
    return [found[k] for k in sorted(found)]


def draw_face(number: int, colour: str, font: str, size: float, rng: np.random.Generator) -> np.ndarray:
    plastic = np.clip(np.array((238, 234, 222)) + rng.normal(0, 6, 3), 0, 255).astype(int)
    face = PILImage.new("RGB", (FACE_W * 4, FACE_H * 4), tuple(plastic))
    draw = ImageDraw.Draw(face)
    text = str(number)
    pil_font = ImageFont.truetype(font, int(FACE_H * 4 * size * 1.4))
    left, top, right, bottom = draw.textbbox((0, 0), text, font=pil_font)
    scale = min(1.0, FACE_W * 4 * 0.9 / (right - left))  # a wide "13" is squeezed to fit
    layer = PILImage.new("L", (right - left + 8, bottom - top + 8), 0)
    ImageDraw.Draw(layer).text((4 - left, 4 - top), text, fill=255, font=pil_font)
    th = FACE_H * 4 * size
    layer = layer.resize((max(4, int(layer.width * th / layer.height * scale)), int(th)), PILImage.LANCZOS)
    ink = np.clip(np.array(INK[colour][0]) + rng.normal(0, INK[colour][1] / 3, 3), 0, 255).astype(int)
    cx, cy = FACE_W * 2, FACE_H * 4 * rng.uniform(0.44, 0.5)  # big digits, about centred
    face.paste(tuple(ink), (int(cx - layer.width / 2), int(cy - layer.height / 2)), layer)
    return np.asarray(face.resize((FACE_W, FACE_H), PILImage.LANCZOS))


def rack_photo(rng: np.random.Generator, fonts: list[str], size=(1000, 750)) -> tuple[np.ndarray, list, list[str]]:
    """A BGR photo of a row of drawn tiles, their boxes and codes (drawn in RGB)."""
    w, h = size
    table = np.array((60, 40, 28)) + rng.normal(0, 10, 3)
    photo = np.clip(table + rng.normal(0, 6, (h, w, 3)), 0, 255).astype(np.uint8)
    font = fonts[int(rng.integers(len(fonts)))]
    digit = float(rng.uniform(0.5, 0.62))
    n = int(rng.integers(9, 13))
    scale = rng.uniform(0.8, 1.05)
    tw, th = int(FACE_W * scale), int(FACE_H * scale)
    x0 = int((w - n * (tw + 4)) / 2)
    y0 = int(rng.uniform(0.25, 0.55) * h)
    boxes, codes = [], []
    for k in range(n):
        colour = "KRBO"[int(rng.integers(4))]
        number = int(rng.integers(1, 14))
        face = cv2.resize(draw_face(number, colour, font, digit, rng), (tw, th), interpolation=cv2.INTER_AREA)
        x, y = x0 + k * (tw + 4), y0 + int(rng.normal(0, 3))
        photo[y : y + th, x : x + tw] = face
        boxes.append((float(x), float(y), float(x + tw), float(y + th)))
        codes.append(f"{colour}{number}")
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.4, 1.0))
    ok, jpg = cv2.imencode(".jpg", cv2.cvtColor(photo, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 92))])
    return cv2.imdecode(jpg, cv2.IMREAD_UNCHANGED), boxes, codes  # BGR, as a photo file reads


class KnownBoxes:
    """The committed classifier on boxes given in advance (the detector is not what is measured)."""

    def __init__(self, boxes: list) -> None:
        self.boxes = boxes
        self.model = load_model()
        self.settings = self.model.settings
        self.folder = self.model.folder

    def predict(self, rgb: np.ndarray) -> list[RawTile]:
        probs = self.model.classify(rgb, np.asarray(self.boxes))
        return [RawTile(b, 1.0, p) for b, p in zip(self.boxes, probs)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--photos", type=int, default=40)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--save", default=None, help="write the photos here to look at them")
    args = ap.parse_args()
    fonts = unseen_fonts()
    if not fonts:
        sys.exit("none of the unseen fonts is installed")
    rng = np.random.default_rng(args.seed)
    numbers = load_number_reader()
    stats = {k: {"tiles": 0, "number": 0, "exact": 0, "sure": 0, "sure_wrong": 0, "wrong": 0, "flagged": 0} for k in ("alone", "fused")}
    ocr_right = cls_right = 0
    start = time.perf_counter()
    for i in range(args.photos):
        bgr, boxes, codes = rack_photo(rng, fonts)
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        if args.save:
            Path(args.save).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(Path(args.save) / f"unseen_{i:03d}.jpg"), bgr)
        model = KnownBoxes(boxes)
        raw = model.predict(rgb)
        cls_numbers = [int(np.argmax([sum(r.probs[c * 13 + n] for c in range(4)) for n in range(13)])) + 1 for r in raw]
        ocr = numbers.read(rgb, np.asarray(boxes))
        for code, cn, o in zip(codes, cls_numbers, ocr):
            cls_right += cn == int(code[1:])
            ocr_right += int(o.argmax()) != NO_NUMBER and int(o.argmax()) + 1 == int(code[1:])
        for key, use in (("alone", False), ("fused", True)):
            reading = Reader(model, ocr=use).read(Image(rgb), rack=True)
            by_box = {t.box: t for t in reading.tiles}
            s = stats[key]
            for box, code in zip(boxes, codes):
                t = by_box[box]
                s["tiles"] += 1
                s["number"] += t.code[1:] == code[1:]
                s["exact"] += t.code == code
                s["sure"] += not t.doubtful
                wrong = t.code != code
                s["wrong"] += wrong
                s["sure_wrong"] += wrong and not t.doubtful
                s["flagged"] += wrong and t.doubtful
    n = stats["alone"]["tiles"]
    print(f"unseen-font proxy: {args.photos} photos, {n} tiles, fonts: {', '.join(Path(f).stem for f in fonts)}")
    print(f"  number right, classifier alone (its own top number)  {100 * cls_right / n:5.1f}%")
    print(f"  number right, recogniser alone (its top reading)     {100 * ocr_right / n:5.1f}%")
    for key, label in (("alone", "reader, classifier alone"), ("fused", "reader, both fused")):
        s = stats[key]
        sw = 100 * s["sure_wrong"] / s["sure"] if s["sure"] else float("nan")
        fl = 100 * s["flagged"] / s["wrong"] if s["wrong"] else float("nan")
        print(
            f"  {label:<26} number {100 * s['number'] / n:5.1f}%  exact {100 * s['exact'] / n:5.1f}%  "
            f"sure but wrong {sw:5.1f}% ({s['sure_wrong']} of {s['sure']})  errors flagged {fl:5.1f}% ({s['flagged']} of {s['wrong']})"
        )
    print(f"  ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
