"""The hostile campaigns of tests/test_hostile.py, long: prints each one's counts.

    python benchmarks/hostile.py [--runs N] [--deadline SECONDS]

Run with the interpreter of the virtual environment where the package is
installed with its test extra (`make test` makes one). Every campaign must
show leaks=0 partial=0 leftovers=0 tracebacks=0 changed=0 unanswered=0;
`refused` counts clean errors after which nothing changed, `during a commit`
the signals sent while a commit ran. `--runs` is per signal campaign; the
call campaigns make 100 calls for each run.
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import _hostile  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300, help="runs per signal campaign (default 300)")
    parser.add_argument("--deadline", type=float, default=120.0, help="seconds per campaign (default 120)")
    options = parser.parse_args()
    bad = 0
    # The campaigns' receipts and journals (every process they start inherits this): never
    # the user's state folder.
    with tempfile.TemporaryDirectory(prefix="apply_patch-hostile-state-") as state:
        os.environ["APPLY_PATCH_STATE_DIR"] = state
        for number, campaign in enumerate(_hostile.CAMPAIGNS):
            runs = options.runs if number < len(_hostile.WAYS) else options.runs * 100
            with tempfile.TemporaryDirectory() as folder:
                tally = campaign(Path(folder), runs, options.deadline)
            print(tally.line(), flush=True)
            for note in tally.notes[:20]:
                print(f"  {note}")
            bad += tally.bad()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
