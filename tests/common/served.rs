//! The `sweep2d` binary for the tests that run it for its pages (`tests/cli.rs`,
//! `tests/browser.rs`): a `sweep2d serve` process on a free loopback port, and runs of a shipped
//! scene that write `replay.html`; included with `#[path]`.

/// The running server, stopped when dropped.
pub struct Served {
    child: std::process::Child,
    /// `127.0.0.1:PORT`, as the server printed it.
    pub addr: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `sweep2d serve --port 0` and reads the address it prints.
pub fn serve() -> Served {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sweep2d"))
        .args(["serve", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    Served { child, addr }
}

/// Runs `sweep2d run scenes/<scene> --plot none --html --out <out> <extra…>` and returns its
/// output (the replay page is `out/replay.html`).
#[allow(dead_code)] // (each including test file uses what it needs)
pub fn run_to_replay(scene: &str, out: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let scene = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(scene);
    std::process::Command::new(env!("CARGO_BIN_EXE_sweep2d"))
        .args(["run", scene.to_str().unwrap(), "--plot", "none", "--html"])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}
