"""Exit 2 is for the user's input only: the project's input errors become a message, a bug stays a bug."""

from __future__ import annotations

import argparse

import pytest

import app.cli as cli
from engine.tiles import NotationError, parse_tile
from vision.errors import ImageError


def _notation_error() -> NotationError:
    try:
        parse_tile("R14")
    except NotationError as exc:
        return exc
    raise AssertionError("R14 parsed")


def _with_handler(monkeypatch, exc: Exception) -> None:
    real = cli.build_parser

    def parser() -> argparse.ArgumentParser:
        p = real()

        def handler(args: argparse.Namespace) -> int:
            raise exc

        p._subparsers._group_actions[0].choices["check"].set_defaults(handler=handler)
        return p

    monkeypatch.setattr(cli, "build_parser", parser)


@pytest.mark.parametrize("exc", [_notation_error(), ImageError("x.jpg: not a photo"), cli.BadInput("--n must be 1")])
def test_input_errors_are_exit_2_with_the_message(monkeypatch, capsys, exc) -> None:
    _with_handler(monkeypatch, exc)
    assert cli.main(["check", "R1 R2 R3"]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("rummi check: ") and str(exc) in err


def test_a_bug_is_not_reported_as_bad_input(monkeypatch) -> None:
    _with_handler(monkeypatch, ValueError("a bug, not the user's input"))
    with pytest.raises(ValueError, match="a bug"):
        cli.main(["check", "R1 R2 R3"])


def test_a_reader_that_goes_away_is_no_traceback() -> None:
    """`rummi check ... | head -1`: the pipe closes before the answer is written."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "app.cli", "check", "R1 R2 R3"], stdout=write_end,
                              stderr=subprocess.PIPE, cwd=Path(__file__).resolve().parents[1], timeout=120)
    finally:
        os.close(write_end)
    assert done.returncode == 141
    assert b"Traceback" not in done.stderr and b"BrokenPipe" not in done.stderr
