"""The official MCP Python SDK client, with its OAuth support, against the
studio as an OAuth 2.1 resource server: the client finds the authorization
server through the studio's 401 and protected-resource metadata, gets a
token for the studio (client_credentials), and calls; the scopes the IDL
declares on the content store are enforced, and a caller without a token
gets nowhere."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest
from conftest import AuthorizationServer, Studio
from mcp import Client
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Memory:
    """Token storage for one client, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


@asynccontextmanager
async def connect(studio: Studio, issuer: str, client_id: str, secret: str) -> AsyncIterator[Client]:
    auth = ClientCredentialsOAuthProvider(
        server_url=studio.url,
        storage=Memory(),
        client_id=client_id,
        client_secret=secret,
        issuer=issuer,
    )
    http = create_mcp_http_client(auth=auth)
    async with http:
        async with Client(streamable_http_client(studio.url, http_client=http), read_timeout_seconds=30) as client:
            yield client


def structured(result: Any) -> Any:
    assert not result.is_error, result.structured_content or result.content
    return result.structured_content


async def test_a_client_finds_the_issuer_gets_a_token_and_calls(
    studio: Studio, authorization_server: AuthorizationServer
) -> None:
    async with connect(studio, authorization_server.issuer, "writer", "writer-secret") as client:
        assert structured(await client.call_tool("add", {"a": 2, "b": 3})) == {"result": 5}
        data = base64.b64encode(b"tune").decode()
        stored = structured(await client.call_tool("cas_store", {"data": data, "mime_type": "text/plain"}))
        got = structured(await client.call_tool("cas_get", {"hash": stored["hash"]}))
        assert base64.b64decode(got["data"]) == b"tune"
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert (listed["cas_store"].meta or {}).get("toolwright/scopes") == ["cas:write"]
        assert "toolwright/scopes" not in (listed["add"].meta or {})
    # The token was made for this server alone.
    (claims,) = authorization_server.issued
    assert claims["aud"] == studio.resource
    assert claims["sub"] == "client:writer"


async def test_a_missing_scope_is_forbidden_and_names_it(
    studio: Studio, authorization_server: AuthorizationServer
) -> None:
    async with connect(studio, authorization_server.issuer, "reader", "reader-secret") as client:
        data = base64.b64encode(b"tune").decode()
        refused = await client.call_tool("cas_store", {"data": data})
        assert refused.is_error
        error = refused.structured_content
        assert isinstance(error, dict), refused.content
        assert error["code"] == "FORBIDDEN"
        assert "cas:write" in error["message"]
        # What it may do, it does: `cas:read` is enough to look.
        missing = "0" * 64
        inspected = await client.call_tool("cas_inspect", {"hash": missing})
        assert not (inspected.is_error and (inspected.structured_content or {}).get("code") == "FORBIDDEN")


async def test_without_a_token_the_server_answers_401_with_its_metadata(studio: Studio) -> None:
    async with httpx2.AsyncClient() as http:
        answer = await http.post(
            studio.url,
            json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
            headers={"Accept": "application/json, text/event-stream"},
        )
        assert answer.status_code == 401
        challenge = answer.headers["www-authenticate"]
        metadata_url = challenge.split('resource_metadata="')[1].split('"')[0]
        metadata = (await http.get(metadata_url)).json()
        assert metadata["resource"] == studio.resource
        assert "cas:write" in metadata["scopes_supported"]
