"""Verified-answer cache: 👍-admitted answers served again before retrieval, guarded and never stale.

Entry points: :class:`AnswerCache` (record_vote, lookup, invalidate_sources, expire, forget, stats),
:func:`make_answer_cache` (composition root), :class:`LoggedAnswer` (what a vote is about).
"""

from core.cache.answer_cache import AnswerCache, ChunkHashes
from core.cache.factory import make_answer_cache, store_chunk_hashes, store_chunks_version
from core.cache.store import CacheTable
from core.cache.types import CacheEntry, CacheStats, LoggedAnswer, Miss, VoteResult

__all__ = [
    "AnswerCache", "CacheEntry", "CacheStats", "CacheTable", "ChunkHashes", "LoggedAnswer", "Miss",
    "VoteResult", "make_answer_cache", "store_chunk_hashes", "store_chunks_version",
]
