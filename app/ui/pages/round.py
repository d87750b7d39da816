"""The "round" page (a file, so that st.navigation gives it its own URL: /round)."""

from app.ui.shell import render_page

render_page("round")
