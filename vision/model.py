"""The model stage: a one-class tile detector and a crop classifier, both trained by ``rummi train``.

``load_model()`` loads the committed weights from ``models/`` once per process; ``predict`` turns an
RGB photo into raw tiles: a box, a detection score and a probability for each of the reader's classes
(``vision.yolo_format.CLASS_NAMES``). Each box is grown to its tile's face where it held only the digit
(``vision.face``), each tile keeps one box (``vision.outline``), a tile lying face down is dropped
(``vision.blank``), and a 10-13 boxed digit by digit is one tile again (``vision.halves``); a photo longer than
``ModelSettings.work_side`` is looked at shrunk to it (``shrunk``), its boxes given back in its own pixels. The
classifier's own class names say which column each of its outputs fills, so a classifier trained on fewer classes
(the base game's 53, before the Twist jokers) still reads: the classes it does not know get probability 0.
"""

from __future__ import annotations

import functools
import gc
import json
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .balance import balanced, channel_gains, cold_light
from .blank import face_up
from .crops import CROP_SIZE, crop_tile
from .darkest import darkest
from .errors import ModelMissing
from .face import grow_to_faces
from .halves import join_halves
from .metrics import box_iou, box_within
from .outline import one_per_tile
from .runtime import session_options
from .yolo_format import CLASS_NAMES

os.environ.setdefault("YOLO_OFFLINE", "1")

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
DETECTOR, CLASSIFIER, SETTINGS = "detector.pt", "classifier.pt", "settings.json"


@dataclass
class RawTile:
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in pixels of the input array
    det_score: float
    probs: np.ndarray  # (classes,) over vision.yolo_format.CLASS_NAMES
    joined: bool = False  # the box is two boxes joined, one round each digit of a 10-13 (vision.halves)


