"""Race campaigns, bounded by count and by time: none may lose an update or leave the root.

The long versions are `benchmarks/stress.py` (same campaigns, more runs,
figures printed). Here each runs at most RUNS times and at most DEADLINE
seconds: a slow machine runs fewer, never longer.
"""

from pathlib import Path

import pytest

import _races

RUNS, DEADLINE = 40, 20.0


@pytest.mark.parametrize(
    "campaign",
    [
        _races.folder_flips_to_symlink,
        _races.two_processes,
        _races.two_threads,
        _races.pipelined_mcp_calls,
        _races.sigint_anywhere,
    ],
    ids=lambda c: c.__name__,
)
def test_campaign(campaign, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    counts = campaign(tmp_path, RUNS, DEADLINE)
    assert counts.runs > 0
    assert (counts.lost, counts.outside, counts.tracebacks, counts.mixed, counts.leftovers) == (
        0, 0, 0, 0, 0,
    ), counts.line() + "".join(f"\n  {note}" for note in counts.notes)
