"""Rule-aware reading: use what the game guarantees to settle doubtful tile reads.

The model gives each tile a probability over the reader's classes (``vision.yolo_format.CLASS_NAMES``
order: the 53 base-game faces and the Twist jokers). Read alone, a blurred O7 may look a little more
like K7. But a full set has only two copies of a face, two jokers and one of each Twist joker, and a
meld laid out on the table is almost always valid. So among each
tile's top candidates (top 3, plus anything above ``min_p``) we choose the reading of the whole
photo that maximises

    sum over tiles of log p(tile reads as code)
    + for each meld: log(valid_prior) if the engine says it is valid and its tiles run in the order laid
      (``laid_in_order``), log(valid_prior x shuffled_prior) if it is valid only as a set, else
      log(1 - valid_prior)

with at most two copies of a face, two jokers and one of each Twist joker (a hard rule in a real set, enforced here with a
large penalty ``excess_penalty`` per extra copy, so that a photo that truly shows a third copy,
such as one tile detected twice, is still read and reported instead of forced into nonsense).

Per meld, the candidate combinations are enumerated with a beam (prefixes that can no longer
become a valid meld are scored as invalid at once, and those no longer in order as shuffled, so valid
readings in order are never crowded out);
across melds, the copy limits are met by a small integer program (``scipy.optimize.milp``) when
the best reading of each meld alone breaks them.

Each tile's confidence is its posterior-ish probability: over its meld's kept combinations,
weighted by model probability x validity prior (the combinations not kept count as invalid), with
the other melds held at their chosen reading. A 6 or a 9 in a meld that is as valid turned over (a
group of 6s is a group of 9s upside down) is no surer than it is alone: which way up one tile lies is
which way up its meld-mates lie, so their readings are not independent evidence, and multiplying them
would make a whole group surely wrong together. For the same reason a group's number is one fact read
several times, not several facts: its tiles share the edition's font, the light and the blur, and are misread
alike (a group of 7s read as a group of 1s, each tile a little unsure), so a tile of a group is no surer of its
number than the group's surest tile reads it alone (``group_witness``). Runs are laid in order, so a run whose
6 turned over would no longer run in order as laid (``R6 R7 R8`` as ``R9 R7 R8``) does show the way up: the
reading that runs in order is chosen, and a 6 or a 9 in a meld that would run in order only turned over is
doubtful. A tile is ``doubtful`` when that confidence is low, when the top two readings are close, when the
rules changed the model's own first choice, or when its face is read more often than a set has it: doubts are
flagged, never settled silently.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

import numpy as np
# imported with the reader, not on the first photo whose melds break the copy limits: that photo would wait
# half a second for it (the app's warm-up photo never needs it)
from scipy.optimize import Bounds, LinearConstraint, milp

from engine.rules import DEFAULT_RULES, HouseRules
from engine.sets import MAX_GROUP, MAX_RUN, MIN_SET, analyse_set
from engine.tiles import COPIES_PER_TILE, JOKERS_IN_SET, SPECIALS_IN_SET, TWIST_CODES, Tile, parse_tile
from vision.fusion import number_marginal
from vision.upright import reads_turned, turned_code
from vision.yolo_format import CLASS_NAMES

_CODE_INDEX = {code: i for i, code in enumerate(CLASS_NAMES)}
_TILE = {code: parse_tile(code, twist=True) for code in CLASS_NAMES}
_TWIST = frozenset(TWIST_CODES)
_FACE = {code: (t.number, t.colour) for code, t in _TILE.items() if code != "J" and code not in _TWIST}  # (number, colour)
_LOG_FLOOR = 1e-9


@dataclass
class TileChoice:
    """The reading chosen for one tile."""

    code: str
    confidence: float  # posterior-ish probability of ``code``
    alternatives: list[tuple[str, float]] = field(default_factory=list)  # next best, p descending
    doubtful: bool = False
    model_code: str = ""  # the model's own first choice
    model_p: float = 0.0
    changed: bool = False  # the rules chose another code than the model's first choice


@dataclass
class ConsistentReading:
    tiles: list[TileChoice]
    warnings: list[str]

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]


VALID_PRIOR = 0.97  # how often a meld laid out on the table is valid
# how much rarer a valid meld handed over out of the order a run is laid in (a layout that mixed up its tiles)
# is than one in order: a reading that runs in order as laid beats one that is a run only as a set (``R9 R7 R8``
# for ``R6 R7 R8``), and still beats a reading that is no meld at all
SHUFFLED_PRIOR = 0.05
TOP_K = 3  # each tile's candidates: its top readings ...
MIN_P = 0.02  # ... and any other this likely ...
MAX_CANDIDATES = 8  # ... up to this many
BEAM = 64  # a meld's readings kept while they are enumerated tile by tile
KEEP = 32  # a meld's readings kept in the end
# readings kept when only asking whether tiles can be one meld (``likeliest_meld``, asked of many parts of a row by
# vision.regroup): prefixes that can still be valid lead the beam, so a narrow one still finds a valid reading
ASK_BEAM = 16


def read_consistently(
    probs: np.ndarray | Sequence[np.ndarray],
    melds: Sequence[Sequence[int]] | None = None,
    known: Iterable[str | Tile] = (),
    rules: HouseRules = DEFAULT_RULES,
    *,
    valid_prior: float = VALID_PRIOR,
    shuffled_prior: float = SHUFFLED_PRIOR,
    top_k: int = TOP_K,
    min_p: float = MIN_P,
    max_candidates: int = MAX_CANDIDATES,
    beam: int = BEAM,
    keep: int = KEEP,
    excess_penalty: float = 6.0,
    doubt_below: float = 0.6,
    close_margin: float = 0.2,
) -> ConsistentReading:
    """Choose the most probable reading of all tiles that the game's rules allow.

    probs:  one probability vector per tile, ``CLASS_NAMES`` order.
    melds:  tile indices of each meld as laid out (from ``vision.layout``); tiles in no meld, or
            in a "meld" of one or two tiles, are read on their own. ``None`` for a rack.
    known:  tiles known to be elsewhere (for the copy limits), e.g. the table when reading a rack.
    """
    P = _as_matrix(probs)
    n = P.shape[0]
    if n == 0:
        return ConsistentReading(tiles=[], warnings=[])
    melds = [list(m) for m in (melds or [])]
    _check_melds(melds, n)
    priors = _priors(valid_prior, shuffled_prior)
    cands = [_candidates(P[i], top_k, min_p, max_candidates) for i in range(n)]

    # units: melds of 3+ tiles carry the validity prior; every other tile stands alone
    in_meld: dict[int, int] = {}
    units: list[_Unit] = []
    for m_index, meld in enumerate(melds):
        if len(meld) >= MIN_SET:
            for t in meld:
                in_meld[t] = len(units)
            units.append(_meld_unit(meld, m_index, P, cands, rules, priors, beam, keep))
    for t in range(n):
        if t not in in_meld:
            in_meld[t] = len(units)
            units.append(_lone_unit(t, P, cands))

    known_counts = Counter(_code_of(k) for k in known)
    chosen = _select(units, known_counts, excess_penalty)

    codes: list[str] = [""] * n
    for u, unit in enumerate(units):
        for t, code in zip(unit.tiles, unit.combos[chosen[u]].codes):
            codes[t] = code

    totals = Counter(codes) + known_counts
    over = {c for c, k in totals.items() if k > copy_limit(c)}
    choices: list[TileChoice | None] = [None] * n
    for u, unit in enumerate(units):
        others = totals - Counter(unit.combos[chosen[u]].codes)  # every other unit's chosen codes, and the known
        marginals = unit.marginals(others, excess_penalty)
        unit_codes = [codes[t] for t in unit.tiles]
        unsettled = unit.meld is None or not rules_settle_turn(unit_codes, rules)
        misturned = unit.meld is not None and turned_lies_better(unit_codes, rules)
        witness = group_witness(P[unit.tiles], unit_codes) if unit.meld is not None else None
        for pos, t in enumerate(unit.tiles):
            dist = marginals[pos]
            code = codes[t]
            conf = float(dist.get(code, 0.0))
            if unsettled and reads_turned(code):  # the tile's own odds of being turned over, not its meld's
                dist = dict(dist)
                turned = turned_code(code)
                conf = min(conf, float(P[t, _CODE_INDEX[code]]))
                dist[turned] = max(dist.get(turned, 0.0), float(P[t, _CODE_INDEX[turned]]))
            if witness is not None and code in _FACE:  # the group's number, as surely as its surest tile reads it
                conf = min(conf, witness)
            alts = sorted(((c, p) for c, p in dist.items() if c != code and p >= 0.01), key=lambda cp: -cp[1])[:3]
            model_i = int(np.argmax(P[t]))
            model_code = CLASS_NAMES[model_i]
            changed = model_code != code
            best_alt = alts[0][1] if alts else 0.0
            doubtful = (conf < doubt_below or changed or (conf - best_alt) < close_margin or code in over
                        or (misturned and reads_turned(code)))
            choices[t] = TileChoice(
                code=code,
                confidence=conf,
                alternatives=[(c, float(p)) for c, p in alts],
                doubtful=doubtful,
                model_code=model_code,
                model_p=float(P[t, model_i]),
                changed=changed,
            )
    tiles = [c for c in choices if c is not None]
    warnings = copy_warnings(codes, known_counts)
    warnings += _changed_warnings(tiles, codes, melds, in_meld, units, known_counts, rules)
    return ConsistentReading(tiles=tiles, warnings=warnings)


def read_again(first: ConsistentReading, again: ConsistentReading, tiles: Iterable[int],
               known: Iterable[str | Tile] = ()) -> ConsistentReading:
    """``first`` with the choices of ``tiles`` (indices) taken from ``again``, a reading of the same tiles in which
    only their evidence changed; every other tile keeps its choice. What is learnt of some tiles changes no other tile:
    read jointly, a copy limit would push a tile nothing new was learnt of onto another face. A face then read more
    often than a set has it is doubtful on each of its tiles, and the copy warnings are counted again on the codes kept;
    the other warnings of a tile read again are dropped with its old choice."""
    which = sorted(set(int(t) for t in tiles))
    if len(again.tiles) != len(first.tiles) or any(not 0 <= t < len(first.tiles) for t in which):
        raise ValueError(f"a reading of {len(again.tiles)} tiles cannot stand in for {which} of one of {len(first.tiles)}")
    known = list(known)
    chosen = [again.tiles[t] if t in which else choice for t, choice in enumerate(first.tiles)]
    # a face read more often than a set has it is doubtful on every tile read so, as in a joint reading
    totals = Counter(c.code for c in chosen) + Counter(_code_of(k) for k in known)
    chosen = [dataclasses.replace(c, doubtful=True) if totals[c.code] > copy_limit(c.code) else c for c in chosen]
    stale = set(copy_warnings(first.codes, known))
    mine = tuple(_about_tile(t) for t in which)
    kept = [w for w in first.warnings if w not in stale and not w.startswith(mine)]
    return ConsistentReading(tiles=chosen, warnings=copy_warnings([c.code for c in chosen], known) + kept)


def _about_tile(t: int) -> str:
    """How a warning about tile ``t`` (0-based) begins: ``read_again`` drops a re-read tile's warnings by it."""
    return f"tile {t + 1}:"


