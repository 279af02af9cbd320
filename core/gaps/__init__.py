"""The knowledge-gap report for policy owners (``policybot gaps``, the weekly owner post).

- :mod:`core.gaps.signals` — which logged questions are gaps (declined, low answerability, 👎, re-asked);
- :mod:`core.gaps.cluster` — grouping them by meaning (average-linkage clustering at a threshold);
- :mod:`core.gaps.report` — the report dataclasses and :func:`build_report`;
- :mod:`core.gaps.render` — JSON and markdown;
- :mod:`core.gaps.jobs` — the :class:`Notifier` protocol and the weekly job;
- :mod:`core.gaps.calibration` — choosing ``gaps.similarity_threshold`` on labelled paraphrase groups.

No Slack imports: the Slack notifier and renderings live in ``bot/gaps.py`` and ``bot/home_admin.py``.
"""

from core.gaps.jobs import Notifier, OwnerDigest, WeeklyGapJob, digests, load_latest, save_latest
from core.gaps.render import render_markdown, to_json
from core.gaps.report import DocRef, GapGroup, GapReport, ReportInputs, build_report
from core.gaps.signals import SignalRules

__all__ = ["DocRef", "GapGroup", "GapReport", "Notifier", "OwnerDigest", "ReportInputs", "SignalRules",
           "WeeklyGapJob", "build_report", "digests", "load_latest", "render_markdown", "save_latest",
           "to_json"]
