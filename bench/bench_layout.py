"""Meld grouping (`vision.layout.group_melds`) measured on rendered table photos.

Renders table scenes with `datasets.synth` (seeds apart from the training seeds), feeds the labelled
boxes of the face-up tiles that are at least ``--min-visible`` in view to `group_melds`, and compares
the groups with the true melds of the sidecar (`meta/<split>/*.json`: each tile's `meld`, None for
a stray tile). A true meld counts as

* exact  - some predicted group holds exactly its tiles;
* merged - its tiles all sit in one group that also holds other tiles;
* split  - its tiles are spread over several groups (it may be merged too: counted as split).

Printed for all melds, for melds of 3+ tiles, for 1-2 tile clusters (strays and short melds), and
again on the slanted photos (camera elevation under 40 degrees; the sidecar does not record the
camera, so it is read off the tiles' corners: a tile's height/width on the photo over 35/26 is about
sin(elevation)). Also the share of photos with every meld exact.

    .venv/bin/python bench/bench_layout.py [--n 120] [--seed 9090] [--dir DIR] [--draw K]

``--rules`` lets the game's rules cut a group at its wider gaps (``vision.layout.melds_with_cuts``,
``vision.regroup``), and part two melds laid touching (``vision.regroup.part_at_joint``), as the reader does,
with the labelled codes standing in for a perfect reading.
``--read`` measures the whole reader instead (``vision.reader.Reader`` on the photo: its tiles, its
reading, its melds), matched to the labels at IoU >= 0.5; a meld one of whose tiles the reader did not
find counts as missed. It also says how many of the merged melds hold, beside their own tiles, only boxes cut by
the photo's edge on no label: most often a tile there whose number is out of view, which the renders do not
label, grouped with its meld as it should be. Both read a photo of a Twist box (the sidecar's ``twist``) with the Twist rule on, as
the family playing with that box would.

``--turn`` turns each photo a quarter, clockwise and counter-clockwise in turn, its labels with it: a table
photographed by a phone held flat that guessed its way up wrong, its rows running down the photo.
``--dir`` reuses (or keeps) the rendered set; ``--draw K`` writes the first K photos with a wrong
meld to /tmp/layout_fail_*.png (true melds in colour, predicted groups as white outlines). ``--list`` (with
``--read``) prints each meld not read exactly: its tiles as labelled, each with what the reader read
(``R8>R9`` read wrong, ``?`` doubtful, ``!missed`` not found at IoU 0.5), and the groups the reader made of them,
a box on no label shown as ``+`` and its reading.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from engine.rules import HouseRules  # noqa: E402
from vision.layout import group_melds, melds_with_cuts  # noqa: E402
from vision.load import load_image  # noqa: E402
from vision.metrics import match  # noqa: E402
from vision.regroup import codes_meld, part_at_joint, split_by_rules  # noqa: E402
from vision.turn import turned, turned_box  # noqa: E402

TRAIN_SEEDS = {1, 2, 3, 777, 4242}
SLANT_DEG = 40.0


def elevation(tiles: list[dict]) -> float | None:
    """Camera elevation (degrees) read off the tiles' projected aspect; None without corners."""
    r = []
    for t in tiles:
        c = np.asarray(t.get("corners") or [], dtype=float)
        if c.shape != (4, 2):
            continue
        w = np.linalg.norm(c[1] - c[0])
        h = np.linalg.norm(c[2] - c[1])
        if w > 1:
            r.append(h / w * 26.0 / 35.0)
    if not r:
        return None
    return math.degrees(math.asin(min(1.0, float(np.median(r)))))


def group_of(pred: list[list[int]]) -> dict[int, int]:
    """Each tile's predicted group (its index in ``pred``)."""
    return {i: g for g, members in enumerate(pred) for i in members}


def score(true: list[list[int]], pred: list[list[int]]) -> list[str]:
    where = group_of(pred)
    out = []
    for meld in true:
        if any(i not in where for i in meld):  # a tile the reader did not find
            out.append("missed")
            continue
        groups = {where[i] for i in meld}
        if len(groups) > 1:
            out.append("split")
        elif len(pred[groups.pop()]) == len(meld):
            out.append("exact")
        else:
            out.append("merged")
    return out


