"""`_digest` gives hashlib's SHA-256 on both sides of its size threshold, without importing it for small contents."""

import hashlib
import subprocess
import sys

import pytest

from apply_patch.apply.records import _digest


@pytest.mark.parametrize("size", [0, 1, 4096, _digest.LARGE, _digest.LARGE + 1, 3 * _digest.LARGE])
def test_the_digest_is_sha256(size: int) -> None:
    data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    assert _digest.hexdigest(data) == hashlib.sha256(data).hexdigest()
    streamed = _digest.new(size)
    for at in range(0, size, 1000):
        streamed.update(data[at : at + 1000])
    assert streamed.hexdigest() == hashlib.sha256(data).hexdigest()


def test_small_contents_do_not_import_hashlib() -> None:
    code = "import sys\nfrom apply_patch.apply.records import _digest\n_digest.hexdigest(b'x')\nprint('hashlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
