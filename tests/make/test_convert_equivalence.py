"""Property test (hypothesis): a unified diff converted, then applied, gives the files the
diff gives applied directly (issue 35: the two share one reading, `format.read_changes`).

Random trees of look-alike lines; each file changed, created, deleted, renamed (with or
without a change) or left alone; the diff written as git writes it (`diff --git`, `a/` and
`b/`, `new file mode`, `rename from`, `\\ No newline at end of file`), with a random
context size. With the old files, the converted patch must apply and give exactly the
files the diff gives; without them, it may be refused (a diff alone does not always say
enough), but what it applies must be those files too, never other ones.
"""

import difflib
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from apply_patch import PatchError, apply_patch, convert_unified_diff
from apply_patch.edits import apply_unified_diff

from _support import PROPERTY

LINES = ["def f(x):", "    return x", "    pass", "", "x = 1", "y = 2", "# note", "end"]
KINDS = ["change", "create", "delete", "rename", "rename_change", "keep"]


@st.composite
def texts(draw: st.DrawFn) -> str:
    # An old file may end without a line break: a hunk removing that last line without
    # showing the line above leaves the line above as the last, with its break (as GNU
    # `patch` does; the final-newline policy does not take it away).
    lines = draw(st.lists(st.sampled_from(LINES), min_size=1, max_size=14))
    text = "".join(line + "\n" for line in lines)
    return text.removesuffix("\n") if draw(st.booleans()) else text


@st.composite
def edited(draw: st.DrawFn, old: str) -> str:
    lines = old.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        if action != "insert" and at < len(lines):
            del lines[at]
        if action != "delete":
            lines.insert(at, draw(st.sampled_from(LINES)) + "\n")
    text = "".join(lines)
    if draw(st.booleans()):
        text = text.removesuffix("\n")
    return text


def _hunks(old: str, new: str, context: int) -> str:
    body = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), n=context, lineterm="\n"
    )
    out = []
    for number, line in enumerate(body):
        if number < 2:  # difflib's own ---/+++ lines: the caller writes git's
            continue
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _file_diff(kind: str, name: str, old: str, new: str, context: int) -> str:
    if kind == "create":
        return f"diff --git a/{name} b/{name}\nnew file mode 100644\n--- /dev/null\n+++ b/{name}\n" + _hunks("", new, context)
    if kind == "delete":
        return f"diff --git a/{name} b/{name}\ndeleted file mode 100644\n--- a/{name}\n+++ /dev/null\n" + _hunks(old, "", context)
    if kind.startswith("rename"):
        head = f"diff --git a/{name} b/moved/{name}\nrename from {name}\nrename to moved/{name}\n"
        if old == new:
            return head
        return head + f"--- a/{name}\n+++ b/moved/{name}\n" + _hunks(old, new, context)
    return f"diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n" + _hunks(old, new, context)


@st.composite
def cases(draw: st.DrawFn) -> tuple[dict[str, str], str]:
    """(the old tree, a git diff of it)."""
    old_tree: dict[str, str] = {}
    parts = []
    context = draw(st.integers(0, 3))
    for number in range(draw(st.integers(1, 3))):
        name = f"f{number}.py"
        kind = draw(st.sampled_from(KINDS))
        old = draw(texts())
        new = old if kind in ("delete", "rename", "keep") else draw(edited(old))
        if kind == "create":
            new = draw(edited(draw(texts())))  # a created file may end without a line break
        else:
            old_tree[name] = old
        if kind in ("change", "rename_change") and new == old:
            continue
        if kind != "keep":
            parts.append(_file_diff(kind, name, old, new, context))
    return old_tree, "".join(parts)


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _lay_out(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).write_bytes(text.encode())


def _applied_directly(files: dict[str, str], diff: str) -> dict[str, bytes] | None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        _lay_out(root, files)
        try:
            apply_unified_diff(diff, root, strip=1)
        except PatchError:
            return None
        return _tree(root)


def _applied_converted(files: dict[str, str], diff: str, with_old: bool) -> dict[str, bytes] | None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        _lay_out(root, files)
        try:
            patch = convert_unified_diff(diff, old=dict((k, v.encode()) for k, v in files.items()) if with_old else None)
            apply_patch(str(patch), root)
        except PatchError:
            return None
        return _tree(root)


@PROPERTY
@given(cases())
def test_converted_with_the_old_files_applies_as_the_diff_does(case: tuple[dict[str, str], str]) -> None:
    files, diff = case
    if not diff:
        return
    direct = _applied_directly(files, diff)
    assert direct is not None, diff  # a diff of these very files applies
    assert _applied_converted(files, diff, with_old=True) == direct, diff


@PROPERTY
@given(cases())
def test_converted_from_the_diff_alone_never_applies_otherwise(case: tuple[dict[str, str], str]) -> None:
    files, diff = case
    if not diff:
        return
    direct = _applied_directly(files, diff)
    converted = _applied_converted(files, diff, with_old=False)
    assert converted is None or converted == direct, diff
