"""Every strategy of `place` answers as the general search does, or declines (issue 35 item 2).

One generic property: for each entry of `matching.STRATEGIES`, an edit of every kind the
table serves (a Codex chunk, a unified diff's numbered hunk, a replacement, an insertion)
is placed with the whole table and with the table less that entry, and the answers
must be the same: the same bytes once encoded, the same placements and warnings, or the
same refusal (class and message). The files drawn repeat a few lines on purpose (so that
edits fit at several places, overlap, run past the end or fit nowhere), have LF, CRLF or
mixed line breaks, a final newline or not, a BOM or not, are held as the planner holds
them (a str, the file's UTF-8 bytes, or both: `held`), and are edited under several
policies.

Beside the table, two shortcuts outside it are pinned the same way: the representation
`_text.decode` chooses (one string or its UTF-8 bytes, a CRLF file edited as LF) against the file's lines
each with its own ending (`_text.as_lines`), and the batch of exact replacements
(`_deferred.Deferred`) against the same replacements placed one by one.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apply_patch import DEFAULT, PatchError, Policy
from apply_patch.apply import matching
from apply_patch.apply.matching import FileName, Placement, Strategy
from apply_patch.apply.matching import _deferred, _plain
from apply_patch.apply.matching._deferred import Deferred
from apply_patch.apply.matching._text import Decoded, LfText, as_lines, decode, encode
from apply_patch.format import Chunk, Insert, StrReplace, UpdateFile

from _support import PROPERTY

WHERE = FileName("f.txt", "f.txt")
# Few distinct lines: repeated lines make the ambiguous and the misplaced cases common.
LINE = st.sampled_from(["a", "b", "c", "def f():", "    x = 1", "    return x", "    x = 1", "\tx = 2", "", "  a  ", "é — 1"])
ADDED = st.sampled_from(["new", "", "    y = 3", "\ty = 3", "a", "b = 2"])  # added lines: some indented
POLICIES = st.sampled_from([
    DEFAULT,
    DEFAULT,
    Policy(ambiguous="first"),
    Policy(line_endings="crlf"),
    Policy(line_endings="lf", final_newline="add"),
    Policy(bom="strip", final_newline="add"),
])  # fmt: skip
STRATEGIES = {strategy.name: strategy for strategy in matching.STRATEGIES}

Edit = UpdateFile | StrReplace | Insert


@st.composite
def files(draw: st.DrawFn) -> tuple[list[str], str]:
    """A file's lines and its decoded text (LF, CRLF or mixed breaks; maybe a BOM, maybe
    no final newline)."""
    lines = draw(st.lists(LINE, min_size=draw(st.sampled_from([0, 2, 2, 2])), max_size=14))
    if draw(st.sampled_from([True, True, True, False])):  # the everyday file: LF, a final newline, no BOM
        return lines, "".join(line + "\n" for line in lines)
    breaks = draw(st.sampled_from(["\n", "\r\n", "mixed"]))
    text = ""
    for number, line in enumerate(lines):
        ending = ("\r\n" if draw(st.booleans()) else "\n") if breaks == "mixed" else breaks
        last = number == len(lines) - 1
        text += line + ("" if last and draw(st.booleans()) else ending)
    return lines, ("\ufeff" if draw(st.booleans()) else "") + text


def held(data: st.DataObject, decoded: str) -> Decoded:
    """The text as the planner decodes a file: a str, the file's UTF-8 bytes alone (an ASCII
    file), or the str with those bytes beside it (a non-ASCII one)."""
    how = data.draw(st.sampled_from(["str", "bytes", "both"]))
    if how == "bytes":
        return decode(decoded.encode())
    return decode(decoded, decoded.encode() if how == "both" else None)


def _chunks(draw: st.DrawFn, lines: list[str], numbered: bool) -> tuple[Chunk, ...]:
    """Chunks taken from the file in order (some lines kept, some removed, one added) or
    made up; a diff's hunks carry numbers, right or off by one."""
    chunks: list[Chunk] = []
    start = 0
    for _ in range(draw(st.sampled_from([1, 1, 2]))):
        if lines and start < len(lines) and draw(st.sampled_from([True, True, True, False])):
            at = draw(st.integers(start, len(lines) - 1))
            size = draw(st.integers(1, min(4, len(lines) - at)))
            old = lines[at : at + size]
        else:
            at, old = start, draw(st.lists(LINE, min_size=1, max_size=3))
        if draw(st.sampled_from([False, False, False, True])):
            old = [line.strip() for line in old]  # whitespace lost: a tolerant tier
        body = [draw(st.sampled_from([" ", "-"])) + line for line in old]
        body.insert(draw(st.integers(0, len(body))), "+" + draw(ADDED))
        near = draw(st.sampled_from([at, at, at - 1, at - 1, at + 1, start - 1])) if numbered else None
        chunks.append(Chunk((), tuple(body), line=len(chunks) + 3, near=None if near is None else max(near, 0)))
        start = at + len(old)
    return tuple(chunks)


