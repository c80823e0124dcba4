"""`_quick.parsed` reads a plain patch into exactly what the LALR driver makes of it, and
declines (None) every other text: errors stay the driver's."""

import random

import dataclasses
from dataclasses import fields
from apply_patch.format._parse import parser_from
from apply_patch.format._quick import parsed
from apply_patch.format._unwrap import unwrap

from test_lalr import _PATCH_LINES, _random_patches, _valid_patches


def _facts(value: object) -> object:
    """Every field of a model object, those left out of equality (patch lines) included."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, *((f.name, _facts(getattr(value, f.name))) for f in fields(value)))
    if isinstance(value, tuple):
        return tuple(_facts(item) for item in value)
    return value


def _driver(text: str) -> object:
    try:
        return _facts(parser_from().parse(text))
    except Exception as error:  # the driver's error: the quick reader must decline
        return ("error", type(error).__name__)


def _more_patches(seed: int, count: int) -> list[str]:
    """Plain-looking patches with the traps a line reader could fall in: blank lines
    everywhere, markers where no rule takes them, paths and contexts with spaces."""
    rng = random.Random(seed)
    pieces = [
        "*** Update File: a b.txt", "*** Add File: x", "*** Delete File: d", "*** Move to: m",
        "@@", "@@ ", "@@  ", "@@ class A:", "@@\t", " ctx", "+add", "-del", "", "", "+", "-", " ",
        "*** End of File", "*** Update File: ", "*** Move to: ", "@@x", "\\ No newline at end of file",
        "\\ Line ending: CRLF", "*** Environment ID: e",
    ]
    texts = []
    for _ in range(count):
        body = ["*** Begin Patch"]
        for _ in range(rng.randint(0, 14)):
            body.append(rng.choice(pieces if rng.random() < 0.7 else _PATCH_LINES))
        body.append("*** End Patch")
        texts.append("\n".join(body) + "\n")
    return texts


def test_a_plain_patch_is_read_as_the_driver_reads_it() -> None:
    texts = _valid_patches(3, 1500) + _random_patches(4, 4000) + _more_patches(5, 8000)
    read = 0
    for text in texts:
        try:
            canonical = unwrap(text).text
        except Exception:  # an envelope error, before any parser
            continue
        quick = parsed(canonical)
        if quick is not None:
            read += 1
            assert _facts(quick) == _driver(canonical), canonical
    assert read > 2000  # most valid patches are plain ones


def test_what_is_not_plain_is_left_to_the_driver() -> None:
    begin, end = "*** Begin Patch\n", "*** End Patch\n"
    for body in [
        "*** Environment ID: e\n*** Delete File: a\n",  # an environment id
        "*** Add File: a\n+x\n\\ No newline at end of file\n",  # an ending line
        "*** Update File: a\n",  # an empty Update: the driver's error
        "*** Update File: a\n@@\n",  # a chunk without a line
        "*** Add File: a\n+x\n\n",  # a blank line no + line follows
        "*** Update File: a\n@@\n-x\ngarbage\n",
        "*** Add File: \n",  # no path
        "*** End of File\n",
    ]:
        assert parsed(begin + body + end) is None, body
    assert parsed(begin + "*** Delete File: a\n" + end + end) is None  # text after the end
    assert parsed("*** Delete File: a\n" + end) is None


# The grammar `_quick` mirrors by hand (its plain subset), as its sha256.
GRAMMAR_READ = "c4a2a5c4535dc07e532537354bad2250725b9d80a2c06deb8a95f7064f5f47e9"


def test_the_grammar_is_the_one_the_quick_reader_mirrors() -> None:
    """`_quick` reads a subset of grammar/apply_patch.lark by hand: a change to the grammar
    must be checked against it (the rules quoted in its docstrings), then recorded here."""
    import hashlib

    from apply_patch.format._tables import TABLES

    assert hashlib.sha256(TABLES["grammar"].encode()).hexdigest() == GRAMMAR_READ, (
        "grammar/apply_patch.lark changed: check that apply_patch/format/_quick.py still reads "
        "its plain patches as the grammar does, then record the grammar's sha256 in GRAMMAR_READ"
    )
