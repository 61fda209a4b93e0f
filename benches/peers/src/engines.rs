//! The three engines behind one interface: build a [`SceneSpec`], step, read the state.
//!
//! * sweep2d: the scene's own world (cloned, so construction is never timed).
//! * Rapier (`rapier2d-f64`): one rigid body per body, one collider per convex part, `ccd_enabled`
//!   on every dynamic body, `num_solver_iterations` = the scene's substeps.
//! * Box2D v3 (`boxdd`, f32 unless the `box2d-f64` feature is on): one body per body, one shape per
//!   part, the scene's substeps, one worker; its continuous collision against static bodies is
//!   always on, `bullet` marks fast dynamic bodies where a scene asks for it.

use crate::spec::{BodySpec, FilterSpec, JointSpec, Kind, Part, SceneSpec};

/// What the quality line reports after a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct State {
    /// Total kinetic energy of the dynamic bodies (J).
    pub kinetic_energy: f64,
    /// Lowest dynamic body origin (m).
    pub lowest_y: f64,
    /// Position of the tracked body's origin (m) and its angle (rad), if the scene tracks one.
    pub tracked: Option<[f64; 3]>,
}

/// An engine running one scene.
pub trait Engine {
    /// Advances one fixed step.
    fn step(&mut self);
    /// The state the quality line reports.
    fn state(&mut self) -> State;
    /// Every body's origin (m) and linear velocity (m/s), in the scene's order.
    fn bodies(&mut self) -> Vec<([f64; 2], [f64; 2])>;
    /// Every body's origin (m) and angle (rad), in the scene's order.
    fn poses(&mut self) -> Vec<[f64; 3]>;
    /// Body `index`'s angular velocity (rad/s).
    fn angular_velocity(&mut self, index: usize) -> f64;
    /// Drives kinematic body `index` at linear velocity `v` (m/s) and angular velocity `w`
    /// (rad/s) from now on.
    fn drive(&mut self, index: usize, v: [f64; 2], w: f64);
    /// sweep2d's own counters since the engine was built: (continuous pass ms, impacts, holds);
    /// `None` for the peers.
    fn pass_counters(&self) -> Option<(f64, usize, usize)> {
        None
    }
    /// The engine's own per-stage times (ms), summed over the steps since the last
    /// [`Engine::reset_profile`], with their names in the engine's words; empty when the engine
    /// does not profile its stages (Rapier here).
    fn stage_profile(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
    /// Starts the stage sums again (after the untimed first step).
    fn reset_profile(&mut self) {}
    /// Adds `bodies` and the `joints` between them (body indices into `bodies`) to the running
    /// world, as a group; returns the group's number. The bodies are not part of the scene's
    /// order ([`Engine::bodies`], [`Engine::poses`]); [`Engine::state`] counts them.
    fn spawn(&mut self, bodies: &[BodySpec], joints: &[JointSpec]) -> usize;
    /// Removes group `group`'s bodies (and their joints) from the world.
    fn despawn(&mut self, group: usize);
    /// Group `group`'s body origins (m) and angles (rad), in its bodies' order.
    fn group_poses(&mut self, group: usize) -> Vec<[f64; 3]>;
}

/// Folds one dynamic body into a [`State`].
fn fold(state: &mut State, kinetic: f64, y: f64) {
    state.kinetic_energy += kinetic;
    state.lowest_y = state.lowest_y.min(y);
}

fn empty_state() -> State {
    State {
        kinetic_energy: 0.0,
        lowest_y: f64::INFINITY,
        tracked: None,
    }
}

// ---------------------------------------------------------------------------------------------
// sweep2d

/// sweep2d's world.
pub struct Sweep2d {
    world: sweep2d::World,
    tracked: Vec<sweep2d::BodyId>,
    /// Where the steps run: the calling thread (rayon's global pool of one thread), or a pool of
    /// several threads (sweep2d's `parallel` feature).
    pool: Option<rayon::ThreadPool>,
    /// The bodies in the scene's order (a world built from a spec).
    ids: Vec<sweep2d::BodyId>,
    /// Continuous-pass milliseconds, impacts and holds summed over the steps run.
    counters: (f64, usize, usize),
    /// The world's stage profile summed since the last `reset_profile`.
    stages: sweep2d::StepProfile,
    /// Spawned groups' bodies (an empty list once removed).
    groups: Vec<Vec<sweep2d::BodyId>>,
}

impl Sweep2d {
    pub fn new(scene: &sweep2d::analysis::scenes::Scene) -> Self {
        let mut world = scene.world.clone();
        let mut config = *world.config();
        config.sleep = peers_sleep();
        world.set_config(config).expect("a valid config");
        let ids = world.bodies().map(|(id, _)| id).collect();
        Self {
            world,
            tracked: scene.tracked.clone(),
            pool: None,
            ids,
            counters: (0.0, 0, 0),
            stages: sweep2d::StepProfile::default(),
            groups: Vec::new(),
        }
    }

