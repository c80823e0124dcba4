"""Property tests (hypothesis): made patches reproduce NEW exactly; parsing round-trips.

- two texts or two trees (CRLF, CR, mixed endings, a BOM, no final newline,
  repeated look-alike blocks, empty files, unicode) → `make_patch` → applied
  to OLD with the library (default policy) → NEW, byte for byte;
- applying that patch, then the patch from NEW back to OLD → OLD;
- `parse(str(parse(p))) == parse(p)` for random patches (and the model a
  patch was printed from comes back from its text).

Bounded and deterministic: a fixed number of examples, derandomized, no
example database, no deadline (file-system timing varies).
"""

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from apply_patch import AddFile, Chunk, DeleteFile, Patch, UpdateFile, apply_patch, make_patch, parse_patch

from _support import PROPERTY


# Lines that look alike, lines that look like patch syntax, blank and odd ones.
LINES = [
    "def f(x):", "    return x", "    return x + 1", "", "  ", "\t", "class A:", "x = 1",
    "*** End Patch", "*** End of File", "@@", "@@ def f(x):", "+x", "-y", " z",
    "\\ No newline at end of file", "é ✅ naïve", "\ufeffbom inside", "form\x0cfeed", "a\u2028b",
]  # fmt: skip
FREE_TEXT = st.text(
    st.characters(exclude_categories=["Cs"], exclude_characters="\r\n\x00"), max_size=6
)
ENDINGS = ["\n", "\r\n", "\r"]


@st.composite
def texts(draw: st.DrawFn) -> str:
    """A file's text: look-alike blocks of lines, endings of one style or mixed."""
    blocks = [LINES[i : i + 3] for i in range(0, len(LINES), 2)]
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 5))):
        lines += draw(st.sampled_from(blocks))
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(LINES) | FREE_TEXT))
    style = draw(st.sampled_from(["\n", "\r\n", "\r", "mixed"]))
    ends = [draw(st.sampled_from(ENDINGS)) if style == "mixed" else style for _ in lines]
    text = "".join(map(str.__add__, lines, ends))
    if text and draw(st.booleans()):
        text = text.removesuffix(ends[-1])  # no final newline
    return ("\ufeff" if draw(st.integers(0, 4)) == 0 else "") + text


@st.composite
def edited(draw: st.DrawFn, text: str) -> str:
    """`text` after a few edits: lines changed, inserted, removed, endings, BOM, final newline."""
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(lines)))
        kind = draw(st.integers(0, 4))
        new = draw(st.sampled_from(LINES) | FREE_TEXT) + draw(st.sampled_from(ENDINGS))
        if kind == 0 or not lines:
            lines.insert(at, new)
        elif kind == 1:
            del lines[min(at, len(lines) - 1)]
        elif kind == 2:
            lines[min(at, len(lines) - 1)] = new
        elif kind == 3:  # the same text, another ending
            i = min(at, len(lines) - 1)
            lines[i] = lines[i].rstrip("\r\n") + draw(st.sampled_from(ENDINGS + [""]))
        else:
            lines = lines[at:] + lines[:at]
    result = "".join(lines)
    if draw(st.integers(0, 5)) == 0:
        result = result[1:] if result.startswith("\ufeff") else "\ufeff" + result
    return result


PAIRS = texts().flatmap(lambda old: st.tuples(st.just(old), edited(old) | texts()))
PATHS = ["a.txt", "b.py", "dir/c.txt", "dir/sub/d.md", "é/ü ñ.txt", "e"]
TREES = st.dictionaries(st.sampled_from(PATHS), texts(), max_size=4)


def _apply(root: Path, patch: Patch) -> None:
    text = str(patch)
    assert parse_patch(text) == patch
    if patch.operations:
        apply_patch(text, root)


def _write(root: Path, tree: dict[str, str]) -> None:
    for path, text in tree.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(text.encode("utf-8"))


def _read(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes().decode("utf-8")
        for p in root.rglob("*")
        if p.is_file()
    }


