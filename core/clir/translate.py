"""Dictionary-based query translation for cross-language retrieval (CLIR).

An English question about a German policy shares no words with it, and the bundled embedding model
is English-only. Following dictionary-based CLIR (Ballesteros & Croft, "Phrasal translation and query
expansion techniques for cross-language information retrieval", SIGIR 1997; Pirkola, "The effects of
query structure and dictionary setups in dictionary-based cross-language information retrieval",
SIGIR 1998), each content word of the question is replaced by its translations from a general
bilingual dictionary:

1. **Phrases first.** Runs of 3 and 2 words that are dictionary headwords ("dental treatment",
   "court hearing") are translated as one unit (Ballesteros & Croft: phrase translation is the
   largest single gain), then the remaining content words one by one; a word not found is retried
   as its singular / base form (``lawyers`` → ``lawyer``, ``stolen``-like irregular forms stay).
2. **Translations.** The first translation line of each entry (senses in dictionary order), split at
   commas, without grammar marks (``<masc>``), domains (``[jur.]``), pronunciations and
   parenthesised parts; multi-word translations contribute their content words.
3. **Corpus vocabulary and decompounding.** Each translation is matched against the vocabulary of the
   documents to be searched: the word itself and its inflected forms, and — German writes compounds
   as one word — vocabulary words that begin or end with it ("Zahn" → "Zahnbehandlungen", "Gepäck"
   → "Reisegepäck"): decompounding by corpus lookup, the approach Braschler & Ripplinger found to
   carry most of the gain for German retrieval ("How effective is stemming and decompounding for
   German text retrieval?", Information Retrieval 7, 2004). Translations absent from the
   vocabulary are dropped (they cannot match), which also removes most wrong senses.
4. **Structure.** Each source word contributes at most ``max_terms`` target words (Pirkola's
   structured query gives every source concept one weight; with a plain BM25 query the same
   balance comes from bounding each concept's share of the query).

Words that are in the vocabulary as they are (names, amounts, codes: an insurer's initials, "CHF",
"3000") are kept.
"""

from __future__ import annotations

import bisect
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.clir.dictd import DictdDictionary
from core.query.text import GENERIC_WORDS
from core.text import FUNCTION_WORDS, base_forms, fold, tokenize, word_list

log = logging.getLogger(__name__)

MAX_PHRASE = 3
MIN_COMPOUND_PART = 4
"""A translation shorter than this matches only itself and its inflections, never a compound part."""
INFLECTIONS = ("", "e", "en", "n", "s", "es", "er", "ern", "em", "ns")
"""German noun/adjective endings a vocabulary word may add to a dictionary form."""
_MARKUP = re.compile(r"<[^>]*>|\[[^\]]*\]|/[^/\n]*/|\([^)]*\)|\{[^}]*\}")
_LIGHT = frozenset(word_list(
    "have has had having take takes took taken make makes made keep keeps kept put puts let lets come "
    "comes came become became give gives gave given say says said see sees saw seen look looks use uses "
    "used try tries tried happen happens happened pay pays paid cover covers covered"))
"""Light verbs and the verbs every policy question asks ("pay", "cover"): they start phrases
("fall ill", "give birth") but are not translated alone, where their senses flood the query."""
_PLACEHOLDERS = frozenset(word_list("jdm jdn jds jd etw sb sth sbs o"))
"""The dictionary's placeholders in translations ("jdm.", "etw.", "sb.")."""
_FUNCTION = frozenset().union(*FUNCTION_WORDS.values()) | _PLACEHOLDERS
"""Function words of any language, dropped from translations; a question's own words are checked
against its language's list only (:data:`core.text.FUNCTION_WORDS`): English "die" is a word to
translate, German "die" is not."""


