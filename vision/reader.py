"""Photo in, checked reading out: model -> layout -> rule-aware reading -> engine check per meld.

``Reader().read(image)`` reads a table photo (tiles grouped into melds, each meld checked);
``read(image, rack=True)`` reads a rack (tiles in rack order, no melds). ``recheck`` applies a
person's corrections and checks the melds again without the model.

The Rummikub Twist jokers (``JD``, ``JM``, ``JC``) are read like any tile, but a tile read as one is
always doubtful, however sure the model is, with the reason ``TWIST_UNCONFIRMED``
(``TileReading.doubt``) and a warning: the models learnt them from renders only, and no real photo
has yet shown that they read them. For the same reason, where Twist jokers may be on the table (the
Twist rule is on, or the photo shows one) a regular joker is doubtful too (``JOKER_KIND``).
"""

from __future__ import annotations

import dataclasses
import time
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

from engine.rules import DEFAULT_RULES, HouseRules
from engine.sets import analyse_set
from engine.tiles import SPECIAL_NAMES, TWIST_CODES, Tile, parse_tile
from vision.calibration import Calibration
from vision.consistent import (copy_warnings, likeliest_meld, meld_warnings, read_again, read_consistently,
                               rules_settle_turn)
from vision.doubt import judge, reason
from vision.frame import cut_by_frame
from vision.fusion import NUMBER_COLUMNS, colour_disagreement, disagreement, fuse, way_unconfirmed, without_twist
from vision.hard import FEW_SURE_WARNING, held_few_sure
from vision.ink import CLEAR_INK, InkOpinion, InkReading, clear_inks, held_to_blue, held_to_colour_change, ink_disagrees, ink_likelihood, ink_opinion
from vision.halves import one_number
from vision.layout import melds_with_cuts, rack_order, row_neighbours, rows_run_down, too_close
from vision.load import load_image
from vision.lowview import LowView, squeezed, stretched
from vision.metrics import box_iou
from vision.mirror import CLEARLY, KEEP_SURE, better_mirrored, held_mirrored, mirrored_back
from vision.mono import colourless
from vision.outline import overlapped
from vision.partial import far_smaller, goes_on
from vision.regroup import part_at_joint, set_aside, split_by_rules, valid_meld
from vision.turn import FEW_TILES, stands_sideways, stands_upside_down, turned, turned_back, way_up
from vision.types import CROWDED, CUT_BY_FRAME, INK_COLOUR, INK_RECOLOURED, JOINED, JOKER_KIND, LOW_VIEW, NO_COLOUR, OVERLAPPING, PARTIAL, TOO_CLOSE, TWIST_UNCONFIRMED, Image, MeldReading, NumberAnswers, PhotoReading, TileReading, colour_unread, few_read_surely
from vision.yolo_format import CLASS_NAMES

if TYPE_CHECKING:  # the model stage is imported only when a model is actually needed
    from vision.model import RawTile, TileModel

NO_TILES = "no tiles found in this photo"
NO_COLOUR_WARNING = (
    "this photo holds no colour to read (black and white, sepia or faded): the tiles' colours cannot be read from "
    "it, so every tile is doubtful; take the photo in colour, or check each tile's colour"
)
DUPLICATE_IOU = 0.7  # two detections overlapping this much are one tile


