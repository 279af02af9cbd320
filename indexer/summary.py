"""What one reconcile (or one watcher call) did: :class:`IndexSummary`."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class IndexSummary:
    """Counts of one reconcile. ``failed`` counts files that are failing now (newly or still: an
    unchanged failed file is not retried but stays listed); ``chunks_embedded`` counts chunk texts
    sent to the embedding model, ``chunks_reused`` chunks whose vector came from the embedding
    cache; ``moved`` files renamed without re-extraction; ``repaired`` drift fixes (orphan chunks
    deleted, documents re-indexed because their chunks were missing); ``rebuilt`` the generation a
    shadow rebuild swapped in (None: no rebuild); ``invalidated`` relative paths whose content
    changed, moved or disappeared; ``seconds`` is wall-clock time."""

    indexed: int = 0
    unchanged: int = 0
    failed: int = 0
    removed: int = 0
    moved: int = 0
    pages: int = 0
    chunks_embedded: int = 0
    chunks_reused: int = 0
    repaired: int = 0
    rebuilt: int | None = None
    seconds: float = 0.0
    held_removals: int = 0
    """Documents gone from the folder whose removal was held (:mod:`indexer.removal_guard`)."""
    held_reason: str = ""
    """Why, and what to do ("" when nothing was held)."""
    failures: list[dict[str, str]] = field(default_factory=list)
    invalidated: list[str] = field(default_factory=list)
    new_failures: list[str] = field(default_factory=list)
    """Reasons of the files that failed *in this run* (a failed row written now; files still failing
    for the same reason as before are not in it): :mod:`indexer.safety` aborts a reconcile when they
    all share one machine-side reason and nothing indexed."""
    failed_now: list[dict[str, str]] = field(default_factory=list)
    """The same failures with their files (``{"file", "reason"}``; the reason may add that the last
    good version keeps serving): what the indexer logs once per failure
    (:func:`indexer.jobs.log_failures`)."""

    def add_failure(self, rel: str, reason: str) -> None:
        """Count a failed file and remember its reason."""
        self.failed += 1
        self.failures.append({"file": rel, "reason": reason})

    def add_new_failure(self, rel: str, reason: str, note: str = "") -> None:
        """Remember a failure written in this run (``note``: what still serves, for the log)."""
        self.new_failures.append(reason)
        self.failed_now.append({"file": rel, "reason": reason + note})

    def to_json(self) -> dict[str, object]:
        """``{"indexed","unchanged","failed","removed","moved","pages","chunks_embedded",
        "chunks_reused","repaired","rebuilt","seconds","held_removals","held_reason",
        "failures": [{"file","reason"}]}``."""
        return {"indexed": self.indexed, "unchanged": self.unchanged, "failed": self.failed,
                "removed": self.removed, "moved": self.moved, "pages": self.pages,
                "chunks_embedded": self.chunks_embedded, "chunks_reused": self.chunks_reused,
                "repaired": self.repaired, "rebuilt": self.rebuilt, "seconds": round(self.seconds, 2),
                "held_removals": self.held_removals, "held_reason": self.held_reason,
                "failures": list(self.failures)}
