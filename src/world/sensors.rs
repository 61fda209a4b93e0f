//! The sensor pass (stage 5 of the step, after the continuous pass): which shapes entered and left
//! each sensor during the step, with the step fractions at which they did, so that a visitor that
//! crosses a sensor within one step (a bullet through a thin trigger strip) still reports both.
//!
//! Method. Over the step every body's motion is taken as the straight segment from its start pose
//! to its end pose (centre of mass), turning by the angle it turned (the solver's turn, wrapped to
//! agree with the end pose). For each sensor shape the broad phase gives the bodies whose proxies
//! meet the sensor's swept box (the continuous pass has enlarged fast bodies' proxies to hold their
//! whole motion). For each solid shape of those bodies that the sensor's filter accepts:
//!
//! * *inside at the end*: the shapes overlap at the end poses (exact SAT query);
//! * *entry*: the time of impact of the two motions (the first touch, never later than truth);
//! * *exit*: the time of impact of the reversed motions, from the end poses back to the start,
//!   subtracted from 1 (the last touch).
//!
//! A pair not inside before that touches during the step begins (at the entry fraction); if it is
//! not inside at the end it also ends (at the exit fraction). A pair inside before and not at the
//! end ends. Overlaps are kept from step to step in shape-id order, so events come in a
//! deterministic order. Sensors do not detect sensors, and static sensors do not detect static
//! shapes. Removing a body or shape drops its overlaps without events.

use super::body_set::BodySet;
use super::clock::Clock;
use super::events::{SensorEvent, StepEvents};
use super::proxy_type;
use crate::broadphase::BroadPhase;
use crate::dynamics::{Body, ShapeId};
use crate::math::{Real, Transform};
use crate::query::{
    intersects, time_of_impact_filtered, visit_pieces, Motion, PieceRules, ToiOptions, ToiStatus,
};
use crate::shape::Shape;
use std::collections::BTreeSet;
use std::f64::consts::TAU;

/// The overlaps of sensor shapes and visitor shapes, `(sensor, visitor)`, from step to step.
pub(crate) type SensorOverlaps = BTreeSet<(ShapeId, ShapeId)>;

/// A body's motion over the step, centre-of-mass frame: from its start pose by `linear` metres,
/// turning by `angular` radians (see the module notes).
fn step_motion(body: &Body, solver_turn: Real) -> Motion {
    let (start, end) = (body.previous_pose, body.pose);
    let wrapped = start.rotation.inv_mul_rot(end.rotation).angle();
    // The turn that ends at the end pose and is closest to what the solver turned.
    let turn = wrapped + TAU * ((solver_turn - wrapped) / TAU).round();
    Motion::new(start, end.translation - start.translation, turn)
}

/// The same motion run backwards, from the end pose to the start.
fn reversed(m: &Motion) -> Motion {
    Motion::new(m.pose_at(1.0), -m.linear, -m.angular)
}

