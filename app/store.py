"""The app's local database: games, players, rounds, photo readings and settings (SQLite).

Plain ``sqlite3`` and dataclasses, no Streamlit: every public method opens its own connection,
does its work in one transaction and closes it, so browser tabs (threads) and app restarts share
the file safely. The journal is in WAL mode; a round is saved together with its scores, hands and
readings or not at all.

A round submission carries an idempotency ``token`` (made when the form is shown; ``UNIQUE`` in
the table): submitting the same form twice (a double click, a reconnecting browser) stores the
round once and returns the stored one.

The file lives in the user's data folder (``platformdirs.user_data_dir("rummi")/rummi.sqlite3``);
the ``RUMMI_DB`` environment variable overrides the path (tests, several households).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import sqlite3
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from engine.errors import InputError
from engine.rules import DEFAULT_RULES, HouseRules, RearrangePenalty
from engine.scoring import ScoreSheet

__all__ = [
    "DB_ENV",
    "GAME_KINDS",
    "Game",
    "Round",
    "Store",
    "StoreError",
    "default_db_path",
    "new_token",
    "rules_from_dict",
    "rules_to_dict",
]

DB_ENV = "RUMMI_DB"
DB_NAME = "rummi.sqlite3"
GAME_KINDS: tuple[str, ...] = ("rummikub", "closed", "classic")  # tiles; closed / classic card rummy
SCHEMA_VERSION = 2  # 2: readings keep the model's reading, the person's edits and the photo

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('rummikub', 'closed', 'classic')),
    options  TEXT NOT NULL DEFAULT '{}',
    created  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, name)
);
CREATE TABLE IF NOT EXISTS rounds (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    token     TEXT NOT NULL UNIQUE,
    winner    TEXT,
    exhausted INTEGER NOT NULL DEFAULT 0,
    created   TEXT NOT NULL,
    updated   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS round_scores (
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    player   TEXT NOT NULL,
    score    INTEGER NOT NULL,
    hand     TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (round_id, player)
);
CREATE TABLE IF NOT EXISTS readings (
    id       INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL,
    game_id  INTEGER REFERENCES games(id) ON DELETE CASCADE,
    round_id INTEGER REFERENCES rounds(id) ON DELETE CASCADE,
    player   TEXT,
    photo    TEXT NOT NULL DEFAULT '',
    reading  TEXT NOT NULL,
    created  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS photos (
    sha     TEXT PRIMARY KEY,
    name    TEXT NOT NULL DEFAULT '',
    data    BLOB NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rounds_by_game ON rounds(game_id, id);
CREATE INDEX IF NOT EXISTS readings_by_round ON readings(round_id);
"""


# columns added to ``readings`` by schema 2 (a database made by version 1 gets them on opening)
_READING_COLUMNS = {
    "original": "TEXT",  # the model's own reading (JSON), before any edit
    "edits": "TEXT NOT NULL DEFAULT '[]'",  # the person's edits (app.ui.edits JSON), in order
    "photo_sha": "TEXT",  # the photo in ``photos`` (sha256 of its bytes)
}


def _upgrade(conn: sqlite3.Connection) -> str:
    """The ALTER statements that bring an older ``readings`` table up to this schema."""
    have = {r[1] for r in conn.execute("PRAGMA table_info(readings)")}  # empty: _SCHEMA makes it now
    return "".join(
        f"ALTER TABLE readings ADD COLUMN {name} {kind};" for name, kind in _READING_COLUMNS.items() if name not in have
    )


class StoreError(InputError):
    """Something the user asked the store to do that cannot be done (message says why)."""


def default_db_path() -> Path:
    """``$RUMMI_DB`` if set, else ``rummi.sqlite3`` in the user's data folder."""
    env = os.environ.get(DB_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("rummi", appauthor=False)) / DB_NAME


def new_token() -> str:
    """A fresh idempotency key for one round form."""
    return uuid.uuid4().hex


def _json_or(text: str | None, default: Any) -> Any:
    try:
        return json.loads(text) if text else default
    except ValueError:
        return default


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def rules_to_dict(rules: HouseRules) -> dict[str, Any]:
    return {
        "initial_meld": rules.initial_meld,
        "wrap_around": rules.wrap_around,
        "joker_penalty": rules.joker_penalty,
        "rearrange_penalty": rules.rearrange_penalty.value,
        "opening_additions": rules.opening_additions,
        "tiles_dealt": rules.tiles_dealt,
        "exhausted_scoring": rules.exhausted_scoring,
        "joker_reuse": rules.joker_reuse,
        "twist": rules.twist,
    }


