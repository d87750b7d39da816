"""The photo widget every page shares: take or upload a photo, read it, show it annotated, and let
the person fix any misreading in a few taps.

Tap a tile on the photo to select it (``streamlit-image-coordinates`` reports the tap), then change
its code, delete it, or move it to another meld or a new one; tap an empty spot to add a tile
there. Doubtful tiles are listed first (and the list selects like a tap, for those who prefer it).
Every change is an edit (``app.ui.edits``) replayed over the model's reading, so the melds are
checked again at once and undo/redo is exact; the edits, the corrected reading and the photo are
kept in the store.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

import streamlit as st

from app.i18n import error_text, tr
from app.ui.common import Ctx, is_phone, make_reader, tile_codes
from app.ui.edits import (
    NEW_MELD,
    Add,
    Corrected,
    Delete,
    Edit,
    EditError,
    Move,
    Recode,
    apply_edits,
    edits_to_json,
    meld_near,
    new_tile_box,
    review_order,
    tile_at,
)
from app.ui.photo import UPLOAD_TYPES, PhotoResult, annotated, read_photo
from engine.rules import HouseRules
from engine.tiles import COPIES_PER_TILE, JOKERS_IN_SET, SPECIALS_IN_SET, TWIST_CODES
from vision.types import PhotoReading, colour_unread, few_read_surely

log = logging.getLogger("rummi.app")

MAX_UPLOAD_MB = 50
NO_MELD = -2  # the "move to" choice: out of every meld (a lone tile); NEW_MELD is -1

__all__ = ["PhotoState", "clear_photo", "photo_input", "photo_state"]


@dataclass
class PhotoState:
    """A photo read on a page and what the person did with it (kept in the session)."""

    file_id: str
    result: PhotoResult | None = None
    error: str | None = None
    data: bytes = b""  # the photo as uploaded: stored with the first correction
    edits: tuple[Edit, ...] = ()
    redo: tuple[Edit, ...] = ()  # undone edits, newest last (a new edit drops them)
    selected: int | None = None  # tile id
    pending: tuple[float, float, float, float] | None = None  # where a tile will be added (photo pixels)
    last_tap: Any = None  # the tap already handled (the component keeps reporting its last one)
    fixed: Corrected | None = None
    rules: HouseRules | None = None
    picture: Any = None  # the annotated screen copy
    reading_id: int | None = None
    photo_saved: bool = False
    notice: str | None = None  # a change that could not be made, said once

    @property
    def reading(self) -> PhotoReading | None:
        return None if self.fixed is None else self.fixed.reading

    def refresh(self, rules: HouseRules, lang: str = "en") -> None:
        """Replay the edits over the model's reading with ``rules`` and redraw (an edit the rules no
        longer allow, a Twist joker with the rule turned off, is kept and said once in ``lang``)."""
        assert self.result is not None
        try:
            self.fixed = apply_edits(self.result.reading, self.edits, rules)
        except EditError as exc:  # a Twist joker put in while the rule was on: kept, the melds say why
            self.fixed = apply_edits(self.result.reading, self.edits, rules, twist=True)
            why = str(exc) if exc.notation is None else error_text(exc.notation, lang)
            self.notice = tr("typo", lang, error=why)
        self.rules = rules
        if self.selected is not None and self.fixed.index_of(self.selected) is None:
            self.selected = None
        self.redraw()

    def redraw(self) -> None:
        assert self.result is not None and self.fixed is not None
        index = None if self.selected is None else self.fixed.index_of(self.selected)
        box = None if index is None else self.fixed.reading.tiles[index].box
        self.picture = annotated(self.result, self.fixed.reading, selected=box, pending=self.pending)


def _key(key: str) -> str:
    return f"photo_{key}"


def photo_state(key: str) -> PhotoState | None:
    return st.session_state.get(_key(key))


def clear_photo(key: str) -> None:
    st.session_state.pop(_key(key), None)
    st.session_state.pop(f"{key}_tap", None)


def _file_id(file: Any) -> str:
    return str(getattr(file, "file_id", "") or id(file))


# --------------------------------------------------------------------------- reading a photo


def _process(ctx: Ctx, file: Any, rack: bool, known: Sequence[str]) -> PhotoState:
    from vision.errors import ImageError, ModelMissing

    state = PhotoState(file_id=_file_id(file))
    try:
        state.data = file.getvalue()
        with st.spinner(ctx.t("reading_photo")):
            state.result = read_photo(state.data, file.name, make_reader(ctx.rules), rack=rack, known=known)
        state.refresh(ctx.rules, ctx.lang)
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
                state.reading.to_json(), kind="rack" if rack else "table", photo=file.name,
                original=state.result.reading.to_json(),
            )
        except Exception as exc:  # the reading is still shown; keeping it is a bonus
            log.warning("could not store the reading: %s", exc)
    return state


def photo_input(ctx: Ctx, key: str, rack: bool, known: Sequence[str] = ()) -> PhotoState | None:
    """Take or upload a photo, read it, show it annotated, let any misreading be fixed.

    Returns the photo's state (``reading`` is the corrected reading) or None without a photo.
    """
    sources = ["camera", "upload"] if is_phone() else ["upload", "camera"]  # the camera first on a phone
    if st.session_state.get(f"{key}_photo_source") not in sources:
        st.session_state.pop(f"{key}_photo_source", None)
    source = st.radio(
        ctx.t("photo_source"), sources, format_func=lambda s: ctx.t(f"photo_{s}"),
        horizontal=True, key=f"{key}_photo_source", label_visibility="collapsed",
    )
    if source == "camera":
        file = st.camera_input(ctx.t("take_photo"), key=f"{key}_camera", resolution="1080p")
    else:
        file = st.file_uploader(
            ctx.t("upload_photo"), type=UPLOAD_TYPES, key=f"{key}_upload", max_upload_size=MAX_UPLOAD_MB,
            help=ctx.t("upload_help"),
        )
    state = photo_state(key)
    if file is None:
        # The uploader forgets its file when the page is left; the reading (and the corrections)
        # are kept until the person clears them or reads another photo.
        if state is None or state.error is not None or state.result is None:
            return None
        cols = st.columns([3, 1], vertical_alignment="center")
        cols[0].caption(ctx.t("previous_photo", name=state.result.name))
        cols[1].button(ctx.t("clear_photo"), key=f"{key}_clear", on_click=clear_photo, args=(key,), width="stretch")
    elif state is None or state.file_id != _file_id(file):
        state = _process(ctx, file, rack, known)
        st.session_state[_key(key)] = state
        st.session_state.pop(f"{key}_tap", None)
    if state.error:
        st.error(state.error)
        return None
    if state.rules != ctx.rules:
        state.refresh(ctx.rules, ctx.lang)
    _take_tap(key, state)
    show_reading(ctx, key, state)
    return state


# --------------------------------------------------------------------------- taps


def _take_tap(key: str, state: PhotoState) -> None:
    """Turn the component's last tap, if new, into a selection (on a tile) or a spot to add a
    tile at (elsewhere). Done before the photo is drawn, so the mark shows at once."""
    tap = st.session_state.get(f"{key}_tap")
    if not isinstance(tap, dict) or state.fixed is None:
        return
    stamp = (tap.get("unix_time"), tap.get("x"), tap.get("y"))
    if stamp == state.last_tap:
        return
    state.last_tap = stamp
    try:
        reading = state.fixed.reading
        x = float(tap["x"]) / float(tap["width"]) * reading.width
        y = float(tap["y"]) / float(tap["height"]) * reading.height
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return  # not a tap we understand (nothing to lose: the person taps again)
    hit = tile_at(reading, x, y)
    if hit is not None:
        state.selected, state.pending = state.fixed.tile_ids[hit], None
    else:
        state.selected, state.pending = None, new_tile_box(reading, x, y)
    state.redraw()


def _select(key: str) -> None:
    """The tile list's choice, like a tap on that tile."""
    state = photo_state(key)
    if state is None or state.fixed is None:
        return
    value = st.session_state.get(f"{key}_pick")
    state.selected = value if isinstance(value, int) and value >= 0 else None
    state.pending = None
    state.redraw()


