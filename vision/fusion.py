"""Two opinions on each tile made into one: the crop classifier's and the number recogniser's.

The classifier gives probabilities over the reader's classes (``vision.yolo_format.CLASS_NAMES``:
the 53 base-game codes and the Twist jokers); the recogniser (``vision.ocr``) gives probabilities
over the numbers 1-13 and "no number". The classifier alone decides the colour, and which joker a
joker is; the number (and joker or not) is decided by both. Every joker, regular or special, shows
no number: the recogniser's evidence is the same for all of them.

The recogniser's answer is treated as evidence through a small model of how it behaves, whose
numbers are fitted on rendered photos (``training.calibrate``): on a tile showing number n it reads
n with probability ``ocr_hit``, nothing with ``ocr_blank``, and any other number with what is
left; on a joker it reads nothing with ``joker_blank``, and what number it reads there it reads
unsurely: a number it reads at p counts toward a joker as p * (1 - p) ** ``joker_softness``. So a
recogniser that reads nothing is weak evidence (it often cannot read a small, blurred tile), one
that reads a number clearly is strong evidence, and one sure of a number is evidence against a
joker too: read linearly, its sure number made a joker the likeliest compromise wherever the
classifier, on digits of a style it never learnt, leaned to a joker or to another number. Its
probabilities are sharpened first (raised to ``1 / ocr_temperature``, fitted below 1): where it
reads a number at 0.9 it is right far more often than nine times in ten, and left soft, its
answer would let a classifier sure of a style it never learnt outvote it. The fused probability of a code is

    p(code) ~ p_classifier(code) ** (1 / cls_temperature) * likelihood(recogniser's answer | code)

A 6 and a 9 are the same glyph turned over, and both readers must guess which way is up: each
reader's 6 and 9 are mixed by ``six_nine`` (the classifier) and ``ocr_six_nine`` (the recogniser),
the rate at which each mistakes one for the other where it cannot see the tile's ends (``training.calibrate``
fits one rate for both: where nothing shows which end is up, neither reader knows better). So a lone
6 stays doubtful, and a 6 in a run 4-5-6 is settled by the rules (``vision.consistent``).

On a rack the classifier's rate is its own (``rack_six_nine``, fitted on the calibration's rack photos;
``FusionParams.on_rack``). The classifier reads a tile the same at every angle, so what tells it a 6 from
a 9 is the edition's marks below the number, and on a rack the lip in front and the tier before hide
them: there it has a 6 or a 9 the right way up about half the time, on the editions it learnt from too,
while the recogniser, reading with the tile's neighbours (``vision.upright``), still knows which way
the rack stands. Its temperature there is its own too (``rack_temperature``): standing tiles seen close up
or from above, big digits filling the face, are where the classifier is least often right on an edition it
never saw, as sure as it is on a table, while the recogniser reads a rack's upright numbers best. And on a
rack the number has a temperature apart from the colour (``rack_number_temperature``, ``soften``): one
temperature for both is held back by the colour, which the classifier reads well there (soften it, and no tile is
sure of its colour), from softening the number as far as the classifier's record on a rack's numbers asks.

Other evidence on the code, such as the ink's colour (``vision.ink.ink_likelihood``), comes in as
one more likelihood per code (``fuse``'s ``evidence``), raised to ``evidence_weight``: an opinion
that partly sees what the classifier sees is worth less than its rates say.

Where the opinions disagree the tile is doubtful (``disagreement``), whatever the fused probability:
either the recogniser clearly reads another number than the reading chosen, or clearly reads no
number on a tile read as a number (weak evidence against the number, as above, but no confirmation
of it: an unknown joker's mark can look like a number to the classifier alone), or the chosen number
is not the classifier's own, or the chosen colour is not the classifier's own. A recogniser unsure
between two numbers (an upside-down 6 or 9) is no disagreement: the classifier decides, or the
usual doubt rules flag it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from engine.tiles import TWIST_CODES
from vision.upright import TURNED_PAIR, turned_code, turned_over
from vision.yolo_format import CLASS_NAMES

N_CODES = len(CLASS_NAMES)
N_NUMBERS = 13
NO_NUMBER = N_NUMBERS  # the recogniser's last column; also the joker's column in number space
NUMBER_COLUMNS = N_NUMBERS + 1  # the number reader's answer: 1..13 and "no number"


def number_column(code: str) -> int:
    """A code's column in the recogniser's answer: number n in n - 1, every joker in the last."""
    return NO_NUMBER if code.startswith("J") else int(code[1:]) - 1


# column (0-12 for numbers 1-13, 13 for the jokers) of each code
NUMBER_OF_CODE = np.array([number_column(c) for c in CLASS_NAMES])
# the code each code becomes turned over where that is another code (6 <-> 9, same colour)
_TURNED = np.array([CLASS_NAMES.index(turned_code(c)) for c in CLASS_NAMES])
# the same in the recogniser's columns (number n in column n - 1; "no number" stays itself)
_TURNED_NUMBER = np.array([turned_over(k + 1) - 1 for k in range(N_NUMBERS)] + [NO_NUMBER])


def turn_over(probs: np.ndarray, share: float, columns: np.ndarray) -> np.ndarray:
    """Move ``share`` of each 6's probability to the 9 of its colour and back (columns: the turned column of each)."""
    return probs if share <= 0 else (1.0 - share) * probs + share * probs[:, columns]