@dataclass(frozen=True)
class ModelSettings:
    det_imgsz: int = 416
    det_conf: float = 0.3
    det_iou: float = 0.6
    cls_imgsz: int = CROP_SIZE
    max_det: int = 300
    small_tile_px: float = 18.0  # tiles smaller than this at det_imgsz trigger a second, finer pass
    # More looks at other sizes, in order: the detector misses some tiles of a look or scale it never trained
    # on at one size and finds them at another (grey bodies and digits filling the tile at a finer size; the
    # large standing tiles of a rack at a coarser one, where they are the size most tiles were). Only
    # a look's boxes that overlap none of the boxes already found are added (IoU below its overlap): tiles,
    # not duplicates. The coarse look's limit is lower: at that size a box over half a tile and its
    # neighbour overlaps the tiles it straddles only a little.
    det_more_looks: tuple[tuple[int, float], ...] = ((640, 0.3), (320, 0.1))  # (size, overlap); () for one look
    # A close-up (a rack filling the frame) is looked at coarsest first: at the usual size its tiles are far
    # larger than any the detector learnt from, and it boxes a big digit as if it were a small tile; a finer
    # look's box over a digit then blocks the right box of a coarser look. The close-up look decides: where
    # the median short side of its boxes is det_close_px or more at det_close_imgsz, it comes first and the
    # finer looks add only what it missed. 0: no close-up look.
    det_close_imgsz: int = 256
    det_close_px: float = 20.0
    det_close_looks: tuple[tuple[int, float], ...] = ((320, 0.1), (416, 0.3), (640, 0.3))
    # Small tiles: where the tiles found at all the looks are still small (median short side below det_fine_px
    # at det_fine_imgsz), or none were found, in a photo larger than that size, one more look at it adds the
    # tiles the coarser looks were too coarse to see (a rack far off in a big frame). 0: no such look.
    det_fine_imgsz: int = 1024
    det_fine_px: float = 48.0
    # a later look's box lying this much (of its own area) inside a box already found is a part of that
    # tile (its digit, its circle), not another tile
    det_inside: float = 0.8
    # A last look at the photo with its light's colour taken out (vision.balance), at the size of the look that
    # decided, adding the tiles none of the looks before found (IoU with every box found below det_balanced_overlap;
    # 0: no such look) where the detector is sure of them (det_balanced_conf): on a photo lit white the balanced
    # look finds the same tiles, and what it adds below that score lies mostly on no tile.
    det_balanced_overlap: float = 0.3
    det_balanced_conf: float = 0.5
    # Under a light colder than any the renders draw (vision.balance.cold_light) the balanced photo leads instead:
    # every look is taken at it, and the photo as taken adds the tiles only it shows (IoU below
    # det_balanced_overlap, scored det_balanced_conf or more). False: the balanced photo is only the last look.
    det_cold_lead: bool = True
    # A last look at the photo by its darkest channel (vision.darkest), at the size of the look that decided and, where
    # that is coarser, at det_darkest_min_imgsz too, adding the tiles none of the looks before found (IoU below
    # det_balanced_overlap) where the detector scores them det_darkest_conf or more (0: no such look): a yellow or
    # amber ink, nearly as bright as its plastic, is as dark there as a black one; below that score its added boxes
    # lie mostly on no tile. The finer look: a photo whose close-up look decided (a card, a hand among the tiles) or
    # whose tiles are mid-sized shows such a tile too coarsely at the deciding size for the detector to be sure of it.
    det_darkest_conf: float = 0.5
    det_darkest_min_imgsz: int = 640
    cls_turns: int = 1  # 4: average the classifier over the crop's four quarter turns (exact, no resampling)
    cls_onnx: bool = True  # run the classifier's network in onnxruntime where that gives ultralytics' answer (faster)
    det_onnx: bool = True  # the same for the detector's network (ultralytics' own letterbox and NMS around it)
    ocr: bool = True  # also read each number with the text recogniser (vision.ocr) where it is installed
    # A photo longer than this (a phone's 12 MP) is looked at shrunk to it, smoothly (pixel areas averaged); 0:
    # never. Each look resizes the photo to its own size bilinearly, which from four times that size or more
    # drops most pixels and keeps the rest: edges break up into noise the detector never saw in training (it
    # learnt from photos of about 1000 px), and it boxes digits, not tiles, or misses tiles.
    work_side: int = 2048

    @classmethod
    def load(cls, folder: Path) -> "ModelSettings":
        path = folder / SETTINGS
        if path.exists():
            data = json.loads(path.read_text())
            return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})
        return cls()


