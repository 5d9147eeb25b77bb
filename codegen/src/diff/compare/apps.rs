//! A tool's MCP App (`@app`) compared: whether it has one, the origins its
//! page may reach (its CSP), the permissions and border it asks its host
//! for, and where the page comes from.

use super::super::rules::{Category, Rule};
use super::{At, Walk};
use crate::model::{App, AppPermission, AppSource};

use Category::{Semantic, Wire};

impl Walk<'_> {
    /// The apps of tool `name` in both versions; a tool in one version
    /// only is reported as a tool, its app with it.
    pub(super) fn app(&mut self, name: &str, o: Option<&App>, n: Option<&App>, at: At) {
        let item = format!("{name}.app");
        match (o, n) {
            // As a removed resource: the app is one (`resources/read` of
            // `ui://<tool>` is told it does not exist), so wire; no
            // generated binding names it, so not source; and hosts that
            // rendered the tool's calls show them bare, so semantic.
            (Some(o), None) => self.push_at(
                Rule::AppRemoved,
                &item,
                format!("tool `{name}` lost its app `{}`", o.uri),
                "a read of its URI is told it does not exist, and hosts that rendered the app show the tool's calls without it",
                &[Wire, Semantic],
                at,
            ),
            (None, Some(n)) => self.push_at(
                Rule::AppAdded,
                &item,
                format!("tool `{name}` gained the app `{}`", n.uri),
                "",
                &[],
                at,
            ),
            (Some(o), Some(n)) => {
                self.csp(name, &item, o, n, at);
                self.permissions(name, &item, &o.permissions, &n.permissions, at);
                self.border(name, &item, o.prefers_border, n.prefers_border, at);
                self.page(name, &item, &o.source, &n.source, at);
            }
            (None, None) => {}
        }
    }

    /// The origins the page may reach: one it may no longer reach breaks
    /// what the page does there; one more is harmless to clients.
    fn csp(&mut self, name: &str, item: &str, o: &App, n: &App, at: At) {
        let lost = Reach::uncovered(o, n);
        if !lost.is_empty() {
            self.push_at(
                Rule::AppCspNarrowed,
                item,
                format!("the app of tool `{name}` may no longer {}", lost.said()),
                "hosts block what its page still asks of those origins: its requests fail, its scripts, styles, images or frames do not load",
                &[Semantic],
                at,
            );
        }
        let gained = Reach::uncovered(n, o);
        if !gained.is_empty() {
            self.push_at(
                Rule::AppCspWidened,
                item,
                format!("the app of tool `{name}` may now {}", gained.said()),
                "",
                &[],
                at,
            );
        }
    }

    /// The browser features the page asks for. One no longer asked for is
    /// one hosts stop granting, so what the page does with it fails, as
    /// with an origin lost; one more is a request a host may refuse or ask
    /// its user about, which the page must bear anyway (the extension says
    /// apps should not assume a permission granted).
    fn permissions(
        &mut self,
        name: &str,
        item: &str,
        o: &[AppPermission],
        n: &[AppPermission],
        at: At,
    ) {
        let missing = |these: &[AppPermission], from: &[AppPermission]| -> Vec<&'static str> {
            these
                .iter()
                .filter(|p| !from.contains(p))
                .map(|p| p.as_str())
                .collect()
        };
        let lost = missing(o, n);
        if !lost.is_empty() {
            self.push_at(
                Rule::AppPermissionRemoved,
                item,
                format!(
                    "the app of tool `{name}` no longer asks for {}",
                    listed(&lost)
                ),
                "hosts no longer grant it, so what its page does with it fails",
                &[Semantic],
                at,
            );
        }
        let gained = missing(n, o);
        if !gained.is_empty() {
            self.push_at(
                Rule::AppPermissionAdded,
                item,
                format!("the app of tool `{name}` now asks for {}", listed(&gained)),
                "",
                &[],
                at,
            );
        }
    }

    /// Whether the page would have a border: how hosts frame it, nothing
    /// a client relies on.
    fn border(&mut self, name: &str, item: &str, o: Option<bool>, n: Option<bool>, at: At) {
        if o == n {
            return;
        }
        let said = |border: Option<bool>| match border {
            None => "left to the host",
            Some(true) => "asked for",
            Some(false) => "asked to be left out",
        };
        self.push_at(
            Rule::AppBorderChanged,
            item,
            format!(
                "the border of tool `{name}`'s app was {} and is now {}",
                said(o),
                said(n)
            ),
            "",
            &[],
            at,
        );
    }

    /// Where the page comes from. A generated page follows its tool, whose
    /// changes are reported by their own rules; a hand-written one is
    /// compared by its content.
    fn page(&mut self, name: &str, item: &str, o: &AppSource, n: &AppSource, at: At) {
        let message = match (o, n) {
            (AppSource::Generated, AppSource::Generated) => return,
            (AppSource::File { html: was, .. }, AppSource::File { html: is, path, .. }) => {
                if was == is {
                    return;
                }
                format!("the page of tool `{name}`'s app (`{path}`) changed")
            }
            (AppSource::Generated, AppSource::File { path, .. }) => {
                format!("the app of tool `{name}` was generated and is now `{path}`")
            }
            (AppSource::File { path, .. }, AppSource::Generated) => {
                format!("the app of tool `{name}` was `{path}` and is now generated")
            }
        };
        self.push_at(Rule::AppPageChanged, item, message, "", &[], at);
    }
}

