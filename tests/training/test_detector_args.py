"""The detector's training arguments: what no phase may do."""

from training.detector import detector_args
from training.plan import PLANS, Plan


def test_no_phase_mirrors_digits_and_every_phase_finds_one_class():
    for name in PLANS:
        plan = Plan.named(name)
        args = detector_args(plan)
        assert args["fliplr"] == 0.0 and args["flipud"] == 0.0
        assert args["single_cls"] is True
        assert args["workers"] == plan.workers
