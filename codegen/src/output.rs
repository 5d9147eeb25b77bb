//! Writing generated files: only when their bytes change, never half-way.
//! Used by the build.rs API and the CLI.

use std::path::Path;

/// Writes `bytes` to `path` unless the file already holds exactly them, so
/// an unchanged output keeps its modification time and nothing downstream
/// rebuilds. Returns whether the file was written.
pub(crate) fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_atomically(path, bytes)?;
    Ok(true)
}

/// Writes a sibling temporary file and renames it over `path`, so an
/// interrupted run leaves the old file or the new one, never half of each.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy());
    let tmp = path.with_file_name(format!(".{name}.toolwright-{}", std::process::id()));
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::write_if_changed;

    #[test]
    fn unchanged_bytes_leave_the_file_alone() {
        let dir = std::env::temp_dir().join(format!("toolwright-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tools.rs");
        assert!(write_if_changed(&path, b"a").unwrap());
        assert!(!write_if_changed(&path, b"a").unwrap());
        assert!(write_if_changed(&path, b"b").unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), b"b");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
