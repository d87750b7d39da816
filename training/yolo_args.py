"""The ultralytics training arguments every run shares."""

from __future__ import annotations

from typing import Any

from training.plan import Plan


def common_args(plan: Plan) -> dict[str, Any]:
    return dict(device=plan.device, workers=plan.workers, pretrained=False, amp=plan.device != "cpu", plots=False,
                seed=plan.seed, deterministic=False, exist_ok=True, verbose=False)
