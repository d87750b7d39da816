"""vision.load: every bad file is one clear ImageError; orientation, modes and formats."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image as PILImage

from vision.errors import ImageError
from vision.load import load_image


def _jpeg_bytes(w: int = 160, h: int = 120, seed: int = 0, exif: bytes | None = None) -> bytes:
    rng = np.random.default_rng(seed)
    img = PILImage.fromarray(rng.integers(0, 255, size=(h, w, 3), dtype=np.uint8))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=90, **({"exif": exif} if exif else {}))
    return buf.getvalue()


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG that declares a size but holds no pixels (enough for Pillow to read the size)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b"")


def test_text_file_renamed_jpg(tmp_path):
    f = tmp_path / "notes.jpg"
    f.write_text("shopping list: milk, eggs\n")
    with pytest.raises(ImageError) as err:
        load_image(f)
    msg = str(err.value)
    assert msg.startswith(f"{f}:") and "not a photo" in msg and "text file" in msg


def test_random_binary_is_not_an_image(tmp_path):
    f = tmp_path / "blob.png"
    f.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ImageError, match=r"blob\.png: not an image this program can read \(supported: JPEG, PNG"):
        load_image(f)


@pytest.mark.parametrize("keep", [0.3, 0.6, 0.9])
def test_truncated_jpeg(tmp_path, keep):
    data = _jpeg_bytes()
    f = tmp_path / "photo.jpg"
    f.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(ImageError) as err:
        load_image(f)
    assert str(err.value) == f"{f}: the file is truncated (the JPEG ends early) - take or copy the photo again"


def test_truncated_png(tmp_path):
    buf = io.BytesIO()
    PILImage.fromarray(np.random.default_rng(1).integers(0, 255, (90, 120, 3), dtype=np.uint8)).save(buf, "PNG")
    f = tmp_path / "shot.png"
    f.write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])
    with pytest.raises(ImageError, match=r"shot\.png: the file is truncated \(the PNG ends early\)"):
        load_image(f)


def test_empty_missing_and_folder(tmp_path):
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(ImageError, match=r"empty\.jpg: the file is empty \(0 bytes\)"):
        load_image(empty)
    with pytest.raises(ImageError, match=r"gone\.jpg: no such file"):
        load_image(tmp_path / "gone.jpg")
    with pytest.raises(ImageError, match="is a folder, not a photo"):
        load_image(tmp_path)
    with pytest.raises(ImageError, match=r"upload\.jpg: the file is empty"):
        load_image(b"", name="upload.jpg")


def test_too_large_refused_before_decoding(tmp_path):
    f = tmp_path / "huge.png"
    f.write_bytes(_png_header_only(12_000, 9_000))  # 108 megapixels declared, a few bytes on disk
    with pytest.raises(ImageError, match=r"huge\.png: the photo is too large \(12000x9000 = 108 megapixels"):
        load_image(f)


def test_valid_jpeg_path_and_bytes(tmp_path):
    data = _jpeg_bytes(64, 48)
    f = tmp_path / "ok.jpg"
    f.write_bytes(data)
    img = load_image(f)
    assert (img.width, img.height) == (64, 48)
    assert img.rgb.shape == (48, 64, 3) and img.rgb.dtype == np.uint8 and img.rgb.flags.c_contiguous
    assert img.path == str(f)
    from_bytes = load_image(data, name="upload.jpg")
    assert from_bytes.path == "upload.jpg" and from_bytes.rgb.shape == (48, 64, 3)


def test_exif_orientation_is_applied(tmp_path):
    """Stored 40 wide x 20 high, left half red; Orientation=6 (rotate 90 clockwise to view)."""
    stored = np.zeros((20, 40, 3), dtype=np.uint8)
    stored[:, :20] = (255, 0, 0)
    stored[:, 20:] = (0, 0, 255)
    img = PILImage.fromarray(stored)
    exif = PILImage.Exif()
    exif[0x0112] = 6
    f = tmp_path / "phone.jpg"
    img.save(f, "JPEG", quality=95, exif=exif.tobytes())
    loaded = load_image(f)
    assert (loaded.width, loaded.height) == (20, 40)  # as a person sees it: portrait
    top, bottom = loaded.rgb[5, 10].astype(int), loaded.rgb[35, 10].astype(int)
    assert top[0] > 200 and top[2] < 60  # the stored left (red) half is now on top
    assert bottom[2] > 200 and bottom[0] < 60


def test_grey_and_16_bit_grey():
    grey = PILImage.fromarray(np.full((10, 12), 77, dtype=np.uint8))
    buf = io.BytesIO()
    grey.save(buf, "PNG")
    img = load_image(buf.getvalue())
    assert img.rgb.shape == (10, 12, 3) and (img.rgb == 77).all()

    deep = PILImage.fromarray(np.full((6, 8), 65535, dtype=np.uint16))
    buf = io.BytesIO()
    deep.save(buf, "PNG")
    img = load_image(buf.getvalue())
    assert img.rgb.dtype == np.uint8 and (img.rgb == 255).all()


def test_rgba_palette_and_cmyk():
    rgba = np.zeros((8, 8, 4), dtype=np.uint8)
    rgba[:, :4] = (255, 0, 0, 255)  # opaque red
    rgba[:, 4:] = (0, 0, 0, 0)  # transparent: shown on white
    buf = io.BytesIO()
    PILImage.fromarray(rgba, "RGBA").save(buf, "PNG")
    img = load_image(buf.getvalue())
    assert img.rgb.shape == (8, 8, 3)
    assert tuple(img.rgb[0, 0]) == (255, 0, 0) and tuple(img.rgb[0, 7]) == (255, 255, 255)

    pal = PILImage.new("RGB", (6, 6), (0, 128, 0)).convert("P", palette=PILImage.Palette.ADAPTIVE)
    buf = io.BytesIO()
    pal.save(buf, "GIF")
    img = load_image(buf.getvalue())
    assert img.rgb.shape == (6, 6, 3) and abs(int(img.rgb[0, 0, 1]) - 128) <= 2

    buf = io.BytesIO()
    PILImage.new("CMYK", (5, 4), (0, 0, 0, 0)).save(buf, "JPEG")
    img = load_image(buf.getvalue())
    assert img.rgb.shape == (4, 5, 3) and img.rgb.min() > 240


@pytest.mark.parametrize("fmt", ["WEBP", "HEIF"])
def test_webp_and_heic(fmt):
    buf = io.BytesIO()
    PILImage.new("RGB", (16, 12), (200, 30, 30)).save(buf, fmt, quality=95)
    img = load_image(buf.getvalue(), name=f"photo.{fmt.lower()}")
    assert (img.width, img.height) == (16, 12)
    assert img.rgb[6, 8, 0] > 170 and img.rgb[6, 8, 1] < 70


def test_not_an_image_is_said_plainly_even_after_ultralytics_is_imported(tmp_path) -> None:
    """ultralytics patches PIL's Image.open (it tries to fetch a HEIF plugin for unknown files)."""
    import ultralytics  # noqa: F401  (applies the patch)

    from vision.errors import ImageError
    from vision.load import load_image

    bad = tmp_path / "notes.jpg"
    bad.write_text("shopping list: milk, tiles")
    with pytest.raises(ImageError, match="not a photo"):
        load_image(bad)
