"""Shared fixtures for the app tests: a fresh database per test and the fake tile model."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from app_helpers import FAKE_JSON, clear_caches, start_app
from json_tile_model import injected_env

os.environ.setdefault("YOLO_OFFLINE", "1")


@pytest.fixture
def db_path(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "rummi.sqlite3"
    monkeypatch.setenv("RUMMI_DB", str(path))
    return path


@pytest.fixture
def fake_reader(monkeypatch) -> Path:
    """The app reads photos with the fake model (tests/app/json_tile_model.py, injected through
    RUMMI_TILE_MODEL) replaying tests/fixtures/app/fake_reader.json."""
    for key, value in injected_env(FAKE_JSON).items():
        monkeypatch.setenv(key, value)
    clear_caches()
    yield FAKE_JSON
    clear_caches()


@pytest.fixture
def app(db_path, fake_reader):
    """A started AppTest of app/main.py on a fresh database, with the fake model."""
    return start_app()
