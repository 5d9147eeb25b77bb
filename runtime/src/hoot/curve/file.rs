//! Key files: what they hold, read from their text, and the text of the
//! ones this runtime writes.
//!
//! Three forms are read: a ZeroMQ ZPL certificate (czmq's `zcert`, and
//! pyzmq's `zmq.auth.create_certificates`), whose `curve` section holds
//! `public-key = "…"` and, in a secret certificate, `secret-key = "…"`;
//! what libzmq's `curve_keygen` prints (`== CURVE PUBLIC KEY ==`, then the
//! key on a line of its own, and the same for the secret key); and a file
//! holding nothing but one Z85 key, which is a public key. Lines starting
//! with `#` are comments in every form. ZPL certificates are written.

use super::z85;

/// A key named in a file, and the line (from 1) it is on.
pub(super) type Found = Option<([u8; 32], usize)>;

/// The keys a file holds.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Keys {
    pub(super) public: Found,
    pub(super) secret: Found,
}

/// What is wrong with a file's text: the line (from 1), if one line is
/// to blame, and what.
pub(super) type Problem = (Option<usize>, String);

/// `curve_keygen`'s headings.
const KEYGEN_PUBLIC: &str = "== CURVE PUBLIC KEY ==";
const KEYGEN_SECRET: &str = "== CURVE SECRET KEY ==";

/// The ZPL names of the keys.
const ZPL_PUBLIC: &str = "public-key";
const ZPL_SECRET: &str = "secret-key";

/// Which key a line names.
#[derive(Clone, Copy)]
enum Which {
    Public,
    Secret,
}

impl Which {
    /// What the messages call it.
    fn name(self) -> &'static str {
        match self {
            Which::Public => "public key",
            Which::Secret => "secret key",
        }
    }
}

/// Reads the keys `text` holds.
pub(super) fn parse(text: &str) -> Result<Keys, Problem> {
    let mut keys = Keys::default();
    // `curve_keygen`'s key is on the line after its heading.
    let mut heading: Option<Which> = None;
    let mut lines = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        lines.push((line_no, line));
        if let Some(which) = heading.take() {
            set(&mut keys, which, line, line_no)?;
            continue;
        }
        match line {
            KEYGEN_PUBLIC => heading = Some(Which::Public),
            KEYGEN_SECRET => heading = Some(Which::Secret),
            _ => {
                if let Some(value) = zpl_value(line, ZPL_PUBLIC) {
                    set(&mut keys, Which::Public, value, line_no)?;
                } else if let Some(value) = zpl_value(line, ZPL_SECRET) {
                    set(&mut keys, Which::Secret, value, line_no)?;
                }
            }
        }
    }
    if let Some(which) = heading {
        return Err((
            None,
            format!("the file ends where its {} should be", which.name()),
        ));
    }
    // A file of one line, a bare key, holds a public key.
    if keys == Keys::default()
        && let [(line_no, line)] = lines.as_slice()
        && !line.contains(char::is_whitespace)
    {
        set(&mut keys, Which::Public, line, *line_no)?;
    }
    Ok(keys)
}

/// The value of the ZPL line `line` if it sets `name`, quotes taken off.
fn zpl_value<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let value = line
        .strip_prefix(name)?
        .trim_start()
        .strip_prefix('=')?
        .trim();
    Some(
        ['"', '\'']
            .iter()
            .find_map(|q| value.strip_prefix(*q)?.strip_suffix(*q))
            .unwrap_or(value),
    )
}

fn set(keys: &mut Keys, which: Which, text: &str, line_no: usize) -> Result<(), Problem> {
    let key = z85::decode(text).map_err(|e| {
        (
            Some(line_no),
            format!("the {} is not valid: {e}", which.name()),
        )
    })?;
    let slot = match which {
        Which::Public => &mut keys.public,
        Which::Secret => &mut keys.secret,
    };
    if let Some((_, first)) = slot {
        return Err((
            Some(line_no),
            format!("a second {} (the first is on line {first})", which.name()),
        ));
    }
    *slot = Some((key, line_no));
    Ok(())
}

