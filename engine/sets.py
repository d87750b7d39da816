"""Is this a valid set? Which tile does each joker stand for? Why not?

A **group** is 3 or 4 tiles of one number in different colours (``K7 R7 B7``).
A **run** is 3 or more consecutive numbers in one colour (``R10 R11 R12``), at most 13 long;
1 is always low and 13 always high, so ``O12 O13 O1`` is not a run unless the
``wrap_around`` house rule is on (then ``O12 O13 O1 O2`` is one, still at most 13 tiles).
Jokers stand in for any tile. A full set has two jokers, so a set with three is reported invalid.

Validity never depends on the order the tiles are written in (a photo may read them in any
order: ``R12 R10 R11`` is a valid run). Where a joker's meaning is ambiguous, every valid
reading is reported and one is *chosen*, by these rules in turn:

1. the reading that best fits the written order: fewest pairs of tiles written in the opposite
   order to their place in the run (a group has no order, so a group reading always fits);
   ``O5 J J`` is O5 O6 O7 while ``J J O5`` is O3 O4 O5, ``K7 K8 J`` makes the joker K9;
2. a reading that does not wrap through 13-1 before one that does (a permissive house rule adds
   readings, it never replaces one the rulebook gives: ``K13 J J`` stays a group with wrap-around);
3. a run before a group (``J J K5`` reads K3 K4 K5; ``J J K1`` is a group since the run K1 K2 K3
   would have to be written backwards);
4. the higher value (``K7 J K8`` fits K6 and K9 equally badly: the joker is K9);
5. colour order K, R, B, O and lower numbers for the jokers (``K5 R5 J``: the joker is B5).

Two jokers in one reading are matched to the tiles they stand for in written order: the first
joker written takes the lower number of the run (or the earlier colour, K R B O, of the group).
``SetCheck.jokers`` lists, for each joker's written position, every tile it stands for across
all readings, the chosen reading's tile first.

**What a set counts toward the initial meld** (``SetCheck.meld_value``): the rules count a joker as
the tile it stands for, and where a set has several valid readings the player may claim the one
worth most, unless the written order leaves only one. So the meld counts the reading worth most
among those that fit the written order best; and since a house rule that allows more must never
make a legal opening fail, the readings that fit best under the rulebook alone (no 13-1 wrap)
are candidates too. ``J J O5`` reads O3 O4 O5 but counts 15 (the group of 5s fits as well);
``J K7 K8`` counts 21 (only K6 fits); ``K12 K13 J J`` counts 46 (K10-K13) with wrap-around too,
where K12 K13 K1 K2 fits the written order better.

``analyse_set`` is memoised (the solver and the photo reader call it a lot): the ``SetCheck`` it
returns is shared, so treat it, its ``jokers`` dict included, as read-only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Literal, Sequence

from engine.reasons import Reason, render
from engine.rules import DEFAULT_RULES, HouseRules
from engine.tiles import COLOURS, JOKERS_IN_SET, NUMBERS, SPECIALS_IN_SET, Tile, face, format_tiles

__all__ = [
    "Interpretation",
    "SetCheck",
    "analyse_set",
    "interpretations",
    "is_valid_set",
    "meld_reading",
    "set_value",
    "MAX_GROUP",
    "MAX_RUN",
    "MIN_SET",
]

Kind = Literal["run", "group", "mirror"]  # "mirror": a Rummikub Twist mirror set

MIN_SET = 3
MAX_GROUP = len(COLOURS)  # 4
MAX_RUN = len(NUMBERS)  # 13


@dataclass(frozen=True)
class Interpretation:
    """One valid reading of a set.

    kind:        "run" or "group"
    resolved:    the tiles in play order (a run low to high; a group as written) with each
                 joker replaced by the tile it stands for
    joker_tiles: for each joker, (its written position, the tile it stands for)
    inversions:  pairs of tiles written in the opposite order to the play order (0 for a group)
    wraps:       the run goes through 13-1
    value:       sum of the numbers, jokers counted as the tile they stand for
    """

    kind: Kind
    resolved: tuple[Tile, ...]
    joker_tiles: tuple[tuple[int, Tile], ...]
    inversions: int
    wraps: bool
    value: int

    @property
    def rank(self) -> tuple:
        """Sort key: the chosen reading sorts first (see the module docstring)."""
        jokers = tuple((COLOURS.index(t.colour), t.number) for _, t in self.joker_tiles)
        return (self.inversions, self.wraps, 0 if self.kind == "run" else 1, -self.value, jokers)


@dataclass(frozen=True)
class SetCheck:
    """The verdict on one set, with the explanation.

    valid, kind ("run"/"group"/None), value (0 if invalid), reason (why invalid, else None),
    tiles (as written), resolved (chosen reading, jokers replaced), jokers (joker written
    position -> every tile it can stand for, chosen first), interpretations (all readings as
    resolved tuples, chosen first), kinds (the kind of each reading), best (how many leading
    readings fit the written order as well as the chosen one; 0 if invalid), meld_value (what
    the set counts toward the initial meld: see the module docstring) and meld_reading (the
    reading that value comes from, jokers replaced), why (``reason`` as a stable code and params,
    ``engine.reasons``; ``reason == render(why)``), stands (joker written position -> what it stands for in each
    reading, chosen first: one tile for a joker, two for a Twist double joker, the tile of the
    part before it for a colour-change joker; the mirror joker stands for nothing and is in
    neither ``jokers`` nor ``stands``).
    """

    valid: bool
    kind: Kind | None
    value: int
    reason: str | None
    tiles: tuple[Tile, ...]
    resolved: tuple[Tile, ...] = ()
    jokers: dict[int, tuple[Tile, ...]] = field(default_factory=dict, hash=False)
    interpretations: tuple[tuple[Tile, ...], ...] = ()
    kinds: tuple[Kind, ...] = ()
    best: int = 0
    meld_value: int = 0
    meld_reading: tuple[Tile, ...] = ()
    why: Reason | None = None
    stands: dict[int, tuple[tuple[Tile, ...], ...]] = field(default_factory=dict, hash=False)

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]


# --------------------------------------------------------------------------- readings


def _inversions(order: Sequence[int]) -> int:
    return sum(1 for i in range(len(order)) for j in range(i + 1, len(order)) if order[i] > order[j])


def _run_numbers(start: int, length: int) -> list[int]:
    return [(start - 1 + k) % MAX_RUN + 1 for k in range(length)]


def _run_readings(tiles: tuple[Tile, ...], rules: HouseRules) -> list[Interpretation]:
    n = len(tiles)
    faces = [(i, t) for i, t in enumerate(tiles) if not t.is_joker]
    jokers = [i for i, t in enumerate(tiles) if t.is_joker]
    colours = {t.colour for _, t in faces}
    numbers = [t.number for _, t in faces]
    if len(colours) != 1 or len(set(numbers)) != len(numbers) or n > MAX_RUN:
        return []
    (colour,) = colours
    present = set(numbers)
    if rules.wrap_around:
        starts = range(1, MAX_RUN + 1)
    elif present:  # only the runs from the highest number's reach to the lowest number hold them all
        starts = range(max(1, max(present) - n + 1), min(min(present), MAX_RUN - n + 1) + 1)
    else:
        starts = range(1, MAX_RUN - n + 2)
    out: list[Interpretation] = []
    for start in starts:
        seq = _run_numbers(start, n)
        if not present <= set(seq):
            continue
        slot = {num: k for k, num in enumerate(seq)}
        missing = [num for num in seq if num not in present]
        joker_numbers = dict(zip(jokers, missing))
        order = [slot[t.number] if not t.is_joker else slot[joker_numbers[i]] for i, t in enumerate(tiles)]
        out.append(
            Interpretation(
                kind="run",
                resolved=tuple(face(colour, num) for num in seq),
                joker_tiles=tuple((i, face(colour, num)) for i, num in joker_numbers.items()),
                inversions=_inversions(order),
                wraps=start + n - 1 > MAX_RUN,
                value=sum(seq),
            )
        )
    return out


def _group_readings(tiles: tuple[Tile, ...]) -> list[Interpretation]:
    n = len(tiles)
    if n > MAX_GROUP:
        return []
    faces = [t for t in tiles if not t.is_joker]
    jokers = [i for i, t in enumerate(tiles) if t.is_joker]
    numbers = {t.number for t in faces}
    colours = [t.colour for t in faces]
    if n > MAX_GROUP or len(numbers) != 1 or len(set(colours)) != len(colours):
        return []
    (number,) = numbers
    free = [c for c in COLOURS if c not in colours]
    out: list[Interpretation] = []
    for chosen in combinations(free, len(jokers)):
        joker_tiles = tuple((i, face(c, number)) for i, c in zip(jokers, chosen))
        stand = dict(joker_tiles)
        out.append(
            Interpretation(
                kind="group",
                resolved=tuple(stand.get(i, t) for i, t in enumerate(tiles)),
                joker_tiles=joker_tiles,
                inversions=0,
                wraps=False,
                value=number * n,
            )
        )
    return out


# --------------------------------------------------------------------------- Rummikub Twist
#
# The special jokers follow the Rummikub Twist rule sheet (Goliath, 2015; the copy we read:
# goldenstarz3.com/black-twist-side-table-7328, "Special Jokers"): they never take the place of a
# regular joker or of each other; a set keeps at least 3 tiles even with a Double Joker; a set may
# hold more than one joker of any kind.
#
# * Double (JD): two consecutive numbers of a run ("2 - Double - 5": 3 and 4), or the two missing
#   colours of a group ("blue 3, red 3, Double": the other two 3s); first, last or in the middle;
#   never before a 2 or after a 12 (its two numbers never leave 1-13, nor wrap 13-1).
# * Mirror (JM): a mirrored series: the same tiles on both sides, in mirrored order; each side is a
#   run or a group (a side may be one tile: K7 JM K7). Regular jokers may stand in on either
#   side. It holds no Double or Colour-change joker (one of each in the box: the other side could
#   not mirror it). Counts 0.
# * Colour change (JC): not in the sheet text we found. We follow the reading of the issue and of
#   the one public implementation we found (github: Shoyo Inokuchi's Twist validator, 2020): the
#   JC takes one number of a run and the run changes colour at it: the tiles before it are one
#   colour, the tiles after it another (a different one: a JC that changed nothing would take the
#   place of a regular joker, which the sheet forbids); it stands between two tiles, never at an
#   end. A part of the run made only of jokers takes any other colour. It counts its number; in
#   ``resolved`` it is written in the colour of the part before it.
# * A set needs at least one numbered tile (our reading: the sheet is silent; "J J JD" would
#   otherwise count any value).
#
# Validity still never depends on the written order; where several readings fit, the written
# order chooses as for the base game.


def _side_runs(colour: str, s: int, present: set[int], rules: HouseRules) -> list[tuple[Tile, ...]]:
    starts = range(1, MAX_RUN + 1) if rules.wrap_around else range(1, MAX_RUN - s + 2)
    out = []
    for start in starts:
        seq = _run_numbers(start, s)
        if present <= set(seq):
            out.append(tuple(Tile(colour, k) for k in seq))
    return out


def _mirror_readings(tiles: tuple[Tile, ...], rules: HouseRules) -> list[Interpretation]:
    others = [(i, t) for i, t in enumerate(tiles) if not t.is_special]
    if sum(t.is_special for t in tiles) != 1 or len(others) % 2:
        return []
    s = len(others) // 2
    faces = Counter(t for _, t in others if not t.is_joker)
    jokers = [i for i, t in others if t.is_joker]
    if any(k > 2 for k in faces.values()):
        return []
    colours = {t.colour for t in faces}
    numbers = {t.number for t in faces}
    sides: list[tuple[Tile, ...]] = []
    if len(colours) == 1 and s <= MAX_RUN:
        (colour,) = colours
        sides += _side_runs(colour, s, set(numbers), rules)
    if len(numbers) == 1 and len(colours) <= s <= MAX_GROUP:  # (more colours than a side holds: none)
        (number,) = numbers
        free = [c for c in COLOURS if c not in colours]
        for extra in combinations(free, s - len(colours)):
            group = tuple(Tile(c, number) for c in COLOURS if c in colours or c in extra)
            if group not in sides:
                sides.append(group)
    out: list[Interpretation] = []
    for side in sides:
        need = Counter({t: 2 for t in side}) - faces
        if faces - Counter({t: 2 for t in side}) or sum(need.values()) != len(jokers):
            continue
        fill = sorted(need.elements(), key=lambda t: t.sort_key)
        kind_run = len(side) > 1 and side[0].number != side[1].number
        out.append(
            Interpretation(
                kind="mirror",
                resolved=side + side[::-1],
                joker_tiles=tuple(zip(jokers, fill)),
                inversions=0,
                wraps=kind_run and side[0].number > side[-1].number,
                value=2 * sum(t.number for t in side),
            )
        )
    return out


def _twist_group_readings(tiles: tuple[Tile, ...]) -> list[Interpretation]:
    faces = [t for t in tiles if not t.is_joker and not t.is_special]
    numbers = {t.number for t in faces}
    colours = [t.colour for t in faces]
    singles = [i for i, t in enumerate(tiles) if t.is_joker]
    doubles = [i for i, t in enumerate(tiles) if t.special == "D"]
    slots = len(faces) + len(singles) + 2 * len(doubles)
    if any(t.special in ("C", "M") for t in tiles) or len(numbers) != 1 or len(set(colours)) != len(colours):
        return []
    if slots > MAX_GROUP:
        return []
    (number,) = numbers
    free = [c for c in COLOURS if c not in colours]
    out: list[Interpretation] = []
    for chosen in combinations(free, len(singles)):
        rest = [c for c in free if c not in chosen]
        for pairs in combinations(combinations(rest, 2), len(doubles)):
            used = [c for pair in pairs for c in pair]
            if len(set(used)) != len(used):
                continue
            joker_tiles = tuple((i, Tile(c, number)) for i, c in zip(singles, chosen))
            joker_tiles += tuple((i, Tile(c, number)) for i, pair in zip(doubles, pairs) for c in pair)
            stand: dict[int, list[Tile]] = {}
            for i, t in joker_tiles:
                stand.setdefault(i, []).append(t)
            resolved = tuple(x for i, t in enumerate(tiles) for x in stand.get(i, [t]))
            out.append(
                Interpretation(
                    kind="group", resolved=resolved, joker_tiles=joker_tiles, inversions=0, wraps=False,
                    value=number * slots,
                )
            )
    return out


def _twist_run_readings(
    tiles: tuple[Tile, ...], rules: HouseRules, lo: int = 1, hi: int = MAX_RUN
) -> list[Interpretation]:
    """Runs with double and colour-change jokers; ``lo``/``hi`` widen the numbers a double may
    stand for (only to say why a set fails)."""
    faces = [(i, t) for i, t in enumerate(tiles) if not t.is_joker and not t.is_special]
    singles = [i for i, t in enumerate(tiles) if t.is_joker]
    doubles = [i for i, t in enumerate(tiles) if t.special == "D"]
    changes = [i for i, t in enumerate(tiles) if t.special == "C"]
    if any(t.special == "M" for t in tiles) or len(doubles) > 1:
        return []
    numbers = [t.number for _, t in faces]
    length = len(faces) + len(singles) + 2 * len(doubles) + len(changes)
    if len(set(numbers)) != len(numbers) or length > MAX_RUN + (lo < 1) + (hi > MAX_RUN):
        return []
    if not changes and len({t.colour for _, t in faces}) != 1:
        return []
    wrap = rules.wrap_around and lo == 1
    starts = range(1, MAX_RUN + 1) if wrap else range(lo, hi - length + 2)
    out: list[Interpretation] = []
    for start in starts:
        seq = [(start - 1 + k) % MAX_RUN + 1 for k in range(length)] if wrap else list(range(start, start + length))
        slot_of = {num: k for k, num in enumerate(seq)}
        if not all(n in slot_of for n in numbers):
            continue
        taken = {slot_of[t.number]: t for _, t in faces}
        empty = [k for k in range(length) if k not in taken]
        for cc in combinations(empty, len(changes)):
            rest = [k for k in empty if k not in cc]
            if doubles:
                pairs = [(k, k + 1) for k in rest if k + 1 in rest and not (seq[k] == MAX_RUN and seq[k + 1] == 1)]
                pairs = [p for p in pairs if lo <= seq[p[0]] and seq[p[1]] <= hi] if not wrap else pairs
            else:
                pairs = [()]
            for pair in pairs:
                single_slots = [k for k in rest if k not in pair]
                if not wrap and any(not 1 <= seq[k] <= MAX_RUN for k in list(cc) + single_slots):
                    continue
                for colours in _segment_colours(length, cc, taken):
                    if any(not 1 <= seq[k] <= MAX_RUN for k in range(length)):
                        continue
                    tile_at = lambda k: Tile(colours[k], seq[k])  # noqa: E731
                    joker_tiles = tuple((i, tile_at(k)) for i, k in zip(singles, single_slots))
                    joker_tiles += tuple((i, tile_at(k)) for i in doubles for k in pair)
                    joker_tiles += tuple((i, tile_at(k)) for i, k in zip(changes, cc))
                    where = {i: k for i, k in zip(singles, single_slots)}
                    where.update({i: pair[0] for i in doubles})
                    where.update({i: k for i, k in zip(changes, cc)})
                    order = [where[i] if i in where else slot_of[t.number] for i, t in enumerate(tiles)]
                    out.append(
                        Interpretation(
                            kind="run",
                            resolved=tuple(tile_at(k) for k in range(length)),
                            joker_tiles=joker_tiles,
                            inversions=_inversions(order),
                            wraps=wrap and start + length - 1 > MAX_RUN,
                            value=sum(seq),
                        )
                    )
    return out


def _segment_colours(length: int, cc: Sequence[int], taken: dict[int, Tile]) -> list[list[str]]:
    """Every colouring of the slots of a run whose colour changes at the slots ``cc`` (each
    between two slots, never at an end); [] if the faces allow none. A part with no face (only
    jokers) takes any colour that differs from its neighbours' (each is a reading: what such a
    joker stands for is ambiguous, like a joker's colour in a group)."""
    bounds = [-1, *cc, length]
    parts = [(bounds[k] + 1, bounds[k + 1]) for k in range(len(bounds) - 1)]
    if any(a >= b for a, b in parts):  # a colour change at an end, or two side by side
        return []
    known: list[str | None] = []
    for a, b in parts:
        cs = {taken[k].colour for k in range(a, b) if k in taken}
        if len(cs) > 1:
            return []
        known.append(next(iter(cs)) if cs else None)
    for k in range(len(known) - 1):
        if known[k] is not None and known[k] == known[k + 1]:
            return []
    choices: list[list[str]] = [[]]
    for k, c in enumerate(known):
        options = [c] if c is not None else list(COLOURS)
        choices = [
            prefix + [x]
            for prefix in choices
            for x in options
            if not prefix or prefix[-1] != x
            if c is not None or k + 1 >= len(known) or known[k + 1] != x
        ]
    out: list[list[str]] = []
    for chosen in choices:
        colours: list[str] = [""] * length
        for (a, b), c in zip(parts, chosen):
            for k in range(a, b):
                colours[k] = c
        for k, (a, _) in zip(cc, parts):  # the colour-change joker: the colour of the part before it
            colours[k] = colours[a]
        out.append(colours)
    return out


