//! Persistent contacts between body pairs and the narrow phase that refreshes their manifolds.
//!
//! A contact exists while two bodies' fat broad-phase boxes overlap. Each step it is given fresh
//! manifolds (one per overlapping pair of convex pieces) with every point within
//! [`SPECULATIVE_DISTANCE`]; points keep the impulses of last step's point with the same feature id
//! (warm starting). Two shortcuts skip the kernels: a touching pair that moved little keeps its
//! manifolds (*recycling*, after Box2D v3.1), and a pair found apart keeps its empty manifolds
//! while its motion stays under a lower bound of its gap less the margin (exact;
//! `docs/simulation.md`, "Pairs that stay apart").

use crate::constants::CONTACT_RECYCLE_COS_ANGLE;
use crate::constants::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use crate::dynamics::body::bodies_relative_velocity;
use crate::dynamics::body::{Body, PairFilter, Prediction};
use crate::dynamics::contact_math::MixingRule;
use crate::math::Vec2;
use crate::math::{Real, Rot, Transform};
use crate::query::{
    for_each_piece_pair, gap_lower_bound, local_manifold, time_of_impact_with, FeatureId,
    LocalManifold, Motion, ToiOptions, MAX_MANIFOLD_POINTS,
};
use smallvec::SmallVec;

/// Reference-face bias (metres) of the world's manifolds (Box2D's `0.1 * linear slop`): between
/// stacked boxes both faces separate equally, and a larger bias keeps the same face as reference
/// from step to step, so feature ids and warm starting survive. Measured on a 20-row pyramid: top
/// box drift 5.0 cm with the static query's bias, 1.6 cm with this one (a settle in the first
/// seconds, then still).
const SOLVER_REFERENCE_FACE_BIAS: Real = 0.1 * LINEAR_SLOP;

/// One manifold point, world frame.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ManifoldPoint {
    /// Offset from A's centre of mass to the point (metres, world orientation).
    pub anchor_a: Vec2,
    /// Offset from B's centre of mass to the point.
    pub anchor_b: Vec2,
    /// The point, halfway between the surfaces (world metres).
    pub point: Vec2,
    /// Signed gap along the normal (metres): negative when overlapping.
    pub separation: Real,
    /// Accumulated normal impulse (N·s), kept for warm starting.
    pub normal_impulse: Real,
    /// Accumulated friction impulse (N·s).
    pub tangent_impulse: Real,
    /// Every normal impulse the solver applied at the point over the last step (N·s, warm
    /// starts included): what contact-force events and `ContactData` report.
    pub total_normal_impulse: Real,
    pub id: FeatureId,
    /// Separation (metres) when the manifold was computed; a recycled point's separation is this
    /// plus how far its two material points have since moved apart along the normal.
    pub base_separation: Real,
}

/// The manifold of one pair of convex pieces.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct PieceManifold {
    pub piece_a: u16,
    pub piece_b: u16,
    /// Friction and restitution of the two pieces' shapes, mixed by the world's rules.
    pub friction: Real,
    pub restitution: Real,
    /// Unit normal from A toward B (world).
    pub normal: Vec2,
    pub points: [ManifoldPoint; MAX_MANIFOLD_POINTS],
    pub count: usize,
}

/// The world's rules for mixing two bodies' friction and restitution.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactMixing {
    pub friction: MixingRule,
    pub restitution: MixingRule,
}

/// A contact's manifolds, one per pair of pieces within the margin. The first is stored in the
/// contact itself (a pair of convex bodies has at most one), the others on the heap: every
/// stage that reads the manifolds (the narrow phase, the solver's gathering and scattering, the
/// sleep and the continuous pass's summaries) walks the contacts in order, and a manifold behind
/// a pointer of its own was a cache miss for each contact at each of them (about a quarter of
/// junkyard's step).
pub(crate) type Manifolds = SmallVec<[PieceManifold; 1]>;

