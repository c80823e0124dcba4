"""Omission placeholders: lines a model writes instead of code it left out (pure).

    (rest of methods ...)
    # ... [original content here] ...
    // ... existing code ...
    # rest of the code unchanged

Written into a file, such a line replaces the code it stands for: one real
report lost eight functions that way. Gemini CLI refuses a `new_string` or a
written file holding one (its `omissionPlaceholderDetector`: a line that is
only `rest of ...`, `unchanged code ...` and the like, in a comment or in
parentheses); Aider's prompts forbid "... rest of code ...". The rule here,
on one line at a time:

1. the line is a comment or a note, nothing else: after an optional comment
   leader (`//`, `#`, `--`, `/*`, `<!--`, `;`, `%`, `*`) and the brackets around
   it, no code is left (no `=`, `;`, quote or brace inside);
2. and its words, ellipses (`...`, `…`) and brackets set aside, are a placeholder
   phrase: with an ellipsis, "rest of ..." or a word like existing,
   original, unchanged, remaining, previous, other, omitted next to a noun like
   code, content, methods, implementation (`other options ...` is not one);
   without, only "rest of the code unchanged" and "all other methods remain
   the same" and their kin.

Code that holds such text in a string, or a comment after code on its line,
is not a placeholder.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_LEADERS: Final = ("<!--", "{/*", "/*", "//", "#", "--", ";", "%", "*")
_TRAILERS: Final = ("*/}", "-->", "*/")
_BRACKETS: Final = ("()", "[]", "{}", "<>")
_CODE: Final = re.compile(r"""[=;"'`{}]""")
_ELLIPSIS: Final = re.compile(r"\.{3,}|…")
_NOT_WORDS: Final = re.compile(r"[^\w\s]+")
_MOST_WORDS: Final = 8
_NOUNS: Final = (
    r"(?:code|content|contents|methods?|functions?|implementation|lines?|file|class|logic|body"
    r"|imports?|fields?|properties|tests?|components?|styles?|config|sections?|cases?|handlers?)"
)
_KEYWORDS: Final = r"(?:existing|original|unchanged|remaining|previous|other|omitted|same|unmodified|elided)"
_WITH_ELLIPSIS: Final = (
    re.compile(r"(?:the )?(?:rest|remainder) of\b.*"),
    re.compile(rf"(?:\w+ ){{0,2}}{_KEYWORDS}(?: \w+){{0,2}} {_NOUNS}(?: \w+){{0,2}}"),
    re.compile(rf"(?:\w+ ){{0,3}}{_NOUNS} (?:omitted|unchanged|elided|skipped)(?: \w+)?"),
)
_WITHOUT_ELLIPSIS: Final = (
    re.compile(
        rf"(?:the )?(?:rest|remainder) of (?:the )?(?:\w+ )?{_NOUNS}"
        r"(?: (?:is|are|remains?|stays?|kept))? (?:unchanged|the same|as before|as is)"
    ),
    re.compile(
        rf"(?:all )?(?:other|existing|remaining) (?:\w+ )?{_NOUNS}"
        r"(?: (?:is|are|remains?|stays?|kept))? (?:unchanged|the same|as before|as is)"
    ),
)


def omission_placeholders(text: str) -> list[str]:
    """The lines of `text` that are omission placeholders (see the module), stripped, in order."""
    return [line.strip() for line in text.replace("\r\n", "\n").split("\n") if is_placeholder(line)]


def introduced_placeholders(new: str, old: str) -> list[str]:
    """The placeholder lines of `new` that `old` does not hold (compared stripped)."""
    before = set(omission_placeholders(old))
    return [line for line in omission_placeholders(new) if line not in before]


def is_placeholder(line: str) -> bool:
    """Whether `line` stands for code left out (see the module)."""
    body = _note(line)
    if body is None:
        return False
    words = _NOT_WORDS.sub(" ", _ELLIPSIS.sub(" ", body.lower())).split()
    if not words or len(words) > _MOST_WORDS:
        return False
    phrase = " ".join(words)
    patterns = _WITH_ELLIPSIS if _ELLIPSIS.search(body) else _WITHOUT_ELLIPSIS
    return any(p.fullmatch(phrase) for p in patterns)


def _note(line: str) -> str | None:
    """The text of `line` once its comment leader and brackets are removed; None when
    code is left (the line is not a note alone)."""
    body = line.strip()
    leader = next((lead for lead in _LEADERS if body.startswith(lead)), "")
    body = body[len(leader) :]
    if leader:
        body = next((body.removesuffix(t) for t in _TRAILERS if body.endswith(t)), body)
    body = body.strip()
    while len(body) >= 2 and body[0] + body[-1] in _BRACKETS:
        body = body[1:-1].strip()
    inner = re.sub(r"[][()]", " ", body)  # `... [original content here] ...`, `// ... (keep existing code) ...`
    return None if _CODE.search(inner) else inner
