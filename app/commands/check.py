"""``rummi check "R10 R11 R12 | B6 K6 O6" [--threshold 30] [--wrap] [--json]``

Checks each meld (valid or not and why, its value, what the jokers stand for), adds up the valid
melds and says whether they would make an initial meld. Exit 0 if every meld is valid, 1 if any
is invalid, 2 for input that can't be read (or that needs more copies of a tile than a set has).

``--json`` prints (fields are only ever added, never renamed)::

    {"melds": [{"codes": ["R10", "R11", "R12"], "valid": true, "kind": "run", "value": 33,
                "jokers": {}, "reason": null, "resolved": ["R10", "R11", "R12"],
                "interpretations": [["R10", "R11", "R12"]], "meld_value": 33,
                "meld_reading": ["R10", "R11", "R12"]}],
     "total": 33, "initial_meld": {"threshold": 30, "ok": true, "reason": null}}

``reason_code`` and ``why`` (a meld's, and the initial meld's) are the ``reason`` as a stable code:
``why`` is ``{"code": ..., "params": {...}, "parts": [...]}`` (``engine.reasons``), null when valid.

``--twist`` (Rummikub Twist) reads the special jokers ``JD`` ``JM`` ``JC``; ``stands`` maps each
joker's position to what it stands for in each reading (two tiles for a double joker; the mirror
joker stands for nothing and is not listed), ``kind`` may then be ``"mirror"``.

``jokers`` maps a joker's position in the meld (a string, 0-based) to every code it can stand for,
the chosen one first. ``value`` is the chosen reading's; ``meld_value`` what the meld counts toward
the initial meld (the reading worth most that the written order allows, ``meld_reading``), and
``total`` adds those up: ``J J O5`` reads O3 O4 O5 (12) but counts 15 as a group of 5s.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from app.errors import EXIT_INVALID, EXIT_OK, BadInput
from engine.initial import check_initial_meld
from engine.reasons import reason_json
from engine.rules import DEFAULT_RULES
from engine.sets import SetCheck
from engine.supply import check_supply
from engine.tiles import SPECIAL_NAMES, format_tiles, parse_melds


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "check",
        help="check melds: valid or not and why, values, jokers, initial meld",
        description="Check melds written as tiles separated by spaces, melds separated by '|'.",
    )
    p.add_argument("melds", help='melds, e.g. "R10 R11 R12 | B6 K6 O6 | J K7 K8"')
    p.add_argument(
        "--threshold",
        type=int,
        default=DEFAULT_RULES.initial_meld,
        help=f"points the initial meld needs (default {DEFAULT_RULES.initial_meld})",
    )
    p.add_argument("--wrap", action="store_true", help="allow runs through 13-1 (house rule)")
    p.add_argument(
        "--twist", action="store_true", help="Rummikub Twist: the special jokers JD (double), JM (mirror), JC (colour change)"
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=run)


def meld_json(check: SetCheck) -> dict[str, Any]:
    return {
        "codes": [t.code for t in check.tiles],
        "valid": check.valid,
        "kind": check.kind,
        "value": check.value,
        "jokers": {str(i): [t.code for t in ts] for i, ts in check.jokers.items()},
        "reason": check.reason,
        "resolved": [t.code for t in check.resolved],
        "interpretations": [[t.code for t in r] for r in check.interpretations],
        "meld_value": check.meld_value,
        "meld_reading": [t.code for t in check.meld_reading],
        "reason_code": check.why.code if check.why else None,
        "why": reason_json(check.why),
        "stands": {str(i): [[t.code for t in r] for r in rs] for i, rs in check.stands.items()},
    }


def _describe(index: int, check: SetCheck) -> list[str]:
    written = format_tiles(check.tiles)
    if not check.valid:
        return [f"{index}. {written}: INVALID - {check.reason}"]
    lines = [f"{index}. {written}: valid {check.kind}, {check.value} points"]
    if check.jokers:
        lines.append(f"   reads as {format_tiles(check.resolved)}")
        for pos, tiles in check.jokers.items():
            joker = check.tiles[pos]
            if joker.is_special:  # a Twist joker: what it stands for in each reading
                readings = [" ".join(t.code for t in r) for r in check.stands[pos]]
                also = f" (could also be {', '.join(readings[1:])})" if readings[1:] else ""
                name = SPECIAL_NAMES[joker.special or ""]
                lines.append(f"   {name} at position {pos + 1} = {readings[0]}{also}")
                continue
            others = ", ".join(t.code for t in tiles[1:])
            also = f" (could also be {others})" if others else ""
            lines.append(f"   joker at position {pos + 1} = {tiles[0].code}{also}")
    if check.meld_value != check.value:
        lines.append(
            f"   counts {check.meld_value} toward the initial meld, read as {format_tiles(check.meld_reading)}"
        )
    return lines


def run(args: argparse.Namespace) -> int:
    if args.threshold < 0:
        raise BadInput(f"--threshold must be 0 or more, got {args.threshold}")
    melds = parse_melds(args.melds, twist=args.twist)
    if not melds:
        raise BadInput('no melds given: write tiles like "R10 R11 R12 | B6 K6 O6"')
    problems = check_supply(melds)
    if problems:
        raise BadInput("more tiles than a full set has: " + "; ".join(problems))
    rules = DEFAULT_RULES.with_(initial_meld=args.threshold, wrap_around=args.wrap, twist=args.twist)
    meld = check_initial_meld(melds, rules)
    all_valid = all(c.valid for c in meld.sets)
    if args.json:
        print(
            json.dumps(
                {
                    "melds": [meld_json(c) for c in meld.sets],
                    "total": meld.total,
                    "initial_meld": {
                        "threshold": meld.threshold,
                        "ok": meld.ok,
                        "reason": meld.reason,
                        "reason_code": meld.why.code if meld.why else None,
                        "why": reason_json(meld.why),
                    },
                }
            )
        )
    else:
        for i, c in enumerate(meld.sets, start=1):
            print("\n".join(_describe(i, c)))
        print(f"total: {meld.total} points")
        verdict = "ok" if meld.ok else f"no - {meld.reason}"
        print(f"initial meld ({meld.threshold}): {verdict}")
    return EXIT_OK if all_valid else EXIT_INVALID
