"""Page 2, "My turn": the rack (photo or typed), the table (from "Check the table" or typed),
opened or not; the best play step by step, the table afterwards, the alternatives, or "draw"."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.ui.check_table import current_table
from app.i18n import ltr, reason_text
from app.ui.common import Ctx, guarded, parse_rack_text, parse_table_text, tiles_md, tiles_of, twist_off_reason
from app.ui.fix_photo import photo_input
from engine.rules import HouseRules
from engine.sets import analyse_set
from engine.supply import supply_reasons
from engine.tiles import format_melds, format_tiles

TIME_LIMIT_S = 4.0
TOP_K = 3


@st.cache_data(show_spinner=False, max_entries=64)
def _solve(table: tuple[tuple[str, ...], ...], rack: tuple[str, ...], rules: HouseRules, opened: bool) -> Any:
    from engine.solver import best_play

    return best_play(
        [tiles_of(m) for m in table], tiles_of(rack), rules,
        opened=opened, top_k=TOP_K, time_limit=TIME_LIMIT_S,
    )


def render(ctx: Ctx) -> None:
    st.header(ctx.t("turn_title"))
    left, right = st.columns([1, 1], gap="large")
    with left:
        table = _table_input(ctx)
        st.subheader(ctx.t("rack_title"))
        rack = _rack_input(ctx, table or [])
        opened = st.checkbox(
            ctx.t("opened"), key="turn_opened", help=ctx.t("opened_help", threshold=ctx.rules.initial_meld)
        )
    with right:
        _answer(ctx, table, rack, bool(opened))


def _answer(ctx: Ctx, table: list[list[str]] | None, rack: list[str] | None, opened: bool) -> None:
    if table is None or rack is None:
        return
    if not rack:
        st.info(ctx.t("rack_empty"))
        return
    checks = [(k, m, analyse_set(tiles_of(m), ctx.rules)) for k, m in enumerate(table, start=1)]
    bad = [(k, m, check) for k, m, check in checks if not check.valid]
    if bad:
        for k, m, check in bad:
            reason = reason_text(check.why, ctx.lang, check.reason)
            st.error(ctx.t("table_meld_invalid", n=k, tiles=ltr(" ".join(m), ctx.lang), reason=reason))
        st.info(ctx.t("fix_table_first"))
        return
    off = twist_off_reason(rack, ctx.rules)  # a rack photo corrected while the Twist rule was on
    if off is not None:
        st.error(ctx.t("rack_invalid", reason=reason_text(off, ctx.lang)))
        return
    problems = supply_reasons([tiles_of(m) for m in table], tiles_of(rack))
    if problems:
        st.error(ctx.t("over_supply", problems="; ".join(reason_text(p, ctx.lang) for p in problems)))
        return
    with st.spinner(ctx.t("thinking")):
        hint = guarded(ctx, lambda: _solve(tuple(tuple(m) for m in table), tuple(rack), ctx.rules, opened))
    if hint is None:
        return
    show_hint(ctx, hint)


def _table_input(ctx: Ctx) -> list[list[str]] | None:
    st.subheader(ctx.t("table_title"))
    checked = current_table()
    options = ["checked", "type"] if checked is not None else ["type"]
    if st.session_state.get("turn_table_source") not in options:
        st.session_state.pop("turn_table_source", None)
    source = st.radio(
        ctx.t("table_source"), options, format_func=lambda s: ctx.t(f"turn_table_{s}"),
        horizontal=True, key="turn_table_source",
    )
    if source == "checked" and checked is not None:
        if checked:
            st.markdown(" | ".join(tiles_md(m, ctx.lang) for m in checked))
        else:
            st.caption(ctx.t("empty_table"))
        return [list(m) for m in checked]
    text = st.text_area(
        ctx.t("type_table_turn"), key="turn_table_text", placeholder="R10 R11 R12 | K7 R7 B7", height=80,
    )
    if not text.strip():
        st.caption(ctx.t("empty_table"))
        return []
    parsed = guarded(ctx, lambda: parse_table_text(text, twist=ctx.rules.twist))
    return None if parsed is None else [[t.code for t in m] for m in parsed]


def _rack_input(ctx: Ctx, table: list[list[str]]) -> list[str] | None:
    source = st.radio(
        ctx.t("rack_source"), ["type", "photo"], format_func=lambda s: ctx.t(f"source_{s}"),
        horizontal=True, key="rack_source",
    )
    if source == "photo":
        known = [c for m in table for c in m]
        state = photo_input(ctx, "rack", rack=True, known=known)
        if state is None or state.reading is None:
            return None
        codes = [t.code for t in state.reading.tiles]
        st.caption(ctx.t("rack_read_as", tiles=ltr(" ".join(codes), ctx.lang) or "-"))
        return codes
    text = st.text_input(ctx.t("type_rack"), key="rack_text", placeholder="K3 K4 R9 O13 J")
    if not text.strip():
        return []
    parsed = guarded(ctx, lambda: parse_rack_text(text, twist=ctx.rules.twist))
    return None if parsed is None else [t.code for t in parsed]


def show_hint(ctx: Ctx, hint: Any) -> None:
    st.subheader(ctx.t("best_play"))
    proof = ctx.t("optimal") if hint.optimal else ctx.t("not_proven")
    if hint.draw:
        if not hint.opened and hint.shortfall > 0:
            st.warning(
                ctx.t("no_opening", best=hint.best_meld or 0, threshold=hint.threshold, short=hint.shortfall)
            )
        else:
            st.warning(ctx.t("no_play"))
        st.caption(f"{proof} · {hint.solve_ms:.0f} ms")
        return
    summary = ctx.t("play_summary", n=hint.tiles_placed, value=hint.value_placed)
    if hint.meld_points is not None:
        summary += " · " + ctx.t("opening_points", points=hint.meld_points, threshold=hint.threshold)
    st.success(summary)
    st.markdown(ctx.t("play_tiles") + " " + tiles_md((t.code for t in hint.placed), ctx.lang))
    st.markdown("**" + ctx.t("steps") + "**")
    st.markdown("\n".join(f"{k}. {reason_text(step, ctx.lang)}" for k, step in enumerate(hint.steps, start=1)))
    st.markdown("**" + ctx.t("table_after") + "**")
    placed_left = list(hint.placed)
    lines = []
    for k, s in enumerate(hint.table, start=1):
        marks = []
        for t in s:
            if t in placed_left:
                placed_left.remove(t)
                marks.append(f"{tiles_md([t.code], ctx.lang)}⁺")
            else:
                marks.append(tiles_md([t.code], ctx.lang))
        lines.append(f"- {ctx.t('meld_n', n=k)}: " + " ".join(marks))
    st.markdown("\n".join(lines))
    st.caption(ctx.t("placed_mark"))
    st.markdown(ctx.t("rack_left") + " " + (tiles_md((t.code for t in hint.rack_left), ctx.lang) if hint.rack_left else ctx.t("rack_left_none")))
    st.caption(f"{proof} · {hint.solve_ms:.0f} ms · `{format_melds(hint.table)}`")
    if hint.alternatives:
        with st.expander(ctx.t("alternatives", n=len(hint.alternatives))):
            for k, alt in enumerate(hint.alternatives, start=1):
                st.markdown(
                    f"**{k}.** " + ctx.t("play_summary", n=alt.tiles_placed, value=alt.value_placed)
                    + f": {tiles_md((t.code for t in alt.placed), ctx.lang)}"
                )
                st.markdown("\n".join(f"{j}. {reason_text(step, ctx.lang)}" for j, step in enumerate(alt.steps, start=1)))
                st.caption(f"`{format_melds(alt.table)}` · {ctx.t('rack_left')} `{format_tiles(alt.rack_left) or '-'}`")
