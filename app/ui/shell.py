"""The frame around the pages: page setup, language (right-to-left for Hebrew), phone-sized layout,
navigation by URL (``st.navigation``: /check is the home page, /turn, /round, /settings), and the
guard that turns any error into a message on the page (never a traceback)."""

from __future__ import annotations

import logging
import re
import traceback
from pathlib import Path

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

PAGE_DIR = Path(__file__).resolve().parent / "pages"  # one small file a page: its own URL

RTL_CSS = """
<style>
[data-testid="stMain"], [data-testid="stSidebar"], [data-testid="stToast"], [data-testid="stHeader"],
[data-testid="stDialog"], [data-baseweb="popover"] { direction: rtl; text-align: right; }
/* the database path, tables of numbers and charts stay left to right inside the RTL page (tile
   lists are kept left to right by Unicode direction marks, app.i18n.ltr) */
[data-testid="stMain"] code, [data-testid="stMain"] pre, [data-testid="stDataFrame"],
[data-testid="stVegaLiteChart"] { direction: ltr; }
</style>
"""

# Phone first: nothing wider than the screen, tap targets of 44 px (the platforms' guideline).
PHONE_CSS = """
<style>
html, body, [data-testid="stAppViewContainer"], [data-testid="stMain"] { max-width: 100vw; overflow-x: hidden; }
[data-testid="stMain"] button, [data-testid="stMain"] [data-baseweb="select"] > div { min-height: 44px; }
[data-testid="stMain"] [data-testid="stRadio"] label { min-height: 36px; padding: 4px 8px 4px 0; }
[data-testid="stMain"] img, [data-testid="stMain"] iframe { max-width: 100%; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li { overflow-wrap: anywhere; }
@media (max-width: 640px) {
  .block-container, [data-testid="stMainBlockContainer"] { padding: 3.5rem 0.75rem 2rem 0.75rem; }
  h1 { font-size: 1.6rem; }
}
</style>
"""


# Inputs kept when their page is left (Streamlit forgets a widget's value when it is not drawn);
# photos are kept by the photo widget itself, settings live in the database.
_KEEP = re.compile(
    r"^(table_text|table_source|turn_table_text|turn_table_source|rack_text|rack_source|turn_opened"
    r"|g\d+_(hand_\d+|src_\d+|winner|rummy)|.+_photo_source|.+_zoom)$"
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
    """The frame: page setup, language, the pages by URL (st.navigation: bookmarks and the browser's
    back button work), then the chosen page."""
    st.set_page_config(page_title="rummi", page_icon="🀄", layout="wide", initial_sidebar_state="collapsed")
    warm_up()  # first of all: the model loads while this first page renders
    try:
        ctx = context()
    except StoreError as exc:
        st.error(str(exc))
        return
    st.markdown(PHONE_CSS + (RTL_CSS if ctx.lang in RTL else ""), unsafe_allow_html=True)
    keep_inputs()
    pages = [
        st.Page(PAGE_DIR / f"{name}.py", title=ctx.t(f"page_{name}"), icon=ICONS[name], url_path=name,
                default=name == "check")
        for name in PAGES
    ]
    st.navigation(pages, position="top").run()


def render_page(name: str) -> None:
    """Draw one page (called by its file in ``pages/``); any error becomes a message on the page."""
    try:
        ctx = context()
    except StoreError as exc:
        st.error(str(exc))
        return
    try:
        PAGES[name](ctx)
    except StoreError as exc:
        st.error(str(exc))
    except Exception as exc:  # a bug: say so on the page, keep the app (and the inputs) alive
        log.error("page %s failed:\n%s", name, traceback.format_exc())
        st.error(ctx.t("unexpected_error", error=f"{type(exc).__name__}: {exc}"))
