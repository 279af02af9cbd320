"""The text of a refusal: what the policies do not state, and the closest passages they do have.

"The Acme Travel Policy does not state the per-kilometre rate. The closest passages: “Travel | $500 per
trip | …” [1]; “Use the most economical means of transport …” [2]. If you need this, ask HR or the
policy owner." — the missing thing comes from the question's identifiers ("Plan D"), its expected
answer type and focus phrase (:mod:`core.answer.answer_type`), the document from the one the question
names (else the closest passage's); the passages are the best-scoring units of distinct sources, cited
with ``[n]`` markers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from core.answer.answer_type import PLACEHOLDER
from core.answer.binding import title_of, written_names
from core.answer.evidence import Evidence, ScoredUnit
from core.llm.base import GenerationRequest

NOT_FOUND_TEXT = (
    "I couldn't find this in the policies. Try rephrasing the question, or ask HR / the policy owner."
)
NEAREST = 2
"""Closest passages quoted in a refusal (from distinct sources)."""
QUOTE_CHARS = 220
KIND_PHRASES = {"money": "an amount", "percentage": "a percentage", "duration": "a time period",
                "date": "a date", "count": "a number", "phone": "a phone number",
                "email": "an e-mail address", "url": "a web address"}


def refusal(evidence: Evidence, request: GenerationRequest) -> tuple[str, list[int]]:
    """``(text, cited source numbers)`` of a refusal for ``request`` (see the module doc)."""
    nearest = nearest_units(evidence.ranked)
    if not nearest:
        return NOT_FOUND_TEXT, []
    named = [sc for sc in request.sources if sc.scores.get("named_doc") == 1.0]
    doc = document_name((named[0] if named else request.sources[nearest[0].unit.source - 1]).chunk.path)
    titles = [title_of(sc.chunk.context, sc.chunk.path) for sc in request.sources]
    head = _missing(evidence, doc, bool(named), written_names(request.question, titles))
    quotes = "; ".join(f"“{_clip(u.unit.text)}” [{u.unit.source}]" for u in nearest)
    tail = "If you need this, ask HR or the policy owner."
    return f"{head} The closest passages: {quotes}. {tail}", [u.unit.source for u in nearest]


def nearest_units(ranked: Sequence[ScoredUnit]) -> list[ScoredUnit]:
    """The best units of up to :data:`NEAREST` distinct sources."""
    out: list[ScoredUnit] = []
    for s in ranked:
        if all(s.unit.source != o.unit.source for o in out):
            out.append(s)
        if len(out) == NEAREST:
            break
    return out


def document_name(path: str) -> str:
    """A readable name of the document at ``path``: ``hr/Acme_Travel_Policy.docx`` → "the Acme
    Travel Policy"; a code-like name (``GLXHLIP01V0001.pdf``) stays a file name."""
    stem = PurePosixPath(path).stem
    words = re.sub(r"[_\-]+", " ", stem).strip()
    if not words or re.fullmatch(r"[A-Z0-9 ]+", words) and not re.search(r"[A-Z]{2,}\s+[A-Z]{2,}", words):
        return f"the document {PurePosixPath(path).name}"
    return words if words.lower().startswith("the ") else f"the {words}"


def _missing(evidence: Evidence, doc: str, named: bool = False, names: str = "") -> str:
    """The first sentence of a refusal: what is missing, and where when the question names the
    document ("The Travel Policy does not state the per-mile rate."), else "I couldn't find the
    per-mile rate in the policies."; when the name gate closed (:mod:`core.answer.binding`), the
    organisation or product no passage is about (``names``)."""
    atype = evidence.answer_type
    if evidence.signals.get("named_doc", 1.0) == 0.0 and not named:
        return ("None of the passages I found comes from the document you name; it may be outside the "
                "documents searched here.")
    if evidence.missing_ids:
        return f"{_cap(doc)} does not mention {', '.join(evidence.missing_ids)}."
    if evidence.signals.get("name_bound", 1.0) == 0.0 and names and not named:
        return f"None of the passages I found that could answer this is about {names}."
    if atype.needs_value and not evidence.signals.get("type_ok"):
        what = atype.focus or KIND_PHRASES.get(atype.kind, "that")
        placeholder = next((m.group(0) for u in evidence.ranked[:3]
                            if (m := PLACEHOLDER.search(u.unit.text))), None)
        note = f" (it has only the template placeholder {placeholder})" if placeholder else ""
        return f"{_cap(doc)} does not state {what}{note}."
    about = f"anything about “{evidence.focus}”" if evidence.focus else ""
    what = atype.focus or about or KIND_PHRASES.get(atype.kind, "")
    if what and named:
        return f"{_cap(doc)} does not {'say' if what == about else 'state'} {what}."
    return f"I couldn't find {what or 'an answer to this'} in the policies."


def _clip(text: str) -> str:
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1].rsplit(" ", 1)[0] + " …"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
