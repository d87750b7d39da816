"""Page 4, "Settings": the house rules and the language (saved in the database at once), and where
the database is."""

from __future__ import annotations

import streamlit as st

from app.i18n import LANGUAGES
from app.ui.common import Ctx
from app.ui.photo import FAKE_ENV, MODELS_ENV
from engine.rules import HouseRules, RearrangePenalty

INITIAL_MELDS = [20, 30, 50]
TILES_DEALT = [14, 16]


def _options(values: list[int], current: int) -> list[int]:
    return values if current in values else sorted(values + [current])


def render(ctx: Ctx) -> None:
    st.header(ctx.t("settings_title"))
    rules = ctx.rules
    st.subheader(ctx.t("house_rules"))
    initial = st.selectbox(
        ctx.t("set_initial_meld"), _options(INITIAL_MELDS, rules.initial_meld),
        index=_options(INITIAL_MELDS, rules.initial_meld).index(rules.initial_meld), key="set_initial_meld",
    )
    wrap = st.checkbox(ctx.t("set_wrap"), value=rules.wrap_around, key="set_wrap", help=ctx.t("set_wrap_help"))
    joker = st.number_input(
        ctx.t("set_joker_penalty"), min_value=0, max_value=500, step=5, value=int(rules.joker_penalty), key="set_joker",
    )
    penalties = list(RearrangePenalty)
    penalty = st.selectbox(
        ctx.t("set_rearrange"), penalties, index=penalties.index(rules.rearrange_penalty),
        format_func=lambda p: ctx.t(f"penalty_{p.value}"), key="set_rearrange",
    )
    additions = st.checkbox(
        ctx.t("set_additions"), value=rules.opening_additions, key="set_additions", help=ctx.t("set_additions_help"),
    )
    dealt = st.radio(
        ctx.t("set_dealt"), _options(TILES_DEALT, rules.tiles_dealt),
        index=_options(TILES_DEALT, rules.tiles_dealt).index(rules.tiles_dealt), horizontal=True, key="set_dealt",
    )
    new = HouseRules(
        initial_meld=int(initial), wrap_around=bool(wrap), joker_penalty=int(joker),
        rearrange_penalty=penalty, opening_additions=bool(additions), tiles_dealt=int(dealt),
    )
    if new != rules:
        ctx.store.save_house_rules(new)
        ctx.rules = new
        st.toast(ctx.t("saved"))
    if st.button(ctx.t("rulebook_defaults"), key="set_defaults"):
        ctx.store.save_house_rules(HouseRules())
        for k in ("set_initial_meld", "set_wrap", "set_joker", "set_rearrange", "set_additions", "set_dealt"):
            st.session_state.pop(k, None)
        st.rerun()

    st.subheader(ctx.t("language"))
    langs = list(LANGUAGES)
    lang = st.radio(
        ctx.t("language"), langs, index=langs.index(ctx.lang), format_func=lambda k: LANGUAGES[k],
        horizontal=True, key="set_language", label_visibility="collapsed",
    )
    if lang != ctx.lang:
        ctx.store.set_setting("language", lang)
        st.rerun()

    st.subheader(ctx.t("data"))
    st.markdown(ctx.t("db_path"))
    st.code(str(ctx.store.path), language=None)
    st.caption(ctx.t("db_note"))
    import os

    if os.environ.get(FAKE_ENV):
        st.caption(ctx.t("model_fake", path=os.environ[FAKE_ENV]))
    else:
        from vision.model import CLASSIFIER, DETECTOR, MODELS_DIR

        folder = os.environ.get(MODELS_ENV) or str(MODELS_DIR)
        present = all(os.path.exists(os.path.join(folder, n)) for n in (DETECTOR, CLASSIFIER))
        st.caption(ctx.t("model_ok" if present else "model_missing", path=folder))
