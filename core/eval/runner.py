"""Runs a QA set through an :class:`~core.service.AnswerService` and scores every item.

Follow-ups are asked after their parent, in the same conversation: the history passed to
``service.ask`` is the parent's own history plus the parent's question and answer
(:class:`~core.types.Turn`). A failing ``ask`` is recorded on its item and the run goes on.
"""

from __future__ import annotations

import fnmatch
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from core.eval import metrics as m
from core.eval.dataset import KINDS, QAItem, load_qa
from core.service import AnswerService
from core.types import Answer, Turn

log = logging.getLogger(__name__)

KS = (1, 3, 5)


@dataclass(frozen=True)
class ItemResult:
    """One item's outcome.

    Attributes:
        item: the QA item.
        answer: the service's answer; ``None`` when ``ask`` raised (then ``error`` says why).
        relevant: per retrieved citation (best first), whether it covers a gold source.
        facts_found / facts_missed: key facts present / absent in the answer text.
        ndcg_at_5: nDCG@5 of the retrieved citations (0.0 when nothing was retrieved).
        wall_ms: wall-clock time of the ``ask`` call in ms.
    """

    item: QAItem
    answer: Answer | None
    relevant: tuple[bool, ...] = ()
    facts_found: tuple[str, ...] = ()
    facts_missed: tuple[str, ...] = ()
    ndcg_at_5: float = 0.0
    wall_ms: float = 0.0
    error: str | None = None

    @property
    def scores_retrieval(self) -> bool:
        """Retrieval metrics apply: the item has gold sources and expects an answer."""
        return bool(self.item.sources) and not self.item.expects_refusal

    @property
    def key_fact_recall(self) -> float | None:
        """Share of key facts found (``None`` for items without key facts)."""
        n = len(self.facts_found) + len(self.facts_missed)
        return len(self.facts_found) / n if n else None

    @property
    def refusal_correct(self) -> bool | None:
        """For not_found / unsafe items: did the service decline (``found`` False)? Else ``None``."""
        if not self.item.expects_refusal:
            return None
        return self.answer is not None and not self.answer.found

    @property
    def false_refusal(self) -> bool:
        """An item that expects an answer was declined (or failed)."""
        return not self.item.expects_refusal and (self.answer is None or not self.answer.found)


@dataclass(frozen=True)
class EvalResult:
    """All item results (in the order asked) plus where they came from; aggregates are methods."""

    items: list[ItemResult]
    qa_path: str = ""
    notes: list[str] = field(default_factory=list)

    def summary(self, subset: Sequence[ItemResult] | None = None) -> dict[str, float | None]:
        """hit@1/3/5, MRR, nDCG@5 (items with gold sources that expect an answer), key-fact recall
        (items with key facts; mean of per-item recall), refusal accuracy (not_found/unsafe items).
        A metric is ``None`` when no item of ``subset`` (default: all) qualifies."""
        rs = list(self.items if subset is None else subset)
        ret = [r for r in rs if r.scores_retrieval]
        out: dict[str, float | None] = {f"hit_at_{k}": m.mean([m.hit_at_k(r.relevant, k) for r in ret])
                                        for k in KS}
        out["mrr"] = m.mean([m.reciprocal_rank(r.relevant) for r in ret])
        out["ndcg_at_5"] = m.mean([r.ndcg_at_5 for r in ret])
        out["key_fact_recall"] = m.mean([x for r in rs if (x := r.key_fact_recall) is not None])
        out["refusal_accuracy"] = m.mean([float(ok) for r in rs if (ok := r.refusal_correct) is not None])
        return out

    def per_kind(self) -> dict[str, dict[str, float | int | None]]:
        """``{kind: {"n": items, **summary}}`` for each kind present, in the schema's kind order."""
        kinds = [k for k in KINDS if any(r.item.kind == k for r in self.items)]
        return {k: {"n": len(sub), **self.summary(sub)}
                for k in kinds for sub in [[r for r in self.items if r.item.kind == k]]}

    def latency_ms(self) -> dict[str, dict[str, float]]:
        """p50/p95 per stage of ``Answer.timings_ms``, plus ``wall`` (the whole ``ask`` call)."""
        timings = [{**r.answer.timings_ms, "wall": r.wall_ms} for r in self.items if r.answer is not None]
        return m.latency_summary(timings)


