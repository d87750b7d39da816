"""The style split (datasets/synth/styles.py): disjoint sides, held-out renders draw only held-out styles,
renders stay deterministic, the new rack close-ups keep exact labels, missing fonts fail clearly."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from datasets.synth.faces import EMBLEMS, FACE_H, FACE_W, GLYPH_PAD, FaceStyle, _glyphs, _joker_mask, _warped_glyphs, random_edition, tile_style
from datasets.synth.fonts import NoFonts, check_fonts, find_fonts, number_fonts
from datasets.synth.generate import synth_one
from datasets.synth.render import MIN_VISIBLE
from datasets.synth.styles import CALIB, FONT_STEMS, HELD_OUT, TRAIN, style_set
from datasets.synth.writer import write_dataset


def _in_bands(size: float, styles) -> bool:
    return any(b.lo <= size <= b.hi for b in styles.sizes)


SIDES = (TRAIN, CALIB, HELD_OUT)
PAIRS = [(a, b) for i, a in enumerate(SIDES) for b in SIDES[i + 1:]]


@pytest.mark.parametrize("a,b", PAIRS, ids=lambda s: s.name)
def test_the_sides_share_no_value(a, b) -> None:
    assert a.fonts and b.fonts and not a.fonts & b.fonts
    for x in a.sizes:
        for y in b.sizes:
            assert x.hi <= y.lo or y.hi <= x.lo, "digit-size bands overlap only at their ends"
    for c in "KRBO":
        assert not {n for n, _ in a.inks[c]} & {n for n, _ in b.inks[c]}
        assert not {rgb for _, rgb in a.inks[c]} & {rgb for _, rgb in b.inks[c]}
    assert not {n for n, _ in a.plastics} & {n for n, _ in b.plastics}
    assert not set(a.jokers) & set(b.jokers)
    assert not set(a.marks) & set(b.marks)
    assert a.okey != b.okey
    assert a.twist != b.twist


def test_the_sides_cover_every_font_and_are_named() -> None:
    assert TRAIN.fonts | CALIB.fonts | HELD_OUT.fonts == set(FONT_STEMS)
    assert style_set("heldout") is HELD_OUT and style_set("train") is TRAIN and style_set("calib") is CALIB
    with pytest.raises(ValueError, match="train"):
        style_set("test")


@pytest.mark.parametrize("side", SIDES, ids=lambda s: s.name)
def test_many_drawn_styles_stay_on_their_side(side) -> None:
    others = [s for s in SIDES if s is not side]
    rng = np.random.default_rng(0)
    fonts, jokers, shades, plastics = set(), set(), set(), set()
    for _ in range(600):
        ed = random_edition(rng, side)
        for colour in "KRBO":
            st = tile_style(rng, ed, colour)
            assert FONT_STEMS[st.font] in side.fonts
            assert _in_bands(st.size, side) and not any(b.lo < st.size < b.hi for o in others for b in o.sizes)
            assert st.ink_shade in {n for n, _ in side.inks[colour]}
            assert st.plastic_name in {n for n, _ in side.plastics}
            assert st.joker_style in side.jokers
            assert (not st.mark) or st.mark_text in side.marks
            assert st.okey in ("", side.okey)
            assert not (st.circle and st.size > 0.5), "big digits never sit in a circle"
            fonts.add(FONT_STEMS[st.font]), jokers.add(st.joker_style), shades.add(st.ink_shade), plastics.add(st.plastic_name)
    # and the side is drawn whole, not a corner of it
    assert fonts == set(side.fonts)
    assert jokers == set(side.jokers)
    assert plastics == {n for n, _ in side.plastics}
    assert shades == {n for c in "KRBO" for n, _ in side.inks[c]}


def test_only_training_editions_vary_their_strokes_and_width() -> None:
    assert not (CALIB.weights or CALIB.stretches or HELD_OUT.weights or HELD_OUT.stretches), "held-out fonts are drawn as they are"
    rng = np.random.default_rng(3)
    for side in (CALIB, HELD_OUT):
        assert {(random_edition(rng, side).weight, random_edition(rng, side).stretch) for _ in range(50)} == {(0, 1.0)}
    drawn = [random_edition(rng, TRAIN) for _ in range(400)]
    assert {e.weight for e in drawn} == set(TRAIN.weights) and {e.stretch for e in drawn} == set(TRAIN.stretches)
    e = drawn[0]
    st = tile_style(rng, e, "R")
    assert (st.weight, st.stretch) == (e.weight, e.stretch), "every tile of an edition is printed alike"


@pytest.mark.parametrize("font", [0, FONT_STEMS.index("Jura-Bold"), FONT_STEMS.index("Roboto-Black")])
def test_warped_digits_are_thicker_thinner_wider_narrower(font: int) -> None:
    plain = _glyphs("8", font)
    ink = lambda g: float((g > 127).sum())  # noqa: E731
    assert _warped_glyphs("8", font, 0, 1.0) is plain
    assert ink(_warped_glyphs("8", font, 8, 1.0)) > ink(plain) > ink(_warped_glyphs("8", font, -4, 1.0)) > 0
    width = lambda g: int(np.ptp(np.nonzero((g > 8).any(0))[0]))  # noqa: E731
    assert width(_warped_glyphs("8", font, 0, 1.25)) > width(plain) > width(_warped_glyphs("8", font, 0, 0.8))
    for weight, stretch in ((12, 1.0), (-4, 0.8), (8, 1.25)):
        g = _warped_glyphs("13", font, weight, stretch)
        assert not g[:GLYPH_PAD].any() and not g[-GLYPH_PAD:].any() and not g[:, :GLYPH_PAD].any() and not g[:, -GLYPH_PAD:].any(), \
            "the blank border the number's fitting relies on is kept"
        assert g[GLYPH_PAD].any() and g[:, GLYPH_PAD].any()


def test_every_emblem_joker_is_a_picture_inside_the_face() -> None:
    style = FaceStyle(0, 0.4, False, False, (236, 229, 206), (22, 22, 28), joker_style="emblem")
    rng = np.random.default_rng(5)
    masks = [_joker_mask(style, rng) for _ in range(60)]
    for m in masks:
        assert m.shape == (FACE_H, FACE_W) and 0.02 < m.mean() < 0.5
        assert m[:2].max() == 0 and m[-2:].max() == 0, "inside the face"
    assert len({round(float(m.mean()), 3) for m in masks}) > 30, "each emblem joker is drawn afresh"
    assert len(EMBLEMS) >= 5 and "emblem" in TRAIN.jokers and "emblem" not in CALIB.jokers + HELD_OUT.jokers


def test_heldout_dataset_renders_only_heldout_styles(tmp_path: Path) -> None:
    totals = write_dataset(tmp_path, 6, seed=42, size=320, split="unseen", crops=False, workers=1, progress=False,
                           styles="heldout")
    assert totals["images"] == 6
    metas = [json.loads(p.read_text()) for p in sorted((tmp_path / "meta" / "unseen").iterdir())]
    assert len(metas) == 6
    for m in metas:
        assert m["styles"] == "heldout"
        e = m["edition"]
        assert set(e["fonts"]) <= HELD_OUT.fonts
        assert all(_in_bands(s, HELD_OUT) for s in e["size_range"])
        assert e["plastic"] in {n for n, _ in HELD_OUT.plastics}
        assert e["joker"] in HELD_OUT.jokers and e["twist"] == HELD_OUT.twist
        assert e["mark"] in ("", *HELD_OUT.marks)
        assert all(e["shades"][c] in {n for n, _ in HELD_OUT.inks[c]} for c in "KRBO")
        assert (e["weight"], e["stretch"]) == (0, 1.0)
    with pytest.raises(ValueError):
        write_dataset(tmp_path / "x", 1, styles="unseen", workers=1, progress=False)


def test_training_renders_never_draw_heldout_styles() -> None:
    for i in range(8):
        e = synth_one(5, i, "mix-all", 256, effects=False).meta["edition"]
        assert set(e["fonts"]) <= TRAIN.fonts and e["joker"] in TRAIN.jokers and e["plastic"] in {n for n, _ in TRAIN.plastics}
        assert e["twist"] == TRAIN.twist


@pytest.mark.parametrize("styles", ["train", "heldout"])
def test_same_seed_same_photo_per_side(styles: str) -> None:
    a = synth_one(7, 3, "rack", 384, styles=styles)
    b = synth_one(7, 3, "rack", 384, styles=styles)
    assert np.array_equal(a.rgb, b.rgb)
    assert [(t.code, t.box) for t in a.labels] == [(t.code, t.box) for t in b.labels]
    other = synth_one(7, 3, "rack", 384, styles="heldout" if styles == "train" else "train")
    assert not np.array_equal(a.rgb, other.rgb), "the two sides draw different tiles"


def _rack_close(styles: str, want: int) -> list:
    outs, i = [], 0
    while len(outs) < want and i < 60:
        out = synth_one(31, i, "rack", 640, effects=False, surface="plain", styles=styles)
        i += 1
        if out.meta["view"] == "rack-close" and out.labels:
            outs.append(out)
    assert len(outs) == want, "close-ups of racks are drawn"
    return outs


@pytest.mark.parametrize("styles", ["train", "heldout"])
def test_rack_close_ups_label_exactly_what_is_visible(styles: str) -> None:
    """In close-ups tiles are cut by the frame and the back tier hides behind the front one: each labelled
    box must be the box of that tile's own visible pixels in the id buffer (re-derived here from the photo's
    photo: every box lies inside the frame and holds tile pixels, not the plain table; the exact check
    against the id buffer is the next test)."""
    for out in _rack_close(styles, 3):
        h, w = out.rgb.shape[:2]
        for t in out.labels:
            x1, y1, x2, y2 = t.box
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
            assert t.visible >= MIN_VISIBLE
            # the face corners of a labelled tile project near its box (the box is the visible part only)
            c = np.asarray(t.corners)
            assert c[:, 0].max() >= x1 - 1 and c[:, 0].min() <= x2 + 1 and c[:, 1].max() >= y1 - 1 and c[:, 1].min() <= y2 + 1
            # the box holds tile pixels (plastic or ink, not the plain table) at its centre row
            row = out.rgb[int((y1 + y2) / 2), int(x1) : int(x2)].astype(int)
            assert (np.abs(row - [200, 200, 205]).sum(1) > 6).mean() > 0.5
        rows = {t.meld for t in out.labels}
        assert rows <= {0, 1}


def test_labels_match_the_id_buffer_on_racks(monkeypatch) -> None:
    """Labels come from the id buffer: each label's box is exactly the box of its tile's pixels in the buffer
    the renderer filled (racks: close-ups cut by the frame, back tiers behind the front tier and the lip)."""
    import datasets.synth.render as render_mod

    captured = {}
    real_label = render_mod._label

    def spy(labels, face_down, ids, key, t, hull, fq, joker_ink):
        captured["ids"] = ids
        n = len(labels)
        real_label(labels, face_down, ids, key, t, hull, fq, joker_ink)
        if len(labels) > n:
            captured.setdefault("keys", []).append((key, labels[-1]))

    monkeypatch.setattr(render_mod, "_label", spy)
    checked = 0
    for i in range(20):
        captured.clear()
        out = synth_one(13, i, "rack", 512, effects=False, styles="heldout" if i % 2 else "train")
        for key, lab in captured.get("keys", []):
            ys, xs = np.nonzero(captured["ids"] == key + 1)
            assert lab.box == (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
            checked += 1
        assert len(out.labels) == len(captured.get("keys", []))
    assert checked > 20


def test_upside_down_rack_tiles_are_labelled_turned() -> None:
    turned = 0
    for i in range(40):
        out = synth_one(17, i, "rack", 320, effects=False)
        turned += sum(1 for t in out.labels if abs(abs(t.rotation) - 180) < 30)
    assert turned > 0, "some tiles stand upside down on racks, labelled as turned by about 180 degrees"


def test_missing_fonts_fail_with_the_packages_to_install(tmp_path: Path) -> None:
    found = find_fonts(dirs=(str(tmp_path),))  # an empty font folder
    assert found == {}
    with pytest.raises(NoFonts, match=r"fonts-comfortaa.*run\.sh setup"):
        check_fonts(found)
    partial = dict(list(find_fonts().items())[:-1])
    with pytest.raises(NoFonts, match="1 are missing"):
        check_fonts(partial)
    assert len(number_fonts()) == len(FONT_STEMS)