class NumberReading(Protocol):
    """Reads the number on each tile box: (N, 14) probabilities over 1..13 and "no number"; ``upright``: the tiles
    stand the photo's way up (a rack)."""

    def read(self, rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> np.ndarray: ...


@runtime_checkable
class SpansReading(Protocol):
    """A number reader that also reads what a box holds as one line of text (``NumberReader.read_spans``)."""

    def read_spans(self, rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray: ...


@runtime_checkable
class WaysReading(Protocol):
    """A number reader that also says the way each tile lies (``NumberAnswers.ways``, ``vision.ocr``)."""

    def read_with_ways(self, rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> NumberAnswers: ...


def number_answers(numbers: NumberReading, rgb: np.ndarray, boxes: np.ndarray, upright: bool) -> NumberAnswers:
    """``numbers``' answers on ``boxes``: its probabilities, checked, and the way each tile lies where it says (NaN
    where it does not: a reader of numbers alone)."""
    if isinstance(numbers, WaysReading):
        answers = numbers.read_with_ways(rgb, boxes, upright=upright)
        probs, ways = np.asarray(answers.probs, dtype=np.float64), np.asarray(answers.ways, dtype=np.float64)
    else:
        probs = np.asarray(numbers.read(rgb, boxes, upright=upright), dtype=np.float64)
        ways = np.full(len(boxes), np.nan)
    if probs.shape != (len(boxes), NUMBER_COLUMNS):
        raise ValueError(f"the number reader gave {probs.shape} probabilities, expected ({len(boxes)}, {NUMBER_COLUMNS})")
    if ways.shape != (len(boxes),):
        raise ValueError(f"the number reader gave {ways.shape} ways, expected ({len(boxes)},)")
    return NumberAnswers(probs, ways)


class Reader:
    """Reads photos with one model, loaded once (lazily, on the first photo).

    The number recogniser (``vision.ocr``) is a second opinion on each number. ``ocr``: None
    follows the model's settings (``"ocr"`` in ``models/settings.json``, on by default, used where
    the recogniser is installed); True insists on it; False reads with the classifier alone.
    ``number_reader`` injects one (tests use stand-ins). ``ink_reader``: the opinion on each tile's
    ink colour (default: measured on the photo, ``vision.ink``). ``calibration``: how far each
    reader is believed and when a tile is doubtful (default: ``calibration.json`` in the models
    folder). ``low_view``: when a photo counts as a table seen from low down and is read stretched back
    (``vision.lowview``); None reads every photo as taken. ``sideways``: a rack photographed sideways, or a table whose
    rows run down the photo, is read turned a quarter (``vision.turn``); ``mirror``: a photo saved mirrored is read
    mirrored back (``vision.mirror``, asking the number reader). False for either reads every photo as taken (the
    calibration's replay, whose records hold the photo as taken only).
    """

    def __init__(
        self,
        model: "TileModel | None" = None,
        rules: HouseRules = DEFAULT_RULES,
        *,
        models_dir: str | Path | None = None,
        min_score: float = 0.0,
        number_reader: NumberReading | None = None,
        ocr: bool | None = None,
        calibration: Calibration | None = None,
        ink_reader: InkReading | None = None,
        low_view: LowView | None = LowView(),
        sideways: bool = True,
        mirror: bool = True,
    ) -> None:
        self._model = model
        self.rules = rules
        self.models_dir = models_dir
        self.min_score = min_score
        self._numbers = number_reader
        self._ocr = ocr
        self._calibration = calibration
        self.ink_reader: InkReading = InkOpinion() if ink_reader is None else ink_reader
        self.low_view = low_view
        self.sideways = sideways
        self.mirror = mirror

    @property
    def number_reader(self) -> NumberReading | None:
        """The recogniser in use, or None (loaded on first use; decided once)."""
        if self._numbers is None and self._ocr is not False:
            from vision.ocr import load_number_reader, ocr_available

            wanted = self._ocr
            if wanted is None:
                settings = getattr(self.model, "settings", None)
                wanted = bool(getattr(settings, "ocr", False)) and ocr_available()
            if wanted:
                self._numbers = load_number_reader()  # raises ModelMissing on first read if absent
            self._ocr = bool(wanted)
        return self._numbers if self._ocr is not False else None

    @property
    def uses_ocr(self) -> bool:
        """Does this reader ask the number recogniser (decided, and the models loaded, on first ask)?"""
        return self.number_reader is not None

    @property
    def calibration(self) -> Calibration:
        if self._calibration is None:
            folder = getattr(self.model, "folder", None)
            self._calibration = Calibration.load(folder)
        return self._calibration

    @property
    def model(self) -> "TileModel":
        if self._model is None:
            from vision.model import load_model  # raises vision.errors.ModelMissing

            self._model = load_model(self.models_dir)
        return self._model

    def read(self, image: Image, rack: bool = False, known: Iterable[str | Tile] = (), rules: HouseRules | None = None) -> PhotoReading:
        """Read one photo. ``known``: tiles known to be elsewhere (for the two-copies rule);
        ``rules``: the house rules for this photo (default: the reader's).

        A photo whose tiles' boxes are flat (``low_view``) is read again stretched in height, as though seen from
        above, and the reading with more tiles sure is kept (before the stretched one is held to the low view's own
        threshold; of two as sure, the one that expects more tiles right, ``expected_right``: a photo so hard that
        neither reading is sure of a tile is no reason to keep the worse): a table seen from low down reads far
        better stretched, and one seen from above whose tiles mostly lie sideways (its boxes flat too) better as
        taken.

        A rack whose tiles stand one above another (``vision.turn``: a photo turned a quarter) is read again turned
        upright, and that reading kept where it has more tiles sure, or as many and more tiles found; so is a rack
        photo with fewer than ``FEW_TILES`` tiles found, the reading turned upright kept only where it has more tiles
        sure. A rack whose tiles the number reader reads surely turned over, more of them than upright
        (``vision.turn.stands_upside_down``: photographed upside down), is read again turned a half, and that reading
        kept where it has more tiles sure (of two as sure, the one that expects more tiles right). A table whose rows
        run down the photo (``vision.layout.rows_run_down``: taken from the table's side, or turned a quarter) is read
        turned too, its rows across, as the layout, a low view's stretch and the detector know a table; that reading
        kept where it has more tiles sure, or as many and more tiles found. A turned reading's boxes are given on the
        photo as taken, and ``PhotoReading.turned`` says how it was read.

        A photo saved mirrored (``vision.mirror``: the number reader reads its largest tiles more surely mirrored) is
        read mirrored back first, and that reading kept where it has more tiles sure, two at least; the turn and the
        low view then apply to it, its boxes are given on the photo as taken, and ``PhotoReading.mirrored`` says so.
        Where the photo reads clearly better mirrored but no surer mirrored back, every tile is doubtful (``MIRRORED``)."""
        rules = self.rules if rules is None else rules
        known = tuple(known)
        start = time.perf_counter()
        reading, sure, answers = self._read(image, 1.0, rack, known, rules)
        numbers, flip, doubted = self.number_reader, False, False
        if self.mirror and answers is not None and numbers is not None:
            # a photo saved mirrored: the recogniser reads its largest tiles more surely mirrored back; the reading
            # mirrored back is kept where it has more tiles sure (two at least), and the rest of the reading goes on
            # from it; where it reads clearly better mirrored but no surer mirrored back, no tile is shown as sure
            found = better_mirrored(image, [t.box for t in reading.tiles], answers.probs,
                                    lambda rgb, b: numbers.read(rgb, b, upright=rack))
            if found is not None:
                back, gap = found
                again, again_sure, again_answers = self._read(back, 1.0, rack, known, rules)
                if again_sure > sure and again_sure >= KEEP_SURE:
                    image, reading, sure, answers, flip = back, again, again_sure, again_answers, True
                else:
                    doubted = gap < CLEARLY
        reading = self._read_turned(image, reading, sure, answers, rack, known, rules)
        reading = mirrored_back(reading) if flip else held_mirrored(reading) if doubted else reading
        reading = held_few_sure(reading)  # a photo it is sure of few tiles on: it is sure of none
        return dataclasses.replace(reading, ms=_ms(start))

    def _read_turned(self, image: Image, reading: PhotoReading, sure: int, answers: NumberAnswers | None, rack: bool,
                     known: tuple[str | Tile, ...], rules: HouseRules) -> PhotoReading:
        """``reading`` (of ``image`` as taken, ``sure`` of its tiles sure, the number reader's ``answers`` on its
        tiles: their numbers and the way each lies), or where it reads more tiles surely the reading turned a quarter
        of a photo standing sideways, turned a half of a rack upside down, or stretched of a low view (``read``)."""
        boxes = [t.box for t in reading.tiles]
        if self.sideways:
            # a rack standing sideways, or a table whose rows run down the photo: read turned a quarter, and so is a
            # rack with few tiles found (perhaps standing tiles the detector missed sideways); the turned reading is
            # kept where it reads more tiles surely (standing sideways: or as many, and finds more tiles)
            sideways = stands_sideways(boxes) if rack else rows_run_down(boxes, None if answers is None else answers.ways)
            if sideways or (rack and len(boxes) < FEW_TILES):
                upright, upright_sure = self._read_upright(image, boxes, rack, known, rules)
                more = len(upright.tiles) > len(boxes)
                if upright_sure > sure or (sideways and upright_sure == sure and more):
                    return upright
                if sideways and rack:  # a sideways rack's boxes are flat, but it is no low view
                    return reading
            elif rack and answers is not None and stands_upside_down(answers):
                # a rack upside down: its tiles are read the photo's way up first, and that way up counts for more
                over, over_sure, _ = self._read(turned(image, 2), 1.0, rack, known, rules)
                if reads_better(over, over_sure, reading, sure):
                    return turned_back(over, 2)
        reading, _ = self._read_low_view(image, reading, sure, rack, known, rules)
        return reading

    def _read_low_view(self, image: Image, reading: PhotoReading, sure: int, rack: bool, known: tuple[str | Tile, ...],
                       rules: HouseRules) -> tuple[PhotoReading, int]:
        """``reading`` (of ``image`` as taken, ``sure`` of its tiles sure), or where its boxes are flat the reading
        of the photo stretched, whichever has more tiles sure; and how many are."""
        stretch = self.low_view.stretch([t.box for t in reading.tiles]) if self.low_view is not None else 1.0
        if stretch > 1:
            tall, tall_sure, _ = self._read(image, stretch, rack, known, rules)
            if reads_better(tall, tall_sure, reading, sure):
                return tall, tall_sure
        return reading, sure

    def _read_upright(self, image: Image, boxes: Sequence[Sequence[float]], rack: bool, known: tuple[str | Tile, ...],
                      rules: HouseRules) -> tuple[PhotoReading, int]:
        """The reading of a photo standing sideways (a rack, or a table whose rows run down it) turned a quarter
        upright, on the photo as taken, and how many of its tiles are sure; a table's reading stretched where it is
        a low view. A table is turned a quarter clockwise: its tiles read alike either way up, and a run is laid in
        order either way. For a rack the number reader says which quarter turn stands its numbers the right way up
        (and where the rack, read turned that way, stands upside down, ``vision.turn.stands_upside_down``, the other
        quarter is read too); with no number reader, or no tile found to ask it about, both are read; the surer is
        kept."""
        numbers = self.number_reader
        if not rack:  # a table's tiles read alike either way up, and a run is laid in order either way
            turns: tuple[int, ...] = (1,)
        elif numbers is None or not len(boxes):
            turns = (1, 3)
        else:
            turns = (way_up(image, boxes, lambda rgb, b: numbers.read(rgb, b, upright=True)),)
        best: tuple[PhotoReading, int] | None = None
        done: list[int] = []
        while turns:
            quarters, turns = turns[0], turns[1:]
            done.append(quarters)
            photo = turned(image, quarters)
            upright, upright_sure, answers = self._read(photo, 1.0, rack, known, rules)
            if not rack:
                upright, upright_sure = self._read_low_view(photo, upright, upright_sure, rack, known, rules)
            if best is None or upright_sure > best[1]:
                best = turned_back(upright, quarters), upright_sure
            other = (quarters + 2) % 4
            if rack and answers is not None and other not in (*done, *turns) and stands_upside_down(answers):
                # the quarter turn the number reader chose stands the rack on its head: its tiles read surely turned
                # over; the other quarter is read too, and the surer kept
                turns = (other, *turns)
        assert best is not None
        return best

    def _read(self, image: Image, stretch: float, rack: bool, known: Iterable[str | Tile],
              rules: HouseRules) -> tuple[PhotoReading, int, NumberAnswers | None]:
        """The reading of ``image`` stretched ``stretch`` times in height, its boxes on the photo as taken, how
        many of its tiles are sure by every threshold but a low view's own, and the number reader's answers on its
        tiles, in their order (None without a number reader, or without tiles).

        The number reader reads before the tiles are grouped: the way the tiles lie tells which way a table's rows
        run (``vision.layout.rows_run_down``) where the boxes cannot (two melds laid close beside each other)."""
        photo = stretched(image, stretch) if stretch > 1 else image
        # the photo as the model looks at it (a phone's photo shrunk once, here): the checks on whole boxes below look
        # at it too, not at every pixel of a 12 MP photo
        work, factors = self._working(photo.rgb)
        raw = clean_detections(_scaled(self.model.predict(work), factors), photo, self.min_score)
        if not raw:
            return PhotoReading(
                path=image.path, width=image.width, height=image.height, tiles=[], melds=[],
                warnings=[NO_TILES], rack=rack, stretch=stretch,
            ), 0, None
        boxes = [r.box for r in raw]
        numbers = self.number_reader
        answers = None if numbers is None else number_answers(numbers, photo.rgb, np.array(boxes, dtype=np.float64), rack)
        down = None if rack else rows_run_down(boxes, None if answers is None else answers.ways)  # decided once
        groups, cuts, wide = ([[i] for i in rack_order(boxes)], [], []) if rack else melds_with_cuts(boxes, down)
        order = [i for g in groups for i in g]
        new_index = {old: new for new, old in enumerate(order)}
        raw = [raw[i] for i in order]
        meld_groups = [] if rack else [[new_index[i] for i in g] for g in groups if len(g) >= 2]
        meld_cuts = [c for g, c in zip(groups, cuts) if len(g) >= 2]
        meld_wide = [w for g, w in zip(groups, wide) if len(g) >= 2]

        probs = np.stack([np.asarray(r.probs, dtype=np.float64) for r in raw])
        tile_boxes = np.array([r.box for r in raw], dtype=np.float64)  # in reading order
        if answers is not None:
            answers = NumberAnswers(answers.probs[order], answers.ways[order])
        ocr = None if answers is None else answers.probs
        # the ink's own colour: a third opinion, on the colour alone
        inks = list(self.ink_reader.read(photo.rgb, tile_boxes))
        if len(inks) != len(raw):
            raise ValueError(f"the ink reader gave {len(inks)} opinions for {len(raw)} tiles")
        calibration = self.calibration
        params = calibration.params(ocr is not None, rack=rack)
        evidence = None if calibration.ink is None else ink_likelihood(inks, CLASS_NAMES, calibration.ink)
        fused = fuse(probs, ocr, params, evidence)
        if not rules.twist:  # the base game: its set holds no Twist joker
            fused = without_twist(fused)
        doubt_below = calibration.threshold(ocr is not None)
        consistent = read_consistently(fused, meld_groups or None, known=known, rules=rules, doubt_below=doubt_below)
        # two melds laid nearly touching in a row: the rules tell them apart, and they are read again as two
        # (a misread tile whose true face the readers name among its candidates does not hold them together)
        def can_be_meld(part: tuple[int, ...]) -> bool:  # under each tile's candidate readings
            return likeliest_meld(fused[list(part)], rules)[1]

        regrouped = split_by_rules(meld_groups, meld_cuts, can_be_meld, meld_wide)
        # a box crowding a meld that is valid without it (a tile found twice, a box over a joint): read on its own
        kept, aside = set_aside(regrouped, tile_boxes, consistent.codes, [float(r.det_score) for r in raw], rules, can_be_meld,
                                down)
        # two melds laid touching, with no gap to cut at: parted at the one joint that makes both valid
        kept = part_at_joint(kept, tile_boxes, can_be_meld, down)
        if len(kept) != len(meld_groups) or aside:
            meld_groups = [g for g in kept if len(g) >= 2]
            consistent = read_consistently(fused, meld_groups, known=known, rules=rules, doubt_below=doubt_below)
        work_boxes = tile_boxes / np.array([*factors, *factors])
        # a tile read as black whose face's clear ink is blue beyond doubt (a blue the classifier never saw, teal or navy)
        # is read again, with its meld, as a blue tile of the number read (or a joker), and stays doubtful; no other tile
        # changes for it
        clear_labs, every_colour = clear_inks(work, work_boxes)
        held_fused, held = held_to_blue(fused, consistent.codes, clear_labs, CLASS_NAMES)
        # a tile whose ink shows red, orange and blue at once is no numbered tile: with the Twist rule on it is the
        # colour-change joker, however its mark is drawn; without it, a tile read as a number so is doubted below
        if rules.twist:
            held_fused, changed = held_to_colour_change(held_fused, consistent.codes, every_colour, CLASS_NAMES)
            held |= changed
        if held.any():
            again = read_consistently(held_fused, meld_groups or None, known=known, rules=rules, doubt_below=doubt_below)
            consistent = read_again(consistent, again, np.flatnonzero(held), known)
        numbered = np.array([not c.startswith("J") for c in consistent.codes], dtype=bool)  # no joker of any kind
        # the opinions' disagreement about the chosen reading: someone should look
        disagree = disagreement(consistent.codes, probs, ocr, params)
        recoloured = colour_disagreement(consistent.codes, probs)
        partial = goes_on(work, work_boxes)  # a box round part of its tile's number reads a part surely
        partial |= far_smaller(tile_boxes)  # so does a box round a piece of a tile whose rest is hidden
        if rack and isinstance(numbers, SpansReading):
            # two boxes side by side on a rack that read as one 10-13 together: one tile's two digits boxed apart
            partial |= one_number(tile_boxes, row_neighbours(tile_boxes), lambda b: numbers.read_spans(photo.rgb, b))
        cut = cut_by_frame(tile_boxes, photo.width, photo.height)  # so does a tile half out of the photo
        twice = overlapped(photo.rgb, tile_boxes)  # one of two boxes this much on each other may be no tile
        no_colour = colourless(work, work_boxes)  # a filter's one tint: no numbered tile's colour can be sure
        # a colour the ink clearly contradicts, as the evidence measures it or on the face's clear ink (a turned tile,
        # a small number: ``vision.ink.CLEAR_INK``)
        off_colour = ink_disagrees(consistent.codes, inks) | ink_disagrees(consistent.codes, [ink_opinion(lab, CLEAR_INK) for lab in clear_labs])
        off_colour |= every_colour & numbered
        # boxes closer than two tiles can lie: along a rack's rows, and in a table's groups the rules do not make valid
        # (a meld valid as read was laid squeezed; a box that kept one from being valid was set aside above)
        # where the rows' spacing is half the boxes' own width, the halves of 10-13s boxed digit by digit lie a "tile"
        # apart: measured in the boxes' own width they are close too (a valid meld's tiles are as laid)
        valid = [valid_meld([consistent.codes[t] for t in g], rules) for g in meld_groups]
        close = too_close(tile_boxes, None if rack else [g for g, ok in zip(meld_groups, valid) if not ok], down,
                          vouched=[] if rack else [g for g, ok in zip(meld_groups, valid) if ok])
        meld_of = {t: m for m, g in enumerate(meld_groups) for t in g}
        chosen = consistent.tiles
        codes = [c.code for c in chosen]
        n = len(chosen)
        # a 6 or a 9 whose way up only the classifier is sure of (vision.fusion.way_unconfirmed), unless its meld's
        # rules settle it (R4 R5 R6: turned over it is no meld; a group too short to be a meld settles nothing)
        settled = {t for g in meld_groups if rules_settle_turn([codes[k] for k in g], rules) for t in g}
        unconfirmed = way_unconfirmed(codes, ocr) & np.array([t not in settled for t in range(n)], dtype=bool)
        # the reasons a person is told come first, the most telling first; the rest only make a tile doubtful
        reasons = [
            reason(NO_COLOUR, no_colour & numbered),
            reason(TWIST_UNCONFIRMED, [c in TWIST_CODES for c in codes]),
            # with the Twist rule on, a joker read as the regular one is no surer than the special jokers are: the
            # reader is not yet confirmed on telling the kinds apart
            reason(JOKER_KIND, [rules.twist and c == "J" for c in codes]),
            reason(JOINED, [r.joined for r in raw]),
            reason(CROWDED, [t in aside for t in range(n)]),
            reason(PARTIAL, partial),
            reason(CUT_BY_FRAME, cut),
            reason(OVERLAPPING, twice),
            reason(TOO_CLOSE, close),
            reason(INK_COLOUR, off_colour),
            reason(INK_RECOLOURED, (recoloured & np.array([inks[t] == c[:1] for t, c in enumerate(codes)], dtype=bool))
                   | (held & numbered)),
            reason(None, held),
            reason(None, recoloured),
            reason(None, disagree),
            reason(None, [c.doubtful for c in chosen]),  # the fused reading is not sure enough
            # a 6 or a 9, and a 1, meet a threshold of their own kind too
            reason(None, [c.confidence < calibration.kind_threshold(c.code, ocr is not None) for c in chosen]),
            reason(None, unconfirmed),
        ]
        doubtful, why = judge(n, reasons)
        sure = n - sum(doubtful)
        if stretch > 1:  # a low view's numbers were drawn with fewer pixels than they are read with: a bound of their own
            low_view_below = calibration.low_view_threshold(ocr is not None)
            held = [not d and c.confidence < low_view_below for d, c in zip(doubtful, chosen)]
            doubtful, why = judge(n, [*reasons, reason(LOW_VIEW, held)])  # told only where nothing else doubts it
        tiles = [
            TileReading(
                box=squeezed(r.box, stretch),
                code=choice.code,
                confidence=choice.confidence,
                alternatives=list(choice.alternatives),
                meld=meld_of.get(t),
                doubtful=doubtful[t],
                doubt=why[t],
            )
            for t, (r, choice) in enumerate(zip(raw, chosen))
        ]
        melds = check_melds(tiles, meld_groups, rules)
        warnings = ([NO_COLOUR_WARNING] if colour_unread(tiles) else []) + consistent.warnings
        warnings += twist_warnings(tiles) + meld_warnings([m.codes for m in melds], rules)
        return PhotoReading(
            path=image.path, width=image.width, height=image.height, tiles=tiles, melds=melds,
            warnings=warnings, rack=rack, stretch=stretch,
        ), sure, answers

    def _working(self, rgb: np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
        """The photo shrunk to the model's working side (``ModelSettings.work_side``; a model without one looks at
        every pixel), and the factors that take its x and y back to the photo's own pixels."""
        side = getattr(getattr(self.model, "settings", None), "work_side", 0)
        if not side:  # a model of its own (a test's stand-in): vision.model is not imported for it
            return rgb, (1.0, 1.0)
        from vision.model import shrunk

        return shrunk(rgb, side)

    def read_path(self, path: str | Path, rack: bool = False) -> PhotoReading:
        """Load and read one photo file (raises vision.errors.ImageError for a bad file)."""
        return self.read(load_image(path), rack=rack)

    def recheck(self, reading: PhotoReading, corrections: Mapping[int, str]) -> PhotoReading:
        """Apply a person's corrections (tile index -> code) and check the melds again.

        Pure: no model. A corrected tile gets confidence 1.0 and is no longer doubtful (a person may
        name a Twist joker: ``JD``, ``JM``, ``JC``).
        """
        return recheck(reading, corrections, self.rules)


def recheck(
    reading: PhotoReading, corrections: Mapping[int, str], rules: HouseRules = DEFAULT_RULES
) -> PhotoReading:
    """See :meth:`Reader.recheck`; usable without a reader."""
    n = len(reading.tiles)
    fixed: dict[int, str] = {}
    for index, code in corrections.items():
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise ValueError(f"tile {index!r}: a correction names a tile by its number (0-{n - 1})")
        if not 0 <= int(index) < n:
            where = f"0-{n - 1}" if n else "none"
            raise ValueError(f"tile {index}: no such tile in this photo (tiles {where})")
        fixed[int(index)] = parse_tile(str(code), twist=True).code  # NotationError (a ValueError) if bad
    tiles = [
        dataclasses.replace(t, code=fixed[i], confidence=1.0, doubtful=False, doubt=None, alternatives=[])
        if i in fixed
        else dataclasses.replace(t, alternatives=list(t.alternatives))
        for i, t in enumerate(reading.tiles)
    ]
    melds = check_melds(tiles, [m.tiles for m in reading.melds], rules)
    codes = [t.code for t in tiles]
    kept = [w for w in reading.warnings if _tile_warning_of(w) is not None and _tile_warning_of(w) not in fixed]
    if not tiles and NO_TILES in reading.warnings:
        kept.append(NO_TILES)
    if colour_unread(tiles):  # until a person has named every tile's colour
        kept.insert(0, NO_COLOUR_WARNING)
    if few_read_surely(tiles):  # until a person has named every tile it held (first, as read)
        kept.insert(0, FEW_SURE_WARNING)
    warnings = copy_warnings(codes) + kept + meld_warnings([m.codes for m in melds], rules)
    return dataclasses.replace(reading, tiles=tiles, melds=melds, warnings=warnings)


def twist_warnings(tiles: Sequence[TileReading]) -> list[str]:
    """One message per tile read as a Twist joker: no real photo has confirmed the reader on them yet,
    so such a read is always doubtful, however sure the model is (tile numbers 1-based)."""
    return [
        f"tile {i + 1}: read as {t.code} (the {SPECIAL_NAMES[t.code[1]]}); the reader has not yet been "
        "checked on a real photo of the Twist jokers - check it"
        for i, t in enumerate(tiles)
        if t.code in TWIST_CODES
    ]


def check_melds(tiles: Sequence[TileReading], groups: Sequence[Sequence[int]], rules: HouseRules) -> list[MeldReading]:
    """The engine's verdict on each meld (tile indices in reading order). A Twist joker (put in by a
    person's correction) is read whatever the rules; with the Twist rule off, the verdict says why
    it does not count."""
    out = []
    for group in groups:
        codes = [tiles[i].code for i in group]
        check = analyse_set([parse_tile(c, twist=True) for c in codes], rules)
        out.append(
            MeldReading(
                tiles=list(group), codes=codes, valid=check.valid, kind=check.kind,
                value=check.value, reason=check.reason,
            )
        )
    return out


@lru_cache(maxsize=4)
def _cached_reader(models_dir: str | None) -> Reader:
    return Reader(models_dir=models_dir)


def get_reader(models_dir: str | Path | None = None) -> Reader:
    """One shared reader per models folder (the model loads on its first photo)."""
    return _cached_reader(None if models_dir is None else str(models_dir))


# --------------------------------------------------------------------------- helpers


def expected_right(reading: PhotoReading) -> float:
    """How many of a reading's tiles it expects to have read right: the sum of their confidences."""
    return float(sum(t.confidence for t in reading.tiles))


def reads_better(other: PhotoReading, other_sure: int, reading: PhotoReading, sure: int) -> bool:
    """Is ``other`` (``other_sure`` of its tiles sure) a better reading of the photo than ``reading`` (``sure``)? More
    tiles sure, or as many and more tiles expected right (``expected_right``): a photo so hard that neither reading
    is sure of a tile is no reason to keep the worse."""
    return other_sure > sure or (other_sure == sure and expected_right(other) > expected_right(reading))


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


def _tile_warning_of(warning: str) -> int | None:
    """The 0-based tile a "tile N: ..." warning is about, else None."""
    head, sep, _ = warning.partition(":")
    if sep and head.startswith("tile ") and head[5:].isdigit():
        return int(head[5:]) - 1
    return None


def _scaled(raw: Sequence["RawTile"], factors: tuple[float, float]) -> list["RawTile"]:
    """The tiles found on a shrunk photo, their boxes taken back to the photo's own pixels by ``factors`` (x, y)."""
    fx, fy = factors
    if (fx, fy) == (1.0, 1.0):
        return list(raw)
    return [dataclasses.replace(r, box=(r.box[0] * fx, r.box[1] * fy, r.box[2] * fx, r.box[3] * fy)) for r in raw]


def clean_detections(raw: Sequence["RawTile"], image: Image, min_score: float) -> list["RawTile"]:
    """Drop weak and duplicate detections; clip boxes to the photo; check the model's output."""
    kept = []
    for r in raw:
        probs = np.asarray(r.probs)
        if probs.shape != (len(CLASS_NAMES),):
            raise ValueError(f"the model gave {probs.shape} probabilities for a tile, expected ({len(CLASS_NAMES)},)")
        if r.det_score < min_score:
            continue
        x1, y1, x2, y2 = (float(v) for v in r.box)
        x1, x2 = sorted((min(max(x1, 0.0), image.width), min(max(x2, 0.0), image.width)))
        y1, y2 = sorted((min(max(y1, 0.0), image.height), min(max(y2, 0.0), image.height)))
        if x2 - x1 < 1.0 or y2 - y1 < 1.0:
            continue
        kept.append(dataclasses.replace(r, box=(x1, y1, x2, y2)) if dataclasses.is_dataclass(r) else r)
    kept.sort(key=lambda r: -float(r.det_score))
    out: list = []
    for r in kept:
        if not out or box_iou(np.asarray([r.box]), np.asarray([o.box for o in out])).max() < DUPLICATE_IOU:
            out.append(r)
    return out

