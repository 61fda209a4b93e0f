//! Box2D v3's own benchmark suite (its `benchmark/` program; the scenes are described in its
//! `shared/benchmarks.c`), built here from those published descriptions as neutral scene specs
//! (`spec.rs`) and run in sweep2d, Rapier and Box2D with the same steps as Box2D's program: the
//! first step untimed, then the mean CPU time of the rest per step, one core. Each scene also
//! prints a quality line of what a player would see differ (where the ram ends, whether the
//! spinner still turns, bodies outside the drum, the largest joint gap, the top box's drift) and,
//! for sweep2d, the continuous pass's share of the step, its impacts and holds.
//!
//! Box2D's defaults are kept where the scene does not set them: gravity (0, −10) m/s², 60 Hz,
//! 4 substeps, density 1, friction 0.6, no restitution, sleeping on except where the scene turns
//! it off (joint_grid, large_pyramid, many_pyramids). Sizes are Box2D's release sizes.
//!
//! Two differences remain. Box2D's spinner motor torque is `FLT_MAX`, here capped at sweep2d's
//! largest valid force (1e15 N·m), which no contact in the scene approaches. `rain`'s static
//! ground, 2,505 boxes on one body in Box2D, is one static body per box in every engine here:
//! sweep2d keeps one broad-phase proxy per body and caps a body at 1,024 shapes. (Rain's
//! ragdolls in Rapier: see `engines::rapier_joint` and `engines::rapier_groups`.)
//!
//! One scene is not Box2D's: `heap`, the hardening review's 2,000 boxes created at one point
//! (`docs/reliability.md`), with the suite's defaults.

use crate::engines::{self, Box2d, Engine, Rapier, Sweep2d};
use crate::spec::{BodySpec, FilterSpec, JointSpec, Kind, Part, PartMaterial, SceneSpec};
use std::f64::consts::PI;
use std::time::Instant;

/// Box2D's default gravity (m/s²), step (s) and substeps.
const GRAVITY: [f64; 2] = [0.0, -10.0];
const DT: f64 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;

/// What a scene's quality line reports.
#[derive(Clone, Copy, Debug)]
enum Quality {
    /// The tracked body's drift from its start (a pyramid's top box).
    TopDrift,
    /// The ram (the tracked body): where it ends and how fast; and the total momentum of the
    /// dynamic bodies against the start's.
    Ram,
    /// The spinner's (tracked) angular velocity at the end, and at how many steps' ends it turned at
    /// under half its motor speed (sampled every step in `run_once`).
    Spinner,
    /// Dynamic bodies outside a drum turning about `center` whose inside is `half` wide in its
    /// own frame (a square drum; `round`: a disc of that radius).
    Drum {
        center: [f64; 2],
        half: f64,
        round: bool,
    },
    /// The largest distance between a joint's two anchors.
    JointGap,
    /// Lowest dynamic body and kinetic energy only; rain adds where its ragdolls are (in
    /// `run_once`, which knows its groups).
    Plain,
}

/// A per-step driver (Box2D's `StepFcn`).
#[derive(Clone, Copy, Debug)]
enum Driver {
    /// junkyard: the kinematic pusher `body` is sent to x = 60·sin(0.2·t) (t the step's time),
    /// at the velocity that reaches it in one step (Box2D's `b2Body_SetTargetTransform`).
    Pusher { body: usize },
    /// rain: every 8 steps a column of ragdoll groups (one per floor) is created above the
    /// floors, and once all 40 columns are out, the oldest column is removed and made again.
    Rain,
}

/// One scene of the suite.
struct SuiteScene {
    name: &'static str,
    spec: SceneSpec,
    /// Box2D's step count for the scene.
    steps: usize,
    sleep: bool,
    quality: Quality,
    driver: Option<Driver>,
}

fn spec(bodies: Vec<BodySpec>, joints: Vec<JointSpec>) -> SceneSpec {
    SceneSpec {
        gravity: GRAVITY,
        dt: DT,
        substeps: SUBSTEPS,
        bodies,
        joints,
    }
}

/// An axis-aligned box of half extents `hx`, `hy` centred at `c` (body frame), counter-clockwise.
fn offset_box(hx: f64, hy: f64, c: [f64; 2]) -> Part {
    Part::Polygon {
        points: vec![
            [c[0] - hx, c[1] - hy],
            [c[0] + hx, c[1] - hy],
            [c[0] + hx, c[1] + hy],
            [c[0] - hx, c[1] + hy],
        ],
        radius: 0.0,
    }
}

fn square(h: f64) -> Part {
    offset_box(h, h, [0.0, 0.0])
}

fn dynamic(position: [f64; 2], parts: Vec<Part>) -> BodySpec {
    BodySpec::new(Kind::Dynamic, position, parts)
}

fn ground(position: [f64; 2], parts: Vec<Part>) -> BodySpec {
    BodySpec::new(Kind::Static, position, parts)
}

/// `count` × `count` dynamic squares of half side `half`, `pitch` apart, the first centred at
/// `corner` (metres), row by row from the bottom (the tumbler's and the washer's loads).
fn square_grid(count: usize, corner: [f64; 2], pitch: f64, half: f64) -> Vec<BodySpec> {
    let mut out = Vec::with_capacity(count * count);
    let mut y = corner[1];
    for _ in 0..count {
        let mut x = corner[0];
        for _ in 0..count {
            out.push(dynamic([x, y], vec![square(half)]));
            x += pitch;
        }
        y += pitch;
    }
    out
}