/// A persistent contact between two bodies (slot indices `a < b`).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug)]
pub(crate) struct PairContact {
    pub a: u32,
    pub b: u32,
    pub manifolds: Manifolds,
    /// How the world mixes two shapes' friction and restitution.
    mixing: ContactMixing,
    /// How the two bodies' shapes are filtered (set by the world's pair update; never
    /// [`PairFilter::Never`] while the contact exists).
    pub filter: PairFilter,
    /// Touching as reported by events (with hysteresis: begins within `LINEAR_SLOP`, ends when no
    /// manifold point is left within the speculative distance).
    pub touching: bool,
    /// Some manifold point within the margin closes at least as fast as the restitution threshold
    /// at the start of the step, with restitution to apply, and the contact is not a sustained
    /// one (set by `update`): the pair did not touch at the start of the last step, or it did and
    /// bounced then (the continuous pass resolved it at its time: it bounced apart, and a ball
    /// between two close walls comes back within the speculative margin the next step), or it
    /// touched without pressure (a row of discs at rest, struck). A contact the solver pushed last
    /// step (resting, pushed, pressed) does not start a bounce. Every bounce is the continuous
    /// pass's impact, pairwise and in time order, with its restitution, and the solver leaves the
    /// contact out: an isolated bounce keeps its exact time (no time loss), and a bounce travels
    /// down a row of touching bodies (Newton's cradle) instead of being spread over the row by a
    /// simultaneous solve. A bounce is isolated: the step clears the flag when either dynamic
    /// body is pressed against a third by the solver (`world::step`, `list_bouncing`), since a
    /// body in a pile shares its blow with the bodies it presses on, and that is the solver's.
    pub bounce: bool,
    /// The speculative margin (metres) of the last update: the manifold keeps points whose gap is
    /// within it, so a pair with no points was farther apart than this at the start of the step.
    pub margin: Real,
    /// The poses the manifolds were computed at, for recycling them (see
    /// [`PairContact::update`]).
    computed_at: Option<ComputedAt>,
    /// How far (metres) the pair has moved since its manifold was computed when the manifold was
    /// recycled this step, else 0: a bound on how much a feature the manifold does not track can
    /// have closed in, which the continuous pass adds to the pair's overlap.
    pub recycled_motion: Real,
}

#[cfg(feature = "serde")]
impl PairContact {
    /// Checks a contact read from a snapshot between bodies `a` and `b` (its own two): its
    /// filter is one that keeps a contact, its margins are not negative, and every manifold names
    /// pieces the bodies have, holds at most [`MAX_MANIFOLD_POINTS`] points, has a unit normal
    /// and a mixed friction and restitution in their ranges; the poses it was computed at are
    /// rotations.
    pub(crate) fn check_restored(&self, a: &Body, b: &Body) -> Result<(), String> {
        use crate::constants::{MAX_FRICTION, MAX_RESTITUTION, ROTATION_TOLERANCE};
        if self.filter == PairFilter::Never {
            return Err("it is kept for a pair whose filter never collides".into());
        }
        if self.margin < 0.0 || self.recycled_motion < 0.0 {
            return Err("a negative margin or recycled motion".into());
        }
        let (pieces_a, pieces_b) = (a.piece_owner.len(), b.piece_owner.len());
        for (i, m) in self.manifolds.iter().enumerate() {
            let fault = if usize::from(m.piece_a) >= pieces_a || usize::from(m.piece_b) >= pieces_b
            {
                Some(format!(
                    "names pieces {} and {} of bodies with {pieces_a} and {pieces_b}",
                    m.piece_a, m.piece_b
                ))
            } else if m.count > MAX_MANIFOLD_POINTS {
                Some(format!(
                    "holds {} points (at most {MAX_MANIFOLD_POINTS})",
                    m.count
                ))
            } else if (m.normal.length() - 1.0).abs() > ROTATION_TOLERANCE {
                Some(format!("has a normal of length {}", m.normal.length()))
            } else if !(0.0..=MAX_FRICTION).contains(&m.friction)
                || !(0.0..=MAX_RESTITUTION).contains(&m.restitution)
            {
                Some(format!(
                    "has friction {} and restitution {}",
                    m.friction, m.restitution
                ))
            } else {
                None
            };
            if let Some(fault) = fault {
                return Err(format!("manifold {i} {fault}"));
            }
        }
        if let Some(at) = &self.computed_at {
            let unit = |r: Rot| (r.cos.hypot(r.sin) - 1.0).abs() <= ROTATION_TOLERANCE;
            if !(unit(at.relative.rotation) && unit(at.rotation_a) && unit(at.rotation_b)) {
                return Err("the poses its manifolds were computed at are not rotations".into());
            }
        }
        Ok(())
    }
}

/// The relative pose of B in A's frame and the two bodies' rotations when a contact's manifolds
/// were last computed.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug)]
struct ComputedAt {
    relative: Transform,
    rotation_a: Rot,
    rotation_b: Rot,
    /// The bodies' shape versions (see `Body::shape_version`) and the pair's filter then.
    versions: (u32, u32),
    filter: PairFilter,
    /// A lower bound (metres) of the gap between the two shapes then, when the manifolds came
    /// out empty for a pair already apart and nearly still (see [`PairContact::update`]); `-∞`
    /// otherwise.
    gap: Real,
}

/// Relative motion (metres) per update below which a pair whose manifolds came out empty twice in
/// a row has a lower bound of its gap computed, so that the next updates can keep the empty
/// manifolds while the pair stays apart (see [`PairContact::update`]). Pairs moving faster are
/// recomputed every step anyway, and would pay for the bound without using it.
const STILL_APART_MOTION: Real = 0.25 * SPECULATIVE_DISTANCE;

