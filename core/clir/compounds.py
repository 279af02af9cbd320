"""Frequency-based compound splitting of the searched documents' words (German and kin).

German writes compounds as one word: a clause about the costs incurred "vor der Fallanmeldung"
(before the case was reported) holds no token ``fall``, so the translated concept "case" →
``fall`` cannot match it. Following Koehn & Knight, "Empirical Methods for Compound Splitting"
(EACL 2003, §3), a word is split into parts that are themselves words of the language, each part at
least :data:`MIN_PART` letters, optionally joined by a linking element (*Fugenelement*: "s", "es",
"n", "en"; K&K §3 allow "s" and "es"; Langer 1998 lists "n" and "en" too), and among the possible
splits the one with the highest geometric mean of its parts' frequencies wins (K&K eq. 1). A part
counts as a word when it is in the documents' own vocabulary or a headword of the language's
dictionary (the FreeDict dictionary *from* that language, e.g. ``freedict-deu-eng``), in both
cases also after an inflectional ending is stripped ("leistungen" → "leistung").

Unlike K&K's translation setting, the compound is kept and its parts are *added* next to it in the
BM25 index (Braschler & Ripplinger, "How effective is stemming and decompounding for German text
retrieval?", Information Retrieval 7, 2004: indexing both word and parts works best), so the split
can only add matches: "Fallanmeldung" is indexed as ``fallanmeldung``, ``fall`` and ``anmeldung``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

MIN_WORD = 8
"""Words shorter than this are not split (two parts of :data:`MIN_PART` letters)."""
MIN_PART = 4
"""Shortest part: K&K use 3 letters with a frequency filter; 4 keeps "Tag"/"Bus"-like parts of a
short word from splitting common words into noise ("Beratung" → "bera" + "tung" never happens)."""
LINKS = ("", "s", "es", "n", "en")
"""Linking elements between two parts (K&K §3; Langer 1998)."""
ENDINGS = ("", "e", "en", "n", "s", "es", "er", "ern", "em")
"""Inflectional endings stripped before a part is looked up (the same as the translator's)."""
MAX_PARTS = 3


class CompoundSplitter:
    """Splits words into their parts (module doc).

    Args:
        frequency: word (lowercase) → count in the documents (document frequency); a part's K&K
            frequency, and the documents' own vocabulary of known words.
        is_word: whether a lowercase string is a word of the language (a dictionary headword);
            ``None``: the documents' vocabulary only.
    """

    def __init__(self, frequency: Mapping[str, int], is_word: Callable[[str], bool] | None = None) -> None:
        self.frequency = frequency
        self.is_word = is_word
        self._known: dict[str, bool] = {}
        self._splits: dict[str, tuple[str, ...]] = {}

    def parts(self, word: str) -> tuple[str, ...]:
        """The parts of ``word`` (lowercase) in order, ``()`` when it is no compound:
        ``"fallanmeldung"`` → ``("fall", "anmeldung")``."""
        if len(word) < MIN_WORD or not word.isalpha():
            return ()
        found = self._splits.get(word)
        if found is None:
            found = self._splits[word] = self._best(word, MAX_PARTS)
        return found

    def _best(self, word: str, budget: int) -> tuple[str, ...]:
        """The split of ``word`` into 2..``budget`` known parts with the highest geometric mean of
        part frequencies (+1 smoothing); ``()`` when none."""
        best: tuple[float, tuple[str, ...]] = (-1.0, ())
        for i in range(MIN_PART, len(word) - MIN_PART + 1):
            head, rest = word[:i], word[i:]
            if not self._known_part(head):
                continue
            for link in LINKS:
                if not rest.startswith(link) or len(rest) - len(link) < MIN_PART:
                    continue
                tail = rest[len(link):]
                options: list[tuple[str, ...]] = [(tail,)] if self._known_part(tail) else []
                if budget > 2 and len(tail) >= MIN_WORD:
                    options += [t for t in (self._best(tail, budget - 1),) if t]
                for split in options:
                    score = self._score((head, *split))
                    if score > best[0]:
                        best = (score, (head, *split))
        return best[1]

    def _score(self, parts: tuple[str, ...]) -> float:
        """K&K's geometric mean of the parts' frequencies (each + 1)."""
        return math.exp(sum(math.log(self.frequency.get(p, 0) + 1) for p in parts) / len(parts))

    def _known_part(self, part: str) -> bool:
        """Whether ``part`` (or it without an inflectional ending) is a word (module doc)."""
        known = self._known.get(part)
        if known is None:
            forms = [part[: len(part) - len(e)] for e in ENDINGS if part.endswith(e)]
            forms = [f for f in forms if len(f) >= MIN_PART]
            known = any(f in self.frequency for f in forms) or (
                self.is_word is not None and any(self.is_word(f) for f in forms))
            self._known[part] = known
        return known
