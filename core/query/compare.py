"""Is a question a comparison or a multi-document question?

Such questions need passages from several documents ("How do the two health plans differ on
acupuncture?", "Which of our insurance policies covers cataract surgery?"), so retrieval spreads its
kept chunks over documents (:mod:`core.diversity`) instead of keeping the five best chunks of one.

General rules, after the cue-word and pattern approach of comparative-sentence identification
(Jindal & Liu, "Identifying Comparative Sentences in Text Documents", SIGIR 2006), with no words of
any one corpus:

1. **Two or more documents named** (the caller passes how many documents the question names, from
   :mod:`core.query.doc_scope`).
2. **A comparison verb or noun**: compare / comparison / comparing, versus / vs / vs., differ /
   differs / difference(s), distinguish, contrast.
3. **A choice among documents**: "which" followed within four words (or "what" within two words
   by a plural) by a document noun
   (plan, policy, insurer, option, product, scheme, …: :data:`DOC_NOUNS`) — "which plan covers…",
   "which of the policies…", "what insurance options…"; or a quantifier over a plural document noun:
   "both plans", "either policy", "each of the plans", "all (of) our policies", "any of the
   insurers", "the two/three plans", with up to two words between ("both health plans", "our two
   travel policies").
4. **"between X and Y"** together with a document noun or a named document ("the difference between
   the Standard and the Plus plan").

A question about one named document is never a comparison by rules 3–4 alone when it names exactly
one document and no comparison word (rule 2): "which option of Sunrise Health …" stays in that
document (the document scope already confines it, so diversity would have nothing to spread).
"""

from __future__ import annotations

import re

from core.query.text import word_list

DOC_NOUNS = ("plan", "plans", "policy", "policies", "insurer", "insurers", "insurance", "insurances",
             "option", "options", "product", "products", "scheme", "schemes", "provider", "providers",
             "company", "companies", "wording", "wordings", "handbook", "handbooks", "program",
             "programs", "programme", "programmes", "package", "packages", "tier", "tiers")
"""Nouns that name a kind of policy document (singular and plural). Not "document(s)" ("which
documents do I need to submit") nor "cover(s)" (a verb too)."""
_MODIFIED = word_list("year years period periods term terms holder holders number schedule wording limit "
                      "limits conditions document documents details benefit benefits premium premiums")
_NOT_A_DOCUMENT = r"(?!\s+(?:" + "|".join(_MODIFIED) + r")\b)"
"""A document noun used as a modifier names no document: "each policy year", "which plan benefits"."""
_PLURALS = tuple(n for n in DOC_NOUNS if n.endswith("s") and n != "insurance")
_NOUN = "(?:" + "|".join(DOC_NOUNS) + ")" + _NOT_A_DOCUMENT
_PLURAL = "(?:" + "|".join(_PLURALS) + ")" + _NOT_A_DOCUMENT
_SINGULAR = "(?:plan|policy|insurer|option|product|scheme|provider|company|programme|program|package)"

COMPARE_WORDS = re.compile(
    r"\b(?:compare[sd]?|comparing|comparison|comparisons|versus|vs\.?|differ|differs|differing|"
    r"difference|differences|distinguish(?:es)?|contrast)\b", re.IGNORECASE)
"""Rule 2."""
WHICH_DOC = re.compile(rf"\bwhich\b(?:\W+\w+){{0,4}}?\W+{_NOUN}\b|\bwhat\b(?:\W+\w+){{0,2}}?\W+{_PLURAL}\b",
                       re.IGNORECASE)
"""Rule 3, first half: "which plan", "which of the policies", "what insurance options"."""
QUANTIFIED = re.compile(
    rf"\b(?:both|either|neither|each|all|any|two|three|several|multiple|various)\b(?:\s+(?:of|the|our|"
    rf"your|my|these|those))*(?:\s+[\w-]+){{0,2}}?\s+(?:{_PLURAL}|{_SINGULAR}{_NOT_A_DOCUMENT})\b",
    re.IGNORECASE)
"""Rule 3, second half: "both plans", "either policy", "each of the plans", "all our policies"."""
BETWEEN = re.compile(r"\bbetween\b.+\band\b", re.IGNORECASE)
"""Rule 4 (with a document noun or a named document)."""
_HAS_NOUN = re.compile(rf"\b{_NOUN}\b", re.IGNORECASE)


def is_comparison(question: str, named_documents: int = 0) -> bool:
    """Whether ``question`` compares documents or asks which of several covers something.

    Args:
        question: the (standalone) question.
        named_documents: how many distinct documents the question names (0 when unknown).

    Returns:
        True by any rule of the module doc; False for a question about one named document unless it
        uses a comparison word.
    """
    if named_documents >= 2:
        return True
    if COMPARE_WORDS.search(question):
        return True
    if named_documents == 1:
        return False
    if WHICH_DOC.search(question) or QUANTIFIED.search(question):
        return True
    return bool(BETWEEN.search(question) and _HAS_NOUN.search(question))
