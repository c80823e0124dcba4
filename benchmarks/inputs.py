"""The benchmark inputs, built deterministically (same bytes on every run and machine).

Each builder returns a `Case`: the files to lay out under a fresh root, and the
patch to apply there. Nothing here is random: contents are derived from line
numbers, so two runs (and the reference binary) see identical inputs.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    """Files (relative path → bytes) to lay out under a root, and the patch for that root."""

    name: str
    files: dict[str, bytes]
    patch: str

    @property
    def file_bytes(self) -> int:
        """Bytes of the files the patch touches (all of them, here)."""
        return sum(len(data) for data in self.files.values())


def _code_line(i: int) -> str:
    """Line `i` of a generated source file: repeated structure, distinct content.

    Blocks of eight lines (an entry of a generated table), about 38 bytes a
    line with its newline, with repeated lines (`  {`, `  },`) as real
    generated code has.
    """
    k = i // 8
    return (
        "  {",
        f'    "id": {k}, "key": "k{k * 7919 % 1000003:07d}",',
        f'    "name": "item-{k * 7919 % 1000003:07d}", "label": "Item {k}",',
        f'    "kind": "{("alpha", "beta", "gamma", "delta")[k % 4]}", "group": "g{k % 17}",',
        f'    "value": {k * 2654435761 % 1000000 / 1000:.3f}, "weight": {k % 10 / 10},',
        f'    "tags": ["t{k % 97}", "u{k % 89}", "v{k % 83}"],',
        f'    "parent": {max(k - 1, 0)}, "children": [],',
        "  },",
    )[i % 8]


def generated_lines(count: int) -> list[str]:
    """The first `count` lines of the generated file."""
    return [_code_line(i) for i in range(count)]


def _text(lines: list[str]) -> bytes:
    return "".join(line + "\n" for line in lines).encode("utf-8")


def small() -> Case:
    """A 3-line change in a 120-line file: the everyday call."""
    lines = generated_lines(120)
    chunk = ["@@"] + [" " + lines[i] for i in range(56, 59)]
    chunk += ["-" + lines[i] for i in range(59, 62)]
    chunk += ["+" + lines[i].replace("item-", "renamed-") for i in range(59, 62)]
    chunk += [" " + lines[i] for i in range(62, 65)]
    return Case("small", {"table.js": _text(lines)}, _patch("table.js", chunk))


def many_chunks(line_count: int = 200_000, chunk_count: int = 2_000) -> Case:
    """A `line_count`-line file and a patch of `chunk_count` chunks spread evenly.

    Each chunk has three lines of context on each side and replaces one line
    by two, as a model writes them (`@@`, then ` `, `-`, `+` lines).
    """
    lines = generated_lines(line_count)
    step = line_count // chunk_count
    body: list[str] = []
    for n in range(chunk_count):
        at = n * step + step // 2  # in the middle of its stretch
        body.append("@@")
        body += [" " + lines[i] for i in range(at - 3, at)]
        body.append("-" + lines[at])
        body.append("+" + lines[at] + f"  // edited by chunk {n}")
        body.append(f'+    "chunk": {n},')
        body += [" " + lines[i] for i in range(at + 1, at + 4)]
    return Case(f"{line_count} lines, {chunk_count} chunks", {"table.js": _text(lines)}, _patch("table.js", body))


def not_found(line_count: int = 200_000) -> Case:
    """A chunk that matches nowhere in the file: the failure path, every tier tried."""
    lines = generated_lines(line_count)
    at = line_count // 2 + 2
    body = ["@@"] + [" " + lines[i] for i in range(at - 3, at)]
    body += ['-    "name": "item-that-is-not-there",', '+    "name": "renamed",']
    body += [" " + lines[i] for i in range(at + 1, at + 4)]
    return Case("chunk found nowhere", {"table.js": _text(lines)}, _patch("table.js", body))


def new_words(line_count: int = 200_000) -> Case:
    """A chunk written from memory: none of its lines, nor its first line's words, in the file."""
    lines = generated_lines(line_count)
    body = ["@@", " def totally_missing_function(argument_one, argument_two):",
            "-    return argument_one + argument_two", "+    return argument_two + argument_one"]
    return Case("chunk of words found nowhere", {"table.js": _text(lines)}, _patch("table.js", body))


