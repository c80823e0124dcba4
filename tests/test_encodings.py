"""Files that are not UTF-8: GBK, Shift-JIS, cp1252, UTF-16. Given (`--encoding`), declared
(`.gitattributes`, `.editorconfig`) or marked (a byte-order mark), each is edited by a Codex
patch, a str_replace and a SEARCH/REPLACE block on its decoded text, and written back in its
own encoding with every byte outside the edited line as it was. Undeclared, only an edit of
ASCII lines applies; any other is refused, asking for the encoding. Every refusal leaves the
tree byte for byte as it was."""

import os
from pathlib import Path

import pytest

from _support import NOTHING_CHANGED, mcp_server, run_cli, snapshot
from apply_patch import PatchError, Policy, apply_patch
from apply_patch._errors import EncodingError
from apply_patch.anthropic import TextEditor
from apply_patch.edits import CreateFile, StrReplace, apply_edits, apply_search_replace, apply_unified_diff

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
        f"Failed to write data/{path.name}: its encoding, {name} (given: --encoding), cannot represent {shown}, on line {line}"
    )
    assert snapshot(tmp_path) == before


def test_messages_name_the_encoding(tmp_path: Path) -> None:
    path, _, _ = _lay_out(tmp_path, "gbk", "gitattributes")
    before = snapshot(tmp_path)
    with pytest.raises(PatchError) as caught:
        apply_edits([StrReplace("data/file.gbk", "不在文件里", "x")], tmp_path)
    assert "data/file.gbk was read as gbk (working-tree-encoding in .gitattributes:1)" in str(caught.value)
    (tmp_path / "bad.gbk").write_bytes(b"ok\n\x81\n")  # a lead byte with no trail byte
    with pytest.raises(PatchError) as caught:
        apply_edits([StrReplace("bad.gbk", "ok", "fine")], tmp_path, encoding="gbk")
    assert str(caught.value).startswith(
        "Failed to read file to update bad.gbk: its encoding is gbk (given: --encoding), but the bytes from offset 3 are not gbk text"
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
    assert "a.c: it is not UTF-8 and its encoding is neither given nor declared" in str(caught.value)
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
    from mcp.client.stdio import stdio_client

    path, _, expected = _lay_out(tmp_path, "gbk", "option")
    _, _, old, new = FILES["gbk"]

    async def session() -> tuple[bool, str]:
        server = mcp_server(["serve", "--root", str(tmp_path), "--encoding", "gbk"])
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


# ---------------------------------------------------------------- declarations are input (issue 33)


def _refused(root: Path, edit: StrReplace, encoding: str = "") -> str:
    """The one-line refusal of `edit` (library and executable alike; `encoding` the option
    if given), the tree unchanged."""
    before = snapshot(root)
    with pytest.raises(EncodingError) as caught:
        apply_edits([edit], root, policy=Policy(encoding=encoding))
    assert snapshot(root) == before
    assert "\n" not in caught.value.message
    patch = f"*** Begin Patch\n*** Update File: {edit.path}\n@@\n-{edit.old}\n+{edit.new}\n*** End Patch\n"
    args = [f"--encoding={encoding}"] if encoding else []
    done = run_cli([*args, patch], root)
    err = done.stderr.decode()
    assert done.returncode == 1 and "internal error" not in err and err.endswith(NOTHING_CHANGED), err
    assert snapshot(root) == before
    return caught.value.message


def test_a_single_byte_charset_over_utf8_text_is_refused(tmp_path: Path) -> None:
    # latin1 decodes every byte: UTF-8's "ü" read as "Ã¼", and an edit writes latin1 among UTF-8.
    (tmp_path / ".editorconfig").write_text("root = true\n\n[*.txt]\ncharset = latin1\n")
    (tmp_path / "a.txt").write_bytes("Grüße\nEnde\n".encode())
    message = _refused(tmp_path, StrReplace("a.txt", "Ende", "Schluß"))
    assert message.startswith("Failed to read file to update a.txt: its encoding is iso8859-1 (charset in .editorconfig:4)")
    assert "its bytes are UTF-8 (a multi-byte sequence at offset 2)" in message
    (tmp_path / ".editorconfig").unlink()
    (tmp_path / ".gitattributes").write_text("# legacy\n*.txt working-tree-encoding=cp1252\n")
    message = _refused(tmp_path, StrReplace("a.txt", "Ende", "Schluß"))
    assert "cp1252 (working-tree-encoding in .gitattributes:2)" in message
    message = _refused(tmp_path, StrReplace("a.txt", "Ende", "Schluß"), encoding="iso8859-15")
    assert "iso8859-15 (given: --encoding)" in message
    (tmp_path / "b.txt").write_bytes("Gr\u00fc\u00dfe\nEnde\n".encode("latin-1"))  # really latin1: edited
    apply_edits([StrReplace("b.txt", "Ende", "Schluß")], tmp_path)
    assert (tmp_path / "b.txt").read_bytes() == "Grüße\nSchluß\n".encode("latin-1")


def test_utf16_over_a_file_without_nul_bytes_is_refused(tmp_path: Path) -> None:
    # Without a byte-order mark, an ASCII file read as UTF-16 is CJK text: shown to the model so.
    (tmp_path / ".gitattributes").write_text("*.cfg working-tree-encoding=UTF-16\n*.w32 working-tree-encoding=UTF-32LE\n")
    (tmp_path / "a.cfg").write_bytes(b"name = demo\nport = 8080\n")
    message = _refused(tmp_path, StrReplace("a.cfg", "8080", "9090"))
    assert message.startswith("Failed to read file to update a.cfg: its encoding is utf-16-le (working-tree-encoding in .gitattributes:1)")
    assert "no NUL byte" in message
    (tmp_path / "a.w32").write_bytes(b"abcd" * 8)
    assert "utf-32-le (working-tree-encoding in .gitattributes:2)" in _refused(tmp_path, StrReplace("a.w32", "x", "y"))
    # Real UTF-16 without a mark is edited:
    (tmp_path / "b.cfg").write_bytes("port = 8080\n".encode("utf-16-le"))
    apply_edits([StrReplace("b.cfg", "8080", "9090")], tmp_path)
    assert (tmp_path / "b.cfg").read_bytes() == "port = 9090\n".encode("utf-16-le")


def test_bytes_a_declared_encoding_cannot_decode_name_the_declaration(tmp_path: Path) -> None:
    (tmp_path / ".gitattributes").write_text("\n*.c working-tree-encoding=GBK\n")
    (tmp_path / "a.c").write_bytes(b"ok\n\x81\n")
    message = _refused(tmp_path, StrReplace("a.c", "ok", "fine"))
    assert message.startswith(
        "Failed to read file to update a.c: its encoding is gbk (working-tree-encoding in .gitattributes:2), "
        "but the bytes from offset 3 are not gbk text"
    )


@pytest.mark.parametrize(
    "name", ["rot13", "hex", "base64", "unicode_escape", "raw_unicode_escape", "punycode", "idna", "zlib", "bz2", "uu", "quopri", "undefined", "charmap"]
)
def test_only_character_encodings_are_accepted(tmp_path: Path, name: str) -> None:
    # Before: `internal error: LookupError`, or a mangled file written with exit 0.
    (tmp_path / ".gitattributes").write_text(f"*.txt text\n*.txt working-tree-encoding={name}\n")
    (tmp_path / "a.txt").write_bytes(b"hello\nworld\n")
    message = _refused(tmp_path, StrReplace("a.txt", "world", "there"))
    assert message.startswith(
        f"Failed to read file to update a.txt: its encoding is {name} (working-tree-encoding in .gitattributes:2), "
        "which is not a character encoding Python knows"
    ), message
    before = snapshot(tmp_path)
    with pytest.raises(EncodingError) as caught:
        apply_edits([CreateFile("new.txt", "hello\n")], tmp_path)
    assert f"{name} (working-tree-encoding in .gitattributes:2), which is not a character encoding" in str(caught.value)
    assert snapshot(tmp_path) == before
    # and the option alike: a clear error before anything is read
    done = run_cli(["--encoding", name, "*** Begin Patch\n*** Add File: b.txt\n+x\n*** End Patch\n"], tmp_path)
    assert done.returncode == 1 and f"Invalid value {name!r} for encoding: not a character encoding" in done.stderr.decode()
    with pytest.raises(PatchError, match="not a character encoding"):
        Policy(encoding=name)
    assert snapshot(tmp_path) == before


def test_iso_2022_undeclared_is_refused_and_declared_is_edited(tmp_path: Path) -> None:
    # ISO-2022-JP is 7-bit: every byte is ASCII, so it read as ASCII (mojibake written back).
    text = "# 設定\ntitle = 日本語のテスト\nport = 80\n"
    data = text.encode("iso2022_jp")
    assert data.isascii()
    (tmp_path / "a.ini").write_bytes(data)
    message = _refused(tmp_path, StrReplace("a.ini", "port = 80", "port = 8080"))
    assert message.startswith("Failed to read file to update a.ini: its bytes hold ISO-2022 escape sequences (offset 2)")
    assert "--encoding" in message
    with pytest.raises(EncodingError):  # a unified diff, placed by its numbers, alike
        apply_unified_diff("--- a/a.ini\n+++ b/a.ini\n@@ -3 +3 @@\n-port = 80\n+port = 8080\n", tmp_path)
    assert (tmp_path / "a.ini").read_bytes() == data
    (tmp_path / ".gitattributes").write_text("*.ini working-tree-encoding=ISO-2022-JP\n")
    apply_edits([StrReplace("a.ini", "日本語のテスト", "試験")], tmp_path)
    assert (tmp_path / "a.ini").read_bytes() == text.replace("日本語のテスト", "試験").encode("iso2022_jp")
    (tmp_path / "colors.txt").write_bytes(b"\x1b[31mred\x1b[0m\nplain\n")  # a terminal escape is not one
    apply_edits([StrReplace("colors.txt", "plain", "bold")], tmp_path)
    assert (tmp_path / "colors.txt").read_bytes() == b"\x1b[31mred\x1b[0m\nbold\n"


# ---------------------------------------------------------------- issue 34: non-ASCII on an undeclared file


def test_undeclared_a_non_ascii_edit_is_refused_naming_the_option(tmp_path: Path) -> None:
    # Before: "Failed to find expected lines", the encoding only in a hint.
    codec, text, old, new = FILES["gbk"]
    (tmp_path / "legacy.c").write_bytes(text.encode(codec))
    message = _refused(tmp_path, StrReplace("legacy.c", old, new))
    assert message.startswith(
        "Failed to update legacy.c: it is not UTF-8 and its encoding is neither given nor declared, "
        "and the text the edit looks for is not ASCII: give its encoding with --encoding NAME"
    ), message
    before = snapshot(tmp_path)
    patch = f"*** Begin Patch\n*** Update File: legacy.c\n@@\n-{old}\n+{new}\n*** End Patch\n"
    with pytest.raises(EncodingError, match="give its encoding with --encoding NAME"):
        apply_patch(patch, tmp_path)
    with pytest.raises(PatchError, match="Failed to find"):  # ASCII text not there: not found, as ever
        apply_edits([StrReplace("legacy.c", "int main(void)", "int main()")], tmp_path)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("shift_jis", "shift_jis"),
        ("gbk", "gbk"),
        ("cp1252", "cp1252 (which decodes almost any bytes, so this proves little)"),
    ],
)
def test_without_a_detector_the_likely_legacy_encodings_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, named: str
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "charset_normalizer", None)  # as if not installed
    codec, text, old, new = FILES[name]
    (tmp_path / "legacy.txt").write_bytes(text.encode(codec))
    before = snapshot(tmp_path)
    with pytest.raises(EncodingError) as caught:
        apply_edits([StrReplace("legacy.txt", old, new)], tmp_path)
    hints = " ".join(caught.value.hints)
    assert "Its lines outside ASCII decode as " in hints and named in hints, hints
    if name != "cp1252":  # multi-byte candidates first, cp1252 last
        assert hints.index(name) < hints.index("cp1252") if "cp1252" in hints else True
    assert "charset-normalizer" not in hints
    assert snapshot(tmp_path) == before
