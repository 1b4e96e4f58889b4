"""The distinct ways a citation can fail; each carries the sentence a maintainer reads."""


class CheckFailure(Exception):
    kind = "failure"

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class UnknownEngine(CheckFailure):
    kind = "unknown engine"


class RepositoryUnavailable(CheckFailure):
    kind = "repository unavailable"


class CommitMissing(CheckFailure):
    kind = "commit not in repository"


class FileMissing(CheckFailure):
    kind = "file missing"


class NotRegularFile(CheckFailure):
    kind = "path not a regular file"


class SymbolNotFound(CheckFailure):
    kind = "symbol not found"


class CountMismatch(CheckFailure):
    kind = "count mismatch"


class LockMissing(CheckFailure):
    kind = "not in lock"


class LockMismatch(CheckFailure):
    kind = "lock entry mismatch"


class ContainsMissing(CheckFailure):
    kind = "contains not found"