def _twist_readings(tiles: tuple[Tile, ...], rules: HouseRules) -> list[Interpretation]:
    specials = Counter(t.special for t in tiles if t.is_special)
    if not rules.twist or any(k > SPECIALS_IN_SET for k in specials.values()):
        return []
    if sum(t.is_joker for t in tiles) > JOKERS_IN_SET:
        return []
    if not any(not t.is_joker and not t.is_special for t in tiles):
        return []
    if specials["M"]:
        return _mirror_readings(tiles, rules)
    return _twist_run_readings(tiles, rules) + _twist_group_readings(tiles)


def _why_twist(tiles: tuple[Tile, ...], rules: HouseRules) -> Reason:
    written = format_tiles(tiles)
    specials = Counter(t.code for t in tiles if t.is_special)
    if not rules.twist:
        return Reason("twist_off", {"tile": next(iter(specials))})
    n_jokers = sum(t.is_joker for t in tiles)
    if n_jokers > JOKERS_IN_SET:
        return Reason("set_too_many_jokers", {"jokers": n_jokers, "limit": JOKERS_IN_SET})
    for code, k in specials.items():
        if k > SPECIALS_IN_SET:
            return Reason("supply_copies", {"tile": code, "count": k, "limit": SPECIALS_IN_SET})
    faces = [t for t in tiles if not t.is_joker and not t.is_special]
    if not faces:
        return Reason("twist_only_specials", {"tiles": written})
    if "JM" in specials:
        if len(specials) > 1:
            return Reason("twist_mirror_alone", {"tiles": written})
        return Reason("twist_mirror_unbalanced", {"tiles": written})
    if "JC" in specials:
        if len(faces) > 1 and len({t.number for t in faces}) == 1:
            return Reason("twist_colour_change_group", {"tiles": written})
        return Reason("twist_colour_change_place", {"tiles": written})
    if "JD" in specials and len({t.colour for t in faces}) == 1 and len({t.number for t in faces}) == len(faces):
        slots = len(tiles) + 1  # the double takes two numbers
        low, high = min(t.number for t in faces), max(t.number for t in faces)
        if high - low + 1 <= slots and (slots > MAX_RUN or high - slots + 1 < 1 and low + slots - 1 > MAX_RUN):
            return Reason("twist_double_end", {"tiles": written})
    return Reason("twist_not_a_set", {"tiles": written})


