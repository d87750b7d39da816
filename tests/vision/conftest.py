"""Fixtures for the photo-reader tests (the fakes themselves are in vision_fakes.py)."""

from __future__ import annotations

import sys
import types

import pytest
from vision_fakes import FakeModel, FakeRawTile, fixture_tiles


@pytest.fixture
def table_fixture():
    """(fixture data, FakeModel) for the 640x480 table photo of tests/fixtures/vision_fake_tiles.json."""
    data, tiles = fixture_tiles()
    return data, FakeModel(tiles)


@pytest.fixture
def fake_model_module(monkeypatch):
    """Install a stand-in ``vision.model`` whose load_model returns the model you set.

    Usage: ``fake_model_module.model = FakeModel(...)``; ``fake_model_module.loads`` counts loads;
    set ``fake_model_module.missing = "message"`` to make load_model raise ModelMissing.
    """
    from vision.errors import ModelMissing

    module = types.ModuleType("vision.model")
    module.model = None
    module.loads = 0
    module.missing = None
    module.dirs = []

    def load_model(models_dir=None):
        module.loads += 1
        module.dirs.append(models_dir)
        if module.missing:
            raise ModelMissing(module.missing)
        return module.model

    module.load_model = load_model
    module.RawTile = FakeRawTile
    monkeypatch.setitem(sys.modules, "vision.model", module)
    import vision

    monkeypatch.setattr(vision, "model", module, raising=False)
    return module
