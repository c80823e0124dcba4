"""Make sure the suite tests the installed package, not the source folder."""

from pathlib import Path

import apply_patch

REPO = Path(__file__).resolve().parent.parent


def pytest_report_header() -> str:
    return f"apply_patch imported from {Path(apply_patch.__file__).parent}"


def pytest_sessionstart() -> None:
    package = Path(apply_patch.__file__).resolve().parent
    assert package != REPO / "apply_patch", (
        "the tests must run against the installed package (run them with `make test`)"
    )
