"""The Rummikub rules engine: pure functions over small immutable value objects.

No I/O lives here; the only third-party import allowed is the solver library (HiGHS).
"""
