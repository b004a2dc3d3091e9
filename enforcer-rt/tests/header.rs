//! The committed C header `include/synth_enforcer.h` is what cbindgen generates from this
//! crate now; with `SYNTH_BLESS=1` the test rewrites it instead.

use std::path::Path;

#[test]
fn committed_header_matches_a_fresh_generation() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("config");
    let mut fresh = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut fresh);
    let path = crate_dir.join("../include/synth_enforcer.h");
    if std::env::var_os("SYNTH_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write the header");
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "include/synth_enforcer.h differs from what cbindgen generates; regenerate it with \
         SYNTH_BLESS=1 cargo test -p enforcer-rt --test header and commit it"
    );
}
