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


@pytest.fixture
def lint(monkeypatch, capsys):
    """`claims lint` on a project root, from inside it: (exit code, everything it printed)."""
    from claimtool.cli import main as claims

    def run(root) -> tuple[int, str]:
        monkeypatch.chdir(root)
        code = claims(["--root", str(root), "lint"])
        out = capsys.readouterr()
        return code, out.out + out.err

    return run


def changed_copy(data: dict, path: str, value):
    """A deep copy of `data` with the field at `path` (dots; digits index lists) set to `value`, or removed
    when `value` is None: one broken field per lint case."""
    import json

    copy = json.loads(json.dumps(data))
    *parents, last = path.split(".")
    node = copy
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    key = int(last) if last.isdigit() else last
    if value is None:
        node.pop(key)
    else:
        node[key] = value
    return copy