def _cancel(key: str) -> None:
    state = photo_state(key)
    if state is not None and state.fixed is not None:
        state.selected, state.pending = None, None
        state.redraw()


# --------------------------------------------------------------------------- edits


def _edit(ctx: Ctx, key: str, kind: str) -> None:
    """Make one change (the button's ``kind``) from the panel's current choices."""
    state = photo_state(key)
    if state is None or state.fixed is None or state.result is None:
        return
    ss = st.session_state
    edit: Edit
    if kind == "add":
        if state.pending is None:
            return
        meld = ss.get(f"{key}_add_meld")
        edit = Add(state.pending, str(ss.get(f"{key}_add_code", "J")), _meld_choice(meld))
    else:
        if state.selected is None:
            return
        if kind == "recode":
            edit = Recode(state.selected, str(ss.get(_code_key(key, state), "")))
        elif kind == "delete":
            edit = Delete(state.selected)
        else:
            edit = Move(state.selected, _meld_choice(ss.get(f"{key}_move_to")))
    if _apply(ctx, key, state, state.edits + (edit,), redo=()) and kind in ("add", "delete"):
        state.selected, state.pending = None, None  # done with that tile / spot
        state.redraw()


def _meld_choice(value: Any) -> int | None:
    if value is None or value == NO_MELD:
        return None
    return int(value)