@dataclass(frozen=True)
class QueryTranslation:
    """A question's terms in another language.

    Attributes:
        language: ISO 639-1 code of the target language (``"de"``).
        terms: per source unit (a word or a dictionary phrase of the question, lowercased), the
            target words it was translated into, in the searched documents' own word forms when a
            vocabulary was given (``("dental treatment", ("zahnbehandlungen",))``); units without a
            translation are left out.
        kept: question words kept as they are because the documents use them too (names, amounts).
    """

    language: str
    terms: tuple[tuple[str, tuple[str, ...]], ...]
    kept: tuple[str, ...] = ()

    def concepts(self) -> list[tuple[str, ...]]:
        """The target words grouped by source unit, then each kept word alone (structured query)."""
        return [targets for _, targets in self.terms] + [(k,) for k in self.kept]

    @property
    def text(self) -> str:
        """The translated query: every target word once, then the kept words (a BM25 query)."""
        words = [w for _, targets in self.terms for w in targets] + list(self.kept)
        return " ".join(dict.fromkeys(words))

    def targets(self, word: str) -> tuple[str, ...]:
        """The target words of the unit ``word`` (lowercase) belongs to; ``()`` when untranslated."""
        w = word.lower()
        return next((t for src, t in self.terms if w == src or w in src.split()), ())


def entry_translations(entry: str) -> list[str]:
    """The translations of one dictd entry: the comma-separated phrases of its translation lines
    (after the headword line, up to examples, notes, synonyms or cross-references), without markup."""
    out: list[str] = []
    for line in entry.split("\n")[1:]:
        s = line.strip()
        if not s or s.startswith(('"', "Synonym", "see:", "Note:")):
            break
        for part in re.split(r"[,;]", _MARKUP.sub(" ", s)):
            phrase = " ".join(part.split())
            if phrase:
                out.append(phrase)
    return out


class DictionaryTranslator:
    """Translates questions with bilingual dictionaries (module doc).

    Args:
        dictionaries: (source, target) ISO 639-1 codes → the dictionary from source to target
            (``{("en", "de"): eng-deu}``). The function-word lists are English: other source
            languages translate every word.
        max_terms: target words kept per source unit (Pirkola's balance, module doc step 4).
    """

    def __init__(self, dictionaries: Mapping[tuple[str, str], DictdDictionary], max_terms: int = 4) -> None:
        self.dictionaries = dict(dictionaries)
        self.max_terms = max_terms

    def lexicon(self, language: str) -> DictdDictionary | None:
        """A dictionary whose headwords are words of ``language`` (one *from* it), or ``None``."""
        return next((d for (s, _), d in sorted(self.dictionaries.items()) if s == language), None)

    def pairs(self) -> set[tuple[str, str]]:
        """The (source, target) language pairs with a dictionary."""
        return set(self.dictionaries)

    def translate(self, question: str, source: str, target: str,
                  vocabulary: Vocabulary | None = None) -> QueryTranslation | None:
        """``question`` (in ``source``) in ``target``; ``None`` without a dictionary for the pair or
        when nothing translates.

        Args:
            vocabulary: the searched documents' words; restricts and expands the translations
                (module doc, step 3). ``None``: translations as found.
        """
        dictionary = self.dictionaries.get((source, target))
        if dictionary is None:
            return None
        words = tokenize(question)
        stop = FUNCTION_WORDS.get(source, _FUNCTION)
        terms: list[tuple[str, tuple[str, ...]]] = []
        kept: list[str] = []
        i = 0
        while i < len(words):
            unit, found = self._unit(dictionary, words, i, stop)
            targets = self._targets(found, vocabulary) if found else ()
            if not targets and " " in unit:  # a phrase whose translations the documents do not use
                unit, found = self._unit(dictionary, words, i, stop, phrases=False)
                targets = self._targets(found, vocabulary) if found else ()
            n = len(unit.split())
            if targets and all(fold(w) in GENERIC_WORDS for w in unit.split()):
                targets = ()  # "travel insurance", "policy": the document's kind, not the topic
            if targets:
                terms.append((unit, targets))
            elif vocabulary is not None and words[i] in vocabulary and words[i] not in stop:
                kept.append(words[i])
            i += n
        if not terms:
            return None
        return QueryTranslation(target, tuple(terms), tuple(dict.fromkeys(kept)))

    def _unit(self, dictionary: DictdDictionary, words: Sequence[str], i: int, stop: frozenset[str],
              phrases: bool = True) -> tuple[str, list[str]]:
        """The longest dictionary unit starting at ``words[i]`` and its translations (phrases of 2–3
        words ending in a content word first, then the word in its base forms)."""
        if words[i] in stop or words[i].isdigit():
            return words[i], []
        for n in range(min(MAX_PHRASE, len(words) - i) if phrases else 1, 1, -1):
            run = words[i:i + n]
            if run[-1] in stop or run[-1] in _LIGHT:
                continue
            found = [t for e in dictionary.lookup(" ".join(run)) for t in entry_translations(e)]
            if found:
                return " ".join(run), found
        if words[i] in _LIGHT:
            return words[i], []
        for form in base_forms(words[i]):
            found = [t for e in dictionary.lookup(form) for t in entry_translations(e)]
            if found:
                return words[i], found
        return words[i], []

    def _targets(self, translations: Sequence[str], vocabulary: Vocabulary | None) -> tuple[str, ...]:
        """Target words of one unit: content words of its translations, matched against the
        vocabulary (exact and inflected forms first, then compounds by document frequency). Once a
        translation matched, later ones (further senses, rarer synonyms) add only their own word
        forms, no compounds: a compound of a second sense ("Kasse" → "Krankenkasse" for "cash") is
        more often another concept than the same one."""
        words = [w for t in translations for w in tokenize(t)]
        words = list(dict.fromkeys(w for w in words if w not in _FUNCTION and len(w) > 1))
        if vocabulary is None:
            return tuple(words[: self.max_terms])
        out: list[str] = []
        for w in words:
            out += [v for v in vocabulary.forms(w, compounds=not out) if v not in out]
            if len(out) >= self.max_terms:
                break
        return tuple(out[: self.max_terms])


