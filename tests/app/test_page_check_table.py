"""Page 1, "Check the table": photo in, melds out; corrections by tapping (add, delete, move,
recode, undo/redo) re-check everything; typed tables; bad input."""

from __future__ import annotations

import pytest
from app_helpers import FIXTURES, assert_ok, page_text, photo, start_app, tap


def _upload_table(at):
    at.file_uploader(key="table_upload").set_value(photo("table.jpg")).run()
    assert_ok(at)
    return at


def test_photo_shows_the_melds_with_values_and_the_invalid_one(app):
    _upload_table(app)
    text = page_text(app)
    assert "Meld 1 — R10 R11 R12 — run, 33 points" in text
    assert "Meld 2 — B9 K9 R9 — group, 27 points" in text
    assert "Meld 3 — O5 O6 O7 O8 — run, 26 points" in text
    assert "❌ Meld 4 — K5 K6 B8 — not valid: K5 K6 B8 mixes colours and numbers" in text
    assert "1 of 4 melds are not valid." in text
    assert "Valid melds on the table: 86 points" in text
    picture = app.session_state["photo_table"].picture  # the annotated photo, the tap target
    assert picture.shape == (1200, 1600, 3)
    # doubtful tiles stand out, and are first in the list of tiles
    assert any("Please check these tiles" in w.value and "#13 **B8** (58%) or K7?" in w.value for w in app.warning)
    pick = app.selectbox(key="table_pick")
    assert pick.options[1].startswith("#13: B8 (58%) · Meld 4 ⚠ check")
    # and the meld that is not valid is listed first
    assert page_text(app).index("Meld 4 — K5 K6 B8") < page_text(app).index("Meld 1 — R10")


def _code_box(at):
    return next(s for s in at.selectbox if s.key.startswith("table_code_"))


def test_correcting_a_tile_rechecks_everything(app):
    _upload_table(app)
    tap(app, "table", 560, 279)  # B8, on the 800 x 600 picture
    assert app.session_state["photo_table"].selected == 12
    assert _code_box(app).value == "B8" and len(_code_box(app).options) == 53
    _code_box(app).set_value("K7").run()
    app.button(key="table_recode").click().run()
    assert_ok(app)
    text = page_text(app)
    assert "✅ Meld 4 — K5 K6 K7 — run, 18 points" in text
    assert "All 4 melds are valid." in text and "1 change(s) made by hand" in text
    assert "Valid melds on the table: 104 points" in text
    # undo brings the reading back, redo the correction
    app.button(key="table_undo").click().run()
    assert_ok(app)
    assert "❌ Meld 4 — K5 K6 B8" in page_text(app) and "Valid melds on the table: 86 points" in page_text(app)
    app.button(key="table_redo").click().run()
    assert "✅ Meld 4 — K5 K6 K7 — run, 18 points" in page_text(app)


def test_the_tile_list_selects_like_a_tap(app):
    _upload_table(app)
    app.selectbox(key="table_pick").set_value(12).run()
    assert_ok(app)
    assert app.session_state["photo_table"].selected == 12 and _code_box(app).value == "B8"


def test_delete_a_false_tile_then_add_the_missed_one_by_tapping(app, db_path):
    _upload_table(app)
    tap(app, "table", 560, 279)  # B8 is not what lies there
    app.button(key="table_delete").click().run()
    assert_ok(app)
    text = page_text(app)
    assert "❌ Meld 4 — K5 K6 — not valid" in text and "Valid melds on the table: 86 points" in text
    tap(app, "table", 560, 279)  # the spot is empty now: add a tile there
    state = app.session_state["photo_table"]
    assert state.selected is None and state.pending is not None
    assert app.selectbox(key="table_add_meld").value == state.fixed.meld_ids[3]  # next to K5 K6
    app.selectbox(key="table_add_code").set_value("K7").run()
    app.button(key="table_add").click().run()
    assert_ok(app)
    text = page_text(app)
    assert "✅ Meld 4 — K5 K6 K7 — run, 18 points" in text and "All 4 melds are valid." in text
    assert "Valid melds on the table: 104 points" in text and "2 change(s) made by hand" in text
    # kept with the photo in the store, edits and all
    from app.store import Store

    (kept,) = Store(db_path).readings(corrected=True)
    assert [e["op"] for e in kept["edits"]] == ["delete", "add"] and kept["photo"] == "table.jpg"
    assert [t["code"] for t in kept["original"]["tiles"]][12] == "B8"
    assert [m["codes"] for m in kept["reading"]["melds"]][3] == ["K5", "K6", "K7"]


