"""The app with the committed model (models/detector.pt + classifier.pt) on a real photo.

Skips, saying why, while the model files are not there. The photo: the first of
tests/fixtures/real (held-out photos of the development set, with labels saying which tiles are
on them).
"""

from __future__ import annotations

import io
import os
import time
from collections import Counter
from pathlib import Path

import pytest
from app_helpers import ROOT, assert_ok, clear_caches, go, page_text, start_app, tap

pytestmark = pytest.mark.slow

MODELS = Path(os.environ.get("RUMMI_MODELS") or ROOT / "models")  # RUMMI_MODELS: try another model
REAL = ROOT / "tests" / "fixtures" / "real"  # held-out photos with labels in our class order
TABLE_PHOTO = "rummy2-9_"  # nine tiles in rows on a wooden table
RACK_PHOTO = "rummy3-12_"  # a rack of ten tiles on marble


def _model_or_skip() -> None:
    missing = [n for n in ("detector.pt", "classifier.pt") if not (MODELS / n).exists()]
    if missing:
        pytest.skip(f"the trained model is not committed yet (missing {', '.join(str(MODELS / n) for n in missing)})")


def real_photo_path(prefix: str = TABLE_PHOTO) -> Path:
    """A committed real photo whose name starts with ``prefix`` (no pytest needed)."""
    photos = sorted((REAL / "images").glob(f"{prefix}*")) or sorted((REAL / "images").glob("*.jpg"))
    if not photos:
        raise FileNotFoundError(f"no real photos in {REAL / 'images'}")
    return photos[0]


def real_photo(prefix: str = TABLE_PHOTO) -> tuple[Path, list[str]]:
    """(a committed real photo whose name starts with ``prefix``, the codes of its labelled tiles)."""
    from vision.yolo_format import class_code, read_data_yaml

    photos = sorted((REAL / "images").glob(f"{prefix}*")) or sorted((REAL / "images").glob("*.jpg"))
    if not photos:
        pytest.skip(f"no real photos in {REAL / 'images'}")
    photo = photos[0]
    names = read_data_yaml(REAL / "data.yaml").names or ()
    label = REAL / "labels" / (photo.stem + ".txt")
    lines = label.read_text().splitlines() if label.exists() else []
    return photo, [class_code(names[int(line.split()[0])]) for line in lines if line.strip()]


def _found(read: list[str], labelled: list[str]) -> int:
    return sum((Counter(read) & Counter(labelled)).values())


@pytest.fixture
def real_app(db_path, monkeypatch):
    _model_or_skip()
    monkeypatch.delenv("RUMMI_TILE_MODEL", raising=False)
    clear_caches()
    yield start_app(timeout=120)
    clear_caches()


def test_real_photo_read_checked_and_corrected(real_app):
    at = real_app
    photo, labelled = real_photo()
    mime = "image/png" if photo.suffix.lower() == ".png" else "image/jpeg"
    at.file_uploader(key="table_upload").set_value((photo.name, photo.read_bytes(), mime)).run()
    assert_ok(at)
    state = at.session_state["photo_table"]
    assert state.error is None and state.reading is not None
    read = [t.code for t in state.reading.tiles]
    assert read, "no tiles read from the sample photo"
    text = page_text(at)
    assert f"{photo.name}: {len(read)} tiles read" in text
    assert "Meld 1 — " in text and "Melds (" in text
    assert _found(read, labelled) >= 0.6 * len(labelled), f"read {read}, labelled {labelled}"

    # tap the first tile of meld 1 and correct it to another code: the meld is checked again
    first = state.reading.melds[0].tiles[0]
    new_code = "J" if read[first] != "J" else "K1"
    x1, y1, x2, y2 = state.reading.tiles[first].box
    tap(at, "table", (x1 + x2) / 2, (y1 + y2) / 2, width=state.reading.width, height=state.reading.height)
    assert at.session_state["photo_table"].selected == state.fixed.tile_ids[first]
    next(s for s in at.selectbox if s.key.startswith("table_code_")).set_value(new_code).run()
    at.button(key="table_recode").click().run()
    assert_ok(at)
    fixed = at.session_state["photo_table"].reading
    assert fixed.tiles[first].code == new_code and fixed.melds[0].codes[0] == new_code
    assert "1 change(s) made by hand" in page_text(at)


def test_real_rack_photo_gives_a_hint(real_app):
    at = real_app
    photo, labelled = real_photo(RACK_PHOTO)
    go(at, "turn")
    at.text_area(key="turn_table_text").set_value("K7 K8 K9 | B3 R3 O3")
    at.radio(key="rack_source").set_value("photo").run()
    at.file_uploader(key="rack_upload").set_value((photo.name, photo.read_bytes(), "image/jpeg")).run()
    at.checkbox(key="turn_opened").check().run()
    assert_ok(at)
    read = [t.code for t in at.session_state["photo_rack"].reading.tiles]
    assert _found(read, labelled) >= 0.6 * len(labelled), f"read {read}, labelled {labelled}"
    text = page_text(at)
    assert "Best play" in text
    assert "Play " in text or "draw a tile" in text or any("copies of" in e.value for e in at.error)


def test_twelve_megapixel_photo_read_and_drawn_quickly(monkeypatch):
    """read_photo + annotated (what the page does with an upload) on a 12 MP photo, model loaded."""
    _model_or_skip()
    monkeypatch.delenv("RUMMI_TILE_MODEL", raising=False)
    from PIL import Image

    from app.ui.photo import annotated, load_tile_model, read_photo
    from vision.reader import Reader

    photo, _ = real_photo()
    big = Image.open(photo).convert("RGB")
    big = big.resize((4000, 3000) if big.width >= big.height else (3000, 4000), Image.LANCZOS)
    buf = io.BytesIO()
    big.save(buf, format="JPEG", quality=92)
    reader = Reader(model=load_tile_model())
    read_photo(buf.getvalue(), "warm-up.jpg", reader)  # the first inference sets torch up
    t0 = time.perf_counter()
    result = read_photo(buf.getvalue(), "12mp.jpg", reader)
    picture = annotated(result)
    elapsed = time.perf_counter() - t0
    print(f"12 MP photo: {elapsed:.2f} s (load {result.timings['load']:.0f} ms, read {result.timings['read']:.0f} ms)")
    assert result.size in ((4000, 3000), (3000, 4000)) and max(picture.shape[:2]) == 1600


def test_the_warm_up_leaves_nothing_for_the_first_photo_to_set_up(monkeypatch):
    """After the app's warm-up the detector's runtime is decided (its move to onnxruntime, on a process's
    second photo, costs more than a reading), and the libraries loaded with the model are out of the garbage
    collector's way: the first photo someone takes is read like every later one."""
    import gc

    _model_or_skip()
    monkeypatch.delenv("RUMMI_TILE_MODEL", raising=False)
    from app.ui.common import warm_up_reading
    from app.ui.photo import load_tile_model

    warm_up_reading()
    model = load_tile_model()
    assert model._fast_det is not None
    assert model._fast is not None
    assert gc.get_freeze_count() > 100_000
