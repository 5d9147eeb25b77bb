//! Sets of code points as sorted, disjoint, non-adjacent ranges: what a
//! class, a shorthand or `.` stands for, spelt out.

/// The last Unicode scalar value.
const MAX: u32 = 0x10_FFFF;
/// Surrogates are not scalar values: no string holds one.
const SURROGATES: (u32, u32) = (0xD800, 0xDFFF);

/// A set of code points.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Set {
    ranges: Vec<(u32, u32)>,
}

impl Set {
    pub(crate) fn new() -> Self {
        Set::default()
    }

    pub(crate) fn of(ranges: &[(u32, u32)]) -> Self {
        let mut set = Set::new();
        for &(lo, hi) in ranges {
            set.add(lo, hi);
        }
        set
    }

    /// `0-9`
    pub(crate) fn digit() -> Self {
        Set::of(&[(0x30, 0x39)])
    }

    /// `A-Za-z0-9_`: ECMA-262's `\w` without the `i` flag.
    pub(crate) fn word() -> Self {
        Set::of(&[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
    }

    /// ECMA-262's WhiteSpace and LineTerminator: `\s`.
    pub(crate) fn space() -> Self {
        Set::of(&[
            (0x09, 0x0D),
            (0x20, 0x20),
            (0xA0, 0xA0),
            (0x1680, 0x1680),
            (0x2000, 0x200A),
            (0x2028, 0x2029),
            (0x202F, 0x202F),
            (0x205F, 0x205F),
            (0x3000, 0x3000),
            (0xFEFF, 0xFEFF),
        ])
    }

    /// What `.` matches: anything but a line terminator.
    pub(crate) fn dot() -> Self {
        Set::of(&[(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]).complement()
    }

    pub(crate) fn add(&mut self, lo: u32, hi: u32) {
        self.ranges.push((lo, hi));
        self.ranges.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(self.ranges.len());
        for &(lo, hi) in &self.ranges {
            match merged.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        self.ranges = merged;
    }

    pub(crate) fn union(&mut self, other: &Set) {
        for &(lo, hi) in &other.ranges {
            self.add(lo, hi);
        }
    }

    /// Every scalar value not in the set.
    pub(crate) fn complement(&self) -> Self {
        let mut out = Vec::new();
        let mut next = 0u32;
        for &(lo, hi) in &self.ranges {
            if lo > next {
                out.push((next, lo - 1));
            }
            next = hi + 1;
        }
        if next <= MAX {
            out.push((next, MAX));
        }
        Set { ranges: out }.without_surrogates()
    }

    fn without_surrogates(self) -> Self {
        let (s_lo, s_hi) = SURROGATES;
        let mut out = Vec::new();
        for (lo, hi) in self.ranges {
            if hi < s_lo || lo > s_hi {
                out.push((lo, hi));
                continue;
            }
            if lo < s_lo {
                out.push((lo, s_lo - 1));
            }
            if hi > s_hi {
                out.push((s_hi + 1, hi));
            }
        }
        Set { ranges: out }
    }

    pub(crate) fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }
}
