//! Snapshots are untrusted input (`docs/reliability.md`, "Snapshots"): bytes with a correct
//! header and checksum but forged contents must be refused with a typed error that says what is
//! wrong, or restore into a world that steps; never a panic, never a hang.
//!
//! Two parts: every forgery the hardening review made, by hand (a contact naming body 999, a
//! manifold of 99 points, tree links that lead nowhere or to themselves, a polygon radius out of
//! range, an inverse mass of −1, a rotation (0, 0), a NaN clock, a doubled payload, a cut or
//! hostile header), and a fuzzer: structured mutations (numbers replaced by hostile ones or
//! nudged, entries removed, duplicated, swapped, flags flipped) of real snapshots of the shipped
//! scenes and of a world holding every shape and joint kind, re-framed with a correct checksum.
//!
//! Case count: `PROPTEST_CASES` (default 256, as in CI). Long run:
//! `PROPTEST_CASES=20000 cargo test --release --all-features --test snapshot_forged -- --nocapture`
//! (prints the counts `docs/reliability.md` reports).
#![cfg(feature = "serde")]

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rmpv::Value;
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::Duration;
use sweep2d::analysis::scene::SceneFile;
use sweep2d::{
    BodyDef, BodyKind, DistanceJointDef, MotorJointDef, MouseJointDef, PrismaticJointDef,
    RevoluteJointDef, Shape, ShapeDef, SnapshotError, Transform, Vec2, WeldJointDef, WheelJointDef,
    World, WorldConfig,
};

/// The header's parts (`world/snapshot` module notes): magic, format, version, length, checksum.
struct Framed {
    head: Vec<u8>,
    payload: Value,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn unframe(bytes: &[u8]) -> Framed {
    let version_len = u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize;
    let end = 24 + version_len;
    let payload = rmpv::decode::read_value(&mut &bytes[end + 16..]).expect("a real snapshot");
    Framed {
        head: bytes[..end].to_vec(),
        payload,
    }
}

/// `payload`'s bytes framed with a correct length and checksum.
fn frame(head: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut out = head.to_vec();
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

fn encode(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    rmpv::encode::write_value(&mut out, v).unwrap();
    out
}

/// The node at `path` (map keys by name, array elements by number).
fn at<'v>(v: &'v mut Value, path: &str) -> &'v mut Value {
    let mut node = v;
    for part in path.split('/').filter(|p| !p.is_empty()) {
        node = match node {
            Value::Map(m) => {
                &mut m
                    .iter_mut()
                    .find(|(k, _)| k.as_str() == Some(part))
                    .unwrap_or_else(|| panic!("no field {part} in {path}"))
                    .1
            }
            Value::Array(a) => &mut a[part.parse::<usize>().expect("an index")],
            other => panic!("{path}: {part} inside {other:?}"),
        };
    }
    node
}

