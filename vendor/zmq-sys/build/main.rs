use std::env;

pub fn configure() {
    println!("cargo:rerun-if-changed=build/main.rs");
    println!("cargo:rerun-if-env-changed=PROFILE");

    // The one change from zmq-sys 0.12.0, which passes `None` here and so
    // builds libzmq without CURVE: libzmq's own `tweetnacl` has never been
    // audited (https://github.com/zeromq/libzmq/issues/3006), so CURVE
    // comes from libsodium, built from its signed release tarball by
    // libsodium-sys-stable, which tells this script where it put it.
    let include = env::var("DEP_SODIUM_INCLUDE")
        .expect("libsodium-sys-stable names its include directory (DEP_SODIUM_INCLUDE)");
    let lib = env::var("DEP_SODIUM_LIB")
        .expect("libsodium-sys-stable names its lib directory (DEP_SODIUM_LIB)");
    zeromq_src::Build::new()
        .with_libsodium(Some(zeromq_src::LibLocation::new(lib, include)))
        .build();
}

fn main() {
    configure()
}