/// Slack (metres) the kept empty manifolds leave for rounding in the gap bound and the motion
/// bound (each a few `f64` operations on coordinates of at most `MAX_LENGTH`): far above their
/// error, far below any length the kernels resolve.
const GAP_ROUNDING: Real = 1e-9;

impl PairContact {
    /// A contact between bodies `a` and `b` (keys, `a < b`) whose shapes are filtered by
    /// `filter`, their materials mixed by the world's rules.
    pub fn new(a: u32, b: u32, filter: PairFilter, mixing: ContactMixing) -> Self {
        Self {
            a,
            b,
            manifolds: Manifolds::new(),
            mixing,
            filter,
            touching: false,
            bounce: false,
            margin: SPECULATIVE_DISTANCE,
            computed_at: None,
            recycled_motion: 0.0,
        }
    }

    /// Whether some manifold has restitution (its shapes bounce).
    pub fn bouncy(&self) -> bool {
        self.manifolds.iter().any(|m| m.restitution > 0.0)
    }

    /// Whether the manifolds were ever computed (a contact made between two bodies that were
    /// asleep from their creation has none yet).
    pub fn is_computed(&self) -> bool {
        self.computed_at.is_some()
    }

    /// Returns `true` if some manifold point exists.
    pub fn has_points(&self) -> bool {
        self.manifolds.iter().any(|m| m.count > 0)
    }

    /// The first manifold with points, if any.
    pub fn first_manifold(&self) -> Option<&PieceManifold> {
        self.manifolds.iter().find(|m| m.count > 0)
    }

    /// The smallest separation over all points (metres), or infinity.
    pub fn min_separation(&self) -> Real {
        self.manifolds
            .iter()
            .flat_map(|m| m.points[..m.count].iter().map(|p| p.separation))
            .fold(Real::INFINITY, Real::min)
    }

    /// Recomputes the manifolds at the bodies' current poses with points within `margin` metres
    /// (at least the speculative distance; more for pairs that close fast, so the solver sees
    /// them coming), carrying impulses over by feature id, and decides whether the pair bounces
    /// (see [`PairContact::bounce`]; `bounce_speed` is the world's restitution threshold, m/s).
    /// Returns (was touching, is touching) for the contact events.
    ///
    /// A touching pair of two convex bodies is *recycled* when its relative pose has moved less
    /// than `recycle_distance` (metres; one-point manifolds: also less than the speculative
    /// distance) and neither body has turned more than `acos(CONTACT_RECYCLE_COS_ANGLE)` since its
    /// manifold was computed, the motion measured as `|Δ(relative translation)| + reach ·
    /// |sin Δ(relative angle)|` (a bound on how far any point moved relative to the other body,
    /// as Box2D v3.1): the points keep their anchors and ids and only their separations are
    /// updated, from the material points' motion along the (kept) normal.
    ///
    /// A pair whose manifolds came out empty *stays apart* without a kernel call while it has
    /// moved less than its gap then (`ComputedAt::gap`, a lower bound, recorded for pairs apart
    /// twice in a row and moving less than `STILL_APART_MOTION`) exceeded `margin`: exact, since
    /// no point can have come within the margin.
    pub fn update(
        &mut self,
        ba: &Body,
        bb: &Body,
        margin: Real,
        bounce_speed: Real,
        recycle_distance: Real,
        predicted: Option<&Prediction>,
    ) -> (bool, bool) {
        self.margin = margin;
        // A pair that touched at the start of the last step, was the solver's then (not a bounce,
        // which is the continuous pass's impact) and was pushed by it (some point kept a normal impulse) is a
        // sustained contact (resting, pushed, pressed), which does not start a bounce. One the
        // pass resolved as an impact bounced apart (or was stopped) at its time and may have
        // come back (a ball between two close walls); one that touched without pressure (a row
        // of discs at rest) meets for real when a blow arrives (Newton's cradle).
        let sustained = self.touching && !self.bounce && self.pressed();
        if self.touching && self.recycle(ba, bb, recycle_distance) {
            // Still touching (the points are kept).
            self.bounce = !sustained && self.bouncy() && self.closing_speed(ba, bb) >= bounce_speed;
            return (true, true);
        }
        // A pair whose manifolds came out empty stays without points while it has moved less
        // than its gap then exceeded the margin by: no point of either shape can have come
        // within the margin of the other, so the kernels would find nothing again.
        let relative = ba.pose.inv_mul(&bb.pose);
        let apart_moved = self.moved_since_apart(ba, bb, &relative);
        self.recycled_motion = 0.0;
        if let (Some(moved), Some(at)) = (apart_moved, self.computed_at) {
            if moved + GAP_ROUNDING < at.gap - margin {
                self.bounce = false;
                return (false, false);
            }
        }
        self.computed_at = Some(ComputedAt {
            relative,
            rotation_a: ba.pose.rotation,
            rotation_b: bb.pose.rotation,
            versions: (ba.shape_version, bb.shape_version),
            filter: self.filter,
            gap: Real::NEG_INFINITY,
        });
        // Last step's manifolds, to carry their impulses over (warm starting). A contact of
        // several pieces' manifolds copies them into this thread's buffer and refills its own
        // list, which keeps its memory (no allocation per pair and step); one of a single
        // manifold (held inline) simply moves it out.
        if self.manifolds.spilled() {
            with_last_manifolds(|old| {
                old.extend_from_slice(&self.manifolds);
                self.manifolds.clear();
                self.compute_manifolds(ba, bb, margin, old);
            });
        } else {
            let old = std::mem::take(&mut self.manifolds);
            self.compute_manifolds(ba, bb, margin, &old);
        }
        if let Some(p) = predicted {
            self.drop_missed_speculation(ba, bb, p);
        }
        if self.manifolds.is_empty() && apart_moved.is_some_and(|m| m < STILL_APART_MOTION) {
            // Apart for a second update and nearly still: bound the gap, so that the next
            // updates can keep these empty manifolds (above).
            let gap = gap_lower_bound(&ba.com_shape, &ba.pose, &bb.com_shape, &bb.pose);
            if let Some(at) = self.computed_at.as_mut() {
                at.gap = gap;
            }
        }
        let was = self.touching;
        self.touching = if was {
            self.has_points()
        } else {
            self.min_separation() <= LINEAR_SLOP
        };
        self.bounce = !sustained && self.bouncy() && self.closing_speed(ba, bb) >= bounce_speed;
        (was, self.touching)
    }

