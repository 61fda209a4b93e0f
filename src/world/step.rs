//! One fixed step of the world.
//!
//! ```text
//! 1. pairs      new candidate pairs for bodies whose broad-phase box moved; pairs whose boxes
//!               separated are dropped (contact-end events)
//! 2. narrow     manifolds at the start poses, points within SPECULATIVE_DISTANCE, warm-start
//!               impulses matched by feature id (contact-begin/end events)
//! 3. solve      soft-step solver over dt: velocities (gravity, forces, damping), contacts,
//!               positions; gives each body its motion x0 → x1 over the step
//! 4. continuous time of impact for every pair that could meet unseen by step 2 (a "fast" body
//!               against everything its swept box reaches, dynamic or not); impacts processed in
//!               time order with re-sweeps, so no body loses the rest of its step (`continuous.rs`)
//! 5. refit      broad-phase boxes at the final poses
//! ```
//!
//! Why the solver runs before the continuous pass: the solver decides where each body actually goes
//! this step (contacts push, friction drags), and the continuous pass then guards exactly that
//! motion. Pairs within the speculative distance at the start are the solver's (its speculative
//! constraint lets them close the gap, no more); every other pair is the continuous pass's.

use super::{TreeKind, World};
use crate::constants::{AABB_MARGIN, SPECULATIVE_DISTANCE};
use crate::dynamics::contact::PairContact;
use crate::dynamics::solver::{
    BodyState, ConstraintPoint, ContactConstraint, ContactSolver, SoftStepSolver, SolverSettings,
};
use crate::dynamics::{BodyId, BodyKind};
use crate::math::{Aabb, Real, Transform};
use crate::query::MAX_MANIFOLD_POINTS;
use crate::world::events::{ContactBegin, ContactEnd};

impl World {
    pub(crate) fn step_once(&mut self) {
        for slot in &mut self.slots {
            if let Some(b) = slot.body.as_mut() {
                b.previous_pose = b.pose;
            }
        }
        self.update_pairs();
        self.narrow_phase();
        let angles = self.solve();
        if self.config.continuous {
            self.continuous_pass(&angles);
        }
        self.scratch.angles = angles;
        self.refit_proxies();
        for slot in &mut self.slots {
            if let Some(b) = slot.body.as_mut() {
                b.force = crate::math::Vec2::ZERO;
                b.torque = 0.0;
            }
        }
        self.time += self.config.dt;
        self.step_count += 1;
    }

    pub(crate) fn id_of(&self, index: u32) -> BodyId {
        BodyId {
            index,
            generation: self.slots[index as usize].generation,
        }
    }

    pub(crate) fn fat_box(&self, index: u32) -> Option<Aabb> {
        let (tree, proxy) = self.slots[index as usize].proxy?;
        Some(match tree {
            TreeKind::Static => self.static_tree.fat_aabb(proxy),
            TreeKind::Moving => self.moving_tree.fat_aabb(proxy),
        })
    }

