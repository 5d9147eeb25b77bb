"""An authorization server inside the tests, and the studio trusting it.

The authorization server is a small HTTP server on a free loopback port:
its RFC 8414 metadata, its key set (one Ed25519 key), and a token endpoint
for the client_credentials grant, which signs a JWT with that key for the
`resource` the client asks for and the scopes its client may have. The
studio binary is `$STUDIO_BIN`, else `$CARGO_TARGET_DIR/debug/studio`;
`tests/auth/run` builds it."""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ROOT = Path(__file__).resolve().parents[2]

# The clients the authorization server knows: id → (secret, scopes it may have).
CLIENTS = {
    "writer": ("writer-secret", {"cas:read", "cas:write"}),
    "reader": ("reader-secret", {"cas:read"}),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class AuthorizationServer:
    """The authorization server: where it is, and what it has issued."""

    issuer: str
    key: Ed25519PrivateKey
    issued: list[dict[str, object]] = field(default_factory=list)

    def sign(self, claims: dict[str, object]) -> str:
        return jwt.encode(claims, self.key, algorithm="EdDSA", headers={"kid": "k1"})

    def jwk(self) -> dict[str, str]:
        public = self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return {"kty": "OKP", "crv": "Ed25519", "x": b64url(public), "kid": "k1", "use": "sig"}


def handler_for(server: AuthorizationServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def reply(self, status: int, body: dict[str, object]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            issuer = server.issuer
            if self.path == "/.well-known/oauth-authorization-server":
                self.reply(
                    200,
                    {
                        "issuer": issuer,
                        "authorization_endpoint": f"{issuer}/authorize",
                        "token_endpoint": f"{issuer}/token",
                        "jwks_uri": f"{issuer}/jwks",
                        "grant_types_supported": ["client_credentials"],
                        "token_endpoint_auth_methods_supported": ["client_secret_basic"],
                        "response_types_supported": ["code"],
                    },
                )
            elif self.path == "/jwks":
                self.reply(200, {"keys": [server.jwk()]})
            else:
                self.reply(404, {"error": "not_found"})

        def do_POST(self) -> None:
            if self.path != "/token":
                self.reply(404, {"error": "not_found"})
                return
            length = int(self.headers.get("Content-Length", "0"))
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
            basic = self.headers.get("Authorization", "")
            client_id, secret = "", ""
            if basic.startswith("Basic "):
                client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
            known = CLIENTS.get(client_id)
            if form.get("grant_type") != "client_credentials" or known is None or known[0] != secret:
                self.reply(401, {"error": "invalid_client"})
                return
            asked = set(form.get("scope", "").split()) or known[1]
            scopes = sorted(asked & known[1])
            now = int(time.time())
            claims: dict[str, object] = {
                "iss": server.issuer,
                "sub": f"client:{client_id}",
                "aud": form.get("resource", ""),
                "scope": " ".join(scopes),
                "client_id": client_id,
                "iat": now,
                "exp": now + 600,
            }
            server.issued.append(claims)
            self.reply(
                200,
                {
                    "access_token": server.sign(claims),
                    "token_type": "Bearer",
                    "expires_in": 600,
                    "scope": " ".join(scopes),
                },
            )

    return Handler


@pytest.fixture
def authorization_server() -> Iterator[AuthorizationServer]:
    port = free_port()
    server = AuthorizationServer(issuer=f"http://127.0.0.1:{port}", key=Ed25519PrivateKey.generate())
    http = ThreadingHTTPServer(("127.0.0.1", port), handler_for(server))
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        http.shutdown()
        http.server_close()


def studio_bin() -> Path:
    explicit = os.environ.get("STUDIO_BIN")
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    path = Path(explicit) if explicit else target / "debug" / "studio"
    if not path.is_file():
        pytest.fail(f"no studio binary at {path}: build it with `cargo build -p studio`")
    return path


@dataclass
class Studio:
    """The studio serving MCP over HTTP, taking the authorization server's tokens."""

    url: str
    resource: str
    process: subprocess.Popen[bytes]


@pytest.fixture
def studio(authorization_server: AuthorizationServer) -> Iterator[Studio]:
    port = free_port()
    resource = f"http://127.0.0.1:{port}/mcp"
    with tempfile.TemporaryDirectory() as data:
        process = subprocess.Popen(
            [
                str(studio_bin()),
                "serve",
                "--http",
                f"127.0.0.1:{port}",
                "--auth-issuer",
                authorization_server.issuer,
                "--auth-audience",
                resource,
            ],
            env={**os.environ, "STUDIO_DATA": data, "STUDIO_JOBS": "memory"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"the studio exited: {process.stderr.read().decode() if process.stderr else ''}")
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            yield Studio(url=resource, resource=resource, process=process)
        finally:
            process.terminate()
            process.wait(timeout=10)
