"""Scene layouts people actually photograph: melds in rows, racks, loose tiles, a mix, or nothing.

A scene is drawn from one box of tiles (``Pool``): the base game's, or a Rummikub Twist box, which also
holds one of each special joker (``JD``, ``JM``, ``JC``). In a Twist box's scenes those jokers lie among the
loose tiles and on racks like any tile, and now and then a meld is laid with one, the way the Twist rules
use it (``engine/sets.py``).
"""

from __future__ import annotations

import numpy as np

from engine.tiles import COLOURS, TWIST_CODES

from .scene import TILE_H, TILE_T, TILE_W, Poly3D, Scene, box_polys, flat_tile, standing_tile

KINDS = ("table", "rack", "loose", "mix", "empty")
# In a Twist box's table, the chance that a meld is laid with one of the special jokers still in the box:
# about half of the specials of such a table end up in its melds, the rest among the loose tiles.
SPECIAL_IN_MELD = 0.3


class Pool:
    """The tiles left in one full set (106 tiles; a Twist box 109): a photo never shows a third copy, nor a
    second of a special joker."""

    def __init__(self, rng: np.random.Generator, twist: bool = False) -> None:
        self.rng = rng
        self.twist = twist
        self.left: dict[str, int] = {f"{c}{n}": 2 for c in COLOURS for n in range(1, 14)}
        self.left["J"] = 2
        if twist:
            self.left.update({code: 1 for code in TWIST_CODES})

    def take(self, code: str) -> bool:
        if self.left.get(code, 0) > 0:
            self.left[code] -= 1
            return True
        return False

    def random(self) -> str | None:
        codes = [c for c, n in self.left.items() for _ in range(n)]
        if not codes:
            return None
        code = codes[int(self.rng.integers(len(codes)))]
        self.left[code] -= 1
        return code


def _run(rng: np.random.Generator, pool: Pool) -> list[str] | None:
    length = int(rng.choice([3, 3, 3, 4, 4, 5, 6, 7]))
    colour = COLOURS[int(rng.integers(4))]
    start = int(rng.integers(1, 15 - length))
    codes = [f"{colour}{n}" for n in range(start, start + length)]
    if rng.random() < 0.25:
        codes[int(rng.integers(length))] = "J"
    taken = []
    for c in codes:
        if not pool.take(c):
            for t in taken:
                pool.left[t] += 1
            return None
        taken.append(c)
    return codes


def _group(rng: np.random.Generator, pool: Pool) -> list[str] | None:
    n = int(rng.integers(1, 14))
    size = 3 if rng.random() < 0.6 else 4
    colours = list(rng.permutation(COLOURS)[:size])
    codes = [f"{c}{n}" for c in colours]
    if rng.random() < 0.2:
        codes[int(rng.integers(size))] = "J"
    taken = []
    for c in codes:
        if not pool.take(c):
            for t in taken:
                pool.left[t] += 1
            return None
        taken.append(c)
    return codes


def _swap(pool: Pool, give_back: list[str], take: list[str]) -> bool:
    """Put ``give_back`` back in the box and take ``take`` out of it; False (the box unchanged) if it lacks one."""
    for c in give_back:
        pool.left[c] += 1
    taken = []
    for c in take:
        if not pool.take(c):
            for t in taken:
                pool.left[t] += 1
            for c2 in give_back:
                pool.left[c2] -= 1
            return False
        taken.append(c)
    return True


