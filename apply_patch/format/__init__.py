"""The format: patch text → the typed model (unwrap, LALR grammar, parse, streaming parse).

Everything here is pure: text in, `Patch` or `PatchSyntaxError` out.
"""

from ._grammar import grammar_text
from ._model import AddFile, Chunk, DeleteFile, Operation, Patch, UpdateFile
from ._parse import parse_patch

__all__ = ["AddFile", "Chunk", "DeleteFile", "Operation", "Patch", "UpdateFile", "grammar_text", "parse_patch"]
