"""Page 4, "Settings": house rules and language, saved and used by the other pages; the database path."""

from __future__ import annotations

from app.store import Store
from app_helpers import assert_ok, go, page_text, start_app
from engine.rules import RearrangePenalty


def test_house_rules_saved_and_used(app, db_path):
    go(app, "settings")
    assert str(db_path) in [c.value for c in app.code]
    app.selectbox(key="set_initial_meld").set_value(50)
    app.checkbox(key="set_wrap").check()
    app.number_input(key="set_joker").set_value(25)
    app.selectbox(key="set_rearrange").set_value(RearrangePenalty.ONE_TILE)
    app.checkbox(key="set_additions").check()
    app.radio(key="set_dealt").set_value(16).run()
    assert_ok(app)
    rules = Store(db_path).house_rules()
    assert (rules.initial_meld, rules.wrap_around, rules.joker_penalty, rules.rearrange_penalty,
            rules.opening_additions, rules.tiles_dealt) == (50, True, 25, RearrangePenalty.ONE_TILE, True, 16)

    # a new session (restart) starts from the saved rules, and the pages use them
    again = start_app()
    go(again, "settings")
    assert again.selectbox(key="set_initial_meld").value == 50
    go(again, "check")
    again.radio(key="table_source").set_value("type").run()
    again.text_area(key="table_text").set_value("O12 O13 O1 | R10 R11 R12").run()
    text = page_text(again)
    assert "Meld 1 — O12 O13 O1 — run, 26 points" in text  # wrap-around is on
    again.multiselect[0].set_value([1]).run()
    assert any("33 of 50 points" in w.value for w in again.warning)

    go(again, "settings")
    again.button(key="set_defaults").click().run()
    assert_ok(again)
    assert Store(db_path).house_rules().initial_meld == 30
    assert again.selectbox(key="set_initial_meld").value == 30


def test_hebrew_is_right_to_left_and_persisted(app, db_path):
    go(app, "settings")
    app.radio(key="set_language").set_value("he").run()
    assert_ok(app)
    assert Store(db_path).get_setting("language") == "he"
    assert any("direction: rtl" in m.value for m in app.markdown)
    assert app.header[0].value == "הגדרות"
    again = start_app()
    assert any("direction: rtl" in m.value for m in again.markdown)
    assert again.header[0].value == "בדיקת השולחן"
    again.radio(key="table_source").set_value("type").run()
    again.text_area(key="table_text").set_value("R1 R2 R3").run()
    assert "רצף, 6 נקודות" in page_text(again)
    go(again, "settings")
    again.radio(key="set_language").set_value("en").run()
    assert not any("direction: rtl" in m.value for m in again.markdown)


def test_two_tabs_never_undo_each_other(app, db_path):
    other = start_app()  # a second browser tab: its own session, the same database
    go(app, "settings")
    go(other, "settings")
    app.selectbox(key="set_initial_meld").set_value(50).run()
    other.checkbox(key="set_wrap").check().run()  # the other tab still showed 30 when this was changed
    rules = Store(db_path).house_rules()
    assert rules.initial_meld == 50 and rules.wrap_around
    assert other.selectbox(key="set_initial_meld").value == 50  # and it shows the saved value now
    app.run()
    assert app.checkbox(key="set_wrap").value is True