def test_add_a_missed_tile_at_the_end_of_a_meld(app):
    _upload_table(app)
    tap(app, "table", 256, 99)  # right of R12
    app.selectbox(key="table_add_code").set_value("R13").run()
    app.button(key="table_add").click().run()
    assert_ok(app)
    assert "✅ Meld 1 — R10 R11 R12 R13 — run, 46 points" in page_text(app)


def test_move_a_tile_to_a_new_meld_and_undo(app):
    _upload_table(app)
    tap(app, "table", 256, 279)  # O8
    state = app.session_state["photo_table"]
    assert state.fixed.reading.tiles[9].code == "O8" and state.selected == 9
    app.selectbox(key="table_move_to").set_value(-1).run()  # a new meld
    app.button(key="table_move").click().run()
    assert_ok(app)
    text = page_text(app)
    assert "✅ Meld 3 — O5 O6 O7 — run, 18 points" in text
    assert "❌ Meld 5 — O8 — not valid" in text and "2 of 5 melds are not valid." in text
    # move it into meld 4 instead: undo, then move there
    app.button(key="table_undo").click().run()
    assert "Meld 3 — O5 O6 O7 O8 — run, 26 points" in page_text(app) and "Meld 5" not in page_text(app)
    tap(app, "table", 560, 279)  # B8 ...
    app.selectbox(key="table_move_to").set_value(2).run()  # ... into meld 3
    app.button(key="table_move").click().run()
    assert "Meld 3 — O5 O6 O7 O8 B8 — not valid" in page_text(app) and "Meld 4 — K5 K6 — not valid" in page_text(app)


def test_the_initial_meld_total_follows_the_corrections(app):
    _upload_table(app)
    app.multiselect[0].set_value([3]).run()  # K5 K6 B8: not valid
    assert any("0 of 30 points" in w.value for w in app.warning)
    tap(app, "table", 560, 279)
    _code_box(app).set_value("K7").run()
    app.button(key="table_recode").click().run()
    assert any("18 of 30 points" in w.value for w in app.warning)


def test_initial_meld_total_of_chosen_melds(app):
    _upload_table(app)
    pick = app.multiselect[0]
    pick.set_value([1]).run()  # B9 K9 R9 = 27 < 30
    assert any("27 of 30 points" in w.value for w in app.warning)
    app.multiselect[0].set_value([0, 1]).run()  # 33 + 27 = 60
    assert any("60 points: enough to open" in s.value for s in app.success)


def test_typed_table(app):
    app.radio(key="table_source").set_value("type").run()
    app.text_area(key="table_text").set_value("R1 R2 R3 | K7 R7 B7 O7\nJ O5 O6").run()
    assert_ok(app)
    text = page_text(app)
    assert "Meld 1 — R1 R2 R3 — run, 6 points" in text
    assert "Meld 2 — K7 R7 B7 O7 — group, 28 points" in text
    assert "Meld 3 — J O5 O6 — run, 15 points" in text


def test_typo_shows_an_error_and_keeps_the_text(app):
    app.radio(key="table_source").set_value("type").run()
    typed = "R10 R11 R12 | K7 X7 B7"
    app.text_area(key="table_text").set_value(typed).run()
    assert_ok(app)
    assert any("X7" in e.value and "unknown colour" in e.value for e in app.error)
    assert app.text_area(key="table_text").value == typed
    # and the app keeps working: fix the typo
    app.text_area(key="table_text").set_value("R10 R11 R12 | K7 R7 B7").run()
    assert not app.error and "All 2 melds are valid." in page_text(app)


