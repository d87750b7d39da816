"""A contact sheet: a grid of renders with their labels drawn, to judge realism at a glance."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .generate import synth_one

KIND_CYCLE = ("table", "rack", "loose", "mix", "table", "loose", "table", "rack", "mix", "table", "loose", "empty")


def contact_sheet(out: str | Path, seed: int = 0, n: int = 12, cols: int = 4, size: int = 1024, cell: int = 360, kind: str = "cycle",
                  styles: str = "train") -> Path:
    """``styles``: the side of the style split to draw the tiles from (``"train"``, ``"calib"`` or ``"heldout"``)."""
    cells = []
    for i in range(n):
        k = KIND_CYCLE[i % len(KIND_CYCLE)] if kind == "cycle" else kind
        r = synth_one(seed, i, k, size, styles=styles)
        img = r.rgb.copy()
        lw = max(1, img.shape[1] // 500)
        for t in r.labels:
            x1, y1, x2, y2 = (int(v) for v in t.box)
            cv2.rectangle(img, (x1, y1), (x2, y2), (40, 230, 40), lw)
            cv2.putText(img, t.code, (x1, max(10, y1 - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * lw, (255, 0, 255), lw)
        for f in r.face_down:
            x1, y1, x2, y2 = (int(v) for v in f["box"])
            cv2.rectangle(img, (x1, y1), (x2, y2), (120, 120, 120), lw)
        h, w = img.shape[:2]
        s = cell / max(h, w)
        img = cv2.resize(img, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
        canvas = np.full((cell, cell, 3), 255, np.uint8)
        canvas[: img.shape[0], : img.shape[1]] = img
        cv2.putText(canvas, f"{k} #{i}", (6, cell - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 2)
        cells.append(canvas)
    while len(cells) % cols:
        cells.append(np.full((cell, cell, 3), 255, np.uint8))
    rows = [np.concatenate(cells[i : i + cols], 1) for i in range(0, len(cells), cols)]
    sheet = np.concatenate(rows, 0)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR))
    return out
