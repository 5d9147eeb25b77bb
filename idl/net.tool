/// Network (HIP-0300 `net`): HTTP without a shell, so agents never need
/// `curl` in `proc.exec`. Requests and downloads follow the server's
/// network policy; downloads stream transfer progress.
category net;

/// Make HTTP requests, download files and open pages in a browser.
@open_world
tool net {
    title "Network"

    /// Send an HTTP request and return the response.
    action request {
        timing async_short
        title "HTTP request"
        request {
            /// Absolute `http` or `https` URL.
            @pattern("^https?://")
            url: string,
            /// HTTP method.
            method: HttpMethod = get,
            /// Request headers by name.
            headers: map<string>?,
            /// Request body as text.
            body: string?,
            /// Request body as raw bytes; takes precedence over `body`.
            body_bytes: bytes?,
            /// Give up after this many milliseconds.
            @range(100, 300000)
            timeout_ms: u32 = 30000,
            /// Follow 3xx redirects.
            follow_redirects: bool = true,
            /// Largest response body to accept, in bytes.
            @range(1, 104857600)
            max_response_bytes: u64 = 10485760,
        }
        /// The server's answer to an HTTP request.
        response HttpResponse {
            /// HTTP status code.
            @range(100, 599)
            status: u16,
            /// Response headers by lower-case name (repeated headers joined with `, `).
            headers: map<string>,
            /// Body as text, when the content type is textual.
            body: string?,
            /// Body as raw bytes, when the content type is binary.
            body_bytes: bytes?,
            /// URL after redirects.
            final_url: string,
            /// Time from sending to the last body byte, in milliseconds.
            elapsed_ms: u64,
        }
    }

    /// Download a URL to a file in the workspace.
    action download {
        timing async_medium
        title "Download file"
        request {
            /// Absolute `http` or `https` URL.
            @pattern("^https?://")
            url: string,
            /// Destination file.
            @pattern("^file://")
            output: string,
            /// Replace the destination if it exists.
            overwrite: bool = false,
            /// Expected SHA-256 of the content; the download fails if it differs.
            @pattern("^[0-9a-f]{64}$")
            expected_sha256: string?,
        }
        response {
            /// The written file.
            uri: string,
            /// Size in bytes.
            size: u64,
            /// SHA-256 of the content.
            sha256: string,
            /// Content type the server declared.
            content_type: string?,
        }
    }

    /// Open a URL in the user's browser.
    action open {
        timing fire_and_forget
        title "Open in browser"
        request {
            /// The URL to open.
            @pattern("^https?://")
            url: string,
        }
    }

    stream TransferProgress
    errors NetError
}

/// HTTP methods.
enum HttpMethod {
    /// GET: read a resource.
    get,
    /// HEAD: like GET, headers only.
    head,
    /// POST: submit data.
    post,
    /// PUT: replace a resource.
    put,
    /// PATCH: modify part of a resource.
    patch,
    /// DELETE: remove a resource.
    delete,
    /// OPTIONS: ask what the resource allows.
    options,
}

/// Errors from network actions.
error NetError {
    /// The URL is malformed or not http(s).
    invalid_url {
        /// The rejected URL.
        url: string,
    },
    /// The server's network policy forbids this host.
    blocked_by_policy {
        /// The forbidden host.
        host: string,
    },
    /// The host name did not resolve.
    dns_failed {
        /// The host name.
        host: string,
    },
    /// The connection could not be made or was dropped.
    connection_failed {
        /// What the network stack reported.
        message: string,
    },
    /// The TLS handshake or certificate check failed.
    tls_failed {
        /// What the TLS library reported.
        message: string,
    },
    /// No response within `timeout_ms`.
    timed_out {
        /// Time waited, in milliseconds.
        elapsed_ms: u64,
    },
    /// The response body exceeded the size limit.
    too_large {
        /// The limit, in bytes.
        limit: u64,
    },
    /// A download got a non-2xx status.
    http_status {
        /// The status code.
        status: u16,
    },
    /// The downloaded content's SHA-256 differs from `expected_sha256`.
    checksum_mismatch {
        /// The hash the caller expected.
        expected: string,
        /// The hash of what arrived.
        actual: string,
    },
    /// The destination exists and `overwrite` is false.
    destination_exists {
        /// The destination file.
        uri: string,
    },
}
