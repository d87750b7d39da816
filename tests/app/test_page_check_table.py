"""Page 1, "Check the table": photo in, melds out; a correction re-checks; typed tables; bad input."""

from __future__ import annotations

from app_helpers import FIXTURES, assert_ok, page_text, photo, start_app


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
    assert len(app.get("image")) == 1  # the annotated photo
    # doubtful tiles stand out
    assert any("Please check these tiles" in w.value and "#13: B8" in w.value for w in app.warning)


def test_correcting_a_tile_rechecks_everything(app):
    _upload_table(app)
    app.selectbox(key="table_fix_tile").set_value(12).run()
    code_box = next(s for s in app.selectbox if s.key.startswith("table_fix_code"))
    assert code_box.value == "B8" and len(code_box.options) == 53
    code_box.set_value("K7").run()
    app.button(key="table_fix_apply").click().run()
    assert_ok(app)
    text = page_text(app)
    assert "✅ Meld 4 — K5 K6 K7 — run, 18 points" in text
    assert "All 4 melds are valid." in text and "1 tile(s) corrected by hand" in text
    # undo brings the reading back
    app.button(key="table_fix_undo").click().run()
    assert_ok(app)
    assert "❌ Meld 4 — K5 K6 B8" in page_text(app)
    assert next(s for s in app.selectbox if s.key.startswith("table_fix_code")).value == "B8"


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


def test_missing_model_says_type_instead(db_path, monkeypatch, tmp_path):
    from app_helpers import clear_caches

    monkeypatch.delenv("RUMMI_FAKE_READER", raising=False)
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
    import app.ui.common as common

    def broken(*args, **kwargs):
        raise RuntimeError("the model fell over")

    monkeypatch.setattr(common, "read_photo", broken)
    app.file_uploader(key="table_upload").set_value(photo("table.jpg")).run()
    assert not app.exception
    assert any("Something went wrong (RuntimeError: the model fell over)" in e.value for e in app.error)
    app.radio(key="table_source").set_value("type").run()  # the app keeps working
    app.text_area(key="table_text").set_value("R1 R2 R3").run()
    assert "Meld 1 — R1 R2 R3 — run, 6 points" in page_text(app)


def test_a_bug_in_a_page_is_a_message_not_a_traceback(app, monkeypatch):
    import app.ui.check_table as page

    monkeypatch.setattr(page, "show_melds", lambda ctx, melds: 1 / 0)
    app.radio(key="table_source").set_value("type").run()
    app.text_area(key="table_text").set_value("R1 R2 R3").run()
    assert not app.exception
    assert any("Something went wrong (ZeroDivisionError" in e.value for e in app.error)
    assert app.text_area(key="table_text").value == "R1 R2 R3"
