"""Hashline's one module (`apply_patch.format.hashline`): the hash, the rows, the reader,
detection and the refusals of other dialects (pure: no file is read)."""

import pytest

from apply_patch import HashlineError, StaleAnchorError
from apply_patch.format import HashlineEdits, hashline


def test_xxh32_gives_the_specifications_values() -> None:
    # The reference values of xxHash32 (seed 0, and a seeded one).
    assert hashline.xxh32(b"") == 0x02CC5D05
    assert hashline.xxh32(b"a") == 0x550D7456
    assert hashline.xxh32(b"abc") == 0x32D153FF
    assert hashline.xxh32(b"Nobody inspects the spammish repetition") == 0xE2293B2F
    assert hashline.xxh32(b"", 1) != hashline.xxh32(b"")


def test_an_id_is_two_letters_from_the_line_alone_unless_it_has_no_letter_or_digit() -> None:
    ident = hashline.line_id(5, "    return x")
    assert len(ident) == 2 and set(ident) <= set(hashline.ALPHABET)
    # CR and trailing white space do not count; the line number does not for a line with a letter
    assert hashline.line_id(9, "    return x\r  ") == ident
    # a line of punctuation only is seeded by its number (oh-my-pi's rule): its ID depends on where it is
    assert {hashline.line_id(n, "}") for n in range(1, 40)} != {hashline.line_id(1, "}")}
    assert hashline.view_rows(["a", "}"], 7) == [f"7#{hashline.line_id(7, 'a')}:a", f"8#{hashline.line_id(8, '}')}:}}"]


def _call(*edits: dict[str, object]) -> HashlineEdits:
    (call,) = hashline.read_calls({"path": "f.py", "edits": list(edits)})
    return call


LINES = ["def f():", "    return 1", "", "x = f()"]


def _a(n: int) -> str:
    return hashline.anchor(n, LINES[n - 1])


def test_every_loc_is_placed_where_its_anchor_is() -> None:
    call = _call(
        {"loc": {"range": {"pos": _a(2), "end": _a(2)}}, "content": ["    return 2"]},
        {"loc": {"append": _a(4)}, "content": "print(x)\n"},
        {"loc": {"prepend": _a(1)}, "content": ["import os"]},
        {"loc": "append", "content": ["# end"]},
        {"loc": {"range": {"pos": f"{_a(3)}:", "end": f"  {_a(3)}:"}}, "content": None},
    )
    splices = hashline.placed(LINES, call, "f.py")
    assert [(s.start, s.stop, s.lines, s.number) for s in splices] == [
        (0, 0, ("import os",), 3),
        (1, 2, ("    return 2",), 1),
        (2, 3, (), 5),
        (4, 4, ("print(x)",), 2),
        (4, 4, ("# end",), 4),
    ]


def test_a_stale_anchor_is_refused_naming_what_the_line_holds_now() -> None:
    now = ["def f():", "    return 2", "", "x = f()"]
    call = _call({"loc": {"range": {"pos": _a(2), "end": _a(2)}}, "content": ["    return 3"]})
    with pytest.raises(StaleAnchorError) as caught:
        hashline.placed(now, call, "f.py")
    error = caught.value
    assert error.path == "f.py" and error.patch_line == 1
    assert str(error).splitlines()[:2] == [
        f"The anchor {_a(2)} of edit 1 is stale: f.py changed since it was viewed",
        f"{_a(2)}: line 2 now holds '    return 2', anchor {hashline.anchor(2, '    return 2')}",
    ]


def test_an_id_matching_another_line_near_a_wrong_number_is_refused_not_moved() -> None:
    # Two lines were added at the top: line 4 now holds what line 2 held.
    now = ["# a", "# b", *LINES]
    call = _call({"loc": {"range": {"pos": _a(2), "end": _a(2)}}, "content": ["    return 3"]})
    with pytest.raises(StaleAnchorError) as caught:
        hashline.placed(now, call, "f.py")
    assert f"(the ID {_a(2).split('#')[1]} is that of line 4, but an anchor is never moved to another line)" in str(
        caught.value
    )


def test_an_anchor_past_the_end_is_stale() -> None:
    call = _call({"loc": {"append": "9#ZZ"}, "content": ["x"]})
    with pytest.raises(StaleAnchorError, match=r"line 9 does not exist \(the file has 4 lines\)"):
        hashline.placed(LINES, call, "f.py")


