"""The Rust batch client (`call_tools`, through runtime/examples/mcp_batch.rs)
against the studio server over a stdio child process and Streamable HTTP:
results in call order with the caller's ids, partial failures as per-call
results, the batch timeout, duplicate ids refused."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import studio_bin


def batch_bin() -> Path:
    path = Path(os.environ.get("MCP_BATCH_BIN", ""))
    if not path.is_file():
        pytest.fail(
            "set MCP_BATCH_BIN to the mcp_batch example "
            "(cargo build -p toolwright --features client --example mcp_batch)"
        )
    return path


@pytest.fixture
def run_batch(transport: str, data_dir: Path, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    def run(batch: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        if transport == "stdio":
            target = ["--stdio", str(studio_bin()), "serve", "--stdio"]
        else:
            target = ["--http", request.getfixturevalue("http_url")]
        return subprocess.run(
            [str(batch_bin()), *target],
            input=json.dumps(batch),
            capture_output=True,
            text=True,
            timeout=60,
            env=os.environ | {"STUDIO_DATA": str(data_dir / "rust-client")},
        )

    return run


def results(run: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    assert run.returncode == 0, run.stderr
    return list(json.loads(run.stdout)["results"])


@pytest.mark.parametrize("parallel", [False, True])
def test_results_in_call_order_with_partial_failures(run_batch: Any, parallel: bool) -> None:
    answered = results(
        run_batch(
            {
                "parallel": parallel,
                "calls": [
                    {"id": "sum", "name": "add", "arguments": {"a": 2, "b": 3}},
                    {"id": "unserved", "name": "garden_status"},
                    {"id": "overflow", "name": "multiply", "arguments": {"a": 4611686018427387904, "b": 2}},
                    {"id": "bad", "name": "add", "arguments": {"a": "x", "b": 1}},
                    {"id": "unknown", "name": "addd", "arguments": {}},
                    {"id": "product", "name": "multiply", "arguments": {"a": 6, "b": 7}},
                ],
            }
        )
    )
    assert [r["call_id"] for r in answered] == ["sum", "unserved", "overflow", "bad", "unknown", "product"]
    assert answered[0] == {"call_id": "sum", "success": True, "result": {"result": 5}}
    assert answered[1]["success"] is False and answered[1]["error"]["code"] == "NOT_IMPLEMENTED"
    assert answered[2]["error"] == {
        "code": "OVERFLOW",
        "message": answered[2]["error"]["message"],
        "details": {"overflow": {}},
    }
    assert answered[3]["error"]["code"] == "INVALID_REQUEST" and "a" in answered[3]["error"]["message"]
    assert answered[4]["error"]["code"] == "PROTOCOL"
    assert answered[4]["error"]["details"]["jsonrpc_code"] == -32602
    assert answered[5] == {"call_id": "product", "success": True, "result": {"result": 42}}


def test_an_async_tool_answers_its_job_handle(run_batch: Any) -> None:
    (answer,) = results(
        run_batch(
            {"calls": [{"id": "gen", "name": "orpheus_generate", "arguments": {"max_tokens": 128, "seed": 1}}]}
        )
    )
    assert answer["success"] is True, answer
    assert answer["result"]["tool"] == "orpheus_generate"
    assert answer["result"]["job_id"].startswith("job_")


def test_a_call_past_the_batch_timeout_times_out_alone(run_batch: Any) -> None:
    # The generator runs for about 3 s as a job; job_poll on every running job
    # then waits far beyond the batch's 800 ms. The calls before it answer;
    # the call after it comes too late to be sent.
    answered = results(
        run_batch(
            {
                "timeout_ms": 800,
                "calls": [
                    {"id": "gen", "name": "orpheus_generate", "arguments": {"max_tokens": 8192, "num_variations": 8}},
                    {"id": "before", "name": "add", "arguments": {"a": 1, "b": 1}},
                    {"id": "wait", "name": "job_poll", "arguments": {"timeout_ms": 20000, "mode": "all"}},
                    {"id": "after", "name": "add", "arguments": {"a": 2, "b": 2}},
                ],
            }
        )
    )
    assert [r["call_id"] for r in answered] == ["gen", "before", "wait", "after"]
    assert [r["success"] for r in answered] == [True, True, False, False], answered
    assert answered[2]["error"]["code"] == "TIMEOUT"
    assert answered[3]["error"]["code"] == "TIMEOUT"
    assert answered[3]["error"]["message"].startswith("not sent"), answered[3]


def test_duplicate_ids_refuse_the_batch(run_batch: Any) -> None:
    run = run_batch(
        {
            "calls": [
                {"id": "same", "name": "add", "arguments": {"a": 1, "b": 1}},
                {"id": "same", "name": "add", "arguments": {"a": 2, "b": 2}},
            ]
        }
    )
    assert run.returncode == 2
    assert "share the id `same`" in run.stderr, run.stderr
