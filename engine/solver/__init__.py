"""The hint solver: the provably best play from a rack (an integer program solved by HiGHS).

Modules: ``catalogue`` (every set shape, built once per house rules), ``keep`` (columns that keep
a table set, grown at its ends), ``model`` (the integer program), ``ilp`` (HiGHS), ``greedy``
(a quick start and fallback), ``layout`` (the table afterwards), ``moves`` (steps for a person),
``hint`` (``best_play`` and its answer).
"""

from engine.solver.hint import Hint, Play, best_meld_points, best_play

__all__ = ["Hint", "Play", "best_meld_points", "best_play"]
