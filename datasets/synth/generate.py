"""One synthetic photo from (seed, index): the same pair always gives the same picture and labels."""

from __future__ import annotations

import numpy as np

from .backgrounds import RealSurfaces
from .layouts import KINDS, make_scene
from .photo import phone
from .render import Rendered, render
from .styles import StyleSet, style_set

MIX_WEIGHTS = {"table": 0.42, "rack": 0.18, "loose": 0.2, "mix": 0.16, "empty": 0.04}
# 12 MP phones: 4000x3000 and 4032x3024 (4:3), 4080x3072, 4624x2604 (16:9 crop); some 3:2 and square.
# Rendered at the plan's long side with these aspect ratios; 40% of the frames are portrait.
ASPECTS = ((4, 3), (4, 3), (4, 3), (4080, 3072), (16, 9), (4624, 2604), (1, 1), (3, 2))
# Photos of a Rummikub Twist box (its special jokers among the tiles; layouts.py): a minority, since most
# tables are the base game, but enough for the classifier to learn the three jokers' marks. Drawn from a
# stream of their own, so that every other photo is the one the same (seed, index) gave before the Twist.
TWIST_SHARE = 0.25
_TWIST_STREAM = 0x545749


def image_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng([seed, index, 0x52554D])


def twist_box(seed: int, index: int) -> bool:
    """Is photo ``index`` of the dataset ``seed`` drawn from a Rummikub Twist box?"""
    return bool(np.random.default_rng([seed, index, _TWIST_STREAM]).random() < TWIST_SHARE)


def pick_kind(kind: str, rng: np.random.Generator) -> str:
    if kind != "mix-all":
        return kind
    names = list(MIX_WEIGHTS)
    return names[int(rng.choice(len(names), p=list(MIX_WEIGHTS.values())))]


def frame(rng: np.random.Generator, size: int) -> tuple[int, int]:
    a, b = ASPECTS[int(rng.integers(len(ASPECTS)))]
    long_, short = size, int(round(size * b / a))
    return (long_, short) if rng.random() < 0.6 else (short, long_)


def synth_one(seed: int, index: int, kind: str = "mix-all", size: int = 1024, real: RealSurfaces | None = None,
              effects: bool = True, surface: str | None = None, styles: str | StyleSet = "train",
              twist: bool | None = None) -> Rendered:
    """Photo ``index`` of the dataset ``seed``. ``effects=False`` (tests) skips distractors, glare and
    camera effects; ``surface`` forces a plain table; ``styles`` is the side of the style split the tiles'
    looks are drawn from (``"train"`` or ``"heldout"``, see styles.py); ``twist`` forces a Twist box or the
    base game's (None: drawn, ``TWIST_SHARE`` of the photos)."""
    styles = style_set(styles)
    rng = image_rng(seed, index)
    k = pick_kind(kind, rng)
    if k not in KINDS:
        raise ValueError(f"unknown kind {kind!r}: use table, rack, loose, mix or empty")
    w, h = frame(rng, size)
    twist = twist_box(seed, index) if twist is None else twist
    scene = make_scene(k, rng, twist)
    out = render(scene, rng, w, h, real, surface=surface, distractors=effects, styles=styles)
    phone_seed = int(rng.integers(2**31 - 1))
    if effects:
        out.rgb = phone(out.rgb, phone_seed)
    out.meta["index"] = index
    out.meta["seed"] = seed
    out.meta["twist"] = twist
    return out


def sidecar(out: Rendered, image_name: str) -> dict:
    return {
        "image": image_name,
        "width": int(out.rgb.shape[1]),
        "height": int(out.rgb.shape[0]),
        "kind": out.meta.get("kind"),
        "view": out.meta.get("view"),
        "melds": out.meta.get("melds", []),
        "styles": out.meta.get("styles"),
        "edition": out.meta.get("edition"),
        "twist": out.meta.get("twist", False),
        "tiles": [
            {**vars(t), "box": [round(v, 1) for v in t.box], "face_down": False}  # JSON-ready as they are: no asdict deep copy
            for t in out.labels
        ]
        + [{"code": None, "true_code": f["code"], "box": f["box"], "face_down": True} for f in out.face_down],
    }