def _with_special(codes: list[str], rng: np.random.Generator, pool: Pool) -> list[str]:
    """``codes`` (a run or a group already taken from ``pool``) laid with a special joker still in the box, as
    the Twist rules use it: the Double Joker for two neighbouring tiles, the Colour-change Joker inside a run
    whose tiles after it take another colour, the Mirror Joker between a side and its mirror image. The meld as
    it was where the box cannot give what that needs."""
    faces = [c for c in codes if c != "J"]
    is_run = len({c[0] for c in faces}) == 1 and len({c[1:] for c in faces}) == len(faces) > 1
    for special in rng.permutation([c for c in TWIST_CODES if pool.left.get(c, 0) > 0]):
        if special == "JD" and len(codes) >= 4:
            k = int(rng.integers(len(codes) - 1))
            if _swap(pool, codes[k : k + 2], ["JD"]):
                return codes[:k] + ["JD"] + codes[k + 2 :]
        elif special == "JC" and is_run and len(codes) >= 3:
            k = int(rng.integers(1, len(codes) - 1))
            colour = str(rng.choice([c for c in COLOURS if c != faces[0][0]]))
            after = [c if c == "J" else colour + c[1:] for c in codes[k + 1 :]]
            if _swap(pool, codes[k:], ["JC"] + [c for c in after if c != "J"] + ["J"] * after.count("J")):
                return codes[:k] + ["JC"] + after
        elif special == "JM":
            side = codes[: int(rng.integers(1, min(3, len(codes)) + 1))]
            if _swap(pool, codes[len(side) :], ["JM"] + side):
                return side + ["JM"] + side[::-1]
    return codes


def random_meld(rng: np.random.Generator, pool: Pool) -> list[str]:
    """A meld as players lay it out: mostly valid, sometimes a mistake worth flagging; from a Twist box, now
    and then with a special joker."""
    for _ in range(20):
        r = rng.random()
        if r < 0.08:  # an invalid meld: random tiles
            codes = [c for c in (pool.random() for _ in range(int(rng.integers(2, 5)))) if c]
        elif r < 0.54:
            codes = _run(rng, pool)
        else:
            codes = _group(rng, pool)
        if codes and r >= 0.08 and pool.twist and rng.random() < SPECIAL_IN_MELD:
            codes = _with_special(codes, rng, pool)
        if codes:
            return codes
    return [c for c in (pool.random() for _ in range(3)) if c]


_LOCAL = np.array([[-TILE_W / 2, TILE_H / 2], [TILE_W / 2, TILE_H / 2], [TILE_W / 2, -TILE_H / 2], [-TILE_W / 2, -TILE_H / 2]])
_REACH = float(np.hypot(TILE_W, TILE_H))  # centres further apart than this can't touch


def _quads(cx: np.ndarray, cy: np.ndarray, angles_deg: np.ndarray) -> np.ndarray:
    """Footprints (n, 4, 2) of flat tiles, corners as `flat_tile` lays them."""
    a = np.radians(angles_deg)
    c, s = np.cos(a)[:, None], np.sin(a)[:, None]
    x = _LOCAL[None, :, 0] * c - _LOCAL[None, :, 1] * s
    y = _LOCAL[None, :, 0] * s + _LOCAL[None, :, 1] * c
    return np.stack([x + cx[:, None], y + cy[:, None]], axis=-1)


def _axes(poly: np.ndarray) -> np.ndarray:  # (..., 2, 2): unit normals of two adjacent edges of rectangles
    e = np.stack([poly[..., 1, :] - poly[..., 0, :], poly[..., 2, :] - poly[..., 1, :]], axis=-2)
    return e / np.linalg.norm(e, axis=-1, keepdims=True)


def _gaps(q: np.ndarray, o: np.ndarray) -> np.ndarray:
    """Separating-axis gaps (mm) between rectangles q (n, 4, 2) and o (m, 4, 2), shape (n, m): negative
    when two overlap, otherwise a lower bound on their distance (enough for a clearance check)."""
    if len(q) == 0 or len(o) == 0:
        return np.zeros((len(q), len(o)))
    aq, ao = _axes(q), _axes(o)
    pq = np.einsum("nkd,nad->nka", q, aq)  # q on its own axes (n, 4, 2)
    po = np.einsum("mkd,nad->nmka", o, aq)  # o on q's axes (n, m, 4, 2)
    g1 = np.maximum(po.min(2) - pq.max(1)[:, None], pq.min(1)[:, None] - po.max(2)).max(-1)
    po2 = np.einsum("mkd,mad->mka", o, ao)  # o on its own axes (m, 4, 2)
    pq2 = np.einsum("nkd,mad->nmka", q, ao)  # q on o's axes (n, m, 4, 2)
    g2 = np.maximum(pq2.min(2) - po2.max(1)[None], po2.min(1)[None] - pq2.max(2)).max(-1)
    return np.maximum(g1, g2)


