"""Config change = shadow rebuild.

When the config fingerprint differs from the live generation's, the new index is built in a new
generation's tables beside the live ones; queries keep reading the live generation (the Store follows
the pointer in :mod:`core.store_state`) until :func:`swap` replaces the pointer atomically, after which
the old generation is dropped. Vectors still valid under the new config come from the embedding cache,
so a chunker change re-embeds only new chunk texts and a retrieval-only change rebuilds nothing (it is
not in the fingerprint). An interrupted rebuild is resumed on the next reconcile with the same config.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace

from core.store import Store
from core.store_state import IndexState

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Plan:
    """Where a reconcile writes: ``target`` (pinned to ``generation``); ``rebuild`` when that is a
    shadow generation that must be swapped in at the end."""

    target: Store
    generation: int
    rebuild: bool


def plan(store: Store, fingerprint: str) -> Plan:
    """Choose the generation to write for ``fingerprint`` (starting or resuming a rebuild if needed)."""
    st = store.state()
    if st.fingerprint == fingerprint or (st.fingerprint == "" and _adoptable(store, fingerprint)):
        if st.fingerprint != fingerprint or st.building is not None:
            _drop_stale(store, st.generation, None)
            store.set_state(replace(st, fingerprint=fingerprint, building=None, building_fingerprint=""))
        return Plan(store.shadow(st.generation), st.generation, False)
    if st.building is not None and st.building_fingerprint == fingerprint:
        log.info("resuming shadow rebuild of generation %d", st.building)
        return Plan(store.shadow(st.building), st.building, True)
    _drop_stale(store, st.generation, None)
    gen = max(store.generations_on_disk() | {st.generation}) + 1
    store.set_state(replace(st, building=gen, building_fingerprint=fingerprint))
    log.info("config fingerprint changed (%s → %s): shadow rebuild into generation %d",
             st.fingerprint[:12] or "none", fingerprint[:12], gen)
    return Plan(store.shadow(gen), gen, True)


def swap(store: Store, p: Plan, fingerprint: str) -> None:
    """Make ``p``'s generation live (one atomic pointer write), then drop the old generation once every
    reader has followed the pointer: other processes see it at most ``store.read_consistency_s`` late
    (:class:`core.store_state.StatePointer`), so the drop waits that long (plus a second for queries
    already running) when it is not 0."""
    old = store.state().generation
    store.set_state(IndexState(generation=p.generation, fingerprint=fingerprint, swapped_at=time.time()))
    grace = store.db.read_consistency_s
    if grace > 0:
        log.info("generation %d is live; dropping %d in %.0f s, once every reader follows", p.generation,
                 old, grace + 1)
        time.sleep(grace + 1.0)
    _drop_stale(store, p.generation, None)
    log.info("swapped in generation %d (dropped %d)", p.generation, old)


def needs_rebuild(store: Store, fingerprint: str) -> bool:
    """True when the live generation was built under another fingerprint (a fresh or older data
    dir whose rows all match is adopted on the spot)."""
    st = store.state()
    if st.fingerprint == fingerprint:
        return False
    if st.fingerprint == "" and _adoptable(store, fingerprint):
        store.set_state(replace(st, fingerprint=fingerprint))
        return False
    return True


def _adoptable(store: Store, fingerprint: str) -> bool:
    """A live index without a recorded fingerprint (older data dir or empty) whose rows all carry
    ``fingerprint`` can be adopted as is."""
    return all(d.fingerprint == fingerprint for d in store.documents().values())


def _drop_stale(store: Store, live: int, keep: int | None) -> None:
    for gen in store.generations_on_disk() - {live} - ({keep} if keep is not None else set()):
        store.drop_generation(gen)


def abandon(store: Store, p: Plan) -> None:
    """Give up the rebuild of ``p`` (its generation is dropped; the live one stays as it was)."""
    st = store.state()
    if st.building == p.generation:
        store.set_state(replace(st, building=None, building_fingerprint=""))
    if p.generation != st.generation:
        store.drop_generation(p.generation)
    log.warning("abandoned the rebuild of generation %d; generation %d stays live", p.generation,
                st.generation)
