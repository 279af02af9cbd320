"""``policybot eval``: run a QA set through an answer service and measure it.

Data flow: QA YAML → :func:`~core.eval.dataset.load_qa` (items, parents before follow-ups) →
:func:`~core.eval.runner.run_eval` (asks each item through the
:class:`~core.service.AnswerService`, follow-ups with their parent's Q/A as history) →
:class:`~core.eval.runner.EvalResult` (per-item records + aggregates from :mod:`core.eval.metrics`)
→ :func:`~core.eval.report.to_json` / :func:`~core.eval.report.render_report` (markdown) /
:func:`~core.eval.report.write_chart` (PNG).

Gold ``sources[].file`` paths are relative to the folder the QA set describes (for
``../shared/corpus/qa_dev.yaml``: ``shared/corpus``). Citations carry paths relative to
``policies.root``, so the index must be built with ``policies.root`` set to that folder for the
paths to match.
"""

from core.eval.dataset import QAItem, QASource, load_context, load_qa
from core.eval.runner import EvalResult, ItemResult, run_eval, setup_notes

__all__ = ["EvalResult", "ItemResult", "QAItem", "QASource", "load_context", "load_qa", "run_eval",
           "setup_notes"]
