"""Tool metadata for discovery (``GET /api/tools``) and the tool events a
frontend follows (``tool_start`` / ``tool_complete`` / ``error``)."""

import datetime
import enum
from collections.abc import Iterable
from typing import Any, Literal

import pydantic
import pydantic.alias_generators


class ToolSource(enum.StrEnum):
    """Where a tool comes from."""

    LOCAL = "local"
    """Served by this catalogue's own handlers."""
    MCP = "mcp"
    """Forwarded to an MCP server."""


class Timing(enum.StrEnum):
    """How the dispatcher answers a call."""

    SYNC = "sync"
    """Answered inline."""
    ASYNC_SHORT = "async_short"
    """Inline if done within the short wait budget, else a job."""
    ASYNC_MEDIUM = "async_medium"
    """Inline if done within the medium wait budget, else a job."""
    ASYNC_LONG = "async_long"
    """Always a job, answered with its id at once."""
    FIRE_AND_FORGET = "fire_and_forget"
    """Acknowledged with a job id at once; the result is never sent."""


class _Metadata(pydantic.BaseModel):
    # The JSON document (``GET /api/tools``) spells multi-word keys in
    # camelCase; attributes are snake_case and accept either spelling.
    # Keys a newer server adds are ignored.
    model_config = pydantic.ConfigDict(
        frozen=True,
        use_enum_values=False,
        populate_by_name=True,
        alias_generator=pydantic.alias_generators.to_camel,
        extra="ignore",
    )


class ParameterConstraints(_Metadata):
    """A parameter's declared constraints."""

    range: tuple[float, float] | None = None
    """``@range``: inclusive numeric bounds."""
    length: tuple[int, int] | None = None
    """``@length``: inclusive bounds on characters, bytes or entries."""
    pattern: str | None = None
    """``@pattern``: a regular expression strings must match."""


class ToolParameter(_Metadata):
    """One field of a tool's (or action's) request or response."""

    name: str
    """The field's wire name."""
    type: str | None = None
    """Its JSON Schema type: ``string``, ``integer``, ``number``,
    ``boolean``, ``array`` or ``object``; ``None`` for a ``json`` field,
    whose value may be any JSON value."""
    idl_type: str | None = None
    """The IDL type, e.g. ``u32``, ``list<string>``, ``AudioFormat?``."""
    description: str | None = None
    """The field's documentation."""
    required: bool = True
    """True when a caller must send it (not optional, no default)."""
    default: Any = None
    """The value used when it is left out (``None``: no default)."""
    constraints: ParameterConstraints | None = None
    """``@range``, ``@length``, ``@pattern``, when declared."""
    deprecated: str | None = None
    """Why it is deprecated (empty string: no reason given)."""
    actions: tuple[str, ...] = ()
    """In an action tool's own ``parameters``: the actions that take it, in
    declaration order (empty for ``action`` and everywhere else). A call of
    one action sends ``action`` and the parameters that list it."""


class ToolAnnotations(_Metadata):
    """MCP tool annotations."""

    read_only: bool = pydantic.Field(default=False, alias="readOnlyHint")
    """The tool does not modify its environment."""
    destructive: bool = pydantic.Field(default=False, alias="destructiveHint")
    """The tool may perform destructive updates."""
    idempotent: bool = pydantic.Field(default=False, alias="idempotentHint")
    """Calling again with the same arguments has no further effect."""
    open_world: bool = pydantic.Field(default=False, alias="openWorldHint")
    """The tool interacts with an open world of external entities."""


class ToolErrorMetadata(_Metadata):
    """One of a tool's own errors."""

    code: str
    """Its stable code."""
    name: str
    """The error variant's IDL name."""
    description: str | None = None
    """When it happens."""


class ToolStreamMetadata(_Metadata):
    """What a streaming tool sends while it runs."""

    idl_type: str
    """The IDL type of each chunk."""
    description: str | None = None
    """What the chunks are."""


class ToolSample(_Metadata):
    """A sample call made from the types, each argument within its field's
    constraints: what a form starts from when no example is declared. It has
    no response: only a declared example says what a tool answers.
    """

    request: dict[str, Any]
    """The arguments (with ``action`` for an action)."""


