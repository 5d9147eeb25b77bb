"""Handlers that talk back, through the official MCP Python client: the
conformance server's tools (tests/conformance) log through their context,
report progress, ask the client's model (sampling) and its user
(elicitation). The client's side answers the questions. On 2025-11-25 (an
`initialize` session, stdio and Streamable HTTP) everything reaches the
client; on 2026-07-28 logs reach it when the request opts in, and a handler's
questions go to the client in the call's `input_required` result, the SDK
calling again with the answers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from conftest import conformance_stdio

pytestmark = [
    pytest.mark.anyio,
    # Logging is what these tests are about, on the revisions that have it.
    pytest.mark.filterwarnings("ignore:The logging capability is deprecated"),
]


class Heard:
    """What the client's side saw and answered."""

    def __init__(self, accept: bool = True, content: dict[str, Any] | None = None) -> None:
        self.logs: list[types.LoggingMessageNotificationParams] = []
        self.prompts: list[str] = []
        self.schemas: list[dict[str, Any]] = []
        self.accept = accept
        self.content = content or {"username": "ada", "email": "ada@example.com"}

    async def log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params)

    async def sample(self, context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        content = params.messages[0].content
        assert isinstance(content, types.TextContent)
        self.prompts.append(content.text)
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="a reel in G"),
            model="test-model",
            stop_reason="endTurn",
        )

    async def elicit(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestFormParams)
        self.schemas.append(dict(params.requested_schema))
        if not self.accept:
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content=self.content)


@asynccontextmanager
async def connect(
    server: Any, heard: Heard, *, mode: str = "legacy", answers: bool = True, log_level: Any = None
) -> AsyncIterator[Client]:
    callbacks: dict[str, Any] = {"logging_callback": heard.log}
    if answers:
        callbacks |= {"sampling_callback": heard.sample, "elicitation_callback": heard.elicit}
    async with Client(server, read_timeout_seconds=60, mode=mode, log_level=log_level, **callbacks) as client:
        yield client


def text(result: types.CallToolResult) -> str:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return str(result.structured_content["text"])


async def test_log_messages_reach_the_client_in_order_at_its_level(conformance_server: Any) -> None:
    heard = Heard()
    async with connect(conformance_server, heard) as client:
        await client.set_logging_level("debug")
        await client.call_tool("test_tool_with_logging", {})
        assert [log.data for log in heard.logs] == [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ]
        assert {log.level for log in heard.logs} == {"info"}
        # Info is below `warning`: none of them is sent.
        await client.set_logging_level("warning")
        await client.call_tool("test_tool_with_logging", {})
        assert len(heard.logs) == 3


async def test_progress_reaches_a_caller_that_asked_for_it(conformance_server: Any) -> None:
    seen: list[float] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append(value)

    async with connect(conformance_server, Heard()) as client:
        await client.call_tool("test_tool_with_progress", {}, progress_callback=progress)
    assert len(seen) == 3
    assert seen == sorted(seen) and len(set(seen)) == 3


async def test_a_handler_asks_the_clients_model(conformance_server: Any) -> None:
    heard = Heard()
    async with connect(conformance_server, heard) as client:
        result = await client.call_tool("test_sampling", {"prompt": "Name this tune"})
    assert heard.prompts == ["Name this tune"]
    assert text(result) == "LLM response: a reel in G"


async def test_a_handler_asks_the_clients_user(conformance_server: Any) -> None:
    heard = Heard()
    async with connect(conformance_server, heard) as client:
        result = await client.call_tool("test_elicitation", {"message": "Who are you?"})
        assert text(result) == 'User response: action=accept, content={"email":"ada@example.com","username":"ada"}'
        defaults = await client.call_tool("test_elicitation_sep1034_defaults", {})
        assert text(defaults).startswith("Elicitation completed: action=accept")
    assert heard.schemas[0]["properties"]["username"] == {"type": "string", "description": "Your username"}
    # Generated from the `@form` struct `Details`: its docs, types and defaults.
    assert heard.schemas[1]["properties"]["age"] == {"type": "integer", "default": 30, "description": "Your age."}
    assert heard.schemas[1]["properties"]["status"]["enum"] == ["active", "inactive", "pending"]
    declining = Heard(accept=False)
    async with connect(conformance_server, declining) as client:
        result = await client.call_tool("test_elicitation", {"message": "Who are you?"})
    assert text(result) == "User response: action=decline"