@lru_cache(maxsize=1 << 16)
def _readings(tiles: tuple[Tile, ...], rules: HouseRules) -> tuple[Interpretation, ...]:
    n_jokers = sum(t.is_joker for t in tiles)
    if len(tiles) < MIN_SET or n_jokers > JOKERS_IN_SET:
        return ()
    if any(t.is_special for t in tiles):
        found = _twist_readings(tiles, rules)
        return tuple(sorted(found, key=lambda r: r.rank))
    found = _run_readings(tiles, rules) + _group_readings(tiles)
    return tuple(sorted(found, key=lambda r: r.rank) if len(found) > 1 else found)


def interpretations(tiles: Sequence[Tile], rules: HouseRules = DEFAULT_RULES) -> tuple[Interpretation, ...]:
    """Every valid reading of ``tiles``, the chosen one first (empty if the set is invalid)."""
    return _readings(tuple(tiles), rules)


def _fitting(readings: Sequence[Interpretation]) -> list[Interpretation]:
    """The readings that fit the written order best, among all and among the non-wrapping ones."""
    out: list[Interpretation] = []
    for pool in (list(readings), [r for r in readings if not r.wraps]):
        if pool:
            fit = min(r.inversions for r in pool)
            out += [r for r in pool if r.inversions == fit and r not in out]
    return out


