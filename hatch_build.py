"""The wheel's build hook: Lark builds the parser from grammar/apply_patch.lark, saved into the wheel.

Hatchling builds from the sources each time, in a temporary folder of its own, so
no `build/` folder is left to be installed again later. The saved parser goes
into the wheel as `apply_patch/grammar/apply_patch.lalr` (`format/_grammar.py`
loads it; it rebuilds the parser from the grammar when it cannot).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

GRAMMAR = "grammar/apply_patch.lark"
SAVED = "apply_patch/grammar/apply_patch.lalr"


class SaveParser(BuildHookInterface):
    """Saves Lark's parser of the grammar into the wheel."""

    PLUGIN_NAME = "save-parser"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        sys.path.insert(0, os.path.join(self.root, "apply_patch", "format"))
        try:
            import _grammar  # the package's own module, alone: it needs only lark
        finally:
            sys.path.pop(0)
        with open(os.path.join(self.root, GRAMMAR), encoding="utf-8") as file:
            grammar = file.read()
        self._folder = folder = tempfile.mkdtemp(prefix="apply_patch-build-")
        saved = os.path.join(folder, "apply_patch.lalr")
        with open(saved, "wb") as file:
            _grammar.save_parser(grammar, file)
        build_data["force_include"][saved] = SAVED

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
