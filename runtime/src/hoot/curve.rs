//! CURVE keys, for HOOT01 servers and clients that encrypt and
//! authenticate their connections (ZeroMQ's CurveZMQ, RFC 26): a
//! [`KeyPair`] each, the server's [`PublicKey`] given to its clients, and
//! the clients' public keys given to the server as its allow-list.
//!
//! Keys are 32 bytes, written as 40 characters of Z85 (RFC 32) in files:
//! ZPL certificates, as czmq and pyzmq write them and [`KeyPair::save`]
//! does, `curve_keygen`'s output, or a file of one bare public key.

mod file;
mod z85;

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use super::HootError;

/// A CURVE public key: whom a server lets in, or which server a client
/// expects. Its `Debug` and `Display` are its Z85 text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PublicKey([u8; 32]);

impl PublicKey {
    /// The key of these 32 bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        PublicKey(bytes)
    }

    /// Its 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The key written as `text`, 40 characters of Z85.
    ///
    /// # Errors
    /// [`KeyError`] saying what is wrong with the text.
    pub fn from_z85(text: &str) -> Result<Self, KeyError> {
        z85::decode(text.trim()).map(PublicKey).map_err(KeyError)
    }

    /// Its 40 characters of Z85.
    pub fn to_z85(&self) -> String {
        z85::encode(&self.0)
    }

    /// Reads the public key in the file at `path`: a ZPL certificate
    /// (public or secret), `curve_keygen`'s output, or a lone Z85 key.
    ///
    /// # Errors
    /// [`KeyFileError`] naming the file and what is wrong with it.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, KeyFileError> {
        let path = path.as_ref();
        let keys = read(path)?;
        let (key, _) = keys.public.ok_or_else(|| KeyFileError::NoPublicKey {
            path: path.to_owned(),
        })?;
        Ok(PublicKey(key))
    }

    /// Reads an allow-list: the key in the file at `path`, or, for a
    /// directory, the key in each of its files named `*.pub` (as
    /// [`KeyPair::save`] names them) or `*.key` (as pyzmq does), in the
    /// order of their names. Other files in the directory are not read.
    ///
    /// # Errors
    /// [`KeyFileError`] for the first file that holds no valid public key,
    /// and [`KeyFileError::NoKeyFiles`] for a directory with none.
    pub fn load_all(path: impl AsRef<Path>) -> Result<Vec<Self>, KeyFileError> {
        let path = path.as_ref();
        if !path.is_dir() {
            return Ok(vec![PublicKey::load(path)?]);
        }
        let read_error = |source| KeyFileError::Read {
            path: path.to_owned(),
            source,
        };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(path).map_err(read_error)? {
            let file = entry.map_err(read_error)?.path();
            let listed = file.extension().is_some_and(|e| e == "pub" || e == "key");
            if listed && !file.is_dir() {
                files.push(file);
            }
        }
        if files.is_empty() {
            return Err(KeyFileError::NoKeyFiles {
                path: path.to_owned(),
            });
        }
        files.sort();
        files.iter().map(PublicKey::load).collect()
    }
}

impl fmt::Display for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_z85())
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.to_z85())
    }
}

impl std::str::FromStr for PublicKey {
    type Err = KeyError;

    fn from_str(text: &str) -> Result<Self, KeyError> {
        PublicKey::from_z85(text)
    }
}

/// A CURVE key pair: a public key to give out and the secret key that
/// proves it is yours. `Debug` shows the public key only.
#[derive(Clone)]
pub struct KeyPair {
    public: PublicKey,
    secret: [u8; 32],
}

impl KeyPair {
    /// A new key pair, from libzmq's `zmq_curve_keypair` (the operating
    /// system's random numbers).
    ///
    /// # Errors
    /// [`HootError::CurveUnavailable`] when libzmq was built without CURVE.
    pub fn generate() -> Result<Self, HootError> {
        super::error::check_curve()?;
        let pair = zmq::CurveKeyPair::new()?;
        Ok(KeyPair {
            public: PublicKey(pair.public_key),
            secret: pair.secret_key,
        })
    }

    /// The pair written as Z85 text. Nothing checks that the secret key is
    /// the public key's: a pair that does not match fails every handshake.
    ///
    /// # Errors
    /// [`KeyError`] saying which key's text is wrong, and how.
    pub fn from_z85(public: &str, secret: &str) -> Result<Self, KeyError> {
        let public = PublicKey::from_z85(public)
            .map_err(|e| KeyError(format!("the public key is not valid: {}", e.0)))?;
        let secret = z85::decode(secret.trim())
            .map_err(|e| KeyError(format!("the secret key is not valid: {e}")))?;
        Ok(KeyPair { public, secret })
    }

    /// Its public key, to give to the peers that must know it.
    pub fn public(&self) -> PublicKey {
        self.public
    }

    /// Its secret key, for the sockets that use it.
    pub(super) fn secret(&self) -> &[u8; 32] {
        &self.secret
    }

