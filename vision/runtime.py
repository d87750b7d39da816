"""How the networks run in onnxruntime: one set of session options for every session the reader opens."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnxruntime


def session_options(threads: int = 0) -> "onnxruntime.SessionOptions":
    """Options for an onnxruntime CPU session with ``threads`` intra-op threads (0: one per core).

    Its threads sleep between runs instead of spinning: a photo is read by one network after another with
    Python work between them (cutting crops, fusing, the rule-aware reading), and on a 2-core machine a
    thread left spinning after its run takes a core from that work.
    """
    import onnxruntime as ort

    opts = ort.SessionOptions()
    if threads:
        opts.intra_op_num_threads = threads
    opts.log_severity_level = 3
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return opts