def meld_reading(readings: Sequence[Interpretation]) -> Interpretation:
    """The reading a set counts toward the initial meld (``readings`` valid, chosen first)."""
    if len(readings) == 1:  # (most sets: no joker, one reading)
        return readings[0]
    candidates = _fitting(readings)
    return max(candidates, key=lambda r: (r.value, -readings.index(r)))


# --------------------------------------------------------------------------- reasons


def _missing_between(numbers: list[int], wrap: bool) -> list[int]:
    """The numbers a run through ``numbers`` still needs, over the shortest stretch."""
    present = set(numbers)
    if not wrap:
        return [k for k in range(min(present), max(present) + 1) if k not in present]
    candidates = []
    for start in sorted(present):
        span = next(
            length for length in range(1, MAX_RUN + 1) if present <= set(_run_numbers(start, length))
        )
        candidates.append([k for k in _run_numbers(start, span) if k not in present])
    return min(candidates, key=len)


def _why_invalid(tiles: tuple[Tile, ...], rules: HouseRules) -> Reason:
    written = format_tiles(tiles)
    n = len(tiles)
    if n < MIN_SET:
        return Reason("set_too_few_tiles", {"tiles": written, "count": n, "min": MIN_SET})
    if any(t.is_special for t in tiles):
        return _why_twist(tiles, rules)
    n_jokers = sum(t.is_joker for t in tiles)
    if n_jokers > JOKERS_IN_SET:
        return Reason("set_too_many_jokers", {"jokers": n_jokers, "limit": JOKERS_IN_SET})
    faces = [t for t in tiles if not t.is_joker]
    colours = {t.colour for t in faces}
    numbers = {t.number for t in faces}
    repeated = [t for t, k in Counter(faces).items() if k > 1]
    if len(colours) > 1 and len(numbers) > 1:
        return Reason("set_mixed", {"tiles": written})
    if len(colours) == 1 and len(numbers) == 1:  # the same face, repeated
        return Reason("set_same_tile_twice", {"tile": repeated[0].code})
    if len(numbers) == 1:  # a group that fails
        if repeated:
            return Reason("group_colour_twice", {"tile": repeated[0].code})
        return Reason("group_too_long", {"max": MAX_GROUP, "tiles": written, "count": n})
    # a run that fails
    if repeated:
        return Reason("run_number_twice", {"tile": repeated[0].code})
    if n > MAX_RUN:
        return Reason("run_too_long", {"max": MAX_RUN, "count": n})
    if not rules.wrap_around and _readings(tiles, rules.with_(wrap_around=True)):
        return Reason("run_wraps", {"tiles": written})
    (colour,) = colours
    gaps = _missing_between(sorted(numbers), rules.wrap_around)
    need = " ".join(f"{colour}{k}" for k in gaps)
    return Reason("run_gaps", {"tiles": written, "need": need, "missing": len(gaps), "jokers": n_jokers})