/// Points sorted counter-clockwise about their centroid (a convex set's hull order).
fn hull_order(mut points: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    let n = points.len() as f64;
    let c = points
        .iter()
        .fold([0.0, 0.0], |a, p| [a[0] + p[0] / n, a[1] + p[1] / n]);
    points.sort_by(|p, q| {
        let a = (p[1] - c[1]).atan2(p[0] - c[0]);
        let b = (q[1] - c[1]).atan2(q[0] - c[0]);
        a.total_cmp(&b)
    });
    points
}

fn joint_grid() -> SuiteScene {
    let n = 100;
    let mut bodies = Vec::with_capacity(n * n);
    let mut joints = Vec::new();
    for k in 0..n {
        for i in 0..n {
            let pinned = (n / 2 - 3..=n / 2 + 3).contains(&k) && i == 0;
            let kind = if pinned { Kind::Static } else { Kind::Dynamic };
            let mut b = BodySpec::new(
                kind,
                [k as f64, -(i as f64)],
                vec![Part::Circle {
                    center: [0.0, 0.0],
                    radius: 0.4,
                }],
            );
            b.filter = Some(FilterSpec {
                category: 2,
                mask: !2,
                group: 0,
            });
            let index = bodies.len();
            // (Box2D also joins the seven static anchors to each other, which does nothing;
            // sweep2d refuses a joint without a dynamic body, so those six are left out.)
            let anchored = |k: usize| (n / 2 - 3..=n / 2 + 3).contains(&k);
            if i > 0 {
                joints.push(JointSpec::pin(
                    index - 1,
                    index,
                    [k as f64, -(i as f64) + 0.5],
                ));
            }
            if k > 0 && !(pinned && anchored(k - 1)) {
                joints.push(JointSpec::pin(
                    index - n,
                    index,
                    [k as f64 - 0.5, -(i as f64)],
                ));
            }
            bodies.push(b);
        }
    }
    SuiteScene {
        name: "joint_grid",
        spec: spec(bodies, joints),
        steps: 500,
        sleep: false,
        quality: Quality::JointGap,
        driver: None,
    }
}

/// Box2D's pyramid: rows of boxes of half extent `a`, `base` in the bottom row and one fewer in
/// each row above, the bottom row's first box at `(left + a, bottom + a)`.
fn pyramid(base: usize, a: f64, left: f64, bottom: f64) -> impl Iterator<Item = BodySpec> {
    (0..base).flat_map(move |i| {
        let y = (2.0 * i as f64 + 1.0) * a + bottom;
        (i..base).map(move |j| {
            let x = (i as f64 + 1.0) * a + 2.0 * (j - i) as f64 * a + left;
            dynamic([x, y], vec![square(a)])
        })
    })
}

fn large_pyramid() -> SuiteScene {
    let base = 100;
    let a = 0.5;
    let mut bodies = vec![ground(
        [0.0, -1.0],
        vec![offset_box(100.0, 1.0, [0.0, 0.0])],
    )];
    bodies.extend(pyramid(base, a, -a * base as f64, 0.0));
    bodies.last_mut().expect("a top box").tracked = true;
    SuiteScene {
        name: "large_pyramid",
        spec: spec(bodies, Vec::new()),
        steps: 500,
        sleep: false,
        quality: Quality::TopDrift,
        driver: None,
    }
}

fn many_pyramids() -> SuiteScene {
    let (base, extent, rows, columns) = (10usize, 0.5, 20usize, 20usize);
    let ground_dy = 2.0 * extent * (base as f64 + 1.0);
    let ground_width = 2.0 * extent * columns as f64 * (base as f64 + 1.0);
    let segments = (0..rows)
        .map(|i| {
            let y = i as f64 * ground_dy;
            Part::Segment {
                a: [-0.5 * ground_width, y],
                b: [0.5 * ground_width, y],
            }
        })
        .collect();
    let mut bodies = vec![ground([0.0, 0.0], segments)];
    let base_width = 2.0 * extent * base as f64;
    for r in 0..rows {
        let base_y = r as f64 * ground_dy;
        for c in 0..columns {
            let center_x =
                -0.5 * ground_width + c as f64 * (base_width + 2.0 * extent) + 2.0 * extent;
            bodies.extend(pyramid(base, extent, center_x - 0.5, base_y));
        }
    }
    SuiteScene {
        name: "many_pyramids",
        spec: spec(bodies, Vec::new()),
        steps: 200,
        sleep: false,
        quality: Quality::Plain,
        driver: None,
    }
}

fn spinner() -> SuiteScene {
    // The ring: a loop of 360 points, radius 40 about (0, 32), walked clockwise, so its solid
    // side is outside and the bodies stay in.
    let points = (0..360)
        .map(|i| {
            let a = -2.0 * PI * i as f64 / 360.0;
            [40.0 * a.cos(), 40.0 * a.sin() + 32.0]
        })
        .collect();
    let mut ring = ground(
        [0.0, 0.0],
        vec![Part::Chain {
            points,
            closed: true,
        }],
    );
    ring.friction = 0.1;
    let mut blade = dynamic(
        [0.0, 12.0],
        vec![Part::Polygon {
            points: vec![[-0.4, -20.0], [0.4, -20.0], [0.4, 20.0], [-0.4, 20.0]],
            radius: 0.2,
        }],
    );
    blade.friction = 0.0;
    blade.tracked = true;
    let mut bodies = vec![ring, blade];
    let joints = vec![JointSpec {
        motor: Some((5.0, f64::from(f32::MAX))),
        ..JointSpec::pin(0, 1, [0.0, 12.0])
    }];
    let (mut x, mut y) = (-23.0, 2.0);
    for i in 0..2 * 3038 {
        let part = match i % 3 {
            0 => Part::Capsule {
                a: [-0.25, 0.0],
                b: [0.25, 0.0],
                radius: 0.25,
            },
            1 => Part::Circle {
                center: [0.0, 0.0],
                radius: 0.35,
            },
            _ => square(0.35),
        };
        let mut b = dynamic([x, y], vec![part]);
        b.friction = 0.1;
        b.restitution = 0.1;
        b.density = 0.25;
        bodies.push(b);
        x += 0.5;
        if x >= 23.0 {
            x = -23.0;
            y += 0.5;
        }
    }
    SuiteScene {
        name: "spinner",
        spec: spec(bodies, joints),
        steps: 500,
        sleep: true,
        quality: Quality::Spinner,
        driver: None,
    }
}

