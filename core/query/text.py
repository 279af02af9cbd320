"""Name matching for the query stages (document names, product names), built on :mod:`core.text`.

Numbers, tokens and stop words live in :mod:`core.text` (the one text module); this module re-exports
the names the query stages have always imported from here and adds what is specific to matching
document and product names: :func:`name_tokens` and :data:`GENERIC_WORDS`.
"""

from __future__ import annotations

from core.text import STOP_WORDS, fold, normalise_numbers, tokenize, word_list, words_value

__all__ = ["GENERIC_WORDS", "STOPWORDS", "fold", "name_tokens", "normalise_numbers", "word_list",
           "word_tokens", "words_value"]

STOPWORDS = STOP_WORDS
"""Function words ignored when matching names (:data:`core.text.STOP_WORDS`)."""
word_tokens = tokenize
"""Lowercased NFKC word tokens (:func:`core.text.tokenize`)."""


def name_tokens(text: str) -> tuple[str, ...]:
    """Tokens for name matching: :func:`word_tokens` with "&" read as "and", :data:`STOPWORDS`
    dropped and each token :func:`fold` ed. ``"Benefits & Perks"`` → ``("benefit", "perk")``."""
    return tuple(fold(t) for t in word_tokens(text.replace("&", " and ")) if t not in STOPWORDS)


GENERIC_WORDS = frozenset(fold(w) for w in word_list(
    "policy policies insurance insurer insured assurance plan plans health healthcare care medical "
    "mediclaim cover coverage benefit benefits option options details detail wording wordings document "
    "documents terms conditions condition service services general national global group family "
    "individual employee employees staff people handbook guide manual procedure procedures claim claims "
    "company co ltd limited inc llc plc ag gmbh corporation corp india indian united standard basic plus "
    "premium product scheme add addon rider travel domestic international perks perk office issuing "
    "registered corporate head regd premises preamble contents index definitions introduction overview "
    "schedule table page version edition summary information faq new annual base "
    "january february march april may june july august september october november december "
    "versicherung versicherungen bedingungen allgemeine avb ausgabe grundlagen inhaltsverzeichnis"
))
"""Words that never name a document on their own: "policy", "insurance", "plan", "health", company
suffixes, front-matter headings (folded with :func:`fold`). A name made only of these is ignored."""
