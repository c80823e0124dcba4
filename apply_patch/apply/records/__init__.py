"""Records: what the crash journal and the receipts record, and how they are read back
(each record untrusted input: owner, links, schema, confined paths, digests); the
review gate's pending records; an editor session's views (`Seen`). The bytes are
written by `disk`."""

from __future__ import annotations

from ..._lazy import on_first_use
from ._digest import hexdigest
from ._journal import (
    begin as begin_journal, COMMIT as JOURNAL_COMMIT, Place as JournalPlace,
    present as journal_present, record as journal_record, TEMP_SUFFIX as JOURNAL_TEMP_SUFFIX,
)
from ._session import running_session
from ._receipts import (
    base_folder, digest, folder_of, known_sizes, name_after, names_in,
    OPEN_DIR, OPEN_READ, private_folder, receipt_text, relative_to_root, saved_size, SIZES,
    Store, SWEEP_EVERY, sweep_due, SWEPT, Unavailable, VERSION as RECEIPT_VERSION,
)

# Imported when one of their names is first asked for (start-up time): names written once, here.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._pending import (
        BadRecord, check_record, Claim, claim, pending, pending_matching, pending_names, PENDING_FOLDER,
        Staged, state_hash, Taken, PENDING_VERSION, Waiting,
    )
    from ._receipts_read import (
        history, list_receipts, open_store, pick, read_records, Receipt, show, show_receipt,
        undo_plan,
    )
    from ._recovery import Recovery, recover
    from ._seen import Seen

__getattr__ = on_first_use(__name__, globals(), ("._pending", "._receipts_read", "._recovery", "._seen"))