fn smash() -> SuiteScene {
    let mut ram = dynamic([-20.0, 0.0], vec![square(4.0)]);
    ram.velocity = [40.0, 0.0];
    ram.density = 8.0;
    ram.tracked = true;
    let mut bodies = vec![ram];
    let d = 0.4;
    let (columns, rows) = (120, 80);
    for i in 0..columns {
        for j in 0..rows {
            let mut b = dynamic(
                [i as f64 * d + 30.0, (j as f64 - rows as f64 / 2.0) * d],
                vec![square(0.5 * d)],
            );
            b.asleep = true;
            bodies.push(b);
        }
    }
    let mut spec = spec(bodies, Vec::new());
    spec.gravity = [0.0, 0.0];
    SuiteScene {
        name: "smash",
        spec,
        steps: 300,
        sleep: true,
        quality: Quality::Ram,
        driver: None,
    }
}

fn tumbler() -> SuiteScene {
    let anchor = ground([0.0, 0.0], Vec::new());
    let mut drum = dynamic(
        [0.0, 10.0],
        vec![
            offset_box(0.5, 10.0, [10.0, 0.0]),
            offset_box(0.5, 10.0, [-10.0, 0.0]),
            offset_box(10.0, 0.5, [0.0, 10.0]),
            offset_box(10.0, 0.5, [0.0, -10.0]),
        ],
    );
    drum.density = 50.0;
    drum.tracked = true;
    let mut bodies = vec![anchor, drum];
    let joints = vec![JointSpec {
        motor: Some((25.0 * PI / 180.0, 1e8)),
        ..JointSpec::pin(0, 1, [0.0, 10.0])
    }];
    let grid = 45;
    bodies.extend(square_grid(
        grid,
        [-0.2 * grid as f64, -0.2 * grid as f64 + 10.0],
        0.4,
        0.125,
    ));
    SuiteScene {
        name: "tumbler",
        spec: spec(bodies, joints),
        steps: 750,
        sleep: true,
        quality: Quality::Drum {
            center: [0.0, 10.0],
            half: 9.5,
            round: false,
        },
        driver: None,
    }
}

fn washer() -> SuiteScene {
    let (r0, r1, r2) = (14.0, 16.0, 18.0);
    let step = PI / 18.0;
    let unit = |a: f64| [a.cos(), a.sin()];
    let at = |r: f64, u: [f64; 2]| [r * u[0], r * u[1]];
    let mut parts = Vec::new();
    for i in 0..36 {
        let (t1, t2) = (
            i as f64 * step,
            if i == 35 { 0.0 } else { (i + 1) as f64 * step },
        );
        let (a1, a2) = (unit(t1 - 0.1 * step), unit(t2 + 0.1 * step));
        parts.push(Part::Polygon {
            points: hull_order(vec![at(r1, a1), at(r2, a1), at(r1, a2), at(r2, a2)]),
            radius: 0.0,
        });
        if i % 9 == 0 {
            let (u1, u2) = (unit(t1), unit(t2));
            parts.push(Part::Polygon {
                points: hull_order(vec![at(r0, u1), at(r1, u1), at(r0, u2), at(r1, u2)]),
                radius: 0.0,
            });
        }
    }
    let mut drum = BodySpec::new(Kind::Kinematic, [0.0, 10.0], parts);
    drum.angular_velocity = 25.0 * PI / 180.0;
    drum.velocity = [0.001, -0.002];
    drum.tracked = true;
    let mut bodies = vec![drum];
    let (grid, a) = (90, 0.1);
    let corner = -1.1 * a * grid as f64;
    bodies.extend(square_grid(grid, [corner, corner + 10.0], 2.1 * a, a));
    SuiteScene {
        name: "washer",
        spec: spec(bodies, Vec::new()),
        steps: 500,
        sleep: true,
        quality: Quality::Drum {
            center: [0.0, 10.0],
            half: r2,
            round: true,
        },
        driver: None,
    }
}

/// The junkyard's and compounds' ground: a floor of `floor` boxes and two walls of `wall` boxes
/// each, the walls at x = ±`half_span`.
fn box_ground(floor: usize, wall: usize, half_span: f64) -> Vec<Part> {
    let mut parts = Vec::new();
    for i in 0..floor {
        parts.push(offset_box(0.55, 0.5, [-half_span + i as f64, 0.0]));
    }
    for x in [-half_span, half_span] {
        for i in 0..wall {
            parts.push(offset_box(0.5, 0.55, [x, 1.0 + i as f64]));
        }
    }
    parts
}

