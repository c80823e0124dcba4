"""Make sure the suite tests the installed package, not the source folder; and that no
test writes receipts into the real home (`APPLY_PATCH_STATE_DIR` and `XDG_STATE_HOME`,
set for the whole session, are inherited by every subprocess the tests start)."""

import os
import shutil
import tempfile
from pathlib import Path

import apply_patch

REPO = Path(__file__).resolve().parent.parent
# Set at import, before any test (or fixture) runs a commit or starts the executable.
STATE = tempfile.mkdtemp(prefix="apply_patch-state-")
os.environ["XDG_STATE_HOME"] = STATE
os.environ.pop("APPLY_PATCH_STATE_DIR", None)


def pytest_report_header() -> str:
    return f"apply_patch imported from {Path(apply_patch.__file__).parent}; receipts under {STATE}"


def pytest_sessionstart() -> None:
    package = Path(apply_patch.__file__).resolve().parent
    assert package != REPO / "apply_patch", (
        "the tests must run against the installed package (run them with `make test`)"
    )


def pytest_sessionfinish() -> None:
    shutil.rmtree(STATE, ignore_errors=True)