class ToolExampleError(_Metadata):
    """The error a declared example fails with."""

    code: str
    """Its stable code, such as ``OVERFLOW``."""
    details: Any = None
    """The error's details as the wire carries them (``{"variant": {fields}}``), when stated."""


class ToolExample(_Metadata):
    """A declared example, checked against the types by ``toolwright check``
    and run against the handlers by the server's tests: a call, and the
    response it answers or the error it fails with (neither: it succeeds).
    """

    title: str
    """What it shows, unique within its tool or action."""
    request: dict[str, Any]
    """The arguments (with ``action`` for an action)."""
    response: Any = None
    """The response it answers, when stated."""
    error: ToolExampleError | None = None
    """The error it fails with, when it fails."""


class ActionMetadata(_Metadata):
    """One action of an action tool."""

    name: str
    """The action's wire name."""
    title: str | None = None
    """Human-readable title."""
    description: str | None = None
    """The action's documentation."""
    timing: Timing
    """How the dispatcher answers it."""
    paged: bool = False
    """True when it answers a page at a time (``cursor`` in, ``paging`` out)."""
    parameters: tuple[ToolParameter, ...] = ()
    """Its request's fields."""
    response: tuple[ToolParameter, ...] | None = None
    """Its response's fields; ``None`` for an acknowledgement."""
    example: ToolSample | None = None
    """A sample call made from the types."""
    examples: tuple[ToolExample, ...] = ()
    """Its declared examples."""
    deprecated: str | None = None
    """Why it is deprecated (empty string: no reason given)."""
    input_schema: dict[str, Any] | None = None
    """Its MCP input schema (in ``GET /api/tools``)."""
    output_schema: dict[str, Any] | None = None
    """Its MCP output schema (in ``GET /api/tools``)."""


class ToolMetadata(_Metadata):
    """Metadata about a tool for frontend discovery and execution: an entry
    of ``GET /api/tools`` (docs/web.md), the same in every language."""

    name: str = pydantic.Field(description="Tool name")
    title: str | None = pydantic.Field(default=None, description="Human-readable title")
    description: str | None = pydantic.Field(default=None, description="Tool description")
    category: str = pydantic.Field(default="", description="The category of its file")
    source: ToolSource = pydantic.Field(
        default=ToolSource.LOCAL, description="Tool source (local or mcp)"
    )
    served: bool | None = pydantic.Field(
        default=None,
        description="Whether the server has a handler for it (None when it does not say)",
    )
    timing: Timing | None = pydantic.Field(
        default=None,
        description="How the dispatcher answers a call (None for action tools: see each action)",
    )
    annotations: ToolAnnotations = pydantic.Field(default_factory=ToolAnnotations)
    scopes: tuple[str, ...] = ()
    """The OAuth scopes a call needs, all of them; empty when it needs none."""
    parameters: tuple[ToolParameter, ...] = ()
    """The request's fields (for an action tool, just ``action``)."""
    actions: tuple[ActionMetadata, ...] = ()
    """The actions of an action tool, in declaration order."""
    error_codes: tuple[str, ...] = ()
    """The codes of the tool's own errors."""
    errors: tuple[ToolErrorMetadata, ...] = ()
    """The tool's own errors, with what they mean."""
    response: tuple[ToolParameter, ...] | None = None
    """The response's fields (single tools; ``None`` for an acknowledgement)."""
    streams: bool = False
    """True when it streams chunks while it runs."""
    paged: bool = False
    """True when it answers a page at a time (``cursor`` in, ``paging`` out)."""
    stream: ToolStreamMetadata | None = None
    """What it streams."""
    example: ToolSample | None = None
    """A sample call made from the types (single tools; see each action)."""
    examples: tuple[ToolExample, ...] = ()
    """Its declared examples (single tools; see each action)."""
    deprecated: str | None = None
    """Why the tool is deprecated (empty string: no reason given)."""
    input_schema: dict[str, Any] | None = None
    """Its MCP input schema (in ``GET /api/tools``)."""
    output_schema: dict[str, Any] | None = None
    """Its MCP output schema (in ``GET /api/tools``)."""
    error_schema: dict[str, Any] | None = None
    """The schema of its typed errors' ``details``, when it has some (in
    ``GET /api/tools``)."""