/// A world holding every shape kind, every joint kind, sensors, a sleeping pile and touching
/// contacts, stepped until all of it is in use.
fn every_part() -> World {
    let mut w = World::new(WorldConfig::default());
    let v = Vec2::new;
    let ground = w
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::chain(&[v(-20.0, 0.0), v(0.0, -0.5), v(20.0, 0.0)], false).unwrap(),
            ..BodyDef::default()
        })
        .unwrap();
    w.add_shape(
        ground,
        ShapeDef {
            shape: Shape::segment(v(-1.0, 0.0), v(-1.0, 1.0)).unwrap(),
            offset: Transform::new(v(0.2, -0.2), 0.4),
            ..ShapeDef::default()
        },
    )
    .unwrap();
    let shapes = [
        Shape::circle(0.4).unwrap(),
        Shape::rectangle(0.5, 0.3).unwrap(),
        Shape::rounded_polygon(&[v(0.0, 0.0), v(0.8, 0.0), v(0.3, 0.6)], 0.05).unwrap(),
        Shape::capsule(v(-0.4, 0.0), v(0.4, 0.0), 0.2).unwrap(),
        Shape::concave(&[
            v(0.0, 0.0),
            v(1.0, 0.0),
            v(1.0, 1.0),
            v(0.5, 0.4),
            v(0.0, 1.0),
        ])
        .unwrap(),
        Shape::regular_polygon(6, 0.4).unwrap(),
    ];
    let mut bodies = Vec::new();
    for (i, shape) in shapes.iter().enumerate() {
        let id = w
            .add_body(BodyDef {
                shape: shape.clone(),
                transform: Transform::new(v(-8.0 + 2.5 * i as f64, 1.0), 0.3 * i as f64),
                ..BodyDef::default()
            })
            .unwrap();
        bodies.push(id);
    }
    w.add_shape(
        bodies[1],
        ShapeDef {
            shape: Shape::circle(0.5).unwrap(),
            offset: Transform::new(v(0.0, 0.8), 0.0),
            sensor: true,
            ..ShapeDef::default()
        },
    )
    .unwrap();
    let p = |i: usize| w.body(bodies[i]).unwrap().transform().translation;
    let (p0, p1, p2, p3, p4, p5) = (p(0), p(1), p(2), p(3), p(4), p(5));
    w.add_joint(RevoluteJointDef::new(bodies[0], bodies[1], (p0 + p1) / 2.0))
        .unwrap();
    w.add_joint(PrismaticJointDef::new(
        bodies[1],
        bodies[2],
        p2,
        v(1.0, 0.0),
    ))
    .unwrap();
    w.add_joint(DistanceJointDef::new(bodies[2], bodies[3], p2, p3))
        .unwrap();
    w.add_joint(WeldJointDef::new(bodies[3], bodies[4], (p3 + p4) / 2.0))
        .unwrap();
    w.add_joint(WheelJointDef::new(ground, bodies[5], p5, v(0.0, 1.0)))
        .unwrap();
    w.add_joint(MotorJointDef::new(ground, bodies[4], 100.0, 50.0))
        .unwrap();
    w.add_joint(MouseJointDef::new(bodies[0], p0, 500.0))
        .unwrap();
    // A small pile beside them, to fall asleep.
    for k in 0..6 {
        w.add_body(BodyDef {
            transform: Transform::new(v(12.0, 0.6 + 1.05 * k as f64), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    }
    for _ in 0..90 {
        w.step();
    }
    w
}

/// Real snapshots to forge from: the world above and each shipped scene after 40 steps.
fn originals() -> Vec<(String, Vec<u8>)> {
    let mut out = vec![("every part".to_string(), every_part().snapshot())];
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    for p in paths {
        let scene = SceneFile::from_json(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let mut world = scene.build().unwrap().world;
        for _ in 0..40 {
            world.step();
        }
        out.push((
            p.file_name().unwrap().to_string_lossy().into_owned(),
            world.snapshot(),
        ));
    }
    out
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Refused,
    Ran,
}

/// Restores `bytes` and, if that succeeds, steps the world 20 times: on another thread, with a
/// deadline. A panic or a missed deadline is the error.
fn outcome(bytes: Vec<u8>) -> Result<(Outcome, String), String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(|| match World::restore(&bytes) {
            Err(e) => (Outcome::Refused, e.to_string()),
            Ok(mut world) => {
                for _ in 0..20 {
                    world.step();
                }
                (Outcome::Ran, String::new())
            }
        }));
        let _ = send.send(result.map_err(|p| {
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default()
        }));
    });
    match receive.recv_timeout(Duration::from_secs(60)) {
        Ok(Ok(o)) => Ok(o),
        Ok(Err(panic)) => Err(format!("panicked: {panic}")),
        Err(_) => Err("did not return within 60 s".into()),
    }
}

/// Forges `original` by `edit` on its decoded payload and expects a refusal whose message
/// contains `says`.
fn refused(original: &[u8], says: &str, edit: impl FnOnce(&mut Value)) {
    let mut f = unframe(original);
    edit(&mut f.payload);
    let forged = frame(&f.head, &encode(&f.payload));
    match outcome(forged) {
        Ok((Outcome::Refused, message)) => assert!(
            message.contains(says),
            "refused, but the message does not say {says:?}: {message}"
        ),
        other => panic!("a forgery expected to be refused ({says}) gave {other:?}"),
    }
}

