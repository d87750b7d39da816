"""``rummi cards ...``: rummy with playing cards (Israeli closed rummy, classic Rummy).

Cards: rank ``A 2..10 J Q K`` + suit ``S H D C`` (``10H``, ``QS``, ``AD``), ``*`` a joker;
series separated by ``|``. Every action takes ``--game closed|classic`` (closed by default) and
``--ace-high`` (Q-K-A allowed; K-A-2 never), and ``--json``.

* ``rummi cards check "7H 8H 9H | QS QD QC *"``: each series valid or not and why, its value
  (card points: 2-10 their number, J Q K 10, ace 1, a joker the card it stands for), the total of
  the valid ones. Exit 0 all valid, 1 any invalid. JSON, as ``rummi check --json``::

      {"melds": [{"codes": [...], "valid": true, "kind": "run", "value": 24, "reason": null,
                  "jokers": {"3": ["QH"]}, "resolved": [...], "interpretations": [[...]]}],
       "total": 64, "game": "closed", "over_supply": []}

* ``rummi cards declare HAND [--cut CARD]``: can the hand go out? Exit 0 yes, 1 no. JSON::

      {"declare": true, "series": [["7H", "8H", "9H"], ...], "discard": "KS", "kinds": [...],
       "resolved": [...], "discards": [...], "cut": null, "reason": null}

  (``discard`` null when none is needed: a 14-card closed hand, or a classic hand that melds
  whole). Closed game: 14 or 15 cards, 14 with ``--cut``.
* ``rummi cards score --player shir="KS 3D" --player idan="QH JD 2C" --winner roni [--rummy]
  [--entry 1]``: the round's scores. Classic: the winner scores the others' hand values (35 here,
  doubled with ``--rummy``), the others 0. Closed: played for a pot: each player puts ``--entry``
  coins in (default 1), the declarer takes the pot (+2 here), the others -1; ``--winner`` given
  more than once is a tie, which returns every entry (all 0). The winner is one of the
  ``--player`` names (matched ignoring case) or the player who went out with no cards left.
  JSON: ``{"scores": {"shir": 0, "idan": 0, "roni": 35}, "hands": {"shir": 13, ...},
  "game": "classic", "winners": ["roni"], "pot": null, "entry": null}`` (closed: ``pot`` and
  ``entry`` in coins; ``scores`` are then the coin changes).
* ``rummi cards redeal HAND``: after the deal (closed game): three pairs of identical cards, or
  nine cards already in series, mean a redeal. Exit 1 if the hand must be redealt, 0 if it
  stands. JSON: ``{"redeal": false, "reasons": [], "pairs": [...], "series": [[...]],
  "in_series": 7}``.

Bad input (unreadable cards, wrong hand size, more copies than the pack has) exits 2.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from app.errors import EXIT_INVALID, EXIT_OK, BadInput
from engine.cards import (
    GAMES,
    check_series,
    declare_check,
    format_cards,
    CardNotationError,
    hand_points,
    over_supply,
    parse_card,
    parse_card_melds,
    parse_cards,
    pot_scores,
    redeal_check,
    round_scores,
    rules_for,
)
from engine.cards.declare import describe


def _common(p: argparse.ArgumentParser, game: bool = True) -> None:
    if game:
        p.add_argument("--game", choices=GAMES, default="closed", help="closed (default) or classic rummy")
    p.add_argument("--ace-high", action="store_true", help="house rule: the ace may rank above the king (Q-K-A)")
    p.add_argument("--json", action="store_true", help="print JSON")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "cards",
        help="rummy with playing cards: check series, declare, redeal, score",
        description="Israeli closed rummy (two decks + 2 jokers) and classic Rummy (one deck). "
        'Cards like 10H QS AD, * a joker; series separated by "|".',
    )
    sub = p.add_subparsers(dest="cards_command", metavar="ACTION")
    sub.required = True

    c = sub.add_parser("check", help="is each series valid? values and jokers")
    c.add_argument("melds", help='series, e.g. "7H 8H 9H | QS QD QC *"')
    _common(c)
    c.set_defaults(handler=run_check)

    d = sub.add_parser("declare", help="can this hand go out? the split and the discard")
    d.add_argument("hand", help='the hand, e.g. "7H 8H 9H QS QD QC ..."')
    d.add_argument("--cut", help="the visible cut card, taken as the closing move (closed game)")
    _common(d)
    d.set_defaults(handler=run_declare)

    s = sub.add_parser("score", help="a round's scores")
    s.add_argument(
        "--player", action="append", default=[], metavar='NAME="CARDS"',
        help='a player and the cards left in their hand (repeat for each player)',
    )
    s.add_argument(
        "--winner", required=True, action="append",
        help="the player who went out (closed game: give it twice or more for a tie)",
    )
    s.add_argument("--rummy", action="store_true", help="classic house rule: went out in one turn, double score")
    s.add_argument("--entry", type=int, default=1, help="closed game: coins each player puts into the pot (default 1)")
    _common(s)
    s.set_defaults(handler=run_score)

    r = sub.add_parser("redeal", help="must this freshly dealt closed-rummy hand be redealt?")
    r.add_argument("hand", help="the 14 (or 15) cards just dealt")
    _common(r, game=False)
    r.set_defaults(handler=run_redeal)


def _print_json(payload: dict[str, Any]) -> None:
    print(json.dumps(payload, ensure_ascii=False))


def run_check(args: argparse.Namespace) -> int:
    rules = rules_for(args.game, args.ace_high)
    melds = parse_card_melds(args.melds)
    if not melds:
        raise BadInput('no series given: write cards like "7H 8H 9H | QS QD QC *"')
    problems = over_supply([c for m in melds for c in m], rules)
    if problems:
        raise BadInput("more cards than the pack has: " + "; ".join(problems))
    checks = [check_series(m, rules) for m in melds]
    total = sum(c.value for c in checks if c.valid)
    if args.json:
        _print_json(
            {"melds": [c.to_json() for c in checks], "total": total, "game": rules.game, "over_supply": problems}
        )
    else:
        for i, c in enumerate(checks, start=1):
            written = format_cards(c.cards)
            if not c.valid:
                print(f"{i}. {written}: INVALID - {c.reason}")
                continue
            print(f"{i}. {written}: valid {c.kind}, {c.value} points")
            if c.jokers:
                print(f"   reads as {format_cards(c.resolved)}")
                for pos, cards in c.jokers.items():
                    others = ", ".join(x.code for x in cards[1:])
                    also = f" (could also be {others})" if others else ""
                    print(f"   joker at position {pos + 1} = {cards[0].code}{also}")
        print(f"total: {total} points")
    return EXIT_OK if all(c.valid for c in checks) else EXIT_INVALID


def run_declare(args: argparse.Namespace) -> int:
    rules = rules_for(args.game, args.ace_high)
    hand = parse_cards(args.hand)
    try:
        cut = parse_card(args.cut) if args.cut is not None else None
    except CardNotationError as exc:
        raise BadInput(f"--cut {exc}") from None
    answer = declare_check(hand, rules, cut=cut)
    if args.json:
        _print_json(answer.to_json())
    else:
        print(describe(answer))
    return EXIT_OK if answer.declare else EXIT_INVALID


def _player(spec: str) -> tuple[str, str]:
    name, sep, cards = spec.partition("=")
    name = name.strip()
    if not sep or not name:
        raise BadInput(f'--player {spec!r}: write NAME="CARDS", like shir="KS 3D"')
    return name, cards


def _name(name: str, players: dict[str, list]) -> str:
    same = [p for p in players if p.casefold() == name.casefold()]
    return same[0] if name not in players and len(same) == 1 else name


def run_score(args: argparse.Namespace) -> int:
    if args.entry < 1:
        raise BadInput(f"--entry must be 1 coin or more, got {args.entry}")
    rules = rules_for(args.game, args.ace_high, args.entry)
    hands: dict[str, list] = {}
    for spec in args.player:
        name, text = _player(spec)
        if any(other.casefold() == name.casefold() for other in hands):
            raise BadInput(f"--player {name} is given twice")
        try:
            hands[name] = parse_cards(text)
        except CardNotationError as exc:
            raise BadInput(f"--player {name}: {exc}") from None
    winners = list(dict.fromkeys(_name(w.strip(), hands) for w in args.winner))
    if any(not w for w in winners):
        raise BadInput("--winner: the name is empty")
    if len(winners) > 1 and rules.game != "closed":
        raise BadInput("--winner given more than once: a tie is for the closed game's pot; classic has one winner")
    points = {name: hand_points(cards, rules) for name, cards in hands.items()}
    if len(winners) > 1:
        players = list(hands) + [w for w in winners if w not in hands]
        scores = pot_scores(players, winners, rules.entry)
    else:
        scores = round_scores(hands, winners[0], rules, rummy=args.rummy)
    for name in scores:
        points.setdefault(name, 0)
    closed = rules.game == "closed"
    if args.json:
        _print_json(
            {
                "scores": scores,
                "hands": points,
                "game": rules.game,
                "winners": winners,
                "pot": rules.entry * len(scores) if closed else None,
                "entry": rules.entry if closed else None,
            }
        )
    else:
        if closed:
            print(f"pot: {rules.entry * len(scores)} coin(s), {rules.entry} from each player" + (" - a tie: every entry goes back" if len(winners) > 1 else ""))
        unit = " coin(s)" if closed else ""
        for name, score in scores.items():
            note = " (went out)" if name in winners else f" (hand {points[name]})"
            print(f"{name}: {score:+d}{unit}{note}")
    return EXIT_OK


def run_redeal(args: argparse.Namespace) -> int:
    rules = rules_for("closed", args.ace_high)
    answer = redeal_check(parse_cards(args.hand), rules)
    if args.json:
        _print_json(answer.to_json())
    else:
        if answer.redeal:
            print("redeal: " + "; ".join(answer.reasons))
        else:
            print(f"the hand stands: {len(answer.pairs)} pair(s), {answer.in_series} card(s) in series")
        for s in answer.series:
            print(f"  {s.kind:5} {format_cards(s.cards)}")
    return EXIT_INVALID if answer.redeal else EXIT_OK
