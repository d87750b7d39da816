"""Page 4, "Settings": the house rules and the language (saved in the database as soon as they are
changed), and where the database is.

The widgets always show what the database holds (another tab may have changed it); a change saves
only the setting that was changed, so two tabs never undo each other's changes.
"""

from __future__ import annotations

import os
from typing import Any

import streamlit as st

from app.i18n import LANGUAGES
from app.store import Store
from app.ui.common import Ctx
from app.ui.photo import MODEL_ENV, MODELS_ENV
from engine.rules import DEFAULT_RULES, RearrangePenalty

INITIAL_MELDS = [20, 30, 50]
TILES_DEALT = [14, 16]
RULE_OF = {  # widget key -> HouseRules field
    "set_initial_meld": "initial_meld",
    "set_wrap": "wrap_around",
    "set_twist": "twist",
    "set_joker": "joker_penalty",
    "set_rearrange": "rearrange_penalty",
    "set_additions": "opening_additions",
    "set_dealt": "tiles_dealt",
}


def _options(values: list[int], current: int) -> list[int]:
    return values if current in values else sorted(values + [current])


def _save_rule(store: Store, key: str, saved: str) -> None:
    value: Any = st.session_state[key]
    try:
        store.save_house_rules(store.house_rules().with_(**{RULE_OF[key]: value}))
    except ValueError as exc:
        st.error(str(exc))
        return
    st.toast(saved)


def _save_language(store: Store) -> None:
    store.set_setting("language", st.session_state["set_language"])


def _rulebook(store: Store, saved: str) -> None:
    store.save_house_rules(DEFAULT_RULES)
    st.toast(saved)


def render(ctx: Ctx) -> None:
    st.header(ctx.t("settings_title"))
    rules = ctx.rules
    for key, name in RULE_OF.items():  # show what is saved
        st.session_state[key] = getattr(rules, name)
    st.session_state["set_language"] = ctx.lang
    saved = ctx.t("saved")

    def on_change(key: str) -> dict[str, Any]:
        return {"key": key, "on_change": _save_rule, "args": (ctx.store, key, saved)}

    st.subheader(ctx.t("house_rules"))
    st.selectbox(ctx.t("set_initial_meld"), _options(INITIAL_MELDS, rules.initial_meld), **on_change("set_initial_meld"))
    st.checkbox(ctx.t("set_wrap"), help=ctx.t("set_wrap_help"), **on_change("set_wrap"))
    st.checkbox(ctx.t("set_twist"), help=ctx.t("set_twist_help"), **on_change("set_twist"))
    st.number_input(ctx.t("set_joker_penalty"), min_value=0, max_value=500, step=5, **on_change("set_joker"))
    st.selectbox(
        ctx.t("set_rearrange"), list(RearrangePenalty), format_func=lambda p: ctx.t(f"penalty_{p.value}"),
        **on_change("set_rearrange"),
    )
    st.checkbox(ctx.t("set_additions"), help=ctx.t("set_additions_help"), **on_change("set_additions"))
    st.radio(ctx.t("set_dealt"), _options(TILES_DEALT, rules.tiles_dealt), horizontal=True, **on_change("set_dealt"))
    st.button(ctx.t("rulebook_defaults"), key="set_defaults", on_click=_rulebook, args=(ctx.store, saved))

    st.subheader(ctx.t("language"))
    st.radio(
        ctx.t("language"), list(LANGUAGES), format_func=lambda k: LANGUAGES[k], horizontal=True,
        key="set_language", label_visibility="collapsed", on_change=_save_language, args=(ctx.store,),
    )

    st.subheader(ctx.t("data"))
    st.markdown(ctx.t("db_path"))
    st.code(str(ctx.store.path), language=None)
    st.caption(ctx.t("db_note"))
    if os.environ.get(MODEL_ENV):
        st.caption(ctx.t("model_injected", spec=os.environ[MODEL_ENV]))
    else:
        from vision.model import CLASSIFIER, DETECTOR, MODELS_DIR

        folder = os.environ.get(MODELS_ENV) or str(MODELS_DIR)
        present = all(os.path.exists(os.path.join(folder, n)) for n in (DETECTOR, CLASSIFIER))
        st.caption(ctx.t("model_ok" if present else "model_missing", path=folder))
