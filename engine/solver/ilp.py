"""A thin wrapper over HiGHS (``highspy``) for the solver's integer programs.

One ``Ilp`` is one model: integer columns with bounds and costs, rows given as sparse columns;
``solve`` returns the best point found under a time limit (proven optimal or not): a small branch
and bound over HiGHS's LP relaxation settles most programs, HiGHS's MIP solver the others;
``add_row`` adds a cut before the next ``solve``. The model maximises. HiGHS instances are kept
for the next programs (making one costs more than solving a small program).

No start point is handed to HiGHS: with highspy 1.16, after ``setSolution`` the solution read
back can be the start point even when HiGHS reports a better optimum, so the caller keeps its
own fallback instead.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Sequence

import highspy
import numpy as np
from highspy import _core as _hcore

__all__ = ["Ilp", "IlpResult", "Rows"]

_INF = highspy.kHighsInf
_PRESOLVE_BELOW = 30  # columns: HiGHS presolves smaller programs only
_MAX_NODES = 40  # LP relaxations of the quick branch and bound before HiGHS's MIP solver takes over
_INTEGRAL = 1e-6  # a column this close to an integer is one
_BOUND_SLACK = 1e-6  # relative: how far an LP optimum may fall short of the true one
_STARTED = False
_IDLE: list["_hcore._Highs"] = []  # instances of programs gone, for the next ones
_MAX_IDLE = 4
_Node = tuple[tuple[int, float, float], ...]  # a branch and bound node: (column, lower, upper) from the root
_Bounds = dict[int, tuple[float, float]]  # column -> (lower, upper) changed from the program's


def _new_highs() -> "_hcore._Highs":
    """A silent HiGHS instance. The first instance in a process prints a banner on stdout from
    C++; it is swallowed at the file-descriptor level so ``rummi hint --json`` stays clean."""
    global _STARTED
    if not _STARTED:
        _STARTED = True
        try:
            saved = os.dup(1)
        except OSError:  # no stdout at all
            return _configure(_hcore._Highs())
        try:
            with open(os.devnull, "wb") as null:
                os.dup2(null.fileno(), 1)
                try:
                    return _configure(_hcore._Highs())
                finally:
                    os.dup2(saved, 1)
        finally:
            os.close(saved)
    return _configure(_hcore._Highs())


def _configure(h: "_hcore._Highs") -> "_hcore._Highs":
    """Silence and the options every program gets."""
    h.setOptionValue("output_flag", False)
    h.setOptionValue("log_to_console", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    # every objective coefficient is an integer, so a gap below 1 proves optimality
    h.setOptionValue("mip_abs_gap", 0.99)
    # the MIP solver's own presolve (which runs whatever ``presolve`` says) at the root only, and
    # no symmetry detection: both cost more than they save on these programs
    h.setOptionValue("mip_root_presolve_only", True)
    h.setOptionValue("mip_detect_symmetry", False)
    # the feasibility-jump heuristic (HiGHS >= 1.10) finds nothing the root LP does not, and
    # took half of the remaining time on 60- and 90-tile positions
    h.setOptionValue("mip_heuristic_run_feasibility_jump", False)
    # one thread: the branch and bound of these programs is serial anyway, and idle workers
    # cost CPU on a small machine (see ``Ilp.solve`` for a process whose HiGHS already runs more)
    h.setOptionValue("threads", 1)
    return h


def _take_highs() -> "_hcore._Highs":
    """An instance for a new program: an idle one (making one costs more than a small solve)."""
    try:
        return _IDLE.pop()
    except IndexError:
        return _new_highs()


def _give_back(h: "_hcore._Highs") -> None:
    if len(_IDLE) < _MAX_IDLE:  # (its program stays until the next ``passModel`` replaces it)
        _IDLE.append(h)


@dataclass(frozen=True)
class IlpResult:
    """values: the column values (rounded) or None when no feasible point was found;
    optimal: proven optimal; infeasible: proven to have no solution; objective: of ``values``."""

    values: np.ndarray | None
    optimal: bool
    infeasible: bool
    objective: float


class Ilp:
    """Maximise ``cost @ x`` subject to ``row_lower <= A x <= row_upper``, bounds, integrality
    (every column is an integer).

    ``solve`` first runs a small depth-first branch and bound over the LP relaxation (HiGHS's
    simplex, warm-started after each bound change): most programs have an integral LP optimum or
    need a few branches, and that is several times quicker than setting up HiGHS's MIP solver.
    After ``_MAX_NODES`` relaxations it hands the program to HiGHS's MIP solver.
    """

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
        self.n = n
        self._cost = np.asarray(cost, dtype=np.float64)
        self._lower = np.asarray(col_lower, dtype=np.float64)
        self._upper = np.asarray(col_upper, dtype=np.float64)
        self._integral = False  # whether HiGHS knows the columns are integers (its MIP solver)
        # with no column, the answer is the empty point if every row allows 0 (HiGHS only says
        # the program is empty)
        self._zero_fits = n > 0 or bool(np.all((np.asarray(row_lower) <= 0) & (np.asarray(row_upper) >= 0)))
        self._h = h = _take_highs()
        # the arrays as they are (a ``HighsLp`` would copy them element by element); the LP first
        h.passModel(
            n,
            len(row_lower),
            len(a_index),
            int(highspy.MatrixFormat.kColwise),
            int(highspy.ObjSense.kMaximize),
            0.0,
            self._cost,
            self._lower,
            self._upper,
            np.asarray(row_lower, dtype=np.float64),
            np.asarray(row_upper, dtype=np.float64),
            np.asarray(a_start[:n], dtype=np.int32),
            np.asarray(a_index, dtype=np.int32),
            np.asarray(a_value, dtype=np.float64),
            np.zeros(n, dtype=np.int32),
        )
        self._presolve()

    def __del__(self) -> None:
        # the instance for the next program (a finalizer object per program costs more)
        h = self.__dict__.get("_h")
        if h is not None:
            _give_back(h)

    def add_row(self, index: Sequence[int], value: Sequence[float], lower: float, upper: float) -> None:
        idx = np.asarray(index, dtype=np.int32)
        val = np.asarray(value, dtype=np.float64)
        self._h.addRow(float(lower), float(upper), len(idx), idx, val)
        self._zero_fits &= lower <= 0 <= upper

    def set_costs(self, cost: np.ndarray) -> None:
        """Replace the objective (still maximised)."""
        self._cost = np.array(cost, dtype=np.float64)  # (a copy: the caller keeps its array)
        self._h.changeColsCost(self.n, np.arange(self.n, dtype=np.int32), self._cost)

    def solve(self, time_limit: float, quick: bool = True) -> IlpResult:
        """The best point (``quick``: by the branch and bound first, else by HiGHS's MIP solver
        alone; the two seldom pick the same one of several optima)."""
        if not self.n:
            if self._zero_fits:
                return IlpResult(np.zeros(0, dtype=np.int64), True, False, 0.0)
            return IlpResult(None, False, True, float("-inf"))
        deadline = time.perf_counter() + max(time_limit, 1e-4)
        found = self._branch_and_bound(deadline) if quick else None
        return found if found is not None else self._mip(deadline)

    def _branch_and_bound(self, deadline: float) -> IlpResult | None:
        """The proven optimum (or proven infeasibility) by depth-first branch and bound on the LP
        relaxation; None when it gives up (``_MAX_NODES`` relaxations, the time limit, or an LP
        HiGHS does not settle)."""
        h = self._h
        self._set_integral(False)
        best, best_x = -np.inf, None
        stack: list[tuple[_Node, float]] = [((), np.inf)]  # each with the LP bound of its parent
        applied: _Bounds = {}
        nodes = 0
        try:
            while stack:
                node, bound = stack.pop()
                # objective coefficients are integers: a node whose bound is not 1 above the best
                # holds nothing better (the margin covers the LP's tolerances)
                if bound + _BOUND_SLACK * max(1.0, abs(bound)) < best + 1:
                    continue
                if nodes == _MAX_NODES or time.perf_counter() >= deadline:
                    return None
                nodes += 1
                applied = self._bound(applied, node)
                if self._run(deadline) != highspy.HighsModelStatus.kOptimal:
                    if h.getModelStatus() == highspy.HighsModelStatus.kInfeasible:
                        continue
                    return None
                bound = h.getObjectiveValue()
                if bound + _BOUND_SLACK * max(1.0, abs(bound)) < best + 1:
                    continue
                x = np.asarray(h.getSolution().col_value, dtype=np.float64)
                frac = np.abs(x - np.rint(x))
                j = int(frac.argmax())  # the most fractional column, or an integral point
                if frac[j] <= _INTEGRAL:
                    point = np.rint(x)
                    value = float(self._cost @ point)
                    if value > best:
                        best, best_x = value, point
                    continue
                lo, up = applied.get(j, (self._lower[j], self._upper[j]))
                down = float(np.floor(x[j]))
                stack.append((node + ((j, lo, down),), bound))
                stack.append((node + ((j, down + 1, up),), bound))  # the branch up first
        finally:
            self._bound(applied, ())
        if best_x is None:
            return IlpResult(None, False, True, float("-inf"))
        return IlpResult(best_x.astype(np.int64), True, False, best)

    def _bound(self, applied: _Bounds, node: _Node) -> _Bounds:
        """Column bounds as ``node`` says (the rest as built); the bounds changed now."""
        target = {j: (lo, up) for j, lo, up in node}
        for j in applied.keys() - target.keys():
            self._h.changeColBounds(j, self._lower[j], self._upper[j])
        for j, (lo, up) in target.items():
            if applied.get(j) != (lo, up):
                self._h.changeColBounds(j, lo, up)
        return target

    def _mip(self, deadline: float) -> IlpResult:
        """HiGHS's MIP solver until the deadline: the incumbent, proven optimal or not."""
        h = self._h
        self._set_integral(True)
        status = self._run(deadline)
        infeasible = status == highspy.HighsModelStatus.kInfeasible
        optimal = status == highspy.HighsModelStatus.kOptimal
        _, point = h.getInfoValue("primal_solution_status")
        if optimal or point == int(highspy.SolutionStatus.kSolutionStatusFeasible):
            x = np.rint(np.asarray(h.getSolution().col_value, dtype=np.float64)).astype(np.int64)
            return IlpResult(x, optimal, False, float(h.getObjectiveValue()))
        return IlpResult(None, False, infeasible, float("-inf"))

    def _set_integral(self, integral: bool) -> None:
        """The columns as integers (HiGHS's MIP solver) or not (the LP relaxation)."""
        if integral == self._integral:
            return
        self._integral = integral
        kind = int(highspy.HighsVarType.kInteger if integral else highspy.HighsVarType.kContinuous)
        self._h.changeColsIntegrality(self.n, np.arange(self.n, dtype=np.int32), np.full(self.n, kind, dtype=np.int32))
        self._presolve()

    def _presolve(self) -> None:
        # presolve costs more than it saves on a program with a table in play, and on an LP
        # warm-started after a bound change; a tiny MIP (a rack alone) it often solves outright,
        # but its rule 15 (probing) costs more than it saves
        small = self._integral and self.n < _PRESOLVE_BELOW
        self._h.setOptionValue("presolve", "choose" if small else "off")
        self._h.setOptionValue("presolve_rule_off", 1 << 15 if small else 0)

    def _run(self, deadline: float) -> "highspy.HighsModelStatus":
        h = self._h
        left = max(deadline - time.perf_counter(), 1e-4)
        # HiGHS's simplex holds the limit against the instance's clock, which runs on over all the
        # runs of a pooled instance (the app's process lives for hours); its MIP solver against
        # this run's own
        h.setOptionValue("time_limit", left if self._integral else h.getRunTime() + left)
        if h.run() == highspy.HighsStatus.kError and h.getModelStatus() == highspy.HighsModelStatus.kNotset:
            # HiGHS's thread pool is per process: another user of highspy in this process started
            # it with more threads, and then it must be used as it is
            h.setOptionValue("threads", 0)
            h.run()
        return h.getModelStatus()


