//! Reading one line at a time, never holding more than
//! [`MAX_LINE_BYTES`] of it.

use std::io;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// Longest line read, as rmcp's own line transport.
pub(in crate::mcp) const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// What one read found.
pub(super) enum Read {
    /// A whole line, for [`Lines::take`].
    Line,
    /// A line longer than [`MAX_LINE_BYTES`]: dropped, and the rest of it
    /// is skipped as it comes.
    TooLong,
    /// The client's end of input.
    End,
}

/// The lines of a byte stream.
///
/// Cancel-safe, as rmcp polls `receive` in a `select!`: the part of a line
/// read so far stays here, and the copy out of the reader's buffer and the
/// matching `consume` happen with no `await` between them.
pub(super) struct Lines<R> {
    reader: BufReader<R>,
    /// The line read so far, without its `\n`.
    line: Vec<u8>,
    /// Skipping the rest of a line found too long.
    skipping: bool,
}

/// The most capacity kept for the next line: a long line does not keep its
/// buffer for the rest of the session.
const KEPT_CAPACITY: usize = 64 * 1024;

impl<R: AsyncRead + Unpin> Lines<R> {
    pub(super) fn new(reader: R) -> Self {
        Lines {
            reader: BufReader::new(reader),
            line: Vec::new(),
            skipping: false,
        }
    }

    /// Reads on to the end of the next line.
    pub(super) async fn next(&mut self) -> io::Result<Read> {
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                // A last line without its `\n` is still a line.
                return Ok(if self.line.is_empty() || self.skipping {
                    Read::End
                } else {
                    Read::Line
                });
            }
            let newline = memchr::memchr(b'\n', available);
            let content = newline.unwrap_or(available.len());
            let found = if self.skipping {
                self.skipping = newline.is_none();
                None
            } else if self.line.len().saturating_add(content) > MAX_LINE_BYTES {
                self.line.clear();
                self.skipping = newline.is_none();
                Some(Read::TooLong)
            } else {
                self.line.extend_from_slice(&available[..content]);
                newline.map(|_| Read::Line)
            };
            let used = newline.map_or(available.len(), |at| at + 1);
            self.reader.consume(used);
            if let Some(found) = found {
                return Ok(found);
            }
        }
    }

    /// The line [`Lines::next`] found. Hand the buffer back with
    /// [`Lines::give_back`] once read, so the next line reuses it.
    pub(super) fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.line)
    }

    /// Takes back a buffer from [`Lines::take`], emptied; one grown past
    /// [`KEPT_CAPACITY`] by a long line is dropped instead.
    pub(super) fn give_back(&mut self, mut buffer: Vec<u8>) {
        if buffer.capacity() <= KEPT_CAPACITY && self.line.is_empty() {
            buffer.clear();
            self.line = buffer;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `input`, as text, and what each read found.
    async fn read_all(input: &[u8]) -> Vec<String> {
        let mut lines = Lines::new(input);
        let mut found = Vec::new();
        loop {
            match lines.next().await.expect("reads") {
                Read::Line => {
                    let line = lines.take();
                    found.push(String::from_utf8_lossy(&line).into_owned());
                    lines.give_back(line);
                }
                Read::TooLong => found.push("<too long>".into()),
                Read::End => return found,
            }
        }
    }

    #[tokio::test]
    async fn lines_end_at_newlines_and_the_last_needs_none() {
        let found = read_all(b"one\r\n\ntwo\nthree").await;
        assert_eq!(found, ["one\r", "", "two", "three"]);
        assert!(read_all(b"").await.is_empty());
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_skipped_and_reading_goes_on() {
        let mut input = vec![b'x'; MAX_LINE_BYTES];
        input.extend_from_slice(b"\n");
        input.extend(vec![b'y'; MAX_LINE_BYTES + 1]);
        input.extend_from_slice(b"\nafter\n");
        input.extend(vec![b'z'; MAX_LINE_BYTES + 1]);
        let found = read_all(&input).await;
        assert_eq!(found.len(), 4);
        assert_eq!(
            found[0].len(),
            MAX_LINE_BYTES,
            "a line at the limit is read"
        );
        assert_eq!(found[1..], ["<too long>", "after", "<too long>"]);
    }
}
