"""Every way a tile can look, split once into a TRAIN part, a CALIB part and a HELD-OUT part.

The reader must read editions it never saw, and say so when it is not sure of them. To measure that
honestly, each style dimension of the renders is cut in three here, in one place: training renders
(``styles="train"``) draw only from ``TRAIN``; the renders the reader's confidence is calibrated on
(``styles="calib"``) only from ``CALIB``, styles the models never learnt from, so that "sure" is
fitted on editions the reader does not know, which is what a photo from elsewhere is; the ``unseen``
test set (``styles="heldout"``) draws only from ``HELD_OUT``, which neither training nor the
calibration saw. The cut is fixed by name (no randomness), so it is the same on every machine and in
every run. Below, "held out" means CALIB and HELD_OUT together, each taking about half of what is
listed (whole font families, one shade of each pair, one of each joker, mark and plastic).

What is held out, and why:

- fonts: 14 of 60, one or more from each look (rounded, condensed, geometric/wide, grotesque, slab,
  mono), whole families at a time: a held-out family has no sibling, and no clone of the same design
  (e.g. Nimbus Sans Narrow / TeX Gyre Heros Cn, URW Gothic / TeX Gyre Adventor), on the train side;
- stroke weight and width: training editions thicken, thin, widen or narrow their font's digits
  (``weights``, ``stretches``); the held-out sides draw each font as it is;
- digit size: train draws digit heights 0.30-0.60 of the face (with the circle below 0.48); held out
  are the two ends seen on other editions: small digits in a circle (0.24-0.30, older editions) and
  digits filling the tile with no circle (0.60-0.72, the blind edition that read 9.9%);
- ink shades: each colour has train shades and neighbouring held-out shades (blue -> teal-blue and
  teal, red -> crimson and raspberry, orange -> amber and yellow, black -> dark grey and brown-black);
- plastic: ivory, cream and off-white for training; pure white and grey held out;
- joker faces: ring face, filled face, a big "J" and random emblems (many-pointed stars, hearts, crowns,
  targets, suns; never a five-pointed star or a clover) for training; a star and Okey's false joker held out;
- the Rummikub Twist jokers' marks (faces.py draws them): "faces" for training (the Double Joker two ring
  faces side by side, the Mirror Joker a J and its mirror image about a bar, the Colour-change Joker a disc
  in four coloured quarters); "marks" held out (two filled faces one above the other, two triangles
  pointing away from a bar, a ring of four coloured arcs), "shapes" for the calibration (two faces on a
  diagonal, two half discs against a bar, a two-by-two grid of coloured squares): the same idea of each
  joker, drawn another way;
- maker's mark: "Rummikub" for training, "RUMMY" and "OKEY" held out (either side also draws tiles with
  no mark: absence is not a style);
- Okey-style marker under the number: a filled dot for training, a bar for the calibration, a small
  ring held out (each side also draws tiles without one).

Scenes, cameras and phone effects are not split: they are not the edition.
"""

from __future__ import annotations

from dataclasses import dataclass