class ResourceContents(_Metadata):
    """What reading a resource returns."""

    kind: Literal["text", "bytes", "typed"]
    """``text``, ``bytes`` (base64 in JSON), or ``typed`` (a declared type's JSON)."""
    idl_type: str
    """The IDL type: ``string``, ``bytes``, or the declared type's name."""


class ResourceAnnotations(_Metadata):
    """MCP's resource annotations."""

    audience: tuple[Literal["user", "assistant"], ...] = ()
    """Who it is for; empty when not said."""
    priority: float | None = None
    """How important it is, from 0 (least) to 1 (most)."""


class ResourceCache(_Metadata):
    """``@cache``: how long a read may be kept, and by whom."""

    ttl_ms: int
    """How long, in milliseconds."""
    scope: Literal["public", "private"]
    """``public``: any cache; ``private``: only the client that read it."""


class CompletionMetadata(_Metadata):
    """An argument of a resource or prompt that completes, and how."""

    argument: str
    """The argument (a template's variable, a prompt's argument)."""
    by: Literal["enum", "handler"]
    """``enum``: from ``values``, with no call; ``handler``: its ``@complete`` handler."""
    values: tuple[str, ...] | None = None
    """The enum's values (``by == "enum"``)."""


class ResourceMetadata(_Metadata):
    """What a frontend knows about a resource: an entry of ``resources`` in
    ``GET /api/tools`` (docs/web.md)."""

    name: str
    """Its name."""
    title: str | None = None
    """Human-readable title."""
    description: str | None = None
    """What it is."""
    category: str = ""
    """The category of the file that declares it."""
    source: ToolSource = ToolSource.LOCAL
    """Where it is served from."""
    uri: str
    """The fixed URI, or the RFC 6570 template as written."""
    template: bool = False
    """True when ``uri`` is a template (its variables are ``arguments``)."""
    mime_type: str
    """The MIME type a read returns (one read may say its own)."""
    contents: ResourceContents
    """What a read returns."""
    size: int | None = None
    """Its size in bytes, when known in advance."""
    annotations: ResourceAnnotations | None = None
    """MCP annotations, when declared."""
    subscribable: bool = False
    """True when clients may subscribe to its updates."""
    cache: ResourceCache | None = None
    """How long a read may be kept, when declared."""
    scopes: tuple[str, ...] = ()
    """The OAuth scopes a read needs, all of them; empty when it needs none."""
    arguments: tuple[ToolParameter, ...] = ()
    """The template's variables; empty for a fixed URI."""
    completions: tuple[CompletionMetadata, ...] = ()
    """The arguments that complete, and how."""
    errors: tuple[ToolErrorMetadata, ...] = ()
    """Its own errors, with what they mean."""
    deprecated: str | None = None
    """Why it is deprecated (empty string: no reason given)."""
    input_schema: dict[str, Any] | None = None
    """The schema its arguments are checked against (in ``GET /api/tools``)."""


class PromptMetadata(_Metadata):
    """What a frontend knows about a prompt: an entry of ``prompts`` in
    ``GET /api/tools`` (docs/web.md)."""

    name: str
    """Its name."""
    title: str | None = None
    """Human-readable title."""
    description: str | None = None
    """What it is for."""
    category: str = ""
    """The category of the file that declares it."""
    source: ToolSource = ToolSource.LOCAL
    """Where it is served from."""
    scopes: tuple[str, ...] = ()
    """The OAuth scopes getting it needs, all of them; empty when it needs none."""
    arguments: tuple[ToolParameter, ...] = ()
    """Its arguments."""
    completions: tuple[CompletionMetadata, ...] = ()
    """The arguments that complete, and how."""
    errors: tuple[ToolErrorMetadata, ...] = ()
    """Its own errors, with what they mean."""
    deprecated: str | None = None
    """Why it is deprecated (empty string: no reason given)."""
    input_schema: dict[str, Any] | None = None
    """The schema its arguments are checked against (in ``GET /api/tools``)."""


