"""Errors every front end shares."""


class BadInput(Exception):
    """Input the user must fix; shown without a traceback (exit code 2 on the command line)."""
