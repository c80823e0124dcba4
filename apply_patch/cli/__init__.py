"""The command line: one module per command (`_main` applies and dispatches the others)."""

from ._main import main

__all__ = ["main"]
