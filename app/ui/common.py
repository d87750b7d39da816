"""What every page shares: the context (store, house rules, language), the model, tile formatting
and the photo widget (upload or camera, read, draw, correct any tile)."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import streamlit as st

from app.i18n import tr as _tr
from app.store import Store
from app.ui.photo import UPLOAD_TYPES, PhotoResult, annotated, load_tile_model, read_photo
from engine.rules import HouseRules
from engine.sets import analyse_set
from engine.tiles import ALL_CODES, NotationError, Tile, parse_melds, parse_tiles
from vision.types import PhotoReading

log = logging.getLogger("rummi.app")

MAX_UPLOAD_MB = 50


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
    """Load the model in the background when the app starts, so the first photo doesn't wait."""

    def work() -> None:
        try:
            import vision.annotate  # noqa: F401  (supervision, OpenCV: slow first imports)
            import vision.load  # noqa: F401
            import vision.reader  # noqa: F401

            load_tile_model()  # not tile_model(): no Streamlit calls outside the script thread
        except Exception as exc:  # missing model: reported when a photo is read
            log.info("model not loaded at start: %s", exc)

    thread = threading.Thread(target=work, name="rummi-model-warm-up", daemon=True)
    thread.start()
    return thread


def warm_up() -> None:
    _warm_up()


def make_reader(rules: HouseRules) -> Any:
    from vision.reader import Reader

    return Reader(model=tile_model(), rules=rules)


# --------------------------------------------------------------------------- tiles as text

_TILE_COLOURS = {"R": "red", "B": "blue", "O": "orange", "J": "violet"}


def tile_md(code: str) -> str:
    """One tile as coloured markdown (black tiles in the text colour)."""
    colour = _TILE_COLOURS.get(code[:1])
    return f"**:{colour}[{code}]**" if colour else f"**{code}**"


def tiles_md(codes: Iterable[str]) -> str:
    return " ".join(tile_md(c) for c in codes) or "–"


def codes_of(tiles: Iterable[Tile]) -> list[str]:
    return [t.code for t in tiles]


def parse_table_text(text: str) -> list[list[Tile]]:
    """Typed melds (``R1 R2 R3 | K5 B5 O5``, or one meld a line; blank lines and a ``|`` at the
    end of a line are fine)."""
    lines = [line.strip().strip("|").strip() for line in text.splitlines()]
    return parse_melds(" | ".join(line for line in lines if line))


def parse_rack_text(text: str) -> list[Tile]:
    return parse_tiles(text)


VALID_ICON = ":green[:material/check_circle:]"
INVALID_ICON = ":red[:material/cancel:]"


def meld_lines(ctx: Ctx, melds: Sequence[Sequence[str]]) -> list[tuple[bool, str]]:
    """(valid, markdown line) for each meld: kind and value, or why it is not valid."""
    lines = []
    for k, codes in enumerate(melds, start=1):
        check = analyse_set([Tile.parse(c) for c in codes], ctx.rules)
        if check.valid:
            verdict = ctx.t("meld_valid", kind=ctx.t(check.kind or "run"), value=check.value)
            lines.append((True, f"{VALID_ICON} {ctx.t('meld_n', n=k)} — {tiles_md(codes)} — {verdict}"))
        else:
            why = f"{ctx.t('meld_invalid')}: {check.reason}"
            lines.append((False, f"{INVALID_ICON} {ctx.t('meld_n', n=k)} — {tiles_md(codes)} — :red[{why}]"))
    return lines


# --------------------------------------------------------------------------- the photo widget


@dataclass
class PhotoState:
    """A photo read on a page, with the person's corrections (kept in the session)."""

    file_id: str
    result: PhotoResult | None = None
    error: str | None = None
    corrections: dict[int, str] = field(default_factory=dict)
    reading: PhotoReading | None = None  # corrected and checked with ``rules``
    rules: HouseRules | None = None
    picture: Any = None  # the annotated screen copy for ``reading``
    reading_id: int | None = None  # the row in the store

    def refresh(self, rules: HouseRules) -> None:
        """Re-check the reading (corrections applied) with ``rules`` and redraw it."""
        from vision.reader import recheck

        assert self.result is not None
        self.reading = recheck(self.result.reading, self.corrections, rules)
        self.rules = rules
        self.picture = annotated(self.result, self.reading)