def test_not_an_image_is_a_clear_error_and_the_app_keeps_working(app):
    # (the uploader itself refuses other extensions: a text file named .jpg gets through)
    text_file = (FIXTURES / "notes.txt").read_bytes()
    app.file_uploader(key="table_upload").set_value(("notes.jpg", text_file, "image/jpeg")).run()
    assert_ok(app)
    assert any("This photo cannot be used" in e.value and "not a photo" in e.value for e in app.error)
    _upload_table(app)
    assert not app.error[1:] and "Meld 1 — R10 R11 R12" in page_text(app)


def test_photo_without_tiles_is_a_warning(app, tmp_path):
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (500, 500), (40, 110, 70)).save(buf, format="PNG")  # square: the fake has no such photo
    app.file_uploader(key="table_upload").set_value(("empty.png", buf.getvalue(), "image/png")).run()
    assert_ok(app)
    assert any("No tiles found in this photo" in w.value for w in app.warning)
    assert "Melds" not in page_text(app)


@pytest.mark.parametrize("tone", ["grey", "sepia"])
def test_a_photo_with_no_colours_says_once_that_no_colour_can_be_read(app, tone):
    import io

    import numpy as np
    from PIL import Image

    from bench.bench_phones import CHANGES

    taken = Image.open(io.BytesIO(photo("table.jpg")[1])).convert("RGB")
    if tone == "grey":
        toned = taken.convert("L")
    else:  # a phone's sepia filter
        toned = Image.fromarray(CHANGES["sepia"](np.asarray(taken), np.random.default_rng(0)))
    buf = io.BytesIO()
    toned.save(buf, format="PNG")  # the same photo, through the filter
    app.file_uploader(key="table_upload").set_value((f"{tone}.png", buf.getvalue(), "image/png")).run()
    assert_ok(app)
    notes = [w.value for w in app.warning if "Please check these tiles" in w.value]
    assert len(notes) == 1 and notes[0].count("This photo has no colours in it (black and white, sepia or faded)") == 1
    assert "the photo has no colours (black and white, sepia or faded): check this tile's colour" in notes[0]


def test_missing_model_says_type_instead(db_path, monkeypatch, tmp_path):
    from app_helpers import clear_caches

    monkeypatch.delenv("RUMMI_TILE_MODEL", raising=False)
    monkeypatch.setenv("RUMMI_MODELS", str(tmp_path))  # no model files there
    clear_caches()
    at = start_app()
    at.file_uploader(key="table_upload").set_value(photo("table.jpg")).run()
    assert_ok(at)
    assert any("Type the tiles instead" in e.value for e in at.error)
    clear_caches()


def test_huge_photo_is_refused_with_a_clear_message(app):
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("1", (11000, 10000)).save(buf, format="PNG")  # 110 megapixels, a few KB
    app.file_uploader(key="table_upload").set_value(("huge.png", buf.getvalue(), "image/png")).run()
    assert_ok(app)
    assert any("too large" in e.value for e in app.error)
    _upload_table(app)  # and the next photo is read as usual
    assert "Meld 1 — R10 R11 R12" in page_text(app)


def test_a_crash_while_reading_is_a_message_not_a_traceback(app, monkeypatch):
    import app.ui.fix_photo as fix_photo

    def broken(*args, **kwargs):
        raise RuntimeError("the model fell over")

    monkeypatch.setattr(fix_photo, "read_photo", broken)
    app.file_uploader(key="table_upload").set_value(photo("table.jpg")).run()
    assert not app.exception
    assert any("Something went wrong (RuntimeError: the model fell over)" in e.value for e in app.error)
    app.radio(key="table_source").set_value("type").run()  # the app keeps working
    app.text_area(key="table_text").set_value("R1 R2 R3").run()
    assert "Meld 1 — R1 R2 R3 — run, 6 points" in page_text(app)