def likeliest_meld(probs: np.ndarray | Sequence[np.ndarray], rules: HouseRules = DEFAULT_RULES) -> tuple[tuple[str, ...], bool]:
    """The likeliest reading of these tiles laid as one meld (in their order, with ``read_consistently``'s
    candidates and validity prior), and whether it is a valid meld: can they be one meld, as far as the readers
    can tell? A misread tile whose true face is among its candidates does not stop it."""
    P = _as_matrix(probs)
    if P.shape[0] < MIN_SET:
        raise ValueError(f"a meld has {MIN_SET} tiles or more, got {P.shape[0]}")
    cands = [_candidates(P[i], TOP_K, MIN_P, MAX_CANDIDATES) for i in range(P.shape[0])]
    unit = _meld_unit(list(range(P.shape[0])), 0, P, cands, rules, _DEFAULT_PRIORS, ASK_BEAM, ASK_BEAM)
    best = unit.combos[0]
    return best.codes, bool(best.valid)


def rules_settle_turn(codes: Sequence[str], rules: HouseRules = DEFAULT_RULES) -> bool:
    """Whether the rules show which way up a meld's 6s and 9s lie (``codes`` in the order laid): the meld is
    valid and laid in order as read, and not with every 6 and 9 turned over. ``R4 R5 R6`` and ``R6 R7 R8``
    settle it (turned over, ``R9 R7 R8`` is no run as laid); a group of 6s does not (it is a group of 9s
    upside down). Where the meld as read is not laid in order (a layout that mixed up its tiles), its order
    says nothing, and only a meld that is none at all turned over settles it."""
    turned = [turned_code(c) for c in codes]
    if turned == list(codes) or not _valid(tuple(codes), rules):
        return False
    if not _valid(tuple(turned), rules):
        return True
    return laid_in_order(codes, rules) and not laid_in_order(turned, rules)


