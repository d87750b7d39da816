"""How far to believe each reader, and when to call a tile doubtful: fitted on rendered photos.

``Calibration`` holds the fusion's numbers (``vision.fusion.FusionParams``), the classifier's
temperature when it reads alone, how often the ink names each colour (``vision.ink.InkRates``; none
in a calibration fitted before the ink was evidence: then the ink only doubts), and the confidence
below which a tile is shown as doubtful, with and without the recogniser (a 6 or a 9, a 1, and a tile of a photo read
stretched as a table seen from low down, each with a threshold of its own). ``models/calibration.json`` keeps the committed one; without it the
reader uses the defaults (the classifier as it is, doubtful below 0.6).

It is fitted on rendered photos only by ``training/calibrate.py`` (a step of ``rummi train``);
this module only holds and loads it.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from vision.fusion import FusionParams
from vision.ink import InkRates
from vision.upright import reads_turned

CALIBRATION = "calibration.json"


@dataclass(frozen=True)
class Calibration:
    fusion: FusionParams = FusionParams()  # with the recogniser
    alone: FusionParams = FusionParams()  # the classifier alone (only its own numbers matter)
    doubt_below: float = 0.6  # with the recogniser: a tile less sure than this is doubtful
    doubt_below_alone: float = 0.6  # the classifier alone
    # a tile read as 6 or 9 has its own threshold: which end is up is the one thing both readers guess
    six_nine_below: float = 0.6
    six_nine_below_alone: float = 0.6
    # a tile of a photo read stretched as a table seen from low down (``vision.lowview``) is doubtful below this
    # too: its number was drawn with fewer pixels than it is read with
    low_view_below: float = 0.0
    low_view_below_alone: float = 0.0
    # a tile read as 1 has its own threshold too: a single stroke is what a digit whose detail is lost reads as (a
    # narrow 8 out of focus, a 7 whose bar the view squeezes), and both readers then agree on it (0: no bound of its own)
    one_below: float = 0.0
    one_below_alone: float = 0.0
    ink: InkRates | None = None  # the ink's colour as evidence in the fusion; None: it only doubts
    fitted_on: str = ""  # the set it was fitted on, for the record
    notes: dict = field(default_factory=dict, compare=False)  # the fit's own numbers, for the record

    def params(self, with_ocr: bool, rack: bool = False) -> FusionParams:
        """The fusion numbers for a reading with or without the recogniser, of a table or of a ``rack``."""
        params = self.fusion if with_ocr else self.alone
        return params.on_rack() if rack else params

    def threshold(self, with_ocr: bool) -> float:
        return self.doubt_below if with_ocr else self.doubt_below_alone

    def six_nine_threshold(self, with_ocr: bool) -> float:
        return self.six_nine_below if with_ocr else self.six_nine_below_alone

    def low_view_threshold(self, with_ocr: bool) -> float:
        return self.low_view_below if with_ocr else self.low_view_below_alone

    def one_threshold(self, with_ocr: bool) -> float:
        return self.one_below if with_ocr else self.one_below_alone

    def kind_threshold(self, code: str, with_ocr: bool) -> float:
        """The threshold of the kind of tile ``code`` reads as, beside the one every tile meets: a 6's or a 9's,
        a 1's; 0.0 for any other code."""
        if reads_turned(code):
            return self.six_nine_threshold(with_ocr)
        return self.one_threshold(with_ocr) if reads_one(code) else 0.0

    def to_json(self) -> dict:
        return {
            "fusion": dataclasses.asdict(self.fusion),
            "alone": dataclasses.asdict(self.alone),
            "doubt_below": self.doubt_below,
            "doubt_below_alone": self.doubt_below_alone,
            "six_nine_below": self.six_nine_below,
            "six_nine_below_alone": self.six_nine_below_alone,
            "low_view_below": self.low_view_below,
            "low_view_below_alone": self.low_view_below_alone,
            "one_below": self.one_below,
            "one_below_alone": self.one_below_alone,
            "ink": None if self.ink is None else self.ink.to_json(),
            "fitted_on": self.fitted_on,
            "notes": self.notes,
        }

    @classmethod
    def from_json(cls, data: dict) -> "Calibration":
        if not isinstance(data, dict):
            raise ValueError("a calibration is a JSON object")
        def params(key: str) -> FusionParams:
            fields = dict(data.get(key, {}))
            return FusionParams(**{k: None if v is None else float(v) for k, v in fields.items()
                                   if k in FusionParams.__dataclass_fields__})

        return cls(
            fusion=params("fusion"),
            alone=params("alone"),
            doubt_below=float(data.get("doubt_below", 0.6)),
            doubt_below_alone=float(data.get("doubt_below_alone", 0.6)),
            six_nine_below=float(data.get("six_nine_below", 0.6)),
            six_nine_below_alone=float(data.get("six_nine_below_alone", 0.6)),
            low_view_below=float(data.get("low_view_below", 0.0)),
            low_view_below_alone=float(data.get("low_view_below_alone", 0.0)),
            one_below=float(data.get("one_below", 0.0)),
            one_below_alone=float(data.get("one_below_alone", 0.0)),
            ink=None if data.get("ink") is None else InkRates.from_json(data["ink"]),
            fitted_on=str(data.get("fitted_on", "")),
            notes=dict(data.get("notes", {})),
        )

    @classmethod
    def load(cls, folder: str | Path | None) -> "Calibration":
        """The calibration in ``folder`` (a models folder); the defaults where there is none."""
        if folder is None:
            return cls()
        path = Path(folder) / CALIBRATION
        if not path.is_file():
            return cls()
        try:
            return cls.from_json(json.loads(path.read_text()))
        except (OSError, ValueError, TypeError) as exc:
            raise ValueError(f"{path}: not a calibration ({exc})") from None

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n")
        return path


def reads_one(code: str) -> bool:
    """Whether a tile code (``"R1"``, ``"K11"``, ``"J"``...) reads as the number 1, the tiles held to ``one_below``."""
    return not code.startswith("J") and code[1:] == "1"
