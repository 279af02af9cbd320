"""Say what happened (issue 15, item 5) and stale sources are said (issue 16, item 5).

* :class:`core.notices.NoticedAnswerService` over the real answer service (fake embedder, real LanceDB):
  empty index, empty scope, an over-long message (its question answered, or the limit said), a question
  in a language the model does not cover (with a fixed language guess: the guesser is not the subject;
  one test uses the real py3langid guesser).
* The CLI: ``index`` of an empty folder names ``policies.include`` and the folder; a good PDF overwritten
  by a truncated copy keeps answering from its previous version and the answer says so (``ask --json``
  ``stale_sources``, the console rendering, and the Slack blocks).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.render import render_answer
from core.answer.extractive import ExtractiveAnswerer
from core.answering import PolicyAnswerService
from core.config import AnswerSettings, Settings
from core.embedder import FakeEmbedder
from core.notices import FixedGuesser, LangidGuesser, NoticedAnswerService
from core.retrieval import HybridRetriever
from core.types import Answer, Citation, StaleSource
from policybot.cli import cli
from tests.cli_helpers import LEAVE, REPO, policy_folder, write_config
from tests.retrieval_helpers import RETRIEVAL, add_document, new_store

GERMAN = "Wie viele Wochen Elternzeit bekommen Mütter nach der Geburt?"


def _noticed(tmp_path: Path, guesser: FixedGuesser | None = None, docs: bool = True,
             bar: float = 0.0) -> NoticedAnswerService:
    """The service under test; ``bar`` is ``answer.min_answerability`` (0: answer whatever the gates pass)."""
    store, emb = new_store(tmp_path), FakeEmbedder()
    if docs:
        add_document(store, emb, "hr/leave.md",
                     ["Mothers get 26 weeks of paid parental leave after the birth."])
    answerer = ExtractiveAnswerer(AnswerSettings(min_answerability=bar))
    service = PolicyAnswerService(HybridRetriever(store, emb, RETRIEVAL), answerer)
    return NoticedAnswerService(service, store, Settings(), guesser or FixedGuesser("en"))


def test_empty_index_is_said(tmp_path: Path) -> None:
    answer = _noticed(tmp_path, docs=False).ask("How long is parental leave?")
    assert not answer.found and "index is empty" in answer.answer and "policybot index" in answer.answer


def test_empty_scope_is_said_with_the_scope(tmp_path: Path) -> None:
    answer = _noticed(tmp_path).ask("How long is parental leave?", scope=("legal/**",))
    assert not answer.found and "legal/**" in answer.answer and answer.details["notice"] == "empty_scope"


def test_over_long_message_answers_its_question(tmp_path: Path) -> None:
    pasted = "Lorem ipsum dolor sit amet. " * 200
    answer = _noticed(tmp_path).ask(pasted + "How many weeks of parental leave do mothers get?")
    assert answer.found and "26 weeks" in answer.answer and "5,6" in answer.answer.split("\n")[0]
    assert "limit is 1,000" in answer.answer


def test_over_long_message_without_a_question_says_the_limit(tmp_path: Path) -> None:
    answer = _noticed(tmp_path).ask("word " * 1200)
    assert not answer.found and "up to 1,000 characters" in answer.answer


def test_question_in_an_uncovered_language_says_so(tmp_path: Path) -> None:
    # a refusal is forced (bar 0.99): the test is about the notice a refusal carries
    answer = _noticed(tmp_path, FixedGuesser("de", 0.99), bar=0.99).ask(GERMAN)
    assert not answer.found and "German" in answer.answer and "multilingual" in answer.answer
    assert "embedding.languages" in answer.answer


def test_unsure_language_guess_says_nothing(tmp_path: Path) -> None:
    answer = _noticed(tmp_path, FixedGuesser("de", 0.5)).ask(GERMAN)
    assert "multilingual" not in answer.answer


def test_real_guesser_tells_german_from_english() -> None:
    guesser = LangidGuesser()
    assert guesser.guess(GERMAN)[0] == "de"
    assert guesser.guess("How long is parental leave for mothers?")[0] == "en"


# ---- the CLI ------------------------------------------------------------------------------------------
def test_index_of_an_empty_folder_names_the_patterns_and_the_folder(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.xlsx").write_text("not a policy format")
    r = CliRunner().invoke(cli, ["--config", str(write_config(tmp_path, empty)), "index"])
    text = " ".join(r.stderr.split())
    assert r.exit_code == 0 and "no files matched policies.include" in text and str(empty) in text
    assert "*.pdf" in text


@pytest.fixture
def stale_pdf(tmp_path: Path) -> tuple[Path, Path]:
    """A PDF indexed, then overwritten by a truncated copy and indexed again (its row: failed)."""
    root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE})
    pdf = root / "insurance" / "health.pdf"
    pdf.parent.mkdir()
    shutil.copy2(REPO / "policies" / "insurance" / "group_health_summary.pdf", pdf)
    cfg = write_config(tmp_path, root)
    assert CliRunner().invoke(cli, ["--config", str(cfg), "index"]).exit_code == 0
    pdf.write_bytes(pdf.read_bytes()[: pdf.stat().st_size // 2])
    r = CliRunner().invoke(cli, ["--config", str(cfg), "index", "--json"])
    assert json.loads(r.stdout)["failed"] == 1
    return cfg, pdf


QUESTION = "What is the grace period for a missed premium payment?"


def test_answer_from_a_source_that_failed_to_reindex_says_so(stale_pdf: tuple[Path, Path]) -> None:
    cfg, _ = stale_pdf
    r = CliRunner().invoke(cli, ["--config", str(cfg), "ask", "--json", QUESTION])
    data = json.loads(r.stdout)
    assert "31 days" in data["answer"] and data["citations"][0]["file"] == "insurance/health.pdf"
    (stale,) = data["stale_sources"]
    assert stale["file"] == "insurance/health.pdf" and stale["reason"] and stale["changed_at"] > 0
    text = " ".join(CliRunner().invoke(cli, ["--config", str(cfg), "ask", QUESTION]).stdout.split())
    assert "insurance/health.pdf changed on" in text and "this answer uses the previous version" in text


def test_slack_rendering_shows_the_stale_notice_under_the_sources() -> None:
    stale = StaleSource("policy.pdf", 1_780_000_000.0, "damaged PDF (no end-of-file marker)")
    answer = Answer("The grace period is 31 days. [1]", [Citation("policy.pdf", 4, "Premiums", 0.9)],
                    "extractive", stale_sources=[stale])
    blocks = [b for m in render_answer(answer) for b in m.blocks]
    texts = [json.dumps(b) for b in blocks]
    sources = next(i for i, t in enumerate(texts) if "Sources" in t)
    notice = next(i for i, t in enumerate(texts) if "could not be read" in t)
    assert notice > sources and "policy.pdf changed on" in texts[notice]
    assert "this answer uses the previous version" in texts[notice]
