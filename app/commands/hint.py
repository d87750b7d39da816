"""``rummi hint --table "R4 R5 R6 J | K7 B7 O7" --rack "B1 B2 B3 K7" [--initial] [--top 3]
[--threshold 30] [--wrap] [--joker-reuse new_meld_with_rack|anywhere] [--twist] [--time-limit 5] [--json]``

The best play from a rack: the most rack tiles played, the table rearranged at will (ties: higher
value, fewer table sets disturbed, no joker left exposed), as steps to follow. ``--initial``: the
player has not opened yet, so only new sets from the rack count and they must reach the threshold.
Exit 0 when there is a play, 1 when the answer is "draw", 2 for input that can't be read (a typo,
an invalid set on the table, more copies of a tile than a full set has). ``--twist`` (Rummikub
Twist): the special jokers ``JD`` ``JM`` ``JC`` on the rack and the table are read and placed
(``rummi hint --twist --rack "R2 R5 JD B9 B10 B11" --initial``); without it they are a typo.

``--json`` prints (fields are only ever added, never renamed)::

    {"draw": false, "optimal": true, "solve_ms": 3.1, "opened": true,
     "tiles_placed": 3, "value_placed": 6, "placed": ["B1", "B2", "B3"],
     "table": [["R4", "R5", "R6", "J"], ["K7", "B7", "O7"], ["B1", "B2", "B3"]],
     "rack_left": ["K7"], "moves": ["lay down B1 B2 B3 from your rack"],
     "steps": [{"code": "step_lay_down", "params": {"made": "B1 B2 B3"}, "parts": []}],
     "sets_disturbed": 0, "exposed_jokers": 1, "meld_points": null,
     "threshold": 30, "best_meld": null, "shortfall": 0,
     "alternatives": [{"tiles_placed": ..., "value_placed": ..., "placed": [...],
                       "table": [[...]], "moves": [...], ..., "rack_points_shed": ...}],
     "rack_points_shed": 6, "cuts": 0}

``steps`` are the ``moves`` as reason codes with their tiles (``engine.reasons``: ``step_*``), for
saying them in another language. ``alternatives`` are the next best plays of other rack tiles (``--top 3``: up to two of them).
Before the initial meld ``meld_points`` is the points of the new sets; with ``draw`` true,
``best_meld`` is the most the rack can lay down and ``shortfall`` what is missing.
``value_placed`` is what the tiles played are worth by the rules (a joker counts as the tile it
stands for); ``rack_points_shed`` is the solver's tie-break, the penalty points the play takes off
the rack (a joker 30). ``optimal`` is false only when the time limit stopped the search; ``cuts``
counts answers the solver had to cut off for breaking a rule it does not model (more than 0: the
best found, not proven best).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from app.errors import EXIT_INVALID, EXIT_OK, BadInput
from engine.initial import invalid_set
from engine.reasons import render
from engine.rules import DEFAULT_RULES, JOKER_REUSES
from engine.sets import analyse_set
from engine.solver import Hint, Play, best_play
from engine.supply import check_supply
from engine.tiles import format_tiles, parse_melds, parse_tiles


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "hint",
        help="the best play from a rack (most tiles, table rearranged at will)",
        description="The provably best play from a rack, as steps to follow.",
    )
    p.add_argument("--table", default="", help='sets on the table, e.g. "R4 R5 R6 J | K7 B7 O7" (default: empty)')
    p.add_argument("--rack", required=True, help='tiles on the rack, e.g. "B1 B2 B3 K7"')
    p.add_argument("--initial", action="store_true", help="you have not opened yet (initial meld)")
    p.add_argument("--top", type=int, default=1, help="show this many plays (best first; default 1)")
    p.add_argument(
        "--threshold",
        type=int,
        default=DEFAULT_RULES.initial_meld,
        help=f"points the initial meld needs (default {DEFAULT_RULES.initial_meld})",
    )
    p.add_argument("--wrap", action="store_true", help="allow runs through 13-1 (house rule)")
    p.add_argument(
        "--joker-reuse",
        choices=JOKER_REUSES,
        default=DEFAULT_RULES.joker_reuse,
        help="where a joker freed from the table goes: into a new set with rack tiles (the rulebook, "
        "default) or anywhere (house rule)",
    )
    p.add_argument(
        "--twist", action="store_true",
        help="Rummikub Twist house rule: the special jokers JD (double), JM (mirror) and JC (colour change) "
        "are read and placed",
    )
    p.add_argument("--time-limit", type=float, default=5.0, help="seconds to search (default 5)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=run)


def _read(args: argparse.Namespace) -> tuple[list, list]:
    if args.threshold < 0:
        raise BadInput(f"--threshold must be 0 or more, got {args.threshold}")
    if args.top < 1:
        raise BadInput(f"--top must be 1 or more, got {args.top}")
    if args.time_limit <= 0:
        raise BadInput(f"--time-limit must be more than 0 seconds, got {args.time_limit}")
    table = parse_melds(args.table, twist=args.twist)
    rack = parse_tiles(args.rack, twist=args.twist)
    if not rack:
        raise BadInput('the rack is empty: give the tiles on it, like --rack "B1 B2 B3 K7"')
    problems = check_supply(table, rack)
    if problems:
        raise BadInput("more tiles than a full set has (table and rack together): " + "; ".join(problems))
    return table, rack


def _play_lines(play: Play | Hint, heading: str) -> list[str]:
    lines = [heading]
    lines += [f"  {k}. {step}" for k, step in enumerate(play.moves, start=1)]
    lines.append("  table afterwards: " + " | ".join(format_tiles(s) for s in play.table))
    lines.append("  rack left: " + (format_tiles(play.rack_left) or "(empty - you go out!)"))
    return lines


def _human(hint: Hint) -> str:
    proof = "" if hint.optimal else " (time limit reached: the best found, not proven best)"
    if hint.cuts:
        proof += (
            f" ({hint.cuts} answer{'s' if hint.cuts != 1 else ''} of the solver broke a rule it does not model "
            "and were cut off: the best found, not proven best)"
        )
    if hint.draw:
        if not hint.opened and hint.best_meld is not None:
            return (
                f"no initial meld - draw: the best new sets from your rack are worth {hint.best_meld} "
                f"of the {hint.threshold} points needed (short by {hint.shortfall}){proof}"
            )
        return f"no play - draw{proof}"
    what = f"play {hint.tiles_placed} tile{'s' if hint.tiles_placed != 1 else ''} ({format_tiles(hint.placed)}), "
    what += f"worth {hint.value_placed} points"
    if hint.meld_points is not None:
        what += f"; initial meld {hint.meld_points} of {hint.threshold} points"
    if hint.sets_disturbed:
        what += f"; {hint.sets_disturbed} table set{'s' if hint.sets_disturbed != 1 else ''} rearranged"
    lines = _play_lines(hint, f"best play: {what}{proof}")
    for k, alt in enumerate(hint.alternatives, start=2):
        lines.append("")
        lines += _play_lines(
            alt, f"play {k}: {alt.tiles_placed} tiles ({format_tiles(alt.placed)}), worth {alt.value_placed} points"
        )
    lines.append(f"({hint.solve_ms:.0f} ms)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    table, rack = _read(args)
    rules = DEFAULT_RULES.with_(
        initial_meld=args.threshold, wrap_around=args.wrap, joker_reuse=args.joker_reuse, twist=args.twist
    )
    for k, s in enumerate(table, start=1):
        check = analyse_set(s, rules)
        if not check.valid:
            raise BadInput(render(invalid_set(k, check, "table_set_invalid")))
    hint = best_play(table, rack, rules, opened=not args.initial, top_k=args.top, time_limit=args.time_limit)
    if args.json:
        print(json.dumps(hint.as_dict()))
    else:
        print(_human(hint))
    return EXIT_INVALID if hint.draw else EXIT_OK
