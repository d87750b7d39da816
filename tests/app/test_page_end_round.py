"""Page 3, "End of round": games, rounds scored from racks (typed or photographed) and card hands,
the score sheet (table, chart, CSV), edits and deletes, and nothing lost across restarts."""

from __future__ import annotations

import pandas as pd

from app.store import Store
from app_helpers import assert_ok, game_id, go, new_game, page_text, photo, start_app, tap


def _round(at, winner, racks: dict[int, str]):
    gid = game_id(at)
    at.selectbox(key=f"g{gid}_winner").set_value(winner).run()
    for i, text in racks.items():
        at.text_input(key=f"g{gid}_hand_{i}").set_value(text)
    at.run()
    assert_ok(at)
    return at


def _save(at):
    at.button(key=f"g{game_id(at)}_save").click().run()
    assert_ok(at)
    return at


def _sheet(at) -> pd.DataFrame:
    return at.dataframe[-1].value


def test_round_scored_saved_and_still_there_after_a_restart(app, db_path):
    new_game(app)
    assert "Rummikub tiles · Dana, Omer, Lior" in page_text(app)
    _round(app, "Lior", {0: "K5 R7", 1: "B12 O13"})
    preview = app.dataframe[0].value
    assert list(preview["Score"]) == [-12, -25, 37] and list(preview["Value"]) == [12, 25, 0]
    token = app.session_state[f"round_token_{game_id(app)}"]
    _save(app)
    assert any("Round 1 saved." in s.value for s in app.success)
    assert app.session_state[f"round_token_{game_id(app)}"] != token  # a fresh form
    assert app.text_input(key=f"g{game_id(app)}_hand_0").value == ""
    sheet = _sheet(app)
    assert sheet.loc["Round 1"].tolist() == [-12, -25, 37] and sheet.loc["Total"].tolist() == [-12, -25, 37]
    assert app.get("arrow_vega_lite_chart") or app.get("vega_lite_chart")  # the running totals

    # the same submission again (a double click, a reconnect) does not double the round
    store = Store(db_path)
    again, created = store.add_round(game_id(app), token, {"Dana": 0, "Omer": 0, "Lior": 0})
    assert not created and again.scores == {"Dana": -12, "Omer": -25, "Lior": 37}

    # restart the app on the same database
    restarted = start_app()
    go(restarted, "round")
    assert _sheet(restarted).loc["Total"].tolist() == [-12, -25, 37]
    assert "Leading: Lior (37)" in page_text(restarted)
    assert [r.number for r in store.rounds(game_id(restarted))] == [1]


def test_empty_racks_cannot_be_saved(app):
    new_game(app)
    _round(app, "Lior", {0: "K5"})
    assert any("Type what is left for: Omer" in i.value for i in app.info)
    assert app.button(key=f"g{game_id(app)}_save").disabled


def test_pool_exhausted_lowest_rack_wins(app):
    new_game(app, players="ann, bob, cy")
    _round(app, "__exhausted__", {0: "K10", 1: "R5 R20"})
    assert any("R20" in e.value for e in app.error)  # a typo: an error, nothing saved
    assert app.text_input(key=f"g{game_id(app)}_hand_1").value == "R5 R20"
    assert app.button(key=f"g{game_id(app)}_save").disabled
    _round(app, "__exhausted__", {0: "K10", 1: "R5 R5 R10 B5", 2: "O10 O10 O10 O10"})
    assert any("4 copies of O10: a full set has only 2" in e.value for e in app.error)  # more than a set has
    _round(app, "__exhausted__", {0: "K10", 1: "R5 R5 R10 B5", 2: "O10 O11 O12 J"})
    # the encyclopedia text (default): the others pay their own racks (10, 25, 63)
    assert list(app.dataframe[0].value["Score"]) == [88, -25, -63]
    assert "Lowest rack wins: ann" in page_text(app)
    _save(app)
    assert _sheet(app).loc["Total"].tolist() == [88, -25, -63]


def test_rack_from_a_photo(app, db_path):
    new_game(app, players="Dana\nOmer")
    gid = game_id(app)
    app.selectbox(key=f"g{gid}_winner").set_value("Dana").run()
    app.radio(key=f"g{gid}_src_1").set_value("photo").run()
    app.file_uploader(key=f"g{gid}_round1_rack_1_upload").set_value(photo("rack2.jpg")).run()
    assert_ok(app)
    assert "Read as: B12 O13 J" in page_text(app)
    assert list(app.dataframe[0].value["Score"]) == [55, -55]  # 12 + 13 + a joker's 30
    _save(app)
    assert _sheet(app).loc["Total"].tolist() == [55, -55]
    (saved,) = Store(db_path).rounds(gid)
    (kept,) = Store(db_path).readings(round_id=saved.id)
    assert kept["player"] == "Omer" and kept["photo"] == "rack2.jpg"
    assert [t["code"] for t in kept["reading"]["tiles"]] == ["B12", "O13", "J"]