# (stem, Debian package, look). ``fonts.number_fonts()`` indexes this order.
FONT_CATALOGUE: tuple[tuple[str, str, str], ...] = (
    # ---- train
    ("Comfortaa-Bold", "fonts-comfortaa", "rounded"),
    ("Quicksand-Bold", "fonts-quicksand", "rounded"),
    ("Mplus1-Black", "fonts-mplus", "rounded"),
    ("Mplus2-ExtraBold", "fonts-mplus", "rounded"),
    ("Dosis-ExtraBold", "fonts-dosis", "rounded condensed"),
    ("LiberationSans-Bold", "fonts-liberation", "grotesque"),
    ("DejaVuSans-Bold", "fonts-dejavu-core", "wide"),
    ("Roboto-Bold", "fonts-roboto-unhinted", "grotesque"),
    ("Roboto-Black", "fonts-roboto-unhinted", "grotesque heavy"),
    ("OpenSans-Bold", "fonts-open-sans", "humanist"),
    ("OpenSans-ExtraBold", "fonts-open-sans", "humanist heavy"),
    ("NotoSans-Bold", "fonts-noto-core", "humanist"),
    ("FreeSansBold", "fonts-freefont-ttf", "grotesque"),
    ("Lato-Bold", "fonts-lato", "humanist"),
    ("Lato-Heavy", "fonts-lato", "humanist heavy"),
    ("Lato-Black", "fonts-lato", "humanist heavy"),
    ("Cantarell-Bold", "fonts-cantarell", "humanist"),
    ("Cantarell-ExtraBold", "fonts-cantarell", "humanist heavy"),
    ("Arimo-Bold", "fonts-croscore", "grotesque"),
    ("Carlito-Bold", "fonts-crosextra-carlito", "humanist"),
    ("Cabin-Bold", "fonts-cabin", "humanist"),
    ("Karla-ExtraBold", "fonts-karla", "grotesque"),
    ("ClearSans-Bold", "fonts-clear-sans", "grotesque"),
    ("NimbusSans-Bold", "fonts-urw-base35", "grotesque"),
    ("Manrope-ExtraBold", "fonts-manrope", "geometric"),
    ("B612-Bold", "fonts-b612", "wide"),
    ("Play-Bold", "fonts-play", "square"),
    ("RobotoCondensed-Bold", "fonts-roboto-unhinted", "condensed"),
    ("NimbusSansNarrow-Bold", "fonts-urw-base35", "condensed"),
    ("OpenSans-CondBold", "fonts-open-sans", "condensed"),
    ("LeagueSpartan-Black", "fonts-league-spartan", "geometric heavy"),
    ("URWGothic-Demi", "fonts-urw-base35", "geometric wide"),
    ("texgyreadventor-bold", "fonts-texgyre", "geometric wide"),
    ("RobotoSlab-Bold", "fonts-roboto-slab", "slab"),
    ("Tinos-Bold", "fonts-croscore", "serif"),
    ("Hack-Bold", "fonts-hack", "mono"),
    ("DejaVuSerif-Bold", "fonts-dejavu-core", "serif wide"),
    ("DejaVuSansCondensed-Bold", "fonts-dejavu-extra", "condensed"),
    ("NotoSerif-Bold", "fonts-noto-core", "serif"),
    ("P052-Bold", "fonts-urw-base35", "serif old-style"),
    ("URWBookman-Demi", "fonts-urw-base35", "serif soft"),
    ("NimbusMonoPS-Bold", "fonts-urw-base35", "mono slab"),
    ("LiberationMono-Bold", "fonts-liberation", "mono"),
    ("MplusCodeLatin60-Bold", "fonts-mplus", "mono rounded"),
    ("B612Mono-Bold", "fonts-b612", "mono wide"),
    ("Jura-Bold", "fonts-jura", "square technical"),
    # ---- held out
    ("eurof75", "fonts-eurofurence", "rounded"),
    ("eurofc75", "fonts-eurofurence", "rounded condensed"),
    ("ComicNeue-Bold", "fonts-comic-neue", "rounded casual"),
    ("AveriaSansGWF-Bold", "fonts-averia-sans-gwf", "soft"),
    ("Inter-Black", "fonts-inter", "grotesque heavy"),
    ("InterDisplay-Black", "fonts-inter", "grotesque heavy"),
    ("BebasNeue-Bold", "fonts-bebas-neue", "condensed tall"),
    ("BetecknaGSCondensed-Bold", "fonts-beteckna", "geometric condensed"),
    ("BetecknaGS-Bold", "fonts-beteckna", "geometric"),
    ("Sora-ExtraBold", "fonts-sora", "geometric wide"),
    ("millimetreA Extrablack 01", "fonts-millimetre", "geometric heavy"),
    ("C059-Bold", "fonts-urw-base35", "slab / schoolbook"),
    ("texgyreschola-bold", "fonts-texgyre", "slab / schoolbook"),
    ("JetBrainsMono-ExtraBold", "fonts-jetbrains-mono", "mono"),
)
FONT_STEMS: tuple[str, ...] = tuple(f[0] for f in FONT_CATALOGUE)
_NOT_TRAINED: frozenset[str] = frozenset(FONT_STEMS[FONT_STEMS.index("eurof75"):])
# whole families on one side: a rounded, a heavy grotesque, a geometric pair and a mono for the
# calibration; the casual, soft, tall condensed, wide, heavy geometric and schoolbook slabs for the test
CALIB_FONTS: frozenset[str] = frozenset(
    {"eurof75", "eurofc75", "Inter-Black", "InterDisplay-Black", "BetecknaGSCondensed-Bold", "BetecknaGS-Bold",
     "JetBrainsMono-ExtraBold"})
