"""Measurements that need a fresh interpreter; `run.py` starts this script once per sample.

    probe.py import                 seconds taken by `import apply_patch`
    probe.py modules                the modules the library and the executable load
    probe.py memory ROOT PATCH      peak memory of `apply_patch()` on ROOT (RSS and traced)
    probe.py view ROOT PATH FIRST LAST   peak memory of TextEditor's `view` of lines FIRST-LAST
    probe.py edit-memory KIND ROOT PATH INPUT
                                    peak RSS growth of one format on ROOT: KIND `edits` (INPUT:
                                    JSON [old, new] pairs for PATH), `SEARCH/REPLACE` (a reply),
                                    `unified diff`, or `plain` (the pairs by str.count + str.replace)

Each prints one JSON object on stdout.
"""

import json
import sys
import time


def _import_time() -> dict[str, float]:
    start = time.perf_counter()
    import apply_patch  # noqa: F401  (the measured statement)

    return {"seconds": time.perf_counter() - start}


def _modules() -> dict[str, list[str]]:
    """Top-level packages loaded by `import apply_patch` and by the executable's import graph."""
    before = set(sys.modules)
    import apply_patch.cli._main  # noqa: F401  (what the console script imports)

    return {"loaded": sorted({name.split(".")[0] for name in set(sys.modules) - before})}


def _reset_peak() -> float:
    """Collect garbage and reset the peak RSS (Linux's clear_refs 5, where it exists); the RSS
    now, in bytes, from which a measured call's peak growth is counted."""
    import gc

    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
            clear.write("5")
    except OSError:
        pass
    return _status_kb("VmRSS")


def _status_kb(field: str) -> float:
    """A field of /proc/self/status in bytes (Linux), e.g. VmRSS (resident now), VmHWM (peak)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return float(line.split()[1]) * 1024
    raise LookupError(field)


def _memory(root: str, patch_file: str, traced: bool) -> dict[str, float]:
    """Peak RSS during `apply_patch()` above the RSS just before it, and the traced peak.

    The baseline is the interpreter with the package imported and the patch
    text read; the peak RSS mark is reset first where Linux allows it.
    """
    import tracemalloc

    from apply_patch import PatchError, apply_patch

    with open(patch_file, encoding="utf-8") as file:
        patch = file.read()
    base = _reset_peak()
    if traced:
        tracemalloc.start()
    try:
        apply_patch(patch, root)
    except PatchError:
        pass
    peak = _status_kb("VmHWM")
    traced_peak = tracemalloc.get_traced_memory()[1] if traced else 0
    return {"base_rss": base, "rss_growth": peak - base, "traced": traced_peak}


def _view(root: str, path: str, first: int, last: int) -> dict[str, object]:
    """Peak RSS during a `view` of lines `first`-`last` above the RSS just before it (as `_memory`)."""
    from apply_patch.anthropic import TextEditor

    editor = TextEditor(root)
    base = _reset_peak()
    started = time.perf_counter()
    answer = editor.run({"command": "view", "path": path, "view_range": [first, last]})
    seconds = time.perf_counter() - started
    peak = _status_kb("VmHWM")
    return {"rss_growth": peak - base, "seconds": seconds, "answer": answer["content"][:60]}


def _edit_memory(kind: str, root: str, path: str, source: str) -> dict[str, float]:
    """Peak RSS during one format's public call above the RSS just before it."""
    import os

    from apply_patch.edits import StrReplace, apply_edits, apply_search_replace, apply_unified_diff

    with open(source, encoding="utf-8") as file:
        text = file.read()
    pairs = json.loads(text) if kind in ("edits", "plain") else []
    base = _reset_peak()
    if kind == "edits":
        apply_edits([StrReplace(path, old, new) for old, new in pairs], root)
    elif kind == "SEARCH/REPLACE":
        apply_search_replace(text, root)
    elif kind == "unified diff":
        apply_unified_diff(text, root)
    else:
        name = os.path.join(root, path)
        with open(name, "rb") as file:
            content = file.read().decode("utf-8")
        for old, new in pairs:
            assert content.count(old) == 1
            content = content.replace(old, new, 1)
        with open(name, "wb") as file:
            file.write(content.encode("utf-8"))
    return {"rss_growth": _status_kb("VmHWM") - base}


def main(argv: list[str]) -> None:
    if argv[0] == "import":
        result: object = _import_time()
    elif argv[0] == "modules":
        result = _modules()
    elif argv[0] == "edit-memory":
        result = _edit_memory(*argv[1:5])
    elif argv[0] == "memory":
        result = _memory(argv[1], argv[2], traced=argv[3:] == ["traced"])
    elif argv[0] == "view":
        result = _view(argv[1], argv[2], int(argv[3]), int(argv[4]))
    else:
        raise SystemExit(f"unknown probe {argv[0]!r}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
