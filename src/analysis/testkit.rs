//! A property-test kit for users (feature `proptest`): proptest strategies for shapes, motions,
//! bodies and whole scenes, and checkers to run after each step of your own scenes:
//! [`assert_no_tunnelling`], [`assert_no_deep_overlap`], [`assert_energy_not_increasing`].
//! The crate's own no-tunnelling tests are written with this kit.
//!
//! ```
//! use proptest::test_runner::{Config, TestRunner};
//! use sweep2d::analysis::testkit::{self, Snapshot};
//!
//! // In a test suite this is a `proptest! { #[test] fn ... }`; here the runner is called directly.
//! let mut runner = TestRunner::new(Config::with_cases(8));
//! runner
//!     .run(&testkit::bullet_scene(8, 500.0), |scene| {
//!         let mut world = scene.build();
//!         let energy = testkit::mechanical_energy(&world);
//!         for _ in 0..30 {
//!             let before = Snapshot::of(&world);
//!             world.step();
//!             testkit::assert_no_tunnelling(&before, &world)?;
//!             testkit::assert_energy_not_increasing(energy, &world, 1e-9)?;
//!         }
//!         Ok(())
//!     })
//!     .unwrap();
//! ```
//!
//! Method of the tunnelling check: a body *tunnels* through another when, seen from the other
//! body, the first body's centre of mass crosses the other's shape during the step while starting
//! and ending outside it. Each body is taken to move its centre of mass in a straight line and to
//! turn at a steady rate over the step (the turn nearest to ω·dt that matches its start and end
//! angles), and the relative path is followed in pieces of at most 0.02 rad of turn (at least 32). A body that is stopped or deflected
//! does not cross. A body that had an impact or was held (`StepEvents::held`) during the step
//! did not move in a straight line, so its pairs are not judged in that step: the check catches
//! the failure that matters, a meeting the engine never noticed, and is silent about bodies whose
//! paths it cannot know.

use crate::dynamics::{BodyDef, BodyId, BodyKind};
use crate::math::Vec2;
use crate::math::{Real, Transform};
use crate::query::{ray_cast, Motion};
use crate::shape::Shape;
use crate::world::{World, WorldConfig};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::f64::consts::PI;

/// A point within `extent` metres of the origin on each axis.
pub fn point(extent: Real) -> impl Strategy<Value = Vec2> {
    (-extent..extent, -extent..extent).prop_map(|(x, y)| Vec2::new(x, y))
}

/// A pose: translation within `extent` metres, any angle.
pub fn transform(extent: Real) -> impl Strategy<Value = Transform> {
    (point(extent), -PI..PI).prop_map(|(p, a)| Transform::new(p, a))
}

/// A convex shape of size 2 cm to 2 m: discs, capsules, boxes, convex polygons (hulls of 3–12
/// random points) and rounded polygons.
pub fn convex_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.02..1.0f64).prop_map(|r| Shape::circle(r).expect("positive radius")),
        (point(1.0), point(1.0), 0.02..0.5f64)
            .prop_filter_map("a segment", |(a, b, r)| { Shape::capsule(a, b, r).ok() }),
        (0.01..1.0f64, 0.01..1.0f64)
            .prop_map(|(w, h)| Shape::rectangle(w, h).expect("positive extents")),
        prop::collection::vec(point(1.0), 3..12)
            .prop_filter_map("a hull with area", |p| Shape::convex_hull(&p).ok()),
        (prop::collection::vec(point(1.0), 3..8), 0.01..0.2f64).prop_filter_map(
            "a rounded hull",
            |(p, r)| {
                let hull = Shape::convex_hull(&p).ok()?;
                match hull {
                    Shape::Polygon(poly) => Shape::rounded_polygon(poly.vertices(), r).ok(),
                    _ => None,
                }
            }
        ),
    ]
}