def _undo(ctx: Ctx, key: str) -> None:
    state = photo_state(key)
    if state is None or not state.edits:
        return
    _apply(ctx, key, state, state.edits[:-1], redo=state.redo + state.edits[-1:])


def _redo(ctx: Ctx, key: str) -> None:
    state = photo_state(key)
    if state is None or not state.redo:
        return
    _apply(ctx, key, state, state.edits + state.redo[-1:], redo=state.redo[:-1])


def _apply(ctx: Ctx, key: str, state: PhotoState, edits: tuple[Edit, ...], redo: tuple[Edit, ...]) -> bool:
    """Make ``edits`` the photo's edits (False, with a notice, when they do not fit)."""
    assert state.result is not None
    try:
        fixed = apply_edits(state.result.reading, edits, ctx.rules)
    except EditError as exc:  # the page offered a change that no longer fits: say so, change nothing
        state.notice = ctx.t("typo", error=error_text(exc.notation, ctx.lang)) if exc.notation is not None else str(exc)
        return False
    state.edits, state.redo, state.fixed, state.rules = edits, redo, fixed, ctx.rules
    if state.selected is not None and fixed.index_of(state.selected) is None:
        state.selected = None
    state.redraw()
    _keep(ctx, state)
    return True


def _keep(ctx: Ctx, state: PhotoState) -> None:
    """The corrected reading, the edits and (with the first edit) the photo, into the store."""
    if state.reading_id is None or state.reading is None:
        return
    try:
        photo = state.data if state.edits and not state.photo_saved else None
        ctx.store.update_reading(
            state.reading_id, state.reading.to_json(), edits=edits_to_json(state.edits), photo_data=photo
        )
        state.photo_saved = state.photo_saved or photo is not None
    except Exception as exc:  # the corrections still count on the page
        log.warning("could not store the corrected reading: %s", exc)


# --------------------------------------------------------------------------- drawing the widget


def _code_key(key: str, state: PhotoState) -> str:
    """The code box of the selected tile: a new box for each tile and each change, so it always
    starts at the tile's current code."""
    return f"{key}_code_{state.selected}_{len(state.edits)}_{len(state.redo)}"


def tile_label(ctx: Ctx, state: PhotoState, index: int) -> str:
    assert state.fixed is not None
    t = state.fixed.reading.tiles[index]
    tile_id = state.fixed.tile_ids[index]
    if tile_id in state.fixed.edited:
        mark = f" ✎ {ctx.t('corrected')}"
    elif t.doubtful:
        mark = f" ⚠ {ctx.t('check_it')}"
    else:
        mark = ""
    where = f" · {ctx.t('meld_n', n=t.meld + 1)}" if t.meld is not None else ""
    return f"#{index + 1}: {t.code} ({t.confidence:.0%}){where}{mark}"


