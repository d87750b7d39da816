"""Capture the engine's English reason texts as a golden file (run once before the reason codes
existed: ``python tests/engine/data/make_reasons_golden.py tests/engine/data/reasons_golden.json``).
Not a test; ``tests/engine/test_reasons.py`` reads the file it wrote."""
import inspect, json, random, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from engine.rules import DEFAULT_RULES, HouseRules
from engine.sets import analyse_set
from engine.initial import check_initial_meld
from engine.tiles import ALL_FACES, JOKER, format_tiles, parse_melds, parse_tiles, over_supply
import engine.turns as turns_mod

rng = random.Random(1234)
pool = list(ALL_FACES) * 2 + [JOKER] * 2
out = {"sets": [], "initial": [], "turns": [], "supply": [], "cards": [], "declare": [], "redeal": []}

def rules_of(flags):
    return DEFAULT_RULES.with_(**flags)

curated = ["R7 R7 B7", "K7 B7 R7 O7 J", "O12 O13 O1", "J J J", "R5 R6", "", "R7 B8 K9", "R3 R4 R4",
           "R7 R7 J", "R3 R5 R9", "R3 J R9", "O13 J O2", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J",
           "O1 O5 O13", "O1 O2 O9", "J", "J J", "K1", "K7 R7 B7 O7 K7"]
seen = set()
for wrap in (False, True):
    for text in curated:
        out["sets"].append({"tiles": text, "wrap": wrap, "reason": analyse_set(parse_tiles(text), rules_of({"wrap_around": wrap})).reason})
    for _ in range(500):
        n = rng.choice([0, 1, 2, 3, 3, 4, 4, 5, 6, 14])
        # bias: same colour or same number often
        mode = rng.random()
        if mode < 0.4:
            c = rng.choice("KRBO"); tiles = [rng.choice([t for t in pool if t.is_joker or t.colour == c]) for _ in range(n)]
        elif mode < 0.7:
            k = rng.randint(1, 13); tiles = [rng.choice([t for t in pool if t.is_joker or t.number == k]) for _ in range(n)]
        else:
            tiles = rng.sample(pool, n)
        text = format_tiles(tiles)
        r = analyse_set(tiles, rules_of({"wrap_around": wrap})).reason
        if r is None or (text, wrap) in seen: continue
        seen.add((text, wrap))
        out["sets"].append({"tiles": text, "wrap": wrap, "reason": r})

# initial melds
for text in ["", "R10 R11 R12", "K2 R2 B2 | K3 R3 B3", "R7 R7 B7 | R10 R11 R12", "R7 R7 B7 | R1 R2 | K1 K2 K3", "J J O5"]:
    m = check_initial_meld(parse_melds(text))
    out["initial"].append({"melds": text, "threshold": 30, "reason": m.reason})
for _ in range(300):
    melds = []
    for _ in range(rng.randint(0, 3)):
        melds.append(rng.sample(pool, rng.randint(2, 4)) if rng.random() < 0.3 else list(rng.choice([s for s in [parse_tiles(x) for x in ["R1 R2 R3", "K5 R5 B5", "O9 O10 O11 O12", "J K7 K8", "B12 B13 J"]]])))
    th = rng.choice([0, 20, 30, 50])
    m = check_initial_meld(melds, DEFAULT_RULES.with_(initial_meld=th))
    out["initial"].append({"melds": " | ".join(format_tiles(x) for x in melds), "threshold": th, "reason": m.reason})

# turns: every call the turn tests make, then random ones
import importlib
sys.path.insert(0, str(ROOT / "tests" / "engine"))
tt = importlib.import_module("test_turns")
real = turns_mod.validate_turn
def spy(before, rack, after, rules=DEFAULT_RULES, opened=True):
    res = real(before, rack, after, rules, opened)
    out["turns"].append({"before": " | ".join(format_tiles(s) for s in before if len(s)), "rack": format_tiles(rack),
                         "after": " | ".join(format_tiles(s) for s in after if len(s)),
                         "rules": {"opening_additions": rules.opening_additions, "joker_reuse": rules.joker_reuse, "wrap_around": rules.wrap_around, "initial_meld": rules.initial_meld},
                         "opened": opened, "violations": [[v.code, v.message] for v in res.violations]})
    return res