/// Any shape: convex ones, concave star-shaped outlines (split into convex pieces) and
/// compounds of up to three convex pieces.
pub fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        3 => convex_shape(),
        1 => (4usize..=16).prop_flat_map(|n| {
            prop::collection::vec(0.3..1.5f64, n).prop_filter_map("a simple outline", move |radii| {
                let pts: Vec<Vec2> = radii
                    .iter()
                    .enumerate()
                    .map(|(i, r)| crate::math::unit_at(i as Real * std::f64::consts::TAU / n as Real) * *r)
                    .collect();
                Shape::concave(&pts).ok()
            })
        }),
        1 => prop::collection::vec((convex_shape(), transform(1.0)), 1..4).prop_filter_map(
            "a compound",
            |pieces| Shape::compound(pieces.into_iter().map(|(s, x)| (x, s)).collect()).ok()
        ),
    ]
}

/// The shapes that tunnel in naive engines: small discs (2–10 cm), thin bars (1 m × 2 cm) and
/// small hexagons.
pub fn bullet_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.02..0.1f64).prop_map(|r| Shape::circle(r).expect("positive radius")),
        Just(Shape::rectangle(0.5, 0.01).expect("positive extents")),
        (0.05..0.3f64).prop_map(|r| Shape::regular_polygon(6, r).expect("a hexagon")),
    ]
}

/// A motion over one step: start pose within `extent` metres, displacement up to `max_distance`
/// metres, turn up to `max_turn` radians either way.
pub fn motion(extent: Real, max_distance: Real, max_turn: Real) -> impl Strategy<Value = Motion> {
    (
        transform(extent),
        0.0..max_distance.max(1e-9),
        -PI..PI,
        -max_turn.abs()..max_turn.abs().max(1e-12),
    )
        .prop_map(|(start, d, dir, turn)| Motion::new(start, crate::math::unit_at(dir) * d, turn))
}

/// A dynamic body with a random shape somewhere within `extent` metres, moving at up to
/// `max_speed` m/s and spinning up to 50 rad/s, with density 0.5–5 kg/m², restitution 0–1 and
/// friction 0–1.
pub fn body_def(extent: Real, max_speed: Real) -> impl Strategy<Value = BodyDef> {
    (
        shape(),
        transform(extent),
        0.0..max_speed.max(1e-9),
        -PI..PI,
        -50.0..50.0f64,
        (0.5..5.0f64, 0.0..=1.0f64, 0.0..1.0f64),
    )
        .prop_map(
            |(shape, transform, speed, dir, spin, (density, restitution, friction))| BodyDef {
                shape,
                transform,
                linear_velocity: crate::math::unit_at(dir) * speed,
                angular_velocity: spin,
                density,
                restitution,
                friction,
                ..BodyDef::default()
            },
        )
}

/// A scene for a property test: a world configuration and bodies (static walls first).
#[derive(Clone, Debug)]
pub struct TestScene {
    /// World settings.
    pub config: WorldConfig,
    /// The bodies, in the order they are added.
    pub bodies: Vec<BodyDef>,
}

impl TestScene {
    /// Builds the world. Panics only if the strategy produced an invalid body, which is a bug in
    /// the strategy, not the world.
    #[must_use]
    pub fn build(&self) -> World {
        let mut world = World::new(self.config);
        for def in &self.bodies {
            world
                .add_body(def.clone())
                .expect("testkit strategies produce valid bodies");
        }
        world
    }
}

