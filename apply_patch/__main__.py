"""`python -m apply_patch`: the same as the `apply_patch` executable."""

from .cli._main import run

raise SystemExit(run())