/// A ZPL secret certificate: both keys. Whoever holds it is its owner.
pub(super) fn secret_certificate(public: &str, secret: &str) -> String {
    format!(
        "#   ZeroMQ CURVE **Secret** Certificate\n\
         #   DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions.\n\
         \n\
         metadata\n\
         curve\n    \
         {ZPL_PUBLIC} = \"{public}\"\n    \
         {ZPL_SECRET} = \"{secret}\"\n"
    )
}

/// A ZPL public certificate: the public key alone, to give to peers.
pub(super) fn public_certificate(public: &str) -> String {
    format!(
        "#   ZeroMQ CURVE Public Certificate\n\
         #   Exchange securely, or use a secure mechanism to verify the contents\n\
         #   of this file after exchange.\n\
         \n\
         metadata\n\
         curve\n    \
         {ZPL_PUBLIC} = \"{public}\"\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUBLIC: &str = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";
    const SECRET: &str = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6";

    fn key(text: &str) -> [u8; 32] {
        z85::decode(text).unwrap()
    }

    #[test]
    fn a_zpl_secret_certificate_holds_both_keys_and_reads_back() {
        let text = secret_certificate(PUBLIC, SECRET);
        let keys = parse(&text).unwrap();
        assert_eq!(keys.public, Some((key(PUBLIC), 6)));
        assert_eq!(keys.secret, Some((key(SECRET), 7)));
        let keys = parse(&public_certificate(PUBLIC)).unwrap();
        assert_eq!(keys.public, Some((key(PUBLIC), 7)));
        assert_eq!(keys.secret, None);
    }

    #[test]
    fn czmqs_and_pyzmqs_certificates_read() {
        // As czmq writes them: a generated-on comment, metadata, quotes.
        let text = format!(
            "#   ****  Generated on 2024-05-01 12:00:00 by CZMQ  ****\n\
             #   ZeroMQ CURVE **Secret** Certificate\n\n\
             metadata\n    name = \"gateway-1\"\n\
             curve\n    public-key = \"{PUBLIC}\"\n    secret-key = \"{SECRET}\"\n"
        );
        let keys = parse(&text).unwrap();
        assert_eq!(keys.public.map(|k| k.0), Some(key(PUBLIC)));
        assert_eq!(keys.secret.map(|k| k.0), Some(key(SECRET)));
        // Unquoted, single quotes, no spaces around `=`.
        let text = format!("curve\n    public-key='{PUBLIC}'\n    secret-key={SECRET}\n");
        let keys = parse(&text).unwrap();
        assert_eq!(keys.public.map(|k| k.0), Some(key(PUBLIC)));
        assert_eq!(keys.secret.map(|k| k.0), Some(key(SECRET)));
    }

    #[test]
    fn curve_keygens_output_and_a_bare_key_read() {
        let text = format!(
            "This tool generates a CurveZMQ keypair, as two printable strings you can\n\
             use in configuration files or source code.\n\n\
             == CURVE PUBLIC KEY ==\n{PUBLIC}\n\n== CURVE SECRET KEY ==\n{SECRET}\n"
        );
        let keys = parse(&text).unwrap();
        assert_eq!(keys.public, Some((key(PUBLIC), 5)));
        assert_eq!(keys.secret, Some((key(SECRET), 8)));
        let keys = parse(&format!("# the backends' key\n{PUBLIC}\n")).unwrap();
        assert_eq!(keys.public, Some((key(PUBLIC), 2)));
        assert_eq!(parse("no key here\n").unwrap(), Keys::default());
    }

    #[test]
    fn a_bad_key_is_reported_with_its_line() {
        let text = format!("curve\n    public-key = \"{}\"\n", &PUBLIC[1..]);
        assert_eq!(
            parse(&text).unwrap_err(),
            (
                Some(2),
                "the public key is not valid: a CURVE key is 40 characters of Z85; \
                 this has 39"
                    .into()
            )
        );
        let text = format!("public-key = \"{PUBLIC}\"\npublic-key = \"{PUBLIC}\"\n");
        assert_eq!(
            parse(&text).unwrap_err(),
            (
                Some(2),
                "a second public key (the first is on line 1)".into()
            )
        );
        assert_eq!(
            parse("== CURVE SECRET KEY ==\n").unwrap_err(),
            (None, "the file ends where its secret key should be".into())
        );
    }
}
