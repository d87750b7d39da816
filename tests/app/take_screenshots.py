"""Screenshots of every page at desktop and phone size for the README (docs/screenshots/, < 300 KB each).

    .venv/bin/python tests/app/take_screenshots.py [--fake] [--only desktop|phone]

The committed model reads the committed real photos (tests/fixtures/real: a table and a rack);
``--fake`` reads the app test photos with the test model instead. The score sheet is filled
through app.store first (a few rounds of a game), then one more round is typed in the browser.
Files: ``{check-table,my-turn,end-of-round,settings}-{desktop,phone}.png``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from app_helpers import FAKE_JSON, FIXTURES, ROOT  # noqa: E402
from browser_harness import (  # noqa: E402
    chromium,
    click_label,
    open_page,
    running_app,
    screenshot,
    type_into,
    upload,
    wait_for_text,
)
from json_tile_model import injected_env  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
TABLE_TYPED = "R10 R11 R12 | B9 K9 R9 | O5 O6 O7 O8 | K5 K6 K7"


def _fill_scores(db: Path) -> None:
    from app.store import Store, new_token

    store = Store(db)
    game = store.create_game("Friday night", "rummikub", ["Dana", "Omer", "Lior"])
    for scores, hands, winner in [
        ({"Dana": 37, "Omer": -25, "Lior": -12}, {"Omer": "B12 O13", "Lior": "K5 R7"}, "Dana"),
        ({"Dana": -8, "Omer": 29, "Lior": -21}, {"Dana": "R8", "Lior": "K10 B11"}, "Omer"),
        ({"Dana": -30, "Omer": -4, "Lior": 34}, {"Dana": "J", "Omer": "O4"}, "Lior"),
        ({"Dana": 45, "Omer": -19, "Lior": -26}, {"Omer": "K9 R10", "Lior": "B13 B13"}, "Dana"),
    ]:
        store.add_round(game.id, new_token(), scores, hands, winner)


def _scroll_to(driver, text: str) -> None:
    """Bring the element holding ``text`` to the top of the screen (a phone shows one screenful)."""
    found = driver.find_elements("xpath", f"//*[contains(normalize-space(text()), '{text}')]")
    if found:
        driver.execute_script("arguments[0].scrollIntoView({block: 'start'});", found[0])
        time.sleep(0.5)


def shoot(size: str, table_photo: Path, rack_photo: Path, fake: bool) -> None:
    phone = size == "phone"
    tmp = Path(tempfile.mkdtemp(prefix="rummi-shots-"))
    db = tmp / "rummi.sqlite3"
    _fill_scores(db)
    env = {"RUMMI_DB": str(db), "YOLO_OFFLINE": "1"}
    env.update(injected_env(FAKE_JSON) if fake else {"RUMMI_TILE_MODEL": ""})
    with running_app(env) as url, chromium(1280, 1500, phone=phone) as driver:
        try:
            driver.get(url)
            wait_for_text(driver, "Check the table")
            if phone:
                click_label(driver, "Photo file")
            upload(driver, table_photo)
            t0 = time.perf_counter()
            wait_for_text(driver, "tiles read", timeout=120)
            wait_for_text(driver, "Initial meld", timeout=60)
            print(f"{size}: check the table: result on screen {time.perf_counter() - t0:.2f} s after the upload")
            time.sleep(1.5)
            if phone:
                _scroll_to(driver, "tiles read")
                driver.execute_script("window.scrollBy(0, -420); document.querySelector('[data-testid=stMain]').scrollBy(0, -420);")
                time.sleep(0.5)
            print(screenshot(driver, OUT / f"check-table-{size}.png"))

            open_page(driver, "My turn")
            wait_for_text(driver, "My rack")
            click_label(driver, "Type it")
            type_into(driver, "The melds on the table (empty: nothing on the table yet)", TABLE_TYPED)
            click_label(driver, "Photo")
            if phone:
                click_label(driver, "Photo file")
            upload(driver, rack_photo)
            wait_for_text(driver, "tiles read", timeout=120)
            click_label(driver, "I have already opened")
            wait_for_text(driver, "Best play", timeout=60)
            time.sleep(1.5)
            if phone:
                _scroll_to(driver, "Best play")
            print(screenshot(driver, OUT / f"my-turn-{size}.png"))

            open_page(driver, "End of round")
            wait_for_text(driver, "Score sheet")
            type_into(driver, "Tiles left on Omer's rack", "K3 R11")
            type_into(driver, "Tiles left on Lior's rack", "B2 O7 J")
            wait_for_text(driver, "Score")
            time.sleep(1.5)
            if phone:
                _scroll_to(driver, "Round 5")
            print(screenshot(driver, OUT / f"end-of-round-{size}.png"))
            click_label(driver, "Save the round")
            wait_for_text(driver, "Round 5 saved.")

            open_page(driver, "Settings")
            wait_for_text(driver, "House rules")
            time.sleep(1.0)
            print(screenshot(driver, OUT / f"settings-{size}.png"))
        except Exception:
            screenshot(driver, tmp / "failed.png")
            print(f"failed: the page is in {tmp / 'failed.png'}")
            raise


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fake", action="store_true", help="the app test photos and the test model")
    parser.add_argument("--only", choices=("desktop", "phone"), help="one size only")
    args = parser.parse_args()
    if args.fake:
        table_photo, rack_photo = FIXTURES / "table.jpg", FIXTURES / "rack.jpg"
    else:
        from test_real_model import RACK_PHOTO, TABLE_PHOTO, real_photo_path

        table_photo, rack_photo = real_photo_path(TABLE_PHOTO), real_photo_path(RACK_PHOTO)
    for size in [args.only] if args.only else ["desktop", "phone"]:
        shoot(size, table_photo, rack_photo, args.fake)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
