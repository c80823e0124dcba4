"""Files that are not UTF-8: GBK, Shift-JIS, cp1252, UTF-16. Given (`--encoding`), declared
(`.gitattributes`, `.editorconfig`) or marked (a byte-order mark), each is edited by a Codex
patch, a str_replace and a SEARCH/REPLACE block on its decoded text, and written back in its
own encoding with every byte outside the edited line as it was. Undeclared, only an edit of
ASCII lines applies; any other is refused, asking for the encoding. Every refusal leaves the
tree byte for byte as it was."""

import os
from pathlib import Path

import pytest

from _support import NOTHING_CHANGED, run_cli, snapshot
from apply_patch import PatchError, Policy, apply_patch
from apply_patch.anthropic import TextEditor
from apply_patch.edits import CreateFile, StrReplace, apply_edits, apply_search_replace

# name: (codec, file text, the line edited, its new text). Each file holds characters of its
# encoding on lines the edit does not touch (their bytes must stay as they were).
FILES = {
    "gbk": (
        "gbk",
        '// 配置文件：主程序\n#include <stdio.h>\nint main() {\n    printf("你好，世界\\n");  // 打印问候\n'
        "    return 0;\n}\n",
        '    printf("你好，世界\\n");  // 打印问候',
        '    printf("再见，世界\\n");  // 打印告别',
    ),
    "shift_jis": (
        "shift_jis",
        '# 設定ファイル\ntitle = "表示テスト"\npath = C:\\temp\nmessage = "ソフトウェア"\n',
        'message = "ソフトウェア"',
        'message = "ソフトウェア更新"',
    ),
    "cp1252": (
        "cp1252",
        "<p>\u201cSmart quotes\u201d \u2013 and a price: 5 \u20ac</p>\r\n<p>Caf\u00e9</p>\r\n<p>Fin.</p>\r\n",
        "<p>Caf\u00e9</p>",
        "<p>Cr\u00e8me br\u00fbl\u00e9e</p>",
    ),
    "utf-16": (
        "utf-16",  # little-endian with a byte-order mark, CRLF: a Windows .reg file
        'Windows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\Software\\Démo]\r\n"Name"="Überprüfung"\r\n',
        '"Name"="Überprüfung"',
        '"Name"="Prüfung ✓"',
    ),
}


def _lay_out(root: Path, name: str, declared: str) -> tuple[Path, bytes, bytes]:
    """The file of `name` under `root`, declared as `declared` says; (its path, its bytes,
    the bytes it must have after the edit: the edited line's bytes replaced, nothing else)."""
    codec, text, old, new = FILES[name]
    path = root / "data" / f"file.{name.replace('-', '')}"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode(codec)
    path.write_bytes(data)
    if declared == "gitattributes":
        (root / ".gitattributes").write_text(f"*.{name.replace('-', '')} working-tree-encoding={codec.upper()}\n")
    elif declared == "editorconfig":
        charset = {"cp1252": "latin1", "utf-16": "utf-16le"}[name]
        (root / "data" / ".editorconfig").write_text(f"[*.{name.replace('-', '')}]\ncharset = {charset}\n")
    unit = "utf-16-le" if codec == "utf-16" else codec
    old_bytes, new_bytes = old.encode(unit), new.encode(unit)
    assert data.count(old_bytes) == 1
    return path, data, data.replace(old_bytes, new_bytes)


CASES = [
    (name, declared)
    for name in FILES
    for declared in ("option", "gitattributes", *(("editorconfig",) if name in ("cp1252", "utf-16") else ()),
                     *(("bom",) if name == "utf-16" else ()))
]  # fmt: skip


def _policy(name: str, declared: str) -> Policy:
    return Policy(encoding=FILES[name][0]) if declared == "option" else Policy()


