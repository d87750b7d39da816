"""A thin wrapper over HiGHS (``highspy``) for the solver's integer programs.

One ``Ilp`` is one model: columns with bounds, costs and integrality, rows given as sparse
columns; ``solve`` runs HiGHS under a time limit and returns the incumbent (proven optimal or
not); ``add_row`` adds a cut before the next ``solve``. The model maximises.

No start point is handed to HiGHS: with highspy 1.16, after ``setSolution`` the solution read
back can be the start point even when HiGHS reports a better optimum, so the caller keeps its
own fallback instead.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Sequence

import highspy
import numpy as np
from highspy import _core as _hcore

__all__ = ["Ilp", "IlpResult", "Rows"]

_INF = highspy.kHighsInf
_STARTED = False


def _new_highs() -> "_hcore._Highs":
    """A silent HiGHS instance. The first instance in a process prints a banner on stdout from
    C++; it is swallowed at the file-descriptor level so ``rummi hint --json`` stays clean."""
    global _STARTED
    if not _STARTED:
        _STARTED = True
        try:
            saved = os.dup(1)
        except OSError:  # no stdout at all
            return _silence(_hcore._Highs())
        try:
            with open(os.devnull, "wb") as null:
                os.dup2(null.fileno(), 1)
                try:
                    return _silence(_hcore._Highs())
                finally:
                    os.dup2(saved, 1)
        finally:
            os.close(saved)
    return _silence(_hcore._Highs())


def _silence(h: "_hcore._Highs") -> "_hcore._Highs":
    h.setOptionValue("output_flag", False)
    h.setOptionValue("log_to_console", False)
    return h


@dataclass(frozen=True)
class IlpResult:
    """values: the column values (rounded) or None when no feasible point was found;
    optimal: proven optimal; infeasible: proven to have no solution; objective: of ``values``."""

    values: np.ndarray | None
    optimal: bool
    infeasible: bool
    objective: float


class Ilp:
    """Maximise ``cost @ x`` subject to ``row_lower <= A x <= row_upper``, bounds, integrality."""

    def __init__(
        self,
        cost: np.ndarray,
        col_lower: np.ndarray,
        col_upper: np.ndarray,
        a_start: np.ndarray,
        a_index: np.ndarray,
        a_value: np.ndarray,
        row_lower: np.ndarray,
        row_upper: np.ndarray,
    ) -> None:
        n = len(cost)
        lp = highspy.HighsLp()
        lp.num_col_ = n
        lp.num_row_ = len(row_lower)
        lp.col_cost_ = np.asarray(cost, dtype=np.float64)
        lp.col_lower_ = np.asarray(col_lower, dtype=np.float64)
        lp.col_upper_ = np.asarray(col_upper, dtype=np.float64)
        lp.row_lower_ = np.asarray(row_lower, dtype=np.float64)
        lp.row_upper_ = np.asarray(row_upper, dtype=np.float64)
        lp.sense_ = highspy.ObjSense.kMaximize
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = np.asarray(a_start, dtype=np.int32)
        lp.a_matrix_.index_ = np.asarray(a_index, dtype=np.int32)
        lp.a_matrix_.value_ = np.asarray(a_value, dtype=np.float64)
        lp.integrality_ = [highspy.HighsVarType.kInteger] * n
        self.n = n
        self._h = _new_highs()
        h = self._h
        h.setOptionValue("mip_rel_gap", 0.0)
        # every objective coefficient is an integer, so a gap below 1 proves optimality
        h.setOptionValue("mip_abs_gap", 0.99)
        # presolve rule 15 (probing) costs more than it saves on these small programs: it took
        # over half the time of a 60-tile position, and switching it off halves the median
        h.setOptionValue("presolve_rule_off", 1 << 15)
        # the feasibility-jump heuristic (HiGHS >= 1.10) finds nothing the root LP does not, and
        # took half of the remaining time on 60- and 90-tile positions
        h.setOptionValue("mip_heuristic_run_feasibility_jump", False)
        # one thread: the branch and bound of these programs is serial anyway, and idle workers
        # cost CPU on a small machine (see ``solve`` for a process whose HiGHS already runs more)
        h.setOptionValue("threads", 1)
        h.passModel(lp)

    def add_row(self, index: Sequence[int], value: Sequence[float], lower: float, upper: float) -> None:
        idx = np.asarray(index, dtype=np.int32)
        val = np.asarray(value, dtype=np.float64)
        self._h.addRow(float(lower), float(upper), len(idx), idx, val)

    def set_costs(self, cost: np.ndarray) -> None:
        """Replace the objective (still maximised)."""
        cost = np.asarray(cost, dtype=np.float64)
        self._h.changeColsCost(len(cost), np.arange(len(cost), dtype=np.int32), cost)

    def solve(self, time_limit: float) -> IlpResult:
        h = self._h
        h.setOptionValue("time_limit", float(max(time_limit, 1e-4)))
        if h.run() == highspy.HighsStatus.kError and h.getModelStatus() == highspy.HighsModelStatus.kNotset:
            # HiGHS's thread pool is per process: another user of highspy in this process started
            # it with more threads, and then it must be used as it is
            h.setOptionValue("threads", 0)
            h.run()
        status = h.getModelStatus()
        infeasible = status == highspy.HighsModelStatus.kInfeasible
        optimal = status == highspy.HighsModelStatus.kOptimal
        info = h.getInfo()
        has_point = info.primal_solution_status == highspy.SolutionStatus.kSolutionStatusFeasible
        if optimal or has_point:
            x = np.rint(np.asarray(h.getSolution().col_value, dtype=np.float64)).astype(np.int64)
            return IlpResult(x, optimal, False, float(info.objective_function_value))
        return IlpResult(None, False, infeasible, float("-inf"))


class Rows:
    """Rows of the program as bounds and (row, column, value) triplets."""

    def __init__(self) -> None:
        self._r: list[np.ndarray] = []
        self._c: list[np.ndarray] = []
        self._v: list[np.ndarray] = []
        self._lo: list[np.ndarray] = []
        self._hi: list[np.ndarray] = []
        self.n = 0

    def new(self, lower, upper=None) -> int:
        """Append rows (``lower`` an array or a number; ``upper`` defaults to ``lower``); the
        index of the first."""
        lo = np.atleast_1d(np.asarray(lower, dtype=np.float64))
        hi = lo.copy() if upper is None else np.broadcast_to(np.asarray(upper, dtype=np.float64), lo.shape).copy()
        self._lo.append(lo)
        self._hi.append(hi)
        first = self.n
        self.n += len(lo)
        return first

    def add(self, rows, cols, values) -> None:
        rows = np.atleast_1d(np.asarray(rows, dtype=np.int64))
        cols = np.broadcast_to(np.asarray(cols, dtype=np.int64), rows.shape)
        vals = np.broadcast_to(np.asarray(values, dtype=np.float64), rows.shape)
        self._r.append(rows)
        self._c.append(np.array(cols))
        self._v.append(np.array(vals))

    def put(self, col: int, row: int, value: float) -> None:
        self.add([row], [col], [value])

    @property
    def lower_bounds(self) -> np.ndarray:
        return np.concatenate(self._lo)

    @property
    def upper_bounds(self) -> np.ndarray:
        return np.concatenate(self._hi)

    def csc(self, n_cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r = np.concatenate(self._r) if self._r else np.zeros(0, dtype=np.int64)
        c = np.concatenate(self._c) if self._c else np.zeros(0, dtype=np.int64)
        v = np.concatenate(self._v) if self._v else np.zeros(0)
        order = np.lexsort((r, c))
        r, c, v = r[order], c[order], v[order]
        start = np.searchsorted(c, np.arange(n_cols + 1))
        return start, r, v
