"""The frame around the pages: page setup, language (right-to-left for Hebrew), navigation, and the
guard that turns any error into a message on the page (never a traceback)."""

from __future__ import annotations

import logging
import re
import traceback

import streamlit as st

from app.i18n import LANGUAGES, RTL
from app.store import Store, StoreError, default_db_path
from app.ui import check_table, end_round, my_turn, settings
from app.ui.common import Ctx, warm_up

log = logging.getLogger("rummi.app")

ICONS = {
    "check": ":material/photo_camera:",
    "turn": ":material/lightbulb:",
    "round": ":material/scoreboard:",
    "settings": ":material/settings:",
}
PAGES = {
    "check": check_table.render,
    "turn": my_turn.render,
    "round": end_round.render,
    "settings": settings.render,
}

RTL_CSS = """
<style>
[data-testid="stMain"], [data-testid="stSidebar"], [data-testid="stToast"] { direction: rtl; text-align: right; }
[data-testid="stMain"] code, [data-testid="stMain"] pre, [data-testid="stDataFrame"], [data-testid="stVegaLiteChart"] { direction: ltr; }
</style>
"""


# Inputs kept when their page is left (Streamlit forgets a widget's value when it is not drawn);
# photos are kept by the photo widget itself, settings live in the database.
_KEEP = re.compile(
    r"^(table_text|table_source|turn_table_text|turn_table_source|rack_text|rack_source|turn_opened"
    r"|g\d+_(hand_\d+|src_\d+|winner|rummy)|.+_photo_source)$"
)


def keep_inputs() -> None:
    for key in list(st.session_state.keys()):
        if isinstance(key, str) and _KEEP.match(key):
            st.session_state[key] = st.session_state[key]


@st.cache_resource(show_spinner=False)
def _store(path: str) -> Store:
    return Store(path)


def context() -> Ctx:
    store = _store(str(default_db_path()))
    lang = store.get_setting("language", "en")
    if lang not in LANGUAGES:
        lang = "en"
    return Ctx(store=store, rules=store.house_rules(), lang=lang)


def run() -> None:
    st.set_page_config(page_title="rummi", page_icon="🀄", layout="wide", initial_sidebar_state="collapsed")
    try:
        ctx = context()
    except StoreError as exc:
        st.error(str(exc))
        return
    if ctx.lang in RTL:
        st.markdown(RTL_CSS, unsafe_allow_html=True)
    warm_up()
    keep_inputs()
    page = st.radio(
        ctx.t("navigation"), list(PAGES), format_func=lambda p: f"{ICONS[p]} {ctx.t(f'page_{p}')}",
        horizontal=True, key="page", label_visibility="collapsed",
    )
    try:
        PAGES[page](ctx)
    except StoreError as exc:
        st.error(str(exc))
    except Exception as exc:  # a bug: say so on the page, keep the app (and the inputs) alive
        log.error("page %s failed:\n%s", page, traceback.format_exc())
        st.error(ctx.t("unexpected_error", error=f"{type(exc).__name__}: {exc}"))