def turned_lies_better(codes: Sequence[str], rules: HouseRules = DEFAULT_RULES) -> bool:
    """Whether a meld (``codes`` in the order laid) is no run in order as read, but is one with its 6s and 9s
    turned over (``K3 K4 K5 K9 K7 K8 K6``): its 6s and 9s are probably read the wrong way up."""
    turned = [turned_code(c) for c in codes]
    return (turned != list(codes) and not laid_in_order(codes, rules) and laid_in_order(turned, rules)
            and _valid(tuple(turned), rules))


def group_witness(probs: np.ndarray | Sequence[np.ndarray], codes: Sequence[str]) -> float | None:
    """How surely a meld read as a group (``codes``: two numbered tiles or more, all of one number, and jokers)
    shows its number: the likeliest that any one of its numbered tiles reads that number alone (``probs``, the
    tiles' own, ``CLASS_NAMES`` order, every colour counted). None where the reading is no such group.

    The tiles of a group are no independent witnesses of its number: one clear tile settles it for all, but
    three blurred ones that each lean to a 1 do not make a sure group of 1s."""
    numbers = {_FACE[c][0] for c in codes if c in _FACE}
    if len(numbers) != 1 or sum(c in _FACE for c in codes) < 2:
        return None
    own = number_marginal(_as_matrix(probs))[:, numbers.pop() - 1]  # number n in column n - 1
    return float(max(own[k] for k, c in enumerate(codes) if c in _FACE))