fn set(v: &mut Value, path: &str, to: impl Into<Value>) {
    *at(v, path) = to.into();
}

#[test]
fn every_forgery_the_review_made_is_refused_by_what_is_wrong() {
    let good = every_part().snapshot();
    assert!(World::restore(&good).is_ok());
    refused(&good, "the contacts: contact 0 names body 999", |v| {
        set(v, "contacts/contacts/0/a", 999)
    });
    refused(&good, "holds 99 points", |v| {
        // The first contact with a manifold.
        let Value::Array(contacts) = at(v, "contacts/contacts") else {
            panic!("contacts are an array")
        };
        let k = contacts
            .iter_mut()
            .position(|c| at(c, "manifolds").as_array().is_some_and(|m| !m.is_empty()))
            .expect("a touching pair");
        set(v, &format!("contacts/contacts/{k}/manifolds/0/count"), 99)
    });
    refused(&good, "the root 999 is not a node", |v| {
        set(v, "broad_phase/trees/2/root", 999)
    });
    refused(&good, "proxy is not its own", |v| {
        set(v, "bodies/slots/1/proxy/id", 999)
    });
    refused(
        &good,
        "the joints: joint 0 (revolute): body 999 is not in the world",
        |v| set(v, "joints/slots/0/joint/body_b", 999),
    );
    refused(&good, "the move buffer names proxy", |v| {
        let buffer = at(v, "broad_phase/move_buffer");
        *buffer = Value::Array(vec![rmpv::Value::Map(vec![
            ("kind".into(), "Dynamic".into()),
            ("id".into(), 999.into()),
        ])]);
    });
    refused(&good, "height", |v| {
        set(v, "broad_phase/trees/2/nodes/0/height", 3)
    });
    // A node whose child is itself: the loader spun forever.
    refused(&good, "reached twice", |v| {
        let root = at(v, "broad_phase/trees/2/root").as_u64().unwrap();
        set(v, &format!("broad_phase/trees/2/nodes/{root}/left"), root);
    });
    // The rounded triangle (body 3)'s radius beyond 1e5 m.
    refused(&good, "radius", |v| {
        set(
            v,
            "bodies/bodies/3/shapes/0/def/shape/Polygon/radius",
            100_001.0,
        )
    });
    refused(&good, "not what its shapes make", |v| {
        set(v, "bodies/bodies/1/inv_mass", -1.0)
    });
    refused(&good, "not a unit rotation", |v| {
        set(v, "bodies/bodies/1/pose/rotation/cos", 0.0);
        set(v, "bodies/bodies/1/pose/rotation/sin", 0.0);
    });
    refused(&good, "field `time` holds NaN", |v| {
        set(v, "clock/time", f64::NAN)
    });
    // The sleeping pile's contacts are parked (set aside until one of its bodies moves): more
    // parked contacts than contacts, or a parked contact whose body moves.
    let contacts = |v: &mut Value| at(v, "contacts/contacts").as_array().unwrap().len() as u64;
    let mut payload = unframe(&good).payload;
    let parked = at(&mut payload, "contacts/parked").as_u64().unwrap();
    assert!(parked > 0, "the pile's contacts are parked");
    refused(&good, "parked contacts of", |v| {
        let n = contacts(v);
        set(v, "contacts/parked", n + 1)
    });
    refused(&good, "is parked, but one of its bodies", |v| {
        // The last contact (parked) with its dynamic body awake.
        let n = contacts(v);
        let last = n - 1;
        for end in ["a", "b"] {
            let key = at(v, &format!("contacts/contacts/{last}/{end}"))
                .as_u64()
                .unwrap();
            let dense = at(v, &format!("bodies/slots/{key}/dense"))
                .as_u64()
                .unwrap();
            if at(v, &format!("bodies/bodies/{dense}/kind")).as_str() == Some("dynamic") {
                set(v, &format!("bodies/bodies/{dense}/awake"), true);
            }
        }
    });
    // The payload twice, under a header that counts both.
    let f = unframe(&good);
    let once = encode(&f.payload);
    let twice = frame(&f.head, &[once.clone(), once].concat());
    let e = World::restore(&twice).unwrap_err();
    assert!(e.to_string().contains("follow the world's state"), "{e}");
}

