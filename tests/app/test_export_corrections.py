"""``rummi export-corrections``: the photos corrected in the app as a YOLO dataset."""

from __future__ import annotations

import pytest

from app.cli import main
from app.store import Store
from app.ui.edits import Add, Delete, Recode, apply_edits, edits_to_json, new_tile_box
from app.ui.photo import read_photo
from app_helpers import FAKE_JSON, FIXTURES
from json_tile_model import JsonTileModel
from vision.reader import Reader
from vision.yolo_format import CLASS_NAMES, read_data_yaml, read_labels, split_images


def _corrected_table(store: Store) -> int:
    """table.jpg read by the fake model, kept the way the app keeps it, then corrected."""
    data = (FIXTURES / "table.jpg").read_bytes()
    result = read_photo(data, "table.jpg", Reader(model=JsonTileModel(FAKE_JSON)))
    rid = store.save_reading(result.reading.to_json(), kind="table", photo="table.jpg",
                             original=result.reading.to_json())
    reading = result.reading
    edits = [Recode(12, "K7"), Delete(0), Add(new_tile_box(reading, 1200, 1000), "J", None)]
    fixed = apply_edits(reading, edits)
    store.update_reading(rid, fixed.reading.to_json(), edits=edits_to_json(edits), photo_data=data)
    return rid


def test_corrected_photos_become_a_yolo_set(tmp_path, capsys):
    db = tmp_path / "rummi.sqlite3"
    store = Store(db)
    rid = _corrected_table(store)
    store.save_reading({"tiles": []}, kind="rack", photo="uncorrected.jpg", photo_data=b"x")  # not corrected: left out
    out = tmp_path / "set"
    assert main(["export-corrections", str(out), "--db", str(db)]) == 0
    assert "1 photo(s), 13 tile(s)" in capsys.readouterr().out
    spec = read_data_yaml(out / "data.yaml")
    assert spec.names == CLASS_NAMES
    (image,) = split_images(spec, "train")
    assert image.name == f"{rid:05d}-table.jpg"
    labels = read_labels(out / "labels" / f"{rid:05d}-table.txt", spec.names, 1600, 1200)
    codes = [t.code for t in labels]
    assert codes.count("K7") == 1 and "R10" not in codes and "B8" not in codes and "J" in codes
    joker = next(t for t in labels if t.code == "J")
    assert joker.box == pytest.approx(new_tile_box(read_photo((FIXTURES / "table.jpg").read_bytes(), "t.jpg",
                                      Reader(model=JsonTileModel(FAKE_JSON))).reading, 1200, 1000), abs=0.5)


def test_nothing_to_export_and_bad_input(tmp_path, capsys):
    db = tmp_path / "rummi.sqlite3"
    Store(db)
    assert main(["export-corrections", str(tmp_path / "set"), "--db", str(db)]) == 0
    assert "nothing written" in capsys.readouterr().out
    assert main(["export-corrections", str(tmp_path / "set"), "--db", str(tmp_path / "missing.sqlite3")]) == 2
    assert "no database" in capsys.readouterr().err
    (tmp_path / "file").write_text("x")
    assert main(["export-corrections", str(tmp_path / "file"), "--db", str(db)]) == 2
    assert "is a file" in capsys.readouterr().err