@pytest.mark.parametrize(("name", "declared"), CASES)
def test_a_codex_patch(tmp_path: Path, name: str, declared: str) -> None:
    path, _, expected = _lay_out(tmp_path, name, declared)
    _, _, old, new = FILES[name]
    patch = f"*** Begin Patch\n*** Update File: data/{path.name}\n@@\n-{old}\n+{new}\n*** End Patch\n"
    apply_patch(patch, tmp_path, policy=_policy(name, declared))
    assert path.read_bytes() == expected
    # and back again, through the executable: the file is as it was, byte for byte
    back = f"*** Begin Patch\n*** Update File: data/{path.name}\n@@\n-{new}\n+{old}\n*** End Patch\n"
    args = ["--encoding", FILES[name][0]] if declared == "option" else []
    done = run_cli([*args, back], tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert path.read_bytes() == FILES[name][1].encode(FILES[name][0])


@pytest.mark.parametrize(("name", "declared"), CASES)
def test_a_str_replace(tmp_path: Path, name: str, declared: str) -> None:
    path, _, expected = _lay_out(tmp_path, name, declared)
    _, _, old, new = FILES[name]
    apply_edits([StrReplace(f"data/{path.name}", old, new)], tmp_path, policy=_policy(name, declared))
    assert path.read_bytes() == expected


@pytest.mark.parametrize(("name", "declared"), CASES)
def test_a_search_replace_block(tmp_path: Path, name: str, declared: str) -> None:
    path, _, expected = _lay_out(tmp_path, name, declared)
    _, _, old, new = FILES[name]
    reply = f"data/{path.name}\n<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n"
    apply_search_replace(reply, tmp_path, policy=_policy(name, declared))
    assert path.read_bytes() == expected


def test_the_text_editor_edits_and_views_in_the_given_encoding(tmp_path: Path) -> None:
    path, _, expected = _lay_out(tmp_path, "gbk", "option")
    editor = TextEditor(tmp_path, encoding="gbk")
    _, _, old, new = FILES["gbk"]
    done = editor.run({"command": "str_replace", "path": "data/file.gbk", "old_str": old, "new_str": new})
    assert done["is_error"] is False, done
    assert new in done["content"]
    assert path.read_bytes() == expected
    assert "1: // 配置文件：主程序" in editor.run({"command": "view", "path": "data/file.gbk"})["content"]


@pytest.mark.parametrize(
    ("name", "text", "shown"),
    [("gbk", "😀", "'😀' (U+1F600)"), ("shift_jis", "€ and ✓", "'€' (U+20AC) and '✓' (U+2713)"), ("cp1252", "日本", "'日' (U+65E5) and '本' (U+672C)")],
)
def test_text_the_encoding_cannot_hold_is_refused(tmp_path: Path, name: str, text: str, shown: str) -> None:
    path, _, _ = _lay_out(tmp_path, name, "option")
    _, _, old, _ = FILES[name]
    before = snapshot(tmp_path)
    with pytest.raises(PatchError) as caught:
        apply_edits([StrReplace(f"data/{path.name}", old, old + text)], tmp_path, encoding=name)
    line = FILES[name][1].split("\n").index(old.rstrip("\r")) + 1 if "\r" not in FILES[name][1] else 2
    assert str(caught.value).startswith(
        f"Failed to write data/{path.name}: its encoding, {name} (given), cannot represent {shown}, on line {line}"
    )
    assert snapshot(tmp_path) == before


def test_messages_name_the_encoding(tmp_path: Path) -> None:
    path, _, _ = _lay_out(tmp_path, "gbk", "gitattributes")
    before = snapshot(tmp_path)
    with pytest.raises(PatchError) as caught:
        apply_edits([StrReplace("data/file.gbk", "不在文件里", "x")], tmp_path)
    assert "data/file.gbk was read as gbk (working-tree-encoding in .gitattributes)" in str(caught.value)
    (tmp_path / "bad.gbk").write_bytes(b"ok\n\x81\n")  # a lead byte with no trail byte
    with pytest.raises(PatchError) as caught:
        apply_edits([StrReplace("bad.gbk", "ok", "fine")], tmp_path, encoding="gbk")
    assert str(caught.value).startswith(
        "Failed to read file to update bad.gbk: its encoding is gbk (given), but the bytes from offset 3 are not gbk text"
    )
    assert snapshot(tmp_path) == {**before, "bad.gbk": snapshot(tmp_path)["bad.gbk"]}


# ---------------------------------------------------------------- not declared


@pytest.mark.parametrize("name", ["gbk", "shift_jis", "cp1252"])
def test_undeclared_an_ascii_edit_applies_and_keeps_every_other_byte(tmp_path: Path, name: str) -> None:
    codec, text, _, _ = FILES[name]
    path = tmp_path / "legacy.txt"
    data = text.encode(codec)
    path.write_bytes(data)
    ascii_line = next(line for line in text.splitlines() if line.isascii() and line.strip())
    patch = f"*** Begin Patch\n*** Update File: legacy.txt\n@@\n-{ascii_line}\n+{ascii_line} // changed\n*** End Patch\n"
    done = run_cli([patch], tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert path.read_bytes() == data.replace(ascii_line.encode(), f"{ascii_line} // changed".encode(), 1)


@pytest.mark.parametrize("name", ["gbk", "shift_jis", "cp1252"])
def test_undeclared_any_other_edit_is_refused_asking_for_the_encoding(tmp_path: Path, name: str) -> None:
    codec, text, old, new = FILES[name]
    (tmp_path / "legacy.txt").write_bytes(text.encode(codec))
    ascii_line = next(line for line in text.splitlines() if line.isascii() and line.strip())
    before = snapshot(tmp_path)
    patch = f"*** Begin Patch\n*** Update File: legacy.txt\n@@\n-{old}\n+{new}\n*** End Patch\n"
    writes = f"*** Begin Patch\n*** Update File: legacy.txt\n@@\n-{ascii_line}\n+{new}\n*** End Patch\n"
    for attempt in (patch, writes):
        done = run_cli([attempt], tmp_path)
        assert done.returncode == 1
        err = done.stderr.decode()
        assert "--encoding NAME" in err and err.endswith(NOTHING_CHANGED), err
    with pytest.raises(PatchError) as caught:
        apply_edits([StrReplace("legacy.txt", ascii_line, new)], tmp_path)
    assert str(caught.value).startswith(
        "Failed to update legacy.txt: it is not UTF-8 and its encoding is neither given nor declared, so only "
        "lines of ASCII bytes may be matched, replaced or written; line "
    )
    assert snapshot(tmp_path) == before


def test_undeclared_a_trail_byte_that_looks_like_ascii_is_never_matched(tmp_path: Path) -> None:
    """In Shift-JIS, 表 is 0x95 0x5C and ソ 0x83 0x5C: 0x5C is a backslash in ASCII."""
    codec, text, _, _ = FILES["shift_jis"]
    data = text.encode(codec)
    assert data.count(b"\\") == 3  # one in `C:\temp`, two trail bytes
    (tmp_path / "a.ini").write_bytes(data)
    apply_edits([StrReplace("a.ini", "\\", "/", replace_all=True)], tmp_path)
    assert (tmp_path / "a.ini").read_bytes() == data.replace(b"C:\\temp", b"C:/temp")
    before = snapshot(tmp_path)
    delete = "*** Begin Patch\n*** Update File: a.ini\n@@ path = C:/temp\n-message = \"ソフトウェア\"\n*** End Patch\n"
    assert run_cli([delete], tmp_path).returncode == 1
    assert snapshot(tmp_path) == before


def test_undeclared_utf8_text_not_found_says_why(tmp_path: Path) -> None:
    codec, text, old, new = FILES["gbk"]
    (tmp_path / "a.c").write_bytes(text.encode(codec))
    before = snapshot(tmp_path)
    with pytest.raises(PatchError) as caught:
        apply_edits([StrReplace("a.c", old, new)], tmp_path)
    assert "a.c is not UTF-8 and its encoding is neither given nor declared" in str(caught.value)
    assert "--encoding NAME" in str(caught.value)
    assert snapshot(tmp_path) == before


def test_preserve_still_edits_anything_keeping_the_bytes(tmp_path: Path) -> None:
    codec, text, _, _ = FILES["gbk"]
    (tmp_path / "a.c").write_bytes(text.encode(codec))
    apply_edits([StrReplace("a.c", "#include <stdio.h>", "#include <stdlib.h>")], tmp_path, non_utf8="preserve")
    assert (tmp_path / "a.c").read_bytes() == text.replace("stdio", "stdlib").encode(codec)


def test_codex_reads_no_declaration(tmp_path: Path) -> None:
    path, data, _ = _lay_out(tmp_path, "gbk", "gitattributes")
    _, _, old, new = FILES["gbk"]
    before = snapshot(tmp_path)
    patch = f"*** Begin Patch\n*** Update File: data/{path.name}\n@@\n-{old}\n+{new}\n*** End Patch\n"
    done = run_cli(["--codex", patch], tmp_path)
    assert done.returncode == 1 and "--encoding NAME" in done.stderr.decode()
    assert snapshot(tmp_path) == before
    assert os.path.getsize(path) == len(data)


def test_a_new_file_is_written_in_the_given_encoding(tmp_path: Path) -> None:
    (tmp_path / ".editorconfig").write_text("[*]\ncharset = latin1\n")
    apply_edits([StrReplace("a.txt", "", "你好\n")], tmp_path, encoding="gbk")  # the option wins
    assert (tmp_path / "a.txt").read_bytes() == "你好\n".encode("gbk")
    done = run_cli(["--encoding", "shift_jis", "*** Begin Patch\n*** Add File: b.txt\n+表示\n*** End Patch\n"], tmp_path)
    assert done.returncode == 0
    assert (tmp_path / "b.txt").read_bytes() == "表示\n".encode("shift_jis")


def test_a_file_replaced_whole_keeps_its_encoding(tmp_path: Path) -> None:
    path, _, _ = _lay_out(tmp_path, "utf-16", "gitattributes")
    apply_edits([CreateFile("data/file.utf16", "Ünïcode\r\n", overwrite=True)], tmp_path)  # Claude Code's Write
    assert path.read_bytes() == b"\xff\xfe" + "Ünïcode\r\n".encode("utf-16-le")
    (tmp_path / "marked.txt").write_bytes(b"\xff\xfeo\x00\n\x00")  # a mark alone: the reference writes UTF-8
    apply_edits([CreateFile("marked.txt", "new\n", overwrite=True)], tmp_path)
    assert (tmp_path / "marked.txt").read_bytes() == b"new\n"
    (tmp_path / "b.txt").write_bytes("表\n".encode("shift_jis"))
    apply_edits([CreateFile("b.txt", "ソ\n", overwrite=True)], tmp_path, encoding="shift_jis")
    assert (tmp_path / "b.txt").read_bytes() == "ソ\n".encode("shift_jis")


def test_the_mcp_server_takes_the_encoding(tmp_path: Path) -> None:
    import asyncio

    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    from _support import executable

    path, _, expected = _lay_out(tmp_path, "gbk", "option")
    _, _, old, new = FILES["gbk"]

    async def session() -> tuple[bool, str]:
        server = StdioServerParameters(command=executable(), args=["serve", "--root", str(tmp_path), "--encoding", "gbk"])
        async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            arguments = {"command": "str_replace", "path": "data/file.gbk", "old_str": old, "new_str": new}
            result = await client.call_tool("str_replace_based_edit_tool", arguments)
            (content,) = result.content
            assert content.type == "text"
            return bool(result.is_error), content.text

    is_error, text = asyncio.run(session())
    assert not is_error and new in text
    assert path.read_bytes() == expected


@pytest.mark.parametrize(("name", "guess"), [("gbk", "gb18030"), ("shift_jis", "cp932")])
def test_a_detector_if_installed_names_the_likely_encoding(tmp_path: Path, name: str, guess: str) -> None:
    """charset-normalizer (the optional extra `detect`, installed with the tests) names a
    likely encoding in the refusal; nothing is decoded with it."""
    codec, text, old, new = FILES[name]
    (tmp_path / "legacy.txt").write_bytes(text.encode(codec))
    before = snapshot(tmp_path)
    with pytest.raises(PatchError) as caught:
        apply_edits([StrReplace("legacy.txt", old, new)], tmp_path)
    assert f"charset-normalizer takes its bytes for {guess}: check that before giving it." in str(caught.value)
    assert snapshot(tmp_path) == before


def test_without_a_detector_no_encoding_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "charset_normalizer", None)  # as if not installed
    codec, text, old, new = FILES["gbk"]
    (tmp_path / "legacy.txt").write_bytes(text.encode(codec))
    with pytest.raises(PatchError) as caught:
        apply_edits([StrReplace("legacy.txt", "int main() {", "int main(void) {\n    // 开始")], tmp_path)
    assert "--encoding NAME" in str(caught.value) and "charset-normalizer" not in str(caught.value)