    /// Fills the (empty) manifolds with those of every pair of pieces within `margin` metres at
    /// the bodies' poses, carrying impulses over from `old` (last step's) by feature id.
    fn compute_manifolds(&mut self, ba: &Body, bb: &Body, margin: Real, old: &[PieceManifold]) {
        let (filter, mixing, fresh) = (self.filter, self.mixing, &mut self.manifolds);
        for_each_piece_pair(
            &ba.com_shape,
            &ba.pose,
            &bb.com_shape,
            &bb.pose,
            margin,
            &mut |sa, xa, sb, xb, ia, ib| {
                if filter == PairFilter::Pieces && !ba.pieces_collide(ia, bb, ib) {
                    return;
                }
                let Some(m) = local_manifold(sa, xa, sb, xb, margin, SOLVER_REFERENCE_FACE_BIAS)
                else {
                    return;
                };
                // A contact on a chain's segment at an interior vertex that is not the segment's
                // face: the neighbouring segment carries it (ghost-collision removal).
                let n = xa.transform_vector(m.normal);
                let points = || {
                    m.points[..m.count]
                        .iter()
                        .map(|p| xa.transform_point(p.point))
                };
                if is_ghost(&ba.com_shape, ia, sa, xa, n, points())
                    || is_ghost(&bb.com_shape, ib, sb, xb, -n, points())
                {
                    return;
                }
                let pm = piece_manifold((ba, ia), (bb, ib), xa, &m, mixing, old, margin);
                if pm.count > 0 {
                    fresh.push(pm);
                }
            },
        );
    }

    /// Drops the manifolds when every point is speculative (farther apart than the slop), the
    /// bodies' predicted motions (`p`: what they do if nothing pushes them, over this step and the
    /// next) close some point past its gap along the
    /// normal (so the solver would push there), and those motions never bring the bodies within
    /// the slop of each other: such points would only stop a motion that misses (a ball passing a
    /// box's corner, stopped along the corner's normal: a *ghost* collision). The time of impact
    /// decides (exact for translation, never late with rotation, so a pair that may meet keeps its
    /// points). A pair the solver then pushes into each other anyway has no points and is the
    /// continuous pass's (`docs/continuous.md`, "The speculative margin").
    fn drop_missed_speculation(&mut self, ba: &Body, bb: &Body, p: &Prediction) {
        if self.manifolds.is_empty() || self.min_separation() <= LINEAR_SLOP {
            return;
        }
        let (ma, mb) = (ba.predicted_motion(p), bb.predicted_motion(p));
        // Points the predicted motion does not close (to first order) stop nothing unless
        // something else pushes the pair, which is what they are for: kept without a query.
        let moved = |m: &Motion, r: Vec2| m.linear + m.angular * Vec2::new(-r.y, r.x);
        let active = self.manifolds.iter().any(|m| {
            m.points[..m.count].iter().any(|point| {
                let closing =
                    -(moved(&mb, point.anchor_b) - moved(&ma, point.anchor_a)).dot(m.normal);
                closing > point.separation
            })
        });
        if !active {
            return;
        }
        let options = ToiOptions {
            target_separation: LINEAR_SLOP,
            ..ToiOptions::default()
        };
        let meets = match time_of_impact_with(&ba.com_shape, &ma, &bb.com_shape, &mb, &options) {
            Ok(hit) => hit.is_some(),
            Err(_) => true,
        };
        if !meets {
            // Without points, the continuous pass reads `margin` as a gap the pair is known to
            // exceed (it trusts the solver with a pair that cannot close that far). These points
            // were within the margin, so the margin comes down to a lower bound of the gap itself.
            let gap = gap_lower_bound(&ba.com_shape, &ba.pose, &bb.com_shape, &bb.pose);
            self.margin = self.margin.min(gap.max(0.0));
            self.manifolds.clear();
        }
    }