def test_rack_photo_corrected_before_the_round_is_saved(app, db_path):
    new_game(app, players="Dana\nOmer")
    gid = game_id(app)
    app.selectbox(key=f"g{gid}_winner").set_value("Dana").run()
    app.radio(key=f"g{gid}_src_1").set_value("photo").run()
    app.file_uploader(key=f"g{gid}_round1_rack_1_upload").set_value(photo("rack2.jpg")).run()
    assert "Read as: B12 O13 J" in page_text(app)
    tap(app, f"g{gid}_round1_rack_1", 359, 100, width=600, height=200)  # the joker was a reflection
    app.button(key=f"g{gid}_round1_rack_1_delete").click().run()
    assert_ok(app)
    assert "Read as: B12 O13" in page_text(app)
    assert list(app.dataframe[0].value["Score"]) == [25, -25]
    _save(app)
    (saved,) = Store(db_path).rounds(gid)
    (kept,) = Store(db_path).readings(round_id=saved.id)
    assert [t["code"] for t in kept["reading"]["tiles"]] == ["B12", "O13"]
    assert kept["edits"] == [{"op": "delete", "tile": 2}] and kept["photo_sha"] and kept["player"] == "Omer"
    assert len(Store(db_path).readings()) == 1  # kept once: the reading became the round's


def test_edit_and_delete_a_round_with_confirmation(app, db_path):
    new_game(app, players="Dana\nOmer")
    gid = game_id(app)
    _round(app, "Dana", {1: "K5"})
    _save(app)
    _round(app, "Omer", {0: "R3"})
    _save(app)
    assert _sheet(app).loc["Total"].tolist() == [5 - 3, -5 + 3]
    rounds = Store(db_path).rounds(gid)
    first = rounds[0]
    app.selectbox(key=f"g{gid}_edit_pick").set_value(first.id).run()
    app.number_input(key=f"edit_{first.id}_0").set_value(9)
    app.number_input(key=f"edit_{first.id}_1").set_value(-9)
    app.button(key=f"edit_save_{first.id}").click().run()
    assert_ok(app)
    assert _sheet(app).loc["Round 1"].tolist() == [9, -9]
    # delete asks first; cancel keeps the round
    app.button(key=f"delete_{first.id}").click().run()
    assert any("Delete round 1?" in w.value for w in app.warning)
    app.button(key=f"delete_no_{first.id}").click().run()
    assert len(Store(db_path).rounds(gid)) == 2
    app.button(key=f"delete_{first.id}").click().run()
    app.button(key=f"delete_yes_{first.id}").click().run()
    assert_ok(app)
    assert [r.scores for r in Store(db_path).rounds(gid)] == [{"Dana": -3, "Omer": 3}]
    assert _sheet(app).index.tolist() == ["Round 1", "Total"]


def test_csv_export(app, db_path):
    new_game(app, players="Dana\nOmer")
    _round(app, "Dana", {1: "K5 K6"})
    _save(app)
    button = app.get("download_button")[0]
    assert "Download the score sheet" in button.proto.label
    assert Store(db_path).export_csv(game_id(app)).splitlines()[1] == "1,11,-11,Dana"


def test_closed_rummy_card_game(app):
    new_game(app, name="cards", players="Dana\nOmer\nLior", kind="closed")
    gid = game_id(app)
    assert f"g{gid}_src_1" not in [r.key for r in app.radio]  # cards are typed
    _round(app, "Omer", {0: "KH QH 7S *", 2: "AS 2D"})
    # played for a pot: one coin each, the declarer takes the pot
    assert list(app.dataframe[0].value["Score"]) == [-1, 2, -1]
    _save(app)
    assert _sheet(app).loc["Total"].tolist() == [-1, 2, -1]
    text = page_text(app)
    assert "Coin balance (the pot)" in text and "🪙 Omer: +2" in text and "🪙 Dana: -1" in text
    assert "puts 1 coin(s) into the pot" in text


def test_closed_rummy_pot_with_a_bigger_entry(app, db_path):
    go(app, "round")
    app.text_input(key="new_game_name").set_value("cards")
    app.radio(key="new_game_kind").set_value("closed")
    app.text_area(key="new_game_players").set_value("Dana\nOmer\nLior")
    app.number_input(key="new_game_entry").set_value(5)
    app.button[0].click().run()
    assert_ok(app)
    assert Store(db_path).game(game_id(app)).options == {"entry": 5}
    _round(app, "Dana", {1: "KH", 2: "AS"})
    _save(app)
    _round(app, "Omer", {0: "2D", 2: "3C"})
    _save(app)
    assert _sheet(app).loc["Total"].tolist() == [10 - 5, -5 + 10, -10]
    assert "🪙 Dana: +5" in page_text(app) and "🪙 Lior: -10" in page_text(app)


def test_classic_rummy_winner_scores_the_hands(app):
    new_game(app, name="classic", players="a\nb", kind="classic")
    _round(app, "a", {1: "KH QH 7S 5D 3C 2C 9H 9S 9D 8C 8D 8H 10S KS"})
    assert list(app.dataframe[0].value["Score"]) == [108, 0]
    _save(app)
    assert "a wins the game!" in page_text(app)


def test_bad_card_is_an_error_that_keeps_the_text(app):
    new_game(app, name="cards", players="Dana\nOmer", kind="closed")
    _round(app, "Dana", {1: "KH 1H"})
    assert any("1H" in e.value for e in app.error)
    assert app.text_input(key=f"g{game_id(app)}_hand_1").value == "KH 1H"


def test_bad_new_game_keeps_the_form(app):
    go(app, "round")
    app.text_input(key="new_game_name").set_value("solo")
    app.text_area(key="new_game_players").set_value("Dana")
    app.button[0].click().run()
    assert_ok(app)
    assert any("at least two players" in e.value for e in app.error)
    assert app.text_input(key="new_game_name").value == "solo"
