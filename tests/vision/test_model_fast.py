"""The classifier and the detector run in onnxruntime must give what ultralytics gives (within float rounding)."""

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


def test_onnx_detector_matches_ultralytics_at_every_look() -> None:
    """Every size the reader looks at (letterboxed to other shapes than the first photo's), a table and a close-up."""
    pytest.importorskip("onnx")
    import dataclasses

    from vision.model import TileModel

    fast, slow = TileModel(MODELS), TileModel(MODELS)
    slow.settings = dataclasses.replace(slow.settings, det_onnx=False)
    photos = sorted(PHOTOS.glob("*.jpg"))[:2]
    first = cv2.imread(str(photos[0]))
    side = min(first.shape[:2])  # a square photo: its letterbox is the square the network is exported at
    fast.detect(first)
    assert fast._fast_det is None and fast._det_session is None  # one photo does not pay for the export
    fast.detect(first[:side, :side])
    for _ in range(2):
        slow.detect(first)
    assert fast._fast_det and not slow._fast_det
    s = fast.settings
    sizes = sorted({s.det_imgsz, s.det_close_imgsz, s.det_fine_imgsz, *(n for n, _ in s.det_more_looks), *(n for n, _ in s.det_close_looks)})
    found = 0
    for photo in photos:
        bgr = cv2.imread(str(photo))
        for frame in (bgr, cv2.resize(bgr, (750, 1000)), bgr[: bgr.shape[0] // 3, : bgr.shape[1] // 2]):
            for size in sizes:
                a, sa = fast._detect_at(frame, size)
                b, sb = slow._detect_at(frame, size)
                assert a.shape == b.shape, (photo.name, frame.shape, size)
                if len(a):
                    assert np.abs(a - b).max() < 0.05 and np.abs(sa - sb).max() < 1e-4
                found += len(a)
    assert found


def test_detector_keeps_ultralytics_when_told() -> None:
    import dataclasses

    from vision.model import TileModel

    model = TileModel(MODELS)
    model.settings = dataclasses.replace(model.settings, det_onnx=False)
    bgr = cv2.imread(str(sorted(PHOTOS.glob("*.jpg"))[0]))
    for _ in range(2):
        boxes, scores = model.detect(bgr)
        assert len(boxes) == len(scores) > 0
    assert model._fast_det is False and model._det_session is None


def test_a_photo_longer_than_the_work_side_is_shrunk_by_area_and_the_factors_lead_back() -> None:
    import numpy as np

    from vision.model import shrunk

    small = np.zeros((750, 1000, 3), np.uint8)
    same, factors = shrunk(small, 2048)
    assert same is small and factors == (1.0, 1.0)
    assert shrunk(np.zeros((3000, 4000, 3), np.uint8), 0)[1] == (1.0, 1.0)  # 0: never
    # a one-pixel line on a 4000 px photo: averaged into its neighbours, not dropped or kept whole
    big = np.zeros((2604, 4624, 3), np.uint8)
    big[:, 1001] = 255
    out, (fx, fy) = shrunk(big, 2048)
    assert max(out.shape[:2]) == 2048 and out.shape[1] == 2048
    assert fx * out.shape[1] == 4624 and fy * out.shape[0] == 2604
    column = out[:, int(1001 / fx)].astype(float).mean()
    assert 0 < column < 200 and out[:, int(1001 / fx)].min() > 0  # every row shows the line, softened