@st.composite
def edits(draw: st.DrawFn, lines: list[str], served: str | None = None) -> Edit:
    """An edit of any kind the table serves, mostly of text the file has; mostly of the
    class named `served` when given (the kind of edit a strategy serves)."""
    kinds: dict[str | None, list[str]] = {"UpdateFile": ["codex", "diff", "diff"], "StrReplace": ["replace"] * 3, "Insert": ["insert"]}
    kind = draw(st.sampled_from(["codex", "diff", "diff", "replace", "replace", "insert", *kinds.get(served, []) * 3]))
    if kind in ("codex", "diff"):
        return UpdateFile("f.txt", None, _chunks(draw, lines, numbered=kind == "diff"), line=1)
    if kind == "insert":
        return Insert("f.txt", draw(st.integers(0, len(lines) + 1)), draw(st.sampled_from(["i", "i\nj", "  k"])), line=2)
    return draw(replacements(lines))


@st.composite
def replacements(draw: st.DrawFn, lines: list[str]) -> StrReplace:
    """A replacement of a piece of the file (whole lines or part of one) or of made-up lines,
    with or without a count rule or a chosen place."""
    text = "".join(line + "\n" for line in lines)
    source = draw(st.sampled_from(["lines", "lines", "lines", "piece", "made up"]))
    if text and source == "lines":
        at = draw(st.integers(0, len(lines) - 1))
        old = "".join(line + "\n" for line in lines[at : at + draw(st.integers(1, 3))])
    elif text and source == "piece":
        begin = draw(st.integers(0, len(text) - 1))
        old = text[begin : draw(st.integers(begin + 1, min(len(text), begin + 24)))]
    else:
        old = "\n".join(draw(st.lists(LINE, min_size=1, max_size=3))) + "\n"
    if source == "lines" and draw(st.booleans()):  # other whitespace: a tolerant tier
        old = "".join(line.strip() + " \n" for line in old.split("\n")[:-1])
    if not old:
        old = "a"
    new = draw(st.sampled_from(["", "y", "z\n", "    z = 2\n", "\tz = 2\n", old + "w\n"]))
    choice = draw(st.sampled_from(["one", "one", "all", "second", "near"]))
    return StrReplace("f.txt", old, new, line=4, replace_all=choice == "all",
                      occurrence=2 if choice == "second" else None, near_line=3 if choice == "near" else None)  # fmt: skip


def _answer(text: Decoded, edit: Edit, policy: Policy, table: tuple[Strategy, ...]) -> object:
    """What placing `edit` comes to: the bytes written, placements and warnings, or the refusal."""
    try:
        placed = matching.place(text, edit, policy, WHERE, table)
    except PatchError as error:
        return ("refused", type(error).__name__, str(error))
    placements = [(p.patch_line, p.file_line, p.tier, p.added, p.removed) for p in placed.placements]
    return _written(placed.text, policy), placements, [str(w) for w in placed.warnings]


def _written(text: Decoded, policy: Policy) -> bytes:
    """The bytes `encode` gives for `text` (a text held as its UTF-8 gives them itself), a
    string encoded as the planner does with `non_utf8="preserve"` (its lone surrogates the
    bytes it could not decode)."""
    encoded = encode(text, policy)
    return encoded if isinstance(encoded, bytes) else encoded.encode("utf-8", "surrogateescape")