fn junkyard() -> SuiteScene {
    let mut bodies = vec![ground([0.0, 0.0], box_ground(161, 50, 80.0))];
    // A pentagon of radius 0.25 from the Fibonacci-sphere angles, in hull order.
    let phi = PI * (5.0f64.sqrt() - 1.0);
    let pentagon = hull_order(
        (0..5)
            .map(|i| {
                let t = phi * i as f64;
                [0.25 * t.cos(), 0.25 * t.sin()]
            })
            .collect(),
    );
    let (columns, rows, radius) = (200, 40, 0.25);
    let mut side = -0.1;
    for i in 0..columns {
        let x = 1.5 * (2.0 * i as f64 - columns as f64) * radius;
        for j in 0..rows {
            let y = 4.0 * j as f64 * radius + 15.0;
            bodies.push(dynamic(
                [x + side, y],
                vec![Part::Polygon {
                    points: pentagon.clone(),
                    radius: 0.0,
                }],
            ));
            side = -side;
        }
    }
    let pusher = bodies.len();
    bodies.push(BodySpec::new(
        Kind::Kinematic,
        [0.0, 0.0],
        vec![offset_box(2.0, 4.0, [0.0, 4.0])],
    ));
    SuiteScene {
        name: "junkyard",
        spec: spec(bodies, Vec::new()),
        steps: 800,
        sleep: true,
        quality: Quality::Plain,
        driver: Some(Driver::Pusher { body: pusher }),
    }
}

fn compounds() -> SuiteScene {
    let mut parts = box_ground(81, 100, 40.0);
    parts.push(Part::Segment {
        a: [-800.0, -80.0],
        b: [800.0, -80.0],
    });
    let mut bodies = vec![ground([0.0, 0.0], parts)];
    let left = Part::Polygon {
        points: vec![[-1.0, 0.0], [0.5, 1.0], [0.0, 2.0]],
        radius: 0.0,
    };
    let right = Part::Polygon {
        points: vec![[1.0, 0.0], [0.0, 2.0], [-0.5, 1.0]],
        radius: 0.0,
    };
    let (columns, rows) = (20, 150);
    let (shift, extra_y, center_y, y_start) = (2.0, 0.25, 1.15 / 2.0, 5.0);
    let center_x = shift * columns as f64 / 2.0 - 1.0;
    let mut side = 0.25;
    for i in 0..columns {
        let x = i as f64 * shift - center_x;
        for j in 0..rows {
            let y = j as f64 * (shift + extra_y) + center_y + y_start;
            let mut b = dynamic([x + side, y], vec![left.clone(), right.clone()]);
            b.friction = 0.5;
            bodies.push(b);
            side = -side;
        }
    }
    SuiteScene {
        name: "compounds",
        spec: spec(bodies, Vec::new()),
        steps: 500,
        sleep: true,
        quality: Quality::Plain,
        driver: None,
    }
}

/// rain's floors (static rows of boxes, one above the other), ragdoll groups per floor (columns
/// across it) and ragdolls per group; its grid's box size and count per floor row (Box2D's release
/// sizes), and the height between floors (m).
const RAIN_ROWS: usize = 5;
const RAIN_COLUMNS: usize = 40;
const RAIN_GROUP_SIZE: usize = 5;
const RAIN_GRID: f64 = 0.5;
const RAIN_GRID_COUNT: usize = 500;
const RAIN_FLOOR_PITCH: f64 = 45.0;
/// Steps between two of rain's spawns (Box2D's `stepCount & 7`).
const RAIN_DELAY_MASK: usize = 7;

/// Box2D's rain: five floors of 501 boxes of 0.5 m, 45 m apart; every 8 steps a column of groups
/// of five ragdolls appears 40 m above each floor, and once 40 columns are out, the oldest is
/// removed and made again (`Driver::Rain`).
fn rain() -> SuiteScene {
    // One static body holding every floor box, as Box2D builds it.
    let mut floors = Vec::with_capacity(RAIN_ROWS * (RAIN_GRID_COUNT + 1));
    for row in 0..RAIN_ROWS {
        let y = RAIN_FLOOR_PITCH * row as f64;
        for j in 0..=RAIN_GRID_COUNT {
            let x = -0.5 * RAIN_GRID_COUNT as f64 * RAIN_GRID + j as f64 * RAIN_GRID;
            floors.push(offset_box(0.5 * RAIN_GRID, 0.5 * RAIN_GRID, [x, y]));
        }
    }
    let bodies = vec![ground([0.0, 0.0], floors)];
    SuiteScene {
        name: "rain",
        spec: spec(bodies, Vec::new()),
        steps: 1000,
        sleep: true,
        quality: Quality::Plain,
        driver: Some(Driver::Rain),
    }
}

/// One bone of Box2D's ragdoll (`shared/human.c`, scale 1): its parent bone, its body's height
/// above the ragdoll's feet position, its capsule (lower and upper end on the body's vertical
/// axis, radius), the height of its joint with the parent, the joint's limits (fractions of π),
/// the share of the joint friction torque it gets, its linear damping (1/s) and whether it ends in
/// a foot.
type Bone = (usize, f64, (f64, f64, f64), f64, (f64, f64), f64, f64, bool);

