//! `@app`: a tool's MCP App. Its file is read here, once, so that backends
//! only copy the model's HTML; its CSP origins are checked; and its
//! `ui://` URI must be no declared resource's.

use std::path::Path;

use toolwright_vocab::UriTemplate;

use super::attrs::Attrs;
use super::symbols::Symbols;
use crate::diag::Ctxt;
use crate::diag::messages::{self, AppFileProblem};
use crate::model::{App, AppSource, MAX_APP_BYTES, Tool};
use crate::source::{Sources, Span};
use crate::syntax::ast::{ClauseKind, EntryKind};
use crate::syntax::keywords;

/// Origins as `@app_connect`, `@app_resources`, `@app_frames` or
/// `@app_base_uri` gives them.
type Origins = Option<(Span, Vec<(String, Span)>)>;

/// The app of tool `tool` from its attributes; `None` without `@app` or
/// when its file cannot be served (reported).
/// `@app("apps/none.html")` → TW510; `@app_connect("api.example.com")` →
/// TW511; `@app_connect(…)` or `@app_border` without `@app` → TW302.
pub(super) fn lower(
    cx: &mut Ctxt,
    sources: &Sources,
    tool: &str,
    attrs: &mut Attrs,
) -> Option<App> {
    let connect = origins(cx, keywords::APP_CONNECT, attrs.app_connect.take());
    let resources = origins(cx, keywords::APP_RESOURCES, attrs.app_resources.take());
    let frames = origins(cx, keywords::APP_FRAMES, attrs.app_frames.take());
    let base_uri = origins(cx, keywords::APP_BASE_URI, attrs.app_base_uri.take());
    let permissions = attrs.app_permissions.take();
    let border = attrs.app_border.take();
    let Some((_, path)) = attrs.app.take() else {
        let written = [
            (keywords::APP_CONNECT, connect.map(|(span, _)| span)),
            (keywords::APP_RESOURCES, resources.map(|(span, _)| span)),
            (keywords::APP_FRAMES, frames.map(|(span, _)| span)),
            (keywords::APP_BASE_URI, base_uri.map(|(span, _)| span)),
            (keywords::APP_PERMISSIONS, permissions.map(|(span, _)| span)),
            (keywords::APP_BORDER, border.map(|(span, _)| span)),
        ];
        for (attribute, span) in written {
            if let Some(span) = span {
                cx.push(messages::app_attribute_without_app(span, attribute, tool));
            }
        }
        return None;
    };
    let source = match path {
        None => AppSource::Generated,
        Some((path, span)) => read(cx, sources, &path, span)?,
    };
    let listed = |origins: Option<(Span, Vec<String>)>| origins.map(|(_, o)| o).unwrap_or_default();
    Some(App {
        uri: App::uri_of(tool),
        source,
        connect_domains: listed(connect),
        resource_domains: listed(resources),
        frame_domains: listed(frames),
        base_uri_domains: listed(base_uri),
        permissions: permissions.map(|(_, p)| p).unwrap_or_default(),
        prefers_border: border.map(|(_, b)| b),
    })
}

/// Each origin of one attribute, reporting those that are not.
fn origins(cx: &mut Ctxt, attribute: &str, written: Origins) -> Option<(Span, Vec<String>)> {
    let (span, values) = written?;
    let mut out = Vec::new();
    for (value, at) in values {
        match origin_problem(&value) {
            Some(problem) => cx.push(messages::app_origin(at, attribute, &value, problem)),
            None if out.contains(&value) => {}
            None => out.push(value),
        }
    }
    Some((span, out))
}