@PROPERTY
@given(PAIRS, st.integers(0, 4))
def test_text_patches_reproduce_new_and_back(pair: tuple[str, str], context: int) -> None:
    old, new = pair
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        (root / "f").write_bytes(old.encode("utf-8"))
        _apply(root, make_patch(old, new, path="f", context=context))
        assert (root / "f").read_bytes() == new.encode("utf-8")
        _apply(root, make_patch(new, old, path="f", context=context))
        assert (root / "f").read_bytes() == old.encode("utf-8")


@st.composite
def tree_pairs(draw: st.DrawFn) -> tuple[dict[str, str], dict[str, str]]:
    """Two trees: NEW keeps, edits, moves, drops and adds files of OLD."""
    old = draw(TREES)
    new: dict[str, str] = {}
    free = [p for p in PATHS if p not in old]
    for path, text in old.items():
        fate = draw(st.sampled_from(["keep", "edit", "move", "drop"]))
        if fate == "move" and free:
            new[free.pop(draw(st.integers(0, len(free) - 1)))] = draw(st.just(text) | edited(text))
        elif fate != "drop":
            new[path] = text if fate == "keep" else draw(edited(text))
    for path in draw(st.lists(st.sampled_from(PATHS), max_size=2)):
        new.setdefault(path, draw(texts()))
    return old, new


@PROPERTY
@given(tree_pairs())
def test_tree_patches_reproduce_new_and_back(trees: tuple[dict[str, str], dict[str, str]]) -> None:
    old, new = trees
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        _write(root, old)
        _apply(root, make_patch(old, new))
        assert _read(root) == new
        _apply(root, make_patch(new, old))
        assert _read(root) == old


# --- parse(str(parse(p))) == parse(p) ---------------------------------------------

PATCH_TEXT = st.sampled_from(LINES) | FREE_TEXT
CONTEXTS = st.sampled_from(["def f(x):", "class A:", "  indented", "é ✅"])


@st.composite
def chunks(draw: st.DrawFn) -> Chunk:
    prefixes = draw(st.lists(st.sampled_from(" -+"), min_size=1, max_size=6))
    lines = tuple(p + draw(PATCH_TEXT) for p in prefixes)
    added = [i for i, p in enumerate(prefixes) if p == "+"]
    endings = {i: draw(st.sampled_from(ENDINGS)) for i in added if draw(st.booleans())}
    no_newline = prefixes[-1] == "+" and draw(st.booleans())
    if no_newline:
        endings[len(prefixes) - 1] = ""
    contexts = tuple(draw(st.lists(CONTEXTS, max_size=2)))
    eof = no_newline or draw(st.booleans())
    return Chunk(contexts, lines, eof, endings=tuple(sorted(endings.items())))


@st.composite
def operations(draw: st.DrawFn) -> AddFile | DeleteFile | UpdateFile:
    path = draw(st.sampled_from(PATHS))
    kind = draw(st.sampled_from(["add", "delete", "update", "move"]))
    if kind == "add":
        lines = tuple(draw(st.lists(PATCH_TEXT, max_size=5)))
        endings = {i: draw(st.sampled_from(ENDINGS)) for i in range(len(lines)) if draw(st.booleans())}
        if draw(st.booleans()) and lines:
            endings[len(lines) - 1] = ""
        return AddFile(path, lines, endings=tuple(sorted(endings.items())))
    if kind == "delete":
        return DeleteFile(path)
    move_to = draw(st.sampled_from(PATHS)) if kind == "move" else None
    found = tuple(draw(st.lists(chunks(), min_size=0 if move_to else 1, max_size=3)))
    return UpdateFile(path, move_to, found)


@PROPERTY
@given(st.lists(operations(), max_size=5), st.none() | st.sampled_from(["env-1", "cloud"]))
def test_parse_print_parse(found: list[AddFile | DeleteFile | UpdateFile], env: str | None) -> None:
    model = Patch(tuple(found), env)
    parsed = parse_patch(str(model))
    assert parsed == model
    assert parse_patch(str(parsed)) == parsed
