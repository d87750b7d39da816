"""``rummi read``: human and JSON output, bad files, annotation, exit codes (fake model)."""

from __future__ import annotations

import json

import numpy as np
from vision_fakes import FakeModel, fixture_tiles
from PIL import Image as PILImage

from app.cli import main


def _photo(path, w=640, h=480):
    PILImage.new("RGB", (w, h), (30, 90, 40)).save(path)
    return str(path)


def _model():
    _, tiles = fixture_tiles()
    return FakeModel(lambda rgb: tiles if rgb.shape[:2] == (480, 640) else [])


def test_json_one_object_per_photo(fake_model_module, capsys, tmp_path):
    fake_model_module.model = _model()
    a, b = _photo(tmp_path / "a.jpg"), _photo(tmp_path / "b.png")
    assert main(["read", a, b, "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert set(first) == {"image", "tiles", "melds", "warnings", "ms"}
    assert first["image"] == {"path": a, "width": 640, "height": 480, "stretch": 1.0, "turned": 0, "mirrored": False}
    assert [m["codes"] for m in first["melds"]] == [["R10", "R11", "R12"], ["O5", "O6", "O7", "O8"], ["K5", "K6", "B8"]]
    assert [m["valid"] for m in first["melds"]] == [True, True, False]
    t = first["tiles"][0]
    assert {"box", "code", "confidence", "alternatives", "meld"} <= set(t)
    assert t["box"] == [60.0, 60.0, 100.0, 116.0] and t["code"] == "R10" and t["meld"] == 0
    assert json.loads(lines[1])["image"]["path"] == b
    assert fake_model_module.loads == 1  # one model for all photos


def test_human_output(fake_model_module, capsys, tmp_path):
    fake_model_module.model = _model()
    assert main(["read", _photo(tmp_path / "t.jpg")]) == 0
    out = capsys.readouterr().out
    assert "11 tiles, 3 melds" in out
    assert "R10 R11 R12" in out and "valid run, 33 points" in out
    assert "O5 O6 O7? O8" in out  # the doubtful tile is marked
    assert "NOT VALID: K5 K6 B8 mixes colours and numbers" in out
    assert "lone tiles: B3?" in out
    assert "tile 6: read as O7 so that meld 2 is valid" in out


def test_rack_flag(fake_model_module, capsys, tmp_path):
    fake_model_module.model = _model()
    assert main(["read", "--rack", "--json", _photo(tmp_path / "r.jpg")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["melds"] == [] and all(t["meld"] is None for t in out["tiles"])


def test_a_rack_photographed_sideways_is_read_upright_and_said_so(fake_model_module, capsys, tmp_path):
    from vision_fakes import raw_tile

    row = [(100 + 42 * k, 200, 140 + 42 * k, 256) for k in range(4)]

    def tiles(rgb):  # as taken (tall) a column of unsure tiles; turned upright (wide) a row of sure ones
        if rgb.shape[0] > rgb.shape[1]:
            return [raw_tile((y1, x1, y2, x2), {"K5": 0.5, "K6": 0.5}) for x1, y1, x2, y2 in row]
        return [raw_tile(b, {c: 0.99}) for b, c in zip(row, ["R1", "R2", "R3", "R4"])]

    fake_model_module.model = FakeModel(tiles)
    photo = _photo(tmp_path / "r.jpg", w=480, h=640)
    assert main(["read", "--rack", photo]) == 0
    out = capsys.readouterr().out
    assert "(480x640, rack, standing sideways in the photo: read turned upright)" in out
    assert "rack: R1 R2 R3 R4" in out
    assert main(["read", "--rack", "--json", photo]) == 0
    assert json.loads(capsys.readouterr().out)["image"]["turned"] in (1, 3)


def test_a_table_read_turned_says_its_rows_ran_down_the_photo():
    from app.commands.read import format_reading
    from vision.types import PhotoReading

    reading = PhotoReading(path="t.jpg", width=480, height=640, tiles=[], melds=[], turned=1)
    assert format_reading(reading).startswith(
        "t.jpg (480x640, table, its rows running down the photo: read turned a quarter): 0 tiles")
    assert "standing sideways" not in format_reading(reading)


def test_a_rack_read_turned_over_says_it_stood_upside_down():
    from app.commands.read import format_reading
    from vision.types import PhotoReading

    reading = PhotoReading(path="r.jpg", width=640, height=480, tiles=[], melds=[], rack=True, turned=2)
    assert format_reading(reading).startswith("r.jpg (640x480, rack, upside down in the photo: read turned over): 0 tiles")


def test_a_photo_read_mirrored_back_says_so():
    from app.commands.read import format_reading
    from vision.types import PhotoReading

    reading = PhotoReading(path="t.jpg", width=640, height=480, tiles=[], melds=[], mirrored=True)
    assert format_reading(reading).startswith(
        "t.jpg (640x480, table, saved mirrored (a front camera's): read mirrored back): 0 tiles")


def test_bad_files_are_reported_and_the_rest_read(fake_model_module, capsys, tmp_path):
    fake_model_module.model = _model()
    txt = tmp_path / "notes.jpg"
    txt.write_text("hello")
    good = _photo(tmp_path / "good.jpg")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    rc = main(["read", str(txt), good, str(tmp_path / "missing.jpg"), str(empty), "--json"])
    assert rc == 2
    captured = capsys.readouterr()
    assert len(captured.out.strip().splitlines()) == 1  # the good photo was still read
    err = captured.err
    assert "Traceback" not in err
    assert f"rummi read: {txt}: this is not a photo" in err
    assert f"{tmp_path / 'missing.jpg'}: no such file" in err
    assert f"{empty}: the file is empty" in err


def test_truncated_jpeg_exit_2(fake_model_module, capsys, tmp_path):
    fake_model_module.model = _model()
    f = tmp_path / "cut.jpg"
    PILImage.fromarray(np.random.default_rng(0).integers(0, 255, (120, 160, 3), dtype=np.uint8)).save(f, quality=90)
    f.write_bytes(f.read_bytes()[:1500])
    assert main(["read", str(f)]) == 2
    err = capsys.readouterr().err
    assert "cut.jpg: the file is truncated (the JPEG ends early)" in err and "Traceback" not in err


def test_no_tiles_is_a_warning_exit_0(fake_model_module, capsys, tmp_path):
    fake_model_module.model = _model()
    assert main(["read", _photo(tmp_path / "floor.jpg", 300, 200)]) == 0
    assert "no tiles found in this photo" in capsys.readouterr().out


def test_missing_model_exit_2(fake_model_module, capsys, tmp_path):
    fake_model_module.missing = "no model in models/: run rummi train"
    assert main(["read", _photo(tmp_path / "x.jpg"), "--models", "models"]) == 2
    err = capsys.readouterr().err
    assert "no model in models/" in err and "Traceback" not in err
    assert fake_model_module.dirs == ["models"]


def test_annotate_one_and_several(fake_model_module, capsys, tmp_path):
    fake_model_module.model = _model()
    a, b = _photo(tmp_path / "a.jpg"), _photo(tmp_path / "b.jpg")
    out = tmp_path / "out" / "drawn.png"
    assert main(["read", a, "--annotate", str(out)]) == 0
    assert out.is_file() and PILImage.open(out).size == (640, 480)
    assert main(["read", a, b, "--annotate", str(out), "--json"]) == 0
    assert (tmp_path / "out" / "drawn-1.png").is_file() and (tmp_path / "out" / "drawn-2.png").is_file()
    lines = capsys.readouterr().out.strip().splitlines()
    assert all(line.startswith("{") for line in lines[-2:])  # --json output stays pure JSON


def test_twist_flag_reads_with_the_twist_rules(fake_model_module, capsys, tmp_path):
    from vision_fakes import raw_tile

    row = [raw_tile((40 + 44 * k, 100, 80 + 44 * k, 156), {c: 0.99}) for k, c in enumerate(["R2", "JD", "R5", "J"])]
    fake_model_module.model = FakeModel(lambda rgb: row)
    photo = _photo(tmp_path / "t.jpg")
    assert main(["read", "--json", photo]) == 0
    base = json.loads(capsys.readouterr().out)
    assert main(["read", "--json", "--twist", photo]) == 0
    twist = json.loads(capsys.readouterr().out)
    # the Double Joker stands for R3 R4 only under the Twist rules; the regular joker is doubtful there
    assert [m["valid"] for m in base["melds"]] == [False] and [m["valid"] for m in twist["melds"]] == [True]
    assert [(t["code"], t["doubt"]) for t in twist["tiles"]] == [("R2", None), ("JD", "twist_unconfirmed"), ("R5", None), ("J", "joker_kind")]
    # the base game's set holds no Double Joker: the face is read as none, and doubted; a joker's kind is no question
    assert base["tiles"][1]["code"] != "JD" and base["tiles"][1]["doubtful"]
    assert [t["doubt"] for t in base["tiles"]] == [None, None, None, None] and base["tiles"][3]["code"] == "J"
