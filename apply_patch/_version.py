"""The package's version: the one place it is written (pyproject.toml reads it from here).

`apply_patch --version` prints it without `importlib.metadata`, which costs
the executable more than applying a small patch.
"""

VERSION = "0.1.0"
