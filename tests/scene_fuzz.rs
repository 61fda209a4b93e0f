//! Scene-parser fuzzing: structured mutations of the shipped scenes (the kinds of mistake the
//! hardening review made: huge, tiny, negative and non-finite numbers, values of the wrong kind,
//! missing, unknown and duplicated fields, positional arrays for objects, hostile names, cut
//! text). Every mutated file must be either rejected with a message that names where the mistake
//! is (a body and field, a top-level field, or a line and column) in the user's words, or accepted
//! and simulated for 50 steps with finite poses and velocities; nothing may panic.
//!
//! Case count: `PROPTEST_CASES` (the default, 256, in CI). Long run:
//! `PROPTEST_CASES=20000 cargo test --release --all-features --test scene_fuzz -- --nocapture`
//! (prints the counts that `docs/reliability.md` reports). The regressions found while building
//! it are the committed corpus in `tests/data/scene_fuzz_corpus.json`, replayed on every run.
#![cfg(feature = "serde")]

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{json, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use sweep2d::analysis::scene::{SceneError, SceneFile};

/// The shipped scenes, the mutation's starting points.
fn shipped() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("the scenes directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    for p in paths {
        let text = std::fs::read_to_string(&p).expect("a readable scene");
        out.push((
            p.file_name().unwrap().to_string_lossy().into_owned(),
            serde_json::from_str(&text).expect("shipped scenes are valid JSON"),
        ));
    }
    out
}

