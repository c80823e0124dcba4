"""Added lines re-indented as the file is, after a match that ignored leading whitespace (pure).

A model often sends a block one level too deep or too shallow, or with spaces
where the file has tabs. When its expected lines matched only once leading
whitespace was ignored, the lines it adds are written with the indentation
the file has where they land, as Aider and Gemini CLI do:

1. if every matched line's indentation in the file is the model's with one
   same prefix added (or removed), the added lines get (or lose) that prefix;
   else, if every line of the new text is as deep, in the model's text, as a
   matched line, it takes that line's indentation in the file;
2. otherwise indentation is counted in levels, each side in its own unit (its
   character, tab or space, and the width of its usual step): if every matched
   line lies the same number of levels deeper (or shallower) in the file, each
   added line moves by that many levels and is written in the file's unit.

A whitespace-only added line has no level to show: it is written as sent, unless it
is in the other unit than the file's (a tab-indented file's whitespace sent as spaces)
and as deep as one of the model's levels, which it then moves to like a line with text.

Anything else (a difference that is not the same on every line, an added line
that cannot be moved so) is refused by the caller: writing the lines as sent
would leave the file wrong while reporting success.

When the old text was found exactly but the added lines are indented in the other
unit (tabs in a file indented with spaces, or the reverse), `in_file_unit` says so,
and writes them in the file's unit where the file uses one unit throughout and the
width is certain; the caller warns, naming the lines.
"""

from __future__ import annotations

from collections import Counter

from dataclasses import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

_BLANKS = " \t"


def indentation(line: str) -> str:
    """The leading spaces and tabs of `line`."""
    return line[: len(line) - len(line.lstrip(_BLANKS))]


def reindenter(
    pairs: Sequence[tuple[str, str]],
    model_old: Sequence[str],
    model_new: Sequence[str],
    file_lines: Sequence[str],
) -> Callable[[str], str | None] | None:
    """How to re-indent an added line, from the (model line, file line) pairs matched.

    Returns None when nothing is to change (every matched line is indented
    alike on both sides); otherwise a function giving an added line as the
    file would indent it, or None for a line that cannot be moved. Raises
    ValueError when the difference is not the same on every matched line.
    `model_old` and `model_new` are the lines the model expects and the lines
    it leaves (their usual step is the model's unit: refused if the two
    disagree, the model's own text then says nothing sure); `file_lines` the
    file's (the file's unit).
    """
    indents = [(indentation(m), indentation(f)) for m, f in pairs if m.strip() and f.strip()]
    if all(m == f for m, f in indents):
        return None
    shift = _prefix_shift(indents) or _matched_depths(indents, model_new)
    if shift is not None:
        return shift
    return _level_shift(indents, model_old, model_new, file_lines)


def _prefix_shift(indents: Sequence[tuple[str, str]]) -> Callable[[str], str | None] | None:
    """Rule 1: one prefix added to (or removed from) every model indentation, else None."""
    model, found = indents[0]
    if found.endswith(model):
        prefix = found[: len(found) - len(model)]
        if all(f == prefix + m for m, f in indents):
            return lambda line: prefix + line if line.strip() else line
    if model.endswith(found):
        prefix = model[: len(model) - len(found)]
        if all(m == prefix + f for m, f in indents):
            # (a whitespace-only line has no level to move: as sent, as every rule writes it)
            return lambda line: line if not line.strip() else line[len(prefix) :] if line.startswith(prefix) else None
    return None


def _matched_depths(
    indents: Sequence[tuple[str, str]], model_new: Sequence[str]
) -> Callable[[str], str | None] | None:
    """Rule 1b: every line of the new text as deep, in the model's text, as a matched line:
    each takes that line's indentation in the file. None unless each model indentation
    matched stands for one indentation of the file, and those that change start with one
    character, deeper ones for deeper ones (a line indented alike on both sides, text
    the model left as it is, says nothing of the others), and every indented new line
    has one of them (how wide a level is then never matters: the file's most common
    step may be the alignment of continuation lines, not a level)."""
    depths: dict[str, str] = {}
    for model, found in indents:
        if depths.setdefault(model, found) != found:
            return None
    changed = sorted(((m, f) for m, f in depths.items() if m != f), key=lambda item: _depth(item[0]))
    if len({model[:1] for model, _ in changed if model}) > 1 or any(
        _depth(a[1]) >= _depth(b[1]) for a, b in zip(changed, changed[1:])
    ):
        return None
    if not all(indentation(line) in depths for line in model_new if line.strip()):
        return None

    def moved(line: str) -> str:
        if line.strip():
            return depths[indentation(line)] + line.lstrip(_BLANKS)
        found = depths.get(line)
        return found if found is not None and found[:1] != line[:1] else line  # (as `_level_shift`)

    return moved


