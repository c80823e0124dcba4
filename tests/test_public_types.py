"""The public classes as a type checker sees them, used as a client would: typed, by keyword.

`make test` runs this module with pytest and checks it with `mypy --strict`: each line
below must type-check (the classes are dataclasses to mypy: `__init__` from their
fields, `dataclasses.replace`/`fields`/`asdict` accepted) and do at run time what its
types say. (mypy --strict checks them).
"""

import dataclasses
from pathlib import Path
from typing import Any

from apply_patch import (
    DEFAULT,
    AddFile,
    ApplyResult,
    Chunk,
    DeleteFile,
    FileResult,
    Patch,
    Policy,
    UpdateFile,
    apply_patch,
    apply_to_mapping,
    parse_patch,
)
from apply_patch.edits import CreateFile, Insert, StrReplace, apply_edits


def test_a_patch_made_by_keyword_is_the_patch_parsed() -> None:
    chunk = Chunk(contexts=("def greet():",), lines=('-    print("Hi")', '+    print("Hello")'))
    update = UpdateFile(path="hello.py", move_to=None, chunks=(chunk,))
    patch = Patch(operations=(AddFile(path="new.txt", lines=("new",)), update, DeleteFile(path="old.txt")))
    assert parse_patch(str(patch)) == patch

    moved: UpdateFile = dataclasses.replace(update, move_to="main.py")
    assert moved.move_to == "main.py" and moved.chunks == (chunk,)
    names: list[str] = [field.name for field in dataclasses.fields(UpdateFile)]
    assert names == ["path", "move_to", "chunks", "line"]
    as_dict: dict[str, Any] = dataclasses.asdict(patch)
    assert as_dict["operations"][1]["chunks"][0]["lines"] == chunk.lines
    tree = apply_to_mapping(
        dataclasses.replace(patch, operations=(moved,)), {"hello.py": 'def greet():\n    print("Hi")\n'}
    )
    assert tree == {"main.py": 'def greet():\n    print("Hello")\n'}


def test_results_and_policies_are_dataclasses(tmp_path: Path) -> None:
    (tmp_path / "hello.py").write_text("x = 1\n", encoding="utf-8")
    result: ApplyResult = apply_patch(
        "*** Begin Patch\n*** Update File: hello.py\n-x = 1\n+x = 2\n*** End Patch", tmp_path, dry_run=True
    )
    files: tuple[FileResult, ...] = result.files
    assert files == (FileResult(path="hello.py", status="updated", added=1, removed=1),)
    assert dataclasses.asdict(files[0]) == {
        "path": "hello.py", "status": "updated", "moved_from": None, "added": 1, "removed": 1,
    }  # fmt: skip
    assert dataclasses.replace(result, dry_run=False).dry_run is False

    policy: Policy = dataclasses.replace(DEFAULT, ambiguous="first")
    assert policy == Policy(ambiguous="first") and policy.with_options(ambiguous="error") == DEFAULT


def test_edits_made_by_keyword(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\n", encoding="utf-8")
    replacement = StrReplace(path="a.txt", old="one", new="1")
    everywhere: StrReplace = dataclasses.replace(replacement, replace_all=True)
    assert everywhere.replace_all and [f.name for f in dataclasses.fields(everywhere)][:3] == ["path", "old", "new"]
    inserted = Insert(path="a.txt", after_line=1, text="2\n")
    apply_edits([everywhere, inserted, CreateFile(path="b.txt", text="b\n")], tmp_path)
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "1\n2\n"