    /// When the last computation gave no manifold (the pair was apart) for the same shapes and
    /// filter: a bound (metres) on how far any point of either body has moved relative to the
    /// other since then, the smaller of `|Δt| + c·reach` measured in either body's frame (`t` the
    /// other's centre of mass there, `c = 2|sin(Δθ/2)|` the chord of the relative turn), given
    /// `relative`, B's pose in A's frame now. `None` otherwise.
    fn moved_since_apart(&self, ba: &Body, bb: &Body, relative: &Transform) -> Option<Real> {
        let at = self.computed_at?;
        if !self.manifolds.is_empty()
            || at.versions != (ba.shape_version, bb.shape_version)
            || at.filter != self.filter
        {
            return None;
        }
        let turn = at.relative.rotation.inv_mul_rot(relative.rotation);
        // |R(Δθ) − I| = 2|sin(Δθ/2)|, from both components (accurate for tiny turns too).
        let chord = Vec2::new(1.0 - turn.cos, turn.sin).length();
        let b_in_a = (relative.translation - at.relative.translation).length() + chord * bb.reach;
        let a_in_b = (relative.inverse().translation - at.relative.inverse().translation).length()
            + chord * ba.reach;
        Some(b_in_a.min(a_in_b))
    }

    /// Recycles the manifold if the pair moved little enough since it was computed (see
    /// [`PairContact::update`]); returns whether it did.
    fn recycle(&mut self, ba: &Body, bb: &Body, recycle_distance: Real) -> bool {
        let Some(at) = self.computed_at else {
            return false;
        };
        if at.versions != (ba.shape_version, bb.shape_version) || at.filter != self.filter {
            return false; // shapes or filters changed: compute afresh
        }
        let kinematic = |b: &Body| b.kind == crate::dynamics::BodyKind::Kinematic;
        if recycle_distance <= 0.0 || kinematic(ba) || kinematic(bb) || self.manifolds.is_empty() {
            return false;
        }
        let (turn_a, turn_b) = (
            at.rotation_a.inv_mul_rot(ba.pose.rotation),
            at.rotation_b.inv_mul_rot(bb.pose.rotation),
        );
        if turn_a.cos.min(turn_b.cos) <= CONTACT_RECYCLE_COS_ANGLE {
            return false;
        }
        let relative = ba.pose.inv_mul(&bb.pose);
        let turn = at.relative.rotation.inv_mul_rot(relative.rotation);
        let reach = |b: &Body| {
            if b.kind == crate::dynamics::BodyKind::Static {
                0.0
            } else {
                b.reach
            }
        };
        let moved = (relative.translation - at.relative.translation).length()
            + reach(ba).max(reach(bb)) * turn.sin.abs();
        // A face contact of two convex shapes (a two-point manifold) may move the whole recycle
        // distance: the shapes' other features are far from it. Anything else (a one-point
        // contact, compounds, whose pieces may bring a new pair into reach) only within the
        // speculative distance, inside which a feature the manifold does not track cannot have
        // come from beyond the margin.
        let face_contact = ba.com_shape.is_convex()
            && bb.com_shape.is_convex()
            && self.manifolds.len() == 1
            && self.manifolds[0].count == 2;
        let tolerance = if face_contact {
            recycle_distance
        } else {
            recycle_distance.min(SPECULATIVE_DISTANCE)
        };
        if moved >= tolerance {
            return false;
        }
        // Anchors are kept as they were (world orientation at the computation, as Box2D): the
        // material points are found by turning them with each body, their separation measured
        // along the kept normal.
        self.recycled_motion = moved;
        let centres = bb.pose.translation - ba.pose.translation;
        for m in &mut self.manifolds {
            for p in &mut m.points[..m.count] {
                let (ra, rb) = (turn_a.rotate(p.anchor_a), turn_b.rotate(p.anchor_b));
                p.separation = p.base_separation + (centres + rb - ra).dot(m.normal);
                p.point = ba.pose.translation + ra;
            }
        }
        true
    }

