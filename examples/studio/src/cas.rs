//! A content-addressed store on disk: bytes live under the hex SHA-256 of
//! their content, written atomically, so a crash never leaves a partial
//! object under a valid name and a restart finds everything stored before.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};

/// Length of a content hash: 64 lowercase hex digits.
pub const HASH_LEN: usize = 64;

/// What the store knows about one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// Size in bytes.
    pub size: u64,
    /// MIME type recorded when it was stored.
    pub mime_type: String,
}

/// A content-addressed store rooted at a directory.
#[derive(Debug)]
pub struct Cas {
    root: PathBuf,
    max_size: u64,
    // Names temporary files uniquely within this process; the process id
    // keeps two processes sharing a directory apart.
    tmp_counter: AtomicU64,
}

impl Cas {
    /// Opens (creating if needed) a store at `root`.
    ///
    /// # Errors
    /// When the directories cannot be created.
    pub fn open(root: impl Into<PathBuf>, max_size: u64) -> io::Result<Cas> {
        let root = root.into();
        fs::create_dir_all(root.join("objects"))?;
        fs::create_dir_all(root.join("tmp"))?;
        Ok(Cas {
            root,
            max_size,
            tmp_counter: AtomicU64::new(0),
        })
    }

    /// The largest object accepted, in bytes.
    pub fn max_size(&self) -> u64 {
        self.max_size
    }

    /// The hex SHA-256 of `data`.
    pub fn hash(data: &[u8]) -> String {
        let digest = Sha256::digest(data);
        let mut hex = String::with_capacity(HASH_LEN);
        for b in digest.iter() {
            hex.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
            hex.push(char::from(b"0123456789abcdef"[usize::from(b & 0xf)]));
        }
        hex
    }

    /// True when `hash` is 64 lowercase hex digits.
    pub fn is_valid_hash(hash: &str) -> bool {
        hash.len() == HASH_LEN && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    }

    /// Stores `data`; returns its hash and whether it was already there.
    ///
    /// # Errors
    /// I/O failures; `data` larger than the limit is the caller's check.
    pub fn put(&self, data: &[u8], mime_type: &str) -> io::Result<(String, bool)> {
        let hash = Self::hash(data);
        let object = self.object_path(&hash);
        if object.exists() {
            return Ok((hash, true));
        }
        fs::create_dir_all(
            object
                .parent()
                .expect("object paths have a fan-out directory"),
        )?;
        // The MIME sidecar goes first: an object is present once its data
        // file exists, and by then its metadata must be readable.
        self.write_atomically(&self.mime_path(&hash), mime_type.as_bytes())?;
        self.write_atomically(&object, data)?;
        Ok((hash, false))
    }

    /// The bytes and metadata stored under `hash`, if any.
    ///
    /// # Errors
    /// I/O failures other than the object being absent.
    pub fn get(&self, hash: &str) -> io::Result<Option<(Vec<u8>, Meta)>> {
        let data = match fs::read(self.object_path(hash)) {
            Ok(data) => data,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let meta = Meta {
            size: data.len() as u64,
            mime_type: self.mime_type(hash)?,
        };
        Ok(Some((data, meta)))
    }

    /// Metadata of the object under `hash`, without reading its bytes.
    ///
    /// # Errors
    /// I/O failures other than the object being absent.
    pub fn meta(&self, hash: &str) -> io::Result<Option<Meta>> {
        match fs::metadata(self.object_path(hash)) {
            Ok(m) => Ok(Some(Meta {
                size: m.len(),
                mime_type: self.mime_type(hash)?,
            })),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Up to `limit` stored hashes that start with `prefix` and sort after
    /// `after`, in order, and whether more follow.
    ///
    /// # Errors
    /// I/O failures reading the store's directories.
    pub fn list(&self, prefix: &str, after: &str, limit: usize) -> io::Result<(Vec<String>, bool)> {
        let mut hashes = Vec::new();
        for fan in fs::read_dir(self.root.join("objects"))? {
            let fan = fan?;
            let dir = fan.file_name().to_string_lossy().into_owned();
            // The fan-out directory is a hash's first two digits: skip the
            // ones no hash of the prefix can be in.
            let shared = prefix.len().min(2);
            if dir.len() != 2 || dir[..shared] != prefix[..shared] {
                continue;
            }
            for object in fs::read_dir(fan.path())? {
                let name = object?.file_name().to_string_lossy().into_owned();
                let hash = format!("{dir}{name}");
                if Self::is_valid_hash(&hash) && hash.starts_with(prefix) && hash.as_str() > after {
                    hashes.push(hash);
                }
            }
        }
        hashes.sort_unstable();
        let more = hashes.len() > limit;
        hashes.truncate(limit);
        Ok((hashes, more))
    }

    /// Up to `limit` bytes from the start of the object.
    ///
    /// # Errors
    /// I/O failures.
    pub fn head(&self, hash: &str, limit: usize) -> io::Result<Vec<u8>> {
        use std::io::Read;
        let mut out = Vec::with_capacity(limit.min(64 * 1024));
        File::open(self.object_path(hash))?
            .take(limit as u64)
            .read_to_end(&mut out)?;
        Ok(out)
    }

    fn mime_type(&self, hash: &str) -> io::Result<String> {
        match fs::read_to_string(self.mime_path(hash)) {
            Ok(m) => Ok(m),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Ok("application/octet-stream".to_owned())
            }
            Err(e) => Err(e),
        }
    }

    fn object_path(&self, hash: &str) -> PathBuf {
        // Two hex digits of fan-out keep directories small.
        self.root.join("objects").join(&hash[..2]).join(&hash[2..])
    }

    fn mime_path(&self, hash: &str) -> PathBuf {
        self.object_path(hash).with_extension("mime")
    }

    /// Writes to a temporary file, syncs it, renames it into place and syncs
    /// the directory, so `path` holds either nothing or all of `bytes`.
    fn write_atomically(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let n = self.tmp_counter.fetch_add(1, Ordering::Relaxed);
        let tmp = self
            .root
            .join("tmp")
            .join(format!("{}-{n}", std::process::id()));
        let result = (|| {
            let mut file = File::create(&tmp)?;
            file.write_all(bytes)?;
            file.sync_all()?;
            fs::rename(&tmp, path)?;
            if let Some(dir) = path.parent() {
                File::open(dir)?.sync_all()?;
            }
            Ok(())
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_sha256_hex() {
        assert_eq!(
            Cas::hash(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(Cas::is_valid_hash(&Cas::hash(b"")));
        assert!(!Cas::is_valid_hash(
            "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"
        ));
        assert!(!Cas::is_valid_hash("abc"));
    }

    #[test]
    fn put_get_and_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let cas = Cas::open(dir.path(), 1024).unwrap();
        let (hash, again) = cas.put(b"hello", "text/plain").unwrap();
        assert!(!again);
        assert_eq!(
            cas.put(b"hello", "text/plain").unwrap(),
            (hash.clone(), true)
        );
        drop(cas);
        let cas = Cas::open(dir.path(), 1024).unwrap();
        let (data, meta) = cas.get(&hash).unwrap().unwrap();
        assert_eq!(data, b"hello");
        assert_eq!(
            meta,
            Meta {
                size: 5,
                mime_type: "text/plain".into()
            }
        );
        assert_eq!(cas.head(&hash, 2).unwrap(), b"he");
        assert!(cas.get(&Cas::hash(b"absent")).unwrap().is_none());
        // Nothing is left behind in the temporary directory.
        assert_eq!(fs::read_dir(dir.path().join("tmp")).unwrap().count(), 0);
    }
}