def test_every_strategy_names_a_kind_of_edit_place_takes() -> None:
    """A strategy serves the edits whose class is named `kind`: a name no edit class has
    would never be tried (and the test below could not fail for it)."""
    from apply_patch.format import HashlineEdits

    kinds = {cls.__name__ for cls in (UpdateFile, StrReplace, Insert, HashlineEdits)}
    assert {strategy.kind for strategy in matching.STRATEGIES} <= kinds


@pytest.mark.parametrize("name", list(STRATEGIES))
@PROPERTY
@given(st.data(), POLICIES)
def test_a_strategy_answers_as_the_search_without_it(name: str, data: st.DataObject, policy: Policy) -> None:
    lines, decoded = data.draw(files())
    edit = data.draw(edits(lines, STRATEGIES[name].kind))
    text = held(data, decoded)
    without = tuple(s for s in matching.STRATEGIES if s.name != name)
    assert _answer(text, edit, policy, matching.STRATEGIES) == _answer(text, edit, policy, without)


@PROPERTY
@given(st.data())
def test_the_numbered_strategy_on_bytes_not_utf8_answers_as_the_search_without_it(data: st.DataObject) -> None:
    """A file read with `non_utf8="preserve"`: its str holds the bytes it cannot decode as
    lone surrogates, its bytes are kept beside it, and the hunks are spliced in those bytes."""
    lines, _ = data.draw(files())
    lines = [data.draw(st.sampled_from([line, line, "\udcff", line + "\udcfe"])) for line in lines]
    decoded = "".join(line + "\n" for line in lines)
    text = decode(decoded, decoded.encode("utf-8", "surrogateescape"))
    edit = data.draw(edits(lines, "UpdateFile"))
    without = tuple(s for s in matching.STRATEGIES if s.name != "numbered")
    policy = Policy(non_utf8="preserve")
    assert _answer(text, edit, policy, matching.STRATEGIES) == _answer(text, edit, policy, without)


@PROPERTY
@given(st.data(), POLICIES)
def test_plain_chunks_counted_in_the_file_once_answer_as_counted_each(data: st.DataObject, policy: Policy) -> None:
    """`plain` counts a chunk's lines in the file one `count` at a time, then (a large file,
    many chunks) in counts of the file's lines made once: the same answer either way."""
    lines, decoded = data.draw(files())
    edit = data.draw(edits(lines, "UpdateFile"))
    text = held(data, decoded)
    each = _answer(text, edit, policy, matching.STRATEGIES)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(_plain, "_PLAIN_READS", 0)
        patched.setattr(_plain, "_PLAIN_LINES", 0)
        assert _answer(text, edit, policy, matching.STRATEGIES) == each


def test_plain_chunks_counted_once_are_found_after_the_chunk_before() -> None:
    """Many chunks find each its place by a line the file holds once (`_only_place`): a
    later chunk whose only such line follows the chunk before, but whose lines before it
    overlap that chunk, is not placed there (the search refuses it, as without `plain`)."""
    text = decode("a\nb\nc\nd\ne\nf\nd\n")
    first = Chunk((), (" a", " b", "-c", "+C", " d"), line=2)
    overlapping = Chunk((), (" d", "-e", "+E"), line=8)  # its `d` is the first's last line
    edit = UpdateFile("f.txt", None, (first, overlapping), line=1)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(_plain, "_PLAIN_READS", 0)
        patched.setattr(_plain, "_PLAIN_LINES", 0)
        answer = _answer(text, edit, DEFAULT, matching.STRATEGIES)
    assert answer == _answer(text, edit, DEFAULT, ())
    assert isinstance(answer, tuple) and answer[0] == "refused"


@PROPERTY
@given(st.data(), POLICIES)
def test_the_text_as_decoded_answers_as_its_lines(data: st.DataObject, policy: Policy) -> None:
    """One string (a CRLF file's as LF) against the file's lines, each with its own ending."""
    lines, decoded = data.draw(files())
    edit = data.draw(edits(lines))
    text = held(data, decoded)
    assert _answer(text, edit, policy, matching.STRATEGIES) == _answer(as_lines(text), edit, policy, ())