/// What keeps `value` from being an origin a CSP can name: a scheme of
/// `https`/`wss` (or `http`/`ws` for the local machine), a lower-case host
/// whose first label may be `*`, an optional port, and nothing after.
fn origin_problem(value: &str) -> Option<&'static str> {
    let Some((scheme, rest)) = value.split_once("://") else {
        return Some("no scheme: start it with `https://`");
    };
    let secure = matches!(scheme, "https" | "wss");
    if !secure && !matches!(scheme, "http" | "ws") {
        return Some("the scheme is not `https`, `wss`, `http` or `ws`");
    }
    if rest.contains(['/', '?', '#', '@']) {
        return Some("an origin has no path, query, fragment or user");
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (rest, None),
    };
    if let Some(port) = port
        && port.parse::<u16>().map_or(true, |p| p == 0)
    {
        return Some("the port is not a number from 1 to 65535");
    }
    let bare = host.strip_prefix("*.").unwrap_or(host);
    let label_ok = |label: &str| {
        !label.is_empty()
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    if bare.is_empty() || !bare.split('.').all(label_ok) {
        return Some("the host is not a lower-case domain name");
    }
    if !secure && !matches!(host, "localhost" | "127.0.0.1") {
        return Some("only `localhost` may be reached without TLS");
    }
    None
}

/// Reads the file `@app("path")` names, relative to the `.tool` file:
/// from the bytes attached to the sources at that path, else from disk.
fn read(cx: &mut Ctxt, sources: &Sources, path: &str, span: Span) -> Option<AppSource> {
    let file = sources.get(span.file);
    let tool_file = file.path().unwrap_or_else(|| Path::new(file.name()));
    let resolved = tool_file.parent().unwrap_or(Path::new("")).join(path);
    let shown = resolved.to_string_lossy().replace('\\', "/");
    let read = match sources.attached(&resolved) {
        Some(bytes) => page(bytes.to_vec()),
        None => from_disk(&resolved),
    };
    match read {
        Ok(html) => Some(AppSource::File {
            path: path.to_owned(),
            resolved,
            html,
        }),
        Err(problem) => {
            cx.push(messages::app_file(span, path, &shown, problem));
            None
        }
    }
}

/// The page at `resolved` on disk, or what is wrong with it.
fn from_disk(resolved: &Path) -> Result<String, AppFileProblem> {
    match std::fs::metadata(resolved) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(AppFileProblem::Missing),
        Err(e) => Err(AppFileProblem::Unreadable(e.to_string())),
        Ok(meta) if meta.is_dir() => Err(AppFileProblem::Unreadable("it is a directory".into())),
        // Checked before reading, so a huge file is never loaded.
        Ok(meta) if meta.len() > MAX_APP_BYTES => {
            Err(AppFileProblem::TooLarge(meta.len(), MAX_APP_BYTES))
        }
        Ok(_) => std::fs::read(resolved)
            .map_err(|e| AppFileProblem::Unreadable(e.to_string()))
            .and_then(page),
    }
}

/// A page's bytes as its text, or what is wrong with them.
fn page(bytes: Vec<u8>) -> Result<String, AppFileProblem> {
    let size = bytes.len() as u64;
    if size > MAX_APP_BYTES {
        return Err(AppFileProblem::TooLarge(size, MAX_APP_BYTES));
    }
    String::from_utf8(bytes).map_err(|e| AppFileProblem::NotUtf8(e.utf8_error().valid_up_to()))
}

