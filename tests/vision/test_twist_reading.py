"""The Rummikub Twist jokers in the reader (issue 15): read like any tile, always doubtful until a real
photo confirms the reader on them, with a reason the app can show."""

from __future__ import annotations

import numpy as np
from vision_fakes import FakeModel, prob_vector, raw_tile

from engine.rules import DEFAULT_RULES
from engine.tiles import TWIST_CODES
from vision.consistent import copy_warnings, read_consistently
from vision.reader import Reader, recheck
from vision.types import DOUBT_TEXT, JOKER_KIND, TWIST_UNCONFIRMED, Image

TWIST = DEFAULT_RULES.with_(twist=True)


def _blank() -> Image:
    return Image(rgb=np.zeros((480, 640, 3), dtype=np.uint8), path="twist.jpg")


def _row(codes: list[str], p: float = 0.99, y: int = 100) -> list:
    return [raw_tile((40 + 44 * k, y, 80 + 44 * k, y + 56), {c: p}) for k, c in enumerate(codes)]


def test_a_sure_double_joker_is_still_doubtful_and_says_why() -> None:
    reading = Reader(model=FakeModel(_row(["R2", "JD", "R5"])), rules=TWIST).read(_blank())
    assert reading.codes() == ["R2", "JD", "R5"]
    jd = reading.tiles[1]
    assert jd.confidence > 0.95 and jd.doubtful and jd.doubt == TWIST_UNCONFIRMED
    assert jd.to_json()["doubt"] == TWIST_UNCONFIRMED and TWIST_UNCONFIRMED in DOUBT_TEXT
    assert not reading.tiles[0].doubtful and reading.tiles[0].doubt is None
    assert reading.melds[0].valid and reading.melds[0].value == 14  # the engine reads it: R2 R3 R4 R5
    assert reading.warnings == [
        "tile 2: read as JD (the double joker); the reader has not yet been checked on a real photo of the "
        "Twist jokers - check it"
    ]


def test_every_twist_joker_is_doubtful() -> None:
    tiles = [raw_tile((40 + 120 * k, 300, 80 + 120 * k, 356), {code: 0.99}) for k, code in enumerate(TWIST_CODES)]
    reading = Reader(model=FakeModel(tiles), rules=TWIST).read(_blank(), rack=True)
    assert reading.codes() == list(TWIST_CODES)
    assert all(t.doubtful and t.doubt == TWIST_UNCONFIRMED for t in reading.tiles)


def test_the_base_game_reads_no_twist_joker() -> None:
    """Without the Twist rule the set holds no special joker (the engine reads one as a notation error): a face the
    classifier takes for one is read as what else it could be (an 11 drawn as two bars as the 11, a joker face as
    the regular joker), and doubted as the classifier's own doubt says."""
    tiles = [raw_tile((40 + 120 * k, 300, 80 + 120 * k, 356), probs)
             for k, probs in enumerate([{"JM": 0.6, "O11": 0.3}, {"JD": 0.7, "J": 0.2, "K8": 0.05}])]
    for reading in (Reader(model=FakeModel(tiles)).read(_blank(), rack=True),  # a rack: no meld rules to forbid them
                    Reader(model=FakeModel(tiles)).read(_blank())):
        assert reading.codes() == ["O11", "J"]
        assert reading.tiles[0].doubtful and reading.tiles[0].doubt != TWIST_UNCONFIRMED
        assert not any(t.doubt in (TWIST_UNCONFIRMED, JOKER_KIND) for t in reading.tiles)
        assert not any("Twist" in w for w in reading.warnings)
    with_rule = Reader(model=FakeModel(tiles), rules=TWIST).read(_blank(), rack=True)
    assert with_rule.codes() == ["JM", "JD"]


def test_a_person_confirms_a_twist_joker() -> None:
    reader = Reader(model=FakeModel(_row(["R2", "JD", "R5"]) + _row(["K7", "JM", "K7"], y=300)), rules=TWIST)
    reading = reader.read(_blank())
    assert [t.code for t in reading.tiles if t.doubtful] == ["JD", "JM"]
    fixed = reader.recheck(reading, {1: "jd"})
    assert not fixed.tiles[1].doubtful and fixed.tiles[1].doubt is None and fixed.tiles[1].confidence == 1.0
    assert fixed.tiles[4].doubt == TWIST_UNCONFIRMED  # the mirror joker was not confirmed
    assert [w[:7] for w in fixed.warnings] == ["tile 5:"]
    # a tile a person names as a Twist joker is one (the rules then judge the meld)
    named = recheck(reading, {4: "JC"}, TWIST)
    assert named.tiles[4].code == "JC" and not named.tiles[4].doubtful


def test_a_base_game_reading_has_no_twist_doubt(table_fixture) -> None:
    _, model = table_fixture
    reading = Reader(model=model).read(_blank())
    assert all(t.doubt is None for t in reading.tiles)
    assert not any("Twist" in w for w in reading.warnings)


def test_a_set_has_one_of_each_twist_joker() -> None:
    assert copy_warnings(["JD", "K1", "JD"]) == ["JD appears twice in the photo; a set has only 1 - check tiles 1, 3"]
    assert copy_warnings(["JD", "JM", "JC", "J", "J"]) == []
    # two tiles that both look like the mirror joker: the copy limit makes the less sure one something else
    r = read_consistently([prob_vector({"JM": 0.9}), prob_vector({"JM": 0.6, "J": 0.35})])
    assert r.codes == ["JM", "J"] and r.tiles[1].changed and r.tiles[1].doubtful
    assert r.warnings == [
        "tile 2: read as J because a set has only 1 JM and the photo has it elsewhere; it looked more like JM (60%) - check it"
    ]


def test_where_twist_jokers_may_be_in_play_a_regular_joker_is_doubtful_too() -> None:
    """The reader cannot yet be trusted to tell a Twist joker from the regular one: a held-out
    Twist joker face read as a sure J would give wrong hints."""
    row = _row(["R2", "J", "R4"])
    base = Reader(model=FakeModel(row)).read(_blank())
    assert base.codes() == ["R2", "J", "R4"] and not base.tiles[1].doubtful  # the base game has no Twist jokers
    for reading in (
        Reader(model=FakeModel(row), rules=TWIST).read(_blank()),  # the family plays Twist
        Reader(model=FakeModel(row)).read(_blank(), rules=TWIST),  # ... set for this photo only
    ):
        joker = reading.tiles[1]
        assert joker.code == "J" and joker.doubtful and joker.doubt == JOKER_KIND and JOKER_KIND in DOUBT_TEXT
        assert not reading.tiles[0].doubtful and not reading.tiles[2].doubtful


def test_a_labelled_twist_photo_is_evaluated_with_the_twist_rule(tmp_path) -> None:
    import cv2

    from vision.evaluate import evaluate_dataset
    from vision.yolo_format import CLASS_NAMES, label_text

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "twist.png"), np.zeros((480, 640, 3), np.uint8))
    boxes = [(40 + 44 * k, 100, 80 + 44 * k, 156) for k in range(3)]
    # the photo holds a Double Joker that the model takes for the regular one
    (tmp_path / "labels" / "twist.txt").write_text(label_text(list(zip(["R2", "JD", "R5"], boxes)), 640, 480))
    model = FakeModel(_row(["R2", "J", "R5"]))
    report = evaluate_dataset(tmp_path, Reader(model=model), progress=False, split="all")
    assert CLASS_NAMES.index("JD") > 0 and report.wrong == 1 and report.sure_wrong == 0 and report.wrong_flagged == 1
