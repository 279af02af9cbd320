"""Citations that are right (issue 11, item 9), over every answer of the qa_dev eval (extractive
answerer, offline reranker, the session index of the gold files): the cited page's extracted text
contains each quoted sentence, and each cited section is a real heading of its document
(:mod:`tests.citation_check`). Target: 100 %.

Wrong citations are printed per answer (``pytest -s``), with the count of right checks (also run over
an index built elsewhere by ``bench/citation_check.py``). 674 of 674 right on wip-cite2 (a lead-in
ending with ":" whose list items start on the next page is cited with both pages; chunks found through
the dictionary translation keep their ``page_breaks``).
"""

from __future__ import annotations

import pytest

from core.eval import EvalResult
from tests.citation_check import check_eval
from tests.conftest import QAIndex

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def problems(qa_index: QAIndex, qa_eval: EvalResult) -> tuple[list[str], int]:
    """``(problems, checks)`` over every answer of the eval run (:func:`tests.conftest.qa_eval`, shared
    with the eval floors), one line per wrong citation (:func:`tests.citation_check.check_eval`)."""
    out, checks = check_eval(qa_eval, qa_index.settings)
    print("\n".join(out))
    print(f"citation checks: {checks - len(out)} of {checks} right")
    return out, checks


def test_every_cited_page_holds_its_quote_and_every_section_is_a_heading(
        problems: tuple[list[str], int]) -> None:
    found, checks = problems
    assert checks > 0
    assert found == []