    /// Whether some manifold point carries a normal impulse (N·s) from the last solve.
    fn pressed(&self) -> bool {
        self.normal_impulse() > 0.0
    }

    /// The normal impulse (N·s) the manifold points carry from the last solve, in all (each is
    /// clamped at 0 or above, so the sum is positive exactly when some point was pushed).
    fn normal_impulse(&self) -> Real {
        self.manifolds
            .iter()
            .flat_map(|m| m.points[..m.count].iter().map(|p| p.normal_impulse))
            .sum()
    }

    /// Whether the solver pressed the two bodies together at the last step: the normal impulse
    /// of the contact's points (carried over by feature by `update`), acting on the two masses
    /// alone, would change their relative velocity by more than `SUPPORT_SPEED`. A body lying on
    /// the ground takes `g·dt` (0.17 m/s at 60 Hz); two discs laid exactly touching take the
    /// round-off of their push-out, which does not press them. `inverse_masses` gives the sum of
    /// the two bodies' inverse masses (1/kg), asked for only when some point was pushed.
    pub(crate) fn supports(&self, inverse_masses: impl FnOnce() -> Real) -> bool {
        let impulse = self.normal_impulse();
        impulse > 0.0 && impulse * inverse_masses() > SUPPORT_SPEED
    }

    /// The fastest approach over the manifold points (m/s, positive when closing), from the
    /// bodies' velocities at the start of the step.
    fn closing_speed(&self, ba: &Body, bb: &Body) -> Real {
        self.manifolds
            .iter()
            .flat_map(|m| {
                m.points[..m.count].iter().map(move |p| {
                    -bodies_relative_velocity(ba, p.anchor_a, bb, p.anchor_b).dot(m.normal)
                })
            })
            .fold(Real::NEG_INFINITY, Real::max)
    }
}

/// Change of relative velocity (m/s) past which a contact's last normal impulse counts as the
/// solver pressing its bodies together (`PairContact::supports`): far below a resting load
/// (`g·dt`, 0.17 m/s at 60 Hz), far above round-off.
pub(crate) const SUPPORT_SPEED: Real = 1e-3;

/// Largest `1 − n·f` (unit normal against a segment's face normal) that still counts as the face:
/// 0.1 rad. A body resting on a chain is tilted by a hair, and its manifold may take the body's own
/// face as reference (its normal off the segment's by that tilt); a ghost normal at a vertex is
/// off by far more (a sliding box's side face, 90°).
const FACE_TOLERANCE: Real = 0.005;

/// Largest sine of the angle by which a neighbour may fall away from a segment's line and still
/// count as flush with it.
const FLUSH_TOLERANCE: Real = 1e-9;

thread_local! {
    /// Last step's manifolds of the contact being updated, when it has several (see
    /// `PairContact::update`), kept per thread so that updates allocate none.
    static LAST_MANIFOLDS: std::cell::RefCell<Vec<PieceManifold>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's empty buffer for last step's manifolds (a fresh one if a caller
/// up the stack holds it).
fn with_last_manifolds(f: impl FnOnce(&mut Vec<PieceManifold>)) {
    LAST_MANIFOLDS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut old) => {
            old.clear();
            f(&mut old);
        }
        Err(_) => f(&mut Vec::new()),
    });
}

/// The manifold of piece `ia` of body `ba` and piece `ib` of body `bb` from the kernel's
/// manifold `m` (in the frame of A's piece, placed at `xa`): its points within `margin` metres
/// in the world, anchored at each body's centre of mass, their materials mixed by `mixing`, and
/// the impulses of last step's points with the same feature ids (in `old`) carried over.
#[inline]
fn piece_manifold(
    (ba, ia): (&Body, usize),
    (bb, ib): (&Body, usize),
    xa: &Transform,
    m: &LocalManifold,
    mixing: ContactMixing,
    old: &[PieceManifold],
    margin: Real,
) -> PieceManifold {
    let (da, db) = (ba.piece_shape(ia), bb.piece_shape(ib));
    let mut pm = PieceManifold {
        piece_a: ia as u16,
        piece_b: ib as u16,
        friction: mixing.friction.mix(da.friction, db.friction),
        restitution: mixing.restitution.mix(da.restitution, db.restitution),
        normal: xa.transform_vector(m.normal),
        ..Default::default()
    };
    let previous = old
        .iter()
        .find(|o| o.piece_a == pm.piece_a && o.piece_b == pm.piece_b);
    for p in &m.points[..m.count] {
        if p.separation > margin {
            continue;
        }
        let world = xa.transform_point(p.point);
        let mut mp = ManifoldPoint {
            anchor_a: world - ba.pose.translation,
            anchor_b: world - bb.pose.translation,
            point: world,
            separation: p.separation,
            normal_impulse: 0.0,
            tangent_impulse: 0.0,
            total_normal_impulse: 0.0,
            id: p.id,
            base_separation: p.separation,
        };
        if let Some(prev) = previous.and_then(|o| o.points[..o.count].iter().find(|q| q.id == p.id))
        {
            mp.normal_impulse = prev.normal_impulse;
            mp.tangent_impulse = prev.tangent_impulse;
        }
        pm.points[pm.count] = mp;
        pm.count += 1;
    }
    pm
}

