"""``rummi train --plan smoke``: the whole pipeline (renders, the real photos' export, both detector
phases, the classifier's runs in their second process, the refinement on views, evaluation, the card)
on a handful of renders, into a temporary run folder. The shipped ``models/`` must not change."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from datasets.real import real_dir

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "models"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(900),
    pytest.mark.skipif(not (real_dir() / "data.yaml").is_file(), reason=f"no real development photos in {real_dir()}"),
]


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def rummi(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    code = "import sys; from app.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True,
                          env={**__import__("os").environ, "YOLO_OFFLINE": "1"})


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess, dict[str, str]]:
    runs = tmp_path_factory.mktemp("runs")
    before = _digest(MODELS)
    done = rummi("train", "--plan", "smoke", "--runs", str(runs))
    return runs / "smoke", done, before


def test_smoke_run_writes_loadable_weights_metrics_and_card(smoke_run) -> None:
    run, done, _ = smoke_run
    assert done.returncode == 0, done.stderr[-3000:]
    out = run / "models"
    for name in ("detector.pt", "classifier.pt", "settings.json", "calibration.json", "metrics.json", "MODEL_CARD.md"):
        assert (out / name).is_file(), name
    from vision.model import TileModel

    model = TileModel(out)  # loads both networks
    import numpy as np

    assert isinstance(model.predict(np.full((240, 320, 3), 200, np.uint8)), list)
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["plan"]["name"] == "smoke"
    assert metrics["heldout"]["photos"] == metrics["data"]["real_heldout"]["photos"] > 0
    assert metrics["synthetic"]["photos"] == metrics["data"]["synth_test"]["photos"] == 8
    # the held-out styles, all scenes and racks alone: every tile of the racks set stands on a rack
    assert metrics["unseen"]["photos"] == metrics["data"]["synth_unseen"]["photos"] == 4
    assert metrics["unseen_racks"]["photos"] == metrics["data"]["synth_unseen_racks"]["photos"] == 3
    for meta in (run / "synth" / "meta" / "unseen_racks").glob("*.json"):
        got = json.loads(meta.read_text())
        assert got["kind"] == "rack" and got["styles"] == "heldout", meta.name
    # the same racks (the same scenes) at a phone's resolution, larger than the model's working side
    assert metrics["phone_racks"]["photos"] == metrics["data"]["synth_phone_racks"]["photos"] == 2
    phone = sorted((run / "synth" / "images" / "phone_racks").glob("*.jpg"))
    assert [p.name for p in phone] == [p.name for p in sorted((run / "synth" / "images" / "unseen_racks").glob("*.jpg"))][:2]
    assert all(max(Image.open(p).size) == 2200 for p in phone)
    assert "racks only" in (out / "MODEL_CARD.md").read_text() and "phone's resolution" in (out / "MODEL_CARD.md").read_text()
    # the calibration is fitted on its renders and on racks in its styles at a phone's resolution
    assert metrics["data"]["synth_calib_racks"]["photos"] == 2
    for meta in (run / "synth" / "meta" / "calib_racks").glob("*.json"):
        got = json.loads(meta.read_text())
        assert got["kind"] == "rack" and got["styles"] == "calib", meta.name
    assert "calib, calib_racks" in json.loads((out / "calibration.json").read_text())["fitted_on"]
    for step in ("render", "export_real", "detector_synth", "detector_finetune", "render_racks", "detector_racks", "classifier", "classifier_refine",
                 "realism_check", "detector_crops", "classifier_views", "calibrate", "evaluate"):
        assert step in metrics["seconds"], step
    card = (out / "MODEL_CARD.md").read_text()
    real_train = metrics["data"]["real_train"]
    assert f"{real_train['photos']} photos, {real_train['tiles']} tiles" in card
    assert (run / "classifier.log").is_file()  # the classifier's second process wrote its log
    assert "cannot be promoted" in done.stdout


def test_smoke_run_leaves_the_shipped_models_alone(smoke_run) -> None:
    _, done, before = smoke_run
    assert done.returncode == 0, done.stderr[-3000:]
    assert _digest(MODELS) == before


def test_a_smoke_run_is_never_promoted(smoke_run, tmp_path) -> None:
    run, done, _ = smoke_run
    assert done.returncode == 0, done.stderr[-3000:]
    models = tmp_path / "models"
    refused = rummi("train", "--promote", str(run), "--force", "--models", str(models))
    assert refused.returncode == 2
    assert "never promoted" in refused.stderr and "Traceback" not in refused.stderr
    assert not models.exists()
