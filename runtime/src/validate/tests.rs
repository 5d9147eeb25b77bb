use serde_json::json;

use super::check::{bytes, chars, entries, float, int, pattern};
use super::{Pattern, Validate, Violation};
use crate::{ToolError, codes};

#[test]
fn integers_are_refused_just_outside_their_range_and_accepted_at_it() {
    assert_eq!(int(-24i8, -24, 24), Ok(()));
    assert_eq!(int(24i8, -24, 24), Ok(()));
    let above = int(25i8, -24, 24).unwrap_err().at("semitones");
    assert_eq!(
        above.to_string(),
        "field `semitones`: 25 is above the maximum 24"
    );
    let below = int(-25i8, -24, 24).unwrap_err();
    assert_eq!(below.message(), "-25 is below the minimum -24");
    assert_eq!(
        int(u64::MAX, 0, i128::from(u64::MAX - 1))
            .unwrap_err()
            .message(),
        "18446744073709551615 is above the maximum 18446744073709551614"
    );
}

#[test]
fn floats_are_bounded_and_nan_is_within_no_range() {
    assert_eq!(float(-48.0f32, -48.0, 12.0), Ok(()));
    assert_eq!(float(12.0, -48.0, 12.0), Ok(()));
    assert_eq!(
        float(12.5, -48.0, 12.0).unwrap_err().message(),
        "12.5 is above the maximum 12"
    );
    assert_eq!(
        float(f64::NAN, 0.0, 1.0).unwrap_err().message(),
        "NaN is not within 0..=1"
    );
}

#[test]
fn strings_count_characters_not_bytes() {
    assert_eq!(chars("ééé", 1, 3), Ok(()));
    assert_eq!(chars("🎵", 1, 1), Ok(()));
    assert_eq!(
        chars("éééé", 1, 3).unwrap_err().message(),
        "4 characters are more than the maximum 3"
    );
    assert_eq!(
        chars("", 1, 3).unwrap_err().message(),
        "0 characters are fewer than the minimum 1"
    );
    assert_eq!(
        bytes(&[0; 3], 4, 8).unwrap_err().message(),
        "3 bytes are fewer than the minimum 4"
    );
    assert_eq!(
        entries(9, 0, 8).unwrap_err().message(),
        "9 entries are more than the maximum 8"
    );
}

#[test]
fn patterns_match_anywhere_and_say_what_failed() {
    static HEX: Pattern = Pattern::new("^[0-9a-f]{4}$", "^[0-9a-f]{4}$");
    assert_eq!(pattern("00ff", &HEX), Ok(()));
    let error = pattern("00FF", &HEX).unwrap_err();
    assert_eq!(
        error.message(),
        r#""00FF" does not match the pattern `^[0-9a-f]{4}$`"#
    );
    let long = "x".repeat(100);
    let shown = pattern(&long, &HEX).unwrap_err().message().to_owned();
    assert!(
        shown.starts_with(&format!("\"{}…\"", "x".repeat(40))),
        "{shown}"
    );
}

#[test]
fn a_pattern_that_does_not_compile_matches_nothing() {
    static BROKEN: Pattern = Pattern::new("(", "(");
    assert!(!BROKEN.is_match(""));
}

#[test]
fn paths_read_as_decode_errors_write_them() {
    let violation = int(9u8, 0, 8)
        .unwrap_err()
        .at("level")
        .at_key("bass")
        .at("mix")
        .at_index(2)
        .at("tracks");
    assert_eq!(violation.field(), "tracks[2].mix.bass.level");
}

#[test]
fn containers_add_their_index_or_key() {
    struct Level(u8);
    impl Validate for Level {
        fn validate(&self) -> Result<(), Violation> {
            int(self.0, 0, 8)
        }
    }
    let list = vec![Level(1), Level(9)];
    assert_eq!(list.validate().unwrap_err().field(), "[1]");
    let map: std::collections::BTreeMap<String, Option<Box<Level>>> =
        [("a".to_owned(), Some(Box::new(Level(10))))].into();
    assert_eq!(map.validate().unwrap_err().field(), "a");
    assert_eq!(None::<Level>.validate(), Ok(()));
}

#[test]
fn a_violation_is_an_invalid_request_with_the_field_and_bounds() {
    let error = ToolError::from(int(100i8, -24, 24).unwrap_err().at("semitones"));
    assert_eq!(error.code, codes::INVALID_REQUEST);
    assert_eq!(
        error.message,
        "field `semitones`: 100 is above the maximum 24"
    );
    assert_eq!(
        error.details,
        Some(json!({
            "constraint": "range",
            "minimum": -24,
            "maximum": 24,
            "field": "semitones",
        }))
    );
}
