//! Who may call the studio's HTTP doors: `--auth-issuer URL` (again for
//! more issuers) and `--auth-audience URI` for OAuth access tokens, and
//! `--token T` (or `$STUDIO_TOKEN`) for one static bearer token.

use std::net::SocketAddr;

use toolwright::http::Auth;
use toolwright::mcp::HttpConfig;

/// The credentials flags, taken out of the arguments.
#[derive(Clone, Debug, Default)]
pub(crate) struct Credentials {
    issuers: Vec<String>,
    audience: Option<String>,
    token: Option<String>,
}

impl Credentials {
    /// Takes `--auth-issuer URL`…, `--auth-audience URI` and `--token T`
    /// out of `args`; the token from `$STUDIO_TOKEN` when not given.
    pub(crate) fn take(args: &mut Vec<String>) -> Result<Self, String> {
        let mut credentials = Credentials {
            token: std::env::var("STUDIO_TOKEN").ok().filter(|t| !t.is_empty()),
            ..Credentials::default()
        };
        while let Some(issuer) = take_value(args, "--auth-issuer")? {
            credentials.issuers.push(issuer);
        }
        credentials.audience = take_value(args, "--auth-audience")?;
        if let Some(token) = take_value(args, "--token")? {
            credentials.token = Some(token);
        }
        if credentials.audience.is_some() && credentials.issuers.is_empty() {
            return Err("--auth-audience needs --auth-issuer: who issues the tokens".into());
        }
        Ok(credentials)
    }

    /// `config` requiring these credentials, for a server listening on
    /// `local`. The resource tokens must name is `--auth-audience` (with
    /// the config's path added when it does not end with it: one audience
    /// gives each route of a gateway its own resource), else
    /// `http://LOCAL/PATH`.
    pub(crate) fn apply(&self, mut config: HttpConfig, local: SocketAddr) -> HttpConfig {
        if let Some(token) = &self.token {
            config = config.bearer_token(token.clone());
        }
        if self.issuers.is_empty() {
            return config;
        }
        let resource = match &self.audience {
            Some(audience) if audience.ends_with(&config.path) => audience.clone(),
            Some(audience) => format!("{}{}", audience.trim_end_matches('/'), config.path),
            None => format!("http://{local}{}", config.path),
        };
        let auth = self
            .issuers
            .iter()
            .fold(Auth::new(resource.clone()), |auth, issuer| {
                auth.issuer(issuer)
            });
        eprintln!(
            "studio: {} takes OAuth tokens for {resource} from {}",
            config.path,
            self.issuers.join(", ")
        );
        config.auth(auth)
    }
}

/// Takes `flag VALUE` out of `args`: `None` when the flag is not there.
fn take_value(args: &mut Vec<String>, flag: &str) -> Result<Option<String>, String> {
    let Some(at) = args.iter().position(|a| a == flag) else {
        return Ok(None);
    };
    if at + 1 >= args.len() {
        return Err(format!("{flag} needs a value"));
    }
    let value = args.remove(at + 1);
    args.remove(at);
    Ok(Some(value))
}