/// Runs the pass: see the module notes. `angles` is the angle each body turned in the solver, by
/// key.
pub(crate) fn sensor_pass(
    bodies: &BodySet,
    broad_phase: &BroadPhase,
    overlaps: &mut SensorOverlaps,
    events: &mut StepEvents,
    clock: &Clock,
    dt: Real,
    angles: &[Real],
) {
    let mut now = SensorOverlaps::new();
    let mut seen = SensorOverlaps::new();
    let turn = |key: u32| angles.get(key as usize).copied().unwrap_or(0.0);
    let event = |sensor: ShapeId, visitor: ShapeId, fraction: Real| SensorEvent {
        sensor_body: sensor.body(),
        sensor_shape: sensor,
        visitor_body: visitor.body(),
        visitor_shape: visitor,
        step: clock.step,
        fraction,
        time: clock.time + fraction * dt,
    };
    for (s, sensor_body) in bodies.iter() {
        if sensor_body.sensors.is_empty() || sensor_body.disabled.is_some() {
            continue;
        }
        let ms = step_motion(sensor_body, turn(s));
        for (slot, shape) in &sensor_body.sensors {
            let def = &sensor_body.shapes[*slot as usize];
            let sensor = ShapeId {
                body: bodies.id(s),
                index: def.index,
            };
            let swept = swept_box(shape, &ms);
            let mut found = Vec::new();
            broad_phase.query_partners(&swept, proxy_type(sensor_body.kind), |v| {
                if v != s {
                    found.push(v);
                }
            });
            found.sort_unstable();
            found.dedup();
            for v in found {
                let visitor_body = bodies.at(v);
                if visitor_body.disabled.is_some() {
                    continue;
                }
                let mv = step_motion(visitor_body, turn(v));
                // Each solid shape of the visitor that the sensor's filter accepts.
                let mut owners: Vec<u16> = visitor_body.piece_owner.clone();
                owners.dedup();
                for owner in owners {
                    let vdef = &visitor_body.shapes[owner as usize];
                    if vdef.def.sensor || !def.def.filter.should_collide(&vdef.def.filter) {
                        continue;
                    }
                    let visitor = ShapeId {
                        body: bodies.id(v),
                        index: vdef.index,
                    };
                    let key = (sensor, visitor);
                    seen.insert(key);
                    let of_owner = |_: usize, j: usize| visitor_body.piece_owner[j] == owner;
                    let rules = PieceRules {
                        accept: Some(&of_owner as &dyn Fn(usize, usize) -> bool),
                        ..PieceRules::default()
                    };
                    let body_shape = &visitor_body.com_shape;
                    let options = ToiOptions::default();
                    let toi = |a: &Motion, b: &Motion| {
                        time_of_impact_filtered(shape, a, body_shape, b, &options, rules)
                            .filter(|t| t.status != ToiStatus::BudgetExhausted || t.t < 1.0)
                    };
                    let inside_before = overlaps.contains(&key);
                    let inside_after = overlap(
                        shape,
                        &ms.pose_at(1.0),
                        visitor_body,
                        &mv.pose_at(1.0),
                        owner,
                    );
                    if inside_after {
                        now.insert(key);
                        if inside_before {
                            continue;
                        }
                    }
                    // The last touch: the first touch of the motions run backwards.
                    let exit = || toi(&reversed(&ms), &reversed(&mv)).map(|t| 1.0 - t.t);
                    if inside_before {
                        let left = exit().unwrap_or(0.0);
                        events.sensor_end.push(event(sensor, visitor, left));
                        continue;
                    }
                    let Some(entry) = toi(&ms, &mv) else {
                        continue;
                    };
                    events.sensor_begin.push(event(sensor, visitor, entry.t));
                    if !inside_after {
                        let left = exit().unwrap_or(entry.t).max(entry.t);
                        events.sensor_end.push(event(sensor, visitor, left));
                    }
                }
            }
        }
    }
    // Overlaps whose visitor the queries did not find this step (teleported away, say): ended,
    // unless a body or shape of the pair is gone (dropped without an event).
    for key in overlaps.iter() {
        if seen.contains(key) {
            continue;
        }
        let alive = |id: ShapeId| {
            bodies
                .get(id.body())
                .is_some_and(|b| b.shapes.iter().any(|s| s.index == id.index()))
        };
        if alive(key.0) && alive(key.1) {
            events.sensor_end.push(event(key.0, key.1, 1.0));
        }
    }
    *overlaps = now;
}

/// A box around everything `shape` (centre-of-mass frame) covers on motion `m`.
fn swept_box(shape: &Shape, m: &Motion) -> crate::math::Aabb {
    let start = shape.aabb(&m.start);
    let end = shape.aabb(&m.pose_at(1.0));
    let boxed = start.union(&end);
    if m.angular == 0.0 {
        return boxed;
    }
    let a = m.start.translation;
    let reach = shape.bounding_radius();
    boxed.union(&crate::math::Aabb::new(a, a + m.linear).grown(reach))
}

/// Whether `shape` at `xs` overlaps the pieces of `body` (at centre-of-mass pose `xb`) that belong
/// to its shape at index `owner` (exact SAT query; touching counts).
fn overlap(shape: &Shape, xs: &Transform, body: &Body, xb: &Transform, owner: u16) -> bool {
    let mut hit = false;
    visit_pieces(&body.com_shape, xb, &mut |piece, xp, j| {
        if !hit && body.piece_owner[j] == owner {
            hit = intersects(shape, xs, piece, xp);
        }
    });
    hit
}