/// A closed box of four 1 cm static walls (20 m × 20 m) with 1 to `max_bullets` bullets inside,
/// starting clear of each other and of the walls,
/// fired in random directions at up to `max_speed` m/s and spinning up to 100 rad/s, no gravity:
/// every bullet is fast enough to cross a wall many times over in one step if anything tunnels.
pub fn bullet_scene(max_bullets: usize, max_speed: Real) -> impl Strategy<Value = TestScene> {
    let bullet = (
        bullet_shape(),
        point(8.0),
        -PI..PI,
        (max_speed * 0.1)..max_speed.max(1e-6),
        -100.0..100.0f64,
        0.0..=1.0f64,
    )
        .prop_map(|(shape, p, dir, speed, spin, restitution)| BodyDef {
            shape,
            transform: Transform::new(p, dir),
            linear_velocity: crate::math::unit_at(dir) * speed,
            angular_velocity: spin,
            restitution,
            ..BodyDef::default()
        });
    prop::collection::vec(bullet, 1..=max_bullets.max(1))
        .prop_map(|bullets| {
            // Keep the bullets that start clear of the ones before them (a scene starts without
            // overlaps; they are fast enough to meet during the run anyway).
            let mut kept: Vec<BodyDef> = Vec::new();
            for b in bullets {
                let clear = kept.iter().all(|k| {
                    k.transform.translation.distance(b.transform.translation)
                        > k.shape.bounding_radius() + b.shape.bounding_radius() + 0.05
                });
                if clear {
                    kept.push(b);
                }
            }
            kept
        })
        .prop_map(|bullets| {
            let wall = |x: Real, y: Real, w: Real, h: Real| BodyDef {
                kind: BodyKind::Static,
                shape: Shape::rectangle(w, h).expect("positive extents"),
                transform: Transform::new(Vec2::new(x, y), 0.0),
                ..BodyDef::default()
            };
            let mut bodies = vec![
                wall(-10.0, 0.0, 0.005, 10.0),
                wall(10.0, 0.0, 0.005, 10.0),
                wall(0.0, -10.0, 10.0, 0.005),
                wall(0.0, 10.0, 10.0, 0.005),
            ];
            bodies.extend(bullets);
            TestScene {
                config: WorldConfig {
                    gravity: Vec2::ZERO,
                    ..WorldConfig::default()
                },
                bodies,
            }
        })
}

/// Every body's pose and centre of mass at one moment, to compare a step's start with its end.
#[derive(Clone, Debug)]
pub struct Snapshot {
    bodies: Vec<(BodyId, Transform, Vec2)>,
}

impl Snapshot {
    /// The current poses (world frame).
    #[must_use]
    pub fn of(world: &World) -> Snapshot {
        Snapshot {
            bodies: world
                .bodies()
                .map(|(id, b)| (id, b.transform(), b.center_of_mass()))
                .collect(),
        }
    }
}

fn name(world: &World, id: BodyId) -> String {
    world
        .body(id)
        .and_then(|b| b.name().map(str::to_string))
        .unwrap_or_else(|| format!("body {}", id.index()))
}