    /// A world built from a neutral description (the Box2D suite's scenes): one body per body
    /// spec, its parts as shapes in the body frame, revolute joints with their motors. A body
    /// without parts (a ground that only anchors a joint) gets a small disc that collides with
    /// nothing. Bodies marked asleep (smash's wall) are created asleep when sleeping is on, as in
    /// the peers.
    pub fn from_spec(spec: &SceneSpec) -> Self {
        use sweep2d::{Vec2, WorldConfig};
        let v = |p: &[f64; 2]| Vec2::new(p[0], p[1]);
        let mut world = sweep2d::World::new(WorldConfig {
            gravity: v(&spec.gravity),
            dt: spec.dt,
            substeps: spec.substeps,
            sleep: peers_sleep(),
            ..WorldConfig::default()
        });
        let mut ids = Vec::with_capacity(spec.bodies.len());
        let mut tracked = Vec::new();
        for b in &spec.bodies {
            let id = sweep2d_body(&mut world, b);
            if b.tracked {
                tracked.push(id);
            }
            ids.push(id);
        }
        for j in &spec.joints {
            sweep2d_joint(&mut world, &ids, j);
        }
        Self {
            world,
            tracked,
            pool: None,
            ids,
            counters: (0.0, 0, 0),
            stages: sweep2d::StepProfile::default(),
            groups: Vec::new(),
        }
    }

    /// Every body's mass (kg), in the scene's order.
    pub fn masses(&self) -> Vec<f64> {
        self.ids
            .iter()
            .map(|&id| self.world.body(id).map_or(0.0, |b| b.mass()))
            .collect()
    }

    /// This engine stepped on a rayon pool of `threads` threads (its `parallel` feature), or on
    /// the calling thread when `threads` is 1.
    pub fn on_threads(mut self, threads: usize) -> Self {
        if threads > 1 {
            self.pool = Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("a thread pool"),
            );
        }
        self
    }

    /// The scene stepped on a rayon pool of `threads` threads.
    pub fn with_threads(scene: &sweep2d::analysis::scenes::Scene, threads: usize) -> Self {
        Self::new(scene).on_threads(threads)
    }
}

/// sweep2d's filter for a spec's (`None`: collide with everything).
fn sweep2d_filter(f: Option<FilterSpec>) -> sweep2d::Filter {
    f.map_or(sweep2d::Filter::DEFAULT, |f| sweep2d::Filter {
        category: f.category,
        mask: f.mask,
        group: f.group,
    })
}

/// sweep2d's shape for a spec's part.
fn sweep2d_shape(part: &Part) -> sweep2d::Shape {
    use sweep2d::{Shape, Vec2};
    let v = |p: &[f64; 2]| Vec2::new(p[0], p[1]);
    match part {
        Part::Circle { center, radius } => {
            assert!(
                center[0] == 0.0 && center[1] == 0.0,
                "the suite's discs are centred on their bodies"
            );
            Shape::circle(*radius)
        }
        Part::Capsule { a, b, radius } => Shape::capsule(v(a), v(b), *radius),
        Part::Polygon { points, radius } => {
            let pts: Vec<Vec2> = points.iter().map(v).collect();
            if *radius > 0.0 {
                Shape::rounded_polygon(&pts, *radius)
            } else {
                Shape::polygon(&pts)
            }
        }
        Part::Segment { a, b } => Shape::segment(v(a), v(b)),
        Part::Chain { points, closed } => {
            let pts: Vec<Vec2> = points.iter().map(v).collect();
            Shape::chain(&pts, *closed)
        }
    }
    .expect("the suite's shapes are valid")
}

/// Adds one body of a spec to a sweep2d world: its parts as shapes in the body frame. A body
/// without parts (a ground that only anchors a joint) gets a small disc that collides with
/// nothing. A body marked asleep (smash's wall) is created asleep when sleeping is on, as in the
/// peers.
fn sweep2d_body(world: &mut sweep2d::World, b: &BodySpec) -> sweep2d::BodyId {
    use sweep2d::{BodyDef, Filter, Shape, ShapeDef, Transform, Vec2};
    let v = |p: &[f64; 2]| Vec2::new(p[0], p[1]);
    let (first, friction, filter) = match b.parts.first() {
        Some(p) => {
            let (friction, filter) = b.material_of(0);
            (sweep2d_shape(p), friction, sweep2d_filter(filter))
        }
        None => (
            Shape::circle(0.01).expect("a radius"),
            b.friction,
            Filter {
                category: 0,
                mask: 0,
                group: 0,
            },
        ),
    };
    let id = world
        .add_body(BodyDef {
            kind: match b.kind {
                Kind::Static => sweep2d::BodyKind::Static,
                Kind::Kinematic => sweep2d::BodyKind::Kinematic,
                Kind::Dynamic => sweep2d::BodyKind::Dynamic,
            },
            shape: first,
            transform: Transform::new(v(&b.position), b.angle),
            linear_velocity: v(&b.velocity),
            angular_velocity: b.angular_velocity,
            density: b.density,
            friction,
            restitution: b.restitution,
            filter,
            linear_damping: b.linear_damping,
            awake: !(b.asleep && peers_sleep()),
            ..Default::default()
        })
        .expect("a valid body");
    // (The other parts at once: a body's shapes are combined once, not once per part.)
    let extra = b.parts.iter().enumerate().skip(1).map(|(i, part)| {
        let (friction, filter) = b.material_of(i);
        ShapeDef {
            shape: sweep2d_shape(part),
            density: b.density,
            friction,
            restitution: b.restitution,
            filter: sweep2d_filter(filter),
            ..Default::default()
        }
    });
    world.add_shapes(id, extra).expect("valid shapes");
    // The spec gives the velocity of the body's origin (Box2D's convention); sweep2d's is its
    // centre of mass's, known once every shape is in: the same motion, so a turning drum built of
    // many shapes turns about its origin as in the peers.
    if b.angular_velocity != 0.0 && b.kind != Kind::Static {
        let body = world.body(id).expect("the body just made");
        let com = body
            .transform()
            .transform_point(body.local_center_of_mass());
        let arm = com - v(&b.position);
        let at_com = v(&b.velocity) + b.angular_velocity * arm.perp();
        world
            .set_velocity(id, at_com, b.angular_velocity)
            .expect("a valid velocity");
    }
    id
}

