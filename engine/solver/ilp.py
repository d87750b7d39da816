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

__all__ = ["Ilp", "IlpResult"]

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
