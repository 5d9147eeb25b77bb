"""An async client of a Toolwright server's routes for web frontends
(docs/web.md): typed calls as JSON over HTTP, the tool metadata, and the
live tool events.

Needs ``httpx`` (``pip install toolwright-catalogue[web]``)::

    async with AsyncToolClient("http://127.0.0.1:8787") as client:
        result = await client.call(tools.AddCall(args=models.MathOperands(a=1, b=2)))
        async for event in client.events(tools=["add"]):
            print(event.tool_name, event.type)
"""

import json
from collections.abc import AsyncIterator, Sequence
from types import TracebackType
from typing import Any, Literal, Self

import httpx

from ._wire import ToolError
from .codec import request_to_json, response_from_json
from .metadata import CallErrorEvent, ToolCompleteEvent, ToolMetadata, ToolStartEvent
from .tools import ToolRequest, ToolResponse

ToolEvent = ToolStartEvent | ToolCompleteEvent | CallErrorEvent
"""One tool event: ``tool_start``, ``tool_complete``, or ``error`` for a call
that failed before it started."""


class ToolCallError(Exception):
    """A call that reached the server and failed there."""

    def __init__(self, tool: str, error: ToolError) -> None:
        super().__init__(f"{tool} failed with {error.code}: {error.message}")
        self.tool = tool
        """The tool called."""
        self.error = error
        """What the server answered: ``code``, ``message``, ``details``."""

    @property
    def code(self) -> str:
        """The error's stable code."""
        return self.error.code


class ServerError(Exception):
    """An answer that is not a call's envelope: refused (401, 403, 413) or
    not understood."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"the server answered {status}: {text}")
        self.status = status
        """The HTTP status."""


class Lagged(Exception):
    """Raised by :meth:`AsyncToolClient.events` with ``on_lag="raise"`` when
    the subscriber fell behind and the server dropped events."""

    def __init__(self, missed: int) -> None:
        super().__init__(f"{missed} events were dropped: this subscriber fell behind")
        self.missed = missed
        """How many events were dropped."""


class AsyncToolClient:
    """Calls a server's tools with typed requests and responses, and follows
    its tool events.

    ``wait`` says how long the server waits for a call that runs as a job:
    ``"done"`` (the default) until it ends, a number of milliseconds, or
    ``"default"`` for the tool's own timing; a call still running then
    raises :class:`ToolCallError` with code ``JOB_STARTED``.
    """

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        wait: Literal["done", "default"] | int = "done",
        client: httpx.AsyncClient | None = None,
    ) -> None:
        headers = {"authorization": f"Bearer {token}"} if token is not None else {}
        self._owned = client is None
        self._client = client or httpx.AsyncClient(timeout=None)
        self._base = base_url.rstrip("/")
        self._headers = headers
        self._wait = wait

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Closes the HTTP client, unless it was given."""
        if self._owned:
            await self._client.aclose()

    async def call(self, request: ToolRequest) -> ToolResponse:
        """Calls a tool: ``POST /api/tools/{name}`` with the request's
        arguments, validated before they are sent; the response is
        validated as it is read.

        Raises :class:`ToolCallError` when the tool fails, and
        :class:`ServerError` when the server refuses the request.
        """
        wire: dict[str, Any] = json.loads(request_to_json(request))
        tool = str(wire.pop("tool"))
        params = {} if self._wait == "default" else {"wait": str(self._wait)}
        answer = await self._client.post(
            f"{self._base}/api/tools/{tool}",
            json=wire,
            params=params,
            headers=self._headers,
        )
        if not answer.headers.get("content-type", "").startswith("application/json"):
            raise ServerError(answer.status_code, answer.text)
        envelope: dict[str, Any] = answer.json()
        if "success" in envelope:
            return response_from_json(json.dumps(envelope["success"]))
        if "error" in envelope:
            raise ToolCallError(tool, ToolError.model_validate(envelope["error"]))
        job = envelope.get("job_started", {})
        raise ToolCallError(
            tool,
            ToolError(
                code="JOB_STARTED",
                message=f"the call runs on as job {job.get('job_id')}; follow it with the job tools",
                details=job,
            ),
        )

    async def tools(self) -> list[ToolMetadata]:
        """Every tool the server offers (``GET /api/tools``)."""
        answer = await self._client.get(f"{self._base}/api/tools", headers=self._headers)
        if answer.status_code != 200:
            raise ServerError(answer.status_code, answer.text)
        return [ToolMetadata.model_validate(t) for t in answer.json()["tools"]]

    async def events(
        self,
        tools: Sequence[str] = (),
        *,
        on_lag: Literal["skip", "raise"] = "skip",
    ) -> AsyncIterator[ToolEvent]:
        """Follows ``GET /api/events``: every tool event from now on (only
        ``tools``' when given) until the server ends the stream. A
        subscriber that falls behind loses the oldest events; with
        ``on_lag="raise"`` it is told by :class:`Lagged`."""
        params = httpx.QueryParams([("tool", name) for name in tools])
        headers = {**self._headers, "accept": "text/event-stream"}
        async with self._client.stream(
            "GET", f"{self._base}/api/events", params=params, headers=headers
        ) as answer:
            if answer.status_code != 200:
                await answer.aread()
                raise ServerError(answer.status_code, answer.text)
            name, data = "message", []
            async for line in answer.aiter_lines():
                if line:
                    field, _, value = line.partition(":")
                    value = value.removeprefix(" ")
                    if field == "event":
                        name = value
                    elif field == "data":
                        data.append(value)
                    continue
                # A blank line ends the event.
                if data:
                    payload: dict[str, Any] = json.loads("\n".join(data))
                    if name == "tool_start":
                        yield ToolStartEvent.model_validate(payload)
                    elif name == "tool_complete":
                        yield ToolCompleteEvent.model_validate(payload)
                    elif name == "error":
                        yield CallErrorEvent.model_validate(payload)
                    elif name == "lagged" and on_lag == "raise":
                        raise Lagged(int(payload.get("missed", 0)))
                name, data = "message", []
