"""Why a tile is doubtful: the reader's reasons, each a mask over the photo's tiles, judged in one place.

Every check the reader makes (the readers' disagreement, the rules, the box's place on the photo...) gives a
mask of the tiles it doubts. Some checks have a reason a person is told (a ``vision.types.DOUBT_TEXT`` code);
the others only make a tile doubtful (a low fused probability says nothing a person can act on). A tile is
doubtful when any mask holds it; its reason is the first named one that does, in the order the reasons are
given: the most telling first. Listing the reasons once, in order, keeps "doubtful" and "why" from drifting
apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from vision.types import DOUBT_TEXT


@dataclass(frozen=True)
class Reason:
    """One check's verdict on every tile: ``mask[t]`` where it doubts tile t; ``code``: the reason a person is
    told (a ``DOUBT_TEXT`` code), or None for a doubt with no reason of its own."""

    code: str | None
    mask: np.ndarray

    def __post_init__(self) -> None:
        if self.code is not None and self.code not in DOUBT_TEXT:
            raise ValueError(f"unknown doubt reason {self.code!r}: use one of {sorted(DOUBT_TEXT)}")


def reason(code: str | None, mask: Sequence[bool] | np.ndarray) -> Reason:
    """A ``Reason`` with its mask as a flat bool array."""
    return Reason(code, np.asarray(mask, dtype=bool).reshape(-1))


def judge(n: int, reasons: Sequence[Reason]) -> tuple[list[bool], list[str | None]]:
    """For each of ``n`` tiles: whether it is doubtful, and the first named reason (in ``reasons``' order) that
    holds it, else None."""
    doubtful = np.zeros(n, dtype=bool)
    why: list[str | None] = [None] * n
    for r in reasons:
        if r.mask.shape != (n,):
            raise ValueError(f"doubt {r.code or 'unnamed'}: a mask of {r.mask.shape[0]} tiles for {n}")
        doubtful |= r.mask
        if r.code is not None:
            for t in np.flatnonzero(r.mask):
                if why[t] is None:
                    why[t] = r.code
    return doubtful.tolist(), why
