"""The Python reference server of the MCP benchmark: the `mcp` SDK's bundled
FastMCP (`MCPServer` in mcp 2) with the studio's `add` tool.

    python fastmcp_add.py --stdio
    python fastmcp_add.py --http 127.0.0.1:PORT     (endpoint /mcp)
"""

from __future__ import annotations

import sys

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel


class MathResult(BaseModel):
    """The result of a binary operation."""

    result: int


server = MCPServer("fastmcp-add", log_level="WARNING")


@server.tool()
def add(a: int, b: int) -> MathResult:
    """Add two integers."""
    return MathResult(result=a + b)


def main(argv: list[str]) -> None:
    match argv:
        case ["--stdio"]:
            server.run("stdio")
        case ["--http", addr]:
            host, _, port = addr.rpartition(":")
            server.run("streamable-http", host=host, port=int(port), streamable_http_path="/mcp")
        case _:
            sys.exit("usage: fastmcp_add.py (--stdio | --http HOST:PORT)")


if __name__ == "__main__":
    main(sys.argv[1:])