@PROPERTY
@given(st.data(), POLICIES)
def test_a_text_held_as_bytes_reads_and_writes_as_its_string(data: st.DataObject, policy: Policy) -> None:
    """The text held as the planner holds it (`held`: its UTF-8 bytes alone are decoded when
    first read) has the string's lines and, encoded, gives the string's bytes."""
    _, decoded = data.draw(files())
    text, string = held(data, decoded), decode(decoded)
    assert _written(text, policy) == _written(string, policy)
    assert text.lines() == string.lines()
    assert _written(text, policy) == _written(string, policy)  # (the same once decoded)


# Each strategy answers on an everyday edit (a strategy that always declined would pass the
# property above): the file and the edit, both as a user would send them.
EVERYDAY: dict[str, tuple[str, Edit]] = {
    "numbered": ("a\nb\nc\nd\n", UpdateFile("f.txt", None, (Chunk((), (" b", "-c", "+C"), near=1),))),
    "plain": ("a\nb\nc\nd\n", UpdateFile("f.txt", None, (Chunk((), (" b", "-c", "+C")),))),
    "at numbers": ("a\nb\nb\nc\n", UpdateFile("f.txt", None, (Chunk((), (" b", "-c", "+C"), near=2),))),
    "exact in one string": ("a\nb\nc\n", StrReplace("f.txt", "b", "B")),
    "tolerant in one string": ("a\n    b  \nc\n", StrReplace("f.txt", "a\n    b\n", "a\n    B\n")),
}


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_a_strategy_answers_an_everyday_edit(name: str) -> None:
    decoded, edit = EVERYDAY[name]
    strategy = STRATEGIES[name]
    text = decode(decoded)
    answer = strategy.answer(text, edit, DEFAULT, WHERE, lambda: as_lines(text))
    assert answer is not None
    general = _answer(text, edit, DEFAULT, ())
    assert _answer(text, edit, DEFAULT, (strategy,)) == general


@PROPERTY
@given(st.data())
def test_a_batch_of_exact_replacements_answers_as_one_by_one_or_declines(data: st.DataObject) -> None:
    """`Deferred` (as `_edit_plan` uses it: the pending replacements made where it declines)."""
    lines = data.draw(st.lists(LINE, min_size=0, max_size=12))
    text = "".join(line + "\n" for line in lines)
    ops = [data.draw(replacements(lines)) for _ in range(data.draw(st.integers(1, 4)))]
    one_by_one: object
    file, placements = decode(text), list[Placement]()
    try:
        for op in ops:
            placed = matching.place(file, op, DEFAULT, WHERE)
            file, placements = placed.text, placements + list(placed.placements)
        one_by_one = (_written(file, DEFAULT), placements)
    except PatchError as error:
        one_by_one = ("refused", type(error).__name__, str(error))
    index_after, tail = data.draw(st.sampled_from([(10**9, 8), (0, 1), (0, 8)]))  # searched, indexed (as test_deferred)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(_deferred, "INDEX_AFTER", index_after)
        patched.setattr(_deferred, "TAIL", tail)
        batch, kept = Deferred(LfText(text, False), DEFAULT), list[Placement]()
        for op in ops:
            placement = batch.add(op)
            if placement is None:
                return  # declined: the planner places the rest one by one
            kept.append(placement)
        assert (_written(decode(text).with_body(batch.text()), DEFAULT), kept) == one_by_one


@pytest.mark.parametrize(("old", "outcome"), [("    x = 1  ", "placed"), ("    x = 9", "refused")])
def test_the_file_is_split_into_lines_once_for_the_strategies_and_the_search(
    monkeypatch: pytest.MonkeyPatch, old: str, outcome: str
) -> None:
    """A chunk that may be plain but is not found as written (trailing whitespace, or not
    there): the plain strategy splits the file, and the search after it reads those lines
    rather than splitting them again (25 ms of a 200,000-line file)."""
    splits = []
    original = LfText.split

    def counted(self: LfText) -> object:
        splits.append(self)
        return original(self)

    monkeypatch.setattr(LfText, "split", counted)
    text = decode("def f():\n    x = 1\n    return x\n")
    edit = UpdateFile("f.txt", None, (Chunk((), ("-" + old, "+    x = 2", "     return x")),))
    try:
        matching.place(text, edit, DEFAULT, WHERE)
        placed = "placed"
    except PatchError:
        placed = "refused"
    assert (placed, len(splits)) == (outcome, 1)