def read_groups(reader, image, tiles: list[dict],
                rules: HouseRules) -> tuple[list[list[int]], set[int], dict[int, str]]:
    """The reader's melds on the photo in terms of the labelled ``tiles`` (indices); a tile the reader
    found where no label is gets an index past them. Also those of them cut by the photo's edge (the reader's
    ``cut_by_frame``): the renders label no tile whose number is out of view, so such a box is most often a tile
    the labels leave out, not a box on no tile. And what the reader read on each index (its code, ``?`` where
    doubtful)."""
    from vision.types import CUT_BY_FRAME

    reading = reader.read(image, rules=rules)
    pairs = dict((j, i) for i, j in match([t["box"] for t in tiles], [t.box for t in reading.tiles]))
    name = {j: pairs.get(j, len(tiles) + j) for j in range(len(reading.tiles))}
    in_meld = {j for m in reading.melds for j in m.tiles}
    groups = [[name[j] for j in m.tiles] for m in reading.melds]
    edge = {name[j] for j, t in enumerate(reading.tiles) if j not in pairs and t.doubt == CUT_BY_FRAME}
    shown = {name[j]: t.code + ("?" if t.doubtful else "") for j, t in enumerate(reading.tiles)}
    return groups + [[name[j]] for j in range(len(reading.tiles)) if j not in in_meld], edge, shown


def turned_meta(meta: dict, quarters: int) -> dict:
    """A sidecar for its photo turned ``quarters`` quarter turns clockwise: each tile's box and corners turned."""
    w, h = meta["width"], meta["height"]

    def point(x: float, y: float) -> list[float]:
        x1, y1, _, _ = turned_box((x, y, x, y), quarters, w, h)
        return [x1, y1]

    tiles = [{**t, "box": list(turned_box(t["box"], quarters, w, h)), "corners": [point(*c) for c in t["corners"]]}
             for t in meta["tiles"]]
    size = (h, w) if quarters % 2 else (w, h)
    return {**meta, "tiles": tiles, "width": size[0], "height": size[1]}


def describe(meld: list[int], outcome: str, pred: list[list[int]], tiles: list[dict], shown: dict[int, str]) -> str:
    """One meld not read exactly, for ``--list``: its labelled tiles with the reader's readings, then the groups
    the reader made of them."""
    def tile(i: int) -> str:
        if i >= len(tiles):
            return "+" + shown[i]
        code = tiles[i]["code"]
        if i not in shown:
            return code + "!missed"
        read = shown[i]
        return read if read.rstrip("?") == code else f"{code}>{read}"

    where = group_of(pred)
    groups = sorted({where[i] for i in meld if i in where})
    return (f"{outcome:6s} [{' '.join(tile(i) for i in meld)}]  read as "
            + " ".join(f"[{' '.join(tile(i) for i in pred[g])}]" for g in groups))


def merged_at_edge(true: list[list[int]], pred: list[list[int]], outs: list[str], edge: set[int]) -> int:
    """How many of the merged melds hold nothing but their own tiles and boxes cut by the photo's edge on no label."""
    where = group_of(pred)
    return sum(1 for meld, o in zip(true, outs)
               if o == "merged" and set(pred[where[meld[0]]]) - set(meld) <= edge)


def scene(meta: dict, min_visible: float) -> tuple[list, list[list[int]], list[dict]]:
    tiles = [t for t in meta["tiles"] if not t["face_down"] and t.get("visible", 1.0) >= min_visible]
    boxes = [t["box"] for t in tiles]
    melds: dict = {}
    for i, t in enumerate(tiles):
        key = ("meld", t["meld"]) if t["meld"] is not None else ("stray", i)
        melds.setdefault(key, []).append(i)
    return boxes, list(melds.values()), tiles


def report(name: str, rows: list[tuple[int, str]], photos: list[bool]) -> None:
    def line(label: str, outs: list[str]) -> str:
        c = Counter(outs)
        n = max(len(outs), 1)
        return (f"  {label:<14} {len(outs):5d}  exact {100 * c['exact'] / n:5.1f}%  merged {c['merged']:4d}"
                f"  split {c['split']:4d}" + (f"  missed {c['missed']:4d}" if c["missed"] else ""))
    print(f"{name}: {len(photos)} photos, all melds exact on {100 * sum(photos) / max(len(photos), 1):.1f}%")
    print(line("all melds", [o for _, o in rows]))
    print(line("3+ tiles", [o for k, o in rows if k >= 3]))
    print(line("1-2 tiles", [o for k, o in rows if k <= 2]))
    print(line("strays (1)", [o for k, o in rows if k == 1]))


