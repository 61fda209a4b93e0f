//! Built-in scenes, shared by the tests, the benchmarks, the examples and the command line.
//!
//! Each function builds a [`World`] and returns it with the ids of its interesting bodies. The
//! pyramid follows Box2D's `large_pyramid` benchmark exactly, so figures can be compared.

use crate::dynamics::{BodyDef, BodyId, BodyKind, RevoluteJointDef};
use crate::math::Vec2;
use crate::math::{Real, Transform};
use crate::shape::Shape;
use crate::world::{World, WorldConfig};

/// A built scene: the world and named bodies of interest.
#[derive(Debug)]
pub struct Scene {
    /// The world, ready to step.
    pub world: World,
    /// Bodies of interest (the pyramid's top box, the bullets, ...), in creation order.
    pub tracked: Vec<BodyId>,
}

fn static_box(world: &mut World, half: Vec2, center: Vec2, angle: Real, name: &str) -> BodyId {
    world
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(half.x, half.y).expect("positive extents"),
            transform: Transform::new(center, angle),
            name: Some(name.to_string()),
            ..Default::default()
        })
        .expect("a valid static box")
}

/// The world of Box2D's box benchmarks: gravity (0, −10), dt 1/60, and a static ground of half
/// extents 100 × 1 at (0, −1) (its top face at y = 0).
fn box_benchmark_world() -> World {
    let mut world = World::new(WorldConfig {
        gravity: Vec2::new(0.0, -10.0),
        dt: 1.0 / 60.0,
        ..WorldConfig::default()
    });
    static_box(
        &mut world,
        Vec2::new(100.0, 1.0),
        Vec2::new(0.0, -1.0),
        0.0,
        "ground",
    );
    world
}

/// Adds a box of half extent 0.5 (`square`), unrotated at `center`, density 1, friction 0.6,
/// restitution 0, as the box benchmarks build them.
fn benchmark_box(world: &mut World, square: &Shape, center: Vec2) -> BodyId {
    world
        .add_body(BodyDef {
            shape: square.clone(),
            transform: Transform::new(center, 0.0),
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            ..Default::default()
        })
        .expect("a valid box")
}

/// Box2D's `large_pyramid` benchmark with `rows` rows (Box2D uses 100, giving 5,050 boxes): a
/// static ground (half extents 100 × 1 at (0, −1)); boxes of half extent 0.5 in rows `i` at
/// `y = (2i + 1)·0.5`, columns `j = i..rows` at `x = (i + 1)·0.5 + (j − i) − rows/2`; density 1,
/// friction 0.6, restitution 0; gravity (0, −10), dt 1/60. `tracked` holds the top box.
#[must_use]
pub fn pyramid(rows: usize) -> Scene {
    let mut world = box_benchmark_world();
    let square = Shape::rectangle(0.5, 0.5).expect("positive extents");
    let mut top = None;
    let half_rows = rows as Real * 0.5;
    for i in 0..rows {
        let y = (2 * i + 1) as Real * 0.5;
        for j in i..rows {
            let x = (i + 1) as Real * 0.5 + (j - i) as Real - half_rows;
            top = Some(benchmark_box(&mut world, &square, Vec2::new(x, y)));
        }
    }
    Scene {
        world,
        tracked: top.into_iter().collect(),
    }
}

/// A vertical stack of `count` boxes of half extent 0.5 m (1 m cubes), resting one on another on
/// the pyramid's ground (half extents 100 × 1 at (0, −1)), box `i` at `y = i + 0.5`; density 1,
/// friction 0.6, gravity (0, −10), dt 1/60, as [`pyramid`]. A test of stacking: the solver must
/// hold the weight of `count − 1` boxes on the bottom one without the stack sinking into itself
/// or buckling. `tracked` holds the top box.
#[must_use]
pub fn tall_stack(count: usize) -> Scene {
    let mut world = box_benchmark_world();
    let square = Shape::rectangle(0.5, 0.5).expect("positive extents");
    let top = (0..count)
        .map(|i| benchmark_box(&mut world, &square, Vec2::new(0.0, i as Real + 0.5)))
        .last();
    Scene {
        world,
        tracked: top.into_iter().collect(),
    }
}

