//! Positions and URIs: LSP counts columns in UTF-16 code units unless the
//! client agrees to UTF-8; the frontend counts bytes. And `file://` URIs
//! to paths and back.

use std::path::{Path, PathBuf};

use lsp_types::{Position, Range, Uri};

/// How the client counts columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// UTF-16 code units: every client supports it.
    Utf16,
    /// Bytes, when the client offers it.
    Utf8,
}

/// The byte offset of an LSP position in `text`, clamped to the text (a
/// position past the end of a line is the line's end).
pub(crate) fn offset(text: &str, position: Position, encoding: Encoding) -> usize {
    let mut line_start = 0;
    for _ in 0..position.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    let line = &text[line_start..line_end];
    let wanted = position.character as usize;
    let mut units = 0;
    for (i, c) in line.char_indices() {
        if units >= wanted {
            return line_start + i;
        }
        units += match encoding {
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf8 => c.len_utf8(),
        };
    }
    line_end
}

/// The LSP position of a byte offset in `text`.
pub(crate) fn position(text: &str, offset: usize, encoding: Encoding) -> Position {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = &text[line_start..offset];
    let character = match encoding {
        Encoding::Utf16 => column.chars().map(char::len_utf16).sum(),
        Encoding::Utf8 => column.len(),
    };
    Position {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        character: u32::try_from(character).unwrap_or(u32::MAX),
    }
}

/// The LSP range of a byte range in `text`.
pub(crate) fn range(text: &str, bytes: std::ops::Range<usize>, encoding: Encoding) -> Range {
    Range {
        start: position(text, bytes.start, encoding),
        end: position(text, bytes.end, encoding),
    }
}

/// The path of a `file://` URI, percent-decoded; `None` for another scheme.
pub(crate) fn path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path` names a host; only local files are served.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                let value = hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0);
                decoded.push(u8::try_from(value).unwrap_or(b'?'));
                i += 3;
            }
            (b, _, _) => {
                decoded.push(b);
                i += 1;
            }
        }
    }
    Some(PathBuf::from(
        String::from_utf8_lossy(&decoded).into_owned(),
    ))
}

/// The `file://` URI of an absolute path, percent-encoding what RFC 3986
/// does not allow in a path.
pub(crate) fn uri(path: &Path) -> Option<Uri> {
    let mut text = String::from("file://");
    for &b in path.to_string_lossy().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b) {
            text.push(char::from(b));
        } else {
            text.push_str(&format!("%{b:02X}"));
        }
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use lsp_types::Position;

    use super::{Encoding, offset, path, position, uri};

    #[test]
    fn utf16_columns_count_code_units() {
        let text = "a: \"🎵x\"\nnext";
        // 🎵 is 4 bytes and 2 UTF-16 units.
        let x = text.find('x').unwrap();
        let at = position(text, x, Encoding::Utf16);
        assert_eq!(at, Position::new(0, 6));
        assert_eq!(offset(text, at, Encoding::Utf16), x);
        assert_eq!(position(text, x, Encoding::Utf8), Position::new(0, 8));
        assert_eq!(
            offset(text, Position::new(1, 2), Encoding::Utf16),
            text.len() - 2
        );
        // Past the end of a line, past the last line.
        assert_eq!(offset(text, Position::new(0, 99), Encoding::Utf16), 8 + 2);
        assert_eq!(
            offset(text, Position::new(9, 0), Encoding::Utf16),
            text.len()
        );
    }

    #[test]
    fn uris_round_trip_paths() {
        let p = Path::new("/tmp/my tools/ä.tool");
        let u = uri(p).unwrap();
        assert_eq!(u.as_str(), "file:///tmp/my%20tools/%C3%A4.tool");
        assert_eq!(path(&u).unwrap(), p);
        assert!(path(&"untitled:1".parse().unwrap()).is_none());
    }
}
