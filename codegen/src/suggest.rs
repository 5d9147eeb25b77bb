//! "Did you mean …?": the rule the checker, the macros and the runtime
//! share, from `toolwright-suggest`.

pub(crate) use toolwright_suggest::{closest, closest_within};