class ToolRegistry:
    """Tools by name, with their metadata."""

    def __init__(self, tools: Iterable[ToolMetadata] = ()) -> None:
        self._tools: dict[str, ToolMetadata] = {}
        for tool in tools:
            self.register_tool(tool)

    def register_tool(self, tool: ToolMetadata) -> None:
        """Registers (or replaces) a tool."""
        self._tools[tool.name] = tool

    def get_tool(self, name: str) -> ToolMetadata | None:
        """The metadata of a tool, if it is registered."""
        return self._tools.get(name)

    def get_all_tools(self) -> list[ToolMetadata]:
        """Every registered tool, in registration order."""
        return list(self._tools.values())

    def get_tool_source(self, name: str) -> ToolSource | None:
        """Where a tool comes from, if it is registered."""
        tool = self._tools.get(name)
        return tool.source if tool else None

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


class ToolStartEvent(pydantic.BaseModel):
    """Sent when a tool call starts."""

    type: Literal["tool_start"] = "tool_start"
    call_id: str | None = pydantic.Field(
        default=None, description="The call; its tool_complete carries the same id"
    )
    tool_name: str = pydantic.Field(description="Name of the tool being executed")
    action: str | None = pydantic.Field(default=None, description="The action, for an action tool")
    tool_input: str = pydantic.Field(description="JSON string of input arguments")
    source: ToolSource | None = pydantic.Field(
        default=ToolSource.LOCAL,
        description="Tool source: 'local' for local tools, 'mcp' for MCP protocol tools",
    )
    timestamp: str = pydantic.Field(
        default_factory=_now, description="ISO timestamp of tool start"
    )


class ToolCompleteEvent(pydantic.BaseModel):
    """Sent when a tool call completes."""

    type: Literal["tool_complete"] = "tool_complete"
    call_id: str | None = pydantic.Field(default=None, description="The call")
    job_id: str | None = pydantic.Field(
        default=None, description="The job the call ran as, when it ran as one"
    )
    tool_name: str = pydantic.Field(description="Name of the tool that completed")
    action: str | None = pydantic.Field(default=None, description="The action, for an action tool")
    tool_result: str = pydantic.Field(
        description="The response's fields, or the error, as JSON text"
    )
    success: bool | None = pydantic.Field(
        default=None, description="True when the tool answered a response"
    )
    error_code: str | None = pydantic.Field(
        default=None, description="The error's code, when it failed"
    )
    duration_ms: float | None = pydantic.Field(
        default=None, description="From start to end, in milliseconds"
    )
    source: ToolSource | None = pydantic.Field(
        default=ToolSource.LOCAL,
        description="Tool source: 'local' for local tools, 'mcp' for MCP protocol tools",
    )
    timestamp: str = pydantic.Field(
        default_factory=_now, description="ISO timestamp of tool completion"
    )


class CallErrorEvent(pydantic.BaseModel):
    """Sent for a call that failed before it started: its request could not
    be read, named no tool or action of the catalogue, or was refused at the
    door. No ``tool_start`` or ``tool_complete`` is sent for it."""

    type: Literal["error"] = "error"
    call_id: str | None = pydantic.Field(
        default=None, description="The call; no other event carries it"
    )
    tool_name: str | None = pydantic.Field(
        default=None, description="The tool the request named, when it could be read"
    )
    message: str = pydantic.Field(description="What is wrong, for a person")
    code: str | None = pydantic.Field(
        default=None,
        description="The error's code: INVALID_REQUEST, UNKNOWN_TOOL, FORBIDDEN, ...",
    )
    source: ToolSource | None = pydantic.Field(
        default=ToolSource.LOCAL,
        description="Tool source: 'local' for local tools, 'mcp' for MCP protocol tools",
    )
    timestamp: str = pydantic.Field(
        default_factory=_now, description="ISO timestamp of the refusal"
    )
