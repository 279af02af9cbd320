"""An index of the words of every document's title text, for document scoping's title fallback.

:func:`core.query.doc_scope._named_in_titles` tests a product name of the question ("Silver Harbour
Plan") only on the titles that hold 2+ of its words as substrings of their lowercased text (the title
text and its :func:`~core.query.text.normalise_numbers` form). Testing that on every title was linear
in the number of documents: 62 % of the retrieval path at 20,000 documents (docs/benchmarks.md). This
index answers the same question from postings:

- a word made only of word characters other than ``_`` (what ``[^\\W_]+`` matches, which is how the
  name's words are cut) can only occur inside one maximal ``[^\\W_]+`` run of the title text, so the
  titles containing it as a substring are the postings of the title tokens (those runs) that contain
  it: one scan of the *vocabulary* (distinct title tokens, which grows far slower than the number of
  documents: Heaps' law), cached per word;
- any other word (e.g. one whose lowercase form gained a combining mark) falls back to the scan of
  every title, so the answer is always the one the scan gives.

Built once per document catalog (core/scoping.py rebuilds the catalog only when an indexed document
changed): O(title tokens). Lookups: O(vocabulary) for a new word, O(1) for a seen one, plus the
postings.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.query.exact import ExactTerm

_RUN = re.compile(r"[^\W_]+")
MAX_CACHED_WORDS = 20_000
"""Words whose title sets are kept (the cache is emptied when it grows past this)."""


def name_anchors(term: ExactTerm) -> frozenset[str] | None:
    """The words every match of the name ``term``'s pattern starts with — the words of its
    :func:`~core.query.text.normalise_numbers` text, each alternative of the pattern being a run of
    them (:func:`core.query.exact._name_pattern`) — or ``None`` when the pattern is not that one (a
    case-sensitive or other term: search it whole)."""
    from core.query.exact import _name_pattern
    from core.query.text import normalise_numbers

    if term.kind != "name" or term.case_sensitive or term.pattern.pattern != _name_pattern(term.text).pattern:
        return None
    return frozenset(_RUN.findall(normalise_numbers(term.text))) or None


def anchored_search(pattern: re.Pattern[str], anchors: frozenset[str], text: str) -> bool:
    """``pattern.search(text) is not None`` when every match of ``pattern`` starts with one of
    ``anchors``: the pattern is only tried (``match`` at a position; its look-behind still sees the
    text before it) where an anchor occurs, found by ``str.find``, instead of at every position of a
    title of thousands of characters."""
    for anchor in anchors:
        at = text.find(anchor)
        while at >= 0:
            if pattern.match(text, at) is not None:
                return True
            at = text.find(anchor, at + 1)
    return False


@dataclass
class TitleWords:
    """Postings of the lowercased title tokens.

    Attributes:
        normalised: path → :func:`~core.query.text.normalise_numbers` of its title text (what a name's
            regex is searched in).
        lowered: path → the title text and its normalised form, lowercased (what a word is looked for in).
        postings: title token (a maximal ``[^\\W_]+`` run of ``lowered``) → the paths holding it.
    """

    normalised: dict[str, str]
    lowered: dict[str, str]
    postings: dict[str, set[str]]
    _vocabulary: list[str] = field(default_factory=list)
    _found: dict[str, frozenset[str]] = field(default_factory=dict)
    _named: dict[tuple[str, str, bool], tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def build(cls, titles: Mapping[str, str]) -> TitleWords:
        """The index of ``titles`` (path → title text)."""
        from core.query.text import normalise_numbers

        normalised = {p: normalise_numbers(t) for p, t in titles.items()}
        lowered = {p: f"{t}\n{normalised[p]}".lower() for p, t in titles.items()}
        postings: dict[str, set[str]] = defaultdict(set)
        for path, text in lowered.items():
            for token in set(_RUN.findall(text)):
                postings[token].add(path)
        return cls(normalised, lowered, dict(postings), sorted(postings))

    def containing(self, word: str) -> frozenset[str]:
        """The paths whose lowered title text contains ``word`` (lowercase) as a substring."""
        found = self._found.get(word)
        if found is None:
            if word and _RUN.fullmatch(word):
                found = frozenset(p for t in self._vocabulary if word in t for p in self.postings[t])
            else:  # not a single run: it may span runs, so test every title
                found = frozenset(p for p, text in self.lowered.items() if word in text)
            if len(self._found) >= MAX_CACHED_WORDS:
                self._found.clear()
            self._found[word] = found
        return found

    def matching(self, term: ExactTerm, found_in: Callable[[str], bool]) -> tuple[str, ...]:
        """The paths whose title holds 2+ words of the name ``term`` (all of a 2-word name; the words
        are cut from ``term.text`` by ``[^\\W_]+``) and where ``found_in(path)`` (the name's regex on
        the title) is true, sorted; remembered per name (its text and pattern), so a name asked again,
        or by the other catalog of the same titles, costs a lookup."""
        key = (term.text, term.pattern.pattern, term.case_sensitive)
        found = self._named.get(key)
        if found is None:
            words = [w.lower() for w in _RUN.findall(term.text)]
            anchors = name_anchors(term)
            test = found_in if anchors is None else (
                lambda p: anchored_search(term.pattern, anchors, self.normalised[p]))
            found = tuple(p for p in self.holding(words, min(2, len(words))) if test(p))
            if len(self._named) >= MAX_CACHED_WORDS:
                self._named.clear()
            self._named[key] = found
        return found

    def holding(self, words: Sequence[str], need: int) -> list[str]:
        """The paths whose lowered title text contains at least ``need`` of ``words`` (lowercase; a
        repeated word counts each time, as ``sum(w in text for w in words)`` does), sorted."""
        if need <= 0:  # a name without words: every title passes the pre-check
            return sorted(self.lowered)
        counts: Counter[str] = Counter()
        for word in words:
            counts.update(self.containing(word))
        return sorted(p for p, n in counts.items() if n >= need)