    /// Step 1: contacts for new box overlaps, and removal of contacts whose boxes separated.
    fn update_pairs(&mut self) {
        let mut moved = std::mem::take(&mut self.moved);
        moved.sort_unstable();
        moved.dedup();
        let mut candidates: Vec<(u32, u32)> = Vec::new();
        for &index in &moved {
            let slot = &self.slots[index as usize];
            let Some(body) = slot.body.as_ref() else {
                continue;
            };
            let Some(fat) = self.fat_box(index) else {
                continue;
            };
            let mut push = |other: u32| {
                if other != index {
                    candidates.push((index.min(other), index.max(other)));
                }
                true
            };
            self.moving_tree.query(&fat, |_, &other| push(other));
            if body.kind != BodyKind::Static {
                self.static_tree.query(&fat, |_, &other| push(other));
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        for (a, b) in candidates {
            if self.contact_index.contains_key(&(a, b)) {
                continue;
            }
            let (ba, bb) = (
                self.slots[a as usize].body.as_ref().expect("live"),
                self.slots[b as usize].body.as_ref().expect("live"),
            );
            if !(ba.is_dynamic() || bb.is_dynamic()) {
                continue;
            }
            self.contact_index.insert((a, b), self.contacts.len());
            self.contacts.push(PairContact::new(a, b, ba, bb));
        }
        self.moved = moved;
        self.moved.clear();
        // Drop contacts whose fat boxes no longer overlap.
        let mut k = 0;
        while k < self.contacts.len() {
            let (a, b) = (self.contacts[k].a, self.contacts[k].b);
            let overlap = match (self.fat_box(a), self.fat_box(b)) {
                (Some(fa), Some(fb)) => fa.overlaps(&fb),
                _ => false,
            };
            if overlap {
                k += 1;
                continue;
            }
            if self.contacts[k].touching {
                self.push_contact_end(a, b);
            }
            self.remove_contact(k);
        }
    }

    /// Step 2: manifolds at the start poses.
    fn narrow_phase(&mut self) {
        for k in 0..self.contacts.len() {
            let (a, b) = (self.contacts[k].a, self.contacts[k].b);
            let ba = self.slots[a as usize].body.as_ref().expect("live");
            let bb = self.slots[b as usize].body.as_ref().expect("live");
            let contact = &mut self.contacts[k];
            let (was, is) = contact.update(ba, bb, self.config.restitution_threshold);
            if !was && is {
                let m = contact
                    .manifolds
                    .iter()
                    .find(|m| m.count > 0)
                    .expect("touching has points");
                let (normal, point) = (m.normal, m.points[0].point);
                self.push_contact_begin(a, b, normal, point);
            } else if was && !is {
                self.push_contact_end(a, b);
            }
        }
    }

    /// Records that bodies `a` and `b` (slots) began touching this step.
    fn push_contact_begin(
        &mut self,
        a: u32,
        b: u32,
        normal: crate::math::Vec2,
        point: crate::math::Vec2,
    ) {
        self.events.contact_begin.push(ContactBegin {
            body_a: self.id_of(a),
            body_b: self.id_of(b),
            step: self.step_count,
            time: self.time,
            normal,
            point,
        });
    }

    /// Records that bodies `a` and `b` (slots) stopped touching this step.
    fn push_contact_end(&mut self, a: u32, b: u32) {
        self.events.contact_end.push(ContactEnd {
            body_a: self.id_of(a),
            body_b: self.id_of(b),
            step: self.step_count,
            time: self.time,
        });
    }

    /// Step 3: the solver. Returns the angle each body turned (radians, unwrapped), by slot.
    fn solve(&mut self) -> Vec<Real> {
        let config = self.config;
        let h = config.dt / config.substeps as Real;
        // Reused buffers (World::scratch): nothing is allocated per step once they have grown.
        let mut states = std::mem::take(&mut self.scratch.states);
        states.clear();
        states.extend(self.slots.iter().map(|slot| match slot.body.as_ref() {
            None => BodyState::STATIC,
            Some(b) => match b.kind {
                BodyKind::Static => BodyState::STATIC,
                BodyKind::Kinematic => BodyState {
                    v: b.linear_velocity,
                    w: b.angular_velocity,
                    moves: true,
                    ..BodyState::STATIC
                },
                BodyKind::Dynamic => BodyState {
                    v: b.linear_velocity,
                    w: b.angular_velocity,
                    inv_mass: b.inv_mass,
                    inv_inertia: b.inv_inertia,
                    dv: h * (b.gravity_scale * config.gravity + b.inv_mass * b.force),
                    dw: h * b.inv_inertia * b.torque,
                    linear_damping: 1.0 / (1.0 + h * b.linear_damping),
                    angular_damping: 1.0 / (1.0 + h * b.angular_damping),
                    moves: true,
                    ..BodyState::STATIC
                },
            },
        }));
        let mut constraints = std::mem::take(&mut self.scratch.constraints);
        constraints.clear();
        for (ci, c) in self.contacts.iter().enumerate() {
            if c.impact {
                continue;
            }
            for (mi, m) in c.manifolds.iter().enumerate() {
                if m.count == 0 {
                    continue;
                }
                let mut points = [ConstraintPoint::default(); MAX_MANIFOLD_POINTS];
                for (dst, src) in points.iter_mut().zip(&m.points[..m.count]) {
                    *dst = ConstraintPoint {
                        anchor_a: src.anchor_a,
                        anchor_b: src.anchor_b,
                        base_separation: src.separation
                            - (src.anchor_b - src.anchor_a).dot(m.normal),
                        normal_impulse: src.normal_impulse,
                        tangent_impulse: src.tangent_impulse,
                        ..Default::default()
                    };
                }
                constraints.push(ContactConstraint {
                    a: c.a as usize,
                    b: c.b as usize,
                    normal: m.normal,
                    friction: c.friction,
                    restitution: c.restitution,
                    points,
                    count: m.count,
                    soft: Default::default(),
                    source: (ci, mi),
                });
            }
        }
        let settings = SolverSettings {
            dt: config.dt,
            substeps: config.substeps,
            contact_hertz: config.contact_hertz,
            damping_ratio: config.contact_damping_ratio,
            push_velocity: config.contact_push_velocity,
            restitution_threshold: config.restitution_threshold,
        };
        SoftStepSolver.solve(&settings, &mut states, &mut constraints);
        for c in &constraints {
            let m = &mut self.contacts[c.source.0].manifolds[c.source.1];
            for (dst, src) in m.points[..c.count].iter_mut().zip(&c.points) {
                dst.normal_impulse = src.normal_impulse;
                dst.tangent_impulse = src.tangent_impulse;
            }
        }
        // A pair that was apart at the start of the step (within the speculative distance) but
        // pushed on each other in the solver met during the step: report the contact as begun, so
        // a collision the solver resolved is never silent.
        for k in 0..self.contacts.len() {
            let c = &self.contacts[k];
            if c.touching {
                continue;
            }
            let pushed = c
                .manifolds
                .iter()
                .flat_map(|m| m.points[..m.count].iter().map(move |p| (m, p)))
                .find(|(_, p)| p.normal_impulse > 0.0)
                .map(|(m, p)| (m.normal, p.point));
            if let Some((normal, point)) = pushed {
                let (a, b) = (c.a, c.b);
                self.contacts[k].touching = true;
                self.push_contact_begin(a, b, normal, point);
            }
        }
        let mut angles = std::mem::take(&mut self.scratch.angles);
        angles.clear();
        angles.resize(self.slots.len(), 0.0);
        for (i, (slot, s)) in self.slots.iter_mut().zip(&states).enumerate() {
            let Some(b) = slot.body.as_mut() else {
                continue;
            };
            if !s.moves {
                continue;
            }
            b.linear_velocity = s.v;
            b.angular_velocity = s.w;
            b.pose = Transform::from_parts(
                b.previous_pose.translation + s.dp,
                s.dq.mul_rot(b.previous_pose.rotation),
            );
            angles[i] = s.angle;
        }
        self.scratch.states = states;
        self.scratch.constraints = constraints;
        angles
    }

    /// Step 5: broad-phase boxes at the final poses. A body is re-inserted when its box grown by
    /// half the speculative distance leaves its fat box, which keeps every pair within the
    /// speculative distance in the contact set.
    fn refit_proxies(&mut self) {
        for index in 0..self.slots.len() {
            let slot = &self.slots[index];
            let (Some(body), Some((TreeKind::Moving, proxy))) = (slot.body.as_ref(), slot.proxy)
            else {
                continue;
            };
            let tight = body.aabb().grown(SPECULATIVE_DISTANCE / 2.0);
            let fat = self.moving_tree.fat_aabb(proxy);
            // Re-insert when the body left its box, or when the box is far too big for it (after a
            // fast step enlarged it to the swept box).
            let oversized = fat.perimeter() > 2.0 * tight.grown(AABB_MARGIN).perimeter();
            if oversized {
                self.moving_tree
                    .set_fat_aabb(proxy, tight.grown(AABB_MARGIN));
                self.moved.push(index as u32);
            } else if self.moving_tree.move_proxy(proxy, tight, AABB_MARGIN) {
                self.moved.push(index as u32);
            }
        }
    }
}