def _clear(q: np.ndarray, placed: np.ndarray | list[np.ndarray], clearance: float) -> bool:
    """Whether footprint q (4, 2) keeps ``clearance`` mm from every footprint of ``placed`` (m, 4, 2)."""
    if len(placed) == 0:
        return True
    placed = np.asarray(placed)
    d = placed.mean(1) - q.mean(0)
    d2 = np.einsum("md,md->m", d, d)
    if d2.min() < (TILE_W + clearance) ** 2:  # the tiles' inscribed circles meet: no need to look closer
        return False
    near = d2 < (_REACH + clearance) ** 2
    return not near.any() or bool(_gaps(q[None], placed[near]).min() >= clearance)


def _meld_tiles(x0: float, y: float, ra: float, ma: float, bend: float, jitter: np.ndarray, steps: np.ndarray,
                angles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tile centres of a meld starting at x0 along its row: the meld turns about its own first tile, the
    row (its start, and its bend) about the row's start."""
    d = np.concatenate([[0.0], np.cumsum(steps[:-1])])
    cx = x0 * np.cos(ra) + d * np.cos(ma) + jitter[:, 0]
    cy = y + x0 * np.sin(ra) + d * np.sin(ma) + bend * (x0 + d) ** 2 + jitter[:, 1]
    return cx, cy


def _place_meld(x: float, y: float, ra: float, ma: float, bend: float, jitter: np.ndarray, steps: np.ndarray,
                angles: np.ndarray, in_row: float, near_row: float, row: int, placed: list[np.ndarray],
                placed_row: list[int]) -> tuple[float, float]:
    """Where a meld goes so none of its tiles overlaps another (a tile of its own meld may touch its
    neighbour, one of another meld of its row keeps ``in_row`` mm away, one of another row ``near_row``): returns its start along the row and how
    far down (-y) it was pushed. Opens its own joints first (``steps`` is widened in place), then slides it
    along its row while it runs into the meld before it, and down while it runs into a row above."""
    n = len(steps)
    for _ in range(40):  # jitter and spin may make neighbours overlap a little: open the joint
        q = _quads(*_meld_tiles(x, y, ra, ma, bend, jitter, steps, angles), angles)
        tight = np.diagonal(_gaps(q[:-1], q[1:])) < 0.05
        if not tight.any():
            break
        steps[:-1][tight] += 0.25
    if not placed:
        return x, 0.0
    others = np.asarray(placed)
    centres = others.mean(1)
    rows = np.asarray(placed_row)
    need = np.where(rows == row, in_row, near_row)
    clearance = max(in_row, near_row)

    def hits(x0: float, dy: float) -> np.ndarray:
        cx, cy = _meld_tiles(x0, y + dy, ra, ma, bend, jitter, steps, angles)
        near = ((centres[:, 0] > cx.min() - _REACH - clearance) & (centres[:, 0] < cx.max() + _REACH + clearance)
                & (centres[:, 1] > cy.min() - _REACH - clearance) & (centres[:, 1] < cy.max() + _REACH + clearance))
        hit = np.zeros(len(others), bool)
        if near.any():
            idx = np.flatnonzero(near)
            hit[idx] = (_gaps(_quads(cx, cy, angles), others[idx]) < need[idx]).any(0)
        return hit

    dy, step = 0.0, 2.0
    last = None
    for _ in range(300):
        hit = hits(x, dy)
        if not hit.any():
            if last is not None:  # back off the last step as far as it stays clear
                lo = 0.0
                for _b in range(3):
                    mid = (lo + step) / 2
                    tx, tdy = (x - (step - mid), dy) if last == "x" else (x, dy + (step - mid))
                    if not hits(tx, tdy).any():
                        x, dy, step = tx, tdy, mid
                    else:
                        lo = mid
            return x, dy
        if (rows[hit] == row).any():
            x, last = x + step, "x"
        else:
            dy, last = dy - step, "y"
        step = 2.0
    # give up nudging: lay it clear below everything
    q = _quads(*_meld_tiles(x, y, ra, ma, bend, jitter, steps, angles), angles)
    return x, float(others[..., 1].min() - q[..., 1].max() - clearance - 1.0)


def table_scene(rng: np.random.Generator, pool: Pool | None = None, n_tiles: int | None = None) -> Scene:
    pool = pool or Pool(rng)
    target = n_tiles or int(6 + 54 * rng.random() ** 1.6)
    scene = Scene("table")
    rows: list[list[list[str]]] = []
    count = 0
    max_row = int(rng.integers(8, 22))
    while count < target:
        meld = random_meld(rng, pool)
        if not rows or sum(len(m) for m in rows[-1]) + len(meld) > max_row:
            rows.append([])
        rows[-1].append(meld)
        count += len(meld)
    flip_all = rng.random() < 0.15  # laid out for the player across the table
    meld_id = 0
    y = 0.0
    row_gap = rng.uniform(4, 30)
    placed: list[np.ndarray] = []  # footprints (4, 2) of the tiles laid so far
    placed_row: list[int] = []
    for r_i, row in enumerate(rows):
        x = rng.uniform(-10, 10)
        row_angle = rng.normal(0, 3) if rng.random() < 0.7 else rng.normal(0, 8)
        bend = rng.normal(0, 0.00012) if rng.random() < 0.5 else 0.0
        flip_row = flip_all or rng.random() < 0.05
        base = 180.0 if flip_row else 0.0
        ra = np.radians(row_angle)
        lead = TILE_W
        for meld in row:
            meld_angle = row_angle + rng.normal(0, 1.5)
            tight = rng.uniform(0.0, 1.2)
            n = len(meld)
            jitter = rng.normal(0, 0.4, (n, 2))
            steps = TILE_W + np.abs(rng.normal(tight, 0.4, n))
            spins = rng.normal(0, 1.2, n)
            # how close a meld that had to be nudged ends up to the others: now and then nearly touching (a
            # few mm), mostly about the spacing the rows and melds were laid with
            near_row = rng.uniform(0.5, 3.0) if rng.random() < 0.3 else rng.uniform(3.0, max(6.0, row_gap))
            in_row = max(0.5, lead * rng.uniform(0.5, 1.0))
            x0, dy = _place_meld(x, y, ra, np.radians(meld_angle), bend, jitter, steps, meld_angle + spins,
                                 in_row, near_row, r_i, placed, placed_row)
            y += dy  # a meld pushed down takes the rest of its row (and the rows below) with it
            cxs, cys = _meld_tiles(x0, y, ra, np.radians(meld_angle), bend, jitter, steps, spins)
            for k, code in enumerate(meld):
                tile = flat_tile(code, float(cxs[k]), float(cys[k]), base + meld_angle + float(spins[k]), meld=meld_id, order=k, true_code=code)
                scene.tiles.append(tile)
                placed.append(tile.face[:, :2].copy())
                placed_row.append(r_i)
            x = x0 + float(steps.sum())
            scene.melds.append(meld)
            meld_id += 1
            lead = rng.uniform(0.35, 1.8) * TILE_W
            x += lead
        y -= TILE_H + row_gap + rng.uniform(-3, 8)
    # a stray tile or two
    for _ in range(int(rng.choice([0, 0, 1, 2]))):
        code = pool.random()
        if code:
            xs = [t.face[:, 0].mean() for t in scene.tiles]
            ys = [t.face[:, 1].mean() for t in scene.tiles]
            for _attempt in range(20):
                cx = rng.uniform(min(xs) - 40, max(xs) + 40)
                cy = rng.choice([min(ys) - TILE_H - rng.uniform(10, 40), max(ys) + TILE_H + rng.uniform(10, 40)])
                tile = flat_tile(code, cx, cy, rng.uniform(0, 360) if rng.random() < 0.5 else rng.normal(0, 8), true_code=code)
                if _clear(tile.face[:, :2], placed, 1.0):
                    scene.tiles.append(tile)
                    placed.append(tile.face[:, :2].copy())
                    break
            else:
                pool.left[code] += 1  # no free spot: it stays in the box
    _centre(scene)
    if flip_all:
        scene.view = "table-flipped"
    return scene


def loose_scene(rng: np.random.Generator, pool: Pool | None = None, n_tiles: int | None = None, origin: tuple[float, float] = (0, 0), spread: float | None = None, avoid: list[np.ndarray] | None = None) -> Scene:
    """Tiles scattered face up or down; none lies on another (nor on a tile of ``avoid``, footprints
    (4, 2) already on the table): a crowded spread spills a little wider, and a tile still with no free spot goes back to the pool."""
    pool = pool or Pool(rng)
    n = n_tiles or int(6 + 34 * rng.random() ** 1.4)
    scene = Scene("loose")
    spread = spread or np.sqrt(n) * rng.uniform(35, 70)
    placed = np.asarray(avoid, float).reshape(-1, 4, 2) if avoid else np.zeros((0, 4, 2))
    upright_bias = rng.random() < 0.5
    for _ in range(n):
        code = pool.random()
        if code is None:
            break
        face_down = rng.random() < 0.15
        angle = rng.normal(0, 15) if upright_bias and rng.random() < 0.6 else rng.uniform(0, 360)
        for attempt in range(60):
            room = spread * (1.0 if attempt < 20 else 1.0 + (attempt - 19) * 0.03)  # crowded: spill a little wider
            cx, cy = origin[0] + rng.uniform(0, room), origin[1] + rng.uniform(0, room * 0.75)
            tile = flat_tile(None if face_down else code, cx, cy, angle, true_code=code)
            if _clear(tile.face[:, :2], placed, 1.0):
                break
        else:
            pool.left[code] += 1
            continue
        placed = np.concatenate([placed, tile.face[None, :, :2]])
        scene.tiles.append(tile)
    _centre(scene)
    return scene


RACK_COLOURS = [(22, 22, 24), (30, 30, 34), (120, 80, 45), (150, 150, 150), (205, 190, 160), (40, 60, 120)]


def rack_scene(rng: np.random.Generator, pool: Pool | None = None) -> Scene:
    pool = pool or Pool(rng)
    scene = Scene("rack")
    tiers = 2 if rng.random() < 0.8 else 1
    slots = int(rng.integers(14, 20))
    length = slots * (TILE_W + 0.5) + 20
    colour = RACK_COLOURS[int(rng.integers(len(RACK_COLOURS)))] if rng.random() < 0.5 else RACK_COLOURS[0]
    colour = tuple(float(c) for c in np.clip(np.asarray(colour) + rng.normal(0, 6, 3), 0, 255))
    lean = rng.uniform(8, 22)
    ledge_h = 12.0
    tier_rise = TILE_H * rng.uniform(0.62, 1.05)  # low rises hide the back tier's lower part behind the front tiles
    depth = 22.0
    # back panel
    top = ledge_h + tiers * tier_rise + 6
    lam = np.radians(lean)
    back_y = depth * tiers + 6
    scene.polys.append(Poly3D(np.array([[0, back_y, 0], [length, back_y, 0], [length, back_y + top * np.sin(lam), top], [0, back_y + top * np.sin(lam), top]]), colour, 0.9))
    n_total = 0
    p_flip = 0.0 if rng.random() < 0.6 else rng.uniform(0.02, 0.15)  # tiles put on the rack upside down
    for tier in reversed(range(tiers)):  # the back tier first (drawn first)
        y0 = tier * depth
        z0 = ledge_h + tier * tier_rise
        # the sloping board behind this tier's tiles
        scene.polys.append(Poly3D(np.array([[0, y0 + 8, z0 - ledge_h], [length, y0 + 8, z0 - ledge_h], [length, y0 + 8 + tier_rise * np.sin(lam), z0 + tier_rise], [0, y0 + 8 + tier_rise * np.sin(lam), z0 + tier_rise]]), colour, 0.75))
        n = int(rng.integers(2 if rng.random() < 0.2 else 5, slots + 1))
        if rng.random() < 0.4:
            positions = sorted(int(p) for p in rng.choice(slots, size=n, replace=False))
        else:
            start = int(rng.integers(0, slots - n + 1))
            positions = list(range(start, start + n))
        for k, p in enumerate(positions):
            code = pool.random()
            if code is None:
                break
            x0 = 10 + p * (TILE_W + 0.5) + rng.normal(0, 0.6)
            t = standing_tile(code, x0, y0, z0, lean + rng.normal(0, 1.5), upside_down=bool(rng.random() < p_flip),
                              meld=tier if tiers > 1 else 0, order=k, true_code=code)
            t.meld = tiers - 1 - tier  # row 0 is the top tier as seen by the player
            scene.tiles.append(t)
            n_total += 1
        # the lip in front of the tier, hiding the bottom of its tiles a little
        lip = rng.uniform(3, 9)
        scene.polys.extend(box_polys(np.array([0, y0 - 5, z0 - ledge_h]), np.array([length, y0 - 0.5, z0 + lip]), colour))
    # feet
    for fx in (length * 0.15, length * 0.85):
        scene.polys.extend(box_polys(np.array([fx - 8, -8, 0]), np.array([fx + 8, depth * tiers + 10, 3]), tuple(c * 0.8 for c in colour)))
    scene.centre = np.array([length / 2, depth * tiers / 2, (ledge_h + tiers * tier_rise) / 2])
    scene.extent = length
    r = rng.random()  # close-ups of a few standing tiles, as the player photographs their own rack
    scene.view = "rack-close" if r < 0.45 else ("above" if r < 0.6 else "seat")
    return scene


def _centre(scene: Scene) -> None:
    pts = np.concatenate([t.face for t in scene.tiles]) if scene.tiles else np.zeros((1, 3))
    lo, hi = pts.min(0), pts.max(0)
    scene.centre = np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, 0.0])
    scene.extent = float(max(hi[0] - lo[0], hi[1] - lo[1], 3 * TILE_W))