@pytest.mark.parametrize(
    ("edits", "message"),
    [
        ([{"loc": {"range": {"pos": "1#ZP", "end": "2#ZP"}}, "content": ["a"]},
          {"loc": {"append": "1#ZP"}, "content": ["b"]}], "edits 1 and 2 of f.py change the same lines"),
        ([{"loc": {"append": "1#ZP"}, "content": []}], "has no content: nothing would be inserted"),
        ([{"loc": {"range": {"pos": "2#ZP", "end": "2#ZP"}}, "content": ["    return 1"]}], "nothing would change"),
        ([{"loc": {"range": {"pos": "2#ZP", "end": "2#ZP"}}, "content": ["    # ... existing code ..."]}],
         "omission placeholder"),
    ],
)
def test_edits_that_cannot_mean_what_they_say_are_refused(edits: list[dict[str, object]], message: str) -> None:
    fixed = [
        {**e, "loc": _real(e["loc"])} for e in edits
    ]
    call = _call(*fixed)
    with pytest.raises(HashlineError, match=message) as caught:
        hashline.placed(LINES, call, "f.py")
    assert caught.value.path == "f.py"


def _real(loc: object) -> object:
    """`loc` with its placeholder anchors (`N#ZP`) made those of LINES."""
    if isinstance(loc, dict):
        return {k: _real(v) for k, v in loc.items()}
    if isinstance(loc, str) and "#" in loc:
        return _a(int(loc.split("#")[0]))
    return loc


@pytest.mark.parametrize(
    ("anchor", "message"),
    [
        ("5:a3", "first Hashline dialect's LINE:HASH"),
        ("5:a3|    return 1", "first Hashline dialect's LINE:HASH"),
        ("5#a3f1", "an ID other than two letters"),
        ("5#ab", "an ID other than two letters"),
        ("five", "is not an anchor"),
        ("0#ZP", "names line 0: lines are numbered from 1"),
    ],
)
def test_other_dialects_anchors_are_refused_with_what_to_send(anchor: str, message: str) -> None:
    with pytest.raises(HashlineError, match=message) as caught:
        _call({"loc": {"append": anchor}, "content": ["x"]})
    assert caught.value.patch_line == 1
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        "[src/a.py#1a2b]\nSWAP 2:\n+x\n",
        "¶src/a.py#1a2b\n2:x\n",
    ],
)
def test_oh_my_pis_v4_text_is_detected_and_refused(text: str) -> None:
    assert hashline.detect(text)
    with pytest.raises(HashlineError, match="oh-my-pi's v4 Hashline text .* send a JSON object"):
        hashline.read_text(text)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("not json", "the input is not JSON"),
        ("{", "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested too deep"),
        ("[]", "the list of calls is empty"),
        ('{"path": "f.py", "edits": []}', "must be a non-empty list"),
        ('{"path": "f.py", "edits": [{"loc": "x"}]}', "loc must be"),
        ('{"path": "f.py", "edits": [{"loc": "append", "content": ["a\\nb"]}]}', "each item of content is one line"),
        ('{"path": "f.py", "edits": [{"loc": "append", "content": ["1#ZP:a"]}]}', "starts with an anchor"),
        ('{"path": "f.py", "edits": [], "delete": true}', "unknown field 'delete'"),
        ('[{"path": "f.py", "edits": [{"loc": "append", "content": ["a"]}]},'
         ' {"path": "./f.py", "edits": [{"loc": "append", "content": ["b"]}]}]', "named by two objects"),
        ('{"path": "f.py", "edits": [{"loc": {"range": {"pos": "3#ZP", "end": "2#ZP"}}, "content": []}]}',
         "ends \\(line 2\\) before it starts"),
    ],
)
def test_broken_input_is_one_clear_line(value: str, message: str) -> None:
    with pytest.raises(HashlineError, match=message) as caught:
        hashline.read_text(value)
    assert "\n" not in str(caught.value)


def test_detection() -> None:
    assert hashline.detect('{"path": "a", "edits": []}')
    assert hashline.detect('[{"path": "a", "edits": []}]')
    assert not hashline.detect('{"patch": "x"}')
    assert not hashline.detect("*** Begin Patch\n*** End Patch\n")
    assert not hashline.detect("[section]\nkey = 1\n")
