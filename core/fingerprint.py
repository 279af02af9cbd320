"""The config fingerprint: which settings shape chunks or vectors.

A file is re-embedded only when its content hash or this fingerprint changes. It is a SHA-256 over
canonical JSON (sorted keys, no spaces) of exactly the settings that shape chunks or vectors — extraction
options (not its time/memory limits), chunker (with ``contextual``), embedding model id / dtype /
normalisation / query and passage prompts, keyword tokenizer — plus :data:`SCHEMA_VERSION`. Retrieval,
rerank, LLM, Slack and cache settings never touch it.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from core.config import Settings

if TYPE_CHECKING:
    from core.embedder import Embedder

SCHEMA_VERSION = 13
"""Bump when the stored row layout or the extraction/chunking code changes its output (6: contextual
chunks, the ``context``/``indexed_text`` chunk columns and the documents' ``language``; 7: complete
DOCX/PDF/text extraction, the documents' ``extraction_report``; 8: chunks carry
``page_breaks``, the offsets where their text moves on to a later page; 9: document titles from
confirmed metadata and running headers (chunk contexts, ``documents.title``), images of text
binarised locally before OCR; 10: OCR'd titles set larger are headings, list markers hung left of
their items are read with them; 11: ``page_breaks`` leads with ``(0, page)`` when a chunk's text
starts on another page than the chunk's: a heading from the foot of an earlier page, blocks out of
page order; 12: a number hyphenated at a line end is joined, a clause number glued to the next word
at a line start is split off; 13: a table's sub-header row of column labels is folded into its
header row, a table continued on the next page without its header gets the header back)."""


def fingerprint_inputs(settings: Settings) -> dict[str, object]:
    """The exact settings the fingerprint covers, as a JSON-able dict."""
    return {
        "schema_version": SCHEMA_VERSION,
        "extraction": settings.extraction.model_dump(
            mode="json", exclude={"timeout_s", "memory_mb", "tesseract_cmd"}),
        "chunking": settings.chunking.model_dump(mode="json"),
        "embedding": settings.embedding.model_dump(mode="json", include={
            "provider", "model", "dtype", "normalize", "query_prompt", "passage_prompt"}),
        "keyword": settings.keyword.model_dump(mode="json"),
    }


def embedding_inputs(settings: Settings) -> dict[str, object]:
    """What shapes a vector given its text (key of the chunk-level embedding cache)."""
    return {"schema_version": SCHEMA_VERSION,
            "embedding": fingerprint_inputs(settings)["embedding"]}


def _digest(obj: object) -> str:
    canonical = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def config_fingerprint(settings: Settings) -> str:
    """SHA-256 hex of :func:`fingerprint_inputs`."""
    return _digest(fingerprint_inputs(settings))


def embedding_fingerprint(settings: Settings) -> str:
    """SHA-256 hex of :func:`embedding_inputs`."""
    return _digest(embedding_inputs(settings))


def embedding_key(settings_fingerprint: str, embedder: Embedder) -> str:
    """SHA-256 hex of the embedding settings' fingerprint (:func:`embedding_fingerprint`), the loaded
    model's id and its dimension: the key of every stored vector (chunk-level embedding cache, unit
    vectors); vectors of another key are never reused."""
    raw = f"{settings_fingerprint}\x00{embedder.model_id}\x00{embedder.dimension}"
    return hashlib.sha256(raw.encode()).hexdigest()
