"""The classifier run in onnxruntime must give what ultralytics gives (within float rounding)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "models"
PHOTOS = REPO / "tests" / "fixtures" / "real" / "images"

pytestmark = pytest.mark.skipif(not (MODELS / "detector.pt").exists(), reason="no committed model in models/")


def test_onnx_classifier_matches_ultralytics() -> None:
    pytest.importorskip("onnx")
    import dataclasses

    from vision.model import TileModel

    fast, slow = TileModel(MODELS), TileModel(MODELS)
    slow.settings = dataclasses.replace(slow.settings, cls_onnx=False)
    photo = sorted(PHOTOS.glob("*.jpg"))[0]
    rgb = cv2.cvtColor(cv2.imread(str(photo)), cv2.COLOR_BGR2RGB)
    boxes, _ = fast.detect(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    assert len(boxes)
    a, b = fast.classify(rgb, boxes), slow.classify(rgb, boxes)
    assert fast._fast and not slow._fast
    assert np.abs(a - b).max() < 1e-4
    assert (a.argmax(1) == b.argmax(1)).all()
