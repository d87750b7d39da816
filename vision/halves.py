"""A tile found as two boxes, one round each digit of its number, joined into one box.

On an edition whose digits fill the face, a detector that never saw it can box the two digits of a 10-13 apart,
each box a little over half a tile wide, side by side, and each is read surely as a number of its own (a "1" and
a "3"): the tile is missed and two tiles that are not there are read. Two boxes lying closer than two tiles can
(``vision.layout.close_pairs``), whatever each is read as, that together span about one tile width along their
row are looked at as one box round both; where the classifier reads that box as a 10-13, the two are one tile,
and its box is theirs joined. A tile found twice is no such pair: two boxes round one centre, or the second box
half a tile on (the two span one and a half tiles, and their joined box would hold half of the next tile's
number). The join is the boxes' guess, not a reading: the reader shows a joined tile as doubtful
(``vision.types.JOINED``).

Where the rows' spacing is measured on such halves (a rack seen from low down, every 10-13 of it boxed digit by
digit), the two lie "a tile" apart and are not joined; each is read surely as a number of its own, the 1 of a 13
as a 1 and its 3 as a 3. The number recogniser reads printed text: two boxes side by side taken together as one
line (``one_number``) read as a 10-13 where they hold one tile's two digits, and seldom where they hold two tiles
(their joint and the tiles' margins lie between): both are then doubtful, as a box round part of its tile's number
is (``vision.types.PARTIAL``). The classifier, which learnt one tile at a time, reads two tiles side by side as a
10-13 more often than not, so it can not be the test there.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from .fusion import number_marginal
from .layout import close_pairs

TENS = (9, 10, 11, 12)  # the number columns of the 10-13 (the classifier's numbers' and the recogniser's)
SURE_TENS = 0.5  # the joined box's 10-13 (summed over colours) at least this likely
MAX_SPAN = 1.25  # two halves span at most this many tile widths along their row (``ClosePair.span``)
# ... and lie at least this many tile widths apart, centre to centre (``ClosePair.apart``): two boxes on one tile,
# about the same centre, are that tile found twice (its box and one taking in what lies by it)
MIN_APART = 0.3


def _spans(boxes: np.ndarray, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """(len(pairs), 4): the box round each pair of ``boxes`` (N, 4) together."""
    return np.array([np.concatenate([np.minimum(boxes[a, :2], boxes[b, :2]), np.maximum(boxes[a, 2:], boxes[b, 2:])])
                     for a, b in pairs]).reshape(-1, 4)


def join_halves(boxes: np.ndarray,
                classify: Callable[[np.ndarray], np.ndarray]) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray]:
    """The pairs of boxes that are one tile's two digits, each pair's joined box and the classifier's reading of it.

    boxes: (N, 4) x1 y1 x2 y2; classify: the classifier on (M, 4) boxes of the same photo, (M, codes). Returns
    (pairs, joined boxes (P, 4), their probabilities (P, codes), or (0, 0) where no pair was looked at); each box
    is in one pair at most, the closest pairs first.
    """
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    used: set[int] = set()
    candidates: list[tuple[int, int]] = []
    for pair in close_pairs(boxes):
        a, b = pair.a, pair.b
        if a in used or b in used or pair.span > MAX_SPAN or pair.apart < MIN_APART:
            continue
        used.update((a, b))
        candidates.append((a, b))
    if not candidates:
        return [], np.zeros((0, 4)), np.zeros((0, 0))
    joined = _spans(boxes, candidates)
    joined_probs = np.asarray(classify(joined), dtype=np.float64).reshape(len(joined), -1)
    keep = [k for k, tens in enumerate(number_marginal(joined_probs)[:, list(TENS)].sum(1)) if tens >= SURE_TENS]
    return [candidates[k] for k in keep], joined[keep].reshape(-1, 4), joined_probs[keep]


def one_number(boxes: np.ndarray, pairs: Sequence[tuple[int, int]],
               read_spans: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """(N,) bool: the boxes of ``pairs`` (two boxes side by side along a row, ``vision.layout.row_neighbours``) whose
    two boxes taken together read as one 10-13 (at least ``SURE_TENS``, summed over the four) to the number
    recogniser. read_spans: the recogniser on (M, 4) boxes of the same photo, (M, 14) (``NumberReader.read_spans``)."""
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    out = np.zeros(len(boxes), dtype=bool)
    if not len(pairs):
        return out
    spans = _spans(boxes, pairs)
    read = np.asarray(read_spans(spans), dtype=np.float64).reshape(len(spans), -1)
    for (a, b), tens in zip(pairs, read[:, list(TENS)].sum(1)):
        if tens >= SURE_TENS:
            out[[a, b]] = True
    return out