/// Adds a spec's revolute joint between bodies `ids[j.a]` and `ids[j.b]` to a sweep2d world.
fn sweep2d_joint(world: &mut sweep2d::World, ids: &[sweep2d::BodyId], j: &JointSpec) {
    let anchor = sweep2d::Vec2::new(j.anchor[0], j.anchor[1]);
    let mut def = sweep2d::RevoluteJointDef::new(ids[j.a], ids[j.b], anchor);
    if let Some((speed, torque)) = j.motor {
        def.enable_motor = true;
        def.motor_speed = speed;
        def.max_motor_torque = torque.min(sweep2d::constants::MAX_FORCE);
    }
    if let Some((lower, upper)) = j.limit {
        def.enable_limit = true;
        def.lower_angle = lower;
        def.upper_angle = upper;
    }
    if let Some((hertz, damping_ratio)) = j.spring {
        def.enable_spring = true;
        def.hertz = hertz;
        def.damping_ratio = damping_ratio;
    }
    world.add_joint(def).expect("a valid joint");
}

/// Whether the engines may put resting bodies to sleep (`--sleep`). Off by default, so that every
/// engine simulates every body on every step.
static PEERS_SLEEP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Lets the peers sleep (or not) in the engines built from now on.
pub fn set_peers_sleep(sleep: bool) {
    PEERS_SLEEP.store(sleep, std::sync::atomic::Ordering::Relaxed);
}

/// See [`set_peers_sleep`].
pub fn peers_sleep() -> bool {
    PEERS_SLEEP.load(std::sync::atomic::Ordering::Relaxed)
}

impl Engine for Sweep2d {
    fn step(&mut self) {
        match &self.pool {
            Some(pool) => pool.install(|| self.world.step()),
            None => self.world.step(),
        }
        let events = self.world.events();
        self.counters.0 += self.world.profile().continuous;
        self.stages.accumulate(self.world.profile());
        self.counters.1 += events.impacts.len();
        self.counters.2 += events.held.len();
    }

    fn angular_velocity(&mut self, index: usize) -> f64 {
        self.world
            .body(self.ids[index])
            .map_or(0.0, |b| b.angular_velocity())
    }

    fn drive(&mut self, index: usize, v: [f64; 2], w: f64) {
        self.world
            .set_velocity(self.ids[index], sweep2d::Vec2::new(v[0], v[1]), w)
            .expect("a valid velocity");
    }

    fn pass_counters(&self) -> Option<(f64, usize, usize)> {
        Some(self.counters)
    }

    fn stage_profile(&self) -> Vec<(&'static str, f64)> {
        let p = &self.stages;
        vec![
            ("pairs", p.pairs),
            ("narrow", p.narrow),
            ("solve", p.solve),
            ("continuous", p.continuous),
            ("refit", p.refit),
            (
                "other",
                p.total - (p.pairs + p.narrow + p.solve + p.continuous + p.refit),
            ),
        ]
    }

    fn reset_profile(&mut self) {
        self.stages = sweep2d::StepProfile::default();
    }

    fn spawn(&mut self, bodies: &[BodySpec], joints: &[JointSpec]) -> usize {
        let ids: Vec<_> = bodies
            .iter()
            .map(|b| sweep2d_body(&mut self.world, b))
            .collect();
        for j in joints {
            sweep2d_joint(&mut self.world, &ids, j);
        }
        self.groups.push(ids);
        self.groups.len() - 1
    }

    fn despawn(&mut self, group: usize) {
        for id in std::mem::take(&mut self.groups[group]) {
            self.world.remove_body(id).expect("a live body");
        }
    }

    fn group_poses(&mut self, group: usize) -> Vec<[f64; 3]> {
        self.groups[group]
            .iter()
            .map(|&id| {
                let t = self.world.body(id).expect("a live body").transform();
                [t.translation.x, t.translation.y, t.angle()]
            })
            .collect()
    }