/// The hip first (no parent, no joint), then torso, head, the legs and the arms.
const BONES: [Bone; 11] = {
    let leg_up = (-0.125, 0.125, 0.06);
    let leg_low = (-0.155, 0.125, 0.045);
    let arm_up = (-0.125, 0.125, 0.035);
    let arm_low = (-0.125, 0.125, 0.03);
    [
        (
            0,
            0.95,
            (-0.02, 0.02, 0.095),
            0.0,
            (0.0, 0.0),
            1.0,
            0.0,
            false,
        ),
        (
            0,
            1.2,
            (-0.135, 0.135, 0.09),
            1.0,
            (-0.25, 0.0),
            0.5,
            0.0,
            false,
        ),
        (
            1,
            1.475,
            (-0.038, 0.039, 0.075),
            1.4,
            (-0.3, 0.1),
            0.25,
            0.1,
            false,
        ),
        (0, 0.775, leg_up, 0.9, (-0.05, 0.4), 1.0, 0.0, false),
        (3, 0.475, leg_low, 0.625, (-0.5, -0.02), 0.5, 0.0, true),
        (0, 0.775, leg_up, 0.9, (-0.05, 0.4), 1.0, 0.0, false),
        (5, 0.475, leg_low, 0.625, (-0.5, -0.02), 0.5, 0.0, true),
        (1, 1.225, arm_up, 1.35, (-0.1, 0.8), 0.5, 0.0, false),
        (7, 0.975, arm_low, 1.1, (-0.2, 0.3), 0.1, 0.1, false),
        (1, 1.225, arm_up, 1.35, (-0.1, 0.8), 0.5, 0.0, false),
        (9, 0.975, arm_low, 1.1, (-0.2, 0.3), 0.1, 0.1, false),
    ]
};

/// Box2D's ragdoll at `position` (its feet) in negative group `-group`, appended to `bodies` and
/// `joints`: capsule bones of friction 0.2 in category 2 colliding with categories 1 and 2, a
/// rounded foot polygon (friction 0.05) on each lower leg that collides with category 1 only,
/// revolute joints with Box2D's limits, a joint friction torque of 0.05 N·m times the bone's
/// share (a motor at speed 0), and a 5 Hz spring of damping ratio 0.5 toward the starting angle.
fn human(position: [f64; 2], group: i32, bodies: &mut Vec<BodySpec>, joints: &mut Vec<JointSpec>) {
    const JOINT_FRICTION: f64 = 0.05;
    let filter = FilterSpec {
        category: 2,
        mask: 1 | 2,
        group: -group,
    };
    let foot = Part::Polygon {
        points: vec![
            [-0.03, -0.185],
            [0.11, -0.185],
            [0.11, -0.16],
            [-0.03, -0.14],
        ],
        radius: 0.015,
    };
    let first = bodies.len();
    for (k, &(parent, y, (lo, hi, radius), pivot, limit, friction_scale, damping, has_foot)) in
        BONES.iter().enumerate()
    {
        let capsule = Part::Capsule {
            a: [0.0, lo],
            b: [0.0, hi],
            radius,
        };
        let parts = if has_foot {
            vec![capsule, foot.clone()]
        } else {
            vec![capsule]
        };
        let mut body = dynamic([position[0], position[1] + y], parts);
        if has_foot {
            body.part_materials.push(PartMaterial {
                part: 1,
                friction: 0.05,
                filter: FilterSpec { mask: 1, ..filter },
            });
        }
        body.friction = 0.2;
        body.filter = Some(filter);
        body.linear_damping = damping;
        bodies.push(body);
        if k > 0 {
            joints.push(JointSpec {
                motor: Some((0.0, friction_scale * JOINT_FRICTION)),
                limit: Some((limit.0 * PI, limit.1 * PI)),
                spring: Some((5.0, 0.5)),
                ..JointSpec::pin(
                    first + parent,
                    first + k,
                    [position[0], position[1] + pivot],
                )
            });
        }
    }
}

/// rain's group of five ragdolls for floor `row` and column `column`: the bodies and joints
/// (body indices into the group's bodies).
fn rain_group(row: usize, column: usize) -> (Vec<BodySpec>, Vec<JointSpec>) {
    let span = RAIN_GRID_COUNT as f64 * RAIN_GRID;
    let pitch = span / RAIN_COLUMNS as f64;
    let mut x = -0.5 * span + pitch * (column as f64 + 0.5);
    let y = 40.0 + RAIN_FLOOR_PITCH * row as f64;
    let (mut bodies, mut joints) = (Vec::new(), Vec::new());
    for i in 0..RAIN_GROUP_SIZE {
        human([x, y], i as i32 + 1, &mut bodies, &mut joints);
        x += 0.5;
    }
    (bodies, joints)
}

/// rain's groups in one engine: which engine group stands in each floor's column.
struct RainState {
    columns_out: usize,
    next_column: usize,
    /// `groups[row][column]`: the engine's group number.
    groups: Vec<Vec<Option<usize>>>,
}

impl RainState {
    fn new() -> Self {
        Self {
            columns_out: 0,
            next_column: 0,
            groups: vec![vec![None; RAIN_COLUMNS]; RAIN_ROWS],
        }
    }

    /// Box2D's `StepRain` before step `step`.
    fn drive(&mut self, engine: &mut dyn Engine, step: usize) {
        if step & RAIN_DELAY_MASK != 0 {
            return;
        }
        let column = if self.columns_out < RAIN_COLUMNS {
            self.columns_out += 1;
            self.columns_out - 1
        } else {
            let c = self.next_column;
            self.next_column = (c + 1) % RAIN_COLUMNS;
            c
        };
        for row in 0..RAIN_ROWS {
            if let Some(old) = self.groups[row][column].take() {
                engine.despawn(old);
            }
            let (bodies, joints) = rain_group(row, column);
            self.groups[row][column] = Some(engine.spawn(&bodies, &joints));
        }
    }

