"""Photo processing without Streamlit: read, downscale for the screen, draw, bad files."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image as PILImage

from app.ui.photo import DISPLAY_MAX_SIDE, annotated, downscale, load_tile_model, read_photo, scaled_reading
from json_tile_model import SPEC, JsonTileModel
from vision.errors import ImageError
from vision.reader import Reader, recheck
from vision.types import Image

from app_helpers import FAKE_JSON, FIXTURES


@pytest.fixture
def reader() -> Reader:
    return Reader(model=JsonTileModel(FAKE_JSON))


def test_table_photo_read_into_melds(reader):
    result = read_photo((FIXTURES / "table.jpg").read_bytes(), "table.jpg", reader)
    melds = [(m.codes, m.valid, m.value) for m in result.reading.melds]
    assert melds == [
        (["R10", "R11", "R12"], True, 33),
        (["B9", "K9", "R9"], True, 27),
        (["O5", "O6", "O7", "O8"], True, 26),
        (["K5", "K6", "B8"], False, 0),
    ]
    assert result.reading.tiles[12].doubtful and result.size == (1600, 1200)
    assert result.timings["total"] >= result.timings["read"]


def test_a_correction_makes_the_meld_valid(reader):
    result = read_photo((FIXTURES / "table.jpg").read_bytes(), "table.jpg", reader)
    fixed = recheck(result.reading, {12: "K7"})
    assert fixed.melds[3].codes == ["K5", "K6", "K7"] and fixed.melds[3].valid and fixed.melds[3].value == 18
    picture = annotated(result, fixed)
    assert picture.shape == (1200, 1600, 3) and picture.dtype == np.uint8


def test_rack_photo_in_rack_order(reader):
    result = read_photo((FIXTURES / "rack.jpg").read_bytes(), "rack.jpg", reader, rack=True)
    assert result.reading.codes() == ["K8", "R13", "O9", "O4", "B2", "K1", "B11"]
    assert result.reading.melds == []


def test_big_photo_is_downscaled_for_the_screen_with_boxes_scaled(reader):
    big = PILImage.open(FIXTURES / "table.jpg").resize((4000, 3000))
    buf = io.BytesIO()
    big.save(buf, format="JPEG", quality=80)
    result = read_photo(buf.getvalue(), "big.jpg", reader)
    assert result.size == (4000, 3000)
    assert max(result.display.rgb.shape[:2]) == DISPLAY_MAX_SIDE and result.scale == pytest.approx(0.4)
    small = scaled_reading(result.reading, result.scale)
    assert small.tiles[0].box == pytest.approx(tuple(v * 0.4 for v in result.reading.tiles[0].box))
    assert annotated(result).shape == (1200, 1600, 3)


def test_downscale_leaves_small_images_alone():
    image = Image(rgb=np.zeros((100, 200, 3), np.uint8))
    same, scale = downscale(image)
    assert same is image and scale == 1.0


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "empty"),
        (b"hello, this is a text file\n", "not a photo"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 50, "JPEG"),
    ],
)
def test_bad_files_raise_image_error(reader, data, message):
    with pytest.raises(ImageError, match=message):
        read_photo(data, "upload.jpg", reader)


def test_photo_without_tiles(reader):
    blank = Reader(model=type("Empty", (), {"predict": lambda self, rgb: []})())
    buf = io.BytesIO()
    PILImage.new("RGB", (300, 200), (40, 110, 70)).save(buf, format="PNG")
    result = read_photo(buf.getvalue(), "empty.png", blank)
    assert result.reading.tiles == [] and any("no tiles" in w for w in result.reading.warnings)


def test_a_model_is_injected_by_name(monkeypatch):
    from vision.errors import ModelMissing

    monkeypatch.setenv("RUMMI_TILE_MODEL", SPEC)
    monkeypatch.setenv("RUMMI_FAKE_READER", str(FAKE_JSON))
    assert isinstance(load_tile_model(), JsonTileModel)
    monkeypatch.setenv("RUMMI_FAKE_READER", str(FIXTURES / "missing.json"))
    with pytest.raises(ValueError, match="fake reader"):
        load_tile_model()
    for bad, why in (("no_colon", "module:function"), ("no_such_module_xyz:f", "cannot be loaded"),
                     ("json_tile_model:nothing", "cannot be loaded"), ("json_tile_model:FAKE_ENV", "not callable")):
        monkeypatch.setenv("RUMMI_TILE_MODEL", bad)
        with pytest.raises(ModelMissing, match=why):
            load_tile_model()


def test_missing_model_is_reported(monkeypatch, tmp_path):
    from vision.errors import ModelMissing

    monkeypatch.delenv("RUMMI_TILE_MODEL", raising=False)
    monkeypatch.setenv("RUMMI_MODELS", str(tmp_path))
    with pytest.raises(ModelMissing):
        load_tile_model()


def test_typed_tables_one_meld_a_line_or_with_bars():
    from app.ui.common import parse_table_text
    from engine.tiles import NotationError

    def codes(text):
        return [[t.code for t in m] for m in parse_table_text(text)]

    assert codes("R1 R2 R3 | K5 B5 O5") == [["R1", "R2", "R3"], ["K5", "B5", "O5"]]
    assert codes("R1 R2 R3 |\n\nK5 B5 O5\n") == [["R1", "R2", "R3"], ["K5", "B5", "O5"]]
    assert codes("   ") == []
    with pytest.raises(NotationError, match="meld 2 is empty"):
        parse_table_text("R1 R2 R3 || K5 B5 O5")