def mix_scene(rng: np.random.Generator, pool: Pool | None = None) -> Scene:
    pool = pool or Pool(rng)
    table = table_scene(rng, pool, int(rng.integers(6, 35)))
    pts = np.concatenate([t.face for t in table.tiles])
    lo, hi = pts.min(0), pts.max(0)
    loose = loose_scene(rng, pool, int(rng.integers(3, 15)), origin=(hi[0] + rng.uniform(20, 60), lo[1] + rng.uniform(-40, 40)), spread=rng.uniform(80, 160),
                        avoid=[t.face[:, :2] for t in table.tiles])
    table.tiles.extend(loose.tiles)
    table.kind = "mix"
    _centre(table)
    return table


def empty_scene(rng: np.random.Generator) -> Scene:
    scene = Scene("empty")
    scene.extent = float(rng.uniform(150, 600))
    return scene


def make_scene(kind: str, rng: np.random.Generator, twist: bool = False) -> Scene:
    """A scene of ``kind`` from one box of tiles (``twist``: a Rummikub Twist box)."""
    pool = Pool(rng, twist)
    if kind == "table":
        return table_scene(rng, pool)
    if kind == "rack":
        return rack_scene(rng, pool)
    if kind == "loose":
        return loose_scene(rng, pool)
    if kind == "mix":
        return mix_scene(rng, pool)
    if kind == "empty":
        return empty_scene(rng)
    raise ValueError(f"unknown scene kind {kind!r}: use one of {', '.join(KINDS)}")
