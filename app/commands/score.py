"""``rummi score --player dana="K5 R7" --player omer="B12 O13" --player lior= --winner lior [--json]``

Scores one round (rules in ``engine.scoring``). Each ``--player NAME=TILES`` gives a player and
the tiles left on their rack (``--player lior=`` for the empty rack of the player who went out).
``--winner`` names the player who went out: one of the ``--player`` names, matched ignoring case
(``--winner Lior`` is lior); any other name is an error that says which name is unknown, never a
new player. With ``--exhausted`` (the pool ran out and nobody can play) ``--winner`` is left out
and the lowest rack wins; ``--exhausted-scoring sum`` (default, the encyclopedia text: each other
player pays their own rack) or ``difference`` (the Pressman rulebook: the difference to the
winner's rack). A round needs at least two players. ``--twist`` (Rummikub Twist): racks may hold ``JD`` ``JM``
``JC``; each costs ``--joker-penalty`` like a joker.

``--json`` prints ``{"scores": {"dana": -12, "omer": -25, "lior": 37}, "rack_values": {...},
"winners": ["lior"]}`` (fields are only ever added). Exit 0, or 2 for bad input: a ``--player``
without ``=``, a name given twice (in any case), an unknown winner, a round of one player,
unreadable tiles, more copies of a tile than a set has.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from app.errors import EXIT_OK, BadInput
from engine.rules import DEFAULT_RULES, EXHAUSTED_SCORINGS
from engine.scoring import exhausted_winners, rack_value, resolve_player, score_round
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
    p.add_argument("--winner", help="the player who went out (one of the --player names; case does not matter)")
    p.add_argument(
        "--exhausted",
        action="store_true",
        help="the pool is exhausted and nobody can play: the lowest rack wins (give every rack)",
    )
    p.add_argument(
        "--exhausted-scoring",
        choices=EXHAUSTED_SCORINGS,
        default=DEFAULT_RULES.exhausted_scoring,
        help="with --exhausted: each other player pays their own rack to the winner (sum, the encyclopedia "
        "text, default) or the difference to the winner's rack (difference, the Pressman rulebook)",
    )
    p.add_argument(
        "--joker-penalty",
        type=int,
        default=DEFAULT_RULES.joker_penalty,
        help=f"points a joker left on a rack costs (default {DEFAULT_RULES.joker_penalty})",
    )
    p.add_argument(
        "--twist", action="store_true",
        help="Rummikub Twist: racks may hold the special jokers JD, JM, JC (each costs the joker penalty)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=run)


def parse_players(specs: list[str], twist: bool = False) -> dict[str, list[Tile]]:
    racks: dict[str, list[Tile]] = {}
    for spec in specs:
        name, sep, tiles = spec.partition("=")
        name = name.strip()
        if not sep:
            raise BadInput(f'--player {spec!r}: write NAME="TILES", e.g. dana="K5 R7" (an empty rack: lior=)')
        if not name:
            raise BadInput(f"--player {spec!r}: the name before '=' is empty")
        twin = next((other for other in racks if other.casefold() == name.casefold()), None)
        if twin is not None:
            raise BadInput(f"--player {name!r} is given twice" + (f" (as {twin!r})" if twin != name else ""))
        try:
            racks[name] = parse_tiles(tiles, twist=twist)
        except NotationError as exc:
            raise BadInput(f"--player {name}: {exc}") from exc
    return racks


def run(args: argparse.Namespace) -> int:
    if args.joker_penalty < 0:
        raise BadInput(f"--joker-penalty must be 0 or more, got {args.joker_penalty}")
    racks = parse_players(args.player, twist=args.twist)
    if not racks:
        raise BadInput('give each player\'s rack with --player NAME="TILES"')
    problems = check_supply(*racks.values())
    if problems:
        raise BadInput("more tiles than a full set has: " + "; ".join(problems))
    rules = DEFAULT_RULES.with_(joker_penalty=args.joker_penalty, exhausted_scoring=args.exhausted_scoring)
    if args.exhausted and args.winner is not None:
        raise BadInput("--exhausted: the lowest rack wins, so leave out --winner")
    if not args.exhausted and args.winner is None:
        raise BadInput("name the player who went out with --winner NAME (or use --exhausted)")
    if len(racks) < 2:
        raise BadInput(f"a round needs at least two players, got only {next(iter(racks))!r}: give each with --player")
    if args.exhausted:
        winners = exhausted_winners(racks, rules)
        scores = score_round(racks, None, rules, exhausted=True)
    else:
        if not args.winner.strip():
            raise BadInput("--winner: the name is empty")
        try:
            winner = resolve_player(args.winner.strip(), racks)
        except ValueError as exc:
            raise BadInput(f"--winner: {exc} (give the player who went out as --player NAME=)") from None
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
