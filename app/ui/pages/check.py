"""The "check" page (a file, so that st.navigation gives it its own URL: /check)."""

from app.ui.shell import render_page

render_page("check")
