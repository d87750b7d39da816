"""The one base class for input a person must fix (a mistyped tile, a hand that breaks the rules,
an unreadable photo, a dataset that is not one). Front ends show it as a message, never a
traceback; any other exception is a bug and stays one."""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be taken, with a message that says what and why."""
