//! The line length the generated Python is laid out to: past it, a field's
//! arguments and a registry literal's items go one per line, as a
//! formatter would put them.

/// The longest line a declaration is written on before its arguments go
/// one per line.
pub(super) const LINE: usize = 88;
