"""Where a symbol is now, when a cite fails: the hint a maintainer moving a pin reads first (used by
the checks and by drift)."""

from __future__ import annotations

from enginekb.model import Cite

from .errors import CheckFailure
from .gitstore import GitStore

HINT_FILES = 5  # files named in a hint
HINT_READS = 12  # files read, nearest to the cited one first, to find where the symbol is defined now


def where_else(store: GitStore, cite: Cite, commit: str | None = None) -> str:
    """Where the symbol is defined at `commit` (default: the cite's) other than in the cited file, or
    else where its last name occurs: what a maintainer moving a pin needs. The files nearest the cited
    one are read first; a file that cannot be read is passed over."""
    if cite.symbol is None:
        return ""
    at = commit or cite.commit
    *qualifiers, word = cite.symbol.replace(".", "::").split("::")
    mentioning = store.files_mentioning(at, word, limit=2000, together=tuple(q for q in qualifiers if q))
    if qualifiers and not mentioning:  # not with its class or namespace: then anywhere
        mentioning = store.files_mentioning(at, word, limit=2000)
    files = sorted((f for f in mentioning if f != cite.file),
                   key=lambda f: (-_shared_folders(f, cite.file), f.rsplit("/", 1)[-1] != cite.file.rsplit("/", 1)[-1], f))
    if not files:
        return f"; {word} occurs in no other file {f'at {at[:12]}' if commit else 'at this commit'}"
    from .resolve import Resolver  # tree-sitter: a hint is only asked for after a failure

    resolver, defined = Resolver(), []
    for file in files[:HINT_READS]:
        try:
            if resolver.resolve_symbol(store.read(at, file), cite.symbol).kind == "definition":
                defined.append(file)
        except CheckFailure:
            continue
    if defined:
        return f"; {cite.symbol} is defined in {', '.join(defined[:HINT_FILES])}"
    return f"; {word} occurs in {', '.join(files[:HINT_FILES])}"


def _shared_folders(path: str, other: str) -> int:
    count = 0
    for mine, theirs in zip(path.split("/")[:-1], other.split("/")[:-1]):
        if mine != theirs:
            break
        count += 1
    return count