def rules_from_dict(data: Mapping[str, Any]) -> HouseRules:
    """House rules from stored JSON; unknown keys are ignored, missing ones take the defaults."""
    base = rules_to_dict(DEFAULT_RULES)
    base.update({k: v for k, v in data.items() if k in base})
    base["rearrange_penalty"] = RearrangePenalty(base["rearrange_penalty"])
    if not isinstance(base["twist"], bool):  # a database from before Rummikub Twist has none: off
        base["twist"] = DEFAULT_RULES.twist
    return HouseRules(**base)


@dataclass(frozen=True)
class Game:
    """A game: its players in seating order; ``kind`` is rummikub, closed or classic (cards)."""

    id: int
    name: str
    kind: str
    players: tuple[str, ...]
    created: str
    options: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def is_cards(self) -> bool:
        return self.kind != "rummikub"


@dataclass(frozen=True)
class Round:
    """One finished round: ``number`` counts from 1 within its game (in the order saved)."""

    id: int
    game_id: int
    number: int
    token: str
    winner: str | None
    exhausted: bool
    scores: dict[str, int]
    hands: dict[str, str]
    created: str
    updated: str


class Store:
    """The database file at ``path`` (created, with its folder, on first use)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for the database {self.path}: {exc}") from None
        try:
            conn = sqlite3.connect(self.path, timeout=15.0, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {self.path}: {exc}") from None
        try:
            conn.execute("PRAGMA busy_timeout=15000")
            conn.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
            try:
                conn.executescript(f"BEGIN IMMEDIATE;{_SCHEMA}{_upgrade(conn)}PRAGMA user_version={SCHEMA_VERSION};COMMIT;")
            except sqlite3.OperationalError as exc:  # another process upgraded it in between
                if "duplicate column" not in str(exc):
                    raise
                conn.execute("ROLLBACK")
                conn.executescript(f"BEGIN IMMEDIATE;{_SCHEMA}{_upgrade(conn)}COMMIT;")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a rummi database ({exc})") from None
        finally:
            conn.close()

    # ------------------------------------------------------------------ plumbing

    @contextmanager
    def _connect(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        """One connection, one transaction (committed on success, rolled back on error); a write
        transaction takes the write lock at once, so check-then-insert cannot race."""
        try:
            conn = sqlite3.connect(self.path, timeout=15.0, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {self.path}: {exc}") from None
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=15000")
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            else:
                conn.execute("COMMIT")
        finally:
            conn.close()

    @property
    def journal_mode(self) -> str:
        conn = sqlite3.connect(self.path)
        try:
            return str(conn.execute("PRAGMA journal_mode").fetchone()[0])
        finally:
            conn.close()

    # ------------------------------------------------------------------ settings

    def get_setting(self, key: str, default: Any = None) -> Any:
        with self._connect(write=False) as conn:
            row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        try:
            return json.loads(row["value"])
        except ValueError:
            return default

    def set_setting(self, key: str, value: Any) -> None:
        text = json.dumps(value)
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, text),
            )

    def house_rules(self) -> HouseRules:
        """The saved house rules (the rulebook's when none are saved, or the saved ones are broken)."""
        data = self.get_setting("house_rules", {})
        if not isinstance(data, dict):
            return DEFAULT_RULES
        try:
            return rules_from_dict(data)
        except (ValueError, TypeError):
            return DEFAULT_RULES

    def save_house_rules(self, rules: HouseRules) -> None:
        self.set_setting("house_rules", rules_to_dict(rules))

    # ------------------------------------------------------------------ games

    def create_game(
        self, name: str, kind: str, players: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> Game:
        """A new game; players are stripped of spaces, must be 2+ distinct non-empty names."""
        name = name.strip()
        if not name:
            raise StoreError("the game needs a name")
        if kind not in GAME_KINDS:
            raise StoreError(f"unknown kind of game {kind!r}: one of {', '.join(GAME_KINDS)}")
        names = [p.strip() for p in players if p.strip()]
        if len(names) < 2:
            raise StoreError("a game needs at least two players")
        seen: set[str] = set()
        for p in names:
            if p.casefold() in seen:
                raise StoreError(f"player {p!r} is listed twice")
            seen.add(p.casefold())
        created = _now()
        with self._connect() as conn:
            cur = conn.execute(
                "INSERT INTO games(name, kind, options, created) VALUES (?, ?, ?, ?)",
                (name, kind, json.dumps(dict(options or {})), created),
            )
            game_id = int(cur.lastrowid)
            conn.executemany(
                "INSERT INTO players(game_id, position, name) VALUES (?, ?, ?)",
                [(game_id, i, p) for i, p in enumerate(names)],
            )
        return Game(game_id, name, kind, tuple(names), created, dict(options or {}))

    def _game(self, conn: sqlite3.Connection, game_id: int) -> Game:
        row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in the database")
        players = tuple(
            r["name"]
            for r in conn.execute("SELECT name FROM players WHERE game_id = ? ORDER BY position", (game_id,))
        )
        try:
            options = json.loads(row["options"] or "{}")
        except ValueError:
            options = {}
        return Game(int(row["id"]), row["name"], row["kind"], players, row["created"], options)

    def game(self, game_id: int) -> Game:
        with self._connect(write=False) as conn:
            return self._game(conn, game_id)

    def games(self) -> list[Game]:
        """Every game, the newest first."""
        with self._connect(write=False) as conn:
            ids = [int(r["id"]) for r in conn.execute("SELECT id FROM games ORDER BY id DESC")]
            return [self._game(conn, i) for i in ids]

    def delete_game(self, game_id: int) -> None:
        with self._connect() as conn:
            cur = conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
            if cur.rowcount == 0:
                raise StoreError(f"no game {game_id} in the database")

    # ------------------------------------------------------------------ rounds

    def _check_round(
        self, game: Game, scores: Mapping[str, int], hands: Mapping[str, str], winner: str | None
    ) -> None:
        unknown = [p for p in list(scores) + list(hands) if p not in game.players]
        if unknown:
            raise StoreError(
                f"unknown player {unknown[0]!r} in game {game.name!r}; the players are {', '.join(game.players)}"
            )
        if winner is not None and winner not in game.players:
            raise StoreError(f"the winner {winner!r} is not a player of game {game.name!r}")
        for p, v in scores.items():
            if isinstance(v, bool) or not isinstance(v, int):
                raise StoreError(f"{p}'s score must be a whole number, got {v!r}")

    def add_round(
        self,
        game_id: int,
        token: str,
        scores: Mapping[str, int],
        hands: Mapping[str, str] | None = None,
        winner: str | None = None,
        exhausted: bool = False,
        readings: Sequence[Mapping[str, Any]] = (),
    ) -> tuple[Round, bool]:
        """Save a finished round; returns (the round, True) or, if ``token`` was already saved,
        (the round saved with it, False) without writing anything.

        ``readings``: dicts with ``reading`` (a PhotoReading.to_json() dict), optional ``player``,
        ``photo`` (file name) and ``kind`` (default "rack"), stored with the round; with ``id`` (a
        reading kept by ``save_reading`` when the photo was read) that row, its photo and ``edits``
        included, is attached to the round instead.
        """
        if not token:
            raise StoreError("a round needs its idempotency token")
        hands = dict(hands or {})
        now = _now()
        with self._connect() as conn:
            game = self._game(conn, game_id)
            self._check_round(game, scores, hands, winner)
            existing = conn.execute("SELECT id FROM rounds WHERE token = ?", (token,)).fetchone()
            if existing is not None:
                return self._round(conn, int(existing["id"])), False
            cur = conn.execute(
                "INSERT INTO rounds(game_id, token, winner, exhausted, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, token, winner, int(bool(exhausted)), now, now),
            )
            round_id = int(cur.lastrowid)
            conn.executemany(
                "INSERT INTO round_scores(round_id, player, score, hand) VALUES (?, ?, ?, ?)",
                [(round_id, p, int(scores.get(p, 0)), hands.get(p, "")) for p in game.players],
            )
            for r in readings:
                if r.get("id") is not None:  # kept when the photo was read: now it belongs to the round
                    cur = conn.execute(
                        "UPDATE readings SET game_id = ?, round_id = ?, player = ?, reading = ?, edits = ? WHERE id = ?",
                        (game_id, round_id, r.get("player"), json.dumps(r["reading"]),
                         json.dumps(list(r.get("edits", []))), int(r["id"])),
                    )
                    if cur.rowcount:
                        continue
                conn.execute(
                    "INSERT INTO readings(kind, game_id, round_id, player, photo, reading, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        r.get("kind", "rack"), game_id, round_id, r.get("player"), r.get("photo", ""),
                        json.dumps(r["reading"]), now,
                    ),
                )
            return self._round(conn, round_id), True

    def _round(self, conn: sqlite3.Connection, round_id: int) -> Round:
        row = conn.execute("SELECT * FROM rounds WHERE id = ?", (round_id,)).fetchone()
        if row is None:
            raise StoreError(f"no round {round_id} in the database (deleted in another tab?)")
        number = conn.execute(
            "SELECT COUNT(*) FROM rounds WHERE game_id = ? AND id <= ?", (row["game_id"], round_id)
        ).fetchone()[0]
        game = self._game(conn, int(row["game_id"]))
        got = {
            r["player"]: (int(r["score"]), r["hand"])
            for r in conn.execute("SELECT player, score, hand FROM round_scores WHERE round_id = ?", (round_id,))
        }
        return Round(
            id=int(row["id"]),
            game_id=int(row["game_id"]),
            number=int(number),
            token=row["token"],
            winner=row["winner"],
            exhausted=bool(row["exhausted"]),
            scores={p: got.get(p, (0, ""))[0] for p in game.players},
            hands={p: got.get(p, (0, ""))[1] for p in game.players},
            created=row["created"],
            updated=row["updated"],
        )

    def round(self, round_id: int) -> Round:
        with self._connect(write=False) as conn:
            return self._round(conn, round_id)

    def rounds(self, game_id: int) -> list[Round]:
        """The game's rounds in the order they were saved (number 1, 2, ...)."""
        with self._connect(write=False) as conn:
            self._game(conn, game_id)
            ids = [int(r["id"]) for r in conn.execute("SELECT id FROM rounds WHERE game_id = ? ORDER BY id", (game_id,))]
            return [self._round(conn, i) for i in ids]

    def update_round(
        self,
        round_id: int,
        scores: Mapping[str, int],
        hands: Mapping[str, str] | None = None,
        winner: str | None = None,
        exhausted: bool | None = None,
    ) -> Round:
        """Correct a saved round's scores (and, if given, hands / winner / exhausted)."""
        with self._connect() as conn:
            old = self._round(conn, round_id)
            game = self._game(conn, old.game_id)
            new_hands = dict(old.hands)
            new_hands.update(hands or {})
            new_winner = winner if winner is not None else old.winner
            self._check_round(game, scores, new_hands, new_winner)
            conn.execute(
                "UPDATE rounds SET winner = ?, exhausted = ?, updated = ? WHERE id = ?",
                (new_winner, int(old.exhausted if exhausted is None else exhausted), _now(), round_id),
            )
            conn.execute("DELETE FROM round_scores WHERE round_id = ?", (round_id,))
            conn.executemany(
                "INSERT INTO round_scores(round_id, player, score, hand) VALUES (?, ?, ?, ?)",
                [(round_id, p, int(scores.get(p, 0)), new_hands.get(p, "")) for p in game.players],
            )
            return self._round(conn, round_id)

    def delete_round(self, round_id: int) -> None:
        with self._connect() as conn:
            cur = conn.execute("DELETE FROM rounds WHERE id = ?", (round_id,))
            if cur.rowcount == 0:
                raise StoreError(f"no round {round_id} in the database (deleted in another tab?)")

    # ------------------------------------------------------------------ readings

    def save_reading(
        self,
        reading: Mapping[str, Any],
        kind: str = "table",
        photo: str = "",
        game_id: int | None = None,
        round_id: int | None = None,
        player: str | None = None,
        *,
        original: Mapping[str, Any] | None = None,
        edits: Sequence[Mapping[str, Any]] = (),
        photo_data: bytes | None = None,
    ) -> int:
        """Keep a photo's reading (a PhotoReading.to_json() dict, corrections applied), with the
        model's own reading (``original``), the person's ``edits`` and the photo's bytes (stored
        once however often the same photo is read)."""
        with self._connect() as conn:
            sha = self._put_photo(conn, photo_data, photo) if photo_data else None
            cur = conn.execute(
                "INSERT INTO readings(kind, game_id, round_id, player, photo, reading, created, original, edits, photo_sha) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind, game_id, round_id, player, photo, json.dumps(dict(reading)), _now(),
                    json.dumps(dict(original if original is not None else reading)), json.dumps(list(edits)), sha,
                ),
            )
            return int(cur.lastrowid)

    @staticmethod
    def _put_photo(conn: sqlite3.Connection, data: bytes, name: str) -> str:
        sha = hashlib.sha256(data).hexdigest()
        conn.execute(
            "INSERT OR IGNORE INTO photos(sha, name, data, created) VALUES (?, ?, ?, ?)",
            (sha, name, sqlite3.Binary(data), _now()),
        )
        return sha

    def update_reading(
        self,
        reading_id: int,
        reading: Mapping[str, Any],
        edits: Sequence[Mapping[str, Any]] | None = None,
        photo_data: bytes | None = None,
    ) -> None:
        """Replace a stored reading (after the person corrected it) and, if given, its edits and
        its photo's bytes."""
        with self._connect() as conn:
            if photo_data:
                name = conn.execute("SELECT photo FROM readings WHERE id = ?", (reading_id,)).fetchone()
                sha = self._put_photo(conn, photo_data, name["photo"] if name else "")
                conn.execute("UPDATE readings SET photo_sha = ? WHERE id = ?", (sha, reading_id))
            if edits is None:
                cur = conn.execute("UPDATE readings SET reading = ? WHERE id = ?", (json.dumps(dict(reading)), reading_id))
            else:
                cur = conn.execute(
                    "UPDATE readings SET reading = ?, edits = ? WHERE id = ?",
                    (json.dumps(dict(reading)), json.dumps(list(edits)), reading_id),
                )
            if cur.rowcount == 0:
                raise StoreError(f"no reading {reading_id} in the database")

    def photo(self, sha: str) -> bytes:
        """A stored photo's bytes (raises StoreError when there is none with this hash)."""
        with self._connect(write=False) as conn:
            row = conn.execute("SELECT data FROM photos WHERE sha = ?", (sha,)).fetchone()
        if row is None:
            raise StoreError(f"no photo {sha[:12]} in the database")
        return bytes(row["data"])

    def readings(
        self, round_id: int | None = None, kind: str | None = None, corrected: bool = False
    ) -> list[dict[str, Any]]:
        """Stored readings (newest last), optionally only a round's, of one kind, or only those a
        person corrected that still have their photo (``corrected``: the export's training data)."""
        sql = "SELECT * FROM readings WHERE 1=1"
        args: list[Any] = []
        if round_id is not None:
            sql += " AND round_id = ?"
            args.append(round_id)
        if kind is not None:
            sql += " AND kind = ?"
            args.append(kind)
        if corrected:
            sql += " AND edits != '[]' AND photo_sha IS NOT NULL"
        with self._connect(write=False) as conn:
            rows = conn.execute(sql + " ORDER BY id", args).fetchall()
        return [
            {
                "id": int(r["id"]), "kind": r["kind"], "game_id": r["game_id"], "round_id": r["round_id"],
                "player": r["player"], "photo": r["photo"], "reading": json.loads(r["reading"]),
                "created": r["created"], "original": _json_or(r["original"], None),
                "edits": _json_or(r["edits"], []), "photo_sha": r["photo_sha"],
            }
            for r in rows
        ]

    # ------------------------------------------------------------------ the score sheet

    def score_sheet(self, game_id: int) -> ScoreSheet:
        game = self.game(game_id)
        return ScoreSheet(list(game.players), [r.scores for r in self.rounds(game_id)])

    def export_csv(self, game_id: int) -> str:
        """The score sheet as CSV: a header, one row per round, then the totals."""
        game = self.game(game_id)
        rounds = self.rounds(game_id)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["round", *game.players, "winner"])
        for r in rounds:
            winner = r.winner or ("pool exhausted" if r.exhausted else "")
            writer.writerow([r.number, *(r.scores[p] for p in game.players), winner])
        totals = {p: sum(r.scores[p] for r in rounds) for p in game.players}
        writer.writerow(["total", *(totals[p] for p in game.players), ""])
        return out.getvalue()