# --------------------------------------------------------------------------- public API


@lru_cache(maxsize=1 << 16)
def _analyse(tiles: tuple[Tile, ...], rules: HouseRules) -> SetCheck:
    readings = _readings(tiles, rules)
    if not readings:
        why = _why_invalid(tiles, rules)
        return SetCheck(valid=False, kind=None, value=0, reason=render(why), tiles=tiles, why=why)
    chosen = readings[0]
    jokers: dict[int, list[Tile]] = {i: [] for i, t in enumerate(tiles) if t.is_joker or t.special in ("D", "C")}
    stands: dict[int, list[tuple[Tile, ...]]] = {i: [] for i in jokers}
    for reading in readings:
        per: dict[int, list[Tile]] = {}
        for i, tile in reading.joker_tiles:
            per.setdefault(i, []).append(tile)
            if tile not in jokers[i]:
                jokers[i].append(tile)
        for i, ts in per.items():
            if tuple(ts) not in stands[i]:
                stands[i].append(tuple(ts))
    fit = chosen.inversions
    meld = meld_reading(readings)
    return SetCheck(
        valid=True,
        kind=chosen.kind,
        value=chosen.value,
        reason=None,
        tiles=tiles,
        resolved=chosen.resolved,
        jokers={i: tuple(ts) for i, ts in jokers.items()},
        interpretations=tuple(r.resolved for r in readings),
        kinds=tuple(r.kind for r in readings),
        best=sum(1 for r in readings if r.inversions == fit),
        meld_value=meld.value,
        meld_reading=meld.resolved,
        stands={i: tuple(ts) for i, ts in stands.items()},
    )


def analyse_set(tiles: Sequence[Tile], rules: HouseRules = DEFAULT_RULES) -> SetCheck:
    """Check one set and explain the verdict (memoised on the tiles and the rules)."""
    return _analyse(tuple(tiles), rules)


def is_valid_set(tiles: Sequence[Tile], rules: HouseRules = DEFAULT_RULES) -> bool:
    """True if ``tiles`` (in any order) form a run or a group."""
    return _analyse(tuple(tiles), rules).valid


def set_value(tiles: Sequence[Tile], rules: HouseRules = DEFAULT_RULES) -> int:
    """Points of the set in its chosen reading (jokers count as the tile they stand for); 0 if invalid."""
    return _analyse(tuple(tiles), rules).value
