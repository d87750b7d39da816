"""The "settings" page (a file, so that st.navigation gives it its own URL: /settings)."""

from app.ui.shell import render_page

render_page("settings")
