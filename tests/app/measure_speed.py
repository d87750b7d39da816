"""How fast a photo becomes an annotated result in the app, with the committed model, in a real
browser emulating a 390 x 844 phone:

- the first photo after the app starts: uploaded as soon as the first page shows (the worst case:
  the model is still warming up, which starts while that page renders), and uploaded 8 s after
  the page shows (the time it takes to frame and take a photo), and
- a 12-megapixel camera photo (4000 x 3000 JPEG with sensor noise) after that.

    .venv/bin/python tests/app/measure_speed.py        # prints both; also test-artifacts/upload-speed.txt

Times run from handing the file to the page's file input (what the phone's camera does) to the
annotated photo loaded on screen. The browser test runs the same (test_browser.py).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from app_helpers import ROOT  # noqa: E402
from browser_harness import chromium, click_label, running_app, screenshot, upload, wait_for_text  # noqa: E402

ARTIFACTS = ROOT / "test-artifacts"
MODELS = ROOT / "models"


def twelve_megapixels(photo: Path, dest: Path) -> Path:
    """``photo`` blown up to 4000 x 3000 with sensor noise, so that the JPEG is as big as a phone's
    (an upscaled photo alone compresses too well)."""
    import numpy as np
    from PIL import Image

    big = Image.open(photo).convert("RGB")
    big = big.resize((4000, 3000) if big.width >= big.height else (3000, 4000), Image.LANCZOS)
    noise = np.random.default_rng(0).normal(0, 5, (big.height, big.width, 1)).astype(np.int16)
    noisy = np.clip(np.asarray(big, dtype=np.int16) + noise, 0, 255).astype(np.uint8)
    Image.fromarray(noisy).save(dest, format="JPEG", quality=92)
    return dest


def _result_on_screen(driver, name: str, timeout: float) -> None:
    """Wait until the photo ``name`` is read and its annotated picture is loaded in the page."""
    from selenium.webdriver.support.ui import WebDriverWait

    wait_for_text(driver, f"{name}:", timeout=timeout)
    try:
        frame = WebDriverWait(driver, timeout).until(
            lambda d: d.find_element("css selector", "iframe[title*='streamlit_image_coordinates']")
        )
    except Exception:
        screenshot(driver, ARTIFACTS / "speed-failed.png")
        raise
    driver.switch_to.frame(frame)
    try:
        WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script(
            "const i = document.getElementById('image');"
            "return i !== null && i.complete && i.naturalWidth > 0 && i.src.startsWith('data:');"
        ))
    finally:
        driver.switch_to.default_content()


def measure(first: Path, twelve: Path, db: Path, phone: bool = True, delay: float = 0.0) -> dict[str, float]:
    """Seconds from upload to annotated result: the first photo after start (uploaded ``delay``
    seconds after the page shows), then the 12 MP one."""
    env = {"RUMMI_DB": str(db), "YOLO_OFFLINE": "1", "RUMMI_TILE_MODEL": "", "RUMMI_MODELS": str(MODELS)}
    out: dict[str, float] = {}
    with running_app(env) as url, chromium(phone=phone) as driver:
        t_open = time.perf_counter()
        driver.get(url)
        wait_for_text(driver, "Check the table")
        out["page_shown"] = time.perf_counter() - t_open
        if phone:
            click_label(driver, "Photo file")  # the camera is the first choice on a phone
        time.sleep(delay)
        t0 = time.perf_counter()
        upload(driver, first)
        _result_on_screen(driver, first.name, timeout=180)
        out["first_photo"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        upload(driver, twelve)
        _result_on_screen(driver, twelve.name, timeout=120)
        out["twelve_mp"] = time.perf_counter() - t0
        screenshot(driver, ARTIFACTS / f"browser-12mp-{'phone' if phone else 'desktop'}.png")
    return out


def report(now: dict[str, float], later: dict[str, float], size_mb: float) -> str:
    import os

    return (
        f"phone (390x844), committed model, {os.cpu_count()} CPU cores (load average {os.getloadavg()[0]:.1f}):\n"
        f"  first photo after the app starts, uploaded as soon as the page showed ({now['page_shown']:.1f} s after opening it): "
        f"{now['first_photo']:.2f} s to the annotated result\n"
        f"  first photo after the app starts, uploaded 8 s after the page showed: {later['first_photo']:.2f} s\n"
        f"  12 MP camera photo ({size_mb:.1f} MB JPEG) -> annotated result on screen: "
        f"{now['twelve_mp']:.2f} s and {later['twelve_mp']:.2f} s\n"
    )


def measure_and_report(photo: Path, tmp: Path) -> tuple[dict[str, float], str]:
    """Both runs (the first photo right away, and 8 s after the page shows) and the 12 MP photo,
    written to test-artifacts/upload-speed.txt; (the right-away timings, the report's text)."""
    twelve = twelve_megapixels(photo, tmp / "camera-12mp.jpg")
    now = measure(photo, twelve, tmp / "now.sqlite3")
    later = measure(photo, twelve, tmp / "later.sqlite3", delay=8.0)
    text = report(now, later, twelve.stat().st_size / 1e6)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "upload-speed.txt").write_text(text)
    return now, text


def main() -> int:
    from test_real_model import TABLE_PHOTO, real_photo_path

    _, text = measure_and_report(real_photo_path(TABLE_PHOTO), Path(tempfile.mkdtemp(prefix="rummi-speed-")))
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