def _meld_label(ctx: Ctx, reading: PhotoReading, k: int) -> str:
    return f"{ctx.t('meld_n', n=k + 1)}: {' '.join(reading.melds[k].codes)}"


def show_reading(ctx: Ctx, key: str, state: PhotoState) -> None:
    reading = state.reading
    assert reading is not None and state.result is not None and state.fixed is not None
    from streamlit_image_coordinates import streamlit_image_coordinates

    zoom = st.session_state.get(f"{key}_zoom", False)
    # the tap target: fits the width, or (enlarged) at its own size, scrolled inside its frame
    streamlit_image_coordinates(
        state.picture, key=f"{key}_tap", width=None if zoom else "stretch",
        image_format="JPEG", jpeg_quality=80, cursor="crosshair",
    )
    cols = st.columns([3, 1], vertical_alignment="center")
    cols[0].caption(ctx.t("photo_caption", name=state.result.name, n=len(reading.tiles)) + " · " + ctx.t("tap_help"))
    cols[1].toggle(ctx.t("enlarge"), key=f"{key}_zoom")
    if state.notice:
        st.warning(state.notice)
        state.notice = None
    if not reading.tiles and state.pending is None and not state.edits:
        st.warning(ctx.t("no_tiles"))
    notes = _notes(ctx, state)
    if notes:  # one box, a line each: what to check first
        st.warning("\n".join(f"- {n}" for n in notes))
    _panel(ctx, key, state)


def _notes(ctx: Ctx, state: PhotoState) -> list[str]:
    """What to check, in the page's language: doubtful tiles (least sure first) and tiles read more
    often than a set has them."""
    assert state.fixed is not None
    reading = state.fixed.reading
    notes = []
    if colour_unread(reading.tiles):
        notes.append(ctx.t("no_colour"))
    if few_read_surely(reading.tiles):
        notes.append(ctx.t("few_sure"))
    doubtful = [i for i in review_order(reading) if reading.tiles[i].doubtful]
    if doubtful:
        notes.append(ctx.t("doubtful_tiles", tiles=", ".join(_doubt(ctx, reading, i) for i in doubtful)))
    for code, n in sorted(Counter(reading.codes()).items()):
        limit = JOKERS_IN_SET if code == "J" else SPECIALS_IN_SET if code in TWIST_CODES else COPIES_PER_TILE
        if n > limit:
            notes.append(ctx.t("too_many_copies", code=code, n=n, limit=limit))
    return notes


def _doubt(ctx: Ctx, reading: PhotoReading, i: int) -> str:
    t = reading.tiles[i]
    text = f"#{i + 1} **{t.code}** ({t.confidence:.0%})"
    others = [c for c, _ in t.alternatives if c != t.code][:2]
    if others:
        text += " " + ctx.t("or_maybe", codes=" / ".join(others))
    if t.doubt:  # the reader's own reason (vision.types.DOUBT_TEXT), e.g. a Twist joker
        text += " – " + ctx.t(f"doubt_{t.doubt}")
    return text


def _panel(ctx: Ctx, key: str, state: PhotoState) -> None:
    """Pick a tile (the list, doubtful ones first), then what to do with it; or add a tile at the
    tapped spot; undo and redo."""
    assert state.fixed is not None
    reading = state.fixed.reading
    rack = reading.rack
    with st.container(border=True):
        if reading.tiles:
            order = review_order(reading)
            ids = [state.fixed.tile_ids[i] for i in order]
            index_of = {state.fixed.tile_ids[i]: i for i in order}
            st.session_state[f"{key}_pick"] = state.selected if state.selected in index_of else -1
            st.selectbox(
                ctx.t("which_tile"), [-1] + ids, key=f"{key}_pick", on_change=_select, args=(key,),
                format_func=lambda tid: ctx.t("tap_or_pick") if tid == -1 else tile_label(ctx, state, index_of[tid]),
            )
        if state.selected is not None:
            _tile_actions(ctx, key, state, rack)
        elif state.pending is not None:
            _add_actions(ctx, key, state, rack)
        u1, u2, u3 = st.columns([1, 1, 2], vertical_alignment="center")
        u1.button(
            ctx.t("undo"), key=f"{key}_undo", on_click=_undo, args=(ctx, key), disabled=not state.edits,
            icon=":material/undo:", width="stretch",
        )
        u2.button(
            ctx.t("redo"), key=f"{key}_redo", on_click=_redo, args=(ctx, key), disabled=not state.redo,
            icon=":material/redo:", width="stretch",
        )
        if state.edits:
            u3.caption(ctx.t("corrections_made", n=len(state.edits)))