#[test]
fn a_cut_or_hostile_header_is_named_for_what_it_is() {
    let good = every_part().snapshot();
    for cut in 1..good.len().min(200) {
        let e = World::restore(&good[..cut]).unwrap_err();
        assert!(matches!(e, SnapshotError::Damaged(_)), "cut at {cut}: {e}");
    }
    assert!(matches!(
        World::restore(b"SWEEP"),
        Err(SnapshotError::Damaged(_))
    ));
    assert!(matches!(
        World::restore(b"{\"bodies\": []}"),
        Err(SnapshotError::NotASnapshot)
    ));
    // A version string with a terminal escape sequence is shown escaped.
    let mut hostile = good[..20].to_vec();
    let version = b"\x1b[2J\x1b[31mred";
    hostile.extend_from_slice(&(version.len() as u32).to_le_bytes());
    hostile.extend_from_slice(version);
    hostile.extend_from_slice(&good[24 + 5..]);
    let e = World::restore(&hostile).unwrap_err().to_string();
    assert!(matches!(
        World::restore(&hostile),
        Err(SnapshotError::WrongVersion { .. })
    ));
    assert!(!e.contains('\x1b') && e.contains("\\x1b[2J"), "{e}");
}

/// Numbers a forger writes.
const FLOATS: [f64; 12] = [
    0.0,
    -0.0,
    -1.0,
    1e-300,
    1e300,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    100_001.0,
    0.5,
    -1e5,
    7.0,
];
const INTS: [i64; 10] = [0, 1, 2, 3, 99, 999, 65_535, 4_294_967_295, -1, 17];

/// One structured mutation of a payload node.
#[derive(Clone, Debug)]
enum Mutation {
    /// A number replaced by a hostile float (by its index in `FLOATS`).
    Float(usize),
    /// A number replaced by a hostile integer.
    Int(usize),
    /// A float scaled by 1 + 1e-6 (a derived value slightly off).
    Nudge,
    /// A flag flipped.
    Flip,
    /// An array element or map entry removed.
    Remove,
    /// An array element duplicated.
    Duplicate,
    /// Two array elements swapped.
    Swap(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (0..FLOATS.len()).prop_map(Mutation::Float),
        4 => (0..INTS.len()).prop_map(Mutation::Int),
        2 => Just(Mutation::Nudge),
        1 => Just(Mutation::Flip),
        2 => Just(Mutation::Remove),
        2 => Just(Mutation::Duplicate),
        1 => any::<usize>().prop_map(Mutation::Swap),
    ]
}

/// Every node's path, as indices into maps' entries and arrays, in document order.
fn paths(v: &Value, at: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    out.push(at.clone());
    let children: Vec<&Value> = match v {
        Value::Map(m) => m.iter().map(|(_, x)| x).collect(),
        Value::Array(a) => a.iter().collect(),
        _ => Vec::new(),
    };
    for (i, c) in children.into_iter().enumerate() {
        at.push(i);
        paths(c, at, out);
        at.pop();
    }
}

fn node_ref<'v>(v: &'v Value, path: &[usize]) -> &'v Value {
    path.iter().fold(v, |n, &i| match n {
        Value::Map(m) => &m[i].1,
        Value::Array(a) => &a[i],
        _ => unreachable!("paths only lead through containers"),
    })
}

fn node<'v>(v: &'v mut Value, path: &[usize]) -> &'v mut Value {
    path.iter().fold(v, |n, &i| match n {
        Value::Map(m) => &mut m[i].1,
        Value::Array(a) => &mut a[i],
        _ => unreachable!("paths only lead through containers"),
    })
}

