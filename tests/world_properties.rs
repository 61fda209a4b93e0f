//! Property tests of the world: nothing tunnels, collisions conserve momentum and never add energy,
//! and the broad-phase tree agrees with brute force. The no-tunnelling tests use the public kit
//! (`sweep2d::analysis::testkit`, feature `proptest`): its bullet shapes and its checkers, next to the
//! scene-specific checks against an independent, SAT-free gap.
#![cfg(feature = "proptest")]
//!
//! Case counts follow `PROPTEST_CASES` (CI uses proptest's default of 256 where a case is cheap;
//! the world cases below set their own lower counts, as each runs a simulation). Long local run:
//! `PROPTEST_CASES=5000 cargo test --release --test world_properties`.

mod common;

use common::gap;
use proptest::prelude::*;
use std::f64::consts::PI;
use sweep2d::analysis::testkit::{self, Snapshot};
use sweep2d::broadphase::{DynamicTree, ProxyId};
use sweep2d::constants::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use sweep2d::{Aabb, BodyDef, BodyKind, Shape, Transform, Vec2, World, WorldConfig};

/// A bullet from the kit: a small disc, a thin 1 m × 2 cm bar, or a small hexagon.
fn bullet() -> impl Strategy<Value = Shape> {
    testkit::bullet_shape()
}

/// Overlap allowed at the end of a step after a head-on hit: the slop, plus 0.1 mm. After the
/// hit the two bullets travel together and their pair becomes the solver's, whose soft contact may
/// leave it a little past the slop for a step (measured worst: 0.08 mm past it, a 1 m bar spinning
/// at 12 rad/s hit at 1,650 m/s, in 3,000 cases). Bullets against walls keep the plain slop.
const HEAD_ON_OVERLAP: f64 = LINEAR_SLOP + 1e-4;

fn cases(n: u32) -> ProptestConfig {
    common::simulation_config(n)
}

