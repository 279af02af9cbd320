"""Cross-language retrieval wiring: when to translate a question, into which language, and the
structured BM25 leg that searches the translation.

:class:`CrossLanguage` decides like the LLM translation path (:func:`core.language.translation_target`):
the documents a question searches (the ones it names, else all in its scope) share one language and
the question is detectably in another. Then the question is translated with
:class:`~core.clir.translate.DictionaryTranslator` against the vocabulary of those documents, and
searched by :class:`ScopeIndex`, an in-memory BM25 index of those documents' chunks (built from their
rows once per change of the indexed documents) that scores the translation as a *structured query*
(Pirkola, SIGIR 1998): the target words of one question word count as one term, their term
frequencies summed and their document frequency that of their union. Scored with the index's own
statistics, the scope's: LanceDB's full-text index would weigh a word by its rarity in the whole
corpus, where a word on every page of the only German document (a travel policy's word for "abroad")
is rare.

Dictionaries are FreeDict's dictd files (Debian ``dict-freedict-eng-deu`` etc., installed by
``make system-deps``) found by name in ``lexicon.dictionaries_dir``:
``freedict-<source>-<target>.index`` with ISO 639-3 codes. None installed: no translation, said once
in the log (:func:`make_cross_language`).
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.clir.compounds import CompoundSplitter
from core.clir.dictd import DictdDictionary, DictionaryError
from core.clir.translate import DictionaryTranslator, QueryTranslation, Vocabulary
from core.language import question_language
from core.lru import LockedLRU
from core.store import Store, path_filter, row_chunk
from core.store_schema import fts_column
from core.types import Chunk

log = logging.getLogger(__name__)

ISO3 = {"en": "eng", "de": "deu", "fr": "fra", "it": "ita", "es": "spa", "pt": "por", "nl": "nld",
        "sv": "swe", "da": "dan", "fi": "fin", "pl": "pol", "cs": "ces", "hu": "hun", "ro": "ron",
        "tr": "tur", "ru": "rus", "uk": "ukr", "el": "ell", "ja": "jpn", "zh": "zho", "ko": "kor",
        "hi": "hin", "ar": "ara", "he": "heb", "no": "nob"}
"""ISO 639-1 (stored document languages) → ISO 639-3 (FreeDict file names)."""
CHUNK_COLUMNS = ("chunk_id", "path", "text", "page", "page_end", "section", "ordinal", "text_hash")
INDEXES = 8
"""Scope indexes kept (one per language and document set searched)."""
BM25_K1 = 1.2
BM25_B = 0.75


class ScopeIndex:
    """BM25 over the chunks of a few documents, in memory, with structured (synonym-set) queries.

    Args:
        chunks: the chunks with the text their full-text index holds (context + text).
        is_word: whether a lowercase string is a word of the chunks' language (a dictionary
            headword), for compound splitting; ``None``: the chunks' own vocabulary only.
        decompound: index compounds' parts next to them (:mod:`core.clir.compounds`, Koehn &
            Knight 2003).
    """

    def __init__(self, chunks: Sequence[tuple[Chunk, str]], is_word: Callable[[str], bool] | None = None,
                 decompound: bool = True) -> None:
        from core.retrieval import tokenize

        self.chunks = [c for c, _ in chunks]
        self.tf = [Counter(tokenize(text)) for _, text in chunks]
        self.lengths = [sum(t.values()) for t in self.tf]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 1.0
        df = _df(self.tf)
        self.vocabulary = Vocabulary(df)  # the words as written: a part alone ("kasse") is no translation
        if decompound:
            self._add_parts(CompoundSplitter(df, is_word))

    def _add_parts(self, splitter: CompoundSplitter) -> None:
        """Count each compound's parts next to it (:mod:`core.clir.compounds`; lengths unchanged:
        the parts are the same text)."""
        for t in self.tf:
            for word, n in list(t.items()):
                for part in splitter.parts(word):
                    t[part] += n

    def search(self, concepts: Sequence[Sequence[str]], k: int,
               paths: Collection[str] | None = None) -> list[tuple[Chunk, float]]:
        """Top ``k`` chunks (of ``paths``, default all) for ``concepts`` (each a set of words that count
        as one term: Pirkola's ``#syn``), by Okapi BM25 (k1 = 1.2, b = 0.75; Robertson & Zaragoza 2009)."""
        n = len(self.chunks)
        scores = [0.0] * n
        for words in concepts:
            tfs = [sum(t.get(w, 0) for w in words) for t in self.tf]
            df = sum(1 for f in tfs if f)
            if not df:
                continue
            idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
            for i, f in enumerate(tfs):
                if f:
                    norm = BM25_K1 * (1 - BM25_B + BM25_B * self.lengths[i] / self.avg)
                    scores[i] += idf * f * (BM25_K1 + 1) / (f + norm)
        hits = [i for i in range(n) if scores[i] > 0 and (paths is None or self.chunks[i].path in paths)]
        ranked = sorted(hits, key=lambda i: -scores[i])
        return [(self.chunks[i], scores[i]) for i in ranked[:k]]


@dataclass(frozen=True)
class CrossQuery:
    """A question's dictionary translation and the index of the documents it is searched in."""

    translation: QueryTranslation
    index: ScopeIndex

    def search(self, k: int, paths: Collection[str] | None = None) -> list[tuple[Chunk, float]]:
        """The translation's top ``k`` chunks (of ``paths``, default all in the index)."""
        return self.index.search(self.translation.concepts(), k, paths)


MAX_SCOPE_CHUNKS = 20_000
"""Largest scope (in chunks) given a scope index: it reads every chunk of the scope into an in-memory
BM25 index, so at a million chunks it would cost gigabytes and seconds per question; a larger scope
is searched without the dictionary translation (logged)."""


class CrossLanguage:
    """Translates questions into the language of the documents they search.

    Args:
        store: the index (document languages, chunk rows for the scope index).
        translator: the dictionary translator.
        max_scope_chunks: scopes with more chunks are not translated (:data:`MAX_SCOPE_CHUNKS`).
    """

    def __init__(self, store: Store, translator: DictionaryTranslator,
                 max_scope_chunks: int = MAX_SCOPE_CHUNKS) -> None:
        self.store = store
        self.translator = translator
        self.max_scope_chunks = max_scope_chunks
        self._indexes: LockedLRU[frozenset[tuple[str, str]], ScopeIndex] = LockedLRU(INDEXES)

    def translate(self, question: str, paths: Sequence[str]) -> CrossQuery | None:
        """``question`` in the one language of the documents ``paths`` when it differs from the
        question's and a dictionary covers the pair; else ``None``."""
        docs = self.store.documents()
        langs = {docs[p].language for p in paths if p in docs and docs[p].language}
        if len(langs) != 1:
            return None
        (target,) = langs
        source = question_language(question)
        if not source or source == target or (source, target) not in self.translator.pairs():
            return None
        chunks = sum(docs[p].chunk_count for p in paths if p in docs)
        if chunks > self.max_scope_chunks:
            log.info("no dictionary translation: the scope has %d chunks (more than %d)", chunks,
                     self.max_scope_chunks)
            return None
        index = self._index(frozenset((p, docs[p].version) for p in paths if p in docs))
        found = self.translator.translate(question, source, target, index.vocabulary)
        log.info("question translated by dictionary %s→%s: %d terms", source, target,
                 len(found.terms) if found else 0)
        return CrossQuery(found, index) if found is not None else None

    def _index(self, key: frozenset[tuple[str, str]]) -> ScopeIndex:
        """The scope index of the documents of ``key`` (cached until one of them changes)."""
        return self._indexes.get_or_compute(key, lambda: self._build_index(key))

    def _build_index(self, key: frozenset[tuple[str, str]]) -> ScopeIndex:
        """Read the chunks of ``key``'s documents and index them (no caching)."""
        where = path_filter(sorted(p for p, _ in key))
        try:
            rows = self.store.chunk_rows(where=where, columns=[*CHUNK_COLUMNS, "context", "indexed_text",
                                                               "page_breaks"])
        except Exception:  # a table written before contextual chunks / page breaks (schema < 7)
            rows = self.store.chunk_rows(where=where, columns=list(CHUNK_COLUMNS))
        column = fts_column(rows[0].keys()) if rows else "text"
        docs = self.store.documents()
        langs = {docs[p].language for p, _ in key if p in docs}
        lexicon = self.translator.lexicon(next(iter(langs))) if len(langs) == 1 else None
        return ScopeIndex([(row_chunk(r), str(r.get(column) or r["text"])) for r in rows],
                          lexicon.contains if lexicon is not None else None)


def _df(tfs: Sequence[Counter[str]]) -> Counter[str]:
    """Document frequency of each word over the term-frequency bags ``tfs``."""
    df: Counter[str] = Counter()
    for t in tfs:
        df.update(t.keys())
    return df


def find_dictionaries(folder: Path) -> dict[tuple[str, str], DictdDictionary]:
    """The FreeDict dictionaries in ``folder`` between languages of :data:`ISO3`, by (source, target)."""
    by3 = {v: k for k, v in ISO3.items()}
    found: dict[tuple[str, str], DictdDictionary] = {}
    for index in sorted(folder.glob("freedict-*-*.index")) if folder.is_dir() else []:
        parts = index.name.removesuffix(".index").split("-")
        pair = (by3.get(parts[1], ""), by3.get(parts[2], "")) if len(parts) == 3 else ("", "")
        if not all(pair):
            continue
        try:
            found[pair] = DictdDictionary(index.with_suffix(""))
        except DictionaryError as exc:
            log.warning("bilingual dictionary skipped: %s", exc)
    return found


def make_cross_language(store: Store, folder: Path, max_terms: int) -> CrossLanguage | None:
    """The dictionary translator over the dictionaries in ``folder``, or ``None`` (logged once, with
    what to install) when there are none."""
    dictionaries = find_dictionaries(folder)
    if not dictionaries:
        log.warning("no bilingual dictionaries in %s: questions are not translated for documents in "
                    "another language; install dict-freedict-eng-deu (make system-deps) or set "
                    "lexicon.dictionaries_dir", folder)
        return None
    log.info("bilingual dictionaries: %s", ", ".join(f"{s}→{t}" for s, t in sorted(dictionaries)))
    return CrossLanguage(store, DictionaryTranslator(dictionaries, max_terms))
