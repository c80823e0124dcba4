"""`python -m apply_patch`: the same as the `apply_patch` executable."""

from ._cli import main

raise SystemExit(main())