HELD_OUT_FONTS: frozenset[str] = _NOT_TRAINED - CALIB_FONTS
TRAIN_FONTS: frozenset[str] = frozenset(FONT_STEMS) - _NOT_TRAINED
FONT_PACKAGES: tuple[str, ...] = tuple(sorted({f[1] for f in FONT_CATALOGUE} | {"fonts-liberation"}))  # + the mark's serif

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class SizeBand:
    """Digit heights ``lo..hi`` (fraction of the face height); ``circle`` is the chance of the circle."""

    lo: float
    hi: float
    circle: float


@dataclass(frozen=True)
class StyleSet:
    """One side of the split: the values each style dimension may take."""

    name: str
    fonts: frozenset[str]
    sizes: tuple[SizeBand, ...]
    inks: dict[str, tuple[tuple[str, RGB], ...]]  # colour letter -> named shades
    plastics: tuple[tuple[str, RGB], ...]
    jokers: tuple[str, ...]
    marks: tuple[str, ...]  # maker's mark texts ("" is never listed: no mark is drawn by chance)
    okey: str  # the marker under the number on Okey-style tiles
    twist: str  # how the Rummikub Twist jokers are drawn (faces.py): one look per side, like ``okey``
    p_mark: float = 0.8
    p_okey: float = 0.15
    # Each edition's strokes thickened (+) or thinned (-) by this many pixels of a 160-pixel raster, and its
    # digits widened or narrowed by these factors: a font family stands for the many cuts of it that
    # printers use. Empty: the fonts as drawn (the held-out sides, so what they stand for stays fixed).
    weights: tuple[int, ...] = ()
    stretches: tuple[float, ...] = ()

    def font_indices(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(FONT_STEMS) if s in self.fonts)


TRAIN = StyleSet(
    name="train",
    fonts=TRAIN_FONTS,
    sizes=(SizeBand(0.30, 0.48, 0.65), SizeBand(0.48, 0.60, 0.0)),
    inks={
        "K": (("black", (22, 22, 28)), ("blue-black", (24, 28, 44))),
        "R": (("red", (205, 32, 45)), ("scarlet", (222, 52, 30))),
        "B": (("blue", (22, 88, 185)), ("navy", (26, 54, 150)), ("azure", (16, 112, 208))),
        "O": (("orange", (240, 138, 38)), ("deep-orange", (232, 104, 26))),
    },
    plastics=(("ivory", (236, 229, 206)), ("cream", (240, 230, 194)), ("off-white", (242, 240, 232))),
    jokers=("ring-face", "filled-face", "letter-j", "emblem"),
    marks=("Rummikub",),
    okey="dot",
    twist="faces",
    weights=(-4, 0, 0, 4, 8, 12),
    stretches=(0.8, 0.9, 1.0, 1.0, 1.1, 1.25),
)

CALIB = StyleSet(
    name="calib",
    fonts=CALIB_FONTS,
    sizes=(SizeBand(0.24, 0.27, 0.85), SizeBand(0.60, 0.66, 0.0)),
    inks={
        "K": (("dark-grey", (64, 64, 68)),),
        "R": (("crimson", (160, 18, 50)),),
        "B": (("teal-blue", (0, 112, 150)),),
        "O": (("amber", (242, 172, 22)),),
    },
    plastics=(("white", (250, 250, 247)),),
    jokers=("star",),
    marks=("RUMMY",),
    okey="bar",
    twist="shapes",
    p_mark=0.6,
    p_okey=0.2,
)

HELD_OUT = StyleSet(
    name="heldout",
    fonts=HELD_OUT_FONTS,
    sizes=(SizeBand(0.27, 0.30, 0.85), SizeBand(0.66, 0.72, 0.0)),
    inks={
        "K": (("brown-black", (50, 37, 30)),),
        "R": (("raspberry", (192, 24, 88)),),
        "B": (("teal", (0, 128, 126)),),
        "O": (("yellow", (230, 200, 30)),),
    },
    plastics=(("grey", (206, 208, 206)),),
    jokers=("okey-false",),
    marks=("OKEY",),
    okey="ring",
    twist="marks",
    p_mark=0.6,
    p_okey=0.2,
)

STYLE_SETS = {"train": TRAIN, "calib": CALIB, "heldout": HELD_OUT}
INK_SPREAD = 10  # per-tile spread around a shade (see faces._jitter): well under the gap between shades
PLASTIC_SPREAD = 6


def style_set(name: str | StyleSet) -> StyleSet:
    if isinstance(name, StyleSet):
        return name
    try:
        return STYLE_SETS[name]
    except KeyError:
        raise ValueError(f"unknown styles {name!r}: use 'train', 'calib' or 'heldout'") from None
