"""vision.yolo_format: the one owner of the YOLO dataset format (data.yaml, label lines, image lists,
class names, image suffixes). What it writes, it reads back."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.tiles import ALL_CODES, TWIST_CODES
from vision.yolo_format import (
    CLASS_NAMES,
    DatasetError,
    class_code,
    is_image,
    label_path,
    label_text,
    list_images,
    read_data_yaml,
    read_labels,
    split_images,
    write_data_yaml,
    write_image_list,
)


def _photo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xff\xd8 not decoded here")
    return path


def test_labels_round_trip_in_pixels(tmp_path) -> None:
    tiles = [("R10", (10.0, 20.0, 50.0, 80.0)), ("J", (100.0, 0.0, 140.0, 60.0))]
    lab = tmp_path / "x.txt"
    lab.write_text(label_text(tiles, 200, 100))
    assert lab.read_text().splitlines()[0].split()[0] == str(CLASS_NAMES.index("R10"))
    back = read_labels(lab, CLASS_NAMES, 200, 100)
    assert [t.code for t in back] == ["R10", "J"]
    for t, (_, box) in zip(back, tiles):
        assert t.box == pytest.approx(box, abs=1e-3)


def test_a_polygon_line_is_read_as_its_box_and_a_bad_line_names_its_place(tmp_path) -> None:
    lab = tmp_path / "p.txt"
    lab.write_text("0 0.1 0.2 0.3 0.2 0.3 0.6 0.1 0.6\n\n")
    (tile,) = read_labels(lab, CLASS_NAMES, 100, 100)
    assert tile.box == pytest.approx((10, 20, 30, 60))
    lab.write_text("0 0.5 0.5 0.1 0.1\n0 0.5 0.5\n")
    with pytest.raises(DatasetError, match=r"p.txt, line 2: expected 'class x y w h'"):
        read_labels(lab, CLASS_NAMES, 100, 100)
    lab.write_text("99 0.5 0.5 0.1 0.1\n")
    with pytest.raises(DatasetError, match=r"line 1: class 99 is not in the 56 names"):
        read_labels(lab, CLASS_NAMES, 100, 100)
    assert read_labels(tmp_path / "missing.txt", CLASS_NAMES, 100, 100) == []


def test_data_yaml_round_trip_with_folders_and_lists(tmp_path) -> None:
    a = _photo(tmp_path / "images" / "train" / "a.jpg")
    b = _photo(tmp_path / "images" / "val" / "b.png")
    (tmp_path / "images" / "train" / "notes.txt").write_text("not a photo")
    listing = write_image_list(tmp_path / "list.txt", [a, b], repeat=2)
    yaml_file = write_data_yaml(tmp_path / "data.yaml", {"train": "images/train", "val": ["images/val"], "calib": [listing]},
                                root=tmp_path)
    spec = read_data_yaml(yaml_file)
    assert spec.names == CLASS_NAMES
    assert set(spec.splits) == {"train", "val", "calib"}
    assert split_images(spec, "train") == [a]
    assert split_images(spec, "val") == [b]
    assert split_images(spec, "calib") == [a.absolute(), b.absolute()] * 2
    with pytest.raises(DatasetError, match=r"no 'test' entry \(it has: train, val, calib\)"):
        split_images(spec, "test")


def test_image_suffixes_and_label_paths(tmp_path) -> None:
    assert is_image(Path("x.JPG")) and is_image(Path("x.heic")) and not is_image(Path("x.txt"))
    _photo(tmp_path / "images" / "a.jpeg")
    _photo(tmp_path / "images" / "sub" / "b.webp")
    assert [p.name for p in list_images(tmp_path / "images")] == ["a.jpeg", "b.webp"]
    assert label_path(Path("/d/images/train/images/x.jpg")) == Path("/d/images/train/labels/x.txt")


@pytest.mark.parametrize("name, code", [("K7", "K7"), ("black_7", "K7"), ("Red 13", "R13"), ("yellow_2", "O2"),
                                        ("joker", "J"), ("red_joker", "J"), ("JD", "JD"), ("jm", "JM"),
                                        ("double_joker", "JD"), ("Mirror Joker", "JM"), ("colour-change joker", "JC"),
                                        ("color_change_joker", "JC")])
def test_class_names_as_tile_codes(name: str, code: str) -> None:
    assert class_code(name) == code


def test_the_class_list_is_the_base_game_then_the_twist_jokers() -> None:
    """56 classes: the 53 base-game codes keep their indices (sets labelled before the Twist read the same),
    then JD, JM, JC."""
    assert len(CLASS_NAMES) == 56 == len(set(CLASS_NAMES))
    assert CLASS_NAMES[:53] == ALL_CODES and CLASS_NAMES[53:] == TWIST_CODES == ("JD", "JM", "JC")


def test_an_unknown_class_name_is_a_clear_error() -> None:
    with pytest.raises(DatasetError, match="'dragon' is not a tile"):
        class_code("dragon")