/// `chains` chains of `links` capsule links (0.5 m each, revolute pins) hanging from a static bar
/// 1.2 m apart, every link pushed sideways at 2 m/s so the chains swing into each other: Box2D's
/// box-benchmark world (gravity −10, dt 1/60, 4 substeps). The joint-heavy scene of the peer
/// benchmark. `tracked` holds the last link of the first chain.
#[must_use]
pub fn hanging_chains(chains: usize, links: usize) -> Scene {
    let mut world = box_benchmark_world();
    let top = 2.0 + 0.5 * links as Real;
    let bar = world
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(0.6 * chains as Real + 1.0, 0.1).expect("positive extents"),
            transform: Transform::new(Vec2::new(0.0, top + 0.1), 0.0),
            name: Some("bar".into()),
            ..Default::default()
        })
        .expect("a valid bar");
    let link =
        Shape::capsule(Vec2::new(0.0, -0.2), Vec2::new(0.0, 0.2), 0.05).expect("a valid link");
    let mut tracked = Vec::new();
    for c in 0..chains {
        let x0 = -0.6 * chains as Real + 1.2 * c as Real;
        let mut prev = bar;
        for k in 0..links {
            let at = Vec2::new(x0, top - 0.5 * k as Real - 0.25);
            let body = world
                .add_body(BodyDef {
                    shape: link.clone(),
                    transform: Transform::new(at, 0.0),
                    linear_velocity: Vec2::new(if c % 2 == 0 { 2.0 } else { -2.0 }, 0.0),
                    density: 20.0,
                    friction: 0.6,
                    ..Default::default()
                })
                .expect("a valid link");
            let pin = RevoluteJointDef::new(prev, body, at + Vec2::new(0.0, 0.25));
            world.add_joint(pin).expect("a valid pin");
            prev = body;
            if c == 0 && k + 1 == links {
                tracked.push(body);
            }
        }
    }
    Scene { world, tracked }
}

/// A ball of radius 0.25 m bouncing elastically between two static walls 10 m apart, at `speed`
/// m/s along x, with no gravity and no friction: the time-loss test. The inner faces of the walls
/// are at x = ±5, so the ball's centre travels between ±4.75. `tracked` holds the ball.
#[must_use]
pub fn bouncing_ball(speed: Real) -> Scene {
    let mut world = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..WorldConfig::default()
    });
    for (x, name) in [(-5.5, "left wall"), (5.5, "right wall")] {
        world
            .add_body(BodyDef {
                kind: BodyKind::Static,
                shape: Shape::rectangle(0.5, 5.0).expect("positive extents"),
                transform: Transform::new(Vec2::new(x, 0.0), 0.0),
                restitution: 1.0,
                friction: 0.0,
                name: Some(name.into()),
                ..Default::default()
            })
            .expect("a valid wall");
    }
    let ball = world
        .add_body(BodyDef {
            shape: Shape::circle(0.25).expect("positive radius"),
            linear_velocity: Vec2::new(speed, 0.0),
            restitution: 1.0,
            friction: 0.0,
            name: Some("ball".into()),
            ..Default::default()
        })
        .expect("a valid ball");
    Scene {
        world,
        tracked: vec![ball],
    }
}

/// The analytic x of the [`bouncing_ball`] centre at time `t` (seconds): a triangle wave between
/// ±4.75 m starting at 0 moving at `speed` m/s.
#[must_use]
pub fn bouncing_ball_x(speed: Real, t: Real) -> Real {
    let span = 9.5;
    let u = (speed * t + 4.75).rem_euclid(2.0 * span);
    if u <= span {
        -4.75 + u
    } else {
        4.75 - (u - span)
    }
}

/// Newton's cradle laid flat: `n` equal discs (radius 0.5 m) in a row, touching, no gravity,
/// restitution 1, no friction; the first moves at `speed` m/s into the others. `tracked` holds the
/// discs left to right.
#[must_use]
pub fn newtons_cradle(n: usize, speed: Real) -> Scene {
    let mut world = World::new(WorldConfig {
        gravity: Vec2::ZERO,
        ..WorldConfig::default()
    });
    let disc = Shape::circle(0.5).expect("positive radius");
    let tracked = (0..n)
        .map(|i| {
            world
                .add_body(BodyDef {
                    shape: disc.clone(),
                    // The first disc starts a metre back, so it hits at speed.
                    transform: Transform::new(
                        Vec2::new(i as Real - if i == 0 { 1.0 } else { 0.0 }, 0.0),
                        0.0,
                    ),
                    linear_velocity: Vec2::new(if i == 0 { speed } else { 0.0 }, 0.0),
                    restitution: 1.0,
                    friction: 0.0,
                    name: Some(format!("disc {i}")),
                    ..Default::default()
                })
                .expect("a valid disc")
        })
        .collect();
    Scene { world, tracked }
}