/// Each app whose `ui://` URI a declared resource's URI (or template)
/// matches. `resource r { uri "ui://add" }` beside `@app tool add` → TW512.
pub(super) fn collisions(symbols: &Symbols<'_>, tools: &[Tool], cx: &mut Ctxt) {
    let resources: Vec<(&str, UriTemplate, Span)> = symbols
        .entries
        .iter()
        .filter(|item| item.entry.kind == EntryKind::Resource)
        .filter_map(|item| {
            let uri = item.entry.clauses.iter().find_map(|c| match &c.kind {
                ClauseKind::Uri(uri) => Some(uri),
                _ => None,
            })?;
            let template = UriTemplate::parse(&uri.value).ok()?;
            Some((item.entry.name.name.as_str(), template, uri.span))
        })
        .collect();
    for (tool, app) in tools.iter().filter_map(|t| t.app.as_ref().map(|a| (t, a))) {
        let Some((name, _, at)) = resources
            .iter()
            .find(|(_, template, _)| template.matches(&app.uri).is_some())
        else {
            continue;
        };
        let span = symbols
            .tools
            .iter()
            .find(|entry| entry.tool.name.name == tool.name)
            .and_then(|entry| {
                entry
                    .tool
                    .meta
                    .attrs
                    .iter()
                    .find(|a| a.name.name == keywords::APP)
            })
            .map(|attr| attr.span);
        if let Some(span) = span {
            cx.push(messages::app_uri_taken(
                span, &tool.name, &app.uri, name, *at,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::origin_problem;

    #[test]
    fn origins_are_a_scheme_a_host_and_a_port() {
        for good in [
            "https://api.example.com",
            "https://*.example.com",
            "wss://realtime.example.com:8443",
            "http://localhost:8080",
            "ws://127.0.0.1:9000",
        ] {
            assert_eq!(origin_problem(good), None, "{good}");
        }
        for bad in [
            "api.example.com",
            "ftp://example.com",
            "https://example.com/",
            "https://example.com/api",
            "https://Example.com",
            "https://example.com:0",
            "https://example.com:99999",
            "http://example.com",
            "https://",
            "https://a..b",
        ] {
            assert!(origin_problem(bad).is_some(), "{bad}");
        }
    }
}

#[cfg(test)]
mod files {
    use crate::diag::Code;
    use crate::model::{AppSource, MAX_APP_BYTES};
    use crate::{Sources, check};

    const TOOL: &str =
        "/// Sums.\ncategory view;\n\n@app(\"apps/view.html\")\ntool view { timing sync }\n";

    /// Checks `view.tool` beside `apps/view.html` holding `html`.
    fn with_app(html: &[u8]) -> Result<crate::Model, Vec<Code>> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("view.tool"), TOOL).unwrap();
        std::fs::create_dir(dir.path().join("apps")).unwrap();
        std::fs::write(dir.path().join("apps/view.html"), html).unwrap();
        let sources = Sources::load(&[dir.path()]).unwrap();
        check(&sources).map_err(|d| d.iter().map(|d| d.code).collect())
    }

    #[test]
    fn a_hand_written_app_is_read_beside_its_tool_file() {
        let model = with_app(b"<!DOCTYPE html><p>view</p>").unwrap();
        let app = model.tools[0].app.as_ref().unwrap();
        assert_eq!(app.uri, "ui://view");
        let AppSource::File {
            path,
            resolved,
            html,
        } = &app.source
        else {
            panic!("a file");
        };
        assert_eq!(path, "apps/view.html");
        assert!(resolved.ends_with("apps/view.html"));
        assert_eq!(html, "<!DOCTYPE html><p>view</p>");
        let schema = crate::lang::schema::mcp_schema(&model);
        assert_eq!(schema["apps"]["ui://view"], "<!DOCTYPE html><p>view</p>");
        assert_eq!(
            schema["tools"][0]["_meta"]["ui"]["resourceUri"],
            "ui://view"
        );
        assert_eq!(
            schema["resources"][0]["mimeType"],
            "text/html;profile=mcp-app"
        );
    }

    #[test]
    fn a_file_that_cannot_be_served_is_tw510() {
        assert_eq!(with_app(b"<p>\xff</p>").err(), Some(vec![Code::AppFile]));
        let large = vec![b' '; usize::try_from(MAX_APP_BYTES).unwrap() + 1];
        assert_eq!(with_app(&large).err(), Some(vec![Code::AppFile]));
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("view.tool"), TOOL).unwrap();
        std::fs::create_dir_all(dir.path().join("apps/view.html")).unwrap();
        let sources = Sources::load(&[dir.path().join("view.tool")]).unwrap();
        let codes: Vec<Code> = check(&sources)
            .unwrap_err()
            .iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(codes, [Code::AppFile]);
    }
}
