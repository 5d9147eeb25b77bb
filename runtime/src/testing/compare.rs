//! Comparing an example's declared JSON with what a handler answered.

use serde_json::Value;

/// True when `a` and `b` are the same JSON value, numbers compared by
/// value: a declared `39` is an answered `39.0` (an `f64` field).
pub(super) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// A line diff of the two values pretty-printed: ` ` common, `-` only in
/// `expected`, `+` only in `actual`.
pub(super) fn diff(expected: &Value, actual: &Value) -> String {
    let pretty = |v: &Value| serde_json::to_string_pretty(&sorted(v)).unwrap_or_default();
    let (old, new) = (pretty(expected), pretty(actual));
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    // Longest common subsequence; example values are small.
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = String::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push_str(&format!("  {}\n", a[i]));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push_str(&format!("+ {}\n", b[j]));
            j += 1;
        } else {
            out.push_str(&format!("- {}\n", a[i]));
            i += 1;
        }
    }
    out
}

/// Objects with their keys in order, so the diff shows changes, not moves.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|x, y| x.0.cmp(y.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), sorted(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{diff, same};

    #[test]
    fn numbers_compare_by_value_and_everything_else_exactly() {
        assert!(same(&json!({"total": 39}), &json!({"total": 39.0})));
        assert!(!same(&json!({"total": 39}), &json!({"total": 39.5})));
        assert!(!same(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!same(&json!(["x"]), &json!(["x", "y"])));
        assert!(same(
            &json!({"a": [1, {"b": "c"}]}),
            &json!({"a": [1.0, {"b": "c"}]})
        ));
    }

    #[test]
    fn the_diff_marks_what_changed() {
        let d = diff(
            &json!({"result": 5, "same": true}),
            &json!({"result": 6, "same": true}),
        );
        assert!(d.contains("-   \"result\": 5"), "{d}");
        assert!(d.contains("+   \"result\": 6"), "{d}");
        assert!(d.contains("    \"same\": true"), "{d}");
    }
}
