"""Probes of a deployment, as an orchestrator sees them: a gateway is alive
while it serves, ready while a worker is in rotation and its Redis
answers, and its `/metrics` is Prometheus text (parsed by the Prometheus
project's own parser) that counts the calls made through it, for a caller
with the token when the gateway has one."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
from email.message import Message
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from conftest import Deployment, connect, free_port, launch, structured, studio_bin

pytestmark = pytest.mark.anyio


def get(url: str, token: str | None = None) -> tuple[int, Message, str]:
    """One GET: status, headers (looked up by any case), body."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def base(gateway: str) -> str:
    return gateway.removesuffix("/mcp")


def readiness(gateway: str, expected: int, timeout: float = 15.0) -> dict[str, Any]:
    """Waits until `/readyz` answers `expected`; its body."""
    deadline = time.monotonic() + timeout
    while True:
        status, _, body = get(f"{base(gateway)}/readyz")
        if status == expected:
            return dict(json.loads(body))
        assert time.monotonic() < deadline, (status, body)
        time.sleep(0.1)


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of a scrape, by name and labels: the parser raises on
    anything that is not Prometheus text."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def series(name: str, **labels: str) -> tuple[str, frozenset[tuple[str, str]]]:
    return name, frozenset(labels.items())


async def test_a_gateway_is_ready_while_a_worker_is_in_rotation(deployment: Deployment) -> None:
    gateway = deployment.gateways[0]
    status, _, body = get(f"{base(gateway)}/healthz")
    assert (status, body) == (200, "ok\n")
    assert readiness(gateway, 200) == {"ready": True}

    for worker in deployment.workers:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    not_ready = readiness(gateway, 503)
    assert not_ready["ready"] is False
    assert "no backend" in not_ready["reasons"][0], not_ready
    # Alive all the same: an orchestrator must not restart it for this.
    assert get(f"{base(gateway)}/healthz")[0] == 200

    deployment.restart(deployment.workers[0])
    assert readiness(gateway, 200) == {"ready": True}


async def test_a_gateway_whose_redis_is_down_is_not_ready_until_it_is_back(deployment: Deployment) -> None:
    gateway = deployment.gateways[1]
    assert readiness(gateway, 200) == {"ready": True}
    deployment.redis.kill()
    not_ready = readiness(gateway, 503)
    assert "job store" in not_ready["reasons"][0], not_ready
    deployment.redis.start()
    assert readiness(gateway, 200) == {"ready": True}


async def test_metrics_are_prometheus_text_that_counts_a_call(deployment: Deployment) -> None:
    # A third gateway to the same workers, with a token.
    endpoints = [deployment.launches[worker.pid][0][3] for worker in deployment.workers]
    port = free_port()
    backends = [arg for endpoint in endpoints for arg in ("--backend", endpoint)]
    argv = [str(studio_bin()), "gateway", *backends, "--http", f"127.0.0.1:{port}", "--token", "s3cret"]
    gateway = launch(argv, dict(os.environ), port)
    deployment.started.append(gateway)
    url = f"http://127.0.0.1:{port}"
    readiness(f"{url}/mcp", 200)

    status, headers, _ = get(f"{url}/metrics")
    assert status == 401
    assert str(headers["WWW-Authenticate"]).startswith("Bearer"), headers
    # Ready is one worker in rotation; the others join within a heartbeat.
    deadline = time.monotonic() + 10
    while True:
        status, headers, text = get(f"{url}/metrics", token="s3cret")
        assert status == 200, text
        before = samples(text)
        if before[series("toolwright_workers_live")] == 3 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert str(headers["Content-Type"]).startswith("text/plain; version=0.0.4"), headers
    ok = series("toolwright_calls_total", tool="add", outcome="ok")
    assert before.get(ok, 0) == 0, text
    assert before[series("toolwright_workers_live")] == 3, text
    assert before[series("toolwright_auth_failures_total", reason="missing")] == 1, text

    async with connect(f"{url}/mcp", principal="s3cret") as client:
        assert structured(await client.call_tool("add", {"a": 2, "b": 3})) == {"result": 5}

    after = samples(get(f"{url}/metrics", token="s3cret")[2])
    assert after[ok] == 1
    assert after[series("toolwright_call_duration_seconds_count", tool="add")] == 1
    assert after[series("toolwright_hoot_calls_in_flight")] == 0


async def test_a_gateway_of_several_services_is_ready_when_every_one_is(tmp_path: Any) -> None:
    env = os.environ | {"STUDIO_DATA": str(tmp_path)}
    worker_port, gateway_port = free_port(), free_port()
    started = []
    try:
        argv = [str(studio_bin()), "serve", "--hoot", f"tcp://127.0.0.1:{worker_port}", "--service", "maths"]
        started.append(launch(argv, env, worker_port))
        routes = ["--route", f"maths=tcp://127.0.0.1:{worker_port}"]
        argv = [str(studio_bin()), "gateway", *routes, "--route", f"lost=tcp://127.0.0.1:{free_port()}"]
        argv += ["--http", f"127.0.0.1:{gateway_port}"]
        started.append(launch(argv, env, gateway_port))
        url = f"http://127.0.0.1:{gateway_port}/mcp"
        not_ready = readiness(url, 503)
        assert len(not_ready["reasons"]) == 1 and "`lost`" in not_ready["reasons"][0], not_ready
        text = get(f"http://127.0.0.1:{gateway_port}/metrics")[2]
        found = samples(text)
        assert found[series("toolwright_workers_live")] == 1, text
        assert found[series("toolwright_workers")] == 2, text
    finally:
        for process in started:
            process.terminate()
            process.wait(timeout=15)