def laid_in_order(codes: Sequence[str], rules: HouseRules = DEFAULT_RULES) -> bool:
    """Whether tiles read in the order laid show the numbers a meld laid that way would: one number (a
    group, in any order), or numbers that climb or fall by one a tile (a run, jokers in their places).
    A Twist joker stands for other than one tile, and says nothing of the order: True."""
    if any(c in TWIST_CODES for c in codes):
        return True
    placed = [(i, _TILE[c].number) for i, c in enumerate(codes) if c != "J"]
    if len({n for _, n in placed}) <= 1:
        return True
    wrap = MAX_RUN if rules.wrap_around else 10**6  # with wrap-around, 13 is followed by 1
    return any(len({(n - step * i) % wrap for i, n in placed}) == 1 for step in (1, -1))


# --------------------------------------------------------------------------- shared messages


def copy_limit(code: str) -> int:
    """How many tiles of ``code`` a full set has (a Twist box: one of each special joker)."""
    return JOKERS_IN_SET if code == "J" else SPECIALS_IN_SET if code in TWIST_CODES else COPIES_PER_TILE


def copy_warnings(codes: Sequence[str], known: Mapping[str, int] | Iterable[str] = ()) -> list[str]:
    """One message per face read more often than a full set has it (tile numbers 1-based)."""
    known_counts = known if isinstance(known, Mapping) else Counter(_code_of(k) for k in known)
    counts = Counter(codes)
    out: list[str] = []
    for code in sorted(set(counts) | set(known_counts), key=_sort_key):
        here, elsewhere = counts.get(code, 0), known_counts.get(code, 0)
        limit = copy_limit(code)
        if here + elsewhere <= limit or here == 0:
            continue
        numbers = [str(i + 1) for i, c in enumerate(codes) if c == code]
        where = ("tile " if len(numbers) == 1 else "tiles ") + ", ".join(numbers)
        times = "once" if here == 1 else "twice" if here == 2 else f"{here} times"
        what = f"{here} joker{'s' if here > 1 else ''}" if code == "J" else f"{code} appears {times}"
        also = f" (and {elsewhere} more elsewhere)" if elsewhere else ""
        limit_text = f"a set has only {limit} jokers" if code == "J" else f"a set has only {limit}"
        out.append(f"{what} in the photo{also}; {limit_text} - check {where}")
    return out