/// Fails if some dynamic body passed through another body during the step from `before` to
/// `world`'s current state (see the module notes for the exact test).
pub fn assert_no_tunnelling(before: &Snapshot, world: &World) -> Result<(), TestCaseError> {
    let dt = world.config().dt;
    // Bodies whose path bent inside the step (an impact, or held by the fallback): their end
    // points say nothing about the path between, so pairs with them are not judged.
    let ev = world.events();
    let bent: std::collections::HashSet<BodyId> = ev
        .impacts
        .iter()
        .flat_map(|i| [i.body_a, i.body_b])
        .chain(ev.held.iter().copied())
        .collect();
    for &(ia, _, com0) in &before.bodies {
        let Some(a) = world.body(ia) else { continue };
        if a.kind() != BodyKind::Dynamic {
            continue;
        }
        let com1 = a.center_of_mass();
        if bent.contains(&ia) {
            continue;
        }
        for &(ib, xb0, bcom0) in &before.bodies {
            if ib == ia || bent.contains(&ib) {
                continue;
            }
            let Some(b) = world.body(ib) else { continue };
            // Pairs whose shapes do not collide (filters, sensors) may pass through each other.
            if a.pair_filter(b) == crate::dynamics::body::PairFilter::Never {
                continue;
            }
            let xb1 = b.transform();
            // B's pose through the step: its centre of mass moves straight and it turns by the
            // angle nearest to ω·dt that matches its start and end angles (so a spinning body's
            // several turns are not taken for a small one).
            let bcom1 = b.center_of_mass();
            let d = wrap(xb1.angle() - xb0.angle());
            let turns = ((b.angular_velocity() * dt - d) / std::f64::consts::TAU).round();
            let turn = d + turns * std::f64::consts::TAU;
            let local_com = xb0.inv_transform_point(bcom0);
            let pose_b = |s: Real| {
                let rot = crate::math::Rot::from_angle(xb0.angle() + s * turn);
                let com = bcom0.lerp(bcom1, s);
                Transform::from_parts(com - rot.rotate(local_com), rot)
            };
            // A's centre in B's frame along the step, as a polyline fine enough that no piece
            // spans more than 0.02 rad of B's turn (a chord of a spinning frame cuts inside the
            // true path by at most r·(1 − cos 0.01) ≈ 5e-5·r).
            let samples = ((turn.abs() / 0.02).ceil() as usize).clamp(32, 100_000);
            let rel: Vec<Vec2> = (0..=samples)
                .map(|k| {
                    let s = k as Real / samples as Real;
                    pose_b(s).inv_transform_point(com0.lerp(com1, s))
                })
                .collect();
            let Some(solid) = b.solid_shape() else {
                continue;
            };
            let shape = &solid;
            let inside = |p: Vec2| crate::query::contains_point(shape, &Transform::IDENTITY, p);
            let (p0, p1) = (rel[0], rel[samples]);
            if inside(p0) || inside(p1) {
                continue;
            }
            let crossed = rel.windows(2).any(|w| {
                ray_cast(shape, &Transform::IDENTITY, w[0], w[1] - w[0])
                    .is_some_and(|hit| hit.fraction < 1.0)
            });
            if crossed {
                return Err(TestCaseError::fail(format!(
                    "step {}: {} passed through {} with no impact between them: its centre went \
                     from {:?} to {:?} (in {}'s frame) across the shape",
                    world.step_count(),
                    name(world, ia),
                    name(world, ib),
                    p0,
                    p1,
                    name(world, ib),
                )));
            }
        }
    }
    Ok(())
}

/// An angle difference in (−π, π].
fn wrap(a: Real) -> Real {
    let t = std::f64::consts::TAU;
    a - t * ((a + std::f64::consts::PI) / t).floor()
}

/// Fails if two bodies overlap by more than `tolerance` metres now (the engine keeps resting
/// overlaps within `LINEAR_SLOP`; soft contacts under heavy load may compress more).
pub fn assert_no_deep_overlap(world: &World, tolerance: Real) -> Result<(), TestCaseError> {
    match world.deepest_overlap() {
        Some((depth, a, b)) if depth > tolerance => Err(TestCaseError::fail(format!(
            "step {}: {} and {} overlap by {depth} m (more than {tolerance} m)",
            world.step_count(),
            name(world, a),
            name(world, b)
        ))),
        _ => Ok(()),
    }
}

/// Kinetic energy plus gravitational potential energy of the dynamic bodies (J), with the
/// potential measured from the world origin.
#[must_use]
pub fn mechanical_energy(world: &World) -> Real {
    let g = world.config().gravity;
    world
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(_, b)| b.kinetic_energy() - b.mass() * b.gravity_scale() * g.dot(b.center_of_mass()))
        .sum()
}

/// Fails if the world's mechanical energy ([`mechanical_energy`]) exceeds `initial` by more than
/// the relative `tolerance` (plus 1e-9 J). Holds for scenes with restitution ≤ 1, no kinematic
/// bodies, no forces and no damping; soft contacts recovering an overlap add a little energy, so
/// start scenes without overlaps.
pub fn assert_energy_not_increasing(
    initial: Real,
    world: &World,
    tolerance: Real,
) -> Result<(), TestCaseError> {
    let now = mechanical_energy(world);
    if now > initial + tolerance * initial.abs() + 1e-9 {
        Err(TestCaseError::fail(format!(
            "step {}: mechanical energy grew from {initial} J to {now} J",
            world.step_count()
        )))
    } else {
        Ok(())
    }
}