class Vocabulary:
    """The words of the documents to be searched, with their document frequency, indexed for prefix
    and suffix lookups (sorted words and sorted reversed words, binary search).

    Args:
        df: word (lowercase) → number of chunks it occurs in.
    """

    def __init__(self, df: Mapping[str, int]) -> None:
        self.df = dict(df)
        self._words = sorted(self.df)
        self._reversed = sorted(w[::-1] for w in self.df)

    def __contains__(self, word: object) -> bool:
        return word in self.df

    def __len__(self) -> int:
        return len(self.df)

    def starting(self, prefix: str) -> list[str]:
        """Words that begin with ``prefix``."""
        return _run(self._words, prefix)

    def ending(self, suffix: str) -> list[str]:
        """Words that end with ``suffix``."""
        return [w[::-1] for w in _run(self._reversed, suffix[::-1])]

    def forms(self, word: str, limit: int = 3, compounds: bool = True) -> list[str]:
        """Words that are ``word`` inflected (:data:`INFLECTIONS`; exact only below
        :data:`MIN_COMPOUND_PART` letters) or, for longer words and with ``compounds``, compounds that
        begin or end with it (the remainder at least 3 letters); at most ``limit``, inflections first,
        then compounds by document frequency."""
        if len(word) < MIN_COMPOUND_PART:
            return [word] if word in self.df else []
        inflected = [word + s for s in INFLECTIONS if word + s in self.df]
        if not compounds:
            return inflected[:limit]
        ends = {v for s in INFLECTIONS for v in self.ending(word + s)}
        joined = [v for v in set(self.starting(word)) | ends
                  if v not in inflected and len(v) >= len(word) + 3]
        joined.sort(key=lambda v: (-self.df[v], v))
        return (inflected + joined)[:limit]


def _run(words: Sequence[str], prefix: str) -> list[str]:
    """The words of sorted ``words`` that begin with ``prefix``."""
    i = bisect.bisect_left(words, prefix)
    out = []
    while i < len(words) and words[i].startswith(prefix):
        out.append(words[i])
        i += 1
    return out