/// Bullet rain: `count` discs of radius 2.5 cm fired at `speed` m/s (Box2D's bullet scale:
/// 300 m/s) down onto three thin static walls (1 cm thick, 20 m wide) stacked 1 m apart, with
/// gravity. Discs start in a grid above the walls, spread so that they also cross each other's
/// paths at slight angles. `tracked` holds the bullets.
#[must_use]
pub fn bullet_rain(count: usize, speed: Real) -> Scene {
    let mut world = World::new(WorldConfig::default());
    for k in 0..3 {
        static_box(
            &mut world,
            Vec2::new(10.0, 0.005),
            Vec2::new(0.0, k as Real),
            0.0,
            &format!("thin wall {k}"),
        );
    }
    let disc = Shape::circle(0.025).expect("positive radius");
    let per_row = 50;
    let tracked = (0..count)
        .map(|i| {
            let (row, col) = (i / per_row, i % per_row);
            let x = -9.0 + 18.0 * col as Real / (per_row - 1) as Real;
            let y = 5.0 + 0.2 * row as Real;
            let lean = 0.05 * ((i % 7) as Real - 3.0);
            world
                .add_body(BodyDef {
                    shape: disc.clone(),
                    transform: Transform::new(Vec2::new(x, y), 0.0),
                    linear_velocity: speed
                        * Vec2::new(crate::trig::sin(lean), -crate::trig::cos(lean)),
                    restitution: 0.2,
                    name: Some(format!("bullet {i}")),
                    ..Default::default()
                })
                .expect("a valid bullet")
        })
        .collect();
    Scene { world, tracked }
}

/// `count` bodies of mixed shapes (boxes, discs, capsules, hexagons, concave L pieces) dropped in
/// a loose grid onto a static ground, inside static side walls. `tracked` is empty.
#[must_use]
pub fn falling_mixed(count: usize) -> Scene {
    let mut world = World::new(WorldConfig::default());
    let columns = ((count as Real).sqrt().ceil() as usize).max(1);
    let width = columns as Real * 1.2;
    static_box(
        &mut world,
        Vec2::new(width, 0.5),
        Vec2::new(0.0, -0.5),
        0.0,
        "ground",
    );
    static_box(
        &mut world,
        Vec2::new(0.5, 4.0 * width),
        Vec2::new(-width / 2.0 - 1.0, 4.0 * width),
        0.0,
        "left wall",
    );
    static_box(
        &mut world,
        Vec2::new(0.5, 4.0 * width),
        Vec2::new(width / 2.0 + 1.0, 4.0 * width),
        0.0,
        "right wall",
    );
    let shapes = [
        Shape::rectangle(0.4, 0.3).expect("valid"),
        Shape::circle(0.35).expect("valid"),
        Shape::capsule(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.2).expect("valid"),
        Shape::regular_polygon(6, 0.4).expect("valid"),
        Shape::concave(&[
            Vec2::new(-0.4, -0.4),
            Vec2::new(0.4, -0.4),
            Vec2::new(0.4, -0.1),
            Vec2::new(-0.1, -0.1),
            Vec2::new(-0.1, 0.4),
            Vec2::new(-0.4, 0.4),
        ])
        .expect("valid"),
    ];
    for i in 0..count {
        let (row, col) = (i / columns, i % columns);
        let x = -width / 2.0 + 0.6 + col as Real * 1.2 + 0.1 * (row % 2) as Real;
        let y = 1.0 + row as Real * 1.1;
        world
            .add_body(BodyDef {
                shape: shapes[i % shapes.len()].clone(),
                transform: Transform::new(Vec2::new(x, y), 0.3 * (i % 5) as Real),
                ..Default::default()
            })
            .expect("a valid body");
    }
    Scene {
        world,
        tracked: Vec::new(),
    }
}
