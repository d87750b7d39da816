"""Rummikub Twist in the app (issue 15): the house rule in Settings, the special jokers JD, JM, JC
typed on every page, what each stands for, hints and scores with them, and in Hebrew."""

from __future__ import annotations

from app.i18n import reason_text, tr
from app.store import Store, rules_from_dict, rules_to_dict
from app.ui.common import tile_codes, twist_off_reason
from app.ui.edits import EditError, Recode, apply_edits
from app_helpers import assert_ok, game_id, go, new_game, page_text, start_app
from engine.reasons import Reason
from engine.rules import DEFAULT_RULES
from engine.tiles import SPECIAL_NAMES
from test_edits import _table

TABLE = "R2 JD R5 | K7 K8 JM K8 K7"


def _twist(at, on: bool = True):
    go(at, "settings")
    box = at.checkbox(key="set_twist")
    (box.check() if on else box.uncheck()).run()
    assert_ok(at)
    return at


def _check(at, table: str) -> str:
    go(at, "check")
    at.radio(key="table_source").set_value("type").run()
    at.text_area(key="table_text").set_value(table).run()
    assert_ok(at)
    return page_text(at)


# --------------------------------------------------------------------------- settings


def test_the_twist_toggle_is_saved_and_reloaded(app, db_path):
    assert app.session_state  # started
    go(app, "settings")
    assert app.checkbox(key="set_twist").value is False
    _twist(app)
    assert Store(db_path).house_rules().twist is True
    again = start_app()  # a restart reads it back
    go(again, "settings")
    assert again.checkbox(key="set_twist").value is True
    again.button(key="set_defaults").click().run()  # the rulebook: the base game
    assert Store(db_path).house_rules().twist is False


def test_rules_without_the_twist_key_load_as_off():
    data = rules_to_dict(DEFAULT_RULES.with_(twist=True))
    assert data["twist"] is True and rules_from_dict(data).twist is True
    del data["twist"]  # a database saved before Rummikub Twist
    assert rules_from_dict(data).twist is False
    assert rules_from_dict({"twist": "yes"}).twist is False  # not a yes/no: the default


# --------------------------------------------------------------------------- check the table


def test_a_typed_twist_table_shows_the_melds_the_double_and_the_total(app):
    _twist(app)
    text = _check(app, TABLE)
    assert "✅ Meld 1 — R2 JD R5 — run, 14 points (double joker = R3 R4)" in text
    assert "✅ Meld 2 — K7 K8 JM K8 K7 — mirror set, 30 points" in text
    assert "All 2 melds are valid." in text
    assert "Valid melds on the table: 44 points" in text
    assert "JD double joker" in text  # the notation help names the special jokers


def test_without_the_rule_a_special_joker_is_a_notation_error(app):
    text = _check(app, TABLE)
    assert "Typo in the tiles: JD: JD is a Rummikub Twist joker: only with the twist house rule" in text
    assert "Meld 1" not in text
    assert app.text_area(key="table_text").value == TABLE  # what was typed is kept


def test_a_table_checked_with_twist_is_explained_after_the_rule_is_turned_off(app):
    _twist(app)
    _check(app, TABLE)
    _twist(app, on=False)
    go(app, "turn")  # the checked table is kept: its melds are explained, not a traceback
    app.text_input(key="rack_text").set_value("K1 K2 K3").run()
    assert_ok(app)
    assert "Table meld 1 (R2 JD R5) is not valid: JD is a Rummikub Twist joker" in page_text(app)


# --------------------------------------------------------------------------- my turn, end of round


def test_a_hint_with_a_double_joker_on_the_rack(app):
    _twist(app)
    go(app, "turn")
    app.text_area(key="turn_table_text").set_value("R10 R11 R12")
    app.text_input(key="rack_text").set_value("R3 JD R6 K1")
    app.checkbox(key="turn_opened").check().run()
    assert_ok(app)
    text = page_text(app)
    assert "Play 3 tiles (18 points)" in text
    assert "Tiles to play: R3 JD R6" in text
    assert "Left on the rack: K1" in text


def test_an_end_of_round_rack_with_a_colour_change_joker_costs_the_joker_penalty(app):
    _twist(app)
    new_game(app, "Twist night", "Dana\nOmer")
    gid = game_id(app)
    app.selectbox(key=f"g{gid}_winner").set_value("Omer").run()
    app.text_input(key=f"g{gid}_hand_0").set_value("JC K5").run()
    assert_ok(app)
    preview = app.dataframe[0].value
    assert list(preview["Value"]) == [35, 0] and list(preview["Score"]) == [-35, 35]
    assert list(preview["Left"])[0] == "JC K5"


