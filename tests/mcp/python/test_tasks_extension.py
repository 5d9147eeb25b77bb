"""MCP 2026-07-28's tasks extension (`io.modelcontextprotocol/tasks`) over
raw Streamable HTTP, against the conformance server: the official Python
client does not speak the extension yet. A job that asks inside its task
waits for the answer `tasks/update` brings; a job the server failed is a
`failed` task; a `@task_required` tool refuses a request without the
extension with -32021."""

from __future__ import annotations

import time
from typing import Any

from conftest import post_2026

TASKS = "io.modelcontextprotocol/tasks"


def rpc(url: str, method: str, params: dict[str, Any], name: str | None = None, tasks: bool = True) -> dict[str, Any]:
    capabilities: dict[str, Any] = {"elicitation": {}}
    if tasks:
        capabilities["extensions"] = {TASKS: {}}
    headers = {} if name is None else {"Mcp-Name": name}
    return post_2026(url, method, params, capabilities=capabilities, headers=headers)


def until(url: str, task_id: str, status: str) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while True:
        task = rpc(url, "tasks/get", {"taskId": task_id}, name=task_id)["result"]
        if task["status"] == status or time.monotonic() > deadline:
            return task
        time.sleep(0.05)


def test_a_job_asks_inside_its_task_and_goes_on_with_the_answer(conformance_url: str) -> None:
    created = rpc(conformance_url, "tools/call", {"name": "confirm_delete", "arguments": {"filename": "a.txt"}},
                  name="confirm_delete")["result"]
    assert created["resultType"] == "task", created
    task_id = created["taskId"]

    waiting = until(conformance_url, task_id, "input_required")
    assert waiting["status"] == "input_required", waiting
    (key, request), = waiting["inputRequests"].items()
    assert key == "confirm" and request["method"] == "elicitation/create", waiting

    # An answer under no outstanding key changes nothing.
    ack = rpc(conformance_url, "tasks/update", {"taskId": task_id, "inputResponses": {"other": {}}}, name=task_id)
    assert ack["result"]["resultType"] == "complete", ack
    assert until(conformance_url, task_id, "input_required")["status"] == "input_required"

    answer = {"action": "accept", "content": {"ok": True}}
    ack = rpc(conformance_url, "tasks/update", {"taskId": task_id, "inputResponses": {key: answer}}, name=task_id)
    assert ack["result"]["resultType"] == "complete", ack
    done = until(conformance_url, task_id, "completed")
    assert done["status"] == "completed", done
    assert done["result"]["structuredContent"] == {"text": "a.txt: deleted=true"}, done


def test_a_job_the_server_failed_is_a_failed_task(conformance_url: str) -> None:
    created = rpc(conformance_url, "tools/call", {"name": "protocol_error_job", "arguments": {}},
                  name="protocol_error_job")["result"]
    failed = until(conformance_url, created["taskId"], "failed")
    assert failed["status"] == "failed", failed
    assert failed["error"]["code"] == -32603 and failed["error"]["data"]["code"] == "INTERNAL", failed
    assert "result" not in failed


def test_a_task_required_tool_refuses_a_request_without_the_extension(conformance_url: str) -> None:
    refused = rpc(conformance_url, "tools/call", {"name": "failing_job", "arguments": {}}, name="failing_job", tasks=False)
    assert refused["error"]["code"] == -32021, refused
    assert TASKS in refused["error"]["data"]["requiredCapabilities"]["extensions"], refused
    # With the extension, it is a task; the tool's own error completes it.
    created = rpc(conformance_url, "tools/call", {"name": "failing_job", "arguments": {}}, name="failing_job")["result"]
    done = until(conformance_url, created["taskId"], "completed")
    assert done["result"]["isError"] is True, done
