//! Pages in a real browser: `tests/browser/*.mjs` drive Debian's chromium headless (through the
//! npm package playwright-core) as a user would, and save screenshots in
//! `target/browser-artefacts/`. Needs `chromium` (or `SWEEP2D_CHROMIUM` naming a Chromium binary),
//! Node.js, and `npm ci --prefix tests/browser`; where one is missing the tests say so and skip,
//! unless `SWEEP2D_REQUIRE_BROWSER` is set (as `.ci/run` does), when they fail.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "common/served.rs"]
mod served;
use served::{run_to_replay, serve};

/// Why the browser tests cannot run here, if they cannot.
fn missing() -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let chromium = std::env::var_os("SWEEP2D_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !chromium.is_file() {
        return Some(format!(
            "no Chromium at {} (apt-get install chromium, or set SWEEP2D_CHROMIUM)",
            chromium.display()
        ));
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Some("no node on PATH (apt-get install nodejs npm)".into());
    }
    if !root
        .join("tests/browser/node_modules/playwright-core")
        .is_dir()
    {
        return Some("playwright-core is not installed (npm ci --prefix tests/browser)".into());
    }
    None
}

/// Runs a driver script with `args`; skips (or fails, when required) if no browser is available.
fn drive(script: &str, args: &[&Path]) {
    if let Some(why) = missing() {
        assert!(
            std::env::var_os("SWEEP2D_REQUIRE_BROWSER").is_none(),
            "browser tests required but cannot run: {why}"
        );
        eprintln!("skipping the browser test {script}: {why}");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("node")
        .arg(root.join("tests/browser").join(script))
        .args(args)
        .output()
        .expect("node runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{script} failed:\n{text}");
    println!("{text}");
}

/// The screenshot directory (`target/browser-artefacts`).
fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-artefacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_replay_page_plays_scrubs_and_picks_in_chromium() {
    let dir = std::env::temp_dir().join(format!("sweep2d-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = run_to_replay("bullet_through_thin_walls.json", &dir, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    drive("replay.mjs", &[&dir.join("replay.html"), &artefacts()]);
}

#[test]
fn the_testbed_streams_fires_bullets_and_shows_tunnelling_without_the_continuous_pass() {
    if missing().is_some() {
        drive("testbed.mjs", &[]); // skips (or fails when required) with the reason
        return;
    }
    let dir = std::env::temp_dir().join(format!("sweep2d-testbed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A 1 cm wall at x = 0 and nothing else, no gravity: bullets fired from x = -1.5 at 300 m/s
    // move 5 m a step, through the wall in one step unless the continuous pass stops them.
    let scene = dir.join("wall.json");
    std::fs::write(
        &scene,
        r#"{"gravity": [0, 0], "bodies": [{"name": "wall", "kind": "static", "position": [0, 0],
            "shape": {"type": "rectangle", "half_extents": [0.005, 2.0]}}]}"#,
    )
    .unwrap();
    let server = serve();
    let url = format!("http://{}/", server.addr);
    drive("testbed.mjs", &[Path::new(&url), &scene, &artefacts()]);
    drop(server);
}
