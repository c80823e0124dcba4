"""`python -m apply_patch`: the same as the `apply_patch` executable."""

from .cli import run

raise SystemExit(run())
