"""The app in a real browser: ``streamlit run`` on localhost, headless Chromium uploads a photo and
the annotated reading and the melds appear. Screenshots go to test-artifacts/.

Needs Debian's chromium + chromium-driver and the ``selenium`` package; skips (saying which is
missing) only where they cannot be had.
"""

from __future__ import annotations

import time

import pytest
from app_helpers import FAKE_JSON, FIXTURES, ROOT
from browser_harness import (
    click_label,
    chromium,
    find_browser,
    main_text,
    running_app,
    screenshot,
    type_into,
    upload,
    wait_for_text,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="module")
def browser_ready():
    pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")
    if find_browser() is None:
        pytest.skip("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")


def test_upload_a_photo_and_see_the_checked_melds(browser_ready, tmp_path):
    env = {"RUMMI_DB": str(tmp_path / "rummi.sqlite3"), "RUMMI_FAKE_READER": str(FAKE_JSON), "YOLO_OFFLINE": "1"}
    with running_app(env) as url, chromium() as driver:
        driver.get(url)
        wait_for_text(driver, "Check the table")
        upload(driver, FIXTURES / "table.jpg")
        t0 = time.perf_counter()
        wait_for_text(driver, "1 of 4 melds are not valid.")
        elapsed = time.perf_counter() - t0
        text = main_text(driver)
        assert "R10 R11 R12" in text and "run, 33 points" in text
        assert "not valid: K5 K6 B8 mixes colours and numbers" in text
        assert "Please check these tiles" in text
        images = driver.find_elements("css selector", "[data-testid='stImage'] img")
        assert images and images[0].get_attribute("naturalWidth") not in (None, "0")
        assert "Traceback" not in text
        screenshot(driver, ARTIFACTS / "browser-check-table.png")

        # the other pages render too, and a typo is an error on the page
        click_label(driver, "My turn")
        wait_for_text(driver, "My rack")
        assert "R10 R11 R12" in main_text(driver)  # the table checked above
        type_into(driver, "The tiles on my rack", "K8 R14")
        wait_for_text(driver, "R14: numbers run 1-13")
        box = driver.find_element("css selector", '[aria-label="The tiles on my rack"]')
        assert box.get_attribute("value") == "K8 R14"  # what was typed stays
        click_label(driver, "Settings")
        wait_for_text(driver, "House rules")
        wait_for_text(driver, str(tmp_path / "rummi.sqlite3"))  # the database path is shown
        screenshot(driver, ARTIFACTS / "browser-settings.png")


def test_twelve_megapixel_upload_to_annotated_result(browser_ready, tmp_path):
    """With the committed model: a 12 MP photo uploaded -> the annotated photo on screen (timed)."""
    from test_real_model import MODELS, real_photo  # noqa: I001

    missing = [n for n in ("detector.pt", "classifier.pt") if not (MODELS / n).exists()]
    if missing:
        pytest.skip(f"the trained model is not committed yet (missing {', '.join(str(MODELS / n) for n in missing)})")
    from PIL import Image

    photo, _ = real_photo()
    big = Image.open(photo).convert("RGB")
    big = big.resize((4000, 3000) if big.width >= big.height else (3000, 4000), Image.LANCZOS)
    import numpy as np

    # sensor noise, so that the file is as big as a phone's (an upscaled photo compresses too well)
    noisy = np.asarray(big, dtype=np.int16) + np.random.default_rng(0).normal(0, 5, (big.height, big.width, 1)).astype(np.int16)
    twelve = tmp_path / "twelve-megapixels.jpg"
    Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8)).save(twelve, format="JPEG", quality=92)
    size_mb = twelve.stat().st_size / 1e6
    env = {"RUMMI_DB": str(tmp_path / "rummi.sqlite3"), "YOLO_OFFLINE": "1", "RUMMI_FAKE_READER": "",
           "RUMMI_MODELS": str(MODELS)}
    with running_app(env) as url, chromium() as driver:
        driver.get(url)
        wait_for_text(driver, "Check the table")
        upload(driver, photo)  # the first photo: the model is loaded and warmed up
        wait_for_text(driver, "tiles read", timeout=120)
        t0 = time.perf_counter()
        upload(driver, twelve)
        wait_for_text(driver, "twelve-megapixels.jpg:", timeout=60)
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(driver, 30, poll_frequency=0.05).until(
            lambda d: d.execute_script(
                "const i = document.querySelector(\"[data-testid='stImage'] img\");"
                "return i !== null && i.complete && i.naturalWidth > 0;"
            )
        )
        elapsed = time.perf_counter() - t0
        screenshot(driver, ARTIFACTS / "browser-12mp.png")
        report = f"12 MP photo ({size_mb:.1f} MB JPEG) uploaded -> annotated photo on screen: {elapsed:.2f} s"
        (ARTIFACTS / "upload-speed.txt").write_text(report + "\n")
        print(report)
        assert "Traceback" not in main_text(driver)
