"""One module per ``rummi`` subcommand; each exposes ``register(subparsers)``."""