proptest! {
    #![proptest_config(cases(64))]

    /// Bullets up to 1,000 m/s (at dt = 1/60: 16.7 m per step), any angle within ±60° of the wall
    /// normal, spinning up to 300 rad/s, against a 1 cm static wall: never on the wrong side, never
    /// overlapping by more than the slop at the end of a step.
    #[test]
    fn bullets_never_tunnel_through_thin_walls(
        shape in bullet(),
        speed in 50.0..1000.0f64,
        angle in -PI / 3.0..PI / 3.0,
        spin in -300.0..300.0f64,
        distance in 1.0..20.0f64,
        restitution in 0.0..1.0f64,
    ) {
        let mut w = World::new(WorldConfig { gravity: Vec2::ZERO, ..Default::default() });
        let wall_shape = Shape::rectangle(0.005, 40.0).unwrap();
        let wall = w.add_body(BodyDef { kind: BodyKind::Static, shape: wall_shape.clone(), ..Default::default() }).unwrap();
        let dir = Vec2::from_angle(angle);
        let start = -dir * distance - Vec2::new(shape.bounding_radius() + 0.01, 0.0);
        let b = w.add_body(BodyDef {
            shape: shape.clone(),
            transform: Transform::new(start, 0.0),
            linear_velocity: dir * speed,
            angular_velocity: spin,
            restitution,
            ..Default::default()
        }).unwrap();
        for step in 0..12 {
            let before = Snapshot::of(&w);
            w.step();
            testkit::assert_no_tunnelling(&before, &w)?;
            testkit::assert_no_deep_overlap(&w, LINEAR_SLOP)?;
            prop_assert!(w.events().held.is_empty(), "step {}: a body was held", step);
            let body = w.body(b).unwrap();
            let x = body.transform();
            prop_assert!(x.translation.x < 0.0, "step {}: bullet centre crossed the wall at {:?}", step, x.translation);
            let g = gap(&wall_shape, &w.body(wall).unwrap().transform(), &shape, &x);
            prop_assert!(g >= -LINEAR_SLOP, "step {}: overlapping the wall by {} m", step, -g);
        }
    }

    /// Two bullets fired head-on at each other (each up to 1,000 m/s): they never pass through each
    /// other and never overlap by more than the slop at the end of a step.
    #[test]
    fn head_on_bullets_never_pass_through_each_other(
        sa in bullet(), sb in bullet(),
        va in 50.0..1000.0f64, vb in 50.0..1000.0f64,
        offset in -0.02..0.02f64,
        spin in -100.0..100.0f64,
        distance in 2.0..30.0f64,
    ) {
        let mut w = World::new(WorldConfig { gravity: Vec2::ZERO, ..Default::default() });
        let a = w.add_body(BodyDef { shape: sa.clone(), transform: Transform::new(Vec2::new(-distance / 2.0, 0.0), 0.0), linear_velocity: Vec2::new(va, 0.0), angular_velocity: spin, ..Default::default() }).unwrap();
        let b = w.add_body(BodyDef { shape: sb.clone(), transform: Transform::new(Vec2::new(distance / 2.0, offset), 0.0), linear_velocity: Vec2::new(-vb, 0.0), ..Default::default() }).unwrap();
        let mut met = false;
        for step in 0..6 {
            let before = Snapshot::of(&w);
            w.step();
            testkit::assert_no_tunnelling(&before, &w)?;
            testkit::assert_no_deep_overlap(&w, HEAD_ON_OVERLAP)?;
            prop_assert!(w.events().held.is_empty(), "step {}: a body was held", step);
            // They met if the continuous pass had an impact or the solver a contact (a pair that
            // ends a step within the speculative distance meets in the solver's next step).
            met |= !w.events().impacts.is_empty() || !w.events().contact_begin.is_empty();
            let (xa, xb) = (w.body(a).unwrap().transform(), w.body(b).unwrap().transform());
            let g = gap(&sa, &xa, &sb, &xb);
            prop_assert!(g >= -HEAD_ON_OVERLAP, "step {}: overlapping by {} m", step, -g);
            if !met {
                prop_assert!(xa.translation.x < xb.translation.x, "step {}: passed through each other", step);
            }
        }
    }

    /// A kinematic drum of 30 pieces (a ring of 24 walls 10 cm thick and six paddles, so six
    /// closed chambers; it pairs piece by piece, `docs/collision.md`, "Many pieces") turning at
    /// up to 10 rad/s (its rim at 40 m/s) and drifting at up to 2 m/s, with discs and boxes
    /// thrown about its chambers at up to 30 m/s under gravity: no body ever leaves its chamber.
    /// Its centre, in the drum's frame, stays on its side of each of the chamber's paddles'
    /// midlines and on the inner side of every ring wall's midline, which it could only cross by
    /// passing through a wall by more than its own radius. (1,000 cases pass. Faster drums are
    /// a known open case: from about 19 rad/s a small box wedged in a corner between a paddle
    /// and the ring can creep through the ring, `a_box_wedged_in_a_fast_drums_corner_stays_in`.)
    #[test]
    fn bodies_never_leave_the_chambers_of_a_turning_kinematic_drum(
        spin in -10.0..10.0f64,
        drift in (-2.0..2.0f64, -2.0..2.0f64),
        bodies in prop::collection::vec(
            (0usize..6, 0.35..0.65f64, 1.2..3.4f64, 0.05..0.3f64, any::<bool>(), -30.0..30.0f64, -30.0..30.0f64),
            1..12,
        ),
    ) {
        let mut w = World::new(WorldConfig::default());
        let drum = chamber_drum(&mut w, spin, Vec2::new(drift.0, drift.1));
        let placed: Vec<_> = bodies
            .iter()
            .map(|&(chamber, share, rho, size, disc, vx, vy)| {
                let id = add_to_chamber(&mut w, (chamber, share, rho), size, disc, Vec2::new(vx, vy));
                (id, chamber)
            })
            .collect();
        for step in 0..60 {
            w.step();
            for &(id, chamber) in &placed {
                let p = in_drum_frame(&w, drum, id);
                prop_assert!(
                    in_chamber(p, chamber),
                    "step {}: a body of chamber {} is at {:?} in the drum's frame",
                    step, chamber, p
                );
            }
        }
    }

    /// An isolated collision of two dynamic bodies conserves linear momentum on every step (to
    /// 1e-9 relative), and with restitution at most 1 the kinetic energy never grows. No body is
    /// ever held (the continuous pass's last resort, which would not conserve momentum).
    #[test]
    fn collisions_conserve_momentum_and_never_add_energy(
        sa in common::convex_shape(), sb in common::convex_shape(),
        v in 1.0..400.0f64, angle in -0.3..0.3f64, offset in -0.5..0.5f64,
        restitution in 0.0..=1.0f64, friction in 0.0..1.0f64,
        da in 0.5..5.0f64, db in 0.5..5.0f64, spin in -20.0..20.0f64,
    ) {
        let mut w = World::new(WorldConfig { gravity: Vec2::ZERO, ..Default::default() });
        let gap0 = sa.bounding_radius() + sb.bounding_radius() + 0.5;
        w.add_body(BodyDef { shape: sa, transform: Transform::new(Vec2::new(-gap0, offset), 0.3), linear_velocity: Vec2::from_angle(angle) * v, angular_velocity: spin, density: da, restitution, friction, ..Default::default() }).unwrap();
        w.add_body(BodyDef { shape: sb, transform: Transform::new(Vec2::new(0.0, 0.0), -0.2), density: db, restitution, friction, ..Default::default() }).unwrap();
        let p0 = w.linear_momentum();
        let e0 = w.kinetic_energy();
        let scale = p0.length().max(1.0);
        for _ in 0..30 {
            w.step();
            let p = w.linear_momentum();
            prop_assert!(w.events().held.is_empty(), "a body was held");
            prop_assert!((p - p0).length() <= 1e-9 * scale, "momentum {:?} → {:?}", p0, p);
            let e = w.kinetic_energy();
            prop_assert!(e <= e0 * (1.0 + 1e-9) + 1e-9, "energy grew: {} → {}", e0, e);
        }
    }
}