def _photo_key(key: str) -> str:
    return f"photo_{key}"


def photo_state(key: str) -> PhotoState | None:
    return st.session_state.get(_photo_key(key))


def clear_photo(key: str) -> None:
    st.session_state.pop(_photo_key(key), None)
    st.session_state.pop(f"{key}_fix_tile", None)


def _process(ctx: Ctx, key: str, file: Any, rack: bool, known: Sequence[str]) -> PhotoState:
    from vision.errors import ImageError, ModelMissing

    state = PhotoState(file_id=str(getattr(file, "file_id", "") or id(file)))
    try:
        data = file.getvalue()
        with st.spinner(ctx.t("reading_photo")):
            state.result = read_photo(data, file.name, make_reader(ctx.rules), rack=rack, known=known)
        state.refresh(ctx.rules)
    except ImageError as exc:
        state.error = ctx.t("bad_photo", error=str(exc))
    except ModelMissing as exc:
        state.error = ctx.t("no_model", error=str(exc))
    except MemoryError:
        state.error = ctx.t("bad_photo", error=ctx.t("photo_too_big"))
    except Exception as exc:  # a bug in reading: say so once, keep the app (and the page) working
        log.exception("reading %s failed", getattr(file, "name", "the photo"))
        state.error = ctx.t("unexpected_error", error=f"{type(exc).__name__}: {exc}")
    if state.result is not None and state.reading is not None:
        try:
            state.reading_id = ctx.store.save_reading(
                state.reading.to_json(), kind="rack" if rack else "table", photo=file.name
            )
        except Exception as exc:  # the reading is still shown; keeping it is a bonus
            log.warning("could not store the reading: %s", exc)
    return state


def photo_input(ctx: Ctx, key: str, rack: bool, known: Sequence[str] = ()) -> PhotoState | None:
    """Upload (or take) a photo, read it, show it annotated, let any tile be corrected.

    Returns the photo's state (``reading`` is the corrected reading) or None without a photo.
    """
    source = st.radio(
        ctx.t("photo_source"),
        ["upload", "camera"],
        format_func=lambda s: ctx.t(f"photo_{s}"),
        horizontal=True,
        key=f"{key}_photo_source",
        label_visibility="collapsed",
    )
    if source == "camera":
        file = st.camera_input(ctx.t("take_photo"), key=f"{key}_camera", resolution="1080p")
    else:
        file = st.file_uploader(
            ctx.t("upload_photo"),
            type=UPLOAD_TYPES,
            key=f"{key}_upload",
            max_upload_size=MAX_UPLOAD_MB,
            help=ctx.t("upload_help"),
        )
    state = photo_state(key)
    if file is None:
        # The uploader forgets its file when the page is left; the reading is kept until the
        # person clears it or reads another photo.
        if state is None or state.error is not None or state.result is None:
            return None
        cols = st.columns([4, 1])
        cols[0].caption(ctx.t("previous_photo", name=state.result.name))
        cols[1].button(ctx.t("clear_photo"), key=f"{key}_clear", on_click=clear_photo, args=(key,))
    elif state is None or state.file_id != str(getattr(file, "file_id", "") or id(file)):
        state = _process(ctx, key, file, rack, known)
        st.session_state[_photo_key(key)] = state
        st.session_state.pop(f"{key}_fix_tile", None)
    if state.error:
        st.error(state.error)
        return None
    if state.rules != ctx.rules:
        state.refresh(ctx.rules)
    show_reading(ctx, key, state)
    return state


