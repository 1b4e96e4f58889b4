import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from upstream import demo_upstream, make_project  # noqa: E402


@pytest.fixture
def demo(tmp_path):
    """The demo upstream repository: (path, [first commit, second commit])."""
    return demo_upstream(tmp_path)


@pytest.fixture
def demo_project(tmp_path, demo):
    """Build a project whose engine `demo` is pinned at the demo upstream's second commit."""
    path, shas = demo

    def build(claims: dict[str, str], **engine_fields) -> Path:
        fields = {"pin": shas[1], "repository": "https://example.invalid/demo"} | engine_fields
        return make_project(tmp_path / "project", {"demo": fields, "other": {}}, claims)

    return build


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Each test gets its own citecheck cache: results never leak between tests or from the user's."""
    monkeypatch.setenv("CITECHECK_CACHE", str(tmp_path / "citecheck-cache"))
    return tmp_path / "citecheck-cache"


@pytest.fixture(autouse=True)
def private_record_store(tmp_path, monkeypatch):
    """Each test gets its own store of parsed records."""
    monkeypatch.setenv("ENGINEKB_CACHE", str(tmp_path / "enginekb-cache"))