proptest! {
    #![proptest_config(cases(64))]

    /// A disc created deep inside a box (between half and 95% of the thinner one's depth: an
    /// overlap the continuous pass leaves to the solver while it sinks by less than half of what
    /// is left to that depth, see `docs/continuous.md`) and driven into it at up to 300 m/s, or
    /// away from it, at any height along the face: against a static box or a dynamic one, it
    /// never ends a step deeper than it started by more than the speculative distance, never
    /// passes through, and is never held.
    /// (The solver's soft contact stops a body driven in at 300 m/s within about a centimetre,
    /// and a body that moves less than half the speculative distance in a step is not fast: the
    /// pass leaves it to the solver, which pushes the overlap out over the next steps.)
    #[test]
    fn bodies_created_deep_inside_each_other_never_go_deeper(
        hx in 0.2..1.0f64, hy in 0.2..1.0f64, r in 0.1..1.0f64,
        fraction in 0.5..0.95f64, height in -0.5..0.5f64,
        speed in -300.0..300.0f64, dynamic_box in any::<bool>(),
    ) {
        let mut w = World::new(WorldConfig { gravity: Vec2::ZERO, ..Default::default() });
        let box_shape = Shape::rectangle(hx, hy).unwrap();
        let disc = Shape::circle(r).unwrap();
        let kind = if dynamic_box { BodyKind::Dynamic } else { BodyKind::Static };
        let a = w.add_body(BodyDef { kind, shape: box_shape.clone(), ..Default::default() }).unwrap();
        let depth = fraction * r.min(hx).min(hy);
        let start = Vec2::new(hx + r - depth, height * hy);
        let b = w.add_body(BodyDef {
            shape: disc.clone(),
            transform: Transform::new(start, 0.0),
            linear_velocity: Vec2::new(-speed, 0.0),
            ..Default::default()
        }).unwrap();
        let g0 = gap(&box_shape, &w.body(a).unwrap().transform(), &disc, &w.body(b).unwrap().transform());
        prop_assert!((g0 + depth).abs() < 1e-9, "created {} m deep, meant {}", -g0, depth);
        for step in 0..20 {
            let before = Snapshot::of(&w);
            w.step();
            testkit::assert_no_tunnelling(&before, &w)?;
            prop_assert!(w.events().held.is_empty(), "step {}: a body was held", step);
            let (xa, xb) = (w.body(a).unwrap().transform(), w.body(b).unwrap().transform());
            let g = gap(&box_shape, &xa, &disc, &xb);
            prop_assert!(g >= -(depth + SPECULATIVE_DISTANCE), "step {}: {} m deep, created {} m deep", step, -g, depth);
        }
    }
}

