"""Fonts for the numbers: several heavy sans-serifs installed from Debian packages (see run.sh)."""

from __future__ import annotations

import functools
import glob
import os

# Heavy, mostly rounded sans-serifs close to the game's numerals. Order does not matter.
PREFERRED = (
    "Comfortaa-Bold", "Quicksand-Bold", "LiberationSans-Bold", "DejaVuSans-Bold", "Roboto-Bold",
    "Roboto-Black", "RobotoCondensed-Bold", "OpenSans-Bold", "OpenSans-ExtraBold", "NotoSans-Bold",
    "FreeSansBold", "Lato-Bold", "Lato-Black", "Cantarell-Bold", "Cantarell-ExtraBold", "Lato-Heavy",
)
SEARCH_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", os.path.expanduser("~/.fonts"))


class NoFonts(RuntimeError):
    pass


@functools.lru_cache(maxsize=1)
def number_fonts() -> tuple[str, ...]:
    """Paths of the heavy fonts found on this machine, sorted for determinism."""
    found: dict[str, str] = {}
    for d in SEARCH_DIRS:
        for path in glob.glob(os.path.join(d, "**", "*.[ot]tf"), recursive=True):
            stem = os.path.splitext(os.path.basename(path))[0]
            if stem in PREFERRED and stem not in found:
                found[stem] = path
    if len(found) < 2:
        raise NoFonts(
            "the synthetic renders need at least two heavy fonts; install Debian's fonts-dejavu "
            "fonts-liberation fonts-roboto (./run.sh setup does it)"
        )
    return tuple(found[k] for k in sorted(found))


@functools.lru_cache(maxsize=1)
def mark_font() -> str:
    """A serif-ish font for the small embossed maker's mark."""
    for d in SEARCH_DIRS:
        for name in ("LiberationSerif-Bold.ttf", "DejaVuSerif-Bold.ttf", "FreeSerifBold.ttf"):
            hits = glob.glob(os.path.join(d, "**", name), recursive=True)
            if hits:
                return sorted(hits)[0]
    return number_fonts()[0]
