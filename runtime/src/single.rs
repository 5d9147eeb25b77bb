//! Reading an IDL `f32`: a number too large for it is refused, never read
//! as infinity.
//!
//! serde reads an `f32` from any number with `as`, so `1e98` — valid JSON,
//! and a valid MsgPack `f64` — becomes `inf`: a value the caller never
//! sent, which JSON cannot even write back. Generated types read every field
//! whose type ends in `f32` (`f32`, `f32?`, `list<f32>`, `map<f32>`, and
//! those nested) through [`deserialize`], which refuses such a number with
//! an error serde attaches to the field's path, so the call is
//! `INVALID_REQUEST` naming the field.
//!
//! Infinities and NaN sent as such (MsgPack can carry them) pass through:
//! they fit an `f32`, and a field's `@range` decides whether it takes them.

use std::collections::BTreeMap;

use serde::de::{Deserialize, Deserializer, Error};

/// What [`deserialize`] reads: `f32`, and options, lists and string-keyed
/// maps of what it reads.
pub trait Single<'de>: Sized {
    /// Reads `Self`, refusing a number outside `f32`'s range.
    ///
    /// # Errors
    /// The deserializer's, and `invalid value` for a number that would
    /// round to an infinity as an `f32`.
    fn read<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

/// `#[serde(deserialize_with = "…")]` for a field whose type ends in `f32`.
///
/// # Errors
/// As [`Single::read`].
pub fn deserialize<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Single<'de>,
{
    T::read(deserializer)
}

/// The largest magnitude said in the error: `f32::MAX`.
const EXPECTED: &str = "a number within f32's range (±3.4028235e38)";

impl<'de> Single<'de> for f32 {
    fn read<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // f64 reads every number f32 reads (integers, f32, f64) exactly or
        // nearer, so the check sees what was sent.
        let wide = f64::deserialize(deserializer)?;
        #[expect(
            clippy::cast_possible_truncation,
            reason = "the rounding is the point: only an overflow is refused"
        )]
        let single = wide as f32;
        if single.is_infinite() && wide.is_finite() {
            // serde's own `invalid value` would spell the number out in
            // full, a hundred digits for 1e98.
            return Err(D::Error::custom(format_args!(
                "invalid value: {wide:e}, expected {EXPECTED}"
            )));
        }
        Ok(single)
    }
}

/// Lets serde's own container impls call [`Single::read`] for each item.
struct Each<T>(T);

impl<'de, T: Single<'de>> Deserialize<'de> for Each<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::read(deserializer).map(Each)
    }
}

impl<'de, T: Single<'de>> Single<'de> for Option<T> {
    fn read<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Option::<Each<T>>::deserialize(deserializer)?.map(|each| each.0))
    }
}

impl<'de, T: Single<'de>> Single<'de> for Vec<T> {
    fn read<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let items = Vec::<Each<T>>::deserialize(deserializer)?;
        Ok(items.into_iter().map(|each| each.0).collect())
    }
}

impl<'de, T: Single<'de>> Single<'de> for BTreeMap<String, T> {
    fn read<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let entries = BTreeMap::<String, Each<T>>::deserialize(deserializer)?;
        Ok(entries.into_iter().map(|(k, each)| (k, each.0)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Fields {
        #[serde(default, deserialize_with = "deserialize")]
        single: Option<f32>,
        #[serde(default, deserialize_with = "deserialize")]
        list: Vec<f32>,
        #[serde(default, deserialize_with = "deserialize")]
        map: BTreeMap<String, Option<f32>>,
    }

    fn read(json: &str) -> Result<Fields, String> {
        let de = &mut serde_json::Deserializer::from_str(json);
        serde_path_to_error::deserialize(de).map_err(|e| e.to_string())
    }

    #[test]
    fn numbers_that_fit_are_read_as_serde_reads_them() {
        let fields = read(r#"{"single": 1.5, "list": [1, -2, 3.4028235e38], "map": {"a": null}}"#)
            .expect("fits");
        assert_eq!(fields.single, Some(1.5));
        assert_eq!(fields.list, [1.0, -2.0, f32::MAX]);
        assert_eq!(fields.map["a"], None);
        // Rounds to the nearest f32, as `as` does, without overflowing.
        let fields = read(r#"{"single": 3.40282356e38}"#).expect("rounds to MAX");
        assert_eq!(fields.single, Some(f32::MAX));
    }

    #[test]
    fn an_overflow_is_refused_at_its_path() {
        let error = read(r#"{"single": 1.44e98}"#).expect_err("too large");
        assert!(
            error.starts_with(
                "single: invalid value: 1.44e98, expected a number within f32's range"
            ),
            "{error}"
        );
        let error = read(r#"{"list": [0, -1e39]}"#).expect_err("too large");
        assert!(error.starts_with("list[1]: invalid value"), "{error}");
        let error = read(r#"{"map": {"k": 1e300}}"#).expect_err("too large");
        assert!(error.starts_with("map.k: invalid value"), "{error}");
    }

    #[test]
    fn infinities_sent_as_such_pass_from_msgpack() {
        #[derive(serde::Serialize)]
        struct Sent {
            single: f64,
        }
        let bytes = rmp_serde::to_vec_named(&Sent {
            single: f64::INFINITY,
        })
        .expect("encodes");
        let fields: Fields = rmp_serde::from_slice(&bytes).expect("an infinity fits");
        assert_eq!(fields.single, Some(f32::INFINITY));
        let bytes = rmp_serde::to_vec_named(&Sent { single: 1e39 }).expect("encodes");
        let error = rmp_serde::from_slice::<Fields>(&bytes).expect_err("too large");
        assert!(error.to_string().contains("f32's range"), "{error}");
    }
}