/// A JSON pointer to every node of `v` (the root included), in document order.
fn nodes(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                nodes(x, format!("{at}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                nodes(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Numbers a hostile user sends.
const NUMBERS: [f64; 16] = [
    0.0,
    -1.0,
    -1e-9,
    1e-320,
    5e-324,
    1e-5,
    1e6,
    1e160,
    1e200,
    -1e300,
    1e308,
    4294967295.0,
    18446744073709551615.0,
    0.5,
    3.0,
    -0.0,
];

/// Names a hostile user gives.
fn hostile_name(k: usize) -> Value {
    match k % 5 {
        0 => json!("\u{1b}[2J\u{1b}[31mred"),
        1 => json!("=HYPERLINK(\"http://x\")"),
        2 => Value::String("n".repeat(10_000)),
        3 => json!(""),
        _ => json!("ground"),
    }
}

/// One structured mutation: what to do at the chosen node.
#[derive(Clone, Debug)]
enum Mutation {
    /// Replace with a number from `NUMBERS` (or its text form for the non-JSON ones below).
    Number(usize),
    /// Replace with a value of another kind.
    Kind(usize),
    /// Remove the node from its parent.
    Remove,
    /// Add a field the schema does not have (objects) or an extra element (arrays).
    Extra,
    /// Write an object as the array of its values.
    Positional,
    /// Copy the node's parent array element (duplicate a body, a joint, a point).
    Duplicate,
    /// Replace a name (or any string) with a hostile one.
    Name(usize),
    /// Replace with text JSON cannot hold as f64 or as a number at all (`1e999`, `NaN`).
    BadNumberText(usize),
    /// Cut the file's text at a fraction of its length.
    Truncate(u16),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (0..NUMBERS.len()).prop_map(Mutation::Number),
        3 => (0usize..6).prop_map(Mutation::Kind),
        2 => Just(Mutation::Remove),
        2 => Just(Mutation::Extra),
        1 => Just(Mutation::Positional),
        1 => Just(Mutation::Duplicate),
        1 => (0usize..5).prop_map(Mutation::Name),
        1 => (0usize..3).prop_map(Mutation::BadNumberText),
        1 => any::<u16>().prop_map(Mutation::Truncate),
    ]
}

/// A placeholder the text-level mutations replace after serialising.
const MARK: &str = "\u{1}MARK\u{1}";

/// The mutated scene's text: `scene`'s node number `pick` (modulo the node count) mutated.
fn mutate(scene: &Value, pick: usize, m: &Mutation) -> String {
    let mut v = scene.clone();
    let mut all = Vec::new();
    nodes(&v, String::new(), &mut all);
    let at = &all[pick % all.len()];
    let (parent, key) = match at.rfind('/') {
        Some(i) => (at[..i].to_string(), Some(at[i + 1..].to_string())),
        None => (String::new(), None),
    };
    let mut marked = None;
    match m {
        Mutation::Number(i) => {
            if let Some(n) = v.pointer_mut(at) {
                *n = json!(NUMBERS[*i]);
            }
        }
        Mutation::Kind(k) => {
            if let Some(n) = v.pointer_mut(at) {
                *n = match k {
                    0 => json!("3"),
                    1 => json!(3),
                    2 => json!(null),
                    3 => json!(true),
                    4 => json!([1, 2, 3]),
                    _ => json!({"x": 1}),
                };
            }
        }
        Mutation::Remove => {
            if let (Some(key), Some(p)) = (key, v.pointer_mut(&parent)) {
                match p {
                    Value::Object(o) => {
                        o.remove(&key);
                    }
                    Value::Array(a) => {
                        if let Ok(i) = key.parse::<usize>() {
                            if i < a.len() {
                                a.remove(i);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        Mutation::Extra => {
            if let Some(n) = v.pointer_mut(at) {
                match n {
                    Value::Object(o) => {
                        o.insert("colour".into(), json!("red"));
                    }
                    Value::Array(a) => a.push(json!(1.0)),
                    other => *other = json!([other.clone(), 1.0]),
                }
            }
        }
        Mutation::Positional => {
            if let Some(n) = v.pointer_mut(at) {
                if let Value::Object(o) = n {
                    *n = Value::Array(o.values().cloned().collect());
                }
            }
        }
        Mutation::Duplicate => {
            if let (Some(key), Some(Value::Array(a))) = (key, v.pointer_mut(&parent)) {
                if let Ok(i) = key.parse::<usize>() {
                    let copy = a[i].clone();
                    a.insert(i, copy);
                }
            }
        }
        Mutation::Name(k) => {
            if let Some(n) = v.pointer_mut(at) {
                *n = hostile_name(*k);
            }
        }
        Mutation::BadNumberText(k) => {
            if let Some(n) = v.pointer_mut(at) {
                *n = json!(MARK);
                marked = Some(["1e999", "-1e999", "NaN"][*k]);
            }
        }
        Mutation::Truncate(_) => {}
    }
    let mut text = serde_json::to_string_pretty(&v).expect("a value serializes");
    if let Some(number) = marked {
        text = text.replace(&format!("\"{MARK}\""), number);
    }
    if let Mutation::Truncate(f) = m {
        let cut = text.len() * usize::from(*f) / 65536;
        let cut = (0..=cut)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        text.truncate(cut);
    }
    text
}

/// Words of serde's and Rust's that a user never wrote and should never read.
const INTERNAL: [&str; 10] = [
    "Spec",
    "struct ",
    "enum ",
    "internally tagged",
    "untagged",
    " u64",
    " u32",
    " f64",
    "usize",
    " i32",
];

/// What happened to one mutated file.
#[derive(Debug, PartialEq)]
enum Outcome {
    Rejected,
    Ran,
}

/// Reads, builds and runs `text`; checks the rules of the module notes.
fn check(text: &str) -> Result<Outcome, String> {
    let result = catch_unwind(AssertUnwindSafe(|| -> Result<Outcome, String> {
        let rejected = |e: SceneError| -> Result<Outcome, String> {
            let message = e.to_string();
            let named = match &e {
                SceneError::Syntax { line, .. } => *line > 0,
                SceneError::Body { .. } => true,
                SceneError::Field {
                    field, location, ..
                } => !field.is_empty() || location.is_some(),
                _ => false,
            };
            if !named {
                return Err(format!("the rejection names no place: {message}"));
            }
            if let Some(w) = INTERNAL.iter().find(|w| message.contains(*w)) {
                return Err(format!(
                    "the message shows the internal word {w:?}: {message}"
                ));
            }
            if message.contains('\u{1b}') || message.len() > 1_000 {
                return Err(format!(
                    "the message echoes a raw or long name: {message:.200}"
                ));
            }
            Ok(Outcome::Rejected)
        };
        let scene = match SceneFile::from_json(text) {
            Ok(s) => s,
            Err(e) => return rejected(e),
        };
        let mut loaded = match scene.build() {
            Ok(l) => l,
            Err(e) => return rejected(e),
        };
        for step in 0..50 {
            loaded.world.step();
            for (id, b) in loaded.world.bodies() {
                let (p, v) = (b.transform(), b.linear_velocity());
                if !(p.translation.is_finite()
                    && p.rotation.cos.is_finite()
                    && p.rotation.sin.is_finite()
                    && v.is_finite()
                    && b.angular_velocity().is_finite())
                {
                    return Err(format!(
                        "step {step}: body {id:?} is not finite: {p:?}, {v:?}"
                    ));
                }
            }
        }
        Ok(Outcome::Ran)
    }));
    result.unwrap_or_else(|p| {
        let what = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_string()))
            .unwrap_or_default();
        Err(format!("panicked: {what}"))
    })
}

#[test]
fn mutated_scenes_are_rejected_by_field_or_run_finite() {
    let scenes = shipped();
    let tried = AtomicUsize::new(0);
    let rejected = AtomicUsize::new(0);
    let ran = AtomicUsize::new(0);
    let mut runner = TestRunner::new(Config {
        // Shrinking re-runs 50 steps per candidate; the failure is already specific.
        max_shrink_iters: 64,
        ..Config::default()
    });
    let strategy = (0..scenes.len(), any::<usize>(), mutation());
    // The panics are caught and reported as failures; keep the default hook from printing each.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = runner.run(&strategy, |(s, pick, m)| {
        let text = mutate(&scenes[s].1, pick, &m);
        tried.fetch_add(1, Ordering::Relaxed);
        match check(&text) {
            Ok(Outcome::Rejected) => rejected.fetch_add(1, Ordering::Relaxed),
            Ok(Outcome::Ran) => ran.fetch_add(1, Ordering::Relaxed),
            Err(why) => {
                return Err(TestCaseError::fail(format!(
                    "{} mutated by {m:?} at node {pick}: {why:.600}\n{text:.1500}",
                    scenes[s].0
                )))
            }
        };
        Ok(())
    });
    std::panic::set_hook(hook);
    println!(
        "scene fuzz: tried {}, rejected naming the place {}, accepted and ran 50 steps {}, \
         panics 0",
        tried.load(Ordering::Relaxed),
        rejected.load(Ordering::Relaxed),
        ran.load(Ordering::Relaxed)
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    // Both outcomes happen: the mutations neither all break the files nor all leave them valid.
    assert!(rejected.load(Ordering::Relaxed) > 0 && ran.load(Ordering::Relaxed) > 0);
}

#[test]
fn the_committed_corpus_is_rejected_by_field_or_runs_finite() {
    let corpus: Vec<Value> = serde_json::from_str(include_str!("data/scene_fuzz_corpus.json"))
        .expect("the corpus is a JSON array");
    assert!(!corpus.is_empty());
    for (i, case) in corpus.iter().enumerate() {
        let text = case["text"].as_str().expect("each case has its text");
        let expected = case["expect"]
            .as_str()
            .expect("each case says what to expect");
        let outcome = check(text).unwrap_or_else(|why| panic!("corpus case {i}: {why}"));
        let wanted = if expected == "rejected" {
            Outcome::Rejected
        } else {
            Outcome::Ran
        };
        assert_eq!(outcome, wanted, "corpus case {i}: {text:.300}");
    }
}
