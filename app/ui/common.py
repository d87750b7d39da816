"""What every page shares: the context (store, house rules, language), the model, tile formatting,
meld lines in the page's language, and whether the page is on a phone. (The photo widget is
``app.ui.fix_photo``.)"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import streamlit as st

from app.i18n import LRI, PDI, RTL, error_text, reason_text
from app.i18n import tr as _tr
from app.store import Store
from app.ui.photo import load_tile_model
from engine.reasons import Reason
from engine.rules import HouseRules
from engine.sets import SetCheck, analyse_set
from engine.tiles import ALL_CODES, TWIST_CODES, NotationError, Tile, parse_melds, parse_tile, parse_tiles
from vision.types import PhotoReading

log = logging.getLogger("rummi.app")


@dataclass
class Ctx:
    """One script run's context: the database, the house rules and the language."""

    store: Store
    rules: HouseRules
    lang: str

    def t(self, key: str, **kw: Any) -> str:
        return _tr(key, self.lang, **kw)


# --------------------------------------------------------------------------- the model


@st.cache_resource(show_spinner=False)
def tile_model() -> Any:
    """The tile model, loaded once per server (vision.errors.ModelMissing is not cached)."""
    return load_tile_model()


@st.cache_resource(show_spinner=False)
def _warm_up() -> threading.Thread:
    """Start getting the first photo ready when the app's first page renders: load the model and
    read (and draw) one made-up photo, so that the slow first imports, the weights and torch's
    first inference are behind us before anyone has taken a photo."""

    def work() -> None:
        try:
            warm_up_reading()
        except Exception as exc:  # missing model: reported when a photo is read
            log.info("model not warmed up at start: %s", exc)

    thread = threading.Thread(target=work, name="rummi-model-warm-up", daemon=True)
    thread.start()
    return thread


def warm_up_reading() -> float:
    """Read and draw a made-up photo the way a real one is (no Streamlit calls: it runs in a
    thread); returns the seconds it took."""
    import io
    import time

    import numpy as np
    from PIL import Image

    from app.ui.photo import annotated, read_photo
    from vision.reader import Reader

    t0 = time.perf_counter()
    model = load_tile_model()  # not tile_model(): no Streamlit calls outside the script thread
    rgb = np.full((1200, 1600, 3), 90, np.uint8)
    rgb[500:620, 700:780] = 235  # something tile-like, so that every stage has work to do
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="JPEG", quality=85)
    reader = Reader(model=model)
    # twice: the detector moves to its faster runtime on a process's second photo (vision.model), and that
    # move costs more than a photo's reading; made here, not on the first photo someone takes
    for _ in range(2):
        result = read_photo(buf.getvalue(), "warm-up.jpg", reader)
    annotated(result)
    if hasattr(model, "classify"):  # a blank photo may have no tiles: run the classifier anyway
        model.classify(rgb, np.array([[700.0, 500.0, 780.0, 620.0]]))
    return time.perf_counter() - t0


def warm_up() -> None:
    _warm_up()


def make_reader(rules: HouseRules) -> Any:
    from vision.reader import Reader

    _warm_up().join(timeout=60)  # a photo taken during the warm-up waits for it, not loads twice
    return Reader(model=tile_model(), rules=rules)


# --------------------------------------------------------------------------- tiles as text

_TILE_COLOURS = {"R": "red", "B": "blue", "O": "orange", "J": "violet"}


def tile_md(code: str) -> str:
    """One tile as coloured markdown (black tiles in the text colour)."""
    colour = _TILE_COLOURS.get(code[:1])
    return f"**:{colour}[{code}]**" if colour else f"**{code}**"


def tiles_md(codes: Iterable[str], lang: str = "en") -> str:
    """Tiles as coloured markdown; on a right-to-left page kept left to right as a whole (the
    spaces let the bold marks next to the direction marks count as bold)."""
    text = " ".join(tile_md(c) for c in codes)
    if not text:
        return "–"
    return f"{LRI} {text} {PDI}" if lang in RTL else text


def _md_plain(text: str) -> str:
    """Plain text safe inside markdown (no emphasis, links or colour directives)."""
    return "".join("\\" + c if c in "\\`*_[]<>" else c for c in text)


def codes_of(tiles: Iterable[Tile]) -> list[str]:
    return [t.code for t in tiles]


