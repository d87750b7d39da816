"""Page 2, "My turn": the best play from a typed or photographed rack, or "draw"; bad input."""

from __future__ import annotations

from app_helpers import assert_ok, go, page_text, photo, tap

TABLE = "R10 R11 R12 | B9 K9 R9 | O5 O6 O7 O8 | K5 K6 K7"
RACK = "K8 R13 O9 O4 B2 K1 B11"


def _typed(at, table: str, rack: str, opened: bool):
    go(at, "turn")
    at.text_area(key="turn_table_text").set_value(table)
    at.text_input(key="rack_text").set_value(rack)
    box = at.checkbox(key="turn_opened")
    (box.check() if opened else box.uncheck()).run()
    assert_ok(at)
    return page_text(at)


def test_best_play_with_steps_table_and_alternatives(app):
    text = _typed(app, TABLE, RACK, opened=True)
    assert "Play 4 tiles (34 points)" in text
    # O9 joins B9 K9 R9 or the run O4-O8: two equally good plays, the solver may show either
    assert "Tiles to play: R13 O9 O4 K8" in text or "Tiles to play: R13 O4 O9 K8" in text
    assert "1. add R13 from your rack to R10 R11 R12, making R10 R11 R12 R13" in text
    assert "Meld 4: K5 K6 K7 K8⁺" in text
    assert "Left on the rack: B2 K1 B11" in text
    assert "proven best" in text
    assert app.expander and "Other plays (2)" in app.expander[0].label


def test_steps_in_hebrew_on_a_hebrew_page(app):
    go(app, "settings")
    app.radio(key="set_language").set_value("he").run()
    text = _typed(app, "B9 B10 J B12 | K3 K4 K5", "B11 K7 K6", opened=True)
    assert "1. החליפו את הג'וקר ב-\u2066B9 B10 J B12\u2069 ב-\u2066B11\u2069 מהמעמד" in text
    assert "2. הרכיבו \u2066K6 K7 J\u2069: הג'וקר ו-\u2066K6 K7\u2069 מהמעמד" in text
    assert "replace the joker" not in text


def test_opening_meld_from_the_rack(app):
    text = _typed(app, "", "R10 R11 R12 K1 K2", opened=False)
    assert "Play 3 tiles (33 points) · opening with 33 of 30" in text


def test_no_opening_meld_says_draw_and_how_far(app):
    text = _typed(app, TABLE, "K1 K2 K3 B5 O13", opened=False)
    assert "No opening meld – draw a tile. Your best new melds are worth 6 of the 30 points needed (24 short)." in text


def test_table_from_the_check_page_and_rack_from_a_photo(app):
    app.file_uploader(key="table_upload").set_value(photo("table.jpg")).run()
    tap(app, "table", 560, 279)  # B8, read wrong
    next(s for s in app.selectbox if s.key.startswith("table_code_")).set_value("K7").run()
    app.button(key="table_recode").click().run()
    go(app, "turn")
    assert app.radio(key="turn_table_source").value == "checked"
    app.radio(key="rack_source").set_value("photo").run()
    app.file_uploader(key="rack_upload").set_value(photo("rack.jpg")).run()
    app.checkbox(key="turn_opened").check().run()
    assert_ok(app)
    text = page_text(app)
    assert "Play 4 tiles (34 points)" in text


def test_uncorrected_table_photo_asks_to_fix_the_table(app):
    app.file_uploader(key="table_upload").set_value(photo("table.jpg")).run()
    go(app, "turn")
    app.text_input(key="rack_text").set_value(RACK).run()
    assert_ok(app)
    assert any("Table meld 4 (K5 K6 B8) is not valid" in e.value for e in app.error)
    assert "Best play" not in page_text(app)


def test_a_tile_already_twice_on_the_table(app):
    _typed(app, "R5 R6 R7 | R5 R6 R7", "R5 K1", opened=True)
    assert any("3 copies of R5: a full set has only 2" in e.value for e in app.error)
    assert app.text_input(key="rack_text").value == "R5 K1"


def test_rack_typo_keeps_the_text(app):
    _typed(app, TABLE, "K8 R14", opened=True)
    assert any("R14" in e.value and "1-13" in e.value for e in app.error)
    assert app.text_input(key="rack_text").value == "K8 R14"
    assert app.text_area(key="turn_table_text").value == TABLE


def test_typed_inputs_survive_a_visit_to_another_page(app):
    _typed(app, TABLE, "K8 R14", opened=True)
    go(app, "round")
    go(app, "check")
    go(app, "turn")
    assert app.text_input(key="rack_text").value == "K8 R14"
    assert app.text_area(key="turn_table_text").value == TABLE
    assert app.checkbox(key="turn_opened").value is True


def test_a_rack_photo_corrected_by_tapping(app):
    go(app, "turn")
    app.text_area(key="turn_table_text").set_value(TABLE)
    app.radio(key="rack_source").set_value("photo").run()
    app.file_uploader(key="rack_upload").set_value(photo("rack.jpg")).run()
    app.checkbox(key="turn_opened").check().run()
    assert "Read as: K8 R13 O9 O4 B2 K1 B11" in page_text(app)
    tap(app, "rack", 397, 100, width=800, height=200)  # O4: not on the rack after all
    assert "rack_move_to" not in [s.key for s in app.selectbox]  # a rack has no melds
    app.button(key="rack_delete").click().run()
    tap(app, "rack", 120, 100, width=800, height=200)  # a tile the reader missed, left of K8
    app.selectbox(key="rack_add_code").set_value("K9").run()
    app.button(key="rack_add").click().run()
    assert_ok(app)
    text = page_text(app)
    assert "Read as: K9 K8 R13 O9 B2 K1 B11" in text
    assert "Best play" in text and "O4" not in text.split("Best play")[1].split("Left on the rack")[0]
    app.button(key="rack_undo").click().run()
    assert "Read as: K8 R13 O9 B2 K1 B11" in page_text(app)
