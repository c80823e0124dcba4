"""Names a user can find: `dir(apply_patch)` (what completion offers) lists the public API,
lazy names included, and not the module's machinery."""

import apply_patch


def test_dir_shows_the_public_names() -> None:
    names = dir(apply_patch)
    for name in ("apply_patch", "apply_reply", "apply_to_mapping", "undo", "tool_definitions",
                 "extract_patches", "parse_patch", "PatchError", "CODEX"):  # fmt: skip
        assert name in names
    assert "TYPE_CHECKING" not in names
    assert not [name for name in names if name.startswith("_")]
    assert names == sorted(apply_patch.__all__)


def test_every_name_shown_is_there() -> None:
    for name in dir(apply_patch):
        assert getattr(apply_patch, name) is not None, name
