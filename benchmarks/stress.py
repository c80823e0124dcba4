"""The race campaigns of tests/test_races.py, long: prints each one's counts.

    python benchmarks/stress.py [--runs N] [--deadline SECONDS]

Run with the interpreter of the virtual environment where the package is
installed with its test extra (`make test` makes one). Every campaign must
show lost=0 outside=0 tracebacks=0 mixed=0 leftovers=0; `refused` counts
clean errors after which nothing changed.
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import _races  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300, help="runs per campaign (default 300)")
    parser.add_argument("--deadline", type=float, default=120.0, help="seconds per campaign (default 120)")
    options = parser.parse_args()
    bad = 0
    # The campaigns' receipts and journals (every process they start inherits this): never
    # the user's state folder.
    with tempfile.TemporaryDirectory(prefix="apply_patch-stress-state-") as state:
        os.environ["APPLY_PATCH_STATE_DIR"] = state
        for campaign in _races.CAMPAIGNS:
            with tempfile.TemporaryDirectory() as folder:
                counts = campaign(Path(folder), options.runs, options.deadline)
            print(counts.line(), flush=True)
            for note in counts.notes:
                print(f"  {note}")
            bad += counts.lost + counts.outside + counts.tracebacks + counts.mixed + counts.leftovers
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
