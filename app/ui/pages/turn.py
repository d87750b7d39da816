"""The "turn" page (a file, so that st.navigation gives it its own URL: /turn)."""

from app.ui.shell import render_page

render_page("turn")