def test_an_end_of_round_rack_with_a_special_joker_and_no_rule_says_why(app):
    new_game(app, "Base game", "Dana\nOmer")
    gid = game_id(app)
    app.selectbox(key=f"g{gid}_winner").set_value("Omer").run()
    app.text_input(key=f"g{gid}_hand_0").set_value("JC K5").run()
    assert_ok(app)
    assert any("Dana: JC: JC is a Rummikub Twist joker" in e.value for e in app.error)


# --------------------------------------------------------------------------- Hebrew


def test_twist_in_hebrew(app):
    _twist(app)
    app.radio(key="set_language").set_value("he").run()
    text = _check(app, TABLE + " | R3 JC B4")
    assert "ג'וקר כפול = " in text and "סדרת מראה, 30 נקודות" in text
    # a Twist reason in Hebrew (the colour-change joker stands between two parts of a run)
    assert "R3 JC B4⁩ אינה רצף: ג'וקר החלפת הצבע עומד בין שני חלקי רצף" in text and "not a run" not in text
    assert_ok(app)


def test_hebrew_words_for_the_special_jokers_and_the_twist_reasons():
    for s, name in SPECIAL_NAMES.items():
        assert tr(f"special_{s}") == name and tr(f"special_{s}", "he") != name
    assert tr("mirror", "he") == "סדרת מראה"
    off = reason_text(Reason("twist_off", {"tile": "JD"}), "he")
    assert "רמיקוב טוויסט" in off and "JD" in off
    codes = ("twist_only_specials", "twist_double_end", "twist_mirror_alone", "twist_mirror_unbalanced",
             "twist_colour_change_group", "twist_colour_change_place", "twist_not_a_set")
    for code in codes:
        text = reason_text(Reason(code, {"tiles": "R1 JD"}), "he")
        assert "R1 JD" in text and any("\u0590" <= c <= "\u05ff" for c in text), code


# --------------------------------------------------------------------------- the photo fixer's codes


def test_special_jokers_are_offered_and_accepted_only_with_the_rule():
    twist = DEFAULT_RULES.with_(twist=True)
    assert len(tile_codes(DEFAULT_RULES)) == 53 and tile_codes(twist)[-3:] == ["JD", "JM", "JC"]
    reading = _table()
    fixed = apply_edits(reading, [Recode(2, "jd")], twist)  # R10 R11 R12 -> R10 R11 JD (= R12 R13)
    assert fixed.reading.melds[0].codes == ["R10", "R11", "JD"] and fixed.reading.melds[0].valid
    try:
        apply_edits(reading, [Recode(2, "JD")], DEFAULT_RULES)
    except EditError as exc:
        assert exc.notation is not None and exc.notation.why_code.code == "twist_off"
    else:
        raise AssertionError("JD accepted without the Twist rule")
    # edits made with the rule on are kept when it is turned off: the melds say why
    kept = apply_edits(reading, [Recode(2, "JD")], DEFAULT_RULES, twist=True)
    assert kept.reading.melds[0].codes == ["R10", "R11", "JD"] and not kept.reading.melds[0].valid
    assert "Rummikub Twist" in (kept.reading.melds[0].reason or "")
    assert twist_off_reason(["K1", "JD"], DEFAULT_RULES) == Reason("twist_off", {"tile": "JD"})
    assert twist_off_reason(["K1", "JD"], twist) is None


def test_the_photo_fixer_offers_the_special_jokers_with_the_rule_and_keeps_them_without(app):
    from app_helpers import photo, tap

    _twist(app)
    go(app, "check")
    app.file_uploader(key="table_upload").set_value(photo("table.jpg")).run()
    tap(app, "table", 560, 279)  # B8, in K5 K6 B8
    box = next(s for s in app.selectbox if s.key.startswith("table_code_"))
    assert len(box.options) == 56 and box.options[-3:] == ["JD", "JM", "JC"]
    box.set_value("JC").run()
    app.button(key="table_recode").click().run()
    assert_ok(app)
    assert "K5 K6 JC — not valid" in page_text(app)  # a colour change needs a run on both sides
    _twist(app, on=False)  # the correction is kept, the meld says why it does not count
    go(app, "check")
    assert_ok(app)
    assert app.session_state["photo_table"].edits[-1] == Recode(12, "JC")
    text = page_text(app)
    assert "K5 K6 JC — not valid: JC is a Rummikub Twist joker" in text
    assert any("JC is a Rummikub Twist joker" in w.value for w in app.warning)  # said once