    fn state(&mut self) -> State {
        let mut s = empty_state();
        for (id, b) in self.world.bodies() {
            if b.kind() != sweep2d::BodyKind::Dynamic {
                continue;
            }
            let p = b.transform().translation;
            fold(&mut s, b.kinetic_energy(), p.y);
            if self.tracked.first() == Some(&id) {
                s.tracked = Some([p.x, p.y, b.transform().rotation.angle()]);
            }
        }
        s
    }

    fn bodies(&mut self) -> Vec<([f64; 2], [f64; 2])> {
        self.ids
            .iter()
            .map(|&id| {
                let b = self.world.body(id).expect("a live body");
                let (p, v) = (b.transform().translation, b.linear_velocity());
                ([p.x, p.y], [v.x, v.y])
            })
            .collect()
    }

    fn poses(&mut self) -> Vec<[f64; 3]> {
        self.ids
            .iter()
            .map(|&id| {
                let t = self.world.body(id).expect("a live body").transform();
                [t.translation.x, t.translation.y, t.angle()]
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Rapier

/// Rapier's world.
pub struct Rapier {
    world: rapier2d_f64::pipeline::PhysicsWorld,
    tracked: Option<rapier2d_f64::dynamics::RigidBodyHandle>,
    handles: Vec<rapier2d_f64::dynamics::RigidBodyHandle>,
    /// Spawned groups' bodies (an empty list once removed).
    groups: Vec<Vec<rapier2d_f64::dynamics::RigidBodyHandle>>,
}

impl Rapier {
    pub fn new(spec: &SceneSpec) -> Self {
        use rapier2d_f64::prelude::*;
        let mut world = PhysicsWorld::new();
        world.gravity = Vector::new(spec.gravity[0], spec.gravity[1]);
        world.integration_parameters.dt = spec.dt;
        world.integration_parameters.num_solver_iterations = spec.substeps as usize;
        let mut tracked = None;
        let mut handles = Vec::new();
        for b in &spec.bodies {
            let handle = rapier_body(&mut world, b);
            handles.push(handle);
            if b.tracked {
                tracked = Some(handle);
            }
        }
        for j in &spec.joints {
            rapier_joint(&mut world, &handles, &spec.bodies, j);
        }
        Self {
            world,
            tracked,
            handles,
            groups: Vec::new(),
        }
    }
}

/// The first of the Rapier membership bits that stand for category 2 in a negative group
/// (`rapier_groups`).
const RAPIER_GROUP_BIT: u32 = 8;

/// Rapier's interaction groups for a spec's filter. Rapier's groups are 32 bits and have no
/// group index: the suite's categories fit, and a negative group (rain's ragdolls: category 2,
/// groups −1 to −5) is given as one membership bit per group standing for category 2 of that
/// group, which every mask with category 2 includes except the group's own. So two parts of one
/// negative group never collide, parts of different groups do, as in Box2D.
fn rapier_groups(f: FilterSpec) -> rapier2d_f64::prelude::InteractionGroups {
    use rapier2d_f64::prelude::*;
    let all_groups: u32 = 0xFFFF << RAPIER_GROUP_BIT;
    let own = (f.group < 0).then(|| {
        let g = f.group.unsigned_abs();
        assert!(
            (1..=16).contains(&g) && f.category == 2,
            "the suite's negative groups are -1 to -16 in category 2"
        );
        1u32 << (RAPIER_GROUP_BIT + g - 1)
    });
    let mut membership = f.category as u32;
    let mut filter = f.mask as u32;
    if let Some(bit) = own {
        membership = bit;
    }
    if filter & 2 != 0 {
        filter = (filter & !2) | (all_groups & !own.unwrap_or(0));
    }
    InteractionGroups::new(
        Group::from_bits_truncate(membership),
        Group::from_bits_truncate(filter),
        InteractionTestMode::And,
    )
}

/// Adds one body of a spec to a Rapier world: a rigid body and a collider per part.
fn rapier_body(
    world: &mut rapier2d_f64::pipeline::PhysicsWorld,
    b: &BodySpec,
) -> rapier2d_f64::dynamics::RigidBodyHandle {
    use rapier2d_f64::prelude::*;
    let builder = match b.kind {
        Kind::Static => RigidBodyBuilder::fixed(),
        Kind::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
        Kind::Dynamic => RigidBodyBuilder::dynamic().ccd_enabled(true),
    };
    let body = builder
        .can_sleep(peers_sleep())
        .sleeping(b.asleep && peers_sleep())
        .translation(Vector::new(b.position[0], b.position[1]))
        .rotation(b.angle)
        .linvel(Vector::new(b.velocity[0], b.velocity[1]))
        .angvel(b.angular_velocity)
        .linear_damping(b.linear_damping)
        .build();
    let handle = world.insert_body(body);
    for (i, part) in b.parts.iter().enumerate() {
        let (friction, filter) = b.material_of(i);
        let mut collider = rapier_collider(part)
            .density(b.density)
            .friction(friction)
            .restitution(b.restitution);
        if let Some(f) = filter {
            collider = collider.collision_groups(rapier_groups(f));
        }
        world.insert_collider(collider, Some(handle));
    }
    handle
}

/// Adds a spec's revolute joint to a Rapier world: the anchor in each body's frame (Rapier's local
/// frames are the body frames), `bodies` being the specs `handles` were built from. A motor is a
/// velocity motor at full strength capped at its torque. Rapier has one motor per joint axis, so a
/// spring (rain's ragdolls) is that motor driven to the joint's starting angle, with Rapier's
/// acceleration-based stiffness `ω²` and damping `2ζω` (`ω = 2π·hertz`), uncapped; the spring's
/// friction torque (a motor at speed 0 in Box2D) is then left out.
fn rapier_joint(
    world: &mut rapier2d_f64::pipeline::PhysicsWorld,
    handles: &[rapier2d_f64::dynamics::RigidBodyHandle],
    bodies: &[BodySpec],
    j: &JointSpec,
) {
    use rapier2d_f64::prelude::*;
    let (a, b, p) = (j.a, j.b, j.anchor);
    let local = |k: usize| {
        let body = &bodies[k];
        let (s, c) = body.angle.sin_cos();
        let d = [p[0] - body.position[0], p[1] - body.position[1]];
        Vector::new(c * d[0] + s * d[1], -s * d[0] + c * d[1])
    };
    let mut joint = RevoluteJointBuilder::new()
        .local_anchor1(local(a))
        .local_anchor2(local(b));
    if let Some((hertz, damping_ratio)) = j.spring {
        let omega = 2.0 * std::f64::consts::PI * hertz;
        joint = joint.motor_position(0.0, omega * omega, 2.0 * damping_ratio * omega);
    } else if let Some((speed, torque)) = j.motor {
        joint = joint.motor_velocity(speed, 1.0).motor_max_force(torque);
    }
    if let Some((lower, upper)) = j.limit {
        joint = joint.limits([lower, upper]);
    }
    world.insert_impulse_joint(handles[a], handles[b], joint);
}

fn rapier_collider(part: &Part) -> rapier2d_f64::geometry::ColliderBuilder {
    use rapier2d_f64::prelude::*;
    let v = |p: &[f64; 2]| Vector::new(p[0], p[1]);
    match part {
        Part::Circle { center, radius } => ColliderBuilder::ball(*radius).translation(v(center)),
        Part::Capsule { a, b, radius } => {
            ColliderBuilder::capsule_from_endpoints(v(a), v(b), *radius)
        }
        Part::Polygon { points, radius }
            if *radius == 0.0 && axis_aligned_box(points).is_some() =>
        {
            // Rapier's own box shape (its cuboid–cuboid manifold), as a Rapier user would build it.
            let (center, half) = axis_aligned_box(points).expect("checked");
            ColliderBuilder::cuboid(half[0], half[1]).translation(v(&center))
        }
        Part::Polygon { points, radius } => {
            let pts: Vec<Vector> = points.iter().map(v).collect();
            let built = if *radius > 0.0 {
                ColliderBuilder::round_convex_hull(&pts, *radius)
            } else {
                ColliderBuilder::convex_hull(&pts)
            };
            built.expect("sweep2d's polygons are convex and non-degenerate")
        }
        Part::Segment { a, b } => ColliderBuilder::segment(v(a), v(b)),
        Part::Chain { points, closed } => {
            let n = points.len() as u32;
            let ends = if *closed { n } else { n - 1 };
            let indices = (0..ends).map(|i| [i, (i + 1) % n]).collect();
            ColliderBuilder::polyline(points.iter().map(v).collect(), Some(indices))
        }
    }
}

/// The centre and half extents of a polygon that is an axis-aligned rectangle, else `None`.
fn axis_aligned_box(points: &[[f64; 2]]) -> Option<([f64; 2], [f64; 2])> {
    if points.len() != 4 {
        return None;
    }
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in points {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let on_corner = |p: &[f64; 2]| (0..2).all(|k| p[k] == lo[k] || p[k] == hi[k]);
    points.iter().all(on_corner).then(|| {
        (
            [0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1])],
            [0.5 * (hi[0] - lo[0]), 0.5 * (hi[1] - lo[1])],
        )
    })
}

impl Engine for Rapier {
    fn step(&mut self) {
        self.world.step();
    }

    fn spawn(&mut self, bodies: &[BodySpec], joints: &[JointSpec]) -> usize {
        let handles: Vec<_> = bodies
            .iter()
            .map(|b| rapier_body(&mut self.world, b))
            .collect();
        for j in joints {
            rapier_joint(&mut self.world, &handles, bodies, j);
        }
        self.groups.push(handles);
        self.groups.len() - 1
    }

    fn despawn(&mut self, group: usize) {
        for h in std::mem::take(&mut self.groups[group]) {
            self.world.remove_body(h).expect("a live body");
        }
    }

    fn group_poses(&mut self, group: usize) -> Vec<[f64; 3]> {
        self.groups[group]
            .iter()
            .map(|&h| {
                let b = &self.world.bodies[h];
                let p = b.translation();
                [p.x, p.y, b.rotation().angle()]
            })
            .collect()
    }

    fn angular_velocity(&mut self, index: usize) -> f64 {
        self.world.bodies[self.handles[index]].angvel()
    }

    fn drive(&mut self, index: usize, v: [f64; 2], w: f64) {
        use rapier2d_f64::prelude::Vector;
        let body = &mut self.world.bodies[self.handles[index]];
        body.set_linvel(Vector::new(v[0], v[1]), true);
        body.set_angvel(w, true);
    }

    fn state(&mut self) -> State {
        let mut s = empty_state();
        for (handle, b) in self.world.bodies.iter() {
            if !b.is_dynamic() {
                continue;
            }
            let v = b.linvel();
            let w = b.angvel();
            let inertia = b.mass_properties().effective_angular_inertia();
            let kinetic = 0.5 * b.mass() * v.length_squared() + 0.5 * inertia * w * w;
            let p = b.translation();
            fold(&mut s, kinetic, p.y);
            if Some(handle) == self.tracked {
                s.tracked = Some([p.x, p.y, b.rotation().angle()]);
            }
        }
        s
    }

    fn bodies(&mut self) -> Vec<([f64; 2], [f64; 2])> {
        self.handles
            .iter()
            .map(|&h| {
                let b = &self.world.bodies[h];
                let (p, v) = (b.translation(), b.linvel());
                ([p.x, p.y], [v.x, v.y])
            })
            .collect()
    }

    fn poses(&mut self) -> Vec<[f64; 3]> {
        self.handles
            .iter()
            .map(|&h| {
                let b = &self.world.bodies[h];
                let p = b.translation();
                [p.x, p.y, b.rotation().angle()]
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Box2D

/// Box2D v3's world (through `boxdd`).
pub struct Box2d {
    world: boxdd::World,
    bodies: Vec<(boxdd::BodyId, bool)>,
    dt: f32,
    substeps: i32,
    /// Box2D's own stage profile (`b2World_GetProfile`, ms) summed since the last
    /// `reset_profile`: step, pairs, collide, solver setup, constraints (the solver's stages,
    /// with the continuous collision of non-bullet bodies, which Box2D runs as it finalizes
    /// bodies), refit, bullets, island sleep.
    stages: [f64; 8],
    /// Spawned groups' bodies (an empty list once removed).
    groups: Vec<Vec<boxdd::BodyId>>,
}

/// Box2D's log lines since the last `box2d_log_summary`: how many, and the first.
static BOX2D_LOG: std::sync::Mutex<(usize, String)> = std::sync::Mutex::new((0, String::new()));

fn record_box2d_log(message: &str) {
    let mut log = BOX2D_LOG.lock().unwrap_or_else(|e| e.into_inner());
    if log.0 == 0 {
        log.1 = message.trim().to_string();
    }
    log.0 += 1;
}

/// What Box2D logged since the last call (`None`: nothing): the count and the first line.
pub fn box2d_log_summary() -> Option<String> {
    let mut log = BOX2D_LOG.lock().unwrap_or_else(|e| e.into_inner());
    let (count, first) = std::mem::take(&mut *log);
    (count > 0).then(|| format!("Box2D logged {count} lines, the first \"{first}\""))
}

impl Box2d {
    /// `bullet(body)` says which dynamic bodies get Box2D's `isBullet` (continuous collision
    /// against dynamic bodies too).
    pub fn new(spec: &SceneSpec, bullet: impl Fn(&BodySpec) -> bool) -> Self {
        use boxdd::{Foundation, WorldBuilder};
        // Box2D's log goes to `box2d_log_summary` instead of the terminal (a heap overflows its
        // pair buffer every step, one line each time). The foundation is process-wide: set up by
        // the first world, reused by the others (a second set-up with a new hook is refused).
        let foundation = Foundation::get().unwrap_or_else(|| {
            let config = boxdd::FoundationConfig::default().with_log_hook(std::sync::Arc::new(
                |message: &str| record_box2d_log(message),
            ));
            Foundation::initialize(config).expect("Box2D initialises")
        });
        let g = boxdd::Vec2::new(spec.gravity[0] as f32, spec.gravity[1] as f32);
        // Box2D clamps speeds at `maximumLinearSpeed` (4 m per step at 60 Hz by default); a user
        // firing faster bullets raises it, and so does this benchmark, to twice the fastest body.
        let fastest = spec
            .bodies
            .iter()
            .map(|b| (b.velocity[0] * b.velocity[0] + b.velocity[1] * b.velocity[1]).sqrt())
            .fold(0.0, f64::max) as f32;
        let base = foundation.world_def();
        let max_speed = base.maximum_linear_speed().max(2.0 * fastest);
        let def = WorldBuilder::from(base)
            .enable_sleep(peers_sleep())
            .gravity(g)
            .maximum_linear_speed(max_speed)
            .build()
            .expect("a valid Box2D world definition");
        let mut world = foundation.create_world(def).expect("Box2D creates a world");
        let mut bodies = Vec::new();
        for b in &spec.bodies {
            let id = box2d_body(&mut world, b, b.kind == Kind::Dynamic && bullet(b));
            bodies.push((id, b.tracked));
        }
        let ids: Vec<_> = bodies.iter().map(|&(id, _)| id).collect();
        for j in &spec.joints {
            box2d_joint(&mut world, &ids, j);
        }
        Self {
            world,
            bodies,
            dt: spec.dt as f32,
            substeps: spec.substeps as i32,
            stages: [0.0; 8],
            groups: Vec::new(),
        }
    }
}

/// Box2D's filter for a spec's.
fn box2d_filter(f: FilterSpec) -> boxdd::Filter {
    boxdd::Filter {
        category_bits: f.category,
        mask_bits: f.mask,
        group_index: f.group,
    }
}

/// Adds one body of a spec to a Box2D world: a body and a shape per part (`bullet`: Box2D's
/// `isBullet`).
fn box2d_body(world: &mut boxdd::World, b: &BodySpec, bullet: bool) -> boxdd::BodyId {
    use boxdd::{BodyBuilder, BodyType, Foundation, Position, WorldScalar};
    let foundation = Foundation::get().expect("Box2D is set up by the first world");
    let kind = match b.kind {
        Kind::Static => BodyType::Static,
        Kind::Kinematic => BodyType::Kinematic,
        Kind::Dynamic => BodyType::Dynamic,
    };
    let def = BodyBuilder::from(foundation.body_def())
        .body_type(kind)
        .position(Position::new(
            b.position[0] as WorldScalar,
            b.position[1] as WorldScalar,
        ))
        .angle(b.angle as f32)
        .linear_velocity(boxdd::Vec2::new(b.velocity[0] as f32, b.velocity[1] as f32))
        .angular_velocity(b.angular_velocity as f32)
        .linear_damping(b.linear_damping as f32)
        .bullet(bullet)
        .awake(!(b.asleep && peers_sleep()))
        .build()
        .expect("a valid Box2D body definition");
    let id = world.create_body(def).expect("Box2D creates a body");
    let mut body = world.body(id).expect("the body just created");
    for (i, part) in b.parts.iter().enumerate() {
        let (friction, filter) = b.material_of(i);
        let material = boxdd::SurfaceMaterial::new()
            .with_friction(friction as f32)
            .and_then(|m| m.with_restitution(b.restitution as f32))
            .expect("valid Box2D material");
        let mut shape_def = boxdd::ShapeDef::builder()
            .density(b.density as f32)
            .material(material);
        if let Some(f) = filter {
            shape_def = shape_def.filter(box2d_filter(f));
        }
        let shape_def = shape_def.build().expect("a valid Box2D shape definition");
        let v = |p: &[f64; 2]| boxdd::Vec2::new(p[0] as f32, p[1] as f32);
        let made = match part {
            Part::Circle { center, radius } => boxdd::shapes::circle(v(center), *radius as f32)
                .and_then(|c| body.create_circle(&shape_def, &c))
                .map(drop),
            Part::Capsule { a, b, radius } => boxdd::shapes::capsule(v(a), v(b), *radius as f32)
                .and_then(|c| body.create_capsule(&shape_def, &c))
                .map(drop),
            // Box2D's own box (`b2MakeOffsetBox`) for rectangles: its hull routine welds the
            // corners of a thin wall (1 cm) as a user of `b2MakeBox` never sees.
            Part::Polygon { points, radius }
                if *radius == 0.0 && axis_aligned_box(points).is_some() =>
            {
                let (c, h) = axis_aligned_box(points).expect("checked");
                boxdd::Transform::from_pos_angle(v(&c), 0.0)
                    .and_then(|x| boxdd::shapes::offset_box_polygon(h[0] as f32, h[1] as f32, x))
                    .and_then(|p| body.create_polygon(&shape_def, &p))
                    .map(drop)
            }
            Part::Polygon { points, radius } => {
                boxdd::shapes::polygon_from_points(points.iter().map(v), *radius as f32)
                    .and_then(|p| body.create_polygon(&shape_def, &p))
                    .map(drop)
            }
            Part::Segment { a, b } => boxdd::shapes::segment(v(a), v(b))
                .and_then(|s| body.create_segment(&shape_def, &s))
                .map(drop),
            Part::Chain { points, closed } => {
                let mut chain = boxdd::shapes::chain::ChainDef::builder()
                    .points(points.iter().map(v))
                    .is_loop(*closed)
                    .single_material(&material);
                if let Some(f) = filter {
                    chain = chain.filter(box2d_filter(f));
                }
                let def = chain.build().expect("a valid Box2D chain");
                body.create_chain(&def).map(drop)
            }
        };
        made.expect("Box2D accepts sweep2d's convex parts");
    }
    id
}

/// Adds a spec's revolute joint between bodies `ids[j.a]` and `ids[j.b]` to a Box2D world.
fn box2d_joint(world: &mut boxdd::World, ids: &[boxdd::BodyId], j: &JointSpec) {
    use boxdd::{Position, WorldScalar};
    let anchor = Position::new(j.anchor[0] as WorldScalar, j.anchor[1] as WorldScalar);
    let mut joint = world.revolute(ids[j.a], ids[j.b]).anchor_world(anchor);
    if let Some((speed, torque)) = j.motor {
        joint = joint.motor(torque.min(f64::from(f32::MAX)) as f32, speed as f32);
    }
    if let Some((lower, upper)) = j.limit {
        joint = joint.limit(lower as f32, upper as f32);
    }
    if let Some((hertz, damping_ratio)) = j.spring {
        joint = joint.spring(hertz as f32, damping_ratio as f32);
    }
    joint.build().expect("Box2D creates a revolute joint");
}

impl Engine for Box2d {
    fn angular_velocity(&mut self, index: usize) -> f64 {
        let body = self.world.body(self.bodies[index].0).expect("a live body");
        f64::from(body.angular_velocity().expect("angular velocity"))
    }

    fn drive(&mut self, index: usize, v: [f64; 2], w: f64) {
        let mut body = self.world.body(self.bodies[index].0).expect("a live body");
        body.set_linear_velocity(boxdd::Vec2::new(v[0] as f32, v[1] as f32))
            .expect("a velocity");
        body.set_angular_velocity(w as f32)
            .expect("an angular velocity");
    }

    fn step(&mut self) {
        // The step's events are not needed: drop them at once.
        drop(
            self.world
                .step(self.dt, self.substeps)
                .expect("Box2D steps"),
        );
        let p = self.world.profile().expect("Box2D's profile");
        let parts = [
            p.step,
            p.pairs,
            p.collide,
            p.solver_setup,
            p.constraints,
            p.refit,
            p.bullets,
            p.sleep_islands,
        ];
        for (sum, part) in self.stages.iter_mut().zip(parts) {
            *sum += f64::from(part);
        }
    }

    fn stage_profile(&self) -> Vec<(&'static str, f64)> {
        let [step, pairs, collide, setup, constraints, refit, bullets, sleep] = self.stages;
        let named = pairs + collide + setup + constraints + refit + bullets + sleep;
        vec![
            ("pairs", pairs),
            ("collide", collide),
            ("solver setup", setup),
            ("constraints", constraints),
            ("refit", refit),
            ("bullets", bullets),
            ("sleep", sleep),
            ("other", step - named),
        ]
    }

    fn reset_profile(&mut self) {
        self.stages = [0.0; 8];
    }

    fn spawn(&mut self, bodies: &[BodySpec], joints: &[JointSpec]) -> usize {
        let ids: Vec<_> = bodies
            .iter()
            .map(|b| box2d_body(&mut self.world, b, false))
            .collect();
        for j in joints {
            box2d_joint(&mut self.world, &ids, j);
        }
        self.groups.push(ids);
        self.groups.len() - 1
    }

    fn despawn(&mut self, group: usize) {
        for id in std::mem::take(&mut self.groups[group]) {
            self.world
                .body(id)
                .expect("a live body")
                .destroy()
                .expect("Box2D destroys a body");
        }
    }

    fn group_poses(&mut self, group: usize) -> Vec<[f64; 3]> {
        self.groups[group]
            .iter()
            .map(|&id| {
                let body = self.world.body(id).expect("a live body");
                let p = body.position().expect("position");
                let angle = body.rotation().expect("rotation").angle();
                [p.x as f64, p.y as f64, f64::from(angle)]
            })
            .collect()
    }

    fn state(&mut self) -> State {
        let mut s = empty_state();
        let spawned = self.groups.iter().flatten().map(|&id| (id, false));
        for (id, tracked) in self.bodies.iter().copied().chain(spawned) {
            let body = self.world.body(id).expect("a live body");
            if body.body_type().expect("a body type") != boxdd::BodyType::Dynamic {
                continue;
            }
            let v = body.linear_velocity().expect("velocity");
            let w = f64::from(body.angular_velocity().expect("angular velocity"));
            let m = f64::from(body.mass().expect("mass"));
            // Box2D's rotational inertia is about the centre of mass.
            let i = f64::from(body.rotational_inertia().expect("inertia"));
            let (vx, vy) = (f64::from(v.x), f64::from(v.y));
            let kinetic = 0.5 * m * (vx * vx + vy * vy) + 0.5 * i * w * w;
            let p = body.position().expect("position");
            let (x, y) = (p.x as f64, p.y as f64);
            fold(&mut s, kinetic, y);
            if tracked {
                let angle = body.rotation().expect("rotation").angle();
                s.tracked = Some([x, y, f64::from(angle)]);
            }
        }
        s
    }

    fn bodies(&mut self) -> Vec<([f64; 2], [f64; 2])> {
        self.bodies
            .iter()
            .map(|&(id, _)| {
                let body = self.world.body(id).expect("a live body");
                let p = body.position().expect("position");
                let v = body.linear_velocity().expect("velocity");
                ([p.x as f64, p.y as f64], [f64::from(v.x), f64::from(v.y)])
            })
            .collect()
    }

    fn poses(&mut self) -> Vec<[f64; 3]> {
        self.bodies
            .iter()
            .map(|&(id, _)| {
                let body = self.world.body(id).expect("a live body");
                let p = body.position().expect("position");
                let angle = body.rotation().expect("rotation").angle();
                [p.x as f64, p.y as f64, f64::from(angle)]
            })
            .collect()
    }
}