#[derive(Clone, Debug)]
enum Op {
    Insert(Aabb),
    Remove(usize),
    Move(usize, Vec2),
    /// Several leaves moved at once, then the whole tree refitted (the end-of-step path of a
    /// falling pile), which rebuilds it when it has grown loose.
    MoveMany(Vec<(usize, Vec2)>),
}

/// The chamber drum's ring: walls, their inner faces' distance from the centre, their thickness.
const RING: usize = 24;
const RING_RADIUS: f64 = 4.0;
const WALL: f64 = 0.1;
/// Paddles, from the centre to the ring at angles k·60°: six closed chambers.
const PADDLES: usize = 6;

/// Adds the kinematic chamber drum (30 pieces on one body, centred on the origin) turning at
/// `spin` (rad/s) and moving at `drift` (m/s).
fn chamber_drum(w: &mut World, spin: f64, drift: Vec2) -> sweep2d::BodyId {
    let half_chord = (RING_RADIUS + WALL) * (PI / RING as f64).tan();
    let mut pieces: Vec<sweep2d::ShapeDef> = (0..RING)
        .map(|k| {
            let a = (k as f64 + 0.5) * 2.0 * PI / RING as f64;
            sweep2d::ShapeDef {
                shape: Shape::rectangle(WALL / 2.0, half_chord).unwrap(),
                offset: Transform::new(Vec2::from_angle(a) * (RING_RADIUS + WALL / 2.0), a),
                ..Default::default()
            }
        })
        .collect();
    pieces.extend((0..PADDLES).map(|k| {
        let a = k as f64 * 2.0 * PI / PADDLES as f64;
        sweep2d::ShapeDef {
            shape: Shape::rectangle(RING_RADIUS / 2.0 + WALL / 2.0, WALL / 2.0).unwrap(),
            offset: Transform::new(Vec2::from_angle(a) * (RING_RADIUS / 2.0), a),
            ..Default::default()
        }
    }));
    let first = pieces.remove(0);
    let drum = w
        .add_body(BodyDef {
            kind: BodyKind::Kinematic,
            shape: first.shape.transformed(&first.offset).unwrap(),
            ..Default::default()
        })
        .unwrap();
    w.add_shapes(drum, pieces).unwrap();
    // (Set once every piece is on: the centre of mass, which the drum turns about, is then the
    // ring's centre. Adding shapes to a moving body keeps each material point's velocity.)
    w.set_velocity(drum, drift, spin).unwrap();
    drum
}

/// Adds a disc of radius `size`, or a box of the same bounding radius, to chamber `chamber` (0
/// to 5) at the fraction `share` of its angle and distance `rho` from the centre, moving at `v`.
fn add_to_chamber(
    w: &mut World,
    (chamber, share, rho): (usize, f64, f64),
    size: f64,
    disc: bool,
    v: Vec2,
) -> sweep2d::BodyId {
    let a = (chamber as f64 + share) * 2.0 * PI / PADDLES as f64;
    let half = size / 2.0_f64.sqrt();
    let shape = if disc {
        Shape::circle(size).unwrap()
    } else {
        Shape::rectangle(half, half).unwrap()
    };
    w.add_body(BodyDef {
        shape,
        transform: Transform::new(Vec2::from_angle(a) * rho, a),
        linear_velocity: v,
        ..Default::default()
    })
    .unwrap()
}

/// Body `id`'s centre in the drum's frame.
fn in_drum_frame(w: &World, drum: sweep2d::BodyId, id: sweep2d::BodyId) -> Vec2 {
    let at = w.body(drum).unwrap().transform();
    at.inv_transform_point(w.body(id).unwrap().transform().translation)
}

