"""The package's version, written here so that `--version` reads no metadata.

`importlib.metadata` alone costs the executable about 20 ms and 170 modules;
`tests/test_packaging.py` checks that this equals `pyproject.toml`'s version
and the installed distribution's.
"""

VERSION = "0.1.0"