/// Origins an app may reach: by requests (`@app_connect`), by loading
/// (`@app_resources`), in frames (`@app_frames`) and as its base URI
/// (`@app_base_uri`).
struct Reach<'a> {
    connect: Vec<&'a str>,
    load: Vec<&'a str>,
    frame: Vec<&'a str>,
    base: Vec<&'a str>,
}

impl<'a> Reach<'a> {
    /// What `these` may reach that `by` may not.
    fn uncovered(these: &'a App, by: &App) -> Reach<'a> {
        Reach {
            connect: uncovered(&these.connect_domains, &by.connect_domains),
            load: uncovered(&these.resource_domains, &by.resource_domains),
            frame: uncovered(&these.frame_domains, &by.frame_domains),
            base: uncovered(&these.base_uri_domains, &by.base_uri_domains),
        }
    }

    fn is_empty(&self) -> bool {
        self.connect.is_empty()
            && self.load.is_empty()
            && self.frame.is_empty()
            && self.base.is_empty()
    }

    /// "connect to `a` or load from `b` and `c`".
    fn said(&self) -> String {
        let parts: Vec<String> = [
            ("connect to", &self.connect),
            ("load from", &self.load),
            ("embed", &self.frame),
            ("take its base URI from", &self.base),
        ]
        .into_iter()
        .filter(|(_, origins)| !origins.is_empty())
        .map(|(verb, origins)| format!("{verb} {}", listed(origins)))
        .collect();
        parts.join(" or ")
    }
}

/// The origins of `these` that no origin of `by` covers.
fn uncovered<'a>(these: &'a [String], by: &[String]) -> Vec<&'a str> {
    these
        .iter()
        .filter(|origin| !by.iter().any(|b| covers(b, origin)))
        .map(String::as_str)
        .collect()
}

/// Whether the CSP source `pattern` admits every host `origin` names: the
/// same origin, or `https://*.example.com` for `https://api.example.com`
/// and `https://*.api.example.com` (not for `https://example.com`). Both
/// are origins as the checker admits them (scheme, host, optional port).
fn covers(pattern: &str, origin: &str) -> bool {
    if pattern == origin {
        return true;
    }
    let (Some((p_scheme, p_rest)), Some((o_scheme, o_rest))) =
        (pattern.split_once("://"), origin.split_once("://"))
    else {
        return false;
    };
    let (p_host, p_port) = host_and_port(p_rest);
    let (o_host, o_port) = host_and_port(o_rest);
    let Some(suffix) = p_host.strip_prefix("*.") else {
        return false;
    };
    p_scheme == o_scheme
        && p_port == o_port
        && o_host
            .strip_suffix(suffix)
            .is_some_and(|label| label.ends_with('.') && label.len() > 1)
}

/// `api.example.com:8443` as its host and port.
fn host_and_port(rest: &str) -> (&str, Option<&str>) {
    match rest.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (rest, None),
    }
}

/// "`a`", "`a` and `b`", "`a`, `b` and `c`".
fn listed(origins: &[&str]) -> String {
    let quoted: Vec<String> = origins.iter().map(|o| format!("`{o}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{covers, uncovered};

    #[test]
    fn a_wildcard_covers_subdomains_of_its_scheme_and_port_only() {
        assert!(covers("https://a.example.com", "https://a.example.com"));
        assert!(covers("https://*.example.com", "https://a.example.com"));
        assert!(covers("https://*.example.com", "https://b.a.example.com"));
        assert!(covers("https://*.example.com", "https://*.a.example.com"));
        assert!(!covers("https://*.example.com", "https://example.com"));
        assert!(!covers("https://*.example.com", "https://aexample.com"));
        assert!(!covers("https://*.example.com", "wss://a.example.com"));
        assert!(!covers(
            "https://*.example.com",
            "https://a.example.com:8443"
        ));
        assert!(!covers("https://a.example.com", "https://*.example.com"));
        assert!(!covers("http://localhost:8080", "http://localhost:9090"));
    }

    #[test]
    fn origins_a_wildcard_takes_over_are_not_lost() {
        let old = [
            "https://a.example.com".to_owned(),
            "https://cdn.test".to_owned(),
        ];
        let new = ["https://*.example.com".to_owned()];
        assert_eq!(uncovered(&old, &new), ["https://cdn.test"]);
        assert_eq!(uncovered(&new, &old), ["https://*.example.com"]);
    }
}
