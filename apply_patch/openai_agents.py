"""An editor for the openai-agents SDK's `ApplyPatchTool`, applying each operation with this engine.

    from agents import Agent, ApplyPatchTool
    from apply_patch.openai_agents import Editor

    agent = Agent(name="coder", tools=[ApplyPatchTool(editor=Editor("project"))])

`Editor` has the methods of the SDK's `ApplyPatchEditor` protocol
(`create_file`, `update_file`, `delete_file`, each given an operation with
`.type`, `.path`, `.diff` and `.move_to`); the SDK is not needed to import it.
Each operation is applied on its own, all or nothing, under the root, with the
policies, diagnostics and safety rules of `apply_patch`. The result is
`completed` with a line saying what changed (and the warnings), or `failed`
with the diagnostic the model needs to fix the operation; nothing outside the
root is ever touched.

`hashline_tools(root)` gives the SDK's function tools of Hashline: `view_hashline`
(a file's lines as `LINE#ID:TEXT`) and `hashline_edit` (edits naming those anchors,
`apply_patch.edits.apply_hashline`); each answers with text, an error as its message.
"""

from __future__ import annotations

import os

from ._errors import PatchError
from .apply import MAX_CHARACTERS, apply_patch, bounded
from ._policy import DEFAULT, Policy, policy_of
from .format import Patch, read_operation
from .responses import failure_text, operation_texts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from agents import FunctionTool
    from agents.editor import ApplyPatchResult

    from .apply import RepairRequest
    from .format import StrReplace

__all__ = ["Editor", "hashline_tools"]


class Editor:
    """Applies the operations of the openai-agents `ApplyPatchTool` under `root`.

    `policy` and keyword `options` are those of `apply_patch` (a bad option
    raises `PolicyValueError` here, not at the first call). `max_characters`
    is the budget of one output given back to the model (default
    MAX_CHARACTERS, 50,000; None: none): a longer one is cut at a line end,
    with a note of how many lines were left out. `repair`: as for `apply_patch`,
    called when an operation's context is not found (docs/agents.md).

    The editor is a session: it remembers the content hash of each file it
    wrote, and refuses an edit to one changed since by anyone else, telling
    the model to read it again (`stale_check=False`: not checked).
    """

    def __init__(
        self,
        root: str | os.PathLike[str] = ".",
        *,
        policy: Policy = DEFAULT,
        max_characters: int | None = MAX_CHARACTERS,
        repair: Callable[[RepairRequest], StrReplace | None] | None = None,
        stale_check: bool = True,
        **options: str,
    ) -> None:
        from .apply import Seen

        self.root = os.fspath(root)
        self.policy = policy_of(policy, options)
        self.max_characters = max_characters
        self.repair = repair
        self.seen = Seen() if stale_check else None

    def create_file(self, operation: object) -> ApplyPatchResult:
        """Create `operation.path` from the `+` lines of `operation.diff`."""
        return self.apply(operation)

    def update_file(self, operation: object) -> ApplyPatchResult:
        """Apply the V4A diff `operation.diff` to `operation.path` (moving it to `move_to`, if set)."""
        return self.apply(operation)

    def delete_file(self, operation: object) -> ApplyPatchResult:
        """Delete `operation.path`."""
        return self.apply(operation)

    def apply(self, operation: object) -> ApplyPatchResult:
        """Apply one operation of any type; the SDK's result (`status`, `output`)."""
        try:
            patch = Patch((read_operation(operation),))
            if self.seen is None:
                result = apply_patch(patch, self.root, policy=self.policy, repair=self.repair)
            else:
                with self.seen.watching():
                    result = apply_patch(patch, self.root, policy=self.policy, repair=self.repair)
        except PatchError as error:
            return _result("failed", bounded(failure_text(error), self.max_characters))
        return _result("completed", bounded("\n".join(operation_texts(result, 1)), self.max_characters))


def _result(status: str, output: str) -> ApplyPatchResult:
    """The SDK's `ApplyPatchResult` (without the SDK: an object with the same fields)."""
    try:
        from agents.editor import ApplyPatchResult
    except ImportError:
        return _Result(status, output)  # type: ignore[return-value]
    return ApplyPatchResult(status=status, output=output)  # type: ignore[arg-type]


class _Result:
    """`status` and `output`, as the SDK's ApplyPatchResult has them."""

    __slots__ = ("status", "output")

    def __init__(self, status: str, output: str) -> None:
        self.status = status
        self.output = output

    def __repr__(self) -> str:
        return f"ApplyPatchResult(status={self.status!r}, output={self.output!r})"


def hashline_tools(
    root: str | os.PathLike[str],
    *,
    policy: Policy = DEFAULT,
    max_characters: int | None = MAX_CHARACTERS,
    **options: str,
) -> list[FunctionTool]:
    """The openai-agents SDK's `FunctionTool`s of Hashline under `root` (the SDK is imported
    here): `view_hashline` (`{"path"}`) and `hashline_edit` (`tools.HASHLINE_SCHEMA`).
    Each answers with text of at most `max_characters`: the rows, the summary of what was
    applied, or the error (and then nothing changed)."""
    import json

    from agents import FunctionTool

    from .edits import apply_hashline, view_hashline
    from .tools import HASHLINE_DESCRIPTION, HASHLINE_SCHEMA, HASHLINE_TOOL

    chosen = policy_of(policy, options)

    async def view(context: object, arguments: str) -> str:
        try:
            value = json.loads(arguments)
            path = value.get("path") if isinstance(value, dict) else None
            if not isinstance(path, str):
                return "Error: view_hashline takes 'path', the file relative to the root"
            return bounded("\n".join(view_hashline(path, root, policy=chosen)), max_characters)
        except PatchError as error:
            return bounded(f"Error: {error}", max_characters)
        except ValueError:
            return "Error: the arguments are not JSON"

    async def edit(context: object, arguments: str) -> str:
        try:
            return bounded(apply_hashline(arguments, root, policy=chosen).report(), max_characters)
        except PatchError as error:
            return bounded(f"Error: {error}", max_characters)

    view_schema = {
        "type": "object",
        "properties": {"path": {"type": "string", "description": "The file, relative to the root."}},
        "required": ["path"],
        "additionalProperties": False,
    }
    return [
        FunctionTool(
            name="view_hashline",
            description="Show a file's lines as LINE#ID:TEXT: LINE#ID is the anchor hashline_edit takes.",
            params_json_schema=view_schema,
            on_invoke_tool=view,
        ),
        FunctionTool(
            name=HASHLINE_TOOL,
            description=HASHLINE_DESCRIPTION,
            params_json_schema=HASHLINE_SCHEMA,
            on_invoke_tool=edit,
            strict_json_schema=False,
        ),
    ]