def _tile_actions(ctx: Ctx, key: str, state: PhotoState, rack: bool) -> None:
    assert state.fixed is not None and state.selected is not None
    reading = state.fixed.reading
    index = state.fixed.index_of(state.selected)
    assert index is not None
    tile = reading.tiles[index]
    codes = tile_codes(ctx.rules)
    c1, c2 = st.columns([2, 1], vertical_alignment="bottom")
    c1.selectbox(
        ctx.t("right_code"), codes, index=codes.index(tile.code) if tile.code in codes else 0,
        key=_code_key(key, state),
    )
    c2.button(
        ctx.t("apply_correction"), key=f"{key}_recode", on_click=_edit, args=(ctx, key, "recode"),
        type="primary", width="stretch",
    )
    if not rack:
        here = tile.meld
        targets = [state.fixed.meld_ids[k] for k in range(len(reading.melds)) if k != here] + [NEW_MELD]
        targets += [NO_MELD] if here is not None else []
        labels = {state.fixed.meld_ids[k]: _meld_label(ctx, reading, k) for k in range(len(reading.melds))}
        labels.update({NEW_MELD: ctx.t("new_meld"), NO_MELD: ctx.t("no_meld")})
        m1, m2 = st.columns([2, 1], vertical_alignment="bottom")
        m1.selectbox(ctx.t("move_to"), targets, key=f"{key}_move_to", format_func=lambda m: labels[m])
        m2.button(ctx.t("move"), key=f"{key}_move", on_click=_edit, args=(ctx, key, "move"), width="stretch")
    d1, d2 = st.columns(2)
    d1.button(
        ctx.t("delete_tile"), key=f"{key}_delete", on_click=_edit, args=(ctx, key, "delete"),
        icon=":material/delete:", width="stretch",
    )
    d2.button(ctx.t("cancel"), key=f"{key}_cancel", on_click=_cancel, args=(key,), width="stretch")


def _add_actions(ctx: Ctx, key: str, state: PhotoState, rack: bool) -> None:
    assert state.fixed is not None and state.pending is not None
    reading = state.fixed.reading
    st.markdown(ctx.t("add_here"))
    codes = tile_codes(ctx.rules)
    a1, a2 = st.columns([2, 1], vertical_alignment="bottom")
    a1.selectbox(ctx.t("new_tile_code"), codes, key=f"{key}_add_code")
    if not rack:
        near = meld_near(reading, state.pending)
        targets = [state.fixed.meld_ids[k] for k in range(len(reading.melds))] + [NEW_MELD, NO_MELD]
        labels = {state.fixed.meld_ids[k]: _meld_label(ctx, reading, k) for k in range(len(reading.melds))}
        labels.update({NEW_MELD: ctx.t("new_meld"), NO_MELD: ctx.t("no_meld")})
        default = state.fixed.meld_ids[near] if near is not None else NEW_MELD
        # a new spot starts from the meld next to it (the box remembers the choice for that spot)
        spot = f"{key}_add_meld"
        if st.session_state.get(f"{spot}_for") != state.pending:
            st.session_state[spot] = default
            st.session_state[f"{spot}_for"] = state.pending
        st.selectbox(ctx.t("add_to"), targets, key=spot, format_func=lambda m: labels[m])
    a2.button(
        ctx.t("add_tile"), key=f"{key}_add", on_click=_edit, args=(ctx, key, "add"), type="primary",
        icon=":material/add:", width="stretch",
    )
    st.button(ctx.t("cancel"), key=f"{key}_add_cancel", on_click=_cancel, args=(key,))
