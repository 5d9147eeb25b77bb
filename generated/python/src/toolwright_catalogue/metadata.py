"""Tool metadata for discovery (``GET /api/tools``) and the tool events a
frontend follows (``tool_start`` / ``tool_complete``)."""

import datetime
import enum
from collections.abc import Iterable
from typing import Literal

import pydantic


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
    model_config = pydantic.ConfigDict(frozen=True, use_enum_values=False)


class ToolParameter(_Metadata):
    """One field of a tool's (or action's) request."""

    name: str
    """The field's wire name."""
    type: str
    """Its JSON Schema type: ``string``, ``integer``, ``number``,
    ``boolean``, ``array``, ``object``, or ``any`` for a ``json`` field."""
    description: str | None = None
    """The field's documentation."""
    required: bool = True
    """True when a caller must send it (not optional, no default)."""


class ToolAnnotations(_Metadata):
    """MCP tool annotations."""

    read_only: bool = False
    """The tool does not modify its environment."""
    destructive: bool = False
    """The tool may perform destructive updates."""
    idempotent: bool = False
    """Calling again with the same arguments has no further effect."""
    open_world: bool = False
    """The tool interacts with an open world of external entities."""


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
    parameters: tuple[ToolParameter, ...] = ()
    """Its request's fields."""


class ToolMetadata(_Metadata):
    """Metadata about a tool for frontend discovery and execution."""

    name: str = pydantic.Field(description="Tool name")
    title: str | None = pydantic.Field(default=None, description="Human-readable title")
    description: str | None = pydantic.Field(default=None, description="Tool description")
    source: ToolSource = pydantic.Field(
        default=ToolSource.LOCAL, description="Tool source (local or mcp)"
    )
    timing: Timing = pydantic.Field(description="How the dispatcher answers a call")
    annotations: ToolAnnotations = pydantic.Field(default_factory=ToolAnnotations)
    parameters: tuple[ToolParameter, ...] = ()
    """The request's fields (empty for action tools: see ``actions``)."""
    actions: tuple[ActionMetadata, ...] = ()
    """The actions of an action tool, in declaration order."""
    deprecated: str | None = None
    """Why the tool is deprecated (empty string: no reason given)."""


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
    tool_name: str = pydantic.Field(description="Name of the tool being executed")
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
    tool_name: str = pydantic.Field(description="Name of the tool that completed")
    tool_result: str = pydantic.Field(description="String representation of tool result")
    source: ToolSource | None = pydantic.Field(
        default=ToolSource.LOCAL,
        description="Tool source: 'local' for local tools, 'mcp' for MCP protocol tools",
    )
    timestamp: str = pydantic.Field(
        default_factory=_now, description="ISO timestamp of tool completion"
    )
