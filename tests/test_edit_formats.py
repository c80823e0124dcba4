"""The other edit formats over their fixtures: tree before, input, tree after or the exact error.

Four folders, one case per sub-folder:

    fixtures/edits/NNN_name/          edits.json  (a list of {"type": "StrReplace" | "CreateFile" | "Insert", fields})
    fixtures/search_replace/NNN_name/ reply.md    (a whole model reply)
    fixtures/unified_apply/NNN_name/  diff.txt    (git diff or diff -u)
    fixtures/text_editor/NNN_name/    calls.json  (the tool inputs, in order) and answers.json
                                                  ({"content", "is_error"} of each)

and in each case folder:

    input/      the tree before (missing: empty)
    expected/   the tree after, when the case applies (exit 0)
    case.json   {"rule", "exit": 0 | 1, "stdout", "stderr", "warnings"?: [messages],
                 "options"?: {policy option: value}, "max_characters"?: int}

`<root>` in texts stands for the root folder. A case that fails (exit 1) must
leave the tree byte for byte as it was. Each case runs through the library
(`apply_edits`, `apply_search_replace`, `apply_unified_diff`, `TextEditor.run`)
and through the executable (`--format search-replace|unified-diff|auto`; edits and
text-editor calls as the tool uses of an agent log, replayed by `extract --apply`).
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from _support import FIXTURES, NOTHING_CHANGED, copy_tree, run_cli, snapshot
from apply_patch import DEFAULT, PatchError
from apply_patch.anthropic import TOOL_NAME, TextEditor
from apply_patch.edits import (
    CreateFile,
    Edit,
    Insert,
    NotebookEdit,
    StrReplace,
    apply_edits,
    apply_search_replace,
    apply_unified_diff,
)

KINDS = {"edits": "edits.json", "search_replace": "reply.md", "unified_apply": "diff.txt", "text_editor": "calls.json"}


@dataclass(frozen=True)
class Case:
    kind: str
    folder: Path
    data: dict[str, Any]

    @property
    def input_text(self) -> str:
        return (self.folder / KINDS[self.kind]).read_bytes().decode("utf-8")

    def text(self, name: str, root: Path) -> str:
        return str(self.data.get(name, "")).replace("<root>", str(root))

    @property
    def options(self) -> dict[str, str]:
        return dict(self.data.get("options", {}))


CASES = [
    Case(kind, path.parent, json.loads(path.read_text(encoding="utf-8")))
    for kind in KINDS
    for path in sorted((FIXTURES / kind).glob("*/case.json"))
]
IDS = [f"{c.kind}/{c.folder.name}" for c in CASES]


def _lay_out(case: Case, root: Path) -> dict[str, Any]:
    copy_tree(case.folder / "input", root)
    return snapshot(root)


def _after(case: Case, before: dict[str, Any], tmp: Path) -> dict[str, Any]:
    if case.data["exit"] != 0:
        return before
    expected = tmp / "expected"
    copy_tree(case.folder / "expected", expected)
    return snapshot(expected)


def edits_of(text: str) -> list[Edit]:
    """The edits of an edits.json text."""
    made: list[Edit] = []
    for spec in json.loads(text):
        fields = {k: v for k, v in spec.items() if k != "type"}
        made.append({"StrReplace": StrReplace, "CreateFile": CreateFile, "Insert": Insert}[spec["type"]](**fields))
    return made


def _library(case: Case, root: Path) -> tuple[str, list[str]]:
    """Apply the case's input with the library: (summary, warning messages)."""
    policy = DEFAULT.with_options(**case.options)
    if case.kind == "edits":
        result = apply_edits(edits_of(case.input_text), root, policy=policy)
    elif case.kind == "search_replace":
        result = apply_search_replace(case.input_text, root, policy=policy)
    else:
        result = apply_unified_diff(case.input_text, root, policy=policy)
    return result.summary, [w.message for w in result.warnings]


def test_there_are_cases_of_every_kind() -> None:
    counts = {kind: sum(1 for c in CASES if c.kind == kind) for kind in KINDS}
    assert all(count >= 8 for count in counts.values()), counts


@pytest.mark.parametrize("case", [c for c in CASES if c.kind != "text_editor"], ids=[i for c, i in zip(CASES, IDS) if c.kind != "text_editor"])
def test_library(case: Case, tmp_path: Path) -> None:
    root = tmp_path / "root"
    before = _lay_out(case, root)
    rule = case.data["rule"]
    if case.data["exit"] == 0:
        summary, warnings = _library(case, root)
        assert summary == case.text("stdout", root), rule
        assert warnings == case.data.get("warnings", []), rule
    else:
        with pytest.raises(PatchError) as caught:
            _library(case, root)
        assert f"{caught.value}\n{NOTHING_CHANGED}" == case.text("stderr", root), rule
    assert snapshot(root) == _after(case, before, tmp_path), rule


FORMAT_CASES = [c for c in CASES if c.kind in ("search_replace", "unified_apply")]


