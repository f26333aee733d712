//! What the tests of the `punct` binary share: running it, feeding it
//! input, reading its output.
#![allow(dead_code)] // each test binary uses its own part of this

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The built binary with `args`.
pub fn punct(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(args)
        .output()
        .expect("run punct")
}

/// The built binary with `args`, `input` on its standard input.
pub fn punct_stdin(args: &[&str], input: &str) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_punct"));
    c.args(args);
    feed(c, input)
}

/// Runs `command` with `input` on its standard input, its output captured.
pub fn feed(mut command: Command, input: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run punct");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}
