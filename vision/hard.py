"""A photo the reader can hardly read: where it is sure of few of a photo's tiles, it is sure of none.

A tile's confidence is calibrated over many photos, most of them readable. On a photo the reader cannot read (a table
shot from its edge, a shaken phone, an edition whose digits it has never seen) most tiles come out doubtful, and the
one or two that clear the threshold are no clear reads among unclear ones: they are the tiles the hard photo fooled
both readers on alike. What made the photo hard (the slant, the blur, the font) is shared by all its tiles, as a
group's font is shared by its tiles (``vision.consistent.group_witness``), so their confidences are not independent
either. Where fewer than ``FEW_SURE_SHARE`` of a photo's tiles are sure, every tile not yet doubtful is doubtful
(``FEW_SURE``), and the reading says to take the photo again or check every tile (``FEW_SURE_WARNING``). A photo of
fewer than 1 / ``FEW_SURE_SHARE`` tiles is never held: one sure tile of a few is no sign of a hard photo.
"""

from __future__ import annotations

import dataclasses

from vision.types import FEW_SURE, PhotoReading

# Chosen on the calibration renders and the bench's views of them (models/HISTORY.md): below it the sure tiles were
# read wrong or lay on no tile many times as often as elsewhere; above it the tiles held were as right as the rest.
FEW_SURE_SHARE = 0.1
FEW_SURE_WARNING = (
    "the reader is sure of few of this photo's tiles, so it shows none as sure: the photo may be too slanted, "
    "shaken or blurred, or of an edition it does not know; take it again from above, or check each tile"
)


def few_sure(reading: PhotoReading, share: float = FEW_SURE_SHARE) -> bool:
    """Is the reader sure of fewer than ``share`` of the photo's tiles, and of at least one (none: nothing to hold)?"""
    sure = sum(not t.doubtful for t in reading.tiles)
    return 0 < sure < share * len(reading.tiles)


def held_few_sure(reading: PhotoReading, share: float = FEW_SURE_SHARE) -> PhotoReading:
    """``reading``, or where it is sure of few of its tiles (``few_sure``) every tile doubtful (the tiles not yet
    doubtful for the reason ``FEW_SURE``), with ``FEW_SURE_WARNING`` first among its warnings."""
    if not few_sure(reading, share):
        return reading
    tiles = [t if t.doubtful else dataclasses.replace(t, doubtful=True, doubt=FEW_SURE) for t in reading.tiles]
    return dataclasses.replace(reading, tiles=tiles, warnings=[FEW_SURE_WARNING, *reading.warnings])