    /// Reads the key pair in the file at `path`: a ZPL secret certificate
    /// (`public-key = "…"` and `secret-key = "…"` in its `curve` section,
    /// as [`KeyPair::save`], czmq and pyzmq write them) or
    /// `curve_keygen`'s output.
    ///
    /// # Errors
    /// [`KeyFileError`] naming the file and what is wrong with it:
    /// unreadable, a key that is not Z85 (with its line), no secret key
    /// (a public certificate), no public key.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, KeyFileError> {
        let path = path.as_ref();
        let keys = read(path)?;
        let (secret, _) = keys.secret.ok_or_else(|| KeyFileError::NoSecretKey {
            path: path.to_owned(),
        })?;
        let (public, _) = keys.public.ok_or_else(|| KeyFileError::NoPublicKey {
            path: path.to_owned(),
        })?;
        Ok(KeyPair {
            public: PublicKey(public),
            secret,
        })
    }

    /// Writes the pair as two ZPL certificates: the secret one at `path`
    /// (on Unix readable by its owner alone, mode 0600), the public one
    /// beside it with `.pub` added to its name, and returns that path.
    /// Existing files are not overwritten.
    ///
    /// # Errors
    /// [`KeyFileError::Write`] for a file that exists or cannot be written.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<PathBuf, KeyFileError> {
        let path = path.as_ref();
        let mut public_path = path.as_os_str().to_owned();
        public_path.push(".pub");
        let public_path = PathBuf::from(public_path);
        let public = self.public.to_z85();
        let secret = file::secret_certificate(&public, &z85::encode(&self.secret));
        write_new(path, &secret, true)?;
        write_new(&public_path, &file::public_certificate(&public), false)?;
        Ok(public_path)
    }
}

impl fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyPair")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

/// The keys in the file at `path`.
fn read(path: &Path) -> Result<file::Keys, KeyFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| KeyFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    file::parse(&text).map_err(|(line, problem)| KeyFileError::Invalid {
        path: path.to_owned(),
        line,
        problem,
    })
}

/// Writes `text` to a new file at `path`, readable by its owner alone
/// when `private`.
fn write_new(path: &Path, text: &str, private: bool) -> Result<(), KeyFileError> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(if private { 0o600 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = private;
    options
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|source| KeyFileError::Write {
            path: path.to_owned(),
            source,
        })
}

/// Text that is not a CURVE key, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyError(String);

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KeyError {}

/// A key file that could not be read or written, or does not hold the
/// key asked for. Each names the file.
#[derive(Debug)]
#[non_exhaustive]
pub enum KeyFileError {
    /// The file (or directory) could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file could not be written (or exists already).
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A key in the file is not valid, or is there twice.
    Invalid {
        /// The file.
        path: PathBuf,
        /// The line to blame (from 1), if one is.
        line: Option<usize>,
        /// What is wrong.
        problem: String,
    },
    /// A secret key was asked for, and the file has none: it is a public
    /// certificate, or no key file at all.
    NoSecretKey {
        /// The file.
        path: PathBuf,
    },
    /// A public key was asked for, and the file has none.
    NoPublicKey {
        /// The file.
        path: PathBuf,
    },
    /// An allow-list directory holds no `*.pub` or `*.key` file.
    NoKeyFiles {
        /// The directory.
        path: PathBuf,
    },
}

impl KeyFileError {
    /// The file (or directory) it is about.
    pub fn path(&self) -> &Path {
        match self {
            KeyFileError::Read { path, .. }
            | KeyFileError::Write { path, .. }
            | KeyFileError::Invalid { path, .. }
            | KeyFileError::NoSecretKey { path }
            | KeyFileError::NoPublicKey { path }
            | KeyFileError::NoKeyFiles { path } => path,
        }
    }
}

impl fmt::Display for KeyFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path().display();
        match self {
            KeyFileError::Read { source, .. } => {
                write!(f, "cannot read the key file `{path}`: {source}")
            }
            KeyFileError::Write { source, .. } => {
                write!(f, "cannot write the key file `{path}`: {source}")
            }
            KeyFileError::Invalid {
                line: Some(line),
                problem,
                ..
            } => write!(f, "`{path}`, line {line}: {problem}"),
            KeyFileError::Invalid { problem, .. } => write!(f, "`{path}`: {problem}"),
            KeyFileError::NoSecretKey { .. } => write!(
                f,
                "`{path}` holds no CURVE secret key: give the secret certificate \
                 (`secret-key = \"…\"` beside `public-key`), not the public one, or \
                 `curve_keygen`'s output"
            ),
            KeyFileError::NoPublicKey { .. } => write!(
                f,
                "`{path}` holds no CURVE public key: give a certificate \
                 (`public-key = \"…\"`), `curve_keygen`'s output, or a file of one Z85 key"
            ),
            KeyFileError::NoKeyFiles { .. } => write!(
                f,
                "the directory `{path}` holds no public key files (`*.pub` or `*.key`)"
            ),
        }
    }
}

impl std::error::Error for KeyFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            KeyFileError::Read { source, .. } | KeyFileError::Write { source, .. } => Some(source),
            _ => None,
        }
    }
}