def _depth(indent: str) -> tuple[int, int]:
    """How deep `indent` is, comparably between indentations that start alike: its tabs,
    then the spaces after them (`\\t  ` is deeper than `\\t`, shallower than `\\t\\t`)."""
    tabs = len(indent) - len(indent.lstrip("\t"))
    return tabs, len(indent) - tabs


def _level_shift(
    indents: Sequence[tuple[str, str]],
    model_old: Sequence[str],
    model_new: Sequence[str],
    file_lines: Sequence[str],
) -> Callable[[str], str | None]:
    """Rule 2: the same number of levels on every line, each side in its own unit. An added
    line of tabs then spaces, in a model's unit of tabs, is as many levels as its tabs, its
    spaces kept after them (a line aligned under its call: "smart tabs", as `_unit` reads them)."""
    old_unit, new_unit = _read_unit(model_old), _read_unit(model_new)
    if old_unit != new_unit and _indented(model_old) and _indented(model_new) and not _agree(old_unit, new_unit):
        raise ValueError("its old and new lines are indented in different units")
    model_unit, file_unit = _unit([*model_old, *model_new]), _unit(file_lines)
    if model_unit is None or file_unit is None:
        raise ValueError("indentation mixes tabs and spaces")
    shifts: set[int | None] = set()
    for model, found in indents:
        file_level, model_level = _level(found, file_unit), _level(model, model_unit)
        shifts.add(None if file_level is None or model_level is None else file_level - model_level)
    if len(shifts) != 1 or None in shifts:
        raise ValueError("the indentation differs by different amounts on different lines")
    shift = shifts.pop()
    assert shift is not None
    char, width = file_unit

    def moved(line: str) -> str | None:
        if not line.strip():  # whitespace in the file's unit, or of no whole level: as sent
            level = _level(line, model_unit) if char != model_unit[0] else None
            return line if level is None or level + shift < 0 else char * (width * (level + shift))
        indent = indentation(line)
        level, aligned = _level(indent, model_unit), ""
        tabs = indent.rstrip(" ")
        if level is None and model_unit == ("\t", 1) and tabs and not tabs.strip("\t"):
            level, aligned = len(tabs), indent[len(tabs) :]  # tabs, then spaces: a level a tab, then alignment
        if level is None or level + shift < 0:
            return None
        return char * (width * (level + shift)) + aligned + line.lstrip(_BLANKS)

    return moved


def _agree(old: tuple[tuple[str, int], bool] | None, new: tuple[tuple[str, int], bool] | None) -> bool:
    """Whether the old and new lines' units (`_read_unit`) may be one: the same character,
    and the width of a side no step told (its lines only go shallower, or are all as deep)
    a multiple of the other's, or the reverse (eight, eight and four spaces beside steps of
    four); two widths steps told must be equal."""
    if old is None or new is None or old[0][0] != new[0][0]:
        return old == new
    (_, old_width), old_stepped = old
    (_, new_width), new_stepped = new
    if old_stepped and new_stepped:
        return old_width == new_width
    return old_width % new_width == 0 or new_width % old_width == 0


def _indented(lines: Sequence[str]) -> bool:
    """Whether some line of `lines` has indentation (so that its unit can be told)."""
    return any(line[:1] in (" ", "\t") and line.strip() for line in lines)


def _unit(lines: Sequence[str]) -> tuple[str, int] | None:
    """(character, width) of one level of the lines' indentation; None if it mixes tabs and
    spaces (`_read_unit`, whether a step between them told the width left out)."""
    read = _read_unit(lines)
    return None if read is None else read[0]