    /// Where the ragdolls are: how many bodies are out, how many lie below the floor they were
    /// dropped on (fallen through it, or walked off its end onto the floor below) and how many of
    /// those are within the floor's span (through it).
    fn quality(&self, engine: &mut dyn Engine) -> String {
        let half_span = 0.5 * (RAIN_GRID_COUNT + 1) as f64 * RAIN_GRID;
        let (mut out, mut below, mut through) = (0, 0, 0);
        for (row, groups) in self.groups.iter().enumerate() {
            let floor_bottom = RAIN_FLOOR_PITCH * row as f64 - 0.5 * RAIN_GRID;
            for &g in groups.iter().flatten() {
                for p in engine.group_poses(g) {
                    out += 1;
                    if p[1] < floor_bottom {
                        below += 1;
                        through += usize::from(p[0].abs() < half_span);
                    }
                }
            }
        }
        format!(
            ", {out} ragdoll bodies out, {below} below the floor they fell on ({through} of them within its span)"
        )
    }
}

/// Not one of Box2D's scenes: the hardening review's heap, 2,000 boxes of 1 m created at one point
/// 5 m above a static ground, 50 steps (`docs/reliability.md`, "Bodies created at one point").
/// Every pair overlaps at the start; the soft contacts push them apart.
fn heap() -> SuiteScene {
    let mut bodies = vec![ground(
        [0.0, -0.5],
        vec![offset_box(400.0, 0.5, [0.0, 0.0])],
    )];
    bodies.extend((0..2000).map(|_| dynamic([0.0, 5.0], vec![square(0.5)])));
    SuiteScene {
        name: "heap",
        spec: spec(bodies, Vec::new()),
        steps: 50,
        sleep: true,
        quality: Quality::Plain,
        driver: None,
    }
}

/// The suite's scenes, in Box2D's order, then `heap` (not Box2D's).
fn scenes() -> Vec<fn() -> SuiteScene> {
    vec![
        compounds,
        joint_grid,
        junkyard,
        large_pyramid,
        many_pyramids,
        rain,
        smash,
        spinner,
        tumbler,
        washer,
        heap,
    ]
}

/// The suite's scene names, for `--only`.
pub fn names() -> Vec<&'static str> {
    scenes().into_iter().map(|f| f().name).collect()
}

const ENGINES: [&str; 3] = ["sweep2d", "rapier2d-f64", "box2d"];

/// Engine `which` of `ENGINES` for `spec`; sweep2d on `threads` threads (the peers on one).
fn make_engine(which: usize, spec: &SceneSpec, threads: usize) -> Box<dyn Engine> {
    match which {
        0 => Box::new(Sweep2d::from_spec(spec).on_threads(threads)),
        1 => Box::new(Rapier::new(spec)),
        _ => Box::new(Box2d::new(spec, |_| false)),
    }
}

/// Runs the scene in one engine: returns the mean ms/step over steps 2..=steps and the quality
/// line.
fn run_once(scene: &SuiteScene, engine: &mut dyn Engine, steps: usize) -> (f64, String, String) {
    let mut timed = 0.0;
    // The spinner's quality is sampled every step (outside the timing): a body jammed between the
    // blade's tip and the ring can stop the blade for a step, and the value at the last step
    // alone says only whether that step was one of them.
    let spinner = matches!(scene.quality, Quality::Spinner)
        .then(|| scene.spec.bodies.iter().position(|b| b.tracked))
        .flatten();
    let mut stalled = 0;
    let mut rain = matches!(scene.driver, Some(Driver::Rain)).then(RainState::new);
    for step in 0..steps {
        let start = Instant::now();
        match scene.driver {
            Some(Driver::Pusher { body }) => {
                let t = DT * step as f64;
                let target = 60.0 * (0.2 * t).sin();
                let x = engine.poses()[body][0];
                engine.drive(body, [(target - x) / DT, 0.0], 0.0);
            }
            Some(Driver::Rain) => rain.as_mut().expect("rain's state").drive(engine, step),
            None => {}
        }
        engine.step();
        if step > 0 {
            timed += start.elapsed().as_secs_f64() * 1e3;
        } else {
            engine.reset_profile();
        }
        if let Some(k) = spinner {
            stalled += usize::from(engine.angular_velocity(k).abs() < SPINNER_STALLED);
        }
    }
    let timed_steps = (steps.max(2) - 1) as f64;
    let stages = engine
        .stage_profile()
        .iter()
        .map(|(name, ms)| format!("{name} {:.2}", ms / timed_steps))
        .collect::<Vec<_>>()
        .join(", ");
    let mut line = quality(scene, engine, steps, rain.as_ref());
    if spinner.is_some() {
        line +=
            &format!(", under {SPINNER_STALLED} rad/s at the end of {stalled} of {steps} steps");
    }
    (timed / timed_steps, line, stages)
}

/// Angular speed (rad/s) under which the spinner (motor speed 5 rad/s) counts as stopped at the
/// end of a step.
const SPINNER_STALLED: f64 = 2.5;

