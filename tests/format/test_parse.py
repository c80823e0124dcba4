"""The parser against fixtures/parse/: exact reference messages, canonical text.

`invalid/NAME.patch` must fail with exactly `invalid/NAME.error` (the message
the reference implementation prints, line number included). `valid/NAME.patch`
must parse, and `str()` of the result must be `valid/NAME.canonical`, which
parses back to an equal model.
"""

import re
from pathlib import Path

import pytest

from _support import FIXTURES
from apply_patch import Chunk, Patch, PatchSyntaxError, UpdateFile, grammar_text, parse_patch

INVALID = sorted((FIXTURES / "parse" / "invalid").glob("*.patch"))
VALID = sorted((FIXTURES / "parse" / "valid").glob("*.patch"))


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_invalid_patch_has_the_reference_message(path: Path) -> None:
    expected = _read(path.with_suffix(".error")).removesuffix("\n")
    with pytest.raises(PatchSyntaxError) as caught:
        parse_patch(_read(path))
    assert caught.value.headline == expected
    assert str(caught.value).startswith(expected)
    numbered = re.match(r"Invalid patch hunk on line (\d+): ", expected)
    assert caught.value.line == (int(numbered.group(1)) if numbered else None)


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_valid_patch_has_canonical_text(path: Path) -> None:
    patch = parse_patch(_read(path))
    canonical = _read(path.with_suffix(".canonical"))
    assert str(patch) == canonical
    assert parse_patch(canonical) == patch
    assert str(parse_patch(canonical)) == canonical


def test_fixture_counts() -> None:
    assert len(INVALID) >= 30 and len(VALID) >= 20


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("first_line_not_begin", "There is text before '*** Begin Patch' (which is on line 2)"),
        ("missing_end_patch", "The patch looks truncated: '*** End Patch' is missing."),
        ("heredoc_without_end_patch", "The patch looks truncated: '*** End Patch' is missing."),
    ],
)
def test_envelope_errors_carry_a_hint(name: str, hint: str) -> None:
    with pytest.raises(PatchSyntaxError) as caught:
        parse_patch(_read(FIXTURES / "parse" / "invalid" / f"{name}.patch"))
    assert any(h.startswith(hint) for h in caught.value.hints), caught.value.hints


@pytest.mark.parametrize(
    ("name", "detail"),
    [
        ("empty_text", "The patch text is empty."),
        ("first_line_not_begin", "Line 1 is 'Here is the patch:'."),
        ("missing_end_patch", "The last line, line 3, is '+x'."),
        ("chunk_header_without_lines", "Line 4 is '*** End Patch'."),
        ("update_without_chunk", "Line 2 is '*** Update File: a'."),
        ("invalid_hunk_header", None),  # the reference's message quotes the line itself
    ],
)
def test_every_error_names_the_offending_line(name: str, detail: str | None) -> None:
    with pytest.raises(PatchSyntaxError) as caught:
        parse_patch(_read(FIXTURES / "parse" / "invalid" / f"{name}.patch"))
    assert caught.value.details == (() if detail is None else (detail,))
    assert str(caught.value).split("\n")[: 1 + (detail is not None)] == [
        caught.value.headline, *([detail] if detail else [])
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "*** Begin Patch\n*** Frob File: x\n*** End Patch\n*** Add File: y\n*** End Patch",
            "Invalid patch hunk on line 2: '*** Frob File: x' is not a valid hunk header.",
        ),
        (
            "*** Begin Patch\n*** Environment ID:\n*** Frob\n*** End Patch",
            "Invalid patch: apply_patch environment_id cannot be empty",
        ),
    ],
    ids=["bad-line-before-text-after-end", "empty-environment-before-bad-line"],
)
def test_the_first_error_is_reported(text: str, message: str) -> None:
    with pytest.raises(PatchSyntaxError) as caught:
        parse_patch(text)
    assert caught.value.headline.startswith(message)


def test_model_records_lines_and_contexts() -> None:
    patch = parse_patch(_read(FIXTURES / "parse" / "valid" / "consecutive_chunk_headers.patch"))
    (update,) = patch.operations
    assert isinstance(update, UpdateFile) and update.line == 2
    (chunk,) = update.chunks
    assert chunk == Chunk(
        ("class A:", "    def f(self):"), ("-        pass", "+        return 1"), False
    )
    assert chunk.line == 3
    assert (chunk.old_lines, chunk.new_lines) == (["        pass"], ["        return 1"])


def test_line_numbers_do_not_take_part_in_equality() -> None:
    one = parse_patch("*** Begin Patch\n*** Delete File: a\n*** End Patch")
    two = parse_patch("<<EOF\n*** Begin Patch\n*** Add File: b\n*** Delete File: a\n*** End Patch\nEOF")
    assert one.operations[0] == two.operations[1]
    assert one.operations[0].line == 2 and two.operations[1].line == 3
    assert Patch(()) == parse_patch("*** Begin Patch\n*** End Patch")


def test_a_lone_surrogate_is_refused_with_a_message() -> None:
    with pytest.raises(PatchSyntaxError) as caught:
        parse_patch("*** Begin Patch\n*** Add File: a\n+\udcff\n*** End Patch")
    assert caught.value.line == 3
    assert "not valid Unicode" in str(caught.value)


def test_grammar_is_shipped_and_read_from_the_package() -> None:
    text = grammar_text()
    assert text.startswith("// The apply_patch format")
    assert "start: BEGIN_PATCH" in text
