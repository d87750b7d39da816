"""``python -m app.serve run app/main.py [streamlit flags]``: Streamlit's own command line, with the
model loaded and warmed up from the moment the server starts.

Streamlit runs the app's script only when a browser opens a page, so a warm-up started there still
makes a photo taken right away wait for the imports, the weights and torch's first inference. This
starts that work in the server process itself, before Streamlit takes over; the script's model
loader then finds the model already in the process (``vision.model.load_model`` loads once).
"""

from __future__ import annotations

import logging
import sys
import threading

log = logging.getLogger("rummi.app")


def _warm_up() -> None:
    try:
        from app.ui.common import warm_up_reading

        warm_up_reading()
    except Exception as exc:  # a missing model is reported when a photo is read, on the page
        log.info("model not warmed up at server start: %s", exc)


def main() -> int:
    threading.Thread(target=_warm_up, name="rummi-server-warm-up", daemon=True).start()
    from streamlit.web import cli

    return cli.main()


if __name__ == "__main__":
    sys.exit(main())