/// Whether drum-frame point `p` lies in chamber `chamber`: on its side of both paddles' midlines
/// and on the inner side of every ring wall's midline.
fn in_chamber(p: Vec2, chamber: usize) -> bool {
    let sector = 2.0 * PI / PADDLES as f64;
    let from = Vec2::from_angle(chamber as f64 * sector);
    let to = Vec2::from_angle((chamber + 1) as f64 * sector);
    let inside_ring = (0..RING).all(|k| {
        let a = (k as f64 + 0.5) * 2.0 * PI / RING as f64;
        Vec2::from_angle(a).dot(p) < RING_RADIUS + WALL / 2.0
    });
    from.perp_dot(p) > 0.0 && p.perp_dot(to) > 0.0 && inside_ring
}

/// Known open (found 2026-11-29, with `bodies_never_leave_the_chambers_of_a_turning_kinematic_drum`
/// at up to 20 rad/s): in the chamber drum turning in place at 19.4 rad/s, a 6.5 cm box thrown
/// against the paddle at 180° slides out along it into the corner with the ring, where it presses
/// on the ring at about 150 g. It turns with the drum and meets the ring 45 to 75 times a step, but
/// sinks into it by about 3 mm a step and after 40 steps is through. No hold and no yield is
/// reported. See `docs/continuous.md`, "Pinned bodies".
#[test]
#[ignore = "known open: a box wedged in a fast drum's corner creeps through the ring"]
fn a_box_wedged_in_a_fast_drums_corner_stays_in() {
    let mut w = World::new(WorldConfig::default());
    let drum = chamber_drum(&mut w, -19.419201506517727, Vec2::ZERO);
    add_to_chamber(
        &mut w,
        (2, 0.35, 1.2),
        0.26591644259344704,
        false,
        Vec2::ZERO,
    );
    let wedged = add_to_chamber(
        &mut w,
        (2, 0.35, 2.1500444502528104),
        0.06533020035398124,
        false,
        Vec2::ZERO,
    );
    for step in 0..60 {
        w.step();
        let p = in_drum_frame(&w, drum, wedged);
        assert!(
            in_chamber(p, 2),
            "step {step}: the box is at {p:?} in the drum's frame"
        );
    }
}

/// Known open (found 2026-11-29, writing a property test of the deep-pair rule): a heavy block
/// (100 kg) resting on a light box (0.04 kg, 0.2 m) that lies half its half-height deep in a
/// static ground sinks into the box by about 1 cm a step and passes its centre after 14 steps
/// (16 cm deep after 30), with the continuous pass on or off. The soft contact cannot hold a mass
/// ratio of 2,500 between two contacts, and the pass never looks at the pair: neither body moves
/// half the speculative distance in a step, which is where the pass leaves a body to the solver
/// (`docs/continuous.md`, "Which pairs need a time of impact"). The trust rule it would apply
/// stops the sinking at half of what is left to the box's depth.
#[test]
#[ignore = "known open: a heavy body resting on a light one crushes slowly through it"]
fn a_heavy_block_resting_on_a_light_box_never_passes_through_it() {
    use sweep2d::query::contact;
    let h = 0.1;
    let mut w = World::new(WorldConfig::default());
    let ground_shape = Shape::rectangle(20.0, 0.5).unwrap();
    let ground = w
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: ground_shape.clone(),
            transform: Transform::new(Vec2::new(0.0, -0.5), 0.0),
            ..Default::default()
        })
        .unwrap();
    let box_shape = Shape::rectangle(h, h).unwrap();
    let lying = Transform::new(Vec2::new(0.0, 0.5 * h), 0.0);
    let b = w
        .add_body(BodyDef {
            shape: box_shape.clone(),
            transform: lying,
            ..Default::default()
        })
        .unwrap();
    let block_shape = Shape::rectangle(1.0, 0.5).unwrap();
    let block = w
        .add_body(BodyDef {
            shape: block_shape.clone(),
            transform: Transform::new(Vec2::new(0.0, 1.5 * h + 0.51), 0.0),
            density: 50.0,
            ..Default::default()
        })
        .unwrap();
    for step in 0..30 {
        w.step();
        let depth = |shape: &Shape, body| {
            let x = w.body(body).unwrap().transform();
            contact(shape, &x, &box_shape, &w.body(b).unwrap().transform()).map_or(0.0, |k| k.depth)
        };
        let (in_ground, in_block) = (depth(&ground_shape, ground), depth(&block_shape, block));
        assert!(
            in_ground < h && in_block < h,
            "step {step}: the box is {in_ground} m into the ground, {in_block} m into the block"
        );
    }
}

