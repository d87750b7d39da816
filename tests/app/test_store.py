"""The SQLite store: games, rounds (idempotent), edits, deletes, settings, readings, CSV."""

from __future__ import annotations

import csv
import io
import sqlite3
import threading

import pytest

from app.store import Store, StoreError, default_db_path, new_token, rules_from_dict, rules_to_dict
from engine.rules import DEFAULT_RULES, HouseRules, RearrangePenalty


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "sub" / "rummi.sqlite3")


def test_created_on_first_use_in_wal_mode(tmp_path):
    path = tmp_path / "a" / "b" / "db.sqlite3"
    store = Store(path)
    assert path.exists()
    assert store.journal_mode.lower() == "wal"
    assert store.games() == []


def test_default_path_from_env_and_user_data_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("RUMMI_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"
    monkeypatch.delenv("RUMMI_DB")
    path = default_db_path()
    assert path.name == "rummi.sqlite3" and "rummi" in str(path.parent)


def test_create_game_and_read_back(store):
    game = store.create_game(" Friday ", "rummikub", ["dana", " omer ", "", "lior"])
    assert game.name == "Friday" and game.players == ("dana", "omer", "lior") and not game.is_cards
    again = store.game(game.id)
    assert again.players == ("dana", "omer", "lior") and again.kind == "rummikub"
    cards = store.create_game("cards", "closed", ["a", "b"], {"target": 100})
    assert [g.id for g in store.games()] == [cards.id, game.id]  # newest first
    assert store.game(cards.id).options == {"target": 100} and cards.is_cards


@pytest.mark.parametrize(
    "name, kind, players, message",
    [
        ("", "rummikub", ["a", "b"], "needs a name"),
        ("g", "poker", ["a", "b"], "unknown kind"),
        ("g", "rummikub", ["a"], "at least two players"),
        ("g", "rummikub", ["Dana", "dana"], "listed twice"),
    ],
)
def test_bad_games_are_refused(store, name, kind, players, message):
    with pytest.raises(StoreError, match=message):
        store.create_game(name, kind, players)
    assert store.games() == []


def test_round_saved_once_per_token(store):
    game = store.create_game("g", "rummikub", ["dana", "omer", "lior"])
    token = new_token()
    scores = {"dana": -12, "omer": -25, "lior": 37}
    r1, created1 = store.add_round(game.id, token, scores, {"dana": "K5 R7", "omer": "B12 O13"}, "lior")
    r2, created2 = store.add_round(game.id, token, {"dana": 0, "omer": 0, "lior": 0}, winner="dana")
    assert created1 and not created2
    assert r2 == r1 and r1.number == 1 and r1.scores == scores and r1.winner == "lior"
    assert r1.hands == {"dana": "K5 R7", "omer": "B12 O13", "lior": ""}
    assert len(store.rounds(game.id)) == 1


def test_round_submitted_from_many_threads_at_once_is_saved_once(tmp_path):
    path = tmp_path / "db.sqlite3"
    game = Store(path).create_game("g", "rummikub", ["a", "b"])
    token = new_token()
    results = []

    def submit():
        results.append(Store(path).add_round(game.id, token, {"a": 5, "b": -5}, winner="a")[1])

    threads = [threading.Thread(target=submit) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] * 7 + [True]
    assert len(Store(path).rounds(game.id)) == 1


def test_round_survives_reopening_the_file(tmp_path):
    path = tmp_path / "db.sqlite3"
    game = Store(path).create_game("g", "rummikub", ["a", "b"])
    Store(path).add_round(game.id, new_token(), {"a": 10, "b": -10}, winner="a")
    reopened = Store(path)
    assert [r.scores for r in reopened.rounds(game.id)] == [{"a": 10, "b": -10}]


def test_bad_round_writes_nothing(store):
    game = store.create_game("g", "rummikub", ["a", "b"])
    with pytest.raises(StoreError, match="unknown player 'zed'"):
        store.add_round(game.id, new_token(), {"a": 1, "zed": -1})
    with pytest.raises(StoreError, match="winner"):
        store.add_round(game.id, new_token(), {"a": 1}, winner="zed")
    with pytest.raises(StoreError, match="whole number"):
        store.add_round(game.id, new_token(), {"a": 1.5})
    with pytest.raises(StoreError, match="no game"):
        store.add_round(999, new_token(), {})
    with pytest.raises(StoreError, match="token"):
        store.add_round(game.id, "", {"a": 1})
    assert store.rounds(game.id) == []


def test_a_failed_write_rolls_back_the_whole_round(store, monkeypatch):
    game = store.create_game("g", "rummikub", ["a", "b"])
    with pytest.raises(KeyError):  # a reading without its "reading" key fails half-way
        store.add_round(game.id, new_token(), {"a": 3, "b": -3}, readings=[{"player": "b"}])
    assert store.rounds(game.id) == [] and store.readings() == []


def test_edit_and_delete_rounds(store):
    game = store.create_game("g", "rummikub", ["a", "b"])
    first, _ = store.add_round(game.id, new_token(), {"a": 10, "b": -10}, winner="a")
    second, _ = store.add_round(game.id, new_token(), {"a": -4, "b": 4}, winner="b")
    assert second.number == 2
    edited = store.update_round(first.id, {"a": 12, "b": -12})
    assert edited.scores == {"a": 12, "b": -12} and edited.winner == "a" and edited.number == 1
    store.delete_round(first.id)
    rounds = store.rounds(game.id)
    assert [(r.id, r.number) for r in rounds] == [(second.id, 1)]
    with pytest.raises(StoreError, match="no round"):
        store.delete_round(first.id)
    with pytest.raises(StoreError, match="no round"):
        store.update_round(first.id, {"a": 1})


def test_score_sheet_and_csv(store):
    game = store.create_game("g", "rummikub", ["dana", "omer"])
    store.add_round(game.id, new_token(), {"dana": 25, "omer": -25}, winner="dana")
    store.add_round(game.id, new_token(), {"dana": -7, "omer": 7}, winner="omer")
    store.add_round(game.id, new_token(), {"dana": 3, "omer": -3}, exhausted=True)
    sheet = store.score_sheet(game.id)
    assert sheet.totals() == {"dana": 21, "omer": -21}
    assert sheet.running_totals()[1] == {"dana": 18, "omer": -18}
    rows = list(csv.reader(io.StringIO(store.export_csv(game.id))))
    assert rows[0] == ["round", "dana", "omer", "winner"]
    assert rows[1] == ["1", "25", "-25", "dana"]
    assert rows[3] == ["3", "3", "-3", "pool exhausted"]
    assert rows[-1] == ["total", "21", "-21", ""]


def test_settings_and_house_rules(store, tmp_path):
    assert store.house_rules() == DEFAULT_RULES
    assert store.get_setting("language", "en") == "en"
    rules = HouseRules(initial_meld=50, wrap_around=True, joker_penalty=25,
                       rearrange_penalty=RearrangePenalty.ONE_TILE, opening_additions=True, tiles_dealt=16)
    store.save_house_rules(rules)
    store.set_setting("language", "he")
    again = Store(store.path)
    assert again.house_rules() == rules and again.get_setting("language") == "he"
    assert rules_from_dict(rules_to_dict(rules)) == rules


def test_broken_saved_rules_fall_back_to_the_rulebook(store):
    store.set_setting("house_rules", {"initial_meld": -5})
    assert store.house_rules() == DEFAULT_RULES
    store.set_setting("house_rules", "nonsense")
    assert store.house_rules() == DEFAULT_RULES
    assert rules_from_dict({"joker_penalty": 50, "unknown": 1}).joker_penalty == 50


def test_readings_kept_with_rounds_and_alone(store):
    game = store.create_game("g", "rummikub", ["a", "b"])
    reading = {"tiles": [{"code": "R5"}], "melds": []}
    rid = store.save_reading(reading, kind="table", photo="t.jpg")
    store.update_reading(rid, {"tiles": [{"code": "R6"}], "melds": []})
    rnd, _ = store.add_round(game.id, new_token(), {"a": 5, "b": -5}, winner="a",
                             readings=[{"player": "b", "photo": "rack.jpg", "reading": reading}])
    assert [r["reading"]["tiles"][0]["code"] for r in store.readings(kind="table")] == ["R6"]
    kept = store.readings(round_id=rnd.id)
    assert len(kept) == 1 and kept[0]["player"] == "b" and kept[0]["photo"] == "rack.jpg"
    store.delete_round(rnd.id)
    assert store.readings(round_id=rnd.id) == []
    with pytest.raises(StoreError):
        store.update_reading(9999, {})


def test_not_a_database_file_is_a_clear_error(tmp_path):
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a rummi database"):
        Store(path)


def test_unique_token_is_enforced_by_the_schema(store):
    game = store.create_game("g", "rummikub", ["a", "b"])
    store.add_round(game.id, "tok", {"a": 1, "b": -1})
    conn = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO rounds(game_id, token, created, updated) VALUES (?, 'tok', 'x', 'x')", (game.id,))
    conn.close()


def test_a_reading_keeps_the_models_reading_the_edits_and_the_photo(store):
    original = {"tiles": [{"code": "B8"}], "melds": []}
    rid = store.save_reading(original, kind="table", photo="t.jpg", photo_data=b"\xff\xd8 jpeg bytes")
    again = store.save_reading(original, kind="table", photo="t.jpg", photo_data=b"\xff\xd8 jpeg bytes")
    edits = [{"op": "recode", "tile": 0, "code": "K7"}]
    store.update_reading(rid, {"tiles": [{"code": "K7"}], "melds": []}, edits=edits)
    first, second = store.readings(kind="table")
    assert first["original"] == original and first["reading"]["tiles"][0]["code"] == "K7" and first["edits"] == edits
    assert first["photo_sha"] == second["photo_sha"]  # the same photo is stored once
    assert store.photo(first["photo_sha"]) == b"\xff\xd8 jpeg bytes"
    assert [r["id"] for r in store.readings(corrected=True)] == [rid] and again != rid
    with pytest.raises(StoreError, match="no photo"):
        store.photo("0" * 64)


def test_a_rack_reading_kept_when_read_is_attached_to_its_round(store):
    game = store.create_game("g", "rummikub", ["a", "b"])
    rid = store.save_reading({"tiles": [{"code": "R5"}]}, kind="rack", photo="r.jpg", photo_data=b"photo")
    rnd, _ = store.add_round(game.id, new_token(), {"a": 5, "b": -5}, readings=[
        {"id": rid, "player": "b", "reading": {"tiles": [{"code": "R6"}]}, "edits": [{"op": "recode", "tile": 0, "code": "R6"}]}
    ])
    (kept,) = store.readings(round_id=rnd.id)
    assert kept["id"] == rid and kept["player"] == "b" and kept["photo_sha"] and kept["edits"][0]["code"] == "R6"
    assert len(store.readings()) == 1


def test_a_version_1_database_is_upgraded_in_place(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE readings (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, game_id INTEGER, round_id INTEGER,"
        " player TEXT, photo TEXT NOT NULL DEFAULT '', reading TEXT NOT NULL, created TEXT NOT NULL);"
        "INSERT INTO readings(kind, reading, created) VALUES ('table', '{\"tiles\": []}', 'then');"
        "PRAGMA user_version=1;"
    )
    conn.close()
    store = Store(path)
    (old,) = store.readings()
    assert old["reading"] == {"tiles": []} and old["edits"] == [] and old["original"] is None
    store.save_reading({"tiles": []}, photo_data=b"x")
    assert len(store.readings()) == 2 and Store(path).readings()[1]["photo_sha"]