/// Whether a manifold on piece `piece` of `shape` (the convex piece `seg`, at world pose `x`), with
/// unit normal `n` from the piece toward the other shape and world points `points`, is a *ghost*:
/// the piece is a chain segment, the normal is not its face normal, the contact is at an end of
/// the segment that joins a neighbour, and that neighbour continues flush or rises toward the other
/// shape (a flat or concave vertex), or the corner is convex and the normal lies beyond the
/// neighbour's face normal. The neighbour's own manifold carries such a contact (as Box2D's chain
/// segments do with their ghost vertices), so a body sliding across the vertex does not catch on
/// it. Chains are two-sided: the side is the other shape's.
pub(crate) fn is_ghost(
    shape: &crate::shape::Shape,
    piece: usize,
    seg: &crate::shape::Shape,
    x: &Transform,
    n: Vec2,
    points: impl Iterator<Item = Vec2>,
) -> bool {
    let crate::shape::Shape::Compound(c) = shape else {
        return false;
    };
    let Some(link) = c.pieces()[piece].link else {
        return false;
    };
    let crate::shape::Shape::Capsule(seg) = seg else {
        return false;
    };
    let (a, b) = (x.transform_point(seg.a()), x.transform_point(seg.b()));
    let length = a.distance(b);
    let d = (b - a) / length;
    let left = Vec2::new(-d.y, d.x);
    let side = if left.dot(n) >= 0.0 { 1.0 } else { -1.0 };
    let face = side * left;
    if n.dot(face) >= 1.0 - FACE_TOLERANCE {
        return false;
    }
    // The end the contact is at.
    let (sum, count) = points.fold((Vec2::ZERO, 0.0), |(s, k), p| (s + p, k + 1.0));
    if count == 0.0 {
        return false;
    }
    let at_start = (sum / count - a).dot(d) < 0.5 * length;
    let (vertex, neighbour) = if at_start {
        (a, link.prev)
    } else {
        (b, link.next)
    };
    let Some(g) = neighbour.map(|g| x.transform_point(g)) else {
        return false; // an open end of the chain: a real corner
    };
    if (g - vertex).dot(face) >= -FLUSH_TOLERANCE * vertex.distance(g) {
        return true; // flush or concave: only the faces touch
    }
    // Convex: the neighbour's face normal on the same side of the chain (the chain's left side
    // runs on across the vertex), and the cone between the two faces is the vertex's own.
    let travel = if at_start { a - g } else { g - b }.normalize();
    let neighbour_face = side * Vec2::new(-travel.y, travel.x);
    let turn = face.perp_dot(neighbour_face);
    !(face.perp_dot(n) * turn >= 0.0 && n.perp_dot(neighbour_face) * turn >= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constants::CONTACT_RECYCLE_DISTANCE;
    use crate::dynamics::body::build_body;
    use crate::{BodyDef, BodyKind, Shape, WorldConfig};

    fn body(kind: BodyKind, shape: Shape, x: Real, y: Real, angle: Real) -> Body {
        let def = BodyDef {
            kind,
            shape,
            transform: Transform::new(Vec2::new(x, y), angle),
            ..BodyDef::default()
        };
        build_body(def, "test").expect("a valid body")
    }

    /// What a fresh contact (no history) finds for the pair at its current poses.
    fn fresh(ba: &Body, bb: &Body, margin: Real) -> bool {
        let mixing = WorldConfig::default().mixing();
        let mut c = PairContact::new(0, 1, PairFilter::All, mixing);
        c.update(ba, bb, margin, 1.0, CONTACT_RECYCLE_DISTANCE, None);
        c.has_points()
    }

    /// A pair found apart twice keeps its empty manifolds without a kernel call while it has
    /// moved less than its gap bound less the margin, and is computed afresh (finding its points)
    /// past that: on every pose of the approach it agrees with a contact computed from scratch.
    #[test]
    fn a_pair_apart_skips_the_kernels_only_while_its_gap_bound_holds() {
        let margin = SPECULATIVE_DISTANCE;
        for (case, (shape_b, turn)) in [
            (Shape::rectangle(0.5, 0.5).unwrap(), 0.0),
            (Shape::rectangle(0.3, 0.5).unwrap(), 0.2),
            (Shape::circle(0.4).unwrap(), 0.0),
            (
                Shape::capsule(Vec2::new(0.0, -0.3), Vec2::new(0.0, 0.3), 0.2).unwrap(),
                0.1,
            ),
        ]
        .into_iter()
        .enumerate()
        {
            let ground = body(
                BodyKind::Static,
                Shape::rectangle(0.5, 0.5).unwrap(),
                0.0,
                0.0,
                0.0,
            );
            // B starts 6 cm right of the ground box's right face (at its extent along x).
            let extent_x = |b: &Body| {
                b.com_shape
                    .aabb(&Transform::new(Vec2::ZERO, b.pose.angle()))
                    .max
                    .x
            };
            let mut b = body(BodyKind::Dynamic, shape_b, 0.0, 0.0, turn);
            let start = 0.5 + extent_x(&b) + 0.06;
            b.pose = Transform::new(Vec2::new(start, 0.0), turn);
            let mixing = WorldConfig::default().mixing();
            let mut c = PairContact::new(0, 1, PairFilter::All, mixing);
            let recycle = CONTACT_RECYCLE_DISTANCE;
            for _ in 0..2 {
                c.update(&ground, &b, margin, 1.0, recycle, None);
                assert!(!c.has_points());
            }
            let at = c.computed_at.expect("computed");
            assert!(
                at.gap > 0.05 && at.gap <= 0.06 + 1e-12,
                "a lower bound of the 6 cm gap: {}",
                at.gap
            );
            // Approach in 1 mm steps: the kept answer always matches a fresh one, the kernels are
            // skipped while the bound holds, and the first points appear within the margin.
            let mut skipped = 0;
            let mut found = false;
            for k in 1..=60 {
                b.pose = Transform::new(Vec2::new(start - 0.001 * k as Real, 0.0), turn);
                let before = c.computed_at.map(|a| a.relative.translation);
                c.update(&ground, &b, margin, 1.0, recycle, None);
                assert_eq!(
                    c.has_points(),
                    fresh(&ground, &b, margin),
                    "case {case} at step {k}"
                );
                if c.computed_at.map(|a| a.relative.translation) == before {
                    skipped += 1;
                }
                found |= c.has_points();
            }
            assert!(
                skipped >= 40,
                "case {case}: only {skipped} updates skipped the kernels"
            );
            assert!(found, "case {case}: the pair came within the margin");
        }
    }

    /// A ball passing a box's corner: its speculative points are dropped as ghosts (its predicted
    /// path never comes within the slop), and the contact's margin then bounds the gap the pair
    /// had from below, since the continuous pass reads a contact without points as a pair
    /// farther apart than its margin. Checked against the exact gap (ball centre to corner, less
    /// the radius) over misses of 6 mm to 10 cm, speeds of 2 to 500 m/s and starts 1 to 20 cm
    /// before the closest approach.
    #[test]
    fn a_ghost_pair_keeps_a_margin_below_its_gap() {
        let dt = 1.0 / 60.0;
        let prediction = Prediction {
            dt,
            horizon: 2.0 * dt,
            gravity: Vec2::ZERO,
        };
        let (r, half) = (0.1, 0.5);
        let corner = Vec2::new(half, half);
        let heading = Vec2::new(1.0, -1.0).normalize();
        let outward = Vec2::new(1.0, 1.0).normalize();
        let ground = body(
            BodyKind::Static,
            Shape::rectangle(half, half).unwrap(),
            0.0,
            0.0,
            0.0,
        );
        let mut dropped = 0;
        for miss in [0.006, 0.01, 0.03, 0.1] {
            for speed in [2.0, 5.0, 20.0, 100.0, 500.0] {
                for before in [0.01, 0.05, 0.2] {
                    let centre = corner + outward * (r + miss) - heading * before;
                    let mut ball = body(
                        BodyKind::Dynamic,
                        Shape::circle(r).unwrap(),
                        centre.x,
                        centre.y,
                        0.0,
                    );
                    ball.linear_velocity = heading * speed;
                    let gap = (centre - corner).length() - r;
                    let margin = SPECULATIVE_DISTANCE
                        + ground.predicted_relative_motion(&ball, dt, Vec2::ZERO);
                    let mixing = WorldConfig::default().mixing();
                    let mut c = PairContact::new(0, 1, PairFilter::All, mixing);
                    c.update(
                        &ground,
                        &ball,
                        margin,
                        1.0,
                        CONTACT_RECYCLE_DISTANCE,
                        Some(&prediction),
                    );
                    if gap < margin && !c.has_points() {
                        dropped += 1;
                        assert!(
                            c.margin <= gap + 1e-12,
                            "miss {miss}, {speed} m/s, {before} m before: margin {} over the \
                             gap {gap}",
                            c.margin
                        );
                    }
                }
            }
        }
        // Most cases are ghosts (a slow ball far before the corner is not yet within reach).
        assert!(
            dropped >= 40,
            "only {dropped} of 60 cases were dropped as ghosts"
        );
    }
}
