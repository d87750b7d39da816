"""Stable reason codes: every explanation the engine gives a player, as a code and parameters.

The engine explains its verdicts in English sentences (``SetCheck.reason``, ``Violation.message``,
...). The app shows them in Hebrew too, so each is also a ``Reason``: a stable ``code`` and its
``params`` (numbers, tile or card codes, names), and for composed explanations the ``parts`` they
are made of. ``render(reason)`` writes the English text; the engine builds its English strings
only through it, so the text and the code can never drift apart. Codes are a contract like the
``--json`` fields: new codes may be added, existing ones are never renamed or given other params.

Parameter values are ``str`` (tile/card codes written with spaces, names), ``int``, or a tuple of
``str`` (lists of names). Tile and card codes are the same in every language.

``CODES`` maps each code to its parameter names (and whether it has parts); see the table there.
``RuleError`` is a ``ValueError`` that carries a ``Reason`` (the scoring functions raise it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence, Union

from engine.errors import InputError

__all__ = ["CODES", "Reason", "RuleError", "render", "reason_json"]

Param = Union[str, int, tuple]


@dataclass(frozen=True)
class Reason:
    """One explanation: ``code`` (stable, see ``CODES``), ``params`` (read-only), ``parts`` (the
    reasons a composed one is made of, in order; empty for most)."""

    code: str
    params: Mapping[str, Param] = field(default_factory=dict, hash=False)
    parts: tuple["Reason", ...] = ()

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown reason code {self.code!r}")
        params = dict(self.params)
        for k, v in params.items():
            if isinstance(v, list):
                params[k] = tuple(v)
        expected = CODES[self.code]
        if set(params) != set(expected):
            raise ValueError(f"reason {self.code}: params {sorted(params)} != {sorted(expected)}")
        object.__setattr__(self, "params", MappingProxyType(params))
        object.__setattr__(self, "parts", tuple(self.parts))

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.params.items())), self.parts))

    def __reduce__(self) -> tuple:
        # pickled as its parts (a read-only mapping is not picklable): the app caches hints
        return (Reason, (self.code, dict(self.params), self.parts))

    @property
    def text(self) -> str:
        """The English text (``render(self)``)."""
        return render(self)

    def to_json(self) -> dict[str, Any]:
        """``{"code": ..., "params": {...}, "parts": [...]}`` (tuples as lists)."""
        return reason_json(self)


def reason_json(reason: Reason | None) -> dict[str, Any] | None:
    if reason is None:
        return None
    return {
        "code": reason.code,
        "params": {k: list(v) if isinstance(v, tuple) else v for k, v in reason.params.items()},
        "parts": [reason_json(p) for p in reason.parts],
    }


class RuleError(InputError):
    """A ValueError whose message is ``render(reason)``; ``reason`` says it as a code."""

    def __init__(self, reason: Reason) -> None:
        self.reason = reason
        super().__init__(render(reason))


# --------------------------------------------------------------------------- English


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _parts(r: Reason, sep: str = "; ") -> str:
    return sep.join(render(p) for p in r.parts)


def _names(names: Sequence[str], sep: str) -> str:
    return sep.join(repr(n) for n in names)


def _copies(p: Mapping[str, Param]) -> str:
    if p["tile"] == "J":
        return f"{p['count']} jokers"
    return f"{p['count']} copies of {p['tile']}"


def _and(parts: Sequence[str]) -> str:
    parts = list(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def _piece(tiles: str) -> str:
    """A piece of a table set as a step names it: the joker alone is "the joker"."""
    return "the joker" if tiles == "J" else tiles


def _from_rack(rack: str) -> list[str]:
    return [f"{rack} from your rack"] if rack else []


# code -> (parameter names, English)
_ENGLISH: dict[str, tuple[tuple[str, ...], Callable[[Mapping[str, Any], Reason], str]]] = {
    # ---- tile notation (engine.tiles.NotationError.why_code: the "why" after "TOKEN: "; the error
    # also carries ``token`` and ``position``, 0-based, or None)
    "tile_empty": ((), lambda p, r: "empty tile"),
    "tile_shape": ((), lambda p, r: "a tile is a colour letter then a number 1-13, like R10"),
    "tile_colour": ((), lambda p, r: "unknown colour: use K (black), R (red), B (blue), O (orange) or J for a joker"),
    "tile_colour_letter": (("colours",), lambda p, r: f"colour must be one of {', '.join(p['colours'])}"),
    "tile_number": ((), lambda p, r: "numbers run 1-13"),
    "twist_off": (("tile",),
        lambda p, r: f"{p['tile']} is a Rummikub Twist joker: only with the twist house rule (--twist)"),
    "meld_empty": (("meld",), lambda p, r: f"meld {p['meld']} is empty (two '|' in a row, or one at an end)"),
    # ---- one set (engine.sets); ``tiles`` is the set as written
    "set_too_few_tiles": (("tiles", "count", "min"),
        lambda p, r: f"a set needs at least {p['min']} tiles, {p['tiles'] or 'this'} has {p['count']}"),
    "set_too_many_jokers": (("jokers", "limit"),
        lambda p, r: f"{p['jokers']} jokers: a full set has only {p['limit']} jokers"),
    "set_mixed": (("tiles",),
        lambda p, r: f"{p['tiles']} mixes colours and numbers: a run is one colour, a group is one number"),
    "set_same_tile_twice": (("tile",),
        lambda p, r: f"{p['tile']} appears twice: a group needs different colours, a run different numbers"),
    "group_colour_twice": (("tile",), lambda p, r: f"{p['tile']} appears twice: a group needs different colours"),
    "group_too_long": (("max", "tiles", "count"),
        lambda p, r: f"a group has at most {p['max']} tiles, {p['tiles']} has {p['count']}"),
    "run_number_twice": (("tile",), lambda p, r: f"{p['tile']} appears twice: a run needs different numbers"),
    "run_too_long": (("max", "count"), lambda p, r: f"a run has at most {p['max']} tiles, this one has {p['count']}"),
    "run_wraps": (("tiles",),
        lambda p, r: f"{p['tiles']} wraps 13-1: not allowed unless the wrap-around house rule is on"),
    "run_gaps": (("tiles", "need", "missing", "jokers"),
        lambda p, r: f"{p['tiles']} is not a run: it needs {p['need']} to be consecutive "
        f"({_plural(p['missing'], 'tile')} missing, {_plural(p['jokers'], 'joker')} to fill them)"),
    # ---- Rummikub Twist sets (engine.sets with rules.twist); ``tiles`` is the set as written
    "twist_only_specials": (("tiles",),
        lambda p, r: f"{p['tiles']} holds no numbered tile: a set needs at least one"),
    "twist_double_end": (("tiles",),
        lambda p, r: f"{p['tiles']}: the double joker would stand for numbers below 1 or above 13 "
        "(it never stands before a 2 or after a 12)"),
    "twist_mirror_alone": (("tiles",),
        lambda p, r: f"{p['tiles']}: a mirror set holds one mirror joker, numbered tiles and regular jokers only"),
    "twist_mirror_unbalanced": (("tiles",),
        lambda p, r: f"{p['tiles']} is not a mirror set: the tiles on one side of the mirror joker must be "
        "the tiles on the other side, each side a run or a group"),
    "twist_colour_change_group": (("tiles",),
        lambda p, r: f"{p['tiles']}: the colour-change joker belongs in a run, not in a group"),
    "twist_colour_change_place": (("tiles",),
        lambda p, r: f"{p['tiles']} is not a run: the colour-change joker stands between two parts of a run, "
        "each part one colour, the colour after it different from the colour before it, the numbers going on"),
    "twist_not_a_set": (("tiles",),
        lambda p, r: f"{p['tiles']} is not a run or a group, whatever the jokers stand for"),
    # ---- the initial meld (engine.initial)
    "initial_no_sets": ((), lambda p, r: "no sets: the initial meld needs at least one set"),
    "initial_invalid_sets": ((), lambda p, r: _parts(r)),  # parts: one ``invalid_set`` each
    "initial_too_low": (("total", "threshold"),
        lambda p, r: f"the sets add up to {p['total']} points; the initial meld needs at least {p['threshold']}"),
    # ``set`` counts from 1; parts: the set's own reason
    "invalid_set": (("set", "tiles"), lambda p, r: f"set {p['set']} ({p['tiles']}) is not valid: {_parts(r)}"),
    "table_set_invalid": (("set", "tiles"),
        lambda p, r: f"table set {p['set']} ({p['tiles']}) is not valid: {_parts(r)}"),
    # ---- a turn (engine.turns: the code of each Violation)
    "no_tile_played": ((), lambda p, r: "no tile came from the rack: a turn must play at least one tile (or draw)"),
    "table_tile_taken": (("tiles",),
        lambda p, r: f"{p['tiles']} left the table: tiles on the table may be moved but never taken back"),
    "not_from_rack": (("tiles",),
        lambda p, r: f"{p['tiles']} appeared on the table but was neither on the table before nor on the rack"),
    "initial_meld_too_low": (("total", "threshold", "sets"),
        lambda p, r: (f"the new sets are worth {p['total']} points ({p['sets']})" if p["sets"] else "there are no new sets")
        + f"; the initial meld needs at least {p['threshold']}"),
    "initial_meld_touched_table": (("set",),
        lambda p, r: f"the set {p['set']} was broken up or rearranged: before your initial meld "
        "you may not touch the sets on the table"),
    "initial_meld_added_to_table": (("tiles", "set", "now"),
        lambda p, r: f"{p['tiles']} added to the set {p['set']} (now {p['now']}): before "
        "your initial meld you may only put down new sets (house rule opening_additions is off)"),
    "joker_not_replaced": (("set", "stood", "moved"),
        lambda p, r: f"the joker in {p['set']} stood for {p['stood']}; "
        + (f"{p['stood']} was moved from the table: a joker is freed only with its tile from your rack"
           if p["moved"] else f"it was taken without putting {p['stood']} from your rack in its place")),
    "joker_not_reused": (("sets",),
        lambda p, r: f"a joker taken from {p['sets']} must be played again this turn in a new set with at least "
        "one tile from your rack (house rule joker_reuse: new_meld_with_rack)"),
    "over_supply": ((), lambda p, r: _parts(r)),  # parts: one ``supply_copies`` each
    # ---- tile accounting (engine.tiles.over_supply); tile "J" is the joker
    "supply_copies": (("tile", "count", "limit"), lambda p, r: f"{_copies(p)}: a full set has only {p['limit']}"),
    # ---- a round's score (engine.scoring, raised as RuleError)
    "player_ambiguous": (("name", "candidates"),
        lambda p, r: f"{p['name']!r} could be {_names(p['candidates'], ' or ')}: write the name as given"),
    "unknown_player": (("name", "players"),
        lambda p, r: f"unknown player {p['name']!r}; the players are {', '.join(p['players']) if p['players'] else 'none'}"),
    "no_racks": ((), lambda p, r: "no racks given: an exhausted pool needs every player's rack"),
    "exhausted_named_winner": (("name",),
        lambda p, r: f"the pool is exhausted, so the winner is the lowest rack: don't name one (got {p['name']!r})"),
    "round_too_few_players": ((), lambda p, r: "a round needs at least two players: give every player's rack"),
    "no_winner": ((), lambda p, r: "name the player who went out, or say the pool is exhausted"),
    "winner_name_empty": ((), lambda p, r: "the winner's name is empty"),
    "winner_rack_not_empty": (("name", "tiles"),
        lambda p, r: f"{p['name']} went out, so their rack must be empty, but it holds {p['tiles']}"),
    "round_only_winner": (("name",), lambda p, r: f"a round needs at least two players: {p['name']} is the only one"),
    # ---- the hint's steps (engine.solver.moves): ``set`` a table set as it was, ``made`` a set as it
    # ends up, ``rack`` tiles from the rack ("" when none), ``pieces`` parts of table sets (a joker
    # alone: "J"), ``sources`` the table set each of ``pieces`` comes from
    "step_lay_down": (("made",), lambda p, r: f"lay down {p['made']} from your rack"),
    "step_replace_joker": (("set", "rack", "made"),
        lambda p, r: f"replace the joker in {p['set']} with {p['rack']} from your rack, making {p['made']}"),
    "step_break_up": (("set",), lambda p, r: f"break up {p['set']}"),
    "step_take": (("tiles", "set"), lambda p, r: f"take {_and(p['tiles'])} from {p['set']}"),
    "step_split": (("set", "pieces"), lambda p, r: f"split {p['set']} into {_and(p['pieces'])}"),
    "step_add": (("pieces", "sources", "rack", "set", "made"),
        lambda p, r: "add " + _and([f"{_piece(t)} from {s}" for t, s in zip(p["pieces"], p["sources"])]
                                   + _from_rack(p["rack"])) + f" to {p['set']}, making {p['made']}"),
    "step_rearrange": (("piece", "made"), lambda p, r: f"rearrange {_piece(p['piece'])} as {p['made']}"),
    "step_add_to_piece": (("rack", "piece", "made"),
        lambda p, r: f"add {p['rack']} from your rack to {_piece(p['piece'])}, making {p['made']}"),
    "step_make": (("made", "pieces", "rack"),
        lambda p, r: f"make {p['made']} from " + _and([_piece(t) for t in p["pieces"]] + _from_rack(p["rack"]))),
    # ---- card series (engine.cards.series); ``cards`` is the series as written
    "series_too_few_cards": (("cards", "count", "min"),
        lambda p, r: f"a series needs at least {p['min']} cards, {p['cards'] or 'this'} has {p['count']}"),
    "series_no_jokers": (("game",), lambda p, r: f"{p['game']} rummy is played without jokers"),
    "series_too_many_jokers": (("jokers", "limit"), lambda p, r: f"{p['jokers']} jokers: the pack has only {p['limit']}"),
    "series_mixed": (("cards",),
        lambda p, r: f"{p['cards']} mixes suits and ranks: a run is one suit, a group is one rank"),
    "series_same_card_twice": (("card",),
        lambda p, r: f"{p['card']} appears twice: a group needs different suits, a run different ranks"),
    "series_group_suit_twice": (("card",), lambda p, r: f"{p['card']} appears twice: a group needs different suits"),
    "series_group_too_long": (("max", "cards", "count"),
        lambda p, r: f"a group has at most {p['max']} cards (a joker counts), {p['cards']} has {p['count']}"),
    "series_run_rank_twice": (("card",), lambda p, r: f"{p['card']} appears twice: a run needs different ranks"),
    "series_run_too_long": (("max", "count"), lambda p, r: f"a run has at most {p['max']} cards, this one has {p['count']}"),
    "series_ace_high_only": (("cards",),
        lambda p, r: f"{p['cards']}: the ace ranks above the king (Q-K-A) only with the ace-high house rule"),
    "series_wraps": (("cards",), lambda p, r: f"{p['cards']} goes round the corner: a run never wraps from K through A to 2"),
    "series_run_gaps": (("cards", "need", "missing", "jokers"),
        lambda p, r: f"{p['cards']} is not a run: it needs {p['need']} to be consecutive "
        f"({_plural(p['missing'], 'card')} missing, {_plural(p['jokers'], 'joker')} to fill them)"),
    # ---- a card round's score (engine.cards.scoring, raised as RuleError)
    "cards_no_winner": ((), lambda p, r: "name the player who went out"),
    "cards_winner_hand_not_empty": (("name",), lambda p, r: f"{p['name']} went out, so their hand must be empty"),
    "cards_no_other_player": ((), lambda p, r: "a round needs at least one other player besides the winner"),
    "cards_player_count": (("min", "max", "count"),
        lambda p, r: f"classic rummy is for {p['min']}-{p['max']} players, got {p['count']}"),
    "cards_rummy_classic_only": ((), lambda p, r: "'rummy' doubling is a classic-rummy house rule"),
    "cards_too_few_players": (("min", "count"), lambda p, r: f"a round needs at least {p['min']} players, got {p['count']}"),
    "cards_player_twice": ((), lambda p, r: "a player is listed twice"),
    # ---- going out with cards (engine.cards.declare); ``cut`` "" when none, flags 0/1
    "declare_not_all_series": (("count",), lambda p, r: f"these {p['count']} cards do not all split into series"),
    "declare_only_groups": (("count",),
        lambda p, r: f"these {p['count']} cards split only into groups: going out needs at least one run"),
    "declare_no_discard": (("cut", "left", "need_run", "some_only_groups"),
        lambda p, r: (f"taking the cut {p['cut']}, " if p["cut"] else "")
        + f"no discard leaves {p['left']} card{'' if p['left'] == 1 else 's'} that split into series"
        + (" with at least one run" if p["need_run"] else "")
        + (" (some discards leave only groups)" if p["some_only_groups"] else "")),
    # ---- the closed-rummy redeal (engine.cards.redeal)
    "redeal_pairs": (("count", "cards"), lambda p, r: f"{p['count']} pairs of identical cards: {p['cards']}"),
    "redeal_series": (("count",), lambda p, r: f"{p['count']} cards already form series (nine are enough)"),
}

CODES: Mapping[str, tuple[str, ...]] = MappingProxyType({code: names for code, (names, _) in _ENGLISH.items()})
"""Every reason code -> the names of its params."""


def render(reason: Reason) -> str:
    """The English text of ``reason`` (what the command line prints)."""
    return _ENGLISH[reason.code][1](reason.params, reason)
