"""The smoke subset named in tests/conftest.py lists modules that exist (a renamed module would
otherwise drop out of it silently)."""
import os

from tests.conftest import SMOKE

HERE = os.path.dirname(os.path.abspath(__file__))


def test_every_smoke_module_exists():
    missing = sorted(p for p in SMOKE if not os.path.isfile(os.path.join(HERE, p)))
    assert missing == []
