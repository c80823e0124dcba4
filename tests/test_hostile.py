"""Hostile campaigns against every edit surface (issue #22), bounded by count and by time.

The long versions are `benchmarks/hostile.py` (same campaigns, more runs,
figures printed). Here each runs at most its count and at most DEADLINE
seconds: a slow machine runs fewer, never longer. Every campaign must end
with leaks, partial commits, leftovers, tracebacks, changed trees and
unanswered requests all 0.
"""

from pathlib import Path

import pytest

import _hostile

DEADLINE = 12.0


@pytest.mark.parametrize("way", _hostile.WAYS)
def test_signals_never_leave_a_half_applied_patch(way: str, tmp_path: Path) -> None:
    # SIGTERM, SIGHUP, SIGKILL in turn: twice, or once where a run is slow (serve starts
    # slowly; the library's second thread polls for the commit, slowing it down).
    runs = 6 if way in ("executable", "library, worker thread") else 3
    _check(_hostile.signals(tmp_path, runs, DEADLINE, way))


@pytest.mark.parametrize(
    ("campaign", "runs"),
    [
        (_hostile.read_race, 1500),
        (_hostile.hostile_input, 2000),
        (_hostile.hostile_executable, 30),
        (_hostile.mcp_requests, 300),
        (_hostile.gate_race, 8),
        (_hostile.planted_journals, 60),
    ],
    ids=["read_race", "hostile_input", "hostile_executable", "mcp_requests", "gate_race", "planted_journals"],
)
def test_campaign(campaign, runs: int, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _check(campaign(tmp_path, runs, DEADLINE))


def _check(tally: _hostile.Tally) -> None:
    assert tally.calls > 0
    assert tally.bad() == 0, tally.line() + "".join(f"\n  {note}" for note in tally.notes[:10])
