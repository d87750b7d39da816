"""The ``rummi`` command line, in ultralytics' style: ``rummi VERB [args]``.

Exit codes (a stable contract): 0 done / valid, 1 the answer is "invalid", 2 bad input.
Each subcommand lives in ``app/commands/<name>.py`` and exposes ``register(subparsers)``; the
registered handler returns the exit code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

from app.errors import EXIT_BAD_INPUT, EXIT_INVALID, EXIT_OK, BadInput  # re-exported
from engine.errors import InputError

# Order is the order shown in --help.
COMMANDS: tuple[str, ...] = (
    "check", "score", "hint", "read", "evaluate", "synth", "train", "cards", "app", "export_corrections",
)


__all__ = ["BadInput", "EXIT_BAD_INPUT", "EXIT_INVALID", "EXIT_OK", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummi",
        description="Rummikub table companion: check melds, hints, scores, read photos.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"app.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("YOLO_OFFLINE", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.handler(args)
    except (BadInput, InputError) as exc:  # the user's input; any other exception is a bug and shows as one
        print(f"rummi {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader of our output went away (`rummi read x.jpg | head -1`): nothing to tell it
        # Python would report the failed flush of stdout at exit again: point stdout at nothing first
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a command stopped by a closed pipe
    return int(code or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
