"""core.blobs.LocalBlobStore and core.claims.Claims: conditional writes and exactly-once claims."""

from __future__ import annotations

import multiprocessing as mp
from pathlib import Path

import pytest

from core.blobs import LocalBlobStore, check_key
from core.claims import Claims


def test_create_succeeds_once(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    assert blobs.create("state/a.json", b"1") is not None
    assert blobs.create("state/a.json", b"2") is None
    got = blobs.get("state/a.json")
    assert got is not None and got.data == b"1"


def test_replace_needs_the_current_etag(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    etag = blobs.put("lease", b"one")
    assert blobs.replace("lease", b"two", etag) is not None
    assert blobs.replace("lease", b"three", etag) is None
    got = blobs.get("lease")
    assert got is not None and got.data == b"two"


def test_replace_of_a_missing_key_fails(tmp_path: Path) -> None:
    assert LocalBlobStore(tmp_path).replace("gone", b"x", "etag") is None


def test_list_and_delete(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    blobs.put("claims/x/1", b"")
    blobs.put("claims/y/2", b"")
    assert blobs.list("claims/x/") == ["claims/x/1"]
    blobs.delete("claims/x/1")
    blobs.delete("claims/x/1")
    assert blobs.list("claims/") == ["claims/y/2"]


@pytest.mark.parametrize("key", ["", "/abs", "a/../b", "a//b", "./a"])
def test_unsafe_keys_are_refused(key: str) -> None:
    with pytest.raises(ValueError, match="blob key"):
        check_key(key)


def _race(root: str, n: int, out: mp.Queue) -> None:  # type: ignore[type-arg]
    blobs = LocalBlobStore(Path(root))
    out.put(sum(Claims(blobs, "ev").claim(f"event-{i}") for i in range(n)))


def test_claims_are_exactly_once_across_processes(tmp_path: Path) -> None:
    ctx = mp.get_context("spawn")
    out: mp.Queue = ctx.Queue()  # type: ignore[type-arg]
    procs = [ctx.Process(target=_race, args=(str(tmp_path), 50, out)) for _ in range(3)]
    for p in procs:
        p.start()
    wins = sum(out.get(timeout=60) for _ in procs)
    for p in procs:
        p.join(timeout=60)
    assert wins == 50


def test_expired_claim_can_be_taken_again(tmp_path: Path) -> None:
    now = [1000.0]
    claims = Claims(LocalBlobStore(tmp_path), "ev", ttl_s=10, clock=lambda: now[0])
    assert claims.claim("k")
    assert not claims.claim("k")
    now[0] += 11
    assert claims.claim("k")
    assert not claims.claim("k")


def test_sweep_removes_only_expired_claims(tmp_path: Path) -> None:
    now = [1000.0]
    claims = Claims(LocalBlobStore(tmp_path), "ev", ttl_s=10, clock=lambda: now[0])
    claims.claim("old")
    now[0] += 11
    claims.claim("new")
    assert claims.sweep() == 1
    assert not claims.claim("new")


def test_release_lets_a_key_be_claimed_again(tmp_path: Path) -> None:
    claims = Claims(LocalBlobStore(tmp_path), "ev")
    assert claims.claim("k")
    claims.release("k")
    assert claims.claim("k")