/// The quality line after `steps` steps.
fn quality(
    scene: &SuiteScene,
    engine: &mut dyn Engine,
    steps: usize,
    rain: Option<&RainState>,
) -> String {
    let spec = &scene.spec;
    let poses = engine.poses();
    let bodies = engine.bodies();
    let state = engine.state();
    let tracked = spec.bodies.iter().position(|b| b.tracked);
    let mut line = format!(
        "kinetic energy {:.3e} J, lowest body {:+.2} m",
        state.kinetic_energy, state.lowest_y
    );
    match scene.quality {
        Quality::TopDrift => {
            let k = tracked.expect("a tracked top box");
            let (p0, p) = (spec.bodies[k].position, poses[k]);
            line += &format!(
                ", top box moved ({:+.3}, {:+.3}) m",
                p[0] - p0[0],
                p[1] - p0[1]
            );
        }
        Quality::Ram => {
            let k = tracked.expect("a tracked ram");
            let masses = masses(spec);
            let momentum = |v: &dyn Fn(usize) -> [f64; 2]| {
                (0..spec.bodies.len()).fold([0.0, 0.0], |acc, i| {
                    let vi = v(i);
                    [acc[0] + masses[i] * vi[0], acc[1] + masses[i] * vi[1]]
                })
            };
            let start = momentum(&|i| spec.bodies[i].velocity);
            let end = momentum(&|i| bodies[i].1);
            let change = ((end[0] - start[0]).powi(2) + (end[1] - start[1]).powi(2)).sqrt();
            line += &format!(
                ", ram at x {:.1} m moving {:+.2} m/s, momentum {:.1} -> {:.1} kg·m/s (change {:.1e} relative)",
                poses[k][0],
                bodies[k].1[0],
                start[0],
                end[0],
                change / start[0].abs().max(1e-12)
            );
        }
        Quality::Spinner => {
            let k = tracked.expect("a tracked spinner");
            line += &format!(", spinner turns at {:.2} rad/s", engine.angular_velocity(k));
        }
        Quality::Drum {
            center,
            half,
            round,
        } => {
            let k = tracked.expect("a tracked drum");
            let (drum, c0) = (poses[k], spec.bodies[k].position);
            let shift = [drum[0] - c0[0], drum[1] - c0[1]];
            let (s, c) = drum[2].sin_cos();
            let outside = spec
                .bodies
                .iter()
                .zip(&poses)
                .filter(|(b, _)| b.kind == Kind::Dynamic && !b.tracked)
                .filter(|(_, p)| {
                    let d = [p[0] - center[0] - shift[0], p[1] - center[1] - shift[1]];
                    let local = [c * d[0] + s * d[1], -s * d[0] + c * d[1]];
                    if round {
                        (local[0] * local[0] + local[1] * local[1]).sqrt() > half
                    } else {
                        local[0].abs() > half || local[1].abs() > half
                    }
                })
                .count();
            line += &format!(", {outside} bodies outside the drum");
        }
        Quality::JointGap => {
            let gap = spec
                .joints
                .iter()
                .map(|j| {
                    let world = |k: usize| {
                        let (b, p) = (&spec.bodies[k], poses[k]);
                        let (s0, c0) = b.angle.sin_cos();
                        let d = [j.anchor[0] - b.position[0], j.anchor[1] - b.position[1]];
                        let local = [c0 * d[0] + s0 * d[1], -s0 * d[0] + c0 * d[1]];
                        let (s, c) = p[2].sin_cos();
                        [
                            p[0] + c * local[0] - s * local[1],
                            p[1] + s * local[0] + c * local[1],
                        ]
                    };
                    let (pa, pb) = (world(j.a), world(j.b));
                    ((pa[0] - pb[0]).powi(2) + (pa[1] - pb[1]).powi(2)).sqrt()
                })
                .fold(0.0, f64::max);
            line += &format!(", largest joint gap {gap:.2e} m");
        }
        Quality::Plain => {}
    }
    if let Some(rain) = rain {
        line += &rain.quality(engine);
    }
    if let Some((pass_ms, impacts, holds)) = engine.pass_counters() {
        line += &format!(
            "; continuous pass {:.2} ms/step, {impacts} impacts, {holds} holds",
            pass_ms / steps as f64
        );
    }
    line
}

/// An engine's stage line under its result, when asked for and when the engine has one.
fn print_stages(profile: bool, stages: &str) {
    if profile && !stages.is_empty() {
        println!("  {:13} stages (ms/step): {stages}", "");
    }
}

/// Each body's mass (kg) as sweep2d computes it from the spec's parts and densities.
fn masses(spec: &SceneSpec) -> Vec<f64> {
    let world = Sweep2d::from_spec(spec);
    world.masses()
}

/// The index of an engine's name in the suite's rows, if it is one of them.
pub fn engine_index(name: &str) -> Option<usize> {
    ENGINES.iter().position(|&e| e == name)
}