def long_lines(total: int = 5_000_000) -> Case:
    """A file of three very long lines; the middle one replaced, the others as context."""
    size = total // 3
    lines = [_long_line(n, size) for n in range(3)]
    body = ["@@", " " + lines[0], "-" + lines[1], "+" + lines[1][::-1], " " + lines[2]]
    return Case("3 long lines (5 MB)", {"long.txt": _text(lines)}, _patch("long.txt", body))


def one_huge_line(size: int = 5_000_000) -> Case:
    """One 5 MB line replaced (a minified bundle), between two short lines."""
    line = _long_line(7, size)
    lines = ["// bundle", line, "// end"]
    body = ["@@", " // bundle", "-" + line, "+" + line.replace("k", "K"), " // end"]
    return Case("one 5 MB line replaced", {"bundle.js": _text(lines)}, _patch("bundle.js", body))


def _long_line(seed: int, size: int) -> str:
    words = [f"k{(seed * 1000003 + i * 7919) % 999983:06d}={i}," for i in range(size // 10 + 1)]
    return "".join(words)[:size]


def many_files(count: int = 500) -> Case:
    """A patch adding `count` files of 20 lines each, in 25 folders."""
    body_lines: list[str] = []
    for n in range(count):
        body_lines.append(f"*** Add File: pkg{n % 25:02d}/module_{n:04d}.py")
        body_lines += ["+" + line for line in generated_lines(20 + n % 3)]
    text = "*** Begin Patch\n" + "\n".join(body_lines) + "\n*** End Patch\n"
    return Case(f"{count} files added", {}, text)


def updated_files(count: int) -> Case:
    """A patch changing one line in each of `count` files of 20 lines, ten files a folder
    (`src/pkgNNN/`): the fixed costs of a file (resolving its path, reading, checking and
    replacing it), not those of a large edit. Text files: no syntax check runs."""
    files: dict[str, bytes] = {}
    parts = ["*** Begin Patch"]
    for n in range(count):
        path = f"src/pkg{n // 10:03d}/module_{n:04d}.txt"
        lines = [f"line {i} of file {n}" for i in range(20)]
        files[path] = ("\n".join(lines) + "\n").encode()
        parts += [f"*** Update File: {path}", "@@", " " + lines[9], "-" + lines[10], "+" + lines[10].upper(),
                  " " + lines[11]]
    parts.append("*** End Patch")
    return Case(f"{count} files updated, one line each", files, "\n".join(parts) + "\n")


def big_patch(target: int = 1_000_000) -> str:
    """About `target` bytes of patch: updates with chunks and added files, in turn."""
    parts = ["*** Begin Patch"]
    lines = generated_lines(4000)
    n = 0
    size = 0
    while size < target:
        if n % 4 == 3:
            part = [f"*** Add File: new/file_{n}.js"] + ["+" + line for line in lines[:200]]
        else:
            part = [f"*** Update File: src/file_{n}.js"]
            for c in range(20):
                at = 10 + c * 40
                part.append(f"@@ {lines[at - 5].strip()}" if c % 2 else "@@")
                part += [" " + lines[i] for i in range(at - 3, at)]
                part += ["-" + lines[at], "+" + lines[at].upper()]
                part += [" " + lines[i] for i in range(at + 1, at + 4)]
        parts += part
        size += sum(len(p) + 1 for p in part)
        n += 1
    parts.append("*** End Patch")
    return "\n".join(parts) + "\n"


def _patch(path: str, chunk_lines: list[str]) -> str:
    return "\n".join(["*** Begin Patch", f"*** Update File: {path}", *chunk_lines, "*** End Patch"]) + "\n"


# ---------------------------------------------------------------- the other formats (issue 24)


@dataclass(frozen=True)
class Replacement:
    """A file and replacements of its text, in order: str_replace edits and SEARCH/REPLACE
    blocks are both made of these (`old` occurs exactly once when it applies)."""

    name: str
    path: str
    data: bytes
    pairs: tuple[tuple[str, str], ...]

    def search_replace(self) -> str:
        """The pairs as a model's reply of SEARCH/REPLACE blocks."""
        return "".join(
            f"{self.path}\n<<<<<<< SEARCH\n{old}=======\n{new}>>>>>>> REPLACE\n" for old, new in self.pairs
        )


def one_replacement(line_count: int) -> Replacement:
    """One three-line replacement in the middle of a `line_count`-line file."""
    lines = generated_lines(line_count)
    at = line_count // 2 + 2  # a `"name": "item-..."` line: unique
    old = "".join(line + "\n" for line in lines[at - 1 : at + 2])
    new = old.replace("item-", "renamed-")
    return Replacement(f"1 str_replace, {line_count} lines", "table.js", _text(lines), ((old, new),))


def many_replacements(line_count: int = 100_000, count: int = 1_000) -> Replacement:
    """`count` two-line replacements spread evenly over a `line_count`-line file, in order."""
    lines = generated_lines(line_count)
    step = line_count // count
    pairs = []
    for n in range(count):
        at = n * step // 8 * 8 + 2  # a `"name"` line, unique
        old = lines[at] + "\n" + lines[at + 1] + "\n"
        pairs.append((old, old.replace("item-", f"edited-{n}-")))
    return Replacement(f"{count} SEARCH/REPLACE blocks, {line_count} lines", "table.js", _text(lines), tuple(pairs))


def crlf(case: Replacement) -> Replacement:
    """`case` in a file whose line breaks are CRLF, its replacements written with LF (as
    models write them: the edits keep the file's breaks)."""
    return Replacement(f"{case.name}, CRLF", case.path, case.data.replace(b"\n", b"\r\n"), case.pairs)


def trailing_spaces(line_count: int) -> tuple[Replacement, Replacement]:
    """The same replacement in the same file, whose lines end with two spaces: once with the
    spaces (found exactly), once without (the model's copy: found by the whitespace tier)."""
    lines = [line + "  " for line in generated_lines(line_count)]
    at = line_count // 2 + 2
    exact = "".join(line + "\n" for line in lines[at - 1 : at + 2])
    loose = "".join(line.rstrip() + "\n" for line in lines[at - 1 : at + 2])
    data = _text(lines)
    return (
        Replacement(f"exact match, {line_count} lines", "table.js", data, ((exact, exact.replace("item-", "x-")),)),
        Replacement(f"whitespace-tolerant match, {line_count} lines", "table.js", data,
                    ((loose, loose.replace("item-", "x-")),)),
    )


def unified_diff(line_count: int, hunk_count: int) -> tuple[str, bytes, str]:
    """(path, file, diff): `hunk_count` hunks spread over a `line_count`-line file, as
    `diff -u` writes them (three lines of context, one line replaced by two)."""
    lines = generated_lines(line_count)
    step = line_count // hunk_count
    body = ["--- a/table.js", "+++ b/table.js"]
    shift = 0
    for n in range(hunk_count):
        at = n * step + step // 2
        body.append(f"@@ -{at - 2},7 +{at - 2 + shift},8 @@")
        body += [" " + lines[i] for i in range(at - 3, at)]
        body += ["-" + lines[at], "+" + lines[at] + f" // hunk {n}", f'+    "hunk": {n},']
        body += [" " + lines[i] for i in range(at + 1, at + 4)]
        shift += 1
    return "table.js", _text(lines), "\n".join(body) + "\n"
