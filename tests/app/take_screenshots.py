"""Screenshots of the three main pages for the README (docs/screenshots/*.png, < 300 KB each).

    .venv/bin/python tests/app/take_screenshots.py [--real TABLE_PHOTO RACK_PHOTO]

Without ``--real`` the app reads the test photos with the fake model (tests/fixtures/app); with it,
the committed model reads the given photos. The score sheet is filled through app.store first (a
few rounds of a game), then one more round is typed in the browser.
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
from browser_harness import chromium, click_label, running_app, screenshot, type_into, upload, wait_for_text  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--real", nargs=2, metavar=("TABLE", "RACK"), help="read these photos with the real model")
    args = parser.parse_args()
    table_photo, rack_photo = (Path(p) for p in args.real) if args.real else (FIXTURES / "table.jpg", FIXTURES / "rack.jpg")
    tmp = Path(tempfile.mkdtemp(prefix="rummi-shots-"))
    db = tmp / "rummi.sqlite3"
    _fill_scores(db)
    env = {"RUMMI_DB": str(db), "YOLO_OFFLINE": "1"}
    if not args.real:
        env["RUMMI_FAKE_READER"] = str(FAKE_JSON)
    with running_app(env) as url, chromium(1280, 1500) as driver:
        try:
            return _shoot(driver, url, table_photo, rack_photo)
        except Exception:
            screenshot(driver, tmp / "failed.png")
            print(f"failed: the page is in {tmp / 'failed.png'}")
            raise


def _shoot(driver, url: str, table_photo: Path, rack_photo: Path) -> int:
    if True:
        driver.get(url)
        wait_for_text(driver, "Check the table")
        upload(driver, table_photo)
        t0 = time.perf_counter()
        wait_for_text(driver, "melds", timeout=60)
        wait_for_text(driver, "Initial meld", timeout=60)
        print(f"check the table: result on screen {time.perf_counter() - t0:.2f} s after the upload")
        time.sleep(1.0)
        print(screenshot(driver, OUT / "check-table.png"))

        click_label(driver, "My turn")
        wait_for_text(driver, "My rack")
        click_label(driver, "Type it")
        type_into(driver, "The melds on the table (empty: nothing on the table yet)",
                  "R10 R11 R12 | B9 K9 R9 | O5 O6 O7 O8 | K5 K6 K7")
        click_label(driver, "Photo")
        upload(driver, rack_photo)
        wait_for_text(driver, "tiles read", timeout=60)
        click_label(driver, "I have already opened")
        wait_for_text(driver, "Best play", timeout=60)
        time.sleep(1.0)
        print(screenshot(driver, OUT / "my-turn.png"))

        click_label(driver, "End of round")
        wait_for_text(driver, "Score sheet")
        type_into(driver, "Tiles left on Omer's rack", "K3 R11")
        type_into(driver, "Tiles left on Lior's rack", "B2 O7 J")
        wait_for_text(driver, "Score")
        time.sleep(1.5)
        print(screenshot(driver, OUT / "end-of-round.png"))
        click_label(driver, "Save the round")
        wait_for_text(driver, "Round 5 saved.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