/// Applies `m` at node `pick` (of those it applies to; `false` when none does).
fn mutate(v: &mut Value, pick: usize, m: &Mutation) -> bool {
    let mut all = Vec::new();
    paths(v, &mut Vec::new(), &mut all);
    let fits = |n: &Value| match m {
        Mutation::Float(_) | Mutation::Int(_) => n.is_number(),
        Mutation::Nudge => n.is_f64(),
        Mutation::Flip => n.is_bool(),
        Mutation::Remove | Mutation::Duplicate | Mutation::Swap(_) => false,
    };
    let container = |n: &Value| match m {
        Mutation::Remove => {
            matches!(n, Value::Array(a) if !a.is_empty())
                || matches!(n, Value::Map(e) if !e.is_empty())
        }
        Mutation::Duplicate => matches!(n, Value::Array(a) if !a.is_empty()),
        Mutation::Swap(_) => matches!(n, Value::Array(a) if a.len() > 1),
        _ => false,
    };
    let candidates: Vec<Vec<usize>> = all
        .into_iter()
        .filter(|p| {
            let n = node_ref(v, p);
            fits(n) || container(n)
        })
        .collect();
    if candidates.is_empty() {
        return false;
    }
    let n = node(v, &candidates[pick % candidates.len()]);
    let second = pick / candidates.len().max(1);
    match (m, n) {
        (Mutation::Float(k), n) => *n = Value::F64(FLOATS[*k]),
        (Mutation::Int(k), n) => *n = Value::from(INTS[*k]),
        (Mutation::Nudge, Value::F64(x)) => *x *= 1.0 + 1e-6,
        (Mutation::Flip, Value::Boolean(b)) => *b = !*b,
        (Mutation::Remove, Value::Array(a)) => {
            a.remove(second % a.len());
        }
        (Mutation::Remove, Value::Map(e)) => {
            e.remove(second % e.len());
        }
        (Mutation::Duplicate, Value::Array(a)) => {
            let k = second % a.len();
            a.insert(k, a[k].clone());
        }
        (Mutation::Swap(s), Value::Array(a)) => {
            let (i, j) = (second % a.len(), s % a.len());
            a.swap(i, j);
        }
        _ => return false,
    }
    true
}

#[test]
fn forged_snapshots_are_refused_or_run_and_never_panic_or_hang() {
    let originals: Vec<(String, Framed)> = originals()
        .into_iter()
        .map(|(name, bytes)| (name, unframe(&bytes)))
        .collect();
    let (tried, refused, ran) = (Cell::new(0usize), Cell::new(0usize), Cell::new(0usize));
    let mut runner = TestRunner::new(Config {
        max_shrink_iters: 32,
        ..Config::default()
    });
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let strategy = (0..originals.len(), any::<usize>(), mutation());
    let result = runner.run(&strategy, |(s, pick, m)| {
        let (name, original) = &originals[s];
        let mut payload = original.payload.clone();
        if !mutate(&mut payload, pick, &m) {
            return Ok(());
        }
        let forged = frame(&original.head, &encode(&payload));
        tried.set(tried.get() + 1);
        match outcome(forged) {
            Ok((Outcome::Refused, message)) => {
                if message.contains('\x1b') || message.len() > 2_000 {
                    return Err(TestCaseError::fail(format!(
                        "{name}, {m:?}: a raw or long message: {message:.300}"
                    )));
                }
                refused.set(refused.get() + 1);
            }
            Ok((Outcome::Ran, _)) => ran.set(ran.get() + 1),
            Err(why) => {
                return Err(TestCaseError::fail(format!(
                    "{name} forged by {m:?} at node {pick}: {why}"
                )))
            }
        }
        Ok(())
    });
    std::panic::set_hook(hook);
    let (tried, refused, ran) = (tried.get(), refused.get(), ran.get());
    println!(
        "snapshot fuzz: tried {tried}, refused naming what is wrong {refused}, restored and ran 20 \
         steps {ran}, panics 0, hangs 0"
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(
        refused > 0 && ran > 0,
        "tried {tried}: refused {refused}, ran {ran}"
    );
}