def _read_unit(lines: Sequence[str]) -> tuple[tuple[str, int], bool] | None:
    """(character, width) of one level of the lines' indentation, and whether a line deeper
    than the one before it told the width (else it is a tab, or the deepest line's spaces,
    which say nothing against another width); None if it mixes tabs and spaces.

    Tabs are the unit of lines that align with spaces after their tabs (`\\t    b)`,
    "smart tabs": as many levels as tabs), and of lines mostly of tabs whose other
    lines start with fewer spaces than a level of four (the text of a string or a
    docstring, aligned under the line above: no level). Spaces before a tab, or lines
    of four spaces or more beside lines of tabs, mix the two units.
    The width is the most common step between the indentation of a line and
    the next deeper one, of eight spaces at most (continuation lines aligned by hand
    are rarer, and a deeper step aligns). The lines
    of a block comment after its first (` * text`, ` */`) align under its `/*`,
    not at a level: they are left out, those of a comment the lines start inside too
    (a Markdown list's `* item` lines are not).
    """
    depths: list[tuple[str, int]] = []  # (what the line is indented with, how deep)
    in_comment = _opens_in_a_comment(lines)
    for line in lines:
        text = line.strip()
        if in_comment:
            in_comment = "*/" not in text
            continue
        in_comment = text.startswith("/*") and "*/" not in text[2:]
        if text:
            indent = indentation(line)
            tabs = len(indent) - len(indent.lstrip("\t"))
            if tabs and not indent[tabs:].strip(" "):
                depths.append(("\t", tabs))
            elif indent.strip(" "):
                return None  # a space before a tab
            else:
                depths.append((" " if indent else "", len(indent)))
    chars = {char for char, _ in depths if char}
    if len(chars) > 1:
        spaced = [depth for char, depth in depths if char == " "]
        if max(spaced) >= _LEVEL_OF_SPACES or len(spaced) * 2 >= len(depths) - depths.count(("", 0)):
            return None
        depths = [(char, depth) for char, depth in depths if char != " "]
        chars = {"\t"}
    widths = [depth for _, depth in depths]
    char = chars.pop() if chars else " "
    # A step deeper than `_WIDEST_LEVEL` spaces aligns a line under its call's parenthesis:
    # no level, however often a file takes it.
    widest = _WIDEST_LEVEL if char == " " else len(lines)
    steps = Counter(b - a for a, b in zip(widths, widths[1:]) if a < b <= a + widest)
    if not steps:  # no line deeper than the one before it: the deepest line is one level, of spaces
        return (char, 1 if char == "\t" else max(widths, default=0) or 1), False  # (a tab is a level)
    return (char, steps.most_common(1)[0][0]), True


def _opens_in_a_comment(lines: Sequence[str]) -> bool:
    """Whether `lines` (a window cut from a file) start inside a block comment: a comment's
    last line (` */`, ` * text */`) comes before any line that opens one (`/*`). (A `*/`
    elsewhere, after code or in a string such as `**/*.py`, says nothing.)"""
    for line in lines:
        text = line.strip()
        if text.startswith("/*"):
            return False
        if text.startswith("*") and text.endswith("*/"):
            return True
    return False


_LEVEL_OF_SPACES = 4  # fewer spaces at a line's start amid lines of tabs align, not indent
_WIDEST_LEVEL = 8  # the most spaces a level of indentation takes
_LEVEL_WIDTHS = (2, 4, 8)  # the spaces a level takes where lines are indented, not aligned


def _level(indent: str, unit: tuple[str, int]) -> int | None:
    """How many levels of `unit` `indent` is (None if it is not a whole number of them)."""
    char, width = unit
    if indent.strip(char):
        return None
    levels, rest = divmod(len(indent), width)
    return None if rest else levels


_UNIT_NAMES = {"\t": "tabs", " ": "spaces"}


@dataclass(frozen=True, slots=True)
class UnitFix:
    """Added lines indented in another unit than the file's lines around them.

    `lines` are the added lines as they are to be written, `changed` the indexes of those
    sent in the other unit, `sent` and `unit` the names of the two units ("tabs",
    "spaces"), `rewritten` whether `lines` hold them in the file's unit (else as sent),
    `uncertain` whether they were to be rewritten and could not be: the file is indented
    with tabs throughout there and the width of a level of the sent spaces cannot be told
    (written as sent, they would be wrong: the callers refuse).
    """

    lines: tuple[str, ...]
    changed: tuple[int, ...]
    sent: str
    unit: str
    rewritten: bool
    uncertain: bool = False


