"""Load a photo as people see it: EXIF orientation applied, RGB uint8, any size.

Every way a file can fail to be a photo (missing, empty, not an image, truncated, too large, a
format Pillow cannot decode) becomes one :class:`vision.errors.ImageError` whose message names the
file and says what is wrong, never a traceback.
"""

from __future__ import annotations

import io
import sys
import warnings
from pathlib import Path

import numpy as np
from PIL import Image as PILImage
from PIL import ImageFile, ImageOps, UnidentifiedImageError

from vision.errors import ImageError
from vision.types import Image

try:  # HEIC/HEIF (iPhone photos); the package is a declared dependency
    import pillow_heif

    pillow_heif.register_heif_opener()
    _HEIF = True
except ImportError:  # pragma: no cover - only without the optional decoder
    _HEIF = False

MAX_PIXELS = 100_000_000  # refuse anything larger: a phone photo is 12-50 megapixels
SUPPORTED = "JPEG, PNG, WebP" + (", HEIC/HEIF" if _HEIF else "")

# A truncated photo must fail loudly, never be padded with grey.
ImageFile.LOAD_TRUNCATED_IMAGES = False

_RETAKE = "take or copy the photo again"


def load_image(source: str | Path | bytes, name: str = "") -> Image:
    """Read a photo from a path or from the file's bytes.

    ``name`` is used in messages (and as ``Image.path``); it defaults to the path, or ``"the photo"``
    for bytes. Raises :class:`ImageError` for anything that is not a readable photo.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        label = name or "the photo"
        data = bytes(source)
        if not data:
            raise ImageError(f"{label}: the file is empty (0 bytes) - {_RETAKE}")
        return _decode(io.BytesIO(data), label, data[:64], name)
    path = Path(source)
    label = name or str(path)
    if not path.exists():
        raise ImageError(f"{label}: no such file")
    if path.is_dir():
        raise ImageError(f"{label}: is a folder, not a photo")
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(64)
    except OSError as exc:
        raise ImageError(f"{label}: cannot be opened ({exc.strerror or exc})") from None
    if size == 0:
        raise ImageError(f"{label}: the file is empty (0 bytes) - {_RETAKE}")
    return _decode(path, label, head, name or str(path))


def _decode(fp: Path | io.BytesIO, label: str, head: bytes, image_path: str) -> Image:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
        try:
            img = _pil_open(fp)
        except UnidentifiedImageError:
            raise ImageError(f"{label}: {_not_an_image(head)}") from None
        except PILImage.DecompressionBombError:
            raise ImageError(
                f"{label}: the photo is too large (over {MAX_PIXELS // 1_000_000} megapixels)"
            ) from None
        except Exception as exc:  # any decoder error (OSError, SyntaxError, struct.error...) is a bad file
            raise ImageError(f"{label}: {_decode_problem(_format_from_magic(head), exc)}") from None
        try:
            with img:
                fmt = img.format or "image"
                width, height = img.size
                if width <= 0 or height <= 0:
                    raise ImageError(f"{label}: the {fmt} has no pixels ({width}x{height})")
                if width * height > MAX_PIXELS:
                    raise ImageError(
                        f"{label}: the photo is too large ({width}x{height} = "
                        f"{width * height / 1e6:.0f} megapixels; the limit is {MAX_PIXELS // 1_000_000}) "
                        "- use the phone camera's normal resolution"
                    )
                try:
                    img.load()  # force the full decode: a truncated file fails here
                except (ImageError, PILImage.DecompressionBombError, MemoryError):
                    raise
                except Exception as exc:  # truncated or damaged data, whatever the decoder raises
                    raise ImageError(f"{label}: {_decode_problem(fmt, exc)}") from None
                oriented = _exif_transpose(img)
                try:
                    rgb = _to_rgb(oriented)
                except (ValueError, OSError, TypeError) as exc:
                    raise ImageError(
                        f"{label}: its colour format ({oriented.mode}) cannot be turned into RGB ({exc})"
                    ) from None
        except PILImage.DecompressionBombError:
            raise ImageError(
                f"{label}: the photo is too large (over {MAX_PIXELS // 1_000_000} megapixels)"
            ) from None
        except MemoryError:
            raise ImageError(f"{label}: the photo is too large to decode in memory") from None
    return Image(rgb=rgb, path=image_path)


def _pil_open(fp: Path | io.BytesIO) -> PILImage.Image:
    """Pillow's own ``Image.open``. Importing ultralytics replaces ``Image.open`` with a wrapper that, on
    a file Pillow can't identify, tries to install and import ``pi_heif`` (an ImportError offline)
    instead of saying "not an image"; its module keeps the original, which we call when it is there."""
    patches = sys.modules.get("ultralytics.utils.patches")
    original = getattr(patches, "_image_open", None) if patches is not None else None
    return (original or PILImage.open)(fp)


def _not_an_image(head: bytes) -> str:
    text = head.lstrip(b"\xef\xbb\xbf")
    if text and all(32 <= b < 127 or b in (9, 10, 13) for b in text[:64]):
        return f"this is not a photo (it looks like a text file); use a {SUPPORTED} photo"
    if head.startswith(b"%PDF"):
        return f"this is a PDF, not a photo; use a {SUPPORTED} photo"
    if head[4:8] == b"ftyp" and not _HEIF:  # pragma: no cover
        return "this looks like a HEIC photo, but the HEIC decoder (pillow-heif) is not installed"
    return f"not an image this program can read (supported: {SUPPORTED})"


def _format_from_magic(head: bytes) -> str:
    if head.startswith(b"\xff\xd8"):
        return "JPEG"
    if head.startswith(b"\x89PNG"):
        return "PNG"
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "WebP"
    if head[4:8] == b"ftyp":
        return "HEIC"
    return "image"


def _decode_problem(fmt: str, exc: BaseException) -> str:
    text = str(exc).lower()
    if "truncat" in text or isinstance(exc, EOFError) or "ends early" in text or "premature" in text:
        return f"the file is truncated (the {fmt} ends early) - {_RETAKE}"
    if "decoder" in text and "not available" in text:
        return f"this {fmt} uses a compression this program cannot decode ({exc})"
    return f"the {fmt} data is damaged ({exc}) - {_RETAKE}"


def _exif_transpose(img: PILImage.Image) -> PILImage.Image:
    try:
        out = ImageOps.exif_transpose(img)
    except Exception:  # a broken EXIF block: keep the pixels as stored rather than fail
        return img
    return img if out is None else out


def _to_rgb(img: PILImage.Image) -> np.ndarray:
    """Any Pillow mode -> H x W x 3 uint8 RGB (transparency composited over white)."""
    mode = img.mode
    if mode in ("I;16", "I;16L", "I;16B", "I;16N", "I", "F"):
        arr = np.asarray(img)
        arr = arr.astype(np.float64)
        if mode == "F" and arr.size and float(np.nanmax(arr)) <= 1.0:
            arr = arr * 255.0
        elif arr.size and float(arr.max()) > 255.0:
            arr = arr / 257.0  # 16-bit range -> 8-bit
        grey = np.clip(np.nan_to_num(arr), 0, 255).round().astype(np.uint8)
        return np.ascontiguousarray(np.repeat(grey[:, :, None], 3, axis=2))
    if mode == "P":
        img = img.convert("RGBA" if "transparency" in img.info else "RGB")
    elif mode in ("LA", "La", "PA", "RGBa"):
        img = img.convert("RGBA")
    elif mode == "L" and "transparency" in img.info:
        img = img.convert("RGBA")
    if img.mode == "RGBA":
        background = PILImage.new("RGBA", img.size, (255, 255, 255, 255))
        img = PILImage.alpha_composite(background, img).convert("RGB")
    elif img.mode != "RGB":
        img = img.convert("RGB")
    return np.ascontiguousarray(np.asarray(img, dtype=np.uint8))

