"""The Streamlit app: ``rummi app`` (or ``streamlit run app/main.py``).

Pages: check the table, my turn, end of round (score sheet), settings. Everything is stored in a
local SQLite file (see ``app.store``); nothing goes over the network.
"""

import os
import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:  # `streamlit run app/main.py` puts app/ on the path, not the project
    sys.path.insert(0, _ROOT)
os.environ.setdefault("YOLO_OFFLINE", "1")

from app.ui.shell import run  # noqa: E402

run()
