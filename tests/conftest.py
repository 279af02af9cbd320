"""Session-wide fixtures shared by test modules.

``qa_index``: the whole of ``../shared/corpus`` (the corpus ``qa_dev.yaml`` describes, the same index
the issue-11 eval is measured on) indexed with the REAL embedding model into a data folder kept
between test runs (``.pytest_cache/qa-index``, see :data:`QA_INDEX_DIR`): the first run builds it
(a few minutes), later runs reconcile it (unchanged files are skipped; a changed chunking or
embedding config rebuilds it through the shadow rebuild). The corpus is read in place, never copied
into the repo.

``qa_eval``: the issue-11 eval over all of ``qa_dev.yaml`` on that index (offline reranker, extractive
answerer, golden items in their ``docs/eval/qa_dev_context.yaml`` channel), run once per session and
shared by the eval floors and the citation check (one run: ~17 s on CI), configured as the eval floors
were (cross-language retrieval included).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from core.config import Settings, load_config
from policybot.factory import App
from tests.s3_server import BUCKET as S3_BUCKET
from tests.s3_server import SeaweedS3

if TYPE_CHECKING:
    from core.eval import EvalResult

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
QA_DEV = CORPUS / "qa_dev.yaml"

QA_CONTEXT = REPO / "docs" / "eval" / "qa_dev_context.yaml"
QA_INDEX_DIR = REPO / ".pytest_cache" / "qa-index"
"""Where the whole-corpus test index lives between runs (gitignored; delete it to rebuild from scratch)."""


@dataclass(frozen=True)
class QAIndex:
    """The indexed gold subset: the app built on it and the reconcile summary."""

    app: App
    settings: Settings
    summary: object


@pytest.fixture(scope="session")
def qa_index() -> Iterator[QAIndex]:
    """The whole shared corpus, indexed (or reconciled) once per session (real embedder, config.yaml,
    reranker off: tests that measure reranking build their own)."""
    if not QA_DEV.is_file():
        pytest.fail(f"{QA_DEV} is missing: the shared corpus must sit next to the repo")
    settings = load_config(REPO / "config.yaml", data_dir=QA_INDEX_DIR, policy_root=CORPUS)
    settings = settings.model_copy(update={"rerank": settings.rerank.model_copy(update={"enabled": False})})
    app = App(settings)
    summary = app.indexer.reconcile(CORPUS)
    try:
        yield QAIndex(app, settings, summary)
    finally:
        app.close()


@pytest.fixture(scope="session")
def qa_eval(qa_index: QAIndex) -> EvalResult:
    """The eval run once over every ``qa_dev.yaml`` item: offline reranker + extractive answerer over
    the whole-corpus index (deterministic for a given index and calibration)."""
    out = run_qa_eval(qa_index.app, qa_index.settings)
    for r in out.items:
        rank = next((i + 1 for i, hit in enumerate(r.relevant) if hit), None)
        print(f"{r.item.id:10} found={r.answer is not None and r.answer.found} rank={rank} "
              f"facts={len(r.facts_found)}/{len(r.facts_found) + len(r.facts_missed)}")
    return out


def run_qa_eval(app: App, settings: Settings) -> EvalResult:
    """The issue-11 eval over every ``qa_dev.yaml`` item on ``app``'s index: offline reranker,
    extractive answerer, golden items in their ``docs/eval/qa_dev_context.yaml`` channel (also run by
    ``bench/citation_check.py`` over an index built elsewhere)."""
    from core.answer.extractive import ExtractiveAnswerer
    from core.answering import PolicyAnswerService
    from core.eval import load_context, load_qa, run_eval
    from core.rerank.offline import OfflineReranker
    from core.retrieval import HybridRetriever
    from core.scoping import DocumentScoper

    retriever = HybridRetriever(app.store, app.embedder, settings.retrieval,
                                reranker=OfflineReranker(app.embedder), rerank=settings.rerank,
                                scoper=DocumentScoper(app.store), cross=app.cross_language,
                                cross_vector=settings.lexicon.cross_language_vector)
    cross = app.cross_language
    answerer = ExtractiveAnswerer(settings.answer, app.embedder, settings.retrieval.glossary,
                                  translator=cross.translator if cross is not None else None)
    service = PolicyAnswerService(retriever, answerer)
    return run_eval(service, load_qa(QA_DEV), channels=load_context(QA_CONTEXT))


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SeaweedS3]:
    """A real S3-compatible server (SeaweedFS ``weed mini``) on 127.0.0.1 for the whole session."""
    with SeaweedS3(tmp_path_factory.mktemp("seaweed")) as server:
        yield server


@pytest.fixture
def s3_env(s3_server: SeaweedS3, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """This test's process environment pointing object-store clients at :func:`s3_server`."""
    env = s3_server.env()
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


@pytest.fixture
def s3_uri(s3_env: dict[str, str]) -> str:
    """A fresh ``s3://bucket/prefix`` data dir on :func:`s3_server` (environment already set)."""
    return f"s3://{S3_BUCKET}/t-{uuid.uuid4().hex[:12]}"