def indented_counts(lines: Iterable[str]) -> tuple[int, int]:
    """How many of `lines` start with a tab, and how many with a space followed by more
    whitespace (`SPACE_LED`), among those with text: what tells a stretch of a file's
    indentation unit (`in_file_unit`). A single space before the text aligns it (a doc
    comment's ` * ` under its `/**`): no level, no unit."""
    tabs = spaces = 0
    for line in lines:
        first = line[:1]
        if (first == "\t" or first == " ") and line.strip():
            if first == "\t":
                tabs += 1
            elif line.startswith(SPACE_LED):
                spaces += 1
    return tabs, spaces


SPACE_LED = ("  ", " \t")  # how a line indented with spaces starts (one space only aligns)


def in_file_unit(
    added: Sequence[str],
    window: Sequence[str],
    file_has: Callable[[str], bool],
    rewrite: bool,
    beside: Sequence[str] = (),
    counts: tuple[int, int] | None = None,
    replaced: Sequence[str] | None = None,
    stretch: Sequence[str] | None = None,
) -> UnitFix | None:
    """`added` (lines an edit adds, its old text found exactly) against the unit of `window`
    (the file's lines around them): None when every indented added line starts with the
    character most of `window`'s indented lines start with (or `window` tells none).

    Otherwise the lines that start with the other character are rewritten in the file's
    unit when `rewrite` (the policy's `indentation="match"`), the file uses one unit
    throughout (`file_has(prefix)`: whether a line of the file starts with `prefix`; no
    line starts with a tab, or none with a level of spaces) and the width is certain: a
    tab is the width of the file's own level; spaces become tabs by the step between the
    sent lines' indentations where it puts the shallowest at the level of one of the
    file's lines `beside` the change (the lines it replaces, else the nearest above and
    below: 4 and 6 spaces may be a level and two of alignment), or, for a single depth,
    by the one width of 2, 4 or 8 that puts it at the level of one of those lines (not
    when an added line is unindented: a new definition, whose body's level they do not
    say, unless the one right above the first sent line opens a block: that line is one
    level in, `_width_under_an_opener`; between a line that opens a block and the next
    line at its level, the level is the one inside the block, `_tab_levels`); none,
    several, or one the file's own lines start with: as sent, unless the file there is
    indented with tabs (`uncertain`: refused by the callers). Added lines in the unit of
    `window` but not of the lines `beside` them, all in the other, are written as sent,
    with the warning (`_against_beside`). Whitespace-only added lines count only where
    tabs become the spaces of a file with no tab. `counts` is
    `indented_counts(window)`, where the caller has it already. `replaced`: the file's
    lines that `added` replace line for line, where they do (one each, in order); tabs
    that keep each one's depth at another width of 2, 4 or 8 than the file's level, but
    not at that level, are `uncertain` too (`_depth_kept_elsewhere`).
    `stretch`: the file's lines around the change in one piece, the lines it replaces
    included, where `window` leaves them out: a level's width is read off the steps
    between lines side by side in the file (two lines that a left-out block separates
    make no step; where the lines it replaces mix tabs and spaces, `window` is read).
    """
    if counts is None:
        counts = indented_counts(window)
    tabs, spaces = counts
    if tabs == spaces:
        return _against_beside(added, beside)
    unit, other = ("\t", " ") if tabs > spaces else (" ", "\t")
    changed = tuple(i for i, line in enumerate(added) if line[:1] == other and line.strip())
    # Tabs on a whitespace-only line, in a file with none, are written in the file's unit
    # too (a tab is one of its levels); spaces on one in a tab-indented file are left as
    # sent (how many make a level is for lines with text to show).
    blank = tuple(i for i, line in enumerate(added) if line[:1] == other and not line.strip())
    # (`file_has` reads the whole file: asked only where added lines are in the other unit)
    spaces_only = bool(changed or blank) and rewrite and unit == " " and not file_has("\t")
    if not changed and not (blank and spaces_only):
        return _against_beside(added, beside)
    moved: list[str | None] = []
    uncertain = False
    if spaces_only:
        # (no tab in the file: its unindented lines, as the steps from them)
        file_step = (None if stretch is None else _unit(stretch)) or _unit(window)
        step = file_step[1] if file_step is not None and file_step[1] <= _WIDEST_LEVEL else 0
        width = step if step in _LEVEL_WIDTHS else 0
        # Refused rather than written at a width that puts them at no level of the lines
        # beside them: the file's most common step is then not its level (lines aligned by
        # hand under a call), and the tabs, as sent, would be the only ones in the file.
        # So is a step of 1, 3, 5, 6 or 7 spaces: lines aligned under each other (a tool's
        # output quoted in a document, a table), not indented.
        tabbed = [added[i] for i in changed]
        uncertain = not _tabs_at_a_level(tabbed, width, beside) if width else bool(step)
        if width and not uncertain and replaced is not None:
            uncertain = _depth_kept_elsewhere(tabbed, [replaced[i] for i in changed], width)
        changed = tuple(sorted((*changed, *blank)))
        sent = [added[i] for i in changed]
        moved = [_tabs_as_spaces(line, width) for line in sent] if width and not uncertain else [None]
    elif rewrite and unit == "\t":
        sent = [added[i] for i in changed]
        step = _sent_step(sent)
        # A step counts where it puts the shallowest sent line at a level of the lines beside:
        # depths 4 and 6 step by 2, yet may be a level of 4 and two spaces of alignment.
        # An unindented added line (a new definition) is what the sent lines' depth is
        # relative to, not the lines beside: their levels then say nothing of the width.
        alone = all(line[:1] in (" ", "\t") for line in added if line.strip())
        width = (step if _at_a_level(sent, step, beside) else 0) or (
            _width_by_levels(sent, beside) if alone else _width_under_an_opener(added, changed)
        )
        # (fewer spaces at a line's start in a tab-indented file align, not indent)
        if width and not file_has(" " * width):
            moved = [_spaces_as_tabs(line, width) for line in sent]
        elif not width and replaced is not None:
            moved = _as_deep_as_replaced(sent, [replaced[i] for i in changed])
        # Refused rather than written as sent: spaces of a level's size or more (fewer, in
        # a tab-indented file, align rather than indent) where no line of the file starts so.
        uncertain = not moved and any(line.startswith("    ") for line in sent) and not file_has("    ")
    rewritten = bool(moved) and None not in moved
    lines = list(added)
    if rewritten:
        for i, line in zip(changed, moved):
            assert line is not None
            lines[i] = line
    return UnitFix(tuple(lines), changed, _UNIT_NAMES[other], _UNIT_NAMES[unit], rewritten, uncertain)