def parse_table_text(text: str, twist: bool = False) -> list[list[Tile]]:
    """Typed melds (``R1 R2 R3 | K5 B5 O5``, or one meld a line; blank lines and a ``|`` at the
    end of a line are fine); the Rummikub Twist jokers ``JD`` ``JM`` ``JC`` only with ``twist``."""
    lines = [line.strip().strip("|").strip() for line in text.splitlines()]
    return parse_melds(" | ".join(line for line in lines if line), twist=twist)


def parse_rack_text(text: str, twist: bool = False) -> list[Tile]:
    return parse_tiles(text, twist=twist)


def tiles_of(codes: Iterable[str]) -> list[Tile]:
    """Tiles from codes the app already read (a checked table, a photo's reading): the special
    jokers are read whatever the rules say, and the rules' verdict on them (``twist_off``) comes
    from the engine's checks, so a table kept from before the Twist rule was turned off is
    explained, never a traceback."""
    return [parse_tile(c, twist=True) for c in codes]


def tile_codes(rules: HouseRules) -> list[str]:
    """The codes a tile can be changed to: the base game's 53, and the Twist jokers with the rule."""
    return list(ALL_CODES) + (list(TWIST_CODES) if rules.twist else [])


def twist_off_reason(codes: Iterable[str], rules: HouseRules) -> Reason | None:
    """The engine's ``twist_off`` reason for the first special joker among ``codes`` when the
    Twist rule is off (None when there is none, or the rule is on)."""
    if rules.twist:
        return None
    special = next((c for c in codes if c in TWIST_CODES), None)
    return None if special is None else Reason("twist_off", {"tile": special})


def stands_lines(ctx: Ctx, check: SetCheck) -> list[str]:
    """What each special joker of a valid meld stands for, in the page's language
    (``double joker = R3 R4``; other readings after "or"); the mirror joker stands for nothing."""
    lines = []
    for pos in sorted(check.stands):
        joker = check.tiles[pos]
        if not joker.is_special or not check.stands[pos]:
            continue
        first, *others = [[t.code for t in r] for r in check.stands[pos]]
        name = ctx.t(f"special_{joker.special}")
        line = ctx.t("special_stands", name=name, tiles=tiles_md(first, ctx.lang))
        if others:
            line += " " + ctx.t("or_maybe", codes=" / ".join(" ".join(r) for r in others))
        lines.append(line)
    return lines


VALID_ICON = ":green[:material/check_circle:]"
INVALID_ICON = ":red[:material/cancel:]"


def meld_lines(ctx: Ctx, melds: Sequence[Sequence[str]]) -> list[tuple[bool, str]]:
    """(valid, markdown line) for each meld: kind and value, or why it is not valid."""
    lines = []
    for k, codes in enumerate(melds, start=1):
        check = analyse_set(tiles_of(codes), ctx.rules)
        if check.valid:
            verdict = ctx.t("meld_valid", kind=ctx.t(check.kind or "run"), value=check.value)
            stands = stands_lines(ctx, check)
            if stands:
                verdict += " (" + "; ".join(stands) + ")"
            lines.append((True, f"{VALID_ICON} {ctx.t('meld_n', n=k)} — {tiles_md(codes, ctx.lang)} — {verdict}"))
        else:
            why = f"{ctx.t('meld_invalid')}: {_md_plain(reason_text(check.why, ctx.lang, check.reason))}"
            lines.append((False, f"{INVALID_ICON} {ctx.t('meld_n', n=k)} — {tiles_md(codes, ctx.lang)} — :red[{why}]"))
    return lines


# --------------------------------------------------------------------------- the device


PHONE_WORDS = ("Mobi", "Android", "iPhone", "iPad")


def is_phone() -> bool:
    """Is the page open on a phone or tablet (by the browser's User-Agent)? Outside a browser
    session (tests, bare mode) it is not."""
    try:
        agent = st.context.headers.get("User-Agent", "") or ""
    except Exception:  # no session: no headers
        return False
    return any(word in agent for word in PHONE_WORDS)


def reading_melds(reading: PhotoReading) -> tuple[list[list[str]], list[str]]:
    """The melds' codes, and the lone tiles (in no meld) of a table reading."""
    melds = [list(m.codes) for m in reading.melds]
    lone = [t.code for t in reading.tiles if t.meld is None]
    return melds, lone


def guarded(ctx: Ctx, func: Callable[[], Any]) -> Any:
    """Run ``func``; a ValueError becomes an st.error with its message (never a traceback)."""
    try:
        return func()
    except NotationError as exc:
        st.error(ctx.t("typo", error=error_text(exc, ctx.lang)))
    except ValueError as exc:
        st.error(error_text(exc, ctx.lang))
    return None
