"""Shared setup for the incremental-indexing tests: a counting embedder factory, settings on temp
folders, and generated Markdown policies with many distinct paragraphs (so edits touch few chunks)."""

from __future__ import annotations

from pathlib import Path

from core.config import Settings
from core.embedder import FakeEmbedder
from core.store import Store
from indexer.pipeline import Indexer

WORDS = ("leave", "travel", "expense", "claim", "benefit", "policy", "manager", "approval", "receipt",
         "hotel", "flight", "meal", "allowance", "insurance", "premium", "deductible", "copay", "network")


class Factory:
    """Embedder factory that counts how often it is asked to build the model, and every text embedded."""

    def __init__(self, dimension: int = 64, model_id: str = "fake") -> None:
        self.builds = 0
        self.embedder = FakeEmbedder(dimension=dimension, model_id=model_id)

    def __call__(self) -> FakeEmbedder:
        self.builds += 1
        return self.embedder

    @property
    def embedded(self) -> int:
        """Texts embedded so far."""
        return sum(self.embedder.calls)


def make_settings(tmp_path: Path, root: Path, **extra: object) -> Settings:
    """Settings with the fake embedder, data in ``tmp_path/data``, policies in ``root``."""
    base: dict[str, object] = {"data_dir": str(tmp_path / "data"), "policies": {"root": str(root)},
                               "embedding": {"provider": "fake"},
                               "chunking": {"max_tokens": 96, "overlap_tokens": 0}}
    base.update(extra)
    return Settings.model_validate(base)


def paragraph(seed: int, words: int = 40) -> str:
    """A deterministic paragraph distinct for each ``seed``."""
    return " ".join(f"{WORDS[(seed * 7 + i) % len(WORDS)]}{seed}x{i}" for i in range(words)) + "."


def write_policy(path: Path, seeds: range | list[int], title: str = "Policy") -> Path:
    """A Markdown policy with one section per seed, each holding one paragraph."""
    path.parent.mkdir(parents=True, exist_ok=True)
    parts = [f"# {title}\n"] + [f"## Section {s}\n\n{paragraph(s)}\n" for s in seeds]
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def build(tmp_path: Path, root: Path, factory: Factory | None = None,
          **extra: object) -> tuple[Indexer, Store, Factory]:
    """An Indexer (in-process extraction) on a fresh Store for ``root``."""
    settings = make_settings(tmp_path, root, **extra)
    store = Store(settings.data_dir, settings.keyword, settings.index)
    f = factory or Factory()
    return Indexer(settings, store, f), store, f


def live_hashes(store: Store) -> set[str]:
    """Text hashes of every chunk in the live generation."""
    return {r["text_hash"] for r in store.chunk_rows(columns=["text_hash"])}


def paths_in_chunks(store: Store) -> set[str]:
    """Distinct paths of the live chunks."""
    return set(store.chunk_counts())
