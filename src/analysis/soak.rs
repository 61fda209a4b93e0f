//! A soak: a long, busy, ever-changing scene for checking that nothing drifts into a broken
//! state over thousands of steps. A closed box (walls 0.5 m thick) holds a pile of mixed shapes,
//! a kinematic blade spinning through it, and a chain of capsules hanging from a hook; every
//! 25 steps a bullet (2–6 cm, 100–400 m/s, random direction) is fired from inside the box, and
//! the oldest bullets are removed so their number stays bounded. Each [`Soak::step`] checks that
//! every pose and velocity is finite (through [`World::try_step`]) and that no dynamic body has
//! left the box (which would mean it passed through a wall).
//!
//! Used by `tests/soak.rs` (a few thousand steps in CI) and `examples/soak.rs` (the long run).

use crate::dynamics::{BodyDef, BodyId, BodyKind, RevoluteJointDef};
use crate::math::{Real, Transform, Vec2};
use crate::shape::Shape;
use crate::world::{World, WorldConfig};
use std::collections::VecDeque;

/// Half extents of the box's interior (metres).
const INSIDE: Vec2 = Vec2::new(8.0, 6.0);
/// Most bullets alive at once; older ones are removed.
const MAX_BULLETS: usize = 40;
/// Steps between bullets.
const FIRE_EVERY: u64 = 25;

/// The soak scene and its bookkeeping (see the module notes).
#[derive(Clone, Debug)]
pub struct Soak {
    /// The world being soaked.
    pub world: World,
    /// Steps run so far.
    pub steps: u64,
    /// Bullets fired so far.
    pub fired: u64,
    bullets: VecDeque<BodyId>,
    rng: u64,
}

impl Soak {
    /// The scene with `shapes` mixed bodies (boxes, discs, capsules, hexagons, L pieces) and the
    /// random sequence of bullets given by `seed` (the same seed, the same run, bit for bit).
    #[must_use]
    pub fn new(seed: u64, shapes: usize) -> Soak {
        let mut world = World::new(WorldConfig::default());
        let wall = |world: &mut World, half: Vec2, at: Vec2| {
            world
                .add_body(BodyDef {
                    kind: BodyKind::Static,
                    shape: Shape::rectangle(half.x, half.y).expect("a valid wall"),
                    transform: Transform::new(at, 0.0),
                    ..BodyDef::default()
                })
                .expect("a valid wall")
        };
        let (w, h) = (INSIDE.x, INSIDE.y);
        wall(
            &mut world,
            Vec2::new(w + 1.0, 0.25),
            Vec2::new(0.0, -h - 0.25),
        );
        wall(
            &mut world,
            Vec2::new(w + 1.0, 0.25),
            Vec2::new(0.0, h + 0.25),
        );
        wall(&mut world, Vec2::new(0.25, h), Vec2::new(-w - 0.25, 0.0));
        wall(&mut world, Vec2::new(0.25, h), Vec2::new(w + 0.25, 0.0));
        // A blade spinning at 3 turns a second through the lower middle of the pile.
        world
            .add_body(BodyDef {
                kind: BodyKind::Kinematic,
                shape: Shape::rectangle(2.0, 0.1).expect("a valid blade"),
                transform: Transform::new(Vec2::new(0.0, -h + 2.5), 0.0),
                angular_velocity: 3.0 * std::f64::consts::TAU,
                ..BodyDef::default()
            })
            .expect("a valid blade");
        // A chain of eight capsule links hanging from a hook 0.8 m below the lid, right of
        // centre (so that a link swung up over the hook stays inside the box).
        let hook = wall(&mut world, Vec2::new(0.1, 0.1), Vec2::new(4.0, h - 0.8));
        let link = Shape::capsule(Vec2::new(0.0, -0.25), Vec2::new(0.0, 0.25), 0.06)
            .expect("a valid link");
        let mut above = hook;
        for k in 0..8 {
            let top = Vec2::new(4.0, h - 0.8 - 0.5 * k as Real);
            let id = world
                .add_body(BodyDef {
                    shape: link.clone(),
                    transform: Transform::new(top - Vec2::new(0.0, 0.25), 0.0),
                    ..BodyDef::default()
                })
                .expect("a valid link");
            world
                .add_joint(RevoluteJointDef::new(above, id, top))
                .expect("a valid pin");
            above = id;
        }
        let kinds = [
            Shape::rectangle(0.3, 0.2).expect("valid"),
            Shape::circle(0.25).expect("valid"),
            Shape::capsule(Vec2::new(-0.2, 0.0), Vec2::new(0.2, 0.0), 0.12).expect("valid"),
            Shape::regular_polygon(6, 0.28).expect("valid"),
            Shape::concave(&[
                Vec2::new(-0.3, -0.3),
                Vec2::new(0.3, -0.3),
                Vec2::new(0.3, -0.08),
                Vec2::new(-0.08, -0.08),
                Vec2::new(-0.08, 0.3),
                Vec2::new(-0.3, 0.3),
            ])
            .expect("valid"),
        ];
        let columns = 20;
        for i in 0..shapes {
            let (row, col) = (i / columns, i % columns);
            let x = -w + 0.6 + col as Real * (2.0 * w - 1.2) / columns as Real;
            let y = -h + 4.0 + row as Real * 0.75;
            world
                .add_body(BodyDef {
                    shape: kinds[i % kinds.len()].clone(),
                    transform: Transform::new(Vec2::new(x, y.min(h - 1.0)), 0.4 * i as Real),
                    ..BodyDef::default()
                })
                .expect("a valid body");
        }
        Soak {
            world,
            steps: 0,
            fired: 0,
            bullets: VecDeque::new(),
            rng: seed ^ 0x9e37_79b9_7f4a_7c15,
        }
    }

