//! `skip_value`: every marker, hostile headers, depth, and any value.

use std::collections::BTreeSet;

use proptest::prelude::*;
use rmp::encode as w;

use super::*;

/// A value of every marker, at the edges of each length class.
fn every_kind() -> Vec<Vec<u8>> {
    let mut values: Vec<Vec<u8>> = Vec::new();
    let mut push = |write: &dyn Fn(&mut Vec<u8>)| {
        let mut out = Vec::new();
        write(&mut out);
        values.push(out);
    };
    push(&|o| w::write_pfix(o, 0).expect("write"));
    push(&|o| w::write_pfix(o, 127).expect("write"));
    push(&|o| w::write_nfix(o, -1).expect("write"));
    push(&|o| w::write_nfix(o, -32).expect("write"));
    push(&|o| w::write_nil(o).expect("write"));
    push(&|o| w::write_bool(o, false).expect("write"));
    push(&|o| w::write_bool(o, true).expect("write"));
    push(&|o| w::write_f32(o, 1.5).expect("write"));
    push(&|o| w::write_f64(o, -2.25).expect("write"));
    push(&|o| w::write_u8(o, 200).expect("write"));
    push(&|o| w::write_u16(o, 60_000).expect("write"));
    push(&|o| w::write_u32(o, 4_000_000_000).expect("write"));
    push(&|o| w::write_u64(o, u64::MAX).expect("write"));
    push(&|o| w::write_i8(o, -100).expect("write"));
    push(&|o| w::write_i16(o, -30_000).expect("write"));
    push(&|o| w::write_i32(o, -2_000_000_000).expect("write"));
    push(&|o| w::write_i64(o, i64::MIN).expect("write"));
    for len in [0, 31, 32, 255, 256, 65_535, 65_536] {
        push(&|o| w::write_str(o, &"s".repeat(len)).expect("write"));
    }
    for len in [0, 255, 256, 65_535, 65_536] {
        push(&|o| w::write_bin(o, &vec![0xc1; len]).expect("write"));
    }
    for len in [1, 2, 4, 8, 16, 0, 3, 255, 256, 65_535, 65_536] {
        push(&|o| {
            w::write_ext_meta(o, len, 7).expect("write");
            o.extend(std::iter::repeat_n(0xc1, len as usize));
        });
    }
    for len in [0, 15, 16, 65_535, 65_536] {
        push(&|o| {
            w::write_array_len(o, len).expect("write");
            o.extend(std::iter::repeat_n(0xc0, len as usize));
        });
        push(&|o| {
            w::write_map_len(o, len).expect("write");
            o.extend(std::iter::repeat_n(0x01, 2 * len as usize));
        });
    }
    // [{"k": [1, {}]}, [], "x"]
    push(&|o| o.extend_from_slice(b"\x93\x81\xa1k\x92\x01\x80\x90\xa1x"));
    values
}

#[test]
fn skip_value_handles_every_marker() {
    let values = every_kind();
    let markers: BTreeSet<u8> = values.iter().filter_map(|v| v.first().copied()).collect();
    for marker in (0xc0..=0xdf).filter(|&m| m != 0xc1) {
        assert!(
            markers.contains(&marker),
            "no value starts with {marker:#04x}"
        );
    }
    for fix in [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xe0, 0xff] {
        assert!(markers.contains(&fix), "no value starts with {fix:#04x}");
    }
    for value in &values {
        let followed = [value.as_slice(), &[0xc1, 0xc1]].concat();
        assert_eq!(
            skip_value(&followed, 128),
            Ok(value.len()),
            "{:02x?}",
            &value[..1]
        );
        // Every proper prefix is short of the value.
        for cut in [0, value.len() / 2, value.len() - 1] {
            assert!(
                skip_value(&value[..cut], 128).is_err(),
                "{:02x?}",
                &value[..1]
            );
        }
    }
    assert_eq!(skip_value(&[0xc1], 128), Err(SkipError::Reserved));
    assert_eq!(
        skip_value(&[0x92, 0x01, 0xc1], 128),
        Err(SkipError::Reserved)
    );
    assert_eq!(skip_value(&[], 128), Err(SkipError::Truncated));
    assert_eq!(
        skip_value(&[0xdb, 0xff, 0xff], 128),
        Err(SkipError::Truncated)
    );
    assert_eq!(
        skip_value(&[0xc9, 0, 0, 0, 2, 7, 0], 128),
        Err(SkipError::Truncated)
    );
}

#[test]
fn a_huge_header_in_a_short_buffer_is_refused_at_once() {
    let array = [0xdd, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0];
    assert_eq!(skip_value(&array, 128), Err(SkipError::TooManyItems));
    let map = [0xdf, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0];
    assert_eq!(skip_value(&map, 128), Err(SkipError::TooManyItems));
    // Inner headers count against the bytes left too.
    let nested = [0x92, 0xdc, 0x00, 0x05, 0x01, 0x01, 0x01, 0x01];
    assert_eq!(skip_value(&nested, 128), Err(SkipError::TooManyItems));
    let body = [&[0x81][..], KEY_REQUEST, &map].concat();
    assert!(refusal(&body).contains("more items than bytes remain"));
}

#[test]
fn nesting_is_bounded() {
    let nested = |depth: usize| [vec![0x91; depth], vec![0xc0]].concat();
    assert_eq!(skip_value(&nested(128), 128), Ok(129));
    assert_eq!(skip_value(&nested(129), 128), Err(SkipError::TooDeep(128)));
    assert_eq!(skip_value(&[0x91, 0x90], 1), Err(SkipError::TooDeep(1)));
    assert_eq!(skip_value(&[0x90], 0), Err(SkipError::TooDeep(0)));
    assert_eq!(skip_value(&[0x01], 0), Ok(1));
    // Siblings do not add up: depth is how far down, not how many.
    let wide = [&[0x9f][..], &[0x91, 0x91, 0xc0].repeat(15)].concat();
    assert_eq!(skip_value(&wide, 3), Ok(wide.len()));

    let request = [&[0x81, 0xa1, b'k'][..], &nested(3)].concat();
    let body = [&[0x81][..], KEY_REQUEST, &request].concat();
    let limits = Limits::default().max_depth(4);
    assert_eq!(
        CallBody::decode(&body, limits).map(|c| c.request),
        Ok(&request[..])
    );
    let error = CallBody::decode(&body, limits.max_depth(3)).expect_err("too deep");
    assert!(
        error.message.contains("nesting deeper than the limit of 3"),
        "{error}"
    );
}

fn json() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,40}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 20, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..20).prop_map(Value::Array),
            proptest::collection::btree_map(".{0,8}", inner, 0..20)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn skip_value_measures_any_value(value in json(), trailing in proptest::collection::vec(any::<u8>(), 0..4)) {
        let bytes = rmp_serde::to_vec(&value).expect("encodes");
        let followed = [bytes.as_slice(), &trailing].concat();
        prop_assert_eq!(skip_value(&followed, 128), Ok(bytes.len()));
        let request = rmp_serde::to_vec(&serde_json::json!({"tool": "t", "v": value})).expect("encodes");
        let body = encode_call(&request, None, true);
        prop_assert_eq!(decode(&body).map(|c| c.request), Ok(&request[..]));
    }
}