/// Runs the suite: every scene (or `only`) in the three engines (or in `engine` alone), `rounds`
/// times in rotating order, with `steps` overriding Box2D's step counts when given; `profile`
/// adds a line of each engine's own stage times (ms/step, the last round's) under its result.
pub fn run(
    rounds: usize,
    only: Option<&str>,
    steps: Option<usize>,
    engine: Option<usize>,
    profile: bool,
    threads: usize,
) {
    if threads > 1 {
        println!(
            "\n# Box2D's benchmark suite (sweep2d on {threads} threads, the peers on one; mean \
             wall-clock ms/step over steps 2..N, as Box2D's program)"
        );
    } else {
        println!(
            "\n# Box2D's benchmark suite (one core; mean ms/step over steps 2..N, as Box2D's program)"
        );
    }
    for make in scenes() {
        let scene = make();
        if only.is_some_and(|o| o != scene.name) {
            continue;
        }
        let steps = steps.unwrap_or(scene.steps);
        engines::set_peers_sleep(scene.sleep);
        let dynamic = scene
            .spec
            .bodies
            .iter()
            .filter(|b| b.kind == Kind::Dynamic)
            .count();
        println!(
            "\n## {} ({} bodies, {dynamic} dynamic, {} joints; {steps} steps, sleeping {}, {rounds} rounds)",
            scene.name,
            scene.spec.bodies.len(),
            scene.spec.joints.len(),
            if scene.sleep { "on" } else { "off" },
        );
        let mut times = vec![Vec::new(); ENGINES.len()];
        let mut lines = vec![String::new(); ENGINES.len()];
        let mut stage_lines = vec![String::new(); ENGINES.len()];
        for round in 0..rounds {
            for k in 0..ENGINES.len() {
                let which = (round + k) % ENGINES.len();
                if engine.is_some_and(|e| e != which) {
                    continue;
                }
                let built = Instant::now();
                let mut engine = make_engine(which, &scene.spec, threads);
                let build_ms = built.elapsed().as_secs_f64() * 1e3;
                let (ms, mut line, stages) = run_once(&scene, engine.as_mut(), steps);
                if let Some(log) = engines::box2d_log_summary() {
                    line = format!("{line}; {log}");
                }
                times[which].push(ms);
                lines[which] = format!("built in {build_ms:.0} ms; {line}");
                stage_lines[which] = stages;
            }
        }
        let median = |v: &[f64]| {
            let mut s = v.to_vec();
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        };
        if let Some(e) = engine {
            let m = median(&times[e]);
            println!("  {:13} {m:9.2} ms/step   {}", ENGINES[e], lines[e]);
            print_stages(profile, &stage_lines[e]);
            continue;
        }
        let box2d = median(&times[2]);
        for (e, name) in ENGINES.iter().enumerate() {
            let m = median(&times[e]);
            println!(
                "  {name:13} {m:9.2} ms/step   {:6.2}x Box2D   {}",
                m / box2d,
                lines[e]
            );
            print_stages(profile, &stage_lines[e]);
        }
    }
    engines::set_peers_sleep(false);
}

/// Rows of the asleep world's pyramid: 141 rows, 10,011 boxes.
const ASLEEP_ROWS: usize = 141;
/// Steps the asleep world runs before its asleep steps are timed (25 s: the pyramid has long
/// come to rest and, in each engine, fallen asleep).
const ASLEEP_SETTLE: usize = 1500;
/// Steps timed awake (after the untimed first) and asleep.
const ASLEEP_TIMED: usize = 200;

/// An asleep world of 10,000 bodies against its awake step: Box2D's pyramid of `ASLEEP_ROWS` rows
/// (its large pyramid's boxes and ground, 141 rows instead of 100) with sleeping on, in the three
/// engines. Each engine's mean ms/step over steps 2..=`ASLEEP_TIMED + 1` (awake: the pyramid has
/// not rested long enough to sleep), then over `ASLEEP_TIMED` steps after `ASLEEP_SETTLE` (asleep),
/// and the ratio of the two; `rounds` interleaved rounds, medians. The kinetic energy at the end
/// says whether everything slept (sleeping bodies report no velocity in the three engines).
pub fn run_asleep(rounds: usize) {
    let a = 0.5;
    let mut bodies = vec![ground(
        [0.0, -1.0],
        vec![offset_box(150.0, 1.0, [0.0, 0.0])],
    )];
    bodies.extend(pyramid(ASLEEP_ROWS, a, -a * ASLEEP_ROWS as f64, 0.0));
    let spec = spec(bodies, Vec::new());
    println!(
        "\n# An asleep world: a pyramid of {ASLEEP_ROWS} rows ({} boxes), sleeping on, one core \
         (mean ms/step awake over steps 2..{}, asleep over {ASLEEP_TIMED} steps after {ASLEEP_SETTLE}; \
         {rounds} rounds, medians)",
        spec.bodies.len() - 1,
        ASLEEP_TIMED + 1
    );
    engines::set_peers_sleep(true);
    let mut awake = vec![Vec::new(); ENGINES.len()];
    let mut asleep = vec![Vec::new(); ENGINES.len()];
    let mut energy = vec![0.0; ENGINES.len()];
    for round in 0..rounds {
        for k in 0..ENGINES.len() {
            let which = (round + k) % ENGINES.len();
            let mut engine = make_engine(which, &spec, 1);
            engine.step();
            let start = Instant::now();
            for _ in 0..ASLEEP_TIMED {
                engine.step();
            }
            awake[which].push(start.elapsed().as_secs_f64() * 1e3 / ASLEEP_TIMED as f64);
            for _ in ASLEEP_TIMED + 1..ASLEEP_SETTLE {
                engine.step();
            }
            let start = Instant::now();
            for _ in 0..ASLEEP_TIMED {
                engine.step();
            }
            asleep[which].push(start.elapsed().as_secs_f64() * 1e3 / ASLEEP_TIMED as f64);
            energy[which] = engine.state().kinetic_energy;
        }
    }
    let median = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        s[s.len() / 2]
    };
    for (e, name) in ENGINES.iter().enumerate() {
        let (on, off) = (median(&awake[e]), median(&asleep[e]));
        println!(
            "  {name:13} awake {on:8.3} ms/step   asleep {off:8.4} ms/step   {:6.2}% of awake   \
             kinetic energy at the end {:.3e} J",
            100.0 * off / on,
            energy[e]
        );
    }
    engines::set_peers_sleep(false);
}
