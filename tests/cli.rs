//! The `sweep2d` command end to end: the demo's outputs, `run` on every shipped scene, `check`,
//! and exit code 2 with a message naming the problem for every kind of bad input.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "common/served.rs"]
mod served;
use served::{run_to_replay, serve};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sweep2d"))
}

/// A fresh empty directory under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sweep2d-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}

#[test]
fn demo_writes_every_output_with_no_files_needed() {
    let cwd = scratch("demo");
    let o = bin().arg("demo").current_dir(&cwd).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = cwd.join("sweep2d-demo");
    for f in [
        "trajectory.csv",
        "events.csv",
        "summary.json",
        "trajectory.png",
        "scene.json",
        "replay.html",
    ] {
        assert!(out.join(f).is_file(), "{f} missing: {}", text(&o));
    }
    let png = std::fs::read(out.join("trajectory.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.len() > 50_000, "a real picture, {} bytes", png.len());
    let s = summary(&out);
    assert_eq!(s["steps"], 180);
    assert!(
        s["impacts"].as_u64().unwrap() > 5,
        "the bullet hits walls: {s}"
    );
    assert!(
        s["deepest_overlap"]["depth"].as_f64().unwrap() < 0.01,
        "{s}"
    );
    assert!(s["kinetic_energy_end"].as_f64() < s["kinetic_energy_start"].as_f64());
    // The bullet never leaves the room through a 1 cm wall.
    let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    let mut rows = 0;
    for line in csv.lines().skip(1).filter(|l| l.contains(",bullet,")) {
        let f: Vec<f64> = line
            .split(',')
            .enumerate()
            .filter(|(i, _)| *i != 2)
            .map(|(_, v)| v.parse().unwrap())
            .collect();
        let (x, y) = (f[2], f[3]);
        assert!(
            x.abs() < 6.0 && y > 0.0 && y < 6.0,
            "bullet outside the room: {line}"
        );
        rows += 1;
    }
    assert_eq!(rows, 181);
    // The scene it wrote runs again with `run`.
    let o = bin()
        .args(["run", "scene.json", "--plot", "none", "--out", "again"])
        .current_dir(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn run_works_on_every_shipped_scene() {
    let scenes = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let cwd = scratch("run");
    for entry in std::fs::read_dir(scenes).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let o = bin()
            .arg("run")
            .arg(&path)
            .args(["--steps", "60", "--plot", "svg", "--record-every", "2"])
            .current_dir(&cwd)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{name}: {}", text(&o));
        let out = cwd.join(&name);
        let s = summary(&out);
        assert_eq!(s["steps"], 60, "{name}");
        let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
        assert!(csv.starts_with("step,time,body,x,y,angle,vx,vy,omega\n"));
        let bodies = s["bodies"].as_u64().unwrap() as usize;
        assert_eq!(
            csv.lines().count(),
            1 + 31 * bodies,
            "{name}: frames 0, 2, ..., 60"
        );
        let events = std::fs::read_to_string(out.join("events.csv")).unwrap();
        assert!(events.starts_with("step,time,kind,body_a,body_b,fraction,"));
        assert!(std::fs::read_to_string(out.join("trajectory.svg"))
            .unwrap()
            .contains("<svg"));
    }
}

#[test]
fn check_accepts_good_scenes_and_names_what_is_wrong() {
    let dir = scratch("check");
    let good = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/newtons_cradle.json");
    let o = bin().arg("check").arg(&good).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("ok: 5 bodies"));

    let base = std::fs::read_to_string(&good).unwrap();
    let cases = [
        (
            "unknown-field",
            base.replacen("\"friction\"", "\"grip\"", 1),
            "grip",
        ),
        (
            "bad-shape",
            base.replacen("\"radius\": 0.5", "\"radius\": -0.5", 1),
            "radius must be positive",
        ),
        (
            "bad-density",
            base.replacen("\"friction\": 0.0", "\"friction\": 0.0, \"density\": 0", 1),
            "density",
        ),
        ("syntax", base.replacen('}', "},,", 1), "line"),
        (
            "missing-kind",
            base.replacen("\"kind\": \"dynamic\",", "", 1),
            "missing field `kind`",
        ),
    ];
    for (name, scene, expect) in cases {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, scene).unwrap();
        for cmd in [vec!["check"], vec!["run", "--plot", "none"]] {
            let o = bin()
                .args(&cmd)
                .arg(&path)
                .current_dir(&dir)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{name} {cmd:?}: {}", text(&o));
            assert!(err.contains(expect), "{name} {cmd:?}: {err}");
            assert!(!err.contains("panicked"), "{err}");
        }
        if name != "syntax" {
            let err =
                String::from_utf8_lossy(&bin().arg("check").arg(&path).output().unwrap().stderr)
                    .to_string();
            assert!(err.contains("body 0 (\"disc 1\")"), "names the body: {err}");
        }
    }
}

#[test]
fn bad_arguments_and_missing_files_exit_with_2() {
    let dir = scratch("args");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/newtons_cradle.json");
    let cases: Vec<Vec<std::ffi::OsString>> = vec![
        vec!["check".into(), dir.join("nope.json").into()],
        vec!["run".into(), dir.join("nope.json").into()],
        vec![
            "run".into(),
            scene.clone().into(),
            "--record-every".into(),
            "0".into(),
        ],
        vec![
            "run".into(),
            scene.clone().into(),
            "--plot".into(),
            "jpeg".into(),
        ],
        vec![
            "run".into(),
            scene.clone().into(),
            "--steps".into(),
            "-3".into(),
        ],
        vec!["fly".into()],
        vec![],
    ];
    for args in cases {
        let o = bin().args(&args).current_dir(&dir).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(!o.stderr.is_empty(), "{args:?}: says why");
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    }
    // An output directory that cannot be created (a file is in the way) is bad input too.
    std::fs::write(dir.join("taken"), b"x").unwrap();
    let o = bin()
        .arg("run")
        .arg(&scene)
        .args(["--plot", "none", "--out", "taken/sub"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("taken"));
}

#[test]
fn oversized_inputs_are_refused_before_any_work() {
    let dir = scratch("oversized");
    // A scene file over 16 MiB: refused without reading it whole.
    let big = dir.join("big.json");
    std::fs::write(&big, vec![b' '; (16 << 20) + 10]).unwrap();
    let o = bin()
        .args(["check", big.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("16 MiB"), "{}", text(&o));
    // 2^64 − 1 steps: refused by check.
    let many = dir.join("many.json");
    std::fs::write(
        &many,
        r#"{"steps": 18446744073709551615, "bodies": [{"kind": "static", "position": [0, 0],
            "shape": {"type": "circle", "radius": 1}}]}"#,
    )
    .unwrap();
    let o = bin()
        .args(["check", many.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("steps"), "{}", text(&o));
    // An output directory that cannot be made fails before simulating.
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, b"x").unwrap();
    let o = bin()
        .args(["run", "scenes/pyramid.json", "--out"])
        .arg(blocker.join("out"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("cannot create"), "{}", text(&o));
    assert!(
        !text(&o).contains("steps ("),
        "it did not simulate: {}",
        text(&o)
    );
}

#[test]
fn a_run_continued_from_its_snapshot_matches_the_unbroken_run() {
    let dir = scratch("snapshot");
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/pyramid.json");
    let snap = dir.join("half.snapshot");
    let run = |args: &[&str]| {
        let o = bin().args(args).output().unwrap();
        assert!(o.status.success(), "{}", text(&o));
        text(&o)
    };
    let full = dir.join("full");
    let half = dir.join("half");
    let rest = dir.join("rest");
    run(&[
        "run",
        scene,
        "--steps",
        "160",
        "--plot",
        "none",
        "--out",
        full.to_str().unwrap(),
    ]);
    let said = run(&[
        "run",
        scene,
        "--steps",
        "80",
        "--plot",
        "none",
        "--out",
        half.to_str().unwrap(),
        "--snapshot",
        snap.to_str().unwrap(),
    ]);
    assert!(said.contains("snapshot"), "{said}");
    run(&[
        "run",
        snap.to_str().unwrap(),
        "--steps",
        "80",
        "--plot",
        "none",
        "--out",
        rest.to_str().unwrap(),
    ]);
    // The continued run's rows (steps 80–160) are byte for byte the unbroken run's.
    let rows = |p: PathBuf, from: u64| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .skip(1)
            .filter(|l| l.split(',').next().unwrap().parse::<u64>().unwrap() >= from)
            .map(str::to_string)
            .collect()
    };
    let (a, b) = (
        rows(full.join("trajectory.csv"), 80),
        rows(rest.join("trajectory.csv"), 80),
    );
    assert!(a.len() > 1000);
    assert!(a == b, "the continued run differs from the unbroken one");
    // A damaged snapshot is refused with exit code 2 and a reason.
    let mut bytes = std::fs::read(&snap).unwrap();
    let n = bytes.len();
    bytes[n - 5] ^= 1;
    std::fs::write(&snap, &bytes).unwrap();
    let o = bin()
        .args([
            "run",
            snap.to_str().unwrap(),
            "--plot",
            "none",
            "--out",
            rest.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("damaged"), "{}", text(&o));
}

/// The replay page's data, parsed: its metadata and its frames.
fn replay_data(page: &str) -> (serde_json::Value, Vec<serde_json::Value>) {
    let meta_start = page
        .find("<script id=\"meta\" type=\"application/json\">")
        .expect("the page has its metadata")
        + "<script id=\"meta\" type=\"application/json\">".len();
    let meta_end = meta_start + page[meta_start..].find("</script>").unwrap();
    let meta = serde_json::from_str(&page[meta_start..meta_end]).unwrap();
    let frames_start = page.find("const FRAMES = [").unwrap() + "const FRAMES = [".len();
    let frames_end = frames_start + page[frames_start..].find("];\n</script>").unwrap();
    let rows = page[frames_start..frames_end].trim().trim_end_matches(',');
    let frames = serde_json::from_str::<Vec<serde_json::Value>>(&format!("[{rows}]")).unwrap();
    (meta, frames)
}

#[test]
fn the_html_replay_holds_the_run_and_needs_nothing_else() {
    let dir = scratch("html");
    let mut sizes = Vec::new();
    for every in [1u64, 4] {
        let out = dir.join(format!("every{every}"));
        let every_text = every.to_string();
        let o = run_to_replay(
            "bullet_through_thin_walls.json",
            &out,
            &["--steps", "120", "--record-every", &every_text],
        );
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let page = std::fs::read_to_string(out.join("replay.html")).unwrap();
        let data = page.find("const FRAMES").unwrap();
        sizes.push(page[data..].find("</script>").unwrap());
        // Offline: nothing is fetched.
        for reference in ["http://", "https://", " src=", "@import", "url("] {
            assert!(!page.contains(reference), "the page refers to {reference}");
        }
        let (meta, frames) = replay_data(&page);
        let trajectory = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
        let rows: Vec<Vec<&str>> = trajectory
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        let bodies = meta["bodies"].as_array().unwrap();
        assert_eq!(
            bodies.len() * frames.len(),
            rows.len(),
            "one pose per body and recorded step"
        );
        assert_eq!(frames.len() as u64, 120 / every + 1);
        // Every pose equals the trajectory's (the page keeps 5 decimals).
        for (k, row) in rows.iter().enumerate() {
            let (frame, body) = (k / bodies.len(), k % bodies.len());
            assert_eq!(row[2], bodies[body]["name"].as_str().unwrap());
            let time: f64 = row[1].parse().unwrap();
            assert!((frames[frame][0].as_f64().unwrap() - time).abs() < 1e-5);
            for (c, column) in [3usize, 4, 5].into_iter().enumerate() {
                let want: f64 = row[column].parse().unwrap();
                let got = frames[frame][1][3 * body + c].as_f64().unwrap();
                assert!((got - want).abs() <= 6e-6, "{got} vs {want} at row {k}");
            }
        }
        // Every impact is kept, whatever the thinning.
        let events = std::fs::read_to_string(out.join("events.csv")).unwrap();
        let impacts = events.lines().filter(|l| l.contains(",impact,")).count();
        let kept: usize = frames.iter().map(|f| f[2].as_array().unwrap().len()).sum();
        assert!(impacts > 0);
        assert_eq!(kept, impacts);
        // The shapes are there: every body has at least one, with finite numbers.
        for b in bodies {
            assert!(!b["shapes"].as_array().unwrap().is_empty(), "{b}");
        }
    }
    assert!(
        sizes[1] * 2 < sizes[0],
        "thinning shrinks the recorded data: {sizes:?}"
    );

    // Sensor entries and exits and held bodies are kept too, each where events.csv has it.
    let out = dir.join("sensors");
    let o = run_to_replay("sensors_and_filters.json", &out, &["--record-every", "7"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let page = std::fs::read_to_string(out.join("replay.html")).unwrap();
    let (meta, frames) = replay_data(&page);
    let names: Vec<&str> = meta["bodies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    let mut kept: Vec<String> = frames
        .iter()
        .flat_map(|f| f[3].as_array().unwrap().clone())
        .map(|e| {
            let body = |k: usize| {
                let i = e[k].as_i64().unwrap();
                if i < 0 {
                    String::new()
                } else {
                    names[i as usize].to_string()
                }
            };
            format!("{},{},{}", e[1].as_str().unwrap(), body(2), body(3))
        })
        .collect();
    let events = std::fs::read_to_string(out.join("events.csv")).unwrap();
    let mut want: Vec<String> = events
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|r| ["sensor_begin", "sensor_end", "held"].contains(&r[2]))
        .map(|r| format!("{},{},{}", r[2], r[3], r[4]))
        .collect();
    kept.sort();
    want.sort();
    assert!(
        want.iter().any(|e| e.starts_with("sensor_begin")),
        "{events}"
    );
    assert_eq!(kept, want);
}

/// One HTTP/1.0 request; the status code and the body.
fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    http_with(
        addr,
        method,
        path,
        body,
        &format!("Host: {addr}\r\nContent-Type: application/json\r\n"),
    )
}

/// An HTTP/1.0 request with the given header lines (each ending in CRLF).
fn http_with(addr: &str, method: &str, path: &str, body: &str, headers: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    // A server that stopped answering fails the test instead of hanging it.
    s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.0\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    let status = reply[9..12].parse().unwrap();
    let body = reply
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// The hardening review's hostile clients: another site's page (a cross-origin command, a
/// `text/plain` "simple" post, a WebSocket upgrade from another origin), a DNS-rebound name, and
/// the segment scene that used to kill the server through `load_text`. Each is refused or
/// answered, and the server keeps serving.
#[test]
fn serve_obeys_only_its_own_page_and_survives_what_used_to_kill_it() {
    let server = serve();
    let addr = server.addr.as_str();
    let port = addr.rsplit_once(':').unwrap().1;
    let own = format!("Host: {addr}\r\n");
    let fire = r#"{"cmd":"fire","from":[-3,1],"to":[-2,1],"radius":0.05,"speed":100}"#;
    let fired = || -> u64 {
        let state: serde_json::Value =
            serde_json::from_str(&http(addr, "GET", "/api/state", "").1).unwrap();
        state["bullets_fired"].as_u64().unwrap()
    };
    for (headers, status, says) in [
        (
            format!("{own}Origin: http://evil.example\r\nContent-Type: application/json\r\n"),
            403,
            "another site",
        ),
        (
            format!("{own}Content-Type: text/plain\r\n"),
            415,
            "application/json",
        ),
        (
            format!("{own}Origin: http://evil.example\r\nContent-Type: text/plain\r\n"),
            403,
            "another site",
        ),
        (
            format!("Host: rebound.example:{port}\r\nContent-Type: application/json\r\n"),
            403,
            "Host",
        ),
        (
            format!("{own}Origin: null\r\nContent-Type: application/json\r\n"),
            403,
            "another site",
        ),
    ] {
        let (got, body) = http_with(addr, "POST", "/api/command", fire, &headers);
        assert_eq!(got, status, "{headers:?}: {body}");
        assert!(body.contains(says), "{headers:?}: {body}");
    }
    assert_eq!(fired(), 0, "no refused command was obeyed");
    // The page's own origin (and clients without one) are obeyed.
    let page = format!("{own}Origin: http://{addr}\r\nContent-Type: application/json\r\n");
    assert_eq!(http_with(addr, "POST", "/api/command", fire, &page).0, 200);
    let local = format!("Host: localhost:{port}\r\nOrigin: http://localhost:{port}\r\nContent-Type: application/json\r\n");
    assert_eq!(http_with(addr, "POST", "/api/command", fire, &local).0, 200);
    assert_eq!(fired(), 2);
    // A WebSocket upgrade from another site is refused before any frame is sent.
    let upgrade = "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    let (got, body) = http_with(
        addr,
        "GET",
        "/ws",
        "",
        &format!("{own}Origin: http://evil.example\r\n{upgrade}"),
    );
    assert_eq!(got, 403, "{body}");
    // The segment placed at an offset (the crash a page could trigger) now loads.
    let scene = r#"{"bodies":[{"kind":"static","position":[0,0],
        "shape":{"type":"rectangle","half_extents":[0.5,0.5]},
        "shapes":[{"shape":{"type":"segment","a":[-1,0],"b":[-1,1]},"offset":[0.2,-0.2],"angle":0.4}]}]}"#;
    let command = serde_json::json!({"cmd": "load_text", "text": scene}).to_string();
    assert_eq!(http(addr, "POST", "/api/command", &command).0, 200);
    let (got, _) = http(addr, "GET", "/api/state", "");
    assert_eq!(got, 200, "the server still answers");
}