def draw(img_path: Path, boxes, true, pred, out: Path, quarters: int = 0) -> None:
    from PIL import Image, ImageDraw

    im = Image.open(img_path).convert("RGB").rotate(-90 * quarters, expand=True)  # PIL turns counter-clockwise
    d = ImageDraw.Draw(im)
    rng = np.random.default_rng(0)
    for meld in true:
        col = tuple(int(v) for v in rng.integers(60, 255, 3))
        for i in meld:
            d.rectangle(boxes[i], outline=col, width=3)
    for g, members in enumerate(pred):
        members = [i for i in members if i < len(boxes)]  # (--read) a box no label matches is not drawn
        if not members:
            continue
        xs = [boxes[i][0] for i in members] + [boxes[i][2] for i in members]
        ys = [boxes[i][1] for i in members] + [boxes[i][3] for i in members]
        d.rectangle((min(xs) - 4, min(ys) - 4, max(xs) + 4, max(ys) + 4), outline=(255, 255, 255), width=1)
        d.text((min(xs), min(ys) - 14), str(g), fill=(255, 255, 255))
    im.save(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=120)
    ap.add_argument("--seed", type=int, default=9090)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--dir", default=None, help="render here (reused when it already holds the set)")
    ap.add_argument("--min-visible", type=float, default=0.5)
    ap.add_argument("--draw", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rules", action="store_true", help="the rules cut groups at their wider gaps (labelled codes)")
    ap.add_argument("--read", action="store_true", help="the whole reader: its tiles, reading and melds")
    ap.add_argument("--list", action="store_true", help="(with --read) print each meld not read exactly")
    ap.add_argument("--turn", action="store_true",
                    help="each photo turned a quarter, clockwise and counter-clockwise in turn, its labels with it")
    args = ap.parse_args()
    if args.list and not args.read:
        sys.exit("--list needs --read")
    if args.seed in TRAIN_SEEDS:
        sys.exit(f"seed {args.seed} is a training seed: pick another")
    tmp = None
    root = Path(args.dir) if args.dir else Path(tmp := tempfile.mkdtemp(prefix="bench_layout_"))
    metas = sorted((root / "meta" / "val").glob(f"table_{args.seed}_*.json"))
    if len(metas) < args.n:
        from datasets.synth.writer import write_dataset

        write_dataset(root, args.n, seed=args.seed, size=args.size, kind="table", split="val", crops=False,
                      workers=args.workers, progress=False)
        metas = sorted((root / "meta" / "val").glob(f"table_{args.seed}_*.json"))
    metas = metas[: args.n]
    if args.read:
        from vision.reader import Reader

        reader = Reader()
    rows_all, rows_slant, ph_all, ph_slant = [], [], [], []
    drawn = at_edge = 0
    for k, path in enumerate(metas):
        meta = json.loads(path.read_text())
        quarters = (1 if k % 2 == 0 else 3) if args.turn else 0
        meta = turned_meta(meta, quarters)
        boxes, true, tiles = scene(meta, 0.0 if args.read else args.min_visible)
        rules = HouseRules(twist=bool(meta.get("twist")))  # a family with a Twist box plays with its rule on
        if not boxes:
            continue
        if args.read:
            photo = load_image(root / "images" / "val" / meta["image"])
            pred, edge, shown = read_groups(reader, turned(photo, quarters), tiles, rules)
        elif args.rules:
            groups, cuts, wide = melds_with_cuts(boxes)
            as_labelled = codes_meld([t["code"] for t in tiles], rules)
            pred = part_at_joint(split_by_rules(groups, cuts, as_labelled, wide), boxes, as_labelled)
        else:
            pred = group_melds(boxes)
        outs = score(true, pred)
        if args.read:
            at_edge += merged_at_edge(true, pred, outs, edge)
            if args.list:
                for meld, o in zip(true, outs):
                    if o != "exact":
                        print(f"{path.stem}: {describe(meld, o, pred, tiles, shown)}")
        rows = [(len(m), o) for m, o in zip(true, outs)]
        ok = all(o == "exact" for o in outs)
        rows_all += rows
        ph_all.append(ok)
        elev = elevation(tiles)
        if elev is not None and elev < SLANT_DEG:
            rows_slant += rows
            ph_slant.append(ok)
        if not ok and drawn < args.draw:
            out = Path(f"/tmp/layout_fail_{path.stem}.png")
            draw(root / "images" / "val" / meta["image"], boxes, true, pred, out, quarters)
            bad = [(len(m), o) for m, o in zip(true, outs) if o != "exact"]
            print(f"drew {out} (elev {elev:.0f}, wrong: {bad})" if elev else f"drew {out} (wrong: {bad})")
            drawn += 1
    report(f"table seed {args.seed}", rows_all, ph_all)
    if args.read:
        print(f"  of the merged, with nothing else but boxes cut by the photo's edge on no label: {at_edge}")
    report(f"slanted (elevation < {SLANT_DEG:.0f} deg)", rows_slant, ph_slant)
    if tmp:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
