"""Fonts for the numbers: the heavy fonts of ``styles.FONT_CATALOGUE``, installed from Debian packages
(``./run.sh setup`` installs them; the package list there is ``styles.FONT_PACKAGES``)."""

from __future__ import annotations

import functools
import glob
import os

from .styles import FONT_CATALOGUE, FONT_STEMS

PREFERRED = FONT_STEMS  # every font the renders use, train and held out (bench/bench_unseen_font.py avoids them)
SEARCH_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/usr/share/texmf/fonts/opentype", os.path.expanduser("~/.fonts"))


class NoFonts(RuntimeError):
    pass


def find_fonts(stems: tuple[str, ...] = FONT_STEMS, dirs: tuple[str, ...] = SEARCH_DIRS) -> dict[str, str]:
    """Stem -> path of the TrueType/OpenType files found for ``stems`` (the first in sorted path order)."""
    wanted = set(stems)
    found: dict[str, str] = {}
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "**", "*.[ot]tf"), recursive=True)):
            stem = os.path.splitext(os.path.basename(path))[0]
            if stem in wanted and stem not in found:
                found[stem] = path
    return found


def check_fonts(found: dict[str, str], stems: tuple[str, ...] = FONT_STEMS) -> None:
    """Raise NoFonts naming the missing fonts and the Debian packages that hold them."""
    missing = [s for s in stems if s not in found]
    if missing:
        packages = sorted({pkg for stem, pkg, _ in FONT_CATALOGUE if stem in missing})
        raise NoFonts(
            f"the synthetic renders need {len(stems)} fonts and {len(missing)} are missing "
            f"({', '.join(missing[:8])}{', ...' if len(missing) > 8 else ''}); install the Debian packages "
            f"{' '.join(packages)} (`./run.sh setup` does it as root)"
        )


@functools.lru_cache(maxsize=1)
def number_fonts() -> tuple[str, ...]:
    """Paths of every catalogue font, in catalogue order (a style's ``font`` indexes this tuple).

    All are required: a machine missing one would draw other photos from the same seed."""
    found = find_fonts()
    check_fonts(found)
    return tuple(found[s] for s in FONT_STEMS)


@functools.lru_cache(maxsize=1)
def mark_font() -> str:
    """A serif-ish font for the small embossed maker's mark."""
    for d in SEARCH_DIRS:
        for name in ("LiberationSerif-Bold.ttf", "DejaVuSerif-Bold.ttf", "FreeSerifBold.ttf"):
            hits = glob.glob(os.path.join(d, "**", name), recursive=True)
            if hits:
                return sorted(hits)[0]
    return number_fonts()[0]
