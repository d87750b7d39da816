"""Helpers for the app tests (imported by the tests; the fixtures are in conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "app"
MAIN = ROOT / "app" / "main.py"
FAKE_JSON = FIXTURES / "fake_reader.json"


def clear_caches() -> None:
    import streamlit as st

    st.cache_resource.clear()
    st.cache_data.clear()


def start_app(timeout: float = 30):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(MAIN), default_timeout=timeout)
    at.run()
    assert not at.exception, at.exception
    return at


def photo(name: str) -> tuple[str, bytes, str]:
    data = (FIXTURES / name).read_bytes()
    mime = {"jpg": "image/jpeg", "png": "image/png", "txt": "text/plain"}[name.rsplit(".", 1)[-1]]
    return (name, data, mime)


def texts(at) -> list[str]:
    """Every markdown / alert / caption text on the page, markup left in."""
    out = []
    for kind in ("markdown", "caption", "success", "error", "warning", "info", "header", "subheader"):
        out += [str(e.value) for e in getattr(at, kind)]
    return out


def page_text(at) -> str:
    text = "\n".join(texts(at))
    text = re.sub(r":[a-z]+\[([^\]]*)\]", r"\1", text)  # :red[R10] -> R10
    text = text.replace(":material/check_circle:", "✅").replace(":material/cancel:", "❌").replace(" ⚠", "")
    return text.replace("**", "")


def go(at, page: str):
    """Open a page (check, turn, round, settings) as its link in the navigation would."""
    at.switch_page(f"ui/pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def assert_ok(at) -> None:
    """No traceback on the page and no "something went wrong" message."""
    assert not at.exception, at.exception
    assert not [e.value for e in at.error if "Something went wrong" in str(e.value)]


def tap(at, key: str, x: float, y: float, width: float = 800, height: float = 600):
    """A tap on the photo widget ``key`` at (x, y) of a ``width`` x ``height`` picture, as
    streamlit-image-coordinates reports it (a new time stamp each tap)."""
    import time

    at.session_state[f"{key}_tap"] = {"x": x, "y": y, "width": width, "height": height, "unix_time": time.time_ns()}
    at.run()
    assert_ok(at)
    return at


def new_game(at, name="Friday", players="Dana\nOmer\nLior", kind="rummikub"):
    """Start a game on the "End of round" page (the new-game form's submit button)."""
    go(at, "round")
    at.text_input(key="new_game_name").set_value(name)
    at.radio(key="new_game_kind").set_value(kind)
    at.text_area(key="new_game_players").set_value(players)
    at.button[0].click().run()
    assert_ok(at)
    return at


def game_id(at) -> int:
    """The game picked on the "End of round" page."""
    return int(at.selectbox(key="game_pick").value)
