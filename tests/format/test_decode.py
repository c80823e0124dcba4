"""Patches that arrive wrapped in JSON or in a shell command (issue 12 items 1-2).

`parse_patch(text)` is strict, as the reference; `parse_patch(text, decode=True)`
(what `apply_patch()` and the executable use) takes the patch out of a JSON
string, a JSON object with one text field, or the shell form of one
apply_patch call, and says what it decoded in `Patch.notes`.
"""

import json

import pytest

from apply_patch import PatchSyntaxError, apply_to_mapping, parse_patch

PATCH = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** End Patch\n"
SHELL_NOTE = (
    "the input was a shell command running apply_patch with a heredoc; "
    "the patch in the heredoc was used"
)


@pytest.mark.parametrize(
    ("text", "workdir"),
    [
        (f"apply_patch <<'EOF'\n{PATCH}EOF", None),
        (f"applypatch <<EOF\n{PATCH}EOF\n", None),
        (f"cd src && apply_patch <<'PATCH'\n{PATCH}PATCH", "src"),
        (f"cd 'my dir' && apply_patch <<\"EOF\"\n{PATCH}EOF", "my dir"),
        (f"bash -lc 'apply_patch <<EOF\n{PATCH}EOF'", None),
        (f"bash -lc \"cd src && apply_patch <<'EOF'\n{PATCH}EOF\"", "src"),
        (f"/bin/sh -c 'cd lib && apply_patch <<EOF\n{PATCH}EOF'", "lib"),
    ],
)
def test_shell_forms_by_the_strict_rules(text: str, workdir: str | None) -> None:
    with pytest.raises(PatchSyntaxError):
        parse_patch(text)  # strict by default, as the reference
    patch = parse_patch(text, decode=True)
    assert patch == parse_patch(PATCH)
    assert patch.workdir == workdir
    where = "" if workdir is None else f", from the folder '{workdir}' (the command's cd)"
    assert patch.notes == (f"{SHELL_NOTE}{where}.",)


@pytest.mark.parametrize(
    "text",
    [
        f"apply_patch <<'EOF'\n{PATCH}EOF\npytest",  # a second command
        f"cd a && cd b && apply_patch <<'EOF'\n{PATCH}EOF",  # two cd
        f"cd a; apply_patch <<'EOF'\n{PATCH}EOF",  # not &&
        f"apply_patch <<'EOF' > out.txt\n{PATCH}EOF",  # another redirect
        f"echo hi && apply_patch <<'EOF'\n{PATCH}EOF",
        f"bash -lc 'apply_patch <<EOF\n{PATCH}EOF' && ls",
    ],
)
def test_scripts_with_anything_else_are_refused_with_a_hint(text: str) -> None:
    with pytest.raises(PatchSyntaxError) as caught:
        parse_patch(text, decode=True)
    assert caught.value.message == "The first line of the patch must be '*** Begin Patch'"
    assert any("apply_patch extract --apply" in hint for hint in caught.value.hints)
    assert not any("There is text before" in hint for hint in caught.value.hints)


def test_a_broken_patch_in_a_shell_form_is_counted_in_its_own_lines() -> None:
    broken = PATCH.replace("-one", "oops")
    with pytest.raises(PatchSyntaxError) as caught:
        parse_patch(f"cd src && apply_patch <<'EOF'\n{broken}EOF", decode=True)
    assert caught.value.line == 4  # the line of the patch, not of the command
    assert str(caught.value).startswith("Invalid patch hunk on line 4: Unexpected line found")


def test_json_string_and_object() -> None:
    assert parse_patch(json.dumps(PATCH), decode=True).notes == (
        "the input was a JSON string; the patch was decoded from it.",
    )
    for key in ("patch", "input", "text"):
        decoded = parse_patch(json.dumps({key: PATCH, "n": 1}), decode=True)
        assert decoded == parse_patch(PATCH)
        assert decoded.notes == (f'the input was a JSON object; the patch was taken from its "{key}" field.',)


def test_json_inside_json_and_shell_inside_json() -> None:
    shell = f"cd src && apply_patch <<'EOF'\n{PATCH}EOF"
    patch = parse_patch(json.dumps({"command": shell}), decode=True)
    assert patch.workdir == "src" and len(patch.notes) == 2
    assert parse_patch(json.dumps(json.dumps(PATCH)), decode=True) == parse_patch(PATCH)


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"patch": PATCH, "other": "text"}),  # two text fields: which one?
        json.dumps({"patch": "not a patch"}),
        json.dumps("not a patch"),
        '"*** Begin Patch\\n*** End Patch',  # not valid JSON
        PATCH.replace("\n", "\\n"),  # literal \n without quotes: ambiguous, stays an error
        '{"a":' * 100_000 + "1" + "}" * 100_000,  # deeper than the JSON decoder goes
        "cd x && " * 2_000 + "apply_patch <<'EOF'\n" + PATCH + "EOF",  # a long script
    ],
)
def test_json_that_is_not_one_patch_stays_an_error(text: str) -> None:
    with pytest.raises(PatchSyntaxError):
        parse_patch(text, decode=True)


def test_errors_are_built_once_with_their_facts() -> None:
    with pytest.raises(PatchSyntaxError) as caught:
        parse_patch("Here is the patch:\n" + PATCH)
    assert type(caught.value) is PatchSyntaxError  # not the parser's internal kind
    assert caught.value.details == ("Line 1 is 'Here is the patch:'.",)
    assert caught.value.hints and caught.value.to_dict()["hints"] == list(caught.value.hints)


def test_the_mapping_takes_the_cd_folder_too() -> None:
    shell = f"cd src && apply_patch <<'EOF'\n{PATCH}EOF"
    assert apply_to_mapping(shell, {"src/a.txt": "one\n", "a.txt": "one\n"}) == {
        "src/a.txt": "1\n",
        "a.txt": "one\n",
    }