def meld_warnings(meld_codes: Sequence[Sequence[str]], rules: HouseRules = DEFAULT_RULES) -> list[str]:
    """One message per meld the engine rejects (melds numbered from 1)."""
    out: list[str] = []
    for k, codes in enumerate(meld_codes):
        check = analyse_set([_TILE[c] for c in codes], rules)
        if not check.valid:
            out.append(f"meld {k + 1} ({' '.join(codes)}) is not valid: {check.reason}")
    return out


# --------------------------------------------------------------------------- internals


@dataclass
class _Combo:
    codes: tuple[str, ...]
    logp: float  # sum of the tiles' log-probabilities
    score: float  # logp + validity prior
    valid: bool | None  # None: no prior (a lone tile)


@dataclass
class _Unit:
    tiles: list[int]
    combos: list[_Combo]  # best first
    kept_mass: float  # model probability mass of the kept combinations
    log_rest: float  # log weight of the combinations not kept (assumed invalid)
    meld: int | None = None

    def marginals(self, others: Counter[str], penalty: float) -> list[dict[str, float]]:
        """Per tile position, code -> probability over this unit's combinations (others fixed)."""
        weights = []
        for combo in self.combos:
            # the copies over the limit this combination adds: only its own codes' counts change
            extra = sum(_over(c, others[c] + k) - _over(c, others[c]) for c, k in Counter(combo.codes).items())
            weights.append(combo.score - penalty * extra)
        w = np.asarray(weights)
        top = float(w.max())
        ew = np.exp(w - top)
        rest = math.exp(self.log_rest - top) if self.log_rest > -math.inf else 0.0
        z = float(ew.sum()) + rest
        out: list[dict[str, float]] = [dict() for _ in self.tiles]
        for combo, weight in zip(self.combos, ew):
            p = float(weight) / z
            for pos, code in enumerate(combo.codes):
                out[pos][code] = out[pos].get(code, 0.0) + p
        return out


