"""Ready-to-use tool definitions for LLM APIs, built from the grammar and one instructions text."""

from __future__ import annotations

from .format import grammar_text

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Any, Final

TOOL_NAME: Final = "apply_patch"

DESCRIPTION: Final = (
    "Edit files with a patch: add, delete, update and rename files in one call. "
    "The whole patch is applied or nothing is; on failure the error shows the closest "
    "lines of the file."
)

INSTRUCTIONS: Final = """\
Use the `apply_patch` tool to edit files. Its input is a patch in this format:

*** Begin Patch
[one or more file operations]
*** End Patch

Each file operation starts with a header:

*** Add File: <path>      creates a file; every line after it starts with + and is a line of the file
*** Delete File: <path>   removes a file; nothing follows it
*** Update File: <path>   changes a file; it may be followed by
*** Move to: <new path>   to rename the file as well

An update is made of chunks. Each chunk starts with a line `@@`, or `@@ ` followed by
a line of the file that comes before the change (usually its class or function
header), and then lists lines, each with a one-character prefix:

' ' (a space)  a context line, kept as it is
'-'            a line to remove
'+'            a line to add

Rules:
- Paths are relative to the project root, never absolute.
- Show 3 lines of context before and after each change (fewer at the start or the end
  of a file). When two changes are close, write one chunk: do not repeat context lines.
- Copy context and removed lines exactly as they are in the file, indentation included.
- When 3 lines of context do not make a place unique, name the enclosing class or
  function on the @@ line (`@@ class Handler:`); use a second @@ line to go deeper
  (`@@     def run(self):`).
- Chunks follow the order of the file.
- A chunk that changes the last lines of a file may end with the line `*** End of File`.
- The patch is applied whole or not at all. When a chunk is not found, nothing changes
  and the error shows the closest lines of the file: fix the chunk and send the whole
  patch again.

Example:

*** Begin Patch
*** Add File: docs/hello.md
+# Hello
+
+A new page.
*** Update File: src/app.py
*** Move to: src/main.py
@@ def greet(name):
-    return "Hi " + name
+    return f"Hello, {name}!"
@@ def main():
     args = parse_args()
-    greet(args.name)
+    print(greet(args.name))
*** Delete File: old/notes.txt
*** End Patch
"""

PATCH_SCHEMA: Final = {
    "type": "object",
    "properties": {
        "patch": {
            "type": "string",
            "description": "The whole patch, from '*** Begin Patch' to '*** End Patch'.",
        }
    },
    "required": ["patch"],
    "additionalProperties": False,
}

HASHLINE_TOOL: Final = "hashline_edit"

HASHLINE_DESCRIPTION: Final = (
    "Edit one file by its lines' anchors instead of copying its text. View the file first with "
    "hashline (`apply_patch view --hashline FILE`): each line is shown as LINE#ID:TEXT, and "
    "LINE#ID (e.g. \"5#PM\") is its anchor. Each edit has a loc and a content (a list of lines; "
    "null or [] deletes): {\"range\": {\"pos\": A, \"end\": B}} replaces lines A to B; "
    "{\"append\": A} inserts after line A, {\"prepend\": A} before it; \"append\" and "
    "\"prepend\" alone insert at the end and at the top. Every anchor names the file as viewed, "
    "before any edit of the call. An anchor whose line changed since is refused, showing the "
    "line as it is now with its new anchor: view again and resend. All edits apply or none."
)

