//! Timing classes: how long a tool may take, and so how the dispatcher
//! answers. The type lives in `toolwright-vocab`, which the generator and
//! the macros read too, so the IDL, the generated code and the runtime
//! spell each class alike; the dispatcher's policy for each is
//! `dispatcher/policy.rs`.

pub use toolwright_vocab::ToolTiming;