def _as_matrix(probs: np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
    P = np.asarray(probs, dtype=np.float64)
    if P.size == 0:
        return P.reshape(0, len(CLASS_NAMES))
    if P.ndim != 2 or P.shape[1] != len(CLASS_NAMES):
        raise ValueError(f"expected one probability vector of {len(CLASS_NAMES)} per tile, got shape {P.shape}")
    P = np.clip(np.nan_to_num(P, nan=0.0), 0.0, None)
    sums = P.sum(axis=1, keepdims=True)
    sums[sums <= 0] = 1.0
    return P / sums


def _check_melds(melds: list[list[int]], n: int) -> None:
    seen: set[int] = set()
    for k, meld in enumerate(melds):
        for t in meld:
            if not 0 <= t < n:
                raise ValueError(f"meld {k + 1} names tile {t}, but there are only {n} tiles")
            if t in seen:
                raise ValueError(f"tile {t} is in two melds")
            seen.add(t)


def _candidates(p: np.ndarray, top_k: int, min_p: float, cap: int) -> list[tuple[str, float]]:
    order = np.argsort(-p, kind="stable")
    picked = [int(i) for i in order[:top_k]]
    picked += [int(i) for i in order[top_k:cap] if p[i] > min_p]
    return [(CLASS_NAMES[i], math.log(max(float(p[i]), _LOG_FLOOR))) for i in picked]


def _lone_unit(t: int, P: np.ndarray, cands: list[list[tuple[str, float]]]) -> _Unit:
    combos = [_Combo(codes=(c,), logp=lp, score=lp, valid=None) for c, lp in cands[t]]
    mass = float(sum(math.exp(c.logp) for c in combos))
    rest = 1.0 - mass
    return _Unit(tiles=[t], combos=combos, kept_mass=mass, log_rest=math.log(rest) if rest > 1e-12 else -math.inf)


@dataclass(frozen=True)
class _Priors:
    """Log priors of a meld as read: valid and laid in order, valid only as a set (out of order), no meld."""

    in_order: float
    shuffled: float
    invalid: float

    def of(self, codes: Sequence[str], valid: bool, rules: HouseRules) -> float:
        if not valid:
            return self.invalid
        return self.in_order if _in_order(tuple(codes), rules) else self.shuffled


def _priors(valid_prior: float, shuffled_prior: float) -> _Priors:
    if not (0.0 < valid_prior < 1.0 and 0.0 < shuffled_prior < 1.0):
        raise ValueError(f"the priors must lie strictly between 0 and 1, got {valid_prior} and {shuffled_prior}")
    log_valid = math.log(valid_prior)
    return _Priors(log_valid, log_valid + math.log(shuffled_prior), math.log1p(-valid_prior))


_DEFAULT_PRIORS = _priors(VALID_PRIOR, SHUFFLED_PRIOR)  # asked of many parts of a row (``likeliest_meld``)


def _meld_unit(
    meld: list[int],
    m_index: int,
    P: np.ndarray,
    cands: list[list[tuple[str, float]]],
    rules: HouseRules,
    priors: _Priors,
    beam: int,
    keep: int,
) -> _Unit:
    size = len(meld)
    # beam over prefixes; a prefix that can no longer become valid pays the invalid prior now, and one that can
    # no longer run in order as laid the shuffled prior
    states: list[tuple[float, float, tuple[str, ...]]] = [(0.0, 0.0, ())]
    for t in meld:
        grown = []
        for _, logp, codes in states:
            for code, lp in cands[t]:
                new = codes + (code,)
                prior = priors.of(new, _could_be_valid(new, size, rules), rules)
                grown.append((logp + lp + prior, logp + lp, new))
        grown.sort(key=lambda s: -s[0])
        states = grown[:beam]
    combos = []
    for _, logp, codes in states:
        valid = _could_be_valid(codes, size, rules) and _valid(codes, rules)  # the first, cheap, rules out most
        combos.append(_Combo(codes=codes, logp=logp, score=logp + priors.of(codes, valid, rules), valid=valid))
    combos.sort(key=lambda c: -c.score)
    combos = combos[:keep]
    mass = float(sum(math.exp(c.logp) for c in combos))
    rest = max(0.0, 1.0 - mass)
    log_rest = math.log(rest) + priors.invalid if rest > 1e-12 else -math.inf
    return _Unit(tiles=list(meld), combos=combos, kept_mass=mass, log_rest=log_rest, meld=m_index)


# The beam over a meld's readings asks the same few questions of the same prefixes again and again (every part of a
# row is read as a meld by vision.regroup, and a photo read twice asks them twice): the answers are kept.
_ASKED = 1 << 16


@functools.lru_cache(maxsize=_ASKED)
def _valid(codes: tuple[str, ...], rules: HouseRules) -> bool:
    """Whether these tiles, in this order, are a valid meld (``engine.sets.analyse_set``)."""
    return analyse_set([_TILE[c] for c in codes], rules).valid


@functools.lru_cache(maxsize=_ASKED)
def _in_order(codes: tuple[str, ...], rules: HouseRules) -> bool:
    return laid_in_order(codes, rules)


@functools.lru_cache(maxsize=_ASKED)
def _could_be_valid(codes: tuple[str, ...], size: int, rules: HouseRules) -> bool:
    """Can a meld of ``size`` tiles starting with these (in any order) still be valid?"""
    if not _TWIST.isdisjoint(codes):  # a Twist joker: valid only with the rule; the engine decides the rest
        return rules.twist
    faces = [_FACE[c] for c in codes if c != "J"]
    if len(codes) - len(faces) > JOKERS_IN_SET:
        return False
    if not faces:
        return True
    numbers = {n for n, _ in faces}
    colours = {c for _, c in faces}
    if size <= MAX_GROUP and len(numbers) == 1 and len(colours) == len(faces):
        return True
    if size > MAX_RUN or len(colours) != 1 or len(numbers) != len(faces):
        return False
    present = sorted(numbers)
    if not rules.wrap_around:
        return present[-1] - present[0] <= size - 1
    # shortest cyclic stretch holding all the numbers
    gaps = [(present[(k + 1) % len(present)] - present[k]) % MAX_RUN for k in range(len(present))]
    span = MAX_RUN - max(gaps) if len(present) > 1 else 0
    return span <= size - 1


def _select(units: list[_Unit], known: Counter[str], penalty: float) -> list[int]:
    """Index of the chosen combination of each unit: best score under the copy limits."""
    chosen = [0] * len(units)
    total = Counter(known)
    for unit in units:
        total.update(unit.combos[0].codes)
    if _excess(total) == _excess(known):  # the best reading of each unit already fits
        return chosen
    return _select_milp(units, known, penalty)


def _select_milp(units: list[_Unit], known: Counter[str], penalty: float) -> list[int]:
    offsets, scores, var_codes = [], [], []
    for unit in units:
        offsets.append(len(scores))
        for combo in unit.combos:
            scores.append(combo.score)
            var_codes.append(Counter(combo.codes))
    n_x = len(scores)
    codes = sorted({c for cc in var_codes for c in cc})
    n_e = len(codes)
    row_of = {code: k for k, code in enumerate(codes)}
    cost = np.concatenate([-np.asarray(scores), np.full(n_e, penalty)])
    # one combination per unit: a row per unit
    one = np.zeros((len(units), n_x + n_e))
    for u, unit in enumerate(units):
        one[u, offsets[u] : offsets[u] + len(unit.combos)] = 1.0
    # copies - excess <= limit - known: a row per code
    copies = np.zeros((n_e, n_x + n_e))
    for j, cc in enumerate(var_codes):
        for code, k in cc.items():
            copies[row_of[code], j] = k
    copies[np.arange(n_e), n_x + np.arange(n_e)] = -1.0
    limits = np.array([copy_limit(code) - known.get(code, 0) for code in codes], dtype=np.float64)
    res = milp(
        c=cost,
        constraints=LinearConstraint(np.vstack([one, copies]), np.concatenate([np.ones(len(units)), np.full(n_e, -np.inf)]),
                                     np.concatenate([np.ones(len(units)), limits])),
        integrality=np.ones(n_x + n_e),
        bounds=Bounds(np.zeros(n_x + n_e), np.concatenate([np.ones(n_x), np.full(n_e, np.inf)])),
        options={"time_limit": 5.0},
    )
    if res.x is None:  # pragma: no cover - the program is always feasible (excess is free)
        return [0] * len(units)
    x = res.x[:n_x]
    return [int(np.argmax(x[offsets[u] : offsets[u] + len(unit.combos)])) for u, unit in enumerate(units)]


def _over(code: str, n: int) -> int:
    """The copies of ``code`` over its limit among ``n``."""
    return max(0, n - copy_limit(code))


def _excess(counts: Mapping[str, int]) -> int:
    return sum(_over(c, n) for c, n in counts.items())


def _changed_warnings(
    tiles: list[TileChoice],
    codes: list[str],
    melds: list[list[int]],
    in_meld: dict[int, int],
    units: list[_Unit],
    known: Counter[str],
    rules: HouseRules,
) -> list[str]:
    out: list[str] = []
    counts = Counter(codes) + known
    for t, choice in enumerate(tiles):
        if not choice.changed:
            continue
        looked = f"it looked more like {choice.model_code} ({choice.model_p:.0%})"
        unit = units[in_meld[t]]
        why = ""
        limit = copy_limit(choice.model_code)
        if unit.meld is not None:
            meld = melds[unit.meld]
            now = [_TILE[codes[k]] for k in meld]
            swapped = [_TILE[choice.model_code] if k == t else _TILE[codes[k]] for k in meld]
            if analyse_set(now, rules).valid and not analyse_set(swapped, rules).valid:
                why = f"so that meld {unit.meld + 1} is valid"
        if not why and counts.get(choice.model_code, 0) >= limit:
            what = "jokers" if choice.model_code == "J" else f"{choice.model_code}s" if limit > 1 else choice.model_code
            held = "them" if limit > 1 else "it"
            why = f"because a set has only {limit} {what} and the photo has {held} elsewhere"
        if not why:
            why = "to fit the other tiles"
        out.append(f"{_about_tile(t)} read as {choice.code} {why}; {looked} - check it")
    return out


def _code_of(tile: str | Tile) -> str:
    return tile.code if isinstance(tile, Tile) else parse_tile(tile, twist=True).code


def _sort_key(code: str) -> int:
    return _CODE_INDEX.get(code, len(CLASS_NAMES))
