"""The app in a real browser: ``streamlit run`` on localhost, headless Chromium (at desktop size and
as a 390 x 844 phone) uploads a photo, the annotated reading and the melds appear, and a misreading
is fixed by tapping the photo. Screenshots and timings go to test-artifacts/.

Needs Debian's chromium + chromium-driver and the ``selenium`` package; skips (saying which is
missing) only where they cannot be had.
"""

from __future__ import annotations


import pytest
from app_helpers import FAKE_JSON, FIXTURES, ROOT
from json_tile_model import injected_env
from browser_harness import (
    choose,
    chromium,
    click_button,
    click_label,
    find_browser,
    horizontal_overflow,
    main_text,
    open_page,
    running_app,
    screenshot,
    small_buttons,
    tap_photo,
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


SIZES = ["desktop", "phone"]


def _env(tmp_path) -> dict[str, str]:
    return {"RUMMI_DB": str(tmp_path / "rummi.sqlite3"), "YOLO_OFFLINE": "1", **injected_env(FAKE_JSON)}


def _upload_table(driver, phone: bool) -> None:
    wait_for_text(driver, "Check the table")
    if phone:  # the camera is the first choice on a phone: switch to a photo file
        click_label(driver, "Photo file")
    upload(driver, FIXTURES / "table.jpg")
    wait_for_text(driver, "1 of 4 melds are not valid.")


def _fits_the_phone(driver, phone: bool, where: str) -> None:
    if phone:
        assert horizontal_overflow(driver) <= 0, f"{where}: the page scrolls sideways"
        assert not small_buttons(driver), f"{where}: buttons too small to tap: {small_buttons(driver)}"


@pytest.mark.parametrize("size", SIZES)
def test_upload_a_photo_and_see_the_checked_melds(browser_ready, tmp_path, size):
    phone = size == "phone"
    with running_app(_env(tmp_path)) as url, chromium(phone=phone) as driver:
        driver.get(url)
        _upload_table(driver, phone)
        text = main_text(driver)
        assert "R10 R11 R12" in text and "run, 33 points" in text
        assert "not valid: K5 K6 B8 mixes colours and numbers" in text
        assert "Please check these tiles" in text and "Valid melds on the table: 86 points" in text
        assert "Traceback" not in text
        _fits_the_phone(driver, phone, "check the table")
        screenshot(driver, ARTIFACTS / f"browser-check-table-{size}.png")

        # the other pages, by their links (their own URLs) and back again with the browser's back
        open_page(driver, "My turn")
        wait_for_text(driver, "My rack")
        assert driver.current_url.endswith("/turn")
        assert "R10 R11 R12" in main_text(driver)  # the table checked above
        type_into(driver, "The tiles on my rack", "K8 R14")
        wait_for_text(driver, "R14: numbers run 1-13")
        box = driver.find_element("css selector", '[aria-label="The tiles on my rack"]')
        assert box.get_attribute("value") == "K8 R14"  # what was typed stays
        _fits_the_phone(driver, phone, "my turn")
        screenshot(driver, ARTIFACTS / f"browser-my-turn-{size}.png")
        open_page(driver, "End of round")
        wait_for_text(driver, "Start the game")
        assert driver.current_url.endswith("/round")
        _fits_the_phone(driver, phone, "end of round")
        screenshot(driver, ARTIFACTS / f"browser-end-of-round-{size}.png")
        open_page(driver, "Settings")
        wait_for_text(driver, "House rules")
        wait_for_text(driver, str(tmp_path / "rummi.sqlite3"))  # the database path is shown
        _fits_the_phone(driver, phone, "settings")
        screenshot(driver, ARTIFACTS / f"browser-settings-{size}.png")
        driver.back()
        wait_for_text(driver, "Start the game")
        assert driver.current_url.endswith("/round")


@pytest.mark.parametrize("size", SIZES)
def test_fix_a_reading_by_tapping_the_photo(browser_ready, tmp_path, size):
    """Delete a false tile, add the missed one by tapping, move a tile to a new meld, undo: the
    melds and the total follow each change."""
    phone = size == "phone"
    with running_app(_env(tmp_path)) as url, chromium(phone=phone) as driver:
        driver.get(url)
        _upload_table(driver, phone)
        b8, o8 = (560 / 800, 279 / 600), (256 / 800, 279 / 600)  # where they lie on the photo

        tap_photo(driver, *b8)  # select the tile read as B8: it is a reflection
        wait_for_text(driver, "Not a tile: delete")
        click_button(driver, "Not a tile: delete")
        wait_for_text(driver, "Meld 4 — K5 K6 — not valid")
        assert "Valid melds on the table: 86 points" in main_text(driver)

        tap_photo(driver, *b8)  # the spot is empty now: the tile the reader missed goes there
        wait_for_text(driver, "Add a tile at the marked spot")
        choose(driver, "The tile", "K7")
        click_button(driver, "Add")
        wait_for_text(driver, "All 4 melds are valid.")
        text = main_text(driver)
        assert "Meld 4 — K5 K6 K7 — run, 18 points" in text and "Valid melds on the table: 104 points" in text
        _fits_the_phone(driver, phone, "after adding a tile")
        screenshot(driver, ARTIFACTS / f"browser-corrected-{size}.png")

        tap_photo(driver, *o8)  # move O8 out of the run into a meld of its own
        wait_for_text(driver, "Move to")
        choose(driver, "Move to", "a new meld")
        click_button(driver, "Move")
        wait_for_text(driver, "Meld 5 — O8 — not valid")
        text = main_text(driver)
        assert "Meld 3 — O5 O6 O7 — run, 18 points" in text and "Valid melds on the table: 96 points" in text

        click_button(driver, "Undo")  # and back
        wait_for_text(driver, "All 4 melds are valid.")
        text = main_text(driver)
        assert "Meld 3 — O5 O6 O7 O8 — run, 26 points" in text and "Meld 5" not in text
        assert "Valid melds on the table: 104 points" in text and "2 change(s) made by hand" in text
        assert "Traceback" not in text


def test_hebrew_page_on_a_phone_is_right_to_left(browser_ready, tmp_path):
    from app.store import Store

    env = _env(tmp_path)
    Store(env["RUMMI_DB"]).set_setting("language", "he")
    with running_app(env) as url, chromium(phone=True) as driver:
        driver.get(url)
        wait_for_text(driver, "בדיקת השולחן")
        click_label(driver, "קובץ תמונה")
        upload(driver, FIXTURES / "table.jpg")
        wait_for_text(driver, "מערבבת צבעים ומספרים")
        main = driver.find_element("css selector", "[data-testid=stMain]")
        assert driver.execute_script("return getComputedStyle(arguments[0]).direction;", main) == "rtl"
        text = main_text(driver)
        assert "K5 K6 B8" in text and "mixes" not in text  # the tiles left to right, the reason in Hebrew
        assert horizontal_overflow(driver) <= 0
        screenshot(driver, ARTIFACTS / "browser-check-table-phone-hebrew.png")


@pytest.mark.timeout(400)
def test_twelve_megapixel_camera_photo_to_annotated_result_on_a_phone(browser_ready, tmp_path):
    """With the committed model, at phone size: the first photo after the app starts and a 12 MP
    camera photo, uploaded -> the annotated photo on screen (timed into test-artifacts/, not asserted)."""
    from measure_speed import MODELS, measure_and_report
    from test_real_model import real_photo

    missing = [n for n in ("detector.pt", "classifier.pt") if not (MODELS / n).exists()]
    if missing:
        pytest.skip(f"the trained model is not committed yet (missing {', '.join(str(MODELS / n) for n in missing)})")
    photo, _ = real_photo()
    now, text = measure_and_report(photo, tmp_path)
    print(text)
    assert set(now) == {"page_shown", "first_photo", "twelve_mp"}
