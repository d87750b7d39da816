"""The sizes and settings of one training run (``rummi train --plan NAME``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

PLANS = ("cpu", "cuda", "smoke")


@dataclass(frozen=True)
class Plan:
    """Every number a training run uses. ``cpu`` fits 2.5 hours on a 2-core machine."""

    name: str = "cpu"
    # renders
    synth_train: int = 2400
    synth_val: int = 200
    synth_test: int = 150
    render_size: int = 800
    test_render_size: int = 1024  # the synthetic test and calibration sets are rendered at a phone-like size
    synth_calib: int = 150  # renders the reader's calibration is fitted on (training/calibrate.py)
    # ... and beside them racks in the same styles at a phone's resolution: the calibration's own rack scenes are
    # few, and on a rack of an edition it never saw the classifier is right least often and as sure as ever
    synth_calib_racks: int = 90
    synth_unseen: int = 150  # test renders drawn only from the styles held out of training (datasets/synth/styles.py)
    # racks only, in the held-out styles: standing tiles in tiers, close up, from the seat and from above, where
    # the detector and the readers meet the most that is new to them
    synth_unseen_racks: int = 90
    # the same racks (the same seed) at a phone's resolution: the blind close-up racks are 4624 px photos, and the
    # reader looks at a photo that big shrunk (vision.model ``ModelSettings.work_side``)
    synth_phone_racks: int = 90
    phone_render_size: int = 4624
    # detector
    det_imgsz: int = 416
    det_width: float = 0.1875  # channel multiplier of the YOLOv8 backbone (n is 0.25)
    det_epochs_synth: int = 8
    det_epochs_finetune: int = 4
    det_lr_finetune: float = 0.0005  # AdamW, continuing from the renders-only weights
    det_warmup_finetune: float = 0.3  # epochs
    finetune_synth: int = 800  # rendered photos kept beside the real ones while fine-tuning
    # a third phase on racks: standing tiles, close up, in tiers, at the sizes a phone held over a rack gives;
    # from the fine-tuned weights, on rack renders beside the fine-tune's table renders and the real photos
    det_rack_renders: int = 800
    det_epochs_racks: int = 2
    det_batch: int = 16
    real_repeat: int = 4  # the real training photos are listed this many times in the fine-tune set
    det_crop_conf: float = 0.3  # detector confidence for the crops framed by its own boxes
    # classifier
    cls_imgsz: int = 64
    crop_side: int = 72  # stored crops are a little larger than cls_imgsz: the loader resizes them, and its
    #                      scale augmentation then has real pixels to work with
    crop_jitter: float = 0.05  # std of each side's shift, as a fraction of the box, for crops at labelled boxes
    det_crop_jitter: float = 0.03  # the same for the extra cuts at detector boxes (already a real detector's error)
    cls_epochs: int = 5
    cls_lr: float = 0.002
    cls_warmup: float = 0.5  # epochs, for the run from scratch only
    cls_epochs_refine: int = 4  # a second run from the first one's weights at a quarter of the rate
    cls_lr_refine: float = 0.0005
    cls_epochs_detector: int = 3  # a third run on crops framed by the trained detector
    cls_lr_detector: float = 0.0003
    cls_views_real: int = 16  # turned, reframed, shrunk views of each real training tile (datasets/views.py)
    cls_epochs_views: int = 6  # a fourth run on the detector-framed renders + those views
    cls_lr_views: float = 0.0003
    cls_turns: int = 4  # reading averages the classifier over the crop's four quarter turns
    ocr: bool = True  # read the number a second time with the pretrained recogniser (vision/ocr.py)
    cls_batch: int = 128
    real_crop_repeat: int = 6
    # how the run is executed
    parallel: bool = True  # train the classifier's first runs in a second process while the detector trains
    device: str = "cpu"
    workers: int = 2
    seed: int = 0
    # each random stream gets its own seed: seed + offset
    seed_train: int = 1
    seed_val: int = 2
    seed_test: int = 3
    seed_det_crops: int = 11
    seed_views: int = 23
    seed_calib: int = 777
    seed_calib_racks: int = 778
    seed_unseen: int = 4242
    seed_unseen_racks: int = 5353
    seed_det_racks: int = 31

    @property
    def promotable(self) -> bool:
        """A development run (``smoke``) trains too little to ever replace the shipped models."""
        return self.name != "smoke"

    @classmethod
    def named(cls, name: str, **changes: Any) -> "Plan":
        if name == "cpu":
            plan = cls()
        elif name == "cuda":
            plan = cls(name="cuda", synth_train=12000, synth_val=400, render_size=1024, det_imgsz=640, det_width=0.25,
                       det_epochs_synth=60, det_epochs_finetune=20, finetune_synth=4000, det_batch=64, cls_imgsz=96,
                       cls_epochs=30, cls_batch=512, device="0", workers=8)
        elif name == "smoke":  # a minute-long run that exercises every step (for development and the suite)
            plan = cls(name="smoke", synth_train=24, synth_val=8, synth_test=8, synth_calib=6, synth_calib_racks=2, synth_unseen=4, synth_unseen_racks=3, synth_phone_racks=2, phone_render_size=2200, render_size=480, test_render_size=480,
                       det_imgsz=256, det_epochs_synth=1, det_epochs_finetune=1, det_rack_renders=6, det_epochs_racks=1,
                       cls_epochs=1, real_repeat=1,
                       real_crop_repeat=1, cls_epochs_refine=1, cls_epochs_detector=0, cls_views_real=2,
                       cls_epochs_views=1)
        else:
            raise ValueError(f"unknown plan {name!r}: use {', '.join(PLANS)}")
        return dataclasses.replace(plan, **changes) if changes else plan

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)
