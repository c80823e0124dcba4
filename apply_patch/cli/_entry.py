"""The `apply_patch` console script: `--version` said at once, anything else run by `_main`.

Saying the version imports nothing of the engine, the options or Lark (the start-up
goal: `--version` within 2.5x `python -c pass`, tests/cli/test_startup.py).
"""

from __future__ import annotations

import gc
import sys

from . import _output
from .._version import VERSION


def run() -> int:
    """The executable's entry point."""
    if sys.argv[1:] in (["--version"], ["-V"]):  # as argparse would print it (`_options.add_version`)
        _output.write(f"apply_patch {VERSION}\n")
        return 0
    # What the engine imports lives as long as the process: imported with the collector
    # off, then frozen (`gc.freeze`: no collection walks it again), the collector as it was.
    collecting = gc.isenabled()
    gc.disable()
    from ._main import run as run_main

    gc.freeze()
    if collecting:
        gc.enable()
    return run_main()