def test_a_bug_in_a_page_is_a_message_not_a_traceback(app, monkeypatch):
    import app.ui.check_table as page

    monkeypatch.setattr(page, "show_melds", lambda ctx, melds, **kw: 1 / 0)
    app.radio(key="table_source").set_value("type").run()
    app.text_area(key="table_text").set_value("R1 R2 R3").run()
    assert not app.exception
    assert any("Something went wrong (ZeroDivisionError" in e.value for e in app.error)
    assert app.text_area(key="table_text").value == "R1 R2 R3"


def test_hebrew_page_says_the_engines_reasons_in_hebrew(db_path, fake_reader):
    from app.store import Store

    Store(db_path).set_setting("language", "he")
    at = start_app()
    at.file_uploader(key="table_upload").set_value(photo("table.jpg")).run()
    assert_ok(at)
    text = "\n".join(m.value for m in at.markdown)
    meld4 = next(line for line in text.splitlines() if "סדרה 4" in line)
    # the reason in Hebrew, its tile list kept left to right inside it
    assert "\u2066K5 K6 B8\u2069 מערבבת צבעים ומספרים" in meld4 and "mixes" not in text
    assert "\u2066 **K5** **K6** **:blue[B8]** \u2069" in meld4  # the meld's tiles, left to right as a whole
    assert any("סדרה 1 מתוך 4" in e.value or "1 מתוך 4" in e.value for e in at.error)
    assert any("בדקו בבקשה" in w.value for w in at.warning)
    assert "direction: rtl" in text  # the page is laid out right to left
    at.multiselect[0].set_value([3]).run()
    assert any("0 מתוך 30 נקודות" in w.value and "\u2066K5 K6 B8\u2069" in w.value for w in at.warning)


def test_a_photo_the_reader_is_sure_of_few_tiles_on_says_to_take_it_again(db_path, monkeypatch, tmp_path):
    """One tile of twelve read surely, the rest at odds with the number reader: the page says the reader is sure of
    none, and why, and asks for the photo again."""
    import json

    from app_helpers import clear_caches
    from json_tile_model import injected_env

    monkeypatch.syspath_prepend(str(FIXTURES))
    from make_fixtures import draw

    width, height = 1000, 500  # 2:1, no other photo of the fake's
    boxes = [(20 + 80 * k, 200, 76 + 80 * k, 278) for k in range(12)]
    drawn = {boxes[0]: "K4", **{b: f"B{k + 1}" for k, b in enumerate(boxes[1:], start=1)}}  # as printed
    unsure = [{f"O{(k + 5) % 13 + 1}": 0.5, f"R{(k + 9) % 13 + 1}": 0.45} for k in range(1, 12)]  # neither is printed
    tiles = [{"box": list(boxes[0]), "score": 0.95, "probs": {"K4": 0.999}}]
    tiles += [{"box": list(b), "score": 0.95, "probs": p} for b, p in zip(boxes[1:], unsure)]
    spec = {"name": "hard.png", "width": width, "height": height, "tiles": tiles}
    fake = tmp_path / "hard.json"
    fake.write_text(json.dumps({"photos": [spec]}))
    draw(spec, drawn, (38, 110, 70), 1, tmp_path / "hard.png")
    for key, value in injected_env(fake).items():
        monkeypatch.setenv(key, value)
    clear_caches()
    try:
        at = start_app()
        upload = ("hard.png", (tmp_path / "hard.png").read_bytes(), "image/png")
        at.file_uploader(key="table_upload").set_value(upload).run()
        assert_ok(at)
        notes = [w.value for w in at.warning if "Please check these tiles" in w.value]
        assert len(notes) == 1
        assert "The reader could read few of this photo's tiles surely, so it shows none as sure" in notes[0]
        held = "the reader could read few of this photo's tiles surely, so it is sure of none: check this tile"
        assert held in notes[0]  # the tile it was sure of, said why
        assert "K4" in notes[0]  # the one tile it was sure of is among those to check
    finally:
        clear_caches()
