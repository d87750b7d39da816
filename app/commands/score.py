"""``rummi score --player dana="K5 R7" --player omer="B12 O13" --winner lior [--json]``

Scores one round (rules in ``engine.scoring``). Each ``--player NAME=TILES`` gives the tiles left
on that player's rack (``--player lior=`` for an empty rack). ``--winner`` names the player who
went out (they need no ``--player``). With ``--exhausted`` (the pool ran out and nobody can
play) every player's rack is given, ``--winner`` is left out and the lowest rack wins.

``--json`` prints ``{"scores": {"dana": -12, "omer": -25, "lior": 37}, "rack_values": {...},
"winners": ["lior"]}`` (fields are only ever added). Exit 0, or 2 for bad input: a ``--player``
without ``=``, a name given twice, unreadable tiles, more copies of a tile than a set has.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from app.cli import EXIT_OK, BadInput
from engine.rules import DEFAULT_RULES
from engine.scoring import exhausted_winners, rack_value, score_round
from engine.supply import check_supply
from engine.tiles import NotationError, Tile, parse_tiles


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "score",
        help="score a round from the tiles left on each rack",
        description="Score one round: winner +sum of the others' racks, each other player -their rack.",
    )
    p.add_argument(
        "--player",
        action="append",
        default=[],
        metavar='NAME="TILES"',
        help='a player and the tiles left on their rack, e.g. dana="K5 R7" (repeat for each player)',
    )
    p.add_argument("--winner", help="the player who went out")
    p.add_argument(
        "--exhausted",
        action="store_true",
        help="the pool is exhausted and nobody can play: the lowest rack wins (give every rack)",
    )
    p.add_argument(
        "--joker-penalty",
        type=int,
        default=DEFAULT_RULES.joker_penalty,
        help=f"points a joker left on a rack costs (default {DEFAULT_RULES.joker_penalty})",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=run)


def parse_players(specs: list[str]) -> dict[str, list[Tile]]:
    racks: dict[str, list[Tile]] = {}
    for spec in specs:
        name, sep, tiles = spec.partition("=")
        name = name.strip()
        if not sep:
            raise BadInput(f'--player {spec!r}: write NAME="TILES", e.g. dana="K5 R7" (an empty rack: lior=)')
        if not name:
            raise BadInput(f"--player {spec!r}: the name before '=' is empty")
        if name in racks:
            raise BadInput(f"--player {name!r} is given twice")
        try:
            racks[name] = parse_tiles(tiles)
        except NotationError as exc:
            raise BadInput(f"--player {name}: {exc}") from exc
    return racks


def run(args: argparse.Namespace) -> int:
    if args.joker_penalty < 0:
        raise BadInput(f"--joker-penalty must be 0 or more, got {args.joker_penalty}")
    racks = parse_players(args.player)
    if not racks:
        raise BadInput('give each player\'s rack with --player NAME="TILES"')
    problems = check_supply(*racks.values())
    if problems:
        raise BadInput("more tiles than a full set has: " + "; ".join(problems))
    rules = DEFAULT_RULES.with_(joker_penalty=args.joker_penalty)
    if args.exhausted:
        if args.winner is not None:
            raise BadInput("--exhausted: the lowest rack wins, so leave out --winner")
        winners = exhausted_winners(racks, rules)
        scores = score_round(racks, None, rules, exhausted=True)
    else:
        if args.winner is None:
            raise BadInput("name the player who went out with --winner NAME (or use --exhausted)")
        winner = args.winner.strip()
        if not winner:
            raise BadInput("--winner: the name is empty")
        if racks.get(winner):
            raise BadInput(f"--winner {winner} went out, so their rack must be empty")
        winners = [winner]
        scores = score_round(racks, winner, rules)
    values = {name: rack_value(rack, rules) for name, rack in racks.items()}
    if args.json:
        print(json.dumps({"scores": scores, "rack_values": values, "winners": winners}))
    else:
        width = max(len(n) for n in scores)
        for name, points in scores.items():
            mark = "  (winner)" if name in winners else ""
            rack = f"  rack {values[name]}" if name in values else ""
            print(f"{name:<{width}}  {points:+d}{rack}{mark}")
    return EXIT_OK
