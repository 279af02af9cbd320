"""``policybot eval QA --calibrate``: wiring of :mod:`core.eval.calibrate` to the app (see there for
the method). Writes ``core/calibration.json``, the ``answer.min_answerability`` default in the
source tree's ``config.yaml`` and ``core/config.py``, and the report (default
``docs/eval/calibration.md`` + PNG)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from rich.console import Console

import core
from core.calibration import CALIBRATION_PATH
from core.errors import PolicybotError
from core.eval import calibrate as cal
from core.eval import calibration_report
from core.eval.dataset import QAItem
from core.rerank.offline import OfflineReranker
from core.retrieval import HybridRetriever
from core.scoping import DocumentScoper
from policybot.factory import App

SOURCE = Path(core.__file__).resolve().parents[1]
"""The source tree whose defaults the calibration rewrites."""


def run_calibration(app: App, items: Sequence[QAItem], channels: Mapping[str, Sequence[str]], qa: Path,
                    report: Path | None) -> None:
    """Fit, save and report (raises PolicybotError when the setup cannot be calibrated)."""
    console = Console(stderr=True)
    config_files = [SOURCE / "config.yaml", SOURCE / "core" / "config.py"]
    missing = [str(p) for p in config_files if not p.is_file()]
    if missing:
        raise PolicybotError(f"--calibrate rewrites the source tree's defaults, but {', '.join(missing)} "
                             "is missing; run it from a source checkout (pip install -e .)")
    if not isinstance(app.reranker, OfflineReranker):
        raise PolicybotError("--calibrate fits the offline reranker's scaling; set rerank.provider: offline")
    settings = app.settings
    depth = settings.rerank.candidates
    scoper = DocumentScoper(app.store) if settings.retrieval.document_scope else None
    retriever = HybridRetriever(app.store, app.embedder, settings.retrieval, reranker=app.reranker,
                                rerank=settings.rerank.model_copy(update={"keep": depth}), scoper=scoper)
    console.print("calibrating the offline reranker …")
    rerank_samples = cal.reranker_samples(retriever, items, channels, depth)
    platt = cal.fit_platt(rerank_samples)
    cal.save_calibration(cal.Calibration(platt, None, {"qa": str(qa)}))
    console.print(f"reranker: {len(rerank_samples)} candidates; asking {len(items)} items "
                  "(+ counterfactuals) …")
    indexed = sorted(p for p, rec in app.store.documents().items() if rec.status == "indexed")
    samples = cal.answerability_samples(app.service, items, channels, indexed)
    try:
        fit = cal.fit_answerability(samples)
    except ValueError as exc:
        raise PolicybotError(f"{qa}: cannot calibrate answerability: {exc}") from None
    cal.save(fit, platt, {"qa": str(qa), "reranker": app.reranker.name}, config_files)
    md, png = calibration_report.write(fit, platt, rerank_samples, str(qa),
                                       report or SOURCE / "docs" / "eval" / "calibration.md")
    console.print(f"threshold {fit.threshold}; calibration: {CALIBRATION_PATH}; report: {md}  "
                  f"chart: {png}")
