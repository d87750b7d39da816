"""``rummi app [--port N] [--db FILE]``: start the Streamlit app (``streamlit run app/main.py``, through
``app/serve.py``, which loads the model as the server starts).

Headless (it prints the address to open instead of opening a browser), no usage statistics, uploads
up to 50 MB (a phone photo is 2-15 MB). The database is created on first use in the user's data
folder; ``--db`` (or the ``RUMMI_DB`` environment variable) picks another file.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from app.errors import BadInput

MAIN = Path(__file__).resolve().parent.parent / "main.py"
DEFAULT_PORT = 8501
MAX_UPLOAD_MB = 50


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "app",
        help="start the app in the browser (check the table, hints, score sheet)",
        description="Start the rummi app (Streamlit) on this computer; open the printed address in a browser.",
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to serve on (default {DEFAULT_PORT})")
    p.add_argument(
        "--address", default=None,
        help="address to listen on (default: Streamlit's, every interface; 127.0.0.1 for this computer only)",
    )
    p.add_argument("--db", metavar="FILE", help="the database file (default: in the user's data folder; or $RUMMI_DB)")
    p.set_defaults(handler=run)


def streamlit_command(port: int, address: str | None = None) -> list[str]:
    """The ``streamlit run`` command line the app is started with."""
    cmd = [
        sys.executable, "-m", "app.serve", "run", str(MAIN),
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.maxUploadSize", str(MAX_UPLOAD_MB),
        "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "minimal",
        "--client.showErrorDetails", "none",
        "--server.fileWatcherType", "none",
    ]
    if address:
        cmd += ["--server.address", address]
    return cmd


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.port <= 65535:
        raise BadInput(f"--port must be 1-65535, got {args.port}")
    env = dict(os.environ)
    env.setdefault("YOLO_OFFLINE", "1")
    if args.db:
        env["RUMMI_DB"] = str(Path(args.db).expanduser().resolve())
    cmd = streamlit_command(args.port, args.address)
    os.chdir(MAIN.parent.parent)  # the project folder: Streamlit reads .streamlit/config.toml there
    if os.name == "posix":  # become Streamlit: Ctrl-C and kill reach the server itself
        os.execve(cmd[0], cmd, env)
    try:  # pragma: no cover - Windows
        return subprocess.call(cmd, env=env)
    except KeyboardInterrupt:  # pragma: no cover
        return 0