def _tile_label(ctx: Ctx, reading: PhotoReading, i: int, state: PhotoState) -> str:
    t = reading.tiles[i]
    mark = f" ✎ {ctx.t('corrected')}" if i in state.corrections else (f" ⚠ {ctx.t('check_it')}" if t.doubtful else "")
    where = f" · {ctx.t('meld_n', n=t.meld + 1)}" if t.meld is not None else ""
    return f"#{i + 1}: {t.code} ({t.confidence:.0%}){where}{mark}"


def show_reading(ctx: Ctx, key: str, state: PhotoState) -> None:
    reading = state.reading
    assert reading is not None and state.result is not None
    st.image(
        state.picture, caption=ctx.t("photo_caption", name=state.result.name, n=len(reading.tiles)),
        output_format="JPEG", width="stretch",
    )
    if not reading.tiles:
        st.warning(ctx.t("no_tiles"))
        return
    doubtful = [i for i, t in enumerate(reading.tiles) if t.doubtful]
    notes = list(reading.warnings)
    if doubtful:
        notes.insert(0, ctx.t("doubtful_tiles", tiles=", ".join(_tile_label(ctx, reading, i, state) for i in doubtful)))
    if notes:  # one box, a line each
        st.warning("\n".join(f"- {_md_escape(n)}" for n in notes))
    with st.expander(ctx.t("correct_tiles"), expanded=bool(doubtful)):
        n = len(reading.tiles)
        cols = st.columns([3, 2, 2])
        index = cols[0].selectbox(
            ctx.t("which_tile"),
            list(range(n)),
            format_func=lambda i: _tile_label(ctx, reading, i, state),
            index=doubtful[0] if doubtful else 0,
            key=f"{key}_fix_tile",
        )
        current = reading.tiles[index].code
        options = list(ALL_CODES)
        code = cols[1].selectbox(
            ctx.t("right_code"), options, index=options.index(current) if current in options else 0,
            key=_code_key(key, state, index),
        )
        cols[2].button(
            ctx.t("apply_correction"), key=f"{key}_fix_apply", on_click=_apply_correction,
            args=(ctx, key, index, code), width="stretch",
        )
        if state.corrections:
            st.caption(ctx.t("corrections_made", n=len(state.corrections)))
            st.button(ctx.t("undo_corrections"), key=f"{key}_fix_undo", on_click=_undo_corrections, args=(ctx, key))


def _md_escape(text: str) -> str:
    """Plain text safe inside markdown (no emphasis, links or colour directives)."""
    return "".join("\\" + c if c in "\\`*_[]<>" else c for c in text)


def _code_key(key: str, state: PhotoState, index: int) -> str:
    """The code selectbox of one tile of one photo (a new photo starts from its own reading)."""
    return f"{key}_fix_code_{abs(hash(state.file_id)) % 10**8}_{index}"


def _apply_correction(ctx: Ctx, key: str, index: int, code: str) -> None:
    state = photo_state(key)
    if state is None or state.result is None:
        return
    # the selectbox's value at click time (the args were bound at the previous run)
    code = st.session_state.get(_code_key(key, state, index), code)
    state.corrections[int(index)] = code
    state.refresh(ctx.rules)
    _store_reading(ctx, state)


def _undo_corrections(ctx: Ctx, key: str) -> None:
    state = photo_state(key)
    if state is None or state.result is None:
        return
    state.corrections.clear()
    for k in [k for k in st.session_state if isinstance(k, str) and k.startswith(f"{key}_fix_code_")]:
        del st.session_state[k]  # the code boxes show the photo's own reading again
    state.refresh(ctx.rules)
    _store_reading(ctx, state)


def _store_reading(ctx: Ctx, state: PhotoState) -> None:
    if state.reading_id is None or state.reading is None:
        return
    try:
        ctx.store.update_reading(state.reading_id, state.reading.to_json())
    except Exception as exc:
        log.warning("could not store the corrected reading: %s", exc)


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
        st.error(ctx.t("typo", error=str(exc)))
    except ValueError as exc:
        st.error(str(exc))
    return None
