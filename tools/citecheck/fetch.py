"""Fetching an engine's commits from its upstream into a bare repository (--fetch), each git command
bounded by a time limit, with replace objects off."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .errors import CommitMissing, RepositoryUnavailable
from .gitdir import GIT_ENVIRONMENT, TIMEOUT_VARIABLE, git_timeout, require_sha

FETCH_TIMEOUT = 1800.0  # a network fetch of one commit


def _git(*args: str, what: str) -> subprocess.CompletedProcess:
    """A git command outside a GitStore (fetching), output captured, within the fetch time limit."""
    limit = git_timeout(FETCH_TIMEOUT)
    try:
        return subprocess.run(["git", "--no-replace-objects", *args], env={**os.environ, **GIT_ENVIRONMENT},
                              capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        raise RepositoryUnavailable(f"{what}: git gave no answer within {limit:g} s (${TIMEOUT_VARIABLE})") from None
    except OSError as error:
        raise RepositoryUnavailable(f"{what}: git cannot run ({error.strerror})") from None


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else "no message"


def fetch_pinned(url: str, sha: str, cache: Path, blobs: bool = True) -> Path:
    """Shallow-fetch one commit of `url` into a bare repository under `cache`; reuse it if present.

    Without `blobs`, a partial clone: the commit and its trees now, each blob when it is first read
    (`url` is kept as the promisor remote `origin` that git fetches them from)."""
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RepositoryUnavailable(f"cannot create {cache} ({error.strerror})") from None
    require_sha(sha)
    what = f"fetching {sha[:12]} from {url} into {cache}"
    if not (cache / "HEAD").exists():
        done = _git("init", "-q", "--bare", "--end-of-options", str(cache), what=what)
        if done.returncode != 0:
            raise RepositoryUnavailable(f"{what}: {_last_line(done.stderr)}")
    source, options = url, []
    if not blobs:
        if url.startswith("-"):
            raise RepositoryUnavailable(f"{what}: {url!r} is not a repository URL")
        for key, value in (("url", url), ("promisor", "true"), ("partialclonefilter", "blob:none")):
            done = _git("-C", str(cache), "config", f"remote.origin.{key}", value, what=what)
            if done.returncode != 0:
                raise RepositoryUnavailable(f"{what}: {_last_line(done.stderr)}")
        source, options = "origin", ["--filter=blob:none"]
    have = _git("-C", str(cache), "cat-file", "-e", f"{sha}^{{commit}}", what=what)
    if have.returncode != 0:
        done = _git("-C", str(cache), "fetch", "-q", "--depth", "1", *options, "--end-of-options", source, sha, what=what)
        if done.returncode != 0:
            raise RepositoryUnavailable(f"could not fetch {sha[:12]} from {url}: {done.stderr.strip()}")
    return cache


def fetch_revision(url: str, revision: str, cache: Path) -> str:
    """Shallow-fetch a branch, tag or commit of `url` into the bare repository `cache`; its SHA."""
    if revision.startswith("-") or not revision.isprintable():
        # git would read it as an option (--upload-pack=... runs a command on a local fetch)
        raise CommitMissing(f"{revision!r} is not a branch, tag or commit name")
    what = f"fetching {revision} from {url} into {cache}"
    done = _git("-C", str(cache), "fetch", "-q", "--depth", "1", "--end-of-options", url, revision, what=what)
    if done.returncode != 0:
        raise RepositoryUnavailable(f"could not fetch {revision} from {url}: {done.stderr.strip()}")
    head = _git("-C", str(cache), "rev-parse", "FETCH_HEAD^{commit}", what=what)
    if head.returncode != 0:
        raise RepositoryUnavailable(f"{what}: {_last_line(head.stderr)}")
    return head.stdout.strip()