@pytest.mark.parametrize("chosen", ["named", "auto"])
@pytest.mark.parametrize("case", FORMAT_CASES, ids=[f"{c.kind}/{c.folder.name}" for c in FORMAT_CASES])
def test_executable(case: Case, chosen: str, tmp_path: Path) -> None:
    root = tmp_path / "root"
    before = _lay_out(case, root)
    name = {"search_replace": "search-replace", "unified_apply": "unified-diff"}[case.kind]
    options = [f"--{k.replace('_', '-')}={v}" for k, v in case.options.items()]
    args = ["--format", name if chosen == "named" else "auto", *options]
    result = run_cli(args, root, stdin=case.input_text.encode("utf-8"))
    rule = case.data["rule"]
    assert result.returncode == case.data["exit"], rule
    if case.data["exit"] == 0:
        assert result.stdout.decode("utf-8") == case.text("stdout", root), rule
        warnings = "".join(f"warning: {w}\n" for w in case.data.get("warnings", []))
        assert result.stderr.decode("utf-8") == warnings, rule
    else:
        assert result.stdout == b"", rule
        assert result.stderr.decode("utf-8") == case.text("stderr", root), rule
    assert snapshot(root) == _after(case, before, tmp_path), rule


@pytest.mark.parametrize("case", FORMAT_CASES, ids=[f"{c.kind}/{c.folder.name}" for c in FORMAT_CASES])
def test_executable_json_names_the_format_auto_chose(case: Case, tmp_path: Path) -> None:
    root = tmp_path / "root"
    before = _lay_out(case, root)
    result = run_cli(["--format", "auto", "--json", "--dry-run"], root, stdin=case.input_text.encode("utf-8"))
    document = json.loads(result.stdout)
    assert document["format"] == {"search_replace": "search-replace", "unified_apply": "unified-diff"}[case.kind]
    assert document["ok"] == (case.data["exit"] == 0)
    if not document["ok"]:
        assert document["error"]["message"] + "\n" + NOTHING_CHANGED == case.text("stderr", root)
        assert document["error"]["nothing_changed"] is True
    assert snapshot(root) == before  # a dry run


def _log(records: list[dict[str, Any]]) -> str:
    """An agent log (JSON lines) whose assistant messages hold these tool uses."""
    lines = [
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{n}", **record}]}}
        for n, record in enumerate(records, 1)
    ]
    return "".join(json.dumps(line) + "\n" for line in lines)


def _as_tool_use(edit: Edit) -> dict[str, Any] | None:
    """The edit as Claude Code or the text editor would call it (None: none says it)."""
    if isinstance(edit, StrReplace):
        if edit.expected is not None:
            return None
        spec = {"file_path": edit.path, "old_string": edit.old, "new_string": edit.new, "replace_all": edit.replace_all}
        return {"name": "Edit", "input": spec}
    if isinstance(edit, CreateFile):
        if edit.overwrite:
            return {"name": "Write", "input": {"file_path": edit.path, "content": edit.text}}
        return {"name": TOOL_NAME, "input": {"command": "create", "path": edit.path, "file_text": edit.text}}
    if isinstance(edit, NotebookEdit):
        spec = {"notebook_path": edit.path, "new_source": edit.new_source, "cell_id": edit.cell_id,
                "cell_type": edit.cell_type, "edit_mode": edit.mode}  # fmt: skip
        return {"name": "NotebookEdit", "input": spec}
    return {"name": TOOL_NAME, "input": {"command": "insert", "path": edit.path, "insert_line": edit.after_line, "new_str": edit.text}}


def _replayable(case: Case) -> bool:
    if case.options:
        return False
    if case.kind == "text_editor":
        answers = json.loads((case.folder / "answers.json").read_text(encoding="utf-8"))
        return not any(a["is_error"] for a in answers)
    edits = edits_of(case.input_text)
    # Each tool use is a call of its own: a failing case replays alike only if it has one edit.
    return all(_as_tool_use(e) is not None for e in edits) and (case.data["exit"] == 0 or len(edits) == 1)


REPLAYED = [c for c in CASES if c.kind in ("edits", "text_editor") and _replayable(c)]


@pytest.mark.parametrize("case", REPLAYED, ids=[f"{c.kind}/{c.folder.name}" for c in REPLAYED])
def test_executable_replays_the_tool_uses(case: Case, tmp_path: Path) -> None:
    root = tmp_path / "root"
    before = _lay_out(case, root)
    if case.kind == "edits":
        records = [_as_tool_use(e) for e in edits_of(case.input_text)]
    else:
        calls = json.loads(case.input_text)
        records = [{"name": TOOL_NAME, "input": c} for c in calls if c.get("command") != "view"]
    log = tmp_path / "session.jsonl"
    log.write_text(_log([r for r in records if r is not None]), encoding="utf-8")
    result = run_cli(["extract", "--apply", str(log)], root)
    assert result.returncode == case.data["exit"], (case.data["rule"], result.stderr)
    assert snapshot(root) == _after(case, before, tmp_path), case.data["rule"]


EDITOR_CASES = [c for c in CASES if c.kind == "text_editor"]


@pytest.mark.parametrize("case", EDITOR_CASES, ids=[c.folder.name for c in EDITOR_CASES])
def test_text_editor(case: Case, tmp_path: Path) -> None:
    root = tmp_path / "root"
    before = _lay_out(case, root)
    policy = DEFAULT.with_options(**case.options)
    editor = TextEditor(root, policy=policy, max_characters=case.data.get("max_characters"))
    answers = [editor.run(call) for call in json.loads(case.input_text)]
    expected = json.loads((case.folder / "answers.json").read_text(encoding="utf-8"))
    expected = [{**a, "content": a["content"].replace("<root>", str(root))} for a in expected]
    assert answers == expected, case.data["rule"]
    assert snapshot(root) == _after(case, before, tmp_path), case.data["rule"]