class Rows:
    """Rows of the program as bounds and (row, column, value) triplets. Entries come in chunks
    (arrays) kept in the order they were added; single entries and short rows gather in plain
    lists first (the joker rows add many: a numpy array for each costs more than the entry)."""

    def __init__(self) -> None:
        self._r: list[np.ndarray] = []
        self._c: list[np.ndarray] = []
        self._v: list[np.ndarray] = []
        self._pending: tuple[list, list, list] = ([], [], [])  # entries not in a chunk yet
        self._lo: list[float] = []
        self._hi: list[float] = []
        self.n = 0

    def new(self, lower, upper=None) -> int:
        """Append rows (``lower`` an array or a number; ``upper`` defaults to ``lower``); the
        index of the first."""
        first = self.n
        if isinstance(lower, (int, float, np.number)):
            self._lo.append(float(lower))
            self._hi.append(float(lower if upper is None else upper))
            self.n += 1
            return first
        lo = np.asarray(lower, dtype=np.float64).reshape(-1)
        self._lo += lo.tolist()
        self._hi += (lo if upper is None else _spread(upper, len(lo), np.float64)).tolist()
        self.n += len(lo)
        return first

    def add(self, rows, cols, values) -> None:
        """Entries (``cols`` and ``values`` arrays like ``rows`` or single numbers)."""
        self._flush()
        r = np.asarray(rows, dtype=np.int64).reshape(-1)
        self._r.append(r)
        self._c.append(_spread(cols, len(r), np.int64))
        self._v.append(_spread(values, len(r), np.float64))

    def put(self, col: int, row: int, value: float) -> None:
        r, c, v = self._pending
        r.append(row)
        c.append(col)
        v.append(value)

    def row(self, cols: Sequence[int], values: Sequence[float], lower: float, upper: float) -> None:
        """Append one row."""
        first = self.new(lower, upper)
        r, c, v = self._pending
        r += [first] * len(cols)
        c += list(cols)
        v += list(values)

    def _flush(self) -> None:
        r, c, v = self._pending
        if r:
            self._r.append(np.array(r, dtype=np.int64))
            self._c.append(np.array(c, dtype=np.int64))
            self._v.append(np.array(v, dtype=np.float64))
            self._pending = ([], [], [])

    def matrix(self, n_cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Column starts, row indices and values (column-wise), then the row bounds; rows without
        an entry that 0 satisfies (the balance of a face no column holds) are left out."""
        self._flush()
        r = np.concatenate(self._r) if self._r else np.zeros(0, dtype=np.int64)
        c = np.concatenate(self._c) if self._c else np.zeros(0, dtype=np.int64)
        v = np.concatenate(self._v) if self._v else np.zeros(0)
        lower, upper = np.array(self._lo, dtype=np.float64), np.array(self._hi, dtype=np.float64)
        keep = (lower > 0) | (upper < 0)
        keep[r] = True
        r = (np.cumsum(keep) - 1)[r]
        # column-wise: by column, then row (a stable sort on one key costs half of np.lexsort's two)
        order = np.argsort(c * len(lower) + r, kind="stable")
        start = np.searchsorted(c[order], np.arange(n_cols + 1))
        return start, r[order], v[order], lower[keep], upper[keep]


def _spread(x, n: int, dtype: type) -> np.ndarray:
    """``x`` as a 1-d array of ``n`` (a number repeated)."""
    a = np.asarray(x, dtype=dtype)
    return np.full(n, a, dtype=dtype) if a.ndim == 0 else a.reshape(-1)