/// The hardening review's greedy and stalling clients: commands whose bodies never end, more
/// pages streaming than the server takes, bullets fired as fast as a script can, a scene far
/// larger than a browser can show. Every other client is answered within a second meanwhile,
/// and what would add unbounded work is refused with a message. Every loop here is bounded.
#[test]
fn serve_stays_responsive_to_clients_that_stall_or_take_too_much() {
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};
    let server = serve();
    let addr = server.addr.as_str();
    let state_within_a_second = |when: &str| {
        let t = Instant::now();
        let (got, _) = http(addr, "GET", "/api/state", "");
        assert_eq!(got, 200, "{when}");
        assert!(
            t.elapsed() < Duration::from_secs(1),
            "{when}: {:?}",
            t.elapsed()
        );
    };
    // Commands whose chunked bodies never end (the review: one blocked every client).
    let stall = || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        write!(
            s,
            "POST /api/command HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Transfer-Encoding: chunked\r\n\r\n5\r\n{{\"cmd"
        )
        .unwrap();
        s
    };
    let stalled: Vec<_> = (0..4).map(|_| stall()).collect();
    std::thread::sleep(Duration::from_millis(300));
    state_within_a_second("four commands stalled");
    assert_eq!(http(addr, "GET", "/", "").0, 200);
    // All command slots held: another command is refused at once, not queued behind them.
    let fire = r#"{"cmd":"fire","from":[-3,1],"to":[-2,1],"radius":0.05,"speed":100}"#;
    let (got, body) = http(addr, "POST", "/api/command", fire);
    assert_eq!(got, 503, "{body}");
    assert!(body.contains("busy"), "{body}");
    drop(stalled);
    // Their slots come back once those clients go away.
    let mut freed = false;
    for _ in 0..40 {
        if http(addr, "POST", "/api/command", fire).0 == 200 {
            freed = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(freed, "the stalled commands' slots were never given back");
    // Bullets: at most 20 a second.
    std::thread::sleep(Duration::from_millis(1100));
    let answers: Vec<(u16, String)> = (0..30)
        .map(|_| http(addr, "POST", "/api/command", fire))
        .collect();
    let obeyed = answers.iter().filter(|a| a.0 == 200).count();
    assert!(
        (1..=20).contains(&obeyed),
        "{obeyed} bullets in a burst of 30"
    );
    assert!(answers
        .iter()
        .any(|a| a.0 == 400 && a.1.contains("bullets a second")));
    // A scene larger than the testbed takes is refused with the cap, and the old one keeps running.
    let body = r#"{"kind":"dynamic","position":[0,0],"shape":{"type":"circle","radius":0.1}}"#;
    let bodies = vec![body; 20_001].join(",");
    let scene = format!(r#"{{"bodies":[{bodies}]}}"#);
    let command = serde_json::json!({"cmd": "load_text", "text": scene}).to_string();
    let (got, reply) = http(addr, "POST", "/api/command", &command);
    assert_eq!(got, 400, "{reply:.300}");
    assert!(reply.contains("at most 20000"), "{reply:.300}");
    state_within_a_second("after the refused scene");
    // Pages streaming: eight at once; a ninth is refused.
    let upgrade = |k: usize| -> (std::net::TcpStream, String) {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        write!(
            s,
            "GET /ws HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
        .unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") && head.len() < 4096 {
            if s.read(&mut byte).unwrap_or(0) == 0 {
                break;
            }
            head.push(byte[0]);
        }
        let text = String::from_utf8_lossy(&head).into_owned();
        assert!(text.starts_with("HTTP/1.1"), "upgrade {k}: {text:?}");
        (s, text[9..12].to_string())
    };
    let open: Vec<_> = (0..8).map(upgrade).collect();
    assert!(open.iter().all(|(_, status)| status == "101"));
    let (_ninth, status) = upgrade(8);
    assert_eq!(status, "503");
    state_within_a_second("eight pages streaming");
}

#[test]
fn serve_answers_commands_and_refuses_bad_ones_with_the_clis_messages() {
    let server = serve();
    let addr = server.addr.as_str();
    assert!(
        addr.starts_with("127.0.0.1:"),
        "loopback by default: {addr}"
    );
    let (status, page) = http(addr, "GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("<canvas") && !page.contains("https://"));
    let state = |addr| -> serde_json::Value {
        serde_json::from_str(&http(addr, "GET", "/api/state", "").1).unwrap()
    };
    assert_eq!(state(addr)["scene"], "demo");
    let command = |c: &str| {
        let (status, body) = http(addr, "POST", "/api/command", c);
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        (status, v)
    };
    // Good commands.
    assert_eq!(command(r#"{"cmd":"pause"}"#).0, 200);
    let step = state(addr)["step"].as_u64().unwrap();
    assert_eq!(command(r#"{"cmd":"step"}"#).0, 200);
    assert_eq!(state(addr)["step"].as_u64().unwrap(), step + 1);
    assert_eq!(command(r#"{"cmd":"load","scene":"newtons_cradle"}"#).0, 200);
    assert_eq!(state(addr)["scene"], "newtons_cradle");
    let (status, _) =
        command(r#"{"cmd":"fire","from":[-3,1],"to":[-2,1],"radius":0.05,"speed":100}"#);
    assert_eq!(status, 200);
    assert_eq!(state(addr)["bullets_fired"], 1);
    // Bad ones: status 400, a message, nothing changed.
    let bodies = state(addr)["bodies"].clone();
    for (bad, says) in [
        (r#"{"cmd":"launch"}"#, "unknown command"),
        (
            r#"{"cmd":"fire","from":[-3,1],"to":[-2,1],"radius":-1,"speed":100}"#,
            "radius",
        ),
        (
            r#"{"cmd":"fire","from":[-3,1],"to":[-3,1],"radius":0.1,"speed":100}"#,
            "direction",
        ),
        (
            r#"{"cmd":"fire","from":"here","to":[-3,1],"radius":0.1,"speed":100}"#,
            "`from` must be [x, y]",
        ),
        (r#"{"cmd":"speed","value":1000}"#, "outside 0.05 to 4"),
        (r#"{"cmd":"load","scene":"nowhere"}"#, "no scene called"),
        ("not json", "not JSON"),
    ] {
        let (status, v) = command(bad);
        assert_eq!(status, 400, "{bad}");
        assert!(v["error"].as_str().unwrap().contains(says), "{bad}: {v}");
    }
    assert_eq!(state(addr)["bodies"], bodies);
    assert_eq!(state(addr)["scene"], "newtons_cradle");
    // A scene that does not load gets the message `sweep2d check` gives for the same file.
    let dir = scratch("serve");
    let scene = r#"{"bodies": [{"kind": 3, "position": [0, 0], "shape": {"type": "circle", "radius": 1}}]}"#;
    let path = dir.join("bad.json");
    std::fs::write(&path, scene).unwrap();
    let o = bin().arg("check").arg(&path).output().unwrap();
    let cli = String::from_utf8_lossy(&o.stderr).to_string();
    let cli_message = cli
        .trim()
        .rsplit_once(": body")
        .map(|(_, m)| m)
        .unwrap()
        .to_string();
    let (status, v) = command(
        &serde_json::json!({"cmd": "load_text", "name": "bad.json", "text": scene}).to_string(),
    );
    assert_eq!(status, 400);
    let page_message = v["error"].as_str().unwrap();
    assert!(
        page_message.ends_with(&cli_message),
        "page: {page_message}\ncli: {cli}"
    );
    assert_eq!(
        state(addr)["error"].as_str().unwrap(),
        page_message,
        "shown on the page"
    );
    assert_eq!(
        state(addr)["scene"],
        "newtons_cradle",
        "the running scene keeps running"
    );
}
