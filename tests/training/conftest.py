"""The training tests reuse the photo-reader test stand-ins (tests/vision/vision_fakes.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
