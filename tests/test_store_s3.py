"""The index on an object store: ``data_dir: s3://…`` against a real S3-compatible server (SeaweedFS on
127.0.0.1, ``s3_server`` fixture), the start-up self-test, and the errors for unusable URIs.

The CLI runs in-process (typer's CliRunner) with the fake embedder; LanceDB, the blobs and the S3 server
are real.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.blobs import check_conditional_writes, make_blob_store
from core.errors import StoreError
from core.store_location import StoreLocation
from policybot.cli import cli
from tests.s3_server import BUCKET, SeaweedS3, StrippingProxy, free_port

GRACE = "The Grace Period for payment of the premium shall be thirty days."
LONGER = "The Grace Period for payment of the premium shall be forty-five days."
QUESTION = "What is the grace period for the premium?"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    policies = tmp_path / "policies"
    policies.mkdir()
    (policies / "grace.md").write_text(f"# Premium\n\n## Grace period\n\n{GRACE}\n")
    (policies / "renewal.md").write_text("# Renewal\n\nThe policy is renewed every year on the due date.\n")
    cfg = tmp_path / "config.yaml"
    cfg.write_text("embedding:\n  provider: fake\nrerank:\n  enabled: false\n"
                   f"policies:\n  root: {policies}\n")
    return cfg


def run(config: Path, data_dir: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--config", str(config), "--data-dir", data_dir, *args])
    return result.exit_code, result.stdout, result.stderr


def ask(config: Path, uri: str, question: str) -> dict[str, object]:
    code, out, err = run(config, uri, "ask", "--json", question)
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    return data


def test_index_ask_edit_ask_delete_on_s3(config: Path, s3_uri: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(config, s3_uri, "index", "--json")
    assert code == 0 and json.loads(out)["indexed"] == 2, err
    assert "thirty days" in str(ask(config, s3_uri, QUESTION)["answer"])
    (tmp_path / "policies" / "grace.md").write_text(f"# Premium\n\n## Grace period\n\n{LONGER}\n")
    code, out, _ = run(config, s3_uri, "index", "--json")
    assert code == 0 and json.loads(out)["indexed"] == 1
    assert "forty-five days" in str(ask(config, s3_uri, QUESTION)["answer"])
    (tmp_path / "policies" / "grace.md").unlink()
    code, out, _ = run(config, s3_uri, "index", "--json")
    assert code == 0 and json.loads(out)["removed"] == 1
    cited = ask(config, s3_uri, QUESTION)["citations"]
    assert all(c["file"] != "grace.md" for c in cited)  # type: ignore[attr-defined]
    code, out, _ = run(config, s3_uri, "status", "--json")
    status = json.loads(out)
    assert code == 0 and status["data_dir"] == s3_uri
    assert [f["path"] for f in status["files"]] == ["renewal.md"]
    assert not any(p.name.startswith("s3:") for p in tmp_path.iterdir())  # nothing written locally


def test_status_names_the_indexer_leader_since_and_expiry(config: Path, s3_uri: str) -> None:
    from indexer.lock import WriterLock

    run(config, s3_uri, "index", "--json")
    with WriterLock(s3_uri) as lock:
        code, out, _ = run(config, s3_uri, "status", "--json")
    leader = json.loads(out)["leader"]
    assert code == 0 and leader["live"] is True and leader["pid"] == os.getpid()
    assert leader["owner"] == lock.lease.owner and leader["since"] < leader["expires_at"]


def test_a_proxy_that_drops_conditional_headers_stops_start_up(config: Path, s3_server: SeaweedS3,
                                                               s3_uri: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    with StrippingProxy(s3_server.ports["s3.port"]) as proxy:
        monkeypatch.setenv("AWS_ENDPOINT_URL", proxy.endpoint)
        code, _, err = run(config, s3_uri, "index", "--json")
    assert code == 2 and "does not enforce conditional writes" in err and "Traceback" not in err


def test_the_self_test_passes_on_the_real_server(s3_uri: str) -> None:
    check_conditional_writes(make_blob_store(StoreLocation.parse(s3_uri)), s3_uri)


def test_self_test_error_on_an_unreachable_endpoint(s3_uri: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ENDPOINT_URL", f"http://127.0.0.1:{free_port()}")
    with pytest.raises(StoreError, match="cannot use the store at s3://"):
        check_conditional_writes(make_blob_store(StoreLocation.parse(s3_uri)), s3_uri)


def test_bad_endpoint_is_one_error_exit_2_and_no_local_folder(config: Path, s3_uri: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AWS_ENDPOINT_URL", f"http://127.0.0.1:{free_port()}")
    before = set(tmp_path.iterdir())
    code, _, err = run(config, s3_uri, "index", "--json")
    assert code == 2 and "cannot use the store at s3://" in err and "AWS_ENDPOINT_URL" in err
    assert "Traceback" not in err and set(tmp_path.iterdir()) == before


def test_missing_bucket_is_one_error_exit_2(config: Path, s3_env: dict[str, str]) -> None:
    code, _, err = run(config, "s3://no-such-bucket-here/idx", "status", "--json")
    assert code == 2 and "s3://no-such-bucket-here/idx" in err and "Traceback" not in err


def test_unsupported_scheme_is_one_error_exit_2_and_no_local_folder(config: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    before = set(tmp_path.iterdir())
    code, _, err = run(config, "foo://bucket/idx", "index", "--json")
    assert code == 2 and "unsupported scheme 'foo://'" in err and "s3://" in err
    assert set(tmp_path.iterdir()) == before


def test_uri_in_the_config_file_stays_a_uri(tmp_path: Path) -> None:
    from core.config import load_config

    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"data_dir: s3://{BUCKET}/some/prefix/\n")
    assert load_config(cfg).data_dir == f"s3://{BUCKET}/some/prefix"
