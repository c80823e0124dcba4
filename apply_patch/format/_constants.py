"""The marker strings of the format, each with the line it matches."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

# Unicode White_Space, the set the reference trims (Rust `str::trim`). Python's
# `str.strip()` would also remove U+001C..U+001F, which the reference keeps.
WHITESPACE: Final = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)

BEGIN_PATCH: Final = "*** Begin Patch"  # *** Begin Patch
END_PATCH: Final = "*** End Patch"  # *** End Patch
ENVIRONMENT_ID: Final = "*** Environment ID: "  # *** Environment ID: cloud-1
ADD_FILE: Final = "*** Add File: "  # *** Add File: docs/new.md
DELETE_FILE: Final = "*** Delete File: "  # *** Delete File: old.txt
UPDATE_FILE: Final = "*** Update File: "  # *** Update File: src/app.py
MOVE_TO: Final = "*** Move to: "  # *** Move to: src/main.py
END_OF_FILE: Final = "*** End of File"  # *** End of File
CHUNK_HEADER: Final = "@@"  # @@   or   @@ class Greeter:
CHUNK_HEADER_WITH_CONTEXT: Final = "@@ "
# Beyond the reference: after a `+` line, that line's exact ending in the new file.
LINE_ENDING: Final = "\\ Line ending: "  # \ Line ending: CRLF
NO_NEWLINE: Final = "\\ No newline at end of file"  # \ No newline at end of file
ENDING_NAMES: Final = {"\r\n": "CRLF", "\n": "LF", "\r": "CR"}

# The envelope errors, in the reference's words.
FIRST_LINE_ERROR: Final = f"The first line of the patch must be '{BEGIN_PATCH}'"
LAST_LINE_ERROR: Final = f"The last line of the patch must be '{END_PATCH}'"
# The reference's messages for a patch's body (their line and text are the error's).
INVALID_HEADER: Final = (
    "'{}' is not a valid hunk header. Valid hunk headers: "
    "'*** Add File: {{path}}', '*** Delete File: {{path}}', '*** Update File: {{path}}'"
)
UNEXPECTED_LINE: Final = (
    "Unexpected line found in update hunk: '{}'. Every line should start with "
    "' ' (context line), '+' (added line), or '-' (removed line)"
)
EXPECTED_CHUNK_HEADER: Final = "Expected update hunk to start with a @@ context marker, got: '{}'"
EMPTY_CHUNK: Final = "Update hunk does not contain any lines"
EMPTY_UPDATE: Final = "Update file hunk for path '{}' is empty"
REPEATED_ENVIRONMENT: Final = "apply_patch environment_id cannot be specified more than once"
EMPTY_ENVIRONMENT: Final = "apply_patch environment_id cannot be empty"

FILE_HEADERS: Final = (ADD_FILE, DELETE_FILE, UPDATE_FILE)

# Line prefixes of a chunk: context, added, removed.
CONTEXT: Final = " "
ADDED: Final = "+"
REMOVED: Final = "-"
