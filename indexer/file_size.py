"""The file-size cap: a file above ``index.max_file_mb`` (PDF, Word and other binary formats) or
``index.max_text_file_mb`` (Markdown, plain text) is recorded as failed without being hashed or read.

Why two limits: a text file's size is all text, so its cost grows with its size (a 33 MB Markdown
took 100 s and a 1.1 GB peak to chunk and embed; a generated 5 MB one peaked at 1.1 GB and was still
embedding after 4 min on the shared 2-core host: docs/benchmarks.md), while most of a PDF's or DOCX's
bytes are images and fonts. The largest text policy of the sample corpus is 14 KB, its largest PDF
2.5 MB: the defaults (5 MB text, 100 MB other) leave every real policy far inside.

The failure reason names the size, the limit and the key to raise; when the limit is raised
(or the file shrinks) the next reconcile indexes it (:func:`is_size_failure` makes it a retry).
"""

from __future__ import annotations

import logging
from pathlib import PurePosixPath

from core.config import IndexSettings

log = logging.getLogger(__name__)

TEXT_SUFFIXES = frozenset({".md", ".markdown", ".txt"})
"""File types whose bytes are all text (:attr:`IndexSettings.max_text_file_mb` applies)."""
SIZE_MARK = "larger than the size limit"
"""Phrase every size failure reason holds (:func:`is_size_failure`)."""
MB = 1_000_000


def size_limit(rel: str, index: IndexSettings) -> tuple[float, str]:
    """``(limit in MB, config key)`` that applies to the file ``rel`` (relative POSIX path)."""
    if PurePosixPath(rel.lower()).suffix in TEXT_SUFFIXES:
        return index.max_text_file_mb, "index.max_text_file_mb"
    return index.max_file_mb, "index.max_file_mb"


def oversize_reason(rel: str, size: int, index: IndexSettings) -> str | None:
    """The failure reason of a file of ``size`` bytes above its limit (size, limit, key to raise), or
    None when it is within the limit."""
    limit, key = size_limit(rel, index)
    if size <= limit * MB:
        return None
    return (f"the file is {size / MB:.3g} MB, {SIZE_MARK} of {limit:g} MB ({key}); it was not read. "
            f"Raise {key} in the config to index it, or split the file")


def is_size_failure(reason: str) -> bool:
    """Whether a recorded failure ``reason`` came from the size cap (a file that fits now is retried)."""
    return SIZE_MARK in reason
