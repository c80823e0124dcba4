"""Drafts + the old file → drafts the applier will find exactly where they belong.

Both appliers (this one and the reference) search each chunk from the end of
the previous one, after its `@@` line if any, and take the first match; the
exact tier is tried over the whole range first. A draft's lines are in the
old file at `start`, so its place is certain when that search finds nothing
earlier and no later place, before the next draft, fits it too (the default
policy refuses a chunk that fits in more than one way). For each draft, in order:

- `*** End of File` when it reaches the end of the old file (then only the
  last lines are tried: certain);
- an `@@` line with the nearest enclosing definition (`_definitions`) when that line
  lies between the previous chunk and this one, searching it from there finds
  exactly it, and searching the chunk after it finds exactly the chunk;
- otherwise, if the place is still not certain, one more line of context
  above, and again; at the top of its search, one more below (a draft that
  reaches the next one becomes one chunk with it).

The searches are the applier's own (`_seek.LineIndex`), so what is checked
here is what happens when the patch is applied.
"""

from __future__ import annotations

from dataclasses import replace

from ..format import WHITESPACE
from ._drafts import Draft
from ._definitions import enclosing_definition, indentation
from ..apply import LineIndex, TextFile


def place(old: TextFile, drafts: list[Draft], *, hints: bool = True) -> list[Draft]:
    """`drafts` (in file order, not overlapping) made certain to land where they start.

    With a byte-order mark, the first line is kept out of chunks and hints
    when possible: the reference sees the BOM as part of that line's text.
    """
    index = LineIndex(old.lines)
    placed: list[Draft] = []
    starts: list[int] = []  # where the search for each placed draft starts
    following = 0  # drafts[following:] are still to place
    draft: Draft | None = None
    while draft is not None or following < len(drafts):
        if draft is None:
            draft, following = drafts[following], following + 1
        line_index = placed[-1].end if placed else 0
        while placed and draft.start == line_index and _needs_line_above(draft, old):
            # The line it needs is the previous chunk's: it joins that chunk.
            previous = placed.pop()
            line_index = starts.pop()
            draft = Draft(previous.start, previous.lines + draft.lines)
        low = 1 if old.bom and line_index == 0 else line_index
        draft = _without_context_below(draft, low)
        draft = _with_an_old_line(draft, old, low)
        draft = _with_a_last_line(draft, old, line_index)
        bound = drafts[following].start if following < len(drafts) else len(old.lines)
        certain = _certain(index, old, draft, line_index, low, bound, hints=hints)
        if certain is None:  # it needs the lines of the next draft: one chunk with it
            draft, following = Draft(draft.start, draft.lines + drafts[following].lines), following + 1
            continue
        placed.append(certain)
        starts.append(line_index)
        draft = None
    return placed


def _is_bare_insertion(draft: Draft, old: TextFile) -> bool:
    """Only `+` lines, into a file that has lines."""
    return bool(old.lines) and not any(line.is_old for line in draft.lines)


def _removes_the_last_line(draft: Draft, old: TextFile) -> bool:
    """Removes the end of a file without final newline and adds nothing: see `_with_a_last_line`."""
    ends_old = draft.end == len(old.lines) and not old.has_final_newline
    return ends_old and draft.start > 0 and not any(line.is_new for line in draft.lines)


def _needs_line_above(draft: Draft, old: TextFile) -> bool:
    return _is_bare_insertion(draft, old) or _removes_the_last_line(draft, old)


def _without_context_below(draft: Draft, low: int) -> Draft:
    """Drop leading context lines before index `low` (only ever the BOM line)."""
    while draft.start < low and len(draft.lines) > 1 and draft.lines[0].prefix == " ":
        draft = replace(draft, start=draft.start + 1, lines=draft.lines[1:])
    return draft


def _with_an_old_line(draft: Draft, old: TextFile, low: int) -> Draft:
    """A pure insertion into a non-empty file gets one context line: above, else below.

    Without one, the reference appends it at the end of the file and an `@@`
    line would not help (it ignores it for pure insertions). The line below
    is never another chunk's: changes that close are one draft.
    """
    if not _is_bare_insertion(draft, old):
        return draft
    if draft.start > low or draft.start == len(old.lines):
        return draft.with_context_above(old)
    return draft.with_context_below(old)


def _with_a_last_line(draft: Draft, old: TextFile, line_index: int) -> Draft:
    """A draft removing the end of a file without final newline gets the line above.

    That line becomes the last one and needs its ending (see `_markers`): the
    default policy would leave it without, as the old last line was.
    """
    if _removes_the_last_line(draft, old) and draft.start > line_index:
        return draft.with_context_above(old)
    return draft


def _certain(
    index: LineIndex, old: TextFile, draft: Draft, line_index: int, low: int, bound: int, *, hints: bool
) -> Draft | None:
    """`draft` with the context (above, else below) and `@@` line that make its place certain.

    Certain: the search from `line_index` finds it first, and no other place
    of it ends by `bound` (where the next draft starts), so that it fits in
    one way only. None when it needs lines from `bound` on (the next draft's).
    """
    while True:
        eof = draft.end == len(old.lines)
        hint = _hint(index, old, draft, line_index, low, eof=eof) if hints else None
        contexts = () if hint is None else (hint,)
        first = hint is not None or _found_at(index, draft, line_index) == draft.start
        if eof or (first and _alone(index, draft, bound)):
            return replace(draft, contexts=contexts, is_end_of_file=eof)
        if draft.start <= low:
            low = line_index  # the first line after all (its BOM is unavoidable)
        if draft.start > low:
            draft = draft.with_context_above(old)
        elif draft.end < bound:
            draft = draft.with_context_below(old)
        else:
            return None


def _alone(index: LineIndex, draft: Draft, bound: int) -> bool:
    """Whether no other place of the draft's old lines, below its own, ends by `bound`."""
    further = _found_at(index, draft, draft.start + 1)
    return further is None or further + len(draft.old_texts) > bound


def _found_at(index: LineIndex, draft: Draft, start: int, *, eof: bool = False) -> int | None:
    match = index.seek(draft.old_texts, start, eof=eof)
    return None if match is None else match.index


def _hint(
    index: LineIndex, old: TextFile, draft: Draft, line_index: int, low: int, *, eof: bool
) -> str | None:
    """The enclosing definition as an `@@` line, if it makes the draft's place certain."""
    texts = [line.text for line in draft.lines if line.is_old and line.text.strip()]
    if not texts:
        return None
    inner = min(map(indentation, texts))
    found = enclosing_definition(old.lines, draft.start, low, inner)
    if found is None:
        return None
    line = old.lines[found]
    for text in dict.fromkeys((line.strip(WHITESPACE), line.rstrip(WHITESPACE))):
        match = index.seek([text], line_index)
        if match is not None and match.index == found:
            if _found_at(index, draft, found + 1, eof=eof) == draft.start:
                return text
    return None