async def test_a_form_answer_decodes_into_its_struct() -> None:
    given = {"name": "Ada", "age": 36, "score": 99.5, "status": "pending", "verified": False}
    async with connect(conformance_stdio(), Heard(content=given)) as client:
        result = await client.call_tool("test_elicitation_sep1034_defaults", {})
        assert text(result) == (
            'Elicitation completed: action=accept, content={"age":36,"name":"Ada",'
            '"score":99.5,"status":"pending","verified":false}'
        )
    wrong = {"name": "Ada", "age": "thirty-six"}
    async with connect(conformance_stdio(), Heard(content=wrong)) as client:
        refused = await client.call_tool("test_elicitation_sep1034_defaults", {})
    assert refused.is_error
    assert refused.structured_content is not None
    assert refused.structured_content["code"] == "INVALID_REQUEST"
    assert "does not decode" in refused.structured_content["message"]


async def test_a_client_without_the_capability_is_a_typed_error_in_the_handler() -> None:
    async with connect(conformance_stdio(), Heard(), answers=False) as client:
        for tool, arguments in [("test_sampling", {"prompt": "hi"}), ("test_elicitation", {"message": "hi"})]:
            result = await client.call_tool(tool, arguments)
            assert result.is_error
            assert result.structured_content is not None
            assert result.structured_content["code"] == "UNSUPPORTED", result.structured_content
            assert "capability" in result.structured_content["message"]


async def test_on_2026_07_28_logs_are_opted_into() -> None:
    quiet = Heard()
    async with connect(conformance_stdio(), quiet, mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        await client.call_tool("test_tool_with_logging", {})
    assert quiet.logs == []

    opted = Heard()
    async with connect(conformance_stdio(), opted, mode="auto", log_level="info") as client:
        await client.call_tool("test_tool_with_logging", {})
    assert [log.data for log in opted.logs][-1] == "Tool execution completed"
    assert len(opted.logs) == 3


async def test_on_2026_07_28_questions_go_in_the_answer_and_the_call_runs_again(conformance_server: Any) -> None:
    # The SDK answers each `input_required` result with its callbacks and
    # calls again; the handler finds its answers under their keys.
    heard = Heard()
    async with connect(conformance_server, heard, mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        sampled = await client.call_tool("test_sampling", {"prompt": "Name this tune"})
        asked = await client.call_tool("test_elicitation", {"message": "Who are you?"})
    assert text(sampled) == "LLM response: a reel in G"
    assert text(asked) == 'User response: action=accept, content={"email":"ada@example.com","username":"ada"}'
    assert heard.prompts == ["Name this tune"]
    assert heard.schemas[0]["properties"]["username"] == {"type": "string", "description": "Your username"}

    # Two rounds: the first answer comes back sealed in `requestState`.
    rounds = Heard(content={"name": "Ada", "color": "green"})
    async with connect(conformance_server, rounds, mode="auto") as client:
        result = await client.call_tool("test_input_required_result_multi_round", {})
    assert text(result) == "Ada likes green."
    assert len(rounds.schemas) == 2


async def test_on_2026_07_28_a_question_the_client_cannot_take_is_minus_32021() -> None:
    async with connect(conformance_stdio(), Heard(), mode="auto", answers=False) as client:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("test_sampling", {"prompt": "hi"})
    assert raised.value.error.code == -32021
    assert raised.value.error.data == {"requiredCapabilities": {"sampling": {}}}


async def test_a_handler_closes_its_stream_and_answers_on_the_resumed_one(conformance_url: str) -> None:
    # A 2025-11-25 session over Streamable HTTP: the client resumes the
    # stream with Last-Event-ID, and the answer waits for it there.
    async with connect(conformance_url, Heard()) as client:
        result = await client.call_tool("test_reconnection", {})
        assert text(result) == "Answered on the resumed stream."
        # The session goes on after the resumed call.
        assert not (await client.call_tool("test_simple_text", {})).is_error
    # Stdio, and stateless HTTP on 2026-07-28, have no stream to close.
    for server, mode in [(conformance_stdio(), "legacy"), (conformance_url, "auto")]:
        async with connect(server, Heard(), mode=mode) as client:
            result = await client.call_tool("test_reconnection", {})
        assert text(result) == "Answered on the stream the call came on: this transport cannot close it."
