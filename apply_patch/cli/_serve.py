"""`apply_patch serve`: a stdio MCP server with an `apply_patch` and a dry-run tool.

Both tools take the patch text and work inside the one root folder given on
the command line (paths leaving it are always refused). Success returns the
summary (and warnings); failure returns the actionable error as a tool error,
with nothing changed. Needs the MCP SDK: `pip install 'apply-patch[mcp]'`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ..apply._pipeline import apply_patch
from ._main import add_policy_options, policy_from
from .._errors import PatchError
from ..apply._policy import Policy
from ..apply._report import failure, warnings_text
from .._tools import DESCRIPTION, INSTRUCTIONS, TOOL_NAME

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

DRY_RUN_TOOL = "apply_patch_dry_run"
MISSING_SDK = "apply_patch serve needs the MCP SDK: pip install 'apply-patch[mcp]'"


def main(argv: Sequence[str]) -> int:
    """Run the server over stdio until the client closes it; return the exit code."""
    parser = argparse.ArgumentParser(
        prog="apply_patch serve",
        description="Serve the apply_patch tool over MCP (stdio), confined to one root folder.",
    )
    parser.add_argument("-C", "--root", default=".", metavar="DIR", help="the folder patches apply to")
    add_policy_options(parser)
    try:
        options = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    policy = policy_from(options)
    if policy.outside_root != "error":
        sys.stderr.write("apply_patch serve: the server never writes outside its root folder\n")
        return 2
    if not os.path.isdir(options.root):
        sys.stderr.write(f"apply_patch serve: the root folder {options.root} does not exist\n")
        return 2
    try:
        server = build_server(os.path.abspath(options.root), policy)
    except ImportError:
        sys.stderr.write(MISSING_SDK + "\n")
        return 2
    server.run("stdio")
    return 0


def build_server(root: str, policy: Policy) -> "MCPServer":
    """The MCP server with its two tools, applying patches under `root`."""
    from mcp.server.mcpserver import MCPServer

    server: MCPServer = MCPServer(name=TOOL_NAME, instructions=INSTRUCTIONS)

    @server.tool(name=TOOL_NAME, description=f"{DESCRIPTION}\n\n{INSTRUCTIONS}")
    def apply(patch: str) -> str:
        return _run(patch, root, policy, dry_run=False)

    @server.tool(
        name=DRY_RUN_TOOL,
        description="Check a patch without writing anything: what it would change, as a "
        "summary and a unified diff, or the error it would meet.",
    )
    def dry_run(patch: str) -> str:
        return _run(patch, root, policy, dry_run=True)

    return server


def _run(patch: str, root: str, policy: Policy, *, dry_run: bool) -> str:
    from mcp.server.mcpserver.exceptions import ToolError

    try:
        result = apply_patch(patch, root, dry_run=dry_run, policy=policy)
    except PatchError as error:
        raise ToolError(failure(error).rstrip("\n")) from error
    text = result.summary + warnings_text(result.warnings)
    return text + result.diff if dry_run else text
