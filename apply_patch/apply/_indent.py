"""Added lines re-indented as the file is, after a match that ignored leading whitespace (pure).

A model often sends a block one level too deep or too shallow, or with spaces
where the file has tabs. When its expected lines matched only once leading
whitespace was ignored, the lines it adds are written with the indentation
the file has where they land, as Aider and Gemini CLI do:

1. if every matched line's indentation in the file is the model's with one
   same prefix added (or removed), the added lines get (or lose) that prefix;
2. otherwise indentation is counted in levels, each side in its own unit (its
   character, tab or space, and the width of its usual step): if every matched
   line lies the same number of levels deeper (or shallower) in the file, each
   added line moves by that many levels and is written in the file's unit.

Anything else (a difference that is not the same on every line, an added line
that cannot be moved so) is refused by the caller: writing the lines as sent
would leave the file wrong while reporting success.
"""

from __future__ import annotations

from collections import Counter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

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
    shift = _prefix_shift(indents)
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
            return lambda line: line[len(prefix) :] if line.startswith(prefix) or not line.strip() else None
    return None


def _level_shift(
    indents: Sequence[tuple[str, str]],
    model_old: Sequence[str],
    model_new: Sequence[str],
    file_lines: Sequence[str],
) -> Callable[[str], str | None]:
    """Rule 2: the same number of levels on every line, each side in its own unit."""
    old_unit, new_unit = _unit(model_old), _unit(model_new)
    if old_unit != new_unit and _indented(model_old) and _indented(model_new):
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
        if not line.strip():
            return line
        level = _level(indentation(line), model_unit)
        if level is None or level + shift < 0:
            return None
        return char * (width * (level + shift)) + line.lstrip(_BLANKS)

    return moved


def _indented(lines: Sequence[str]) -> bool:
    """Whether some line of `lines` has indentation (so that its unit can be told)."""
    return any(line[:1] in (" ", "\t") and line.strip() for line in lines)


def _unit(lines: Sequence[str]) -> tuple[str, int] | None:
    """(character, width) of one level of the lines' indentation; None if it mixes tabs and spaces.

    The width is the most common step between the indentation of a line and
    the next deeper one (continuation lines aligned by hand are rarer).
    """
    widths: list[int] = []
    chars: set[str] = set()
    for line in lines:
        if line.strip():
            indent = indentation(line)
            chars.update(indent)
            widths.append(len(indent))
    if len(chars) > 1:
        return None
    steps = Counter(b - a for a, b in zip(widths, widths[1:]) if b > a)
    width = steps.most_common(1)[0][0] if steps else max(widths, default=0) or 1
    return (chars.pop() if chars else " "), width


def _level(indent: str, unit: tuple[str, int]) -> int | None:
    """How many levels of `unit` `indent` is (None if it is not a whole number of them)."""
    char, width = unit
    if indent.strip(char):
        return None
    levels, rest = divmod(len(indent), width)
    return None if rest else levels
