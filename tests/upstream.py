"""The one helper that builds fixture upstream repositories and fixture projects for the tests.

`make_upstream` writes each commit's tree with gitpython into a fresh repository. A tree maps paths
to file contents, or to `Symlink(target)` / `Submodule(sha)` for the special entries citecheck must
refuse. `make_project` lays out a project root (claims/, schema, dimensions) whose engines point at
such repositories.
"""

from __future__ import annotations

import shutil
import textwrap
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import git
import yaml
from gitdb import IStream
from git.index.typ import BaseIndexEntry

PROJECT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Symlink:
    target: str


@dataclass(frozen=True)
class Submodule:
    sha: str


def make_upstream(path: Path, commits: list[dict[str, str | bytes | Symlink | Submodule]]) -> tuple[Path, list[str]]:
    """A repository at `path` with one commit per tree (each tree complete); returns the SHAs."""
    repo = git.Repo.init(path)
    with repo.config_writer() as config:
        config.set_value("user", "name", "fixture")
        config.set_value("user", "email", "fixture@example.invalid")
    shas = []
    for number, tree in enumerate(commits):
        index = repo.index
        index.entries.clear()  # each tree is complete: start the commit from nothing
        entries = []
        for file, content in sorted(tree.items()):
            if isinstance(content, Submodule):
                entries.append(BaseIndexEntry((0o160000, bytes.fromhex(content.sha), 0, file)))
                continue
            mode, data = 0o100644, content
            if isinstance(content, Symlink):
                mode, data = 0o120000, content.target
            data = data.encode() if isinstance(data, str) else data
            stream = repo.odb.store(IStream("blob", len(data), BytesIO(data)))
            entries.append(BaseIndexEntry((mode, stream.binsha, 0, file)))
        index.add(entries)
        shas.append(index.commit(f"commit {number + 1}").hexsha)
    return path, shas


def make_project(root: Path, engines: dict[str, dict], claims: dict[str, str]) -> Path:
    """A project root: the real schema and dimensions, these engines, these claims files.

    `engines` maps an engine id to its fields (pin, repository, ...; defaults fill the rest);
    `claims` maps a path under claims/ (e.g. "demo/kind.yaml") to YAML text.
    """
    claims_dir = root / "claims"
    claims_dir.mkdir(parents=True, exist_ok=True)
    for name in ("claim.schema.json", "cell.schema.json", "scenario.schema.json", "study-artifacts.schema.json",
                 "hardware.schema.json", "hardware.yaml", "model-record.schema.json", "second-reads.schema.json",
                 "study-coverage.schema.json", "study-disagreements.schema.json", "dimensions.yaml"):
        shutil.copy(PROJECT / "claims" / name, claims_dir / name)
    listing = []
    for engine_id, fields in engines.items():
        entry = {"id": engine_id, "name": engine_id.title(), "repository": "https://example.invalid/" + engine_id,
                 "pin": "0" * 40, "pin_date": "2026-01-01", "licence": "MIT", "study_commit": "f" * 40}
        entry.update(fields)
        listing.append(entry)
    (claims_dir / "engines.yaml").write_text(yaml.safe_dump({"engines": listing}, sort_keys=False))
    for relative, text in claims.items():
        target = claims_dir / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text).lstrip("\n"))
    return root


# A small upstream with something of every kind citecheck reads.
NET_H = """\
#pragma once
#define DEMO_VERSION 3
namespace demo {
class DEMO_EXPORT Net {
public:
    int load(const char* path);
    int forward();
};
enum class Backend { CPU, GPU };
}
"""
NET_CPP = """\
#include "net.h"
namespace demo {
// ghost_symbol is only named in this comment
int Net::load(const char* path)
{
    return open_file(path);
}

int Net::forward()
{
    return 0;
}
}
"""
OPS_C = """\
enum op {
    OP_NONE,
    OP_ADD,
    OP_MUL,
    // OP_REMOVED,
    OP_COUNT,
};

int run_op(enum op o)
{
    return o == OP_ADD;
}
"""
SCHED_PY = """\
import functools

MAX_BATCH = 8


def register(cls):
    return cls


@register
class Scheduler:
    policy = "fcfs"

    class Queue:
        def push(self, item):
            self.items.append(item)

    @functools.cache
    def schedule(self, budget):
        return self.pick(budget)


def helper():
    pass
"""
CMAKE = """\
# old_target was removed
add_library(demo src/net.cpp)
demo_add_layer(Conv)
demo_add_layer(Pool)
demo_add_layer(Relu)
"""
README = """\
# Demo

Demo is a small
inference   engine for tests.
"""
FIRST_TREE = {
    "src/net.h": NET_H,
    "src/net.cpp": NET_CPP,
    "src/ops.c": OPS_C,
    "engine/sched.py": SCHED_PY,
    "CMakeLists.txt": CMAKE,
    "README.md": README,
    "include/net_link.h": Symlink("../src/net.h"),
    "third_party/sub": Submodule("1" * 40),
    "weights.bin": b"\x00\x01binary\x00",
}
# The second commit renames src/ops.c and adds a backend directory.
SECOND_TREE = {k: v for k, v in FIRST_TREE.items() if k != "src/ops.c"} | {
    "src/kernels/ops.c": OPS_C,
    "src/backends/cpu/cpu.c": "int cpu_init(void) { return 0; }\n",
    "src/backends/gpu/gpu.c": "int gpu_init(void) { return 0; }\n",
}


def demo_upstream(tmp_path: Path) -> tuple[Path, list[str]]:
    return make_upstream(tmp_path / "upstream" / "demo", [FIRST_TREE, SECOND_TREE])