class TileModel:
    def __init__(self, folder: str | Path | None = None) -> None:
        folder = Path(folder) if folder else MODELS_DIR
        missing = [n for n in (DETECTOR, CLASSIFIER) if not (folder / n).exists()]
        if missing:
            raise ModelMissing(f"model files missing in {folder}: {', '.join(missing)} (run `rummi train` or restore models/)")
        from ultralytics import YOLO

        self.folder = folder
        self.settings = ModelSettings.load(folder)
        self.detector = YOLO(str(folder / DETECTOR), task="detect")
        self.classifier = YOLO(str(folder / CLASSIFIER), task="classify")
        names = self.classifier.names
        self._to_codes = np.array([CLASS_NAMES.index(names[i]) for i in range(len(names))])  # its column of each output
        self._knows = np.isin(np.arange(len(CLASS_NAMES)), self._to_codes)  # the classes it was trained on
        self._fast: bool | None = None  # classifier in onnxruntime: decided on the first crops
        self._fast_session = None
        # detector in onnxruntime: decided on the second photo (the export costs about 2 s once, more than a
        # single photo's reading gains; a one-photo `rummi read` does not pay it)
        self._fast_det: bool | None = None
        self._det_session = None
        self._photos = 0

    def _run_fast(self, x_uint8: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x_uint8, dtype=np.float32) / np.float32(255.0)
        return self._fast_session.run(None, {"x": x})[0]

    def _fast_classifier(self, rgb_crops: list[np.ndarray]) -> bool:
        """Can the classifier run in onnxruntime (~3x faster on a CPU than torch here)?

        Only where ultralytics would feed the network our square crops unchanged, scaled to 0..1 (no
        resize, no normalisation), on the CPU; the network is exported in memory (needs ``onnx``) and
        must agree with ultralytics' own prediction on these crops (within float rounding), else the
        classifier keeps running through ultralytics.
        """
        if not self.settings.cls_onnx:
            return False
        try:
            size = self.settings.cls_imgsz
            probe = [np.ascontiguousarray(cv2.cvtColor(c, cv2.COLOR_RGB2BGR)) for c in rgb_crops[:8]]
            if any(c.shape != (size, size, 3) for c in probe):
                return False
            ref = np.stack([r.probs.data.cpu().numpy() for r in self.classifier.predict(probe, imgsz=size, verbose=False)])
            predictor = self.classifier.predictor
            norm, host = getattr(predictor, "device_transform", None), getattr(predictor, "host_transforms", None)
            if norm is None or host is None or str(getattr(predictor.model, "device", "cpu")) != "cpu":
                return False
            if not (np.allclose(np.asarray(norm.mean), 0) and np.allclose(np.asarray(norm.std), 1)):
                return False
            resize = host.transforms[0]
            if getattr(resize, "size", None) not in (size, [size], (size, size), [size, size]):
                return False
            self._fast_session = _onnx_session(predictor.model.model, (2, 3, size, size), {0: "batch"})
            got = self._run_fast(np.stack(rgb_crops[: len(probe)]).transpose(0, 3, 1, 2))
            if got.shape != ref.shape or np.abs(got - ref).max() > 1e-4:
                self._fast_session = None
                return False
            return True
        except Exception:  # no onnx, an export that fails: ultralytics as before
            self._fast_session = None
            return False

    def detect(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s = self.settings
        self._photos += 1
        if self._fast_det is None and self._photos >= 2:
            self._fast_det = self._fast_detector(bgr, s.det_imgsz)
        white, cold = None, False
        if s.det_balanced_overlap > 0:  # the light's colour measured only where a balanced look may be taken
            gains = channel_gains(bgr)
            white = balanced(bgr, gains)
            cold = white is not None and s.det_cold_lead and cold_light(gains)
        if cold:
            # a light colder than any the detector learnt from: the balanced photo leads, and the photo as taken
            # adds the tiles only it shows, where the detector is sure of them (vision.balance)
            boxes, scores, size = self._detect_looks(white)
            taken, taken_scores, _ = self._detect_looks(bgr)
            boxes, scores = add_new_boxes(boxes, scores, taken, taken_scores, s.det_balanced_conf,
                                          s.det_balanced_overlap, s.det_inside)
        else:
            boxes, scores, size = self._detect_looks(bgr)
            if white is not None:
                boxes, scores = self._look_more(white, boxes, scores, ((size, s.det_balanced_overlap),),
                                                s.det_balanced_conf)
        if s.det_darkest_conf > 0:
            sizes = (size,) if size >= s.det_darkest_min_imgsz else (size, s.det_darkest_min_imgsz)
            boxes, scores = self._look_more(darkest(bgr), boxes, scores, tuple((z, s.det_balanced_overlap) for z in sizes),
                                            s.det_darkest_conf)
        return boxes, scores

    def _detect_looks(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
        """The boxes of the detector's looks at the photo at several sizes (``ModelSettings``), and the size of
        the look that decides (the close-up look's on a close-up)."""
        s = self.settings
        h, w = bgr.shape[:2]
        if s.det_close_imgsz:
            boxes, scores = self._detect_at(bgr, s.det_close_imgsz)
            if len(boxes) and np.median(_short_sides(boxes)) * s.det_close_imgsz / max(h, w) >= s.det_close_px:
                return (*self._look_more(bgr, boxes, scores, s.det_close_looks), s.det_close_imgsz)
        size = s.det_imgsz
        boxes, scores = self._detect_at(bgr, size)
        if len(boxes):
            if np.median(_short_sides(boxes)) * size / max(h, w) < s.small_tile_px and max(h, w) > size * 1.5:
                size = min(s.det_imgsz * 2, int(np.ceil(max(h, w) / 32) * 32))
                boxes, scores = self._detect_at(bgr, size)
        boxes, scores = self._look_more(bgr, boxes, scores, s.det_more_looks)
        fine = s.det_fine_imgsz
        if fine and max(h, w) >= fine and (not len(boxes) or np.median(_short_sides(boxes)) * fine / max(h, w) < s.det_fine_px):
            boxes, scores = self._look_more(bgr, boxes, scores, ((fine, 0.3),))
        return boxes, scores, size

    def _look_more(self, bgr: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                   looks: tuple[tuple[int, float], ...], min_score: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``boxes`` and the tiles only the later ``looks`` (size, overlap) find, scored at least ``min_score``
        (default: the detector's own ``det_conf``)."""
        min_score = self.settings.det_conf if min_score is None else min_score
        for size, overlap in looks:
            more, more_scores = self._detect_at(bgr, size)
            boxes, scores = add_new_boxes(boxes, scores, more, more_scores, min_score, overlap,
                                          self.settings.det_inside)
        return boxes, scores

    def _detect_at(self, bgr: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray]:
        return self._detect_fast(bgr, imgsz) if self._fast_det else self._detect_ultralytics(bgr, imgsz)

    def _detect_ultralytics(self, bgr: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray]:
        s = self.settings
        r = self.detector.predict(bgr, imgsz=imgsz, conf=s.det_conf, iou=s.det_iou, max_det=s.max_det, verbose=False)[0]
        if r.boxes is None or not len(r.boxes):
            return np.zeros((0, 4)), np.zeros(0)
        return r.boxes.xyxy.cpu().numpy(), r.boxes.conf.cpu().numpy()

    def _detect_fast(self, bgr: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray]:
        """What ``_detect_ultralytics`` finds, with the network in onnxruntime: ultralytics' own letterbox (to the
        smallest multiple of the stride, as its predictor does for one photo), non-maximum suppression and
        scaling back, without its per-call predictor set-up."""
        import torch
        from ultralytics.data.augment import LetterBox
        from ultralytics.utils import nms, ops
        from ultralytics.utils.checks import check_imgsz

        s = self.settings
        stride = int(max(self.detector.model.stride))
        size = check_imgsz(imgsz, stride=stride, min_dim=2)
        x = LetterBox(size, auto=True, stride=stride)(image=bgr)
        x = np.ascontiguousarray(x[..., ::-1].transpose(2, 0, 1))[None].astype(np.float32) / np.float32(255.0)
        y = torch.from_numpy(self._det_session.run(None, {"x": x})[0])
        found = nms.non_max_suppression(y, s.det_conf, s.det_iou, max_det=s.max_det, nc=0)[0]
        if not len(found):
            return np.zeros((0, 4)), np.zeros(0)
        boxes = ops.scale_boxes(x.shape[2:], found[:, :4].clone(), bgr.shape)
        return boxes.numpy().astype(np.float32), found[:, 4].numpy().astype(np.float32)

    def _fast_detector(self, bgr: np.ndarray, imgsz: int) -> bool:
        """Can the detector's network run in onnxruntime (about twice as fast as torch on a CPU here)?

        Only on the CPU, where the network exports (needs ``onnx``), and where the boxes and scores it gives
        on this photo are ultralytics' own (within float rounding); else the detector keeps running
        through ultralytics.
        """
        if not self.settings.det_onnx:
            return False
        try:
            import copy

            # the photo and a frame of another shape: the network must follow the input's shape, not one
            # traced into it
            frames = (bgr, np.ascontiguousarray(bgr[: max(32, bgr.shape[0] * 2 // 3)]))
            refs = [self._detect_ultralytics(f, imgsz) for f in frames]
            predictor = self.detector.predictor
            if str(getattr(predictor.model, "device", "cpu")) != "cpu" or getattr(predictor.model, "fp16", False):
                return False
            net = copy.deepcopy(predictor.model.model)
            for module in net.modules():
                if hasattr(module, "dynamic"):  # the detection head: anchors from the input's shape on every call
                    module.dynamic = True
            size = int(max(predictor.imgsz))
            self._det_session = _onnx_session(_first_output(net), (1, 3, size, size), {2: "h", 3: "w"})
            for frame, (ref_boxes, ref_scores) in zip(frames, refs):
                boxes, scores = self._detect_fast(frame, imgsz)
                if boxes.shape != ref_boxes.shape or (len(boxes) and (np.abs(boxes - ref_boxes).max() > 0.05
                                                                      or np.abs(scores - ref_scores).max() > 1e-4)):
                    self._det_session = None
                    return False
            return True
        except Exception:  # no onnx, an export that fails: ultralytics as before
            self._det_session = None
            return False

    def classify(self, rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(N, classes) probabilities over CLASS_NAMES for the tiles in ``boxes``."""
        if not len(boxes):
            return np.zeros((0, len(CLASS_NAMES)))
        rgb_crops = [crop_tile(rgb, tuple(b), self.settings.cls_imgsz) for b in boxes]
        turns = max(1, min(4, self.settings.cls_turns))
        if self._fast is None:
            self._fast = self._fast_classifier(rgb_crops)
        # the classifier was trained on tiles at every angle: each quarter turn is another honest look
        looks = self._classify_fast(rgb_crops, turns) if self._fast else self._classify_ultralytics(rgb_crops, turns)
        # a geometric mean: a code must look right from every side
        out = np.exp(np.log(np.maximum(looks.reshape(turns, len(boxes), len(CLASS_NAMES)), 1e-9)).mean(0))
        out[:, ~self._knows] = 0.0  # a class it never learnt is no reading at all, not the log's floor
        return out / np.maximum(out.sum(1, keepdims=True), 1e-12)

    def _classify_fast(self, rgb_crops: list[np.ndarray], turns: int) -> np.ndarray:
        """(turns x N, classes): RGB crops, every turn, one batch: what ultralytics' predictor feeds the
        network (it turns our BGR back to RGB), without its per-image PIL round trip; the network runs
        in onnxruntime."""
        x = np.stack([np.rot90(c, k) for k in range(turns) for c in rgb_crops]).transpose(0, 3, 1, 2)
        out = np.zeros((len(x), len(CLASS_NAMES)))
        out[:, self._to_codes] = self._run_fast(x)
        return out

    def _classify_ultralytics(self, rgb_crops: list[np.ndarray], turns: int) -> np.ndarray:
        """(turns x N, classes), the same looks through ultralytics' own predictor."""
        crops = [np.ascontiguousarray(np.rot90(cv2.cvtColor(c, cv2.COLOR_RGB2BGR), k)) for k in range(turns) for c in rgb_crops]
        out = np.zeros((len(crops), len(CLASS_NAMES)))
        for start in range(0, len(crops), 64):
            res = self.classifier.predict(crops[start : start + 64], imgsz=self.settings.cls_imgsz, verbose=False)
            for k, r in enumerate(res):
                out[start + k, self._to_codes] = r.probs.data.cpu().numpy().astype(float)
        return out

    def predict(self, rgb: np.ndarray) -> list[RawTile]:
        """The tiles in an RGB photo, boxes in its pixels."""
        rgb, (fx, fy) = shrunk(rgb, self.settings.work_side)
        bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
        boxes, scores = self.detect(bgr)
        # on a close-up the detector can box a big digit, not its tile
        boxes = grow_to_faces(rgb, boxes)
        # the detector's suppression compares upright boxes, and keeps boxes across two tiles of a slanted meld
        keep = one_per_tile(rgb, boxes, scores)
        boxes, scores = boxes[keep], scores[keep]
        # a tile lying face down (the pool, a tile just drawn) is found too, and is no tile face up
        keep = face_up(rgb, boxes)
        boxes, scores = boxes[keep], scores[keep]
        probs = self.classify(rgb, boxes)
        # a 10-13 whose digits fill its face, boxed digit by digit: one tile
        pairs, joined, joined_probs = join_halves(boxes, lambda b: self.classify(rgb, b))
        was_joined = np.zeros(len(boxes), dtype=bool)
        if pairs:
            gone = {i for pair in pairs for i in pair}
            keep = [i for i in range(len(boxes)) if i not in gone]
            was_joined = np.array([False] * len(keep) + [True] * len(pairs), dtype=bool)
            scores = np.concatenate([scores[keep], [max(scores[a], scores[b]) for a, b in pairs]])
            boxes = np.concatenate([boxes[keep], joined])
            probs = np.concatenate([probs[keep], joined_probs])
        boxes = boxes * np.array([fx, fy, fx, fy])  # back in the photo's own pixels
        return [RawTile(tuple(float(v) for v in b), float(s), p, bool(j))
                for b, s, p, j in zip(boxes, scores, probs, was_joined)]


def shrunk(rgb: np.ndarray, longest: int) -> tuple[np.ndarray, tuple[float, float]]:
    """The photo with its longer side at most ``longest`` px (areas averaged; 0: as it is), and the factors that
    take its x and y back to the photo's own pixels."""
    h, w = rgb.shape[:2]
    if longest <= 0 or max(h, w) <= longest:
        return rgb, (1.0, 1.0)
    scale = longest / max(h, w)
    nw, nh = max(1, int(round(w * scale))), max(1, int(round(h * scale)))
    return cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_AREA), (w / nw, h / nh)


def _first_output(net):
    """The network with only its first output (a detection head also returns its feature maps), to export."""
    import torch

    class FirstOutput(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = net

        def forward(self, x):
            y = self.net(x)
            return y[0] if isinstance(y, (tuple, list)) else y

    return FirstOutput().eval()


def _onnx_session(net, shape: tuple[int, ...], dynamic: dict[int, str]):
    """An onnxruntime session (two threads) of a torch network, exported in memory for inputs named ``x``."""
    import io
    import warnings

    import onnxruntime as ort
    import torch

    buf = io.BytesIO()
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(net, torch.zeros(*shape), buf, input_names=["x"], output_names=["y"],
                          dynamic_axes={"x": dynamic}, opset_version=17, dynamo=False)
    return ort.InferenceSession(buf.getvalue(), session_options(2), providers=["CPUExecutionProvider"])


def _short_sides(boxes: np.ndarray) -> np.ndarray:
    return np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])


def add_new_boxes(boxes: np.ndarray, scores: np.ndarray, more: np.ndarray, more_scores: np.ndarray, min_score: float,
                  max_overlap: float, inside: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``boxes`` and, after them, the boxes of ``more`` scoring at least ``min_score`` that overlap (IoU) no box
    of ``boxes`` by ``max_overlap`` or more (nor, with ``inside``, lie that share of their own area or more within
    one of them), each kept only once among themselves (highest score first)."""
    first = np.asarray(boxes, float).reshape(-1, 4)
    more = np.asarray(more, float).reshape(-1, 4)
    keep = np.flatnonzero(np.asarray(more_scores) >= min_score)
    keep = keep[np.argsort(-np.asarray(more_scores)[keep], kind="stable")]
    if inside is not None and len(first) and len(keep):
        keep = keep[box_within(more[keep], first).max(1) < inside]
    added: list[int] = []
    for i in keep:
        shown = np.concatenate([first, more[added].reshape(-1, 4)])
        if not len(shown) or box_iou(more[i : i + 1], shown).max() < max_overlap:
            added.append(int(i))
    if not added:
        return boxes, scores
    return np.concatenate([first, more[added]]), np.concatenate([scores, more_scores[added]])


@functools.lru_cache(maxsize=4)
def _load(folder: str) -> TileModel:
    model = TileModel(folder)
    # The libraries and weights loaded by now are hundreds of thousands of objects that live as long as the
    # process. Left to the cyclic garbage collector, each of its full passes walks them all, and one read now
    # and then stops for it; frozen, the passes walk only what reading makes.
    gc.collect()
    gc.freeze()
    return model


def load_model(models_dir: str | Path | None = None) -> TileModel:
    """The model in ``models_dir`` (default: the committed ``models/``), loaded once per process."""
    return _load(str(Path(models_dir) if models_dir else MODELS_DIR))
