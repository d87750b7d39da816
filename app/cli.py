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

EXIT_OK, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2

# Order is the order shown in --help.
COMMANDS: tuple[str, ...] = (
    "check", "score", "hint", "read", "evaluate", "synth", "train", "cards", "app",
)


from app.errors import BadInput  # noqa: E402  (re-exported: commands raise app.cli.BadInput)

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
    except BadInput as exc:
        print(f"rummi {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as exc:  # NotationError and friends: the user's input, not a crash
        print(f"rummi {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    return int(code or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
