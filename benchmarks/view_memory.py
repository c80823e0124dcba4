"""Peak memory of TextEditor's `view` with a line range, on files far larger than memory allows.

    python benchmarks/view_memory.py [--lines N]

A 4 GiB sparse file (a first line of text, then zero bytes: made with
truncate, it takes no disk) and a file of N real lines (default 3,000,000
lines of 100 bytes: 300 MB). Each view runs in a fresh interpreter
(`probe.py view`); the figure is the peak resident size during the view
above the resident size just before it.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=3_000_000, help="lines of the real file")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        sparse = root / "sparse.bin"
        sparse.write_text("the first line\n")
        os.truncate(sparse, 4 << 30)
        _lines(root / "lines.txt", options.lines)
        size = (root / "lines.txt").stat().st_size
        for name, first, last, what in (
            ("sparse.bin", 1, 1, "4 GiB sparse file, view_range [1, 1]"),
            ("lines.txt", 1, 1, f"{size / 1e6:.0f} MB of lines, view_range [1, 1]"),
            ("lines.txt", options.lines // 2, options.lines // 2 + 9, f"{size / 1e6:.0f} MB, 10 lines in the middle"),
            ("lines.txt", options.lines, -1, f"{size / 1e6:.0f} MB, the last line"),
        ):
            answer = json.loads(subprocess.run(
                [sys.executable, str(HERE / "probe.py"), "view", str(root), name, str(first), str(last)],
                capture_output=True, text=True, check=True,
            ).stdout)
            print(f"{what}: peak RSS growth {answer['rss_growth'] / 2**20:.1f} MiB, "
                  f"{answer['seconds']:.3f} s; {answer['answer']!r}")
    return 0


def _lines(path: Path, count: int) -> None:
    line = "%09d " + "x" * 90 + "\n"
    with path.open("w") as file:
        for start in range(0, count, 100_000):
            file.write("".join(line % n for n in range(start + 1, min(start + 100_001, count + 1))))


if __name__ == "__main__":
    sys.exit(main())