tt.validate_turn = spy
for name, fn in inspect.getmembers(tt, inspect.isfunction):
    if name.startswith("test_") and not inspect.signature(fn).parameters:
        try: fn()
        except Exception as e: print("skip", name, e)
tables = ["R1 R2 R3", "K5 R5 J", "K5 J K7", "B9 B10 J B12", "K5 R5 B5 J", "R4 R5 R6 R7", "K3 K4 K5 | O3 B3 R3"]
for _ in range(120):
    before = parse_melds(rng.choice(tables))
    rack = rng.sample(pool, rng.randint(0, 5))
    tiles = [t for s in before for t in s] + rng.sample(rack, rng.randint(0, len(rack)))
    if rng.random() < 0.2: tiles = tiles[:-1]
    if rng.random() < 0.1: tiles.append(rng.choice(pool))
    rng.shuffle(tiles)
    after, i = [], 0
    while i < len(tiles):
        k = rng.randint(2, 4); after.append(tiles[i:i+k]); i += k
    rules = DEFAULT_RULES.with_(opening_additions=rng.random() < 0.3, joker_reuse=rng.choice(["new_meld_with_rack", "anywhere"]))
    spy(before, rack, after, rules, rng.random() < 0.7)
    # sorted-within-meld variant gives more valid sets
    spy(before, rack, [sorted(s, key=lambda t: (t.is_joker, t.sort_key if not t.is_joker else (0, 0))) for s in after], rules, rng.random() < 0.7)

for _ in range(100):
    tiles = rng.choices(pool, k=rng.randint(1, 12)) + [JOKER] * rng.randint(0, 3)
    out["supply"].append({"tiles": format_tiles(tiles), "problems": over_supply(tiles)})

# cards
from engine.cards import check_series, parse_card_melds, parse_cards, format_cards, rules_for, declare_check, redeal_check
from engine.cards.cards import Card
cpool = [c for m in parse_card_melds("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC * *") for c in m]
for game in ("closed", "classic"):
    for ace in (False, True):
        rules = rules_for(game, ace)
        for _ in range(200):
            n = rng.choice([1, 2, 3, 3, 4, 4, 5, 14])
            mode = rng.random()
            if mode < 0.4:
                s = rng.choice("SHDC"); cards = [rng.choice([c for c in cpool if c.is_joker or c.suit == s]) for _ in range(n)]
            elif mode < 0.7:
                r = rng.choice([c.rank for c in cpool if not c.is_joker]); cards = [rng.choice([c for c in cpool if c.is_joker or c.rank == r]) for _ in range(n)]
            else:
                cards = rng.choices(cpool, k=n)
            chk = check_series(cards, rules)
            if chk.reason:
                out["cards"].append({"cards": format_cards(cards), "game": game, "ace_high": ace, "reason": chk.reason})
for _ in range(60):
    game = rng.choice(["closed", "classic"]); rules = rules_for(game, False)
    n = 14 if game == "closed" else rng.randint(3, 10)
    hand = rng.sample(cpool, n)
    cut = rng.choice(cpool) if game == "closed" and rng.random() < 0.3 else None
    try:
        d = declare_check(hand, rules, cut=cut)
    except ValueError as e:
        continue
    out["declare"].append({"hand": format_cards(hand), "game": game, "cut": cut.code if cut else None, "reason": d.reason})
for _ in range(60):
    hand = rng.sample(cpool[:26], 7) * 2
    d = redeal_check(hand[:14], rules_for("closed", False))
    out["redeal"].append({"hand": format_cards(hand[:14]), "reasons": list(d.reasons)})
json.dump(out, open(sys.argv[1], "w"), separators=(",", ":"))
print({k: len(v) for k, v in out.items()})
from collections import Counter
print(Counter(v[0] for t in out["turns"] for v in t["violations"]))