@dataclass(frozen=True)
class FusionParams:
    """How much each reader is believed (fitted by ``training.calibrate``)."""

    cls_temperature: float = 1.0  # > 1 softens the classifier's probabilities
    ocr_hit: float = 0.9  # P(the recogniser reads the tile's number | a number tile)
    ocr_blank: float = 0.08  # P(it reads no number | a number tile)
    joker_blank: float = 0.95  # P(it reads no number | a joker)
    disagree_at: float = 0.6  # the recogniser this sure of another number makes a tile doubtful
    six_nine: float = 0.0  # share of the classifier's 6 that may be a 9 turned over (and back)
    ocr_six_nine: float = 0.0  # the same for the recogniser
    rack_six_nine: float | None = None  # the classifier's share on a rack; None: ``six_nine`` (a calibration fitted before)
    rack_temperature: float | None = None  # the classifier's temperature on a rack; None: ``cls_temperature``
    # the classifier's temperature on a tile's number apart from its colour (``soften``); None: ``cls_temperature``
    # for both. On a table it is None; on a rack ``rack_number_temperature`` (``on_rack``), and None there: the rack's
    # temperature for both (a calibration fitted before)
    number_temperature: float | None = None
    rack_number_temperature: float | None = None
    evidence_weight: float = 1.0  # the power other evidence (the ink) is raised to, 0 (ignored) to 1
    ocr_temperature: float = 1.0  # < 1 sharpens the recogniser's probabilities before they are evidence
    # how unsure the recogniser's reads of a number on a joker are: a number read at p counts toward a joker
    # as p * (1 - p) ** joker_softness (0: as a read at p, as on a number tile)
    joker_softness: float = 0.0

    def __post_init__(self) -> None:
        for name in ("cls_temperature", "ocr_temperature"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        for name in ("rack_temperature", "number_temperature", "rack_number_temperature"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be positive, got {value}")
        for name in ("ocr_hit", "ocr_blank", "joker_blank", "disagree_at"):
            value = getattr(self, name)
            if not 0.0 < value < 1.0:
                raise ValueError(f"{name} must lie strictly between 0 and 1, got {value}")
        for name in ("six_nine", "ocr_six_nine", "rack_six_nine"):
            value = getattr(self, name)
            if name == "rack_six_nine" and value is None:
                continue
            if not 0.0 <= value <= 0.5:
                raise ValueError(f"{name} must lie between 0 and 0.5, got {value}")
        if not self.joker_softness >= 0:
            raise ValueError(f"joker_softness must be 0 or more, got {self.joker_softness}")
        if not 0.0 <= self.evidence_weight <= 1.0:
            raise ValueError(f"evidence_weight must lie between 0 and 1, got {self.evidence_weight}")
        if self.ocr_hit + self.ocr_blank >= 1.0:
            raise ValueError("ocr_hit + ocr_blank must leave some probability for misreads")

    def on_rack(self) -> "FusionParams":
        """These numbers for the tiles of a rack: the classifier's 6-or-9 share and temperatures are its rack ones."""
        six_nine = self.six_nine if self.rack_six_nine is None else self.rack_six_nine
        temperature = self.cls_temperature if self.rack_temperature is None else self.rack_temperature
        return dataclasses.replace(self, six_nine=six_nine, cls_temperature=temperature,
                                   number_temperature=self.rack_number_temperature)


def _rows_normalised(f: np.ndarray, fallback: np.ndarray | float) -> np.ndarray:
    """Each row of ``f`` divided by its sum; a row that sums to nothing is ``fallback`` there (its own row of it)."""
    s = f.sum(1, keepdims=True)
    return np.where(s > 0, f / np.where(s > 0, s, 1.0), fallback)


def _check(probs: np.ndarray, width: int, what: str) -> np.ndarray:
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 2 or p.shape[1] != width:
        raise ValueError(f"{what}: expected shape (tiles, {width}), got {p.shape}")
    if not np.all(np.isfinite(p)) or (p < 0).any():
        raise ValueError(f"{what}: probabilities must be finite and non-negative")
    return _rows_normalised(p, 1.0 / width)


def _from_log(logp: np.ndarray) -> np.ndarray:
    """Each row of log-probabilities (up to a constant) as probabilities summing to 1."""
    e = np.exp(logp - logp.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def _tempered(p: np.ndarray, temperature: float) -> np.ndarray:
    """Each row of probabilities raised to 1/temperature and renormalised (temperature scaling of log-probs)."""
    return _from_log(np.log(np.maximum(p, 1e-12)) / temperature)


def soften(probs: np.ndarray, temperature: float, number_temperature: float | None = None) -> np.ndarray:
    """The classifier's probabilities raised to 1/temperature and renormalised; with a ``number_temperature``, the
    number's share (summed over colours, ``number_marginal``) raised to 1/number_temperature and the colour's given
    its number (and a joker's kind) to 1/temperature: p(n, c) ~ p(n) ** (1 / Tn) * p(c | n) ** (1 / T). With both
    the same, the two agree."""
    p = _check(probs, N_CODES, "classifier")
    if number_temperature is None:
        return _tempered(p, temperature)
    number = number_marginal(p)[:, NUMBER_OF_CODE]
    return _from_log(np.log(np.maximum(number, 1e-12)) / number_temperature
                     + np.log(np.maximum(p / np.maximum(number, 1e-12), 1e-12)) / temperature)


_SIX, _NINE = (n - 1 for n in TURNED_PAIR)


def _sharpened(o: np.ndarray, temperature: float) -> np.ndarray:
    """The recogniser's answers raised to ``1 / temperature`` and renormalised, a 6 and a 9 keeping their split:
    the temperature says how sure it is of the number it reads, while which way up a 6 or a 9 stands is a
    guess of its own (``ocr_six_nine``, the neighbours' in ``vision.upright``) that sharpening would overstate."""
    sharp = _tempered(o, temperature)
    pair = o[:, _SIX] + o[:, _NINE]
    six_share = np.divide(o[:, _SIX], pair, out=np.full(len(o), 0.5), where=pair > 0)
    both = sharp[:, _SIX] + sharp[:, _NINE]
    sharp[:, _SIX], sharp[:, _NINE] = both * six_share, both * (1.0 - six_share)
    return sharp


def ocr_likelihood(ocr: np.ndarray, params: FusionParams) -> np.ndarray:
    """(N, 14): how likely the recogniser's answer is if the tile shows number 1..13, or is a joker (any)."""
    o = _check(ocr, N_NUMBERS + 1, "recogniser")
    if params.ocr_temperature != 1.0:
        o = _sharpened(o, params.ocr_temperature)
    numbers, blank = o[:, :NO_NUMBER], o[:, NO_NUMBER : NO_NUMBER + 1]
    miss = (1.0 - params.ocr_hit - params.ocr_blank) / (N_NUMBERS - 1)
    other = numbers.sum(1, keepdims=True) - numbers
    as_number = params.ocr_hit * numbers + miss * other + params.ocr_blank * blank
    soft = numbers * (1.0 - numbers) ** params.joker_softness  # at 0: the reads as they are
    as_joker = (1.0 - params.joker_blank) / N_NUMBERS * soft.sum(1, keepdims=True) + params.joker_blank * blank
    return np.concatenate([as_number, as_joker], axis=1)


def fuse(classifier: np.ndarray, ocr: np.ndarray | None, params: FusionParams = FusionParams(),
         evidence: np.ndarray | None = None) -> np.ndarray:
    """(N, classes) fused probabilities. Without a recogniser's answer or other evidence: the
    classifier, temperature-scaled. ``evidence``: (N, classes) likelihoods of one more opinion."""
    p = turn_over(soften(classifier, params.cls_temperature, params.number_temperature), params.six_nine, _TURNED)
    f = p
    if ocr is not None:
        like = ocr_likelihood(turn_over(_check(ocr, N_NUMBERS + 1, "recogniser"), params.ocr_six_nine, _TURNED_NUMBER), params)
        if like.shape[0] != p.shape[0]:
            raise ValueError(f"{p.shape[0]} tiles from the classifier but {like.shape[0]} from the recogniser")
        f = f * like[:, NUMBER_OF_CODE]
    if evidence is not None:
        e = np.asarray(evidence, dtype=np.float64)
        if e.shape != p.shape or not np.all(np.isfinite(e)) or (e < 0).any():
            raise ValueError(f"evidence: expected {p.shape} finite non-negative likelihoods, got {e.shape}")
        f = f * e ** params.evidence_weight
    if f is p:
        return p
    return _rows_normalised(f, p)


_TWIST_CODES = np.array([c in TWIST_CODES for c in CLASS_NAMES])


def without_twist(fused: np.ndarray) -> np.ndarray:
    """(N, classes) ``fused`` for the base game, whose set has no Twist joker (the engine reads one as a notation
    error): their share dropped and each row renormalised. The classifier names a Twist joker for a face that looks
    like one (an 11 drawn as two bars, a double joker's two faces); on a base set that says nothing of the other
    codes, which keep their odds (a row on nothing else: every base code alike)."""
    f = _check(fused, N_CODES, "fused")
    f[:, _TWIST_CODES] = 0.0
    return _rows_normalised(f, np.where(_TWIST_CODES, 0.0, 1.0 / (~_TWIST_CODES).sum()))


def number_marginal(classifier: np.ndarray) -> np.ndarray:
    """(N, 14): the classifier's probabilities summed over colours (the jokers, all kinds, last)."""
    p = _check(classifier, N_CODES, "classifier")
    out = np.zeros((p.shape[0], N_NUMBERS + 1))
    np.add.at(out.T, NUMBER_OF_CODE, p.T)
    return out


# the colours a code can have: the four inks, and the jokers, every kind counted as one "colour"
COLOURS = ("K", "R", "B", "O", "J")


def colour_of(code: str) -> str:
    """A code's colour in ``COLOURS``: its colour letter, or ``J`` for every joker."""
    return "J" if code.startswith("J") else code[:1]


def _colour_row(code: str) -> int:
    return COLOURS.index(colour_of(code))


COLOUR_OF_CODE = np.array([_colour_row(c) for c in CLASS_NAMES])


def colour_marginal(classifier: np.ndarray) -> np.ndarray:
    """(N, 5): the classifier's probabilities summed over numbers, per colour K R B O and the jokers."""
    p = _check(classifier, N_CODES, "classifier")
    out = np.zeros((p.shape[0], len(COLOURS)))
    np.add.at(out.T, COLOUR_OF_CODE, p.T)
    return out


def colour_disagreement(codes: list[str] | tuple[str, ...], classifier: np.ndarray) -> np.ndarray:
    """(N,) True where the chosen colour (or joker) is not the classifier's own likeliest one."""
    marg = colour_marginal(classifier)
    if marg.shape[0] != len(codes):
        raise ValueError(f"{len(codes)} codes but {marg.shape[0]} classifier rows")
    return marg.argmax(1) != np.array([_colour_row(c) for c in codes], dtype=int)


def disagreement(
    codes: list[str] | tuple[str, ...], classifier: np.ndarray, ocr: np.ndarray | None, params: FusionParams = FusionParams()
) -> np.ndarray:
    """(N,) True where the two readers disagree about the number of the chosen ``codes``.

    The recogniser disagrees when it reads another number with at least ``disagree_at`` (on a
    joker: any number; on a number: no number). The classifier disagrees when its own likeliest
    number (or joker) is not the chosen one.
    """
    chosen = np.array([number_column(c) for c in codes], dtype=int)
    marg = number_marginal(classifier)
    if marg.shape[0] != len(chosen):
        raise ValueError(f"{len(chosen)} codes but {marg.shape[0]} classifier rows")
    out = marg.argmax(1) != chosen
    if ocr is not None:
        o = _check(ocr, N_NUMBERS + 1, "recogniser")
        top = o[:, :NO_NUMBER].argmax(1)
        sure = o[np.arange(len(top)), top] >= params.disagree_at
        out |= sure & (top != chosen)
        out |= (chosen != NO_NUMBER) & (o[:, NO_NUMBER] >= params.disagree_at)
    return out


# The classifier reads a tile alike at every angle, and tells a 6 from a 9 only by the marks an edition prints below
# the number; on an edition with none it can be sure of the wrong end. The recogniser reads the number the way it
# stands (and as its neighbours lie): a 6 or a 9 it does not read that way up by this share of its 6 and 9 at least
# is no surer of its way up than a coin's toss, however sure the classifier is.
WAY_SHARE = 0.6


def way_unconfirmed(codes: list[str] | tuple[str, ...], ocr: np.ndarray | None, share: float = WAY_SHARE) -> np.ndarray:
    """(N,) True where a tile read as a 6 or a 9 (``codes``) is read that way up by the recogniser (``ocr``, (N, 14)
    over 1..13 and no number) by less than ``share`` of what it reads as a 6 or a 9 together. All False without
    the recogniser."""
    chosen = np.array([number_column(c) for c in codes], dtype=int)
    if ocr is None:
        return np.zeros(len(chosen), dtype=bool)
    o = _check(ocr, N_NUMBERS + 1, "recogniser")
    if o.shape[0] != len(chosen):
        raise ValueError(f"{len(chosen)} codes but {o.shape[0]} recogniser rows")
    turned = _TURNED_NUMBER[chosen]  # a number that reads alike turned over, and no number, is its own turn
    rows = np.arange(len(chosen))
    mine, other = o[rows, chosen], o[rows, turned]
    return (turned != chosen) & ((mine < share * (mine + other)) | (mine + other == 0.0))
