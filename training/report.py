"""The record of one training run: its plan, the time of each step, the data it saw and its scores.
It is written as ``metrics.json`` beside the weights, and the model card is rendered from it."""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator


@dataclass
class TrainReport:
    plan: dict[str, Any]
    seconds: dict[str, float] = field(default_factory=dict)  # step name -> wall seconds
    realism_recall: float | None = None  # renders-only detector, every real photo
    realism_recall_heldout: float | None = None  # the same detector, held-out series only
    inference_ms: dict[str, float] = field(default_factory=dict)
    heldout: dict[str, Any] = field(default_factory=dict)
    synthetic: dict[str, Any] = field(default_factory=dict)
    unseen: dict[str, Any] = field(default_factory=dict)  # synthetic, styles held out of training
    unseen_racks: dict[str, Any] = field(default_factory=dict)  # the same styles, racks only
    phone_racks: dict[str, Any] = field(default_factory=dict)  # the same racks at a phone's resolution
    wall_seconds: float | None = None  # the whole run (steps may overlap: see Plan.parallel)
    data: dict[str, dict[str, int]] = field(default_factory=dict)  # photos and tiles of each set the run used
    date: str | None = None  # the day the run finished (ISO)

    @contextlib.contextmanager
    def timed(self, step: str) -> Iterator[None]:
        """Time one named step into ``seconds``."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[step] = round(time.perf_counter() - start, 1)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def save(self, path: Path) -> Path:
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n")
        return path

    @classmethod
    def load(cls, path: Path) -> "TrainReport":
        data = json.loads(path.read_text())
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})
