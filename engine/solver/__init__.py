"""The hint solver: the provably best play from a rack (an integer program solved by HiGHS).

Modules: ``catalogue`` (every joker-free set, built once per house rules; under Rummikub Twist
also every set shape with a special joker, from ``twist``), ``keep`` (columns that
keep a table set, grown at its ends), ``program`` (the program's columns: ``Model``,
``Solution``), ``model`` (builds the integer program), ``joker_rows`` (its rows for the joker
rules), ``ilp`` (HiGHS), ``greedy`` (a quick fallback), ``layout`` (the table afterwards, jokers
placed), ``moves`` (steps for a person), ``hint`` (``best_play``, its answer).
"""

from engine.solver.hint import Hint, Play, best_meld_points, best_play

__all__ = ["Hint", "Play", "best_meld_points", "best_play"]
