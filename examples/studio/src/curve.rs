//! CURVE for HOOT01 between the studio's processes: `keygen PATH` makes a
//! key pair, `serve --hoot … --curve-secret FILE --curve-allow
//! FILE_OR_DIR…` serves only the clients allowed, and `gateway …
//! --curve-secret FILE --curve-server FILE` calls backends that prove
//! they hold the server key's secret.

use std::path::Path;

use toolwright::hoot::{KeyPair, PublicKey, ServerStats};

type Error = Box<dyn std::error::Error>;

/// `keygen PATH`: a new key pair, the secret certificate at PATH (mode
/// 0600) and the public one at PATH.pub, in PATH's folder, made if need be.
pub(crate) fn keygen(path: &str) -> Result<(), Error> {
    if let Some(folder) = Path::new(path)
        .parent()
        .filter(|f| !f.as_os_str().is_empty())
    {
        std::fs::create_dir_all(folder)
            .map_err(|e| format!("cannot make the folder `{}`: {e}", folder.display()))?;
    }
    let keys = KeyPair::generate()?;
    let public = keys.save(path)?;
    eprintln!(
        "studio: secret key in {path} (keep it there), public key in {}",
        public.display()
    );
    println!("{}", keys.public());
    Ok(())
}

/// Takes every `--FLAG VALUE` out of `args`.
fn take_all(args: &mut Vec<String>, flag: &str) -> Result<Vec<String>, Error> {
    let mut values = Vec::new();
    while let Some(at) = args.iter().position(|a| a == flag) {
        if at + 1 >= args.len() {
            return Err(format!("{flag} needs a file").into());
        }
        values.push(args.remove(at + 1));
        args.remove(at);
    }
    Ok(values)
}

/// Takes `--FLAG FILE`, given at most once, out of `args`.
fn take_one(args: &mut Vec<String>, flag: &str) -> Result<Option<String>, Error> {
    match take_all(args, flag)?.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.clone())),
        _ => Err(format!("give {flag} once").into()),
    }
}

/// A backend's `--curve-secret FILE` and its `--curve-allow FILE_OR_DIR`s
/// (each a public key file, or a directory of `*.pub` and `*.key` files),
/// taken out of `args`; `None` when neither is there.
pub(crate) fn take_server(
    args: &mut Vec<String>,
) -> Result<Option<(KeyPair, Vec<PublicKey>)>, Error> {
    let secret = take_one(args, "--curve-secret")?;
    let allow = take_all(args, "--curve-allow")?;
    match (secret, allow.is_empty()) {
        (None, true) => Ok(None),
        (Some(secret), false) => {
            let keys = KeyPair::load(&secret)?;
            let mut allowed = Vec::new();
            for path in &allow {
                allowed.extend(PublicKey::load_all(path)?);
            }
            eprintln!(
                "studio: CURVE with the key {} (from {secret}), {} client keys allowed",
                keys.public(),
                allowed.len()
            );
            Ok(Some((keys, allowed)))
        }
        (Some(_), true) => {
            Err("--curve-secret needs --curve-allow: the client keys to let in".into())
        }
        (None, false) => Err("--curve-allow needs --curve-secret: the server's own key".into()),
    }
}

/// A gateway's `--curve-secret FILE` and `--curve-server FILE` (the
/// backends' public key), taken out of `args`; `None` when neither is
/// there.
pub(crate) fn take_client(args: &mut Vec<String>) -> Result<Option<(KeyPair, PublicKey)>, Error> {
    let secret = take_one(args, "--curve-secret")?;
    let server = take_one(args, "--curve-server")?;
    match (secret, server) {
        (None, None) => Ok(None),
        (Some(secret), Some(server)) => {
            let keys = KeyPair::load(&secret)?;
            let server_key = PublicKey::load(Path::new(&server))?;
            eprintln!(
                "studio: CURVE with the key {} (from {secret}), backends' key {server_key}",
                keys.public()
            );
            Ok(Some((keys, server_key)))
        }
        (Some(_), None) => {
            Err("--curve-secret needs --curve-server: the backends' public key".into())
        }
        (None, Some(_)) => {
            Err("--curve-server needs --curve-secret: this gateway's own key".into())
        }
    }
}

/// What a HOOT01 backend says of its calls, and of its CURVE handshakes
/// when it has `curve`, once it has stopped.
pub(crate) fn report(stats: &ServerStats, curve: bool) {
    if curve {
        eprintln!(
            "studio: HOOT01 served {} calls; CURVE handshakes refused: {} (client key not \
             allowed), {} failed (plain text, wrong server key, or broken off)",
            stats.calls, stats.auth_refused, stats.handshake_failed
        );
    } else {
        eprintln!("studio: HOOT01 served {} calls", stats.calls);
    }
}
