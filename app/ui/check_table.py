"""Page 1, "Check the table": a photo (or typed melds) in; each meld checked, the initial-meld total
of a chosen group of melds. The table is kept in the session for "My turn"."""

from __future__ import annotations

import streamlit as st

from app.i18n import ltr, reason_text
from app.ui.common import Ctx, guarded, meld_lines, parse_table_text, reading_melds, tiles_md, tiles_of
from app.ui.fix_photo import photo_input
from engine.initial import check_initial_meld
from engine.sets import analyse_set
from engine.tiles import format_melds

TABLE_KEY = "current_table"  # session: the last table checked, a list of melds (lists of codes)


def current_table() -> list[list[str]] | None:
    return st.session_state.get(TABLE_KEY)


def render(ctx: Ctx) -> None:
    st.header(ctx.t("check_title"))
    st.caption(ctx.t("check_intro"))
    source = st.radio(
        ctx.t("table_source"), ["photo", "type"], format_func=lambda s: ctx.t(f"source_{s}"),
        horizontal=True, key="table_source",
    )
    left, right = st.columns([3, 2], gap="large")
    melds: list[list[str]] | None = None
    state = None
    with left:
        if source == "photo":
            state = photo_input(ctx, "table", rack=False)
            if state is not None and state.reading is not None and state.reading.tiles:
                melds, lone = reading_melds(state.reading)
                if lone:
                    st.warning(ctx.t("lone_tiles", tiles=ltr(" ".join(lone), ctx.lang)))
        else:
            text = st.text_area(
                ctx.t("type_table"), key="table_text", placeholder="R10 R11 R12 | K7 R7 B7 | J O5 O6", height=100,
            )
            st.caption(ctx.t("notation_help") + (" " + ctx.t("notation_help_twist") if ctx.rules.twist else ""))
            if text.strip():
                parsed = guarded(ctx, lambda: parse_table_text(text, twist=ctx.rules.twist))
                if parsed is not None:
                    melds = [[t.code for t in m] for m in parsed]
    if melds is None:
        return
    st.session_state[TABLE_KEY] = melds
    with right:
        show_melds(ctx, melds, doubtful=_doubtful_melds(state) if source == "photo" else set())


def _doubtful_melds(state) -> set[int]:
    """The melds (indices) with a doubtful tile in them."""
    if state is None or state.reading is None:
        return set()
    return {t.meld for t in state.reading.tiles if t.doubtful and t.meld is not None}


def show_melds(ctx: Ctx, melds: list[list[str]], doubtful: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """Each meld checked, the ones to look at first (not valid, or with a doubtful tile) on top,
    each keeping its number; the total of the valid ones; the initial-meld check."""
    st.subheader(ctx.t("melds_title", n=len(melds)))
    if not melds:
        st.info(ctx.t("no_melds"))
        return
    lines = meld_lines(ctx, melds)
    first = sorted(range(len(melds)), key=lambda k: (lines[k][0] and k not in doubtful, k))
    for k in first:
        st.markdown(lines[k][1] + (" ⚠" if k in doubtful and lines[k][0] else ""))
    valid = sum(1 for ok, _ in lines if ok)
    if valid == len(melds):
        st.success(ctx.t("all_valid", n=len(melds)))
    else:
        st.error(ctx.t("some_invalid", bad=len(melds) - valid, n=len(melds)))
    total = sum(analyse_set(tiles_of(m), ctx.rules).value for m in melds)
    st.markdown(f"**{ctx.t('table_total', total=total)}**")
    st.caption(ctx.t("as_text") + f" `{format_melds([tiles_of(m) for m in melds])}`")

    st.subheader(ctx.t("initial_title"))
    chosen = st.multiselect(
        ctx.t("initial_pick", threshold=ctx.rules.initial_meld),
        list(range(len(melds))),
        format_func=lambda k: f"{ctx.t('meld_n', n=k + 1)}: {' '.join(melds[k])}",
        key=f"initial_pick_{len(melds)}",
    )
    if chosen:
        check = check_initial_meld([tiles_of(melds[k]) for k in chosen], ctx.rules)
        picked = " + ".join(tiles_md(melds[k], ctx.lang) for k in chosen)
        if check.ok:
            st.success(ctx.t("initial_ok", total=check.total, threshold=check.threshold) + f"  \n{picked}")
        else:
            st.warning(ctx.t("initial_short", total=check.total, threshold=check.threshold, reason=reason_text(check.why, ctx.lang, check.reason)))
