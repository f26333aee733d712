//! Builds the page's WebAssembly (crates/punct-wasm) for
//! `wasm32-unknown-unknown`, so that the binary carries it as it carries
//! the page (web.rs): the README's `cargo run` needs nothing else. It is a
//! second cargo, on a target directory of its own beside this build's
//! (`<target>/wasm`), so it does not wait on this build's lock and is
//! rebuilt only when its crates change. Where the target is missing it is
//! added with rustup (rust-toolchain.toml names it); `PUNCT_NO_WASM=1`
//! builds without it, and the page then asks the server for everything.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("../..");
    for path in [
        "crates/punct-wasm",
        "crates/punct-view",
        "crates/punct-engine/src",
        "crates/punct-core/src",
        "Cargo.lock",
        "rust-toolchain.toml",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(path).display());
    }
    println!("cargo:rerun-if-env-changed=PUNCT_NO_WASM");
    let wasm = out.join("punct.wasm");
    if env::var_os("PUNCT_NO_WASM").is_some_and(|v| v == "1") {
        println!("cargo:warning=PUNCT_NO_WASM=1: the page is built without its WebAssembly");
        std::fs::write(&wasm, b"").expect("OUT_DIR is writable");
        return;
    }
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    if !has_target(&rustc) {
        // rustup reads rust-toolchain.toml, which lists the target.
        let added = Command::new("rustup")
            .args(["target", "add", TARGET])
            .current_dir(&root)
            .status();
        if !matches!(added, Ok(s) if s.success()) || !has_target(&rustc) {
            panic!(
                "the page's WebAssembly needs the Rust target {TARGET}: add it with \
                 `rustup target add {TARGET}` (rust-toolchain.toml lists it), or build \
                 with PUNCT_NO_WASM=1 to serve the page without it"
            );
        }
    }
    // OUT_DIR is <target>/[<triple>/]<profile>/build/<package>-<hash>/out.
    let target_dir = out
        .ancestors()
        .nth(4)
        .map(|t| t.join("wasm"))
        .unwrap_or_else(|| out.join("wasm"));
    let mut build = Command::new(&cargo);
    build
        .args(["build", "--package", "punct-wasm", "--target", TARGET])
        .args(["--profile", "wasm", "--manifest-path"])
        .arg(root.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .current_dir(&root);
    if env::var_os("CARGO_NET_OFFLINE").is_some() {
        build.arg("--offline");
    }
    // What the outer build was run with is not for this one: clippy's
    // wrapper, flags for the host, coverage.
    for var in [
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_MANIFEST_PATH",
        "CARGO_LLVM_COV",
        "LLVM_PROFILE_FILE",
    ] {
        build.env_remove(var);
    }
    let status = build.status().expect("cargo runs");
    assert!(
        status.success(),
        "building crates/punct-wasm for {TARGET} failed"
    );
    let built = target_dir.join(TARGET).join("wasm").join("punct_wasm.wasm");
    std::fs::copy(&built, &wasm).unwrap_or_else(|e| panic!("copying {}: {e}", built.display()));
}

/// Whether `rustc`'s sysroot has the standard library for [`TARGET`].
fn has_target(rustc: &std::ffi::OsStr) -> bool {
    let Ok(out) = Command::new(rustc).args(["--print", "sysroot"]).output() else {
        return false;
    };
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    Path::new(&sysroot)
        .join("lib/rustlib")
        .join(TARGET)
        .join("lib")
        .is_dir()
}
