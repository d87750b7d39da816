"""What every front end shares: the exit codes and the error for input the user must fix."""

EXIT_OK, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2  # a stable contract: done / the answer is "invalid" / bad input


class BadInput(Exception):
    """Input the user must fix; shown without a traceback (exit code 2 on the command line)."""