fn aabb() -> impl Strategy<Value = Aabb> {
    (common::vec2(50.0), 0.1..5.0f64, 0.1..5.0f64)
        .prop_map(|(c, w, h)| Aabb::from_center_half_extents(c, Vec2::new(w, h)))
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => aabb().prop_map(Op::Insert),
        1 => any::<usize>().prop_map(Op::Remove),
        2 => (any::<usize>(), common::vec2(3.0)).prop_map(|(i, d)| Op::Move(i, d)),
        1 => prop::collection::vec((any::<usize>(), common::vec2(3.0)), 1..40).prop_map(Op::MoveMany),
    ]
}

proptest! {
    /// The tree answers box queries and ray casts exactly as brute force over its leaves does, and
    /// keeps its invariants (heights, balance, boxes holding children), through random inserts,
    /// moves and removals.
    #[test]
    fn tree_matches_brute_force(ops in prop::collection::vec(op(), 1..200), queries in prop::collection::vec(aabb(), 8)) {
        let mut tree: DynamicTree<usize> = DynamicTree::new();
        let mut live: Vec<(ProxyId, usize, Aabb)> = Vec::new();
        let mut next = 0;
        for op in ops {
            match op {
                Op::Insert(b) => { live.push((tree.insert(b, next), next, b)); next += 1; }
                Op::Remove(i) if !live.is_empty() => {
                    let (id, v, _) = live.swap_remove(i % live.len());
                    prop_assert_eq!(tree.remove(id), v);
                }
                Op::Move(i, d) if !live.is_empty() => {
                    let k = i % live.len();
                    let tight = Aabb { min: live[k].2.min + d, max: live[k].2.max + d };
                    tree.move_proxy(live[k].0, tight, 0.1);
                    live[k].2 = tight;
                    prop_assert!(tree.fat_aabb(live[k].0).contains(&tight));
                }
                Op::MoveMany(moves) if !live.is_empty() => {
                    let mut updates = Vec::new();
                    for (i, d) in moves {
                        let k = i % live.len();
                        let fat = Aabb { min: live[k].2.min + d, max: live[k].2.max + d };
                        live[k].2 = fat;
                        updates.retain(|(id, _)| *id != live[k].0);
                        updates.push((live[k].0, fat));
                    }
                    tree.refit_with(&updates);
                    for (id, fat) in &updates {
                        prop_assert_eq!(tree.fat_aabb(*id), *fat);
                    }
                }
                _ => {}
            }
            prop_assert!(tree.validate().is_ok(), "{:?}", tree.validate());
        }
        prop_assert_eq!(tree.len(), live.len());
        // A balanced tree of n leaves has height at most about 1.44 log2(n) + 2.
        if live.len() > 1 {
            prop_assert!(tree.height() as f64 <= 1.45 * (live.len() as f64).log2() + 2.0, "height {} for {} leaves", tree.height(), live.len());
        }
        for q in queries {
            let mut found: Vec<usize> = Vec::new();
            tree.query(&q, |_, v| { found.push(*v); true });
            found.sort_unstable();
            let mut expected: Vec<usize> = live.iter().filter(|(id, _, _)| tree.fat_aabb(*id).overlaps(&q)).map(|(_, v, _)| *v).collect();
            expected.sort_unstable();
            prop_assert_eq!(&found, &expected);
            // Ray along the query box's diagonal.
            let (o, d) = (q.min - Vec2::splat(10.0), q.max - q.min + Vec2::splat(20.0));
            let mut hit: Vec<usize> = Vec::new();
            tree.ray_cast(o, d, 1.0, |_, v, max| { hit.push(*v); max });
            hit.sort_unstable();
            let mut want: Vec<usize> = live.iter().filter(|(id, _, _)| tree.fat_aabb(*id).ray_cast(o, d, 1.0).is_some()).map(|(_, v, _)| *v).collect();
            want.sort_unstable();
            prop_assert_eq!(hit, want);
        }
    }
}