def tabs_are_syntax(name: str) -> bool:
    """Whether a line's leading tab is syntax in the file `name`, not a unit of indentation
    to write in the file's: a Makefile's (`Makefile`, `makefile`, `GNUmakefile`, `*.mk`,
    `*.mak`), whose recipe lines `make` reads only after a tab ("missing separator")."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return base in _MAKEFILES or base.endswith((".mk", ".mak"))


_MAKEFILES = ("Makefile", "makefile", "GNUmakefile")


@dataclass(frozen=True, slots=True)
class ChangedRun:
    """Where a new text differs from an old one: old lines `old_start` to `old_end` (0-based,
    end excluded; none where lines are only inserted) give way to new lines `new_start` to
    `new_end` (none where lines are only removed)."""

    old_start: int
    old_end: int
    new_start: int
    new_end: int


def changed_runs(old: Sequence[str], new: Sequence[str]) -> list[ChangedRun]:
    """The runs where the lines `new` differ from the lines `old`, as `difflib` pairs them.
    Line for line, without a comparison, where both are as long and each line that differs
    is on its own side only (most edits: `difflib` would pair every other line with itself)."""
    if len(old) == len(new):
        olds, news = set(old), set(new)
        differ = [k for k, (a, b) in enumerate(zip(old, new)) if a != b]
        if all(old[k] not in news and new[k] not in olds for k in differ):
            runs: list[ChangedRun] = []
            for k in differ:  # consecutive lines that differ make one run
                first = runs.pop().old_start if runs and runs[-1].old_end == k else k
                runs.append(ChangedRun(first, k + 1, first, k + 1))
            return runs
    import difflib  # a new text in another unit than the file's only (start-up time)

    matcher = difflib.SequenceMatcher(None, list(old), list(new), autojunk=False)
    return [ChangedRun(a1, a2, b1, b2) for op, a1, a2, b1, b2 in matcher.get_opcodes() if op != "equal"]


def restores_replaced(rewritten: Sequence[str], replaced: Sequence[str], runs: Sequence[ChangedRun]) -> bool:
    """Whether writing the new lines in the file's unit (`rewritten`, line for line) would
    undo one of their changes whole: a run of them that replaces a run of the old lines
    (`replaced`, the file's bytes; `runs`, `changed_runs` of the two) would become that very
    run. Then the unit was the edit (a block re-indented on purpose), not a slip to correct:
    an edit does not replace lines with themselves. (A line re-sent in the other unit among
    lines it adds is no such run: a slip, corrected.)"""
    return any(
        run.old_end > run.old_start and run.new_end > run.new_start
        and list(rewritten[run.new_start : run.new_end]) == list(replaced[run.old_start : run.old_end])
        for run in runs
    )  # fmt: skip


def _against_beside(added: Sequence[str], beside: Sequence[str]) -> UnitFix | None:
    """Added lines in the unit of the file around them, but not of the lines `beside` them,
    all indented with the other (a script in a Go string, amid the Go code's tabs): written
    as sent, with the warning. None when those lines use both units, or none."""
    units = {line[:1] for line in beside if line[:1] in (" ", "\t") and line.strip()}
    if len(units) != 1:
        return None
    unit = units.pop()
    other = "\t" if unit == " " else " "
    changed = tuple(i for i, line in enumerate(added) if line[:1] == other and line.strip())
    if not changed:
        return None
    return UnitFix(tuple(added), changed, _UNIT_NAMES[other], _UNIT_NAMES[unit], False)


def _tabs_at_a_level(sent: Sequence[str], width: int, beside: Sequence[str]) -> bool:
    """Whether `width` spaces a tab put the shallowest of the tab-indented `sent` lines on
    the grid of one of the file's lines `beside` the change: whole levels of `width` from
    it, shallower or one deeper (a body under the line above), or, spaces after the tabs
    counted, as deep as one of them; True when there is nothing to compare."""
    tabs = [len(line) - len(line.lstrip("\t")) for line in sent if line.strip()]
    indents = [indentation(line) for line in beside if line.strip()]
    levels = {len(indent) for indent in indents if "\t" not in indent}
    if not tabs or not levels:
        return True
    depth = min(tabs) * width
    if any((level - depth) % width == 0 and depth <= level + width for level in levels):
        return True
    # A line aligned by spaces after its tabs (`\t * text` under a doc comment's `/**`)
    # is on the grid where, tabs and spaces, it is as deep as a line beside it.
    return any(_columns(line, width) in levels for line in sent if line.strip())


def _columns(line: str, tab: int) -> int:
    """How deep `line` is, in columns, its leading tabs `tab` columns each."""
    return len(indentation(_tabs_as_spaces(line, tab)))


def _keeps_depths(pairs: Sequence[tuple[str, str]], tab: int) -> bool:
    """Whether, tabs `tab` columns wide, every added line of `pairs` (added, replaced) is as
    deep as the line it replaces."""
    return all(_columns(new, tab) == _columns(old, tab) for new, old in pairs)


def _depth_kept_elsewhere(sent: Sequence[str], old: Sequence[str], width: int) -> bool:
    """Whether tabs `width` wide leave some tab-indented `sent` line off the depth of the
    space-indented `old` line it replaces, where tabs of another width (2, 4 or 8: an
    editor's, or a tab a level of a two-space file, as its model writes one) keep every
    one at its old line's depth: a tab's width, the file's level or the model's, is then
    what decides, and nothing says which."""
    pairs = [(new, line) for new, line in zip(sent, old) if line.strip() and "\t" not in indentation(line)]
    others = (shown for shown in _LEVEL_WIDTHS if shown != width)
    return bool(pairs) and not _keeps_depths(pairs, width) and any(_keeps_depths(pairs, shown) for shown in others)


def _as_deep_as_replaced(sent: Sequence[str], old: Sequence[str]) -> list[str | None]:
    """The space-indented `sent` lines each with the indentation of the tab-indented `old`
    line it replaces (`\t * ` for `   * `, a doc comment's star aligned after its tabs),
    where exactly one tab width of 2, 4 or 8 makes every one as deep as its old line
    (`_keeps_depths`); else none (no sure width)."""
    pairs = list(zip(sent, old))
    if not pairs or any(not line.strip() or "\t" not in indentation(line) for _, line in pairs):
        return []
    if [_keeps_depths(pairs, tab) for tab in _LEVEL_WIDTHS].count(True) != 1:
        return []
    return [indentation(line) + new.lstrip(" ") for new, line in pairs]


def _tabs_as_spaces(line: str, width: int) -> str:
    """`line` with each tab at the start of its indentation as `width` spaces."""
    text = line.lstrip("\t")
    return " " * (width * (len(line) - len(text))) + text


def _spaces_as_tabs(line: str, width: int) -> str | None:
    """`line`, indented with spaces only, with each `width` of them as a tab; None if its
    indentation is not whole levels of spaces."""
    indent = indentation(line)
    if indent.strip(" ") or len(indent) % width:
        return None
    return "\t" * (len(indent) // width) + line[len(indent) :]


def _sent_step(lines: Sequence[str]) -> int:
    """The width of a level in space-indented `lines`: the step that divides every step
    between their depths; 0 when they have a single depth (nothing to tell it by) or the
    step is one space (text aligned by hand, as right-aligned numbers in a string: no
    editor indents by one space)."""
    depths = sorted({len(indentation(line)) for line in lines})
    steps = [b - a for a, b in zip(depths, depths[1:])]
    if not steps:
        return 0
    width = min(steps)
    return width if width > 1 and all(depth % width == 0 for depth in depths) else 0


def _at_a_level(lines: Sequence[str], width: int, beside: Sequence[str]) -> bool:
    """Whether `width` (not 0) puts the shallowest of the space-indented `lines` at the level
    of one of the tab-indented lines `beside`."""
    levels = _tab_levels(beside)
    shallowest = min(len(indentation(line)) for line in lines)
    return bool(width) and shallowest % width == 0 and shallowest // width in levels


def _width_by_levels(lines: Sequence[str], beside: Sequence[str]) -> int:
    """The width (2, 4 or 8) of a level of the one depth of space-indented `lines` that puts
    it at the level of one of the tab-indented lines `beside`; 0 when none or several do."""
    depths = {len(indentation(line)) for line in lines}
    levels = _tab_levels(beside)
    if len(depths) != 1:
        return 0
    depth = depths.pop()
    fits = [width for width in _LEVEL_WIDTHS if depth % width == 0 and depth // width in levels]
    return fits[0] if len(fits) == 1 else 0


def _width_under_an_opener(added: Sequence[str], changed: Sequence[int]) -> int:
    """The width of a level of the space-indented `added` lines (`changed`: their indexes)
    where the first comes right after an added line with no indentation that opens a block
    (a new definition: ends with `{`, `(` or `[`), deeper than it: its depth is one level
    (2, 4 or 8) and every sent depth a whole number of them; else 0."""
    first = changed[0]
    above = [line for line in added[:first] if line.strip()]
    if not above or above[-1][:1] in (" ", "\t") or not _opens_a_block(above[-1]):
        return 0
    width = len(indentation(added[first]))
    depths = {len(indentation(added[i])) for i in changed}
    return width if width in _LEVEL_WIDTHS and all(depth % width == 0 for depth in depths) else 0


def _tab_levels(beside: Sequence[str]) -> set[int]:
    """The levels (in tabs) the lines `beside` a change offer to the lines it adds: those of
    its tab-indented lines, or, where they are a line that opens a block (ends with `{`,
    `(` or `[`, not a comment) and the next line at its level (the block's `}`), the
    level inside that block alone: lines inserted between the two go inside it."""
    texts = [line for line in beside if line.strip()]
    indents = [indentation(line) for line in texts]
    if len(texts) == 2 and indents[0] == indents[1] and not indents[0].strip("\t") and _opens_a_block(texts[0]):
        return {len(indents[0]) + 1}
    return {len(indent) for indent in indents if not indent.strip("\t")}


def _opens_a_block(line: str) -> bool:
    """Whether `line` opens a block: it ends with `{`, `(` or `[` and is no comment."""
    text = line.strip()
    return text.endswith(_OPENERS) and not text.startswith(_COMMENTS)


_OPENERS = ("{", "(", "[")  # how a line that opens a block ends (a colon ends prose too: "Doc:")
_COMMENTS = ("#", "//", "/*", "*", "--", ";")  # how a comment's line starts: its brace opens nothing
