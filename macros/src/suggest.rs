//! "Did you mean …?" for a `#[tool]` whose name no tool has: the rule the
//! checker and the runtime share, from `toolwright-suggest`.

pub(crate) use toolwright_suggest::closest;