    /// A uniform number in [0, 1) (xorshift64*).
    fn uniform(&mut self) -> Real {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        (self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as Real / (1u64 << 53) as Real
    }

    /// Fires one bullet from a random point of the upper half of the box, removing the oldest
    /// when there are too many.
    fn fire(&mut self) {
        if self.bullets.len() >= MAX_BULLETS {
            if let Some(old) = self.bullets.pop_front() {
                self.world.remove_body(old).expect("a live bullet");
            }
        }
        let at = Vec2::new(
            (2.0 * self.uniform() - 1.0) * (INSIDE.x - 0.5),
            self.uniform() * (INSIDE.y - 0.5),
        );
        let dir = crate::math::unit_at(self.uniform() * std::f64::consts::TAU);
        let speed = 100.0 + 300.0 * self.uniform();
        let radius = 0.02 + 0.04 * self.uniform();
        let id = self
            .world
            .add_body(BodyDef {
                shape: Shape::circle(radius).expect("a valid bullet"),
                transform: Transform::new(at, 0.0),
                linear_velocity: dir * speed,
                density: 2000.0,
                restitution: 0.3,
                ..BodyDef::default()
            })
            .expect("a valid bullet");
        self.bullets.push_back(id);
        self.fired += 1;
    }

    /// One step and its checks: every pose and velocity finite, every dynamic body inside the
    /// box. The error says which check failed, for which body, at which step.
    pub fn step(&mut self) -> Result<(), String> {
        if self.steps.is_multiple_of(FIRE_EVERY) {
            self.fire();
        }
        self.world
            .try_step()
            .map_err(|e| format!("step {}: {e}", self.steps))?;
        self.steps += 1;
        for (id, b) in self.world.bodies() {
            if b.kind() != BodyKind::Dynamic {
                continue;
            }
            let c = b.transform().translation;
            if c.x.abs() > INSIDE.x + 0.25 || c.y.abs() > INSIDE.y + 0.25 {
                return Err(format!(
                    "step {}: body {:?} ({}) left the box: at ({:.3}, {:.3}), velocity {:?}",
                    self.steps,
                    id,
                    b.name().unwrap_or("unnamed"),
                    c.x,
                    c.y,
                    b.linear_velocity()
                ));
            }
        }
        Ok(())
    }
}