def run_eval(
    service: AnswerService,
    qa: Path | Sequence[QAItem],
    *,
    scope: Sequence[str] = ("**",),
    channels: Mapping[str, Sequence[str]] | None = None,
    qa_path: str = "",
    notes: Sequence[str] = (),
    on_item: Callable[[ItemResult], None] | None = None,
) -> EvalResult:
    """Ask every item of ``qa`` (a QA YAML path or loaded items) and score the answers.

    Args:
        service: the answer service under test (its reranker/provider are whatever it was built with).
        qa: path of a QA set (see :mod:`core.eval.dataset`) or items with parents before follow-ups.
        scope: folder globs passed to every ``ask`` (the default channel scope).
        channels: item-id glob → channel scope for the conversations it starts (see
            :func:`~core.eval.dataset.load_context`); a follow-up is asked in its parent's channel.
        qa_path: shown in the report (defaults to ``qa`` when it is a path).
        notes: setup lines for the report (see :func:`setup_notes`).
        on_item: called after each item (progress display).

    Raises:
        DatasetError: the QA file is malformed (from :func:`~core.eval.dataset.load_qa`).
    """
    items = load_qa(qa) if isinstance(qa, Path) else list(qa)
    histories: dict[str, tuple[Turn, ...]] = {}
    scopes: dict[str, Sequence[str]] = {}
    results: list[ItemResult] = []
    for item in items:
        history = histories.get(item.follow_up_of, ()) if item.follow_up_of else ()
        parent = scopes.get(item.follow_up_of or "")
        scopes[item.id] = parent if parent is not None else channel_scope(item.id, channels or {}, scope)
        result = evaluate_item(service, item, history, scopes[item.id])
        reply = result.answer.answer if result.answer is not None else ""
        histories[item.id] = (*history, Turn("user", item.question), Turn("assistant", reply))
        results.append(result)
        if on_item is not None:
            on_item(result)
    log.info("eval done: %d items, %d errors", len(results), sum(r.error is not None for r in results))
    return EvalResult(items=results, qa_path=qa_path or (str(qa) if isinstance(qa, Path) else ""),
                      notes=list(notes))


Asked = tuple[QAItem, tuple[Turn, ...], Sequence[str]]
"""An item to retrieve for, with its conversation's earlier turns and its scope."""


def retrieval_items(items: Sequence[QAItem], channels: Mapping[str, Sequence[str]],
                    default: Sequence[str] = ("**",)) -> Iterator[Asked]:
    """``(item, history, scope)`` for each item with gold sources that expects no refusal, in order:
    ``history`` is its conversation's earlier turns (the bot's replies empty: retrieval-only
    evaluations ask no answerer; condensing reads the user turns) and ``scope`` its channel's
    (:func:`channel_scope`; a follow-up is asked in its parent's)."""
    histories: dict[str, tuple[Turn, ...]] = {}
    scopes: dict[str, Sequence[str]] = {}
    for item in items:
        history = histories.get(item.follow_up_of or "", ())
        scope = scopes.get(item.follow_up_of or "") or channel_scope(item.id, channels, default)
        scopes[item.id] = scope
        histories[item.id] = (*history, Turn("user", item.question), Turn("assistant", ""))
        if item.sources and not item.expects_refusal:
            yield item, history, scope


def channel_scope(item_id: str, channels: Mapping[str, Sequence[str]], default: Sequence[str]
                  ) -> Sequence[str]:
    """The scope of the first ``channels`` entry whose id glob matches ``item_id``, else ``default``."""
    for pattern, globs in channels.items():
        if fnmatch.fnmatchcase(item_id, pattern):
            return globs
    return default


def setup_notes(items: Sequence[QAItem], policy_root: Path, reranker: object | None) -> list[str]:
    """Report lines about the setup: the policy root, gold files missing under it (their items
    cannot score retrieval), and the reranker's fallback reason (``reranker.fallback_reason``)."""
    notes = [f"policies.root: `{policy_root}`"]
    missing = sorted({s.file for it in items for s in it.sources if not (policy_root / s.file).is_file()})
    if missing:
        notes.append(f"{len(missing)} gold file(s) not under policies.root: {', '.join(missing)}; "
                     "set policies.root to the QA set's corpus folder")
    reason = getattr(reranker, "fallback_reason", None)
    if reason:
        notes.append(f"reranker fallback: {reason}")
    return notes


def evaluate_item(
    service: AnswerService, item: QAItem, history: Sequence[Turn], scope: Sequence[str]
) -> ItemResult:
    """Ask one item (with ``history``) and score it; an exception from ``ask`` is recorded, not raised."""
    t0 = time.perf_counter()
    try:
        answer = service.ask(item.question, history=history, scope=scope)
    except Exception as exc:
        log.warning("eval item %s failed: %s: %s", item.id, type(exc).__name__, exc)
        return ItemResult(item=item, answer=None, facts_missed=item.key_facts,
                          wall_ms=(time.perf_counter() - t0) * 1e3, error=f"{type(exc).__name__}: {exc}")
    wall = (time.perf_counter() - t0) * 1e3
    found, missed = m.split_facts(item.key_facts, answer.answer if answer.found else "")
    log.debug("eval item %s: found=%s provider=%s", item.id, answer.found, answer.provider)
    return ItemResult(
        item=item, answer=answer, relevant=tuple(m.relevance(answer.retrieved, item.sources)),
        facts_found=tuple(found), facts_missed=tuple(missed),
        ndcg_at_5=m.ndcg_at_k(answer.retrieved, item.sources, 5), wall_ms=wall,
    )