_ANCHOR_SCHEMA: Final = {"type": "string", "pattern": "^[1-9][0-9]*#[ZPMQVRWSNKTXJBYH]{2}$"}
HASHLINE_SCHEMA: Final = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "The file, relative to the root."},
        "edits": {
            "type": "array",
            "minItems": 1,
            "description": "The edits, every anchor naming the file as viewed: all or none.",
            "items": {
                "type": "object",
                "properties": {
                    "loc": {
                        "anyOf": [
                            {"type": "string", "enum": ["append", "prepend"]},
                            {
                                "type": "object",
                                "properties": {"append": _ANCHOR_SCHEMA},
                                "required": ["append"],
                                "additionalProperties": False,
                            },
                            {
                                "type": "object",
                                "properties": {"prepend": _ANCHOR_SCHEMA},
                                "required": ["prepend"],
                                "additionalProperties": False,
                            },
                            {
                                "type": "object",
                                "properties": {
                                    "range": {
                                        "type": "object",
                                        "properties": {"pos": _ANCHOR_SCHEMA, "end": _ANCHOR_SCHEMA},
                                        "required": ["pos", "end"],
                                        "additionalProperties": False,
                                    }
                                },
                                "required": ["range"],
                                "additionalProperties": False,
                            },
                        ]
                    },
                    "content": {
                        "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}, {"type": "null"}],
                        "description": "The new lines, each without its line break (null or []: none).",
                    },
                },
                "required": ["loc", "content"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["path", "edits"],
    "additionalProperties": False,
}


def hashline_definitions() -> dict[str, Any]:
    """Tool definitions for the Hashline edit tool (`HASHLINE_TOOL`), whose calls
    `apply_patch.edits.apply_hashline` applies as they come (`{"path", "edits"}`):

    - `"function"`: a function tool in the Responses API's shape (not strict: the loc's
      shapes are alternatives, which strict mode does not take);
    - `"chat"`: the same in the Chat Completions shape;
    - `"anthropic"`: the same for Anthropic tool use (`input_schema`).
    """
    return {
        "function": {
            "type": "function",
            "name": HASHLINE_TOOL,
            "description": HASHLINE_DESCRIPTION,
            "parameters": HASHLINE_SCHEMA,
            "strict": False,
        },
        "chat": {
            "type": "function",
            "function": {"name": HASHLINE_TOOL, "description": HASHLINE_DESCRIPTION, "parameters": HASHLINE_SCHEMA},
        },
        "anthropic": {"name": HASHLINE_TOOL, "description": HASHLINE_DESCRIPTION, "input_schema": HASHLINE_SCHEMA},
    }


def tool_definitions() -> dict[str, Any]:
    """Tool definitions for the `apply_patch` tool, and the text that teaches the format.

    - `"custom"`: a free-form tool for the OpenAI Responses API, constrained by the
      project's Lark grammar (the model's output is the patch itself, with at
      least one file operation: exactly what can apply);
    - `"function"`: a JSON-schema function tool in the Responses API's shape
      (`name`, `parameters` at the top) with one string parameter, `patch`;
    - `"chat"`: the same function in the Chat Completions shape
      (`{"type": "function", "function": {...}}`);
    - `"anthropic"`: the same function for Anthropic tool use (`input_schema`);
    - `"responses"`: the Responses API's native tool, `{"type": "apply_patch"}`
      (the model sends `apply_patch_call` items: see `apply_patch.responses`);
    - `"instructions"`: the text a model needs to write correct patches;
    - `"text_editor"`: Anthropic's text-editor tool (`text_editor_20250728`), whose
      calls `apply_patch.anthropic.TextEditor` runs.

    The keys, in order: `custom`, `function`, `chat`, `anthropic`, `responses`,
    `instructions`, `text_editor`.
    """
    from .anthropic import tool_definition as text_editor
    description = f"{DESCRIPTION}\n\n{INSTRUCTIONS}"
    return {
        "custom": {
            "type": "custom",
            "name": TOOL_NAME,
            "description": description,
            "format": {"type": "grammar", "syntax": "lark", "definition": grammar_text()},
        },
        "function": {
            "type": "function",
            "name": TOOL_NAME,
            "description": description,
            "parameters": PATCH_SCHEMA,
            "strict": True,
        },
        "chat": {
            "type": "function",
            "function": {
                "name": TOOL_NAME,
                "description": description,
                "parameters": PATCH_SCHEMA,
                "strict": True,
            },
        },
        "anthropic": {
            "name": TOOL_NAME,
            "description": description,
            "input_schema": PATCH_SCHEMA,
        },
        "responses": {"type": "apply_patch"},
        "instructions": INSTRUCTIONS,
        "text_editor": text_editor(),
    }
