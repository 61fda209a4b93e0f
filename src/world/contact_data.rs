//! The world's touching contacts as plain data, for gameplay code (`World::contacts`,
//! `World::body_contacts`): each touching pair of shapes with its manifold (world points,
//! normal, separations) and the impulses the solver applied in the last step; and the
//! contact-force events made from them at the end of each step (`contact_force_events`): per pair
//! of shapes, the solver's total normal impulse over the step plus the continuous pass's impacts,
//! against the shapes' thresholds.

use super::body_set::BodySet;
use super::contact_set::ContactSet;
use super::events::{ContactForceEvent, StepEvents};
use super::World;
use crate::dynamics::{BodyId, ShapeId};
use crate::math::{Real, Vec2};
use std::collections::HashMap;

/// One touching contact between two shapes, as the last step left it (world frame, SI units).
#[derive(Clone, Debug, PartialEq)]
pub struct ContactData {
    /// The first body (the lower id) and its shape.
    pub body_a: BodyId,
    /// The second body.
    pub body_b: BodyId,
    /// The shape of body A in contact.
    pub shape_a: ShapeId,
    /// The shape of body B in contact.
    pub shape_b: ShapeId,
    /// Unit normal from A toward B.
    pub normal: Vec2,
    /// The manifold points (world metres), halfway between the two surfaces.
    pub points: Vec<Vec2>,
    /// Each point's signed gap along the normal (metres): negative where the shapes overlap.
    pub separations: Vec<Real>,
    /// Each point's normal impulse (N·s) in the last substep of the last step.
    pub normal_impulses: Vec<Real>,
    /// The points' normal impulses summed (N·s, last substep): times `substeps / dt` it is the
    /// force the contact carries (N); a 1 kg box at rest carries its weight.
    pub normal_impulse: Real,
    /// The points' friction impulses summed (N·s, last substep; along the normal turned a
    /// quarter turn counter-clockwise).
    pub tangent_impulse: Real,
    /// Every normal impulse the solver applied to the contact over the last step, all substeps
    /// summed (N·s): divided by `dt` it is the mean force over the step. Impacts of the
    /// continuous pass are in `StepEvents::impacts` (and in contact-force events).
    pub total_normal_impulse: Real,
    /// The mixed friction coefficient and restitution of the two shapes.
    pub friction: Real,
    /// The mixed restitution.
    pub restitution: Real,
}

impl World {
    /// The touching contacts of the world, one per pair of touching shapes (a body pair touching
    /// at several shapes gives several), in storage order. Sleeping pairs keep theirs.
    pub fn contacts(&self) -> impl Iterator<Item = ContactData> + '_ {
        self.contacts
            .as_slice()
            .iter()
            .filter(|c| c.touching)
            .flat_map(move |c| {
                c.manifolds.iter().filter(|m| m.count > 0).map(move |m| {
                    let points = &m.points[..m.count];
                    let normal_impulses: Vec<Real> =
                        points.iter().map(|p| p.normal_impulse).collect();
                    ContactData {
                        body_a: self.bodies.id(c.a),
                        body_b: self.bodies.id(c.b),
                        shape_a: self.bodies.shape_id(c.a, m.piece_a as usize),
                        shape_b: self.bodies.shape_id(c.b, m.piece_b as usize),
                        normal: m.normal,
                        points: points.iter().map(|p| p.point).collect(),
                        separations: points.iter().map(|p| p.separation).collect(),
                        normal_impulse: normal_impulses.iter().sum(),
                        normal_impulses,
                        tangent_impulse: points.iter().map(|p| p.tangent_impulse).sum(),
                        total_normal_impulse: points.iter().map(|p| p.total_normal_impulse).sum(),
                        friction: m.friction,
                        restitution: m.restitution,
                    }
                })
            })
    }

    /// The touching contacts of one body (empty for a stale id); it may be body A or B of each.
    /// A pass over the world's contacts.
    pub fn body_contacts(&self, id: BodyId) -> impl Iterator<Item = ContactData> + '_ {
        let live = self.bodies.get(id).is_some();
        self.contacts()
            .filter(move |c| live && (c.body_a == id || c.body_b == id))
    }
}

/// The contact-force threshold of shape `id` (N), if it has one.
fn threshold(bodies: &BodySet, id: ShapeId) -> Option<Real> {
    let b = bodies.get(id.body)?;
    b.shape_slot(id)
        .and_then(|slot| b.shapes[slot].contact_force_threshold)
}

/// One pair's pushes over the step, gathered from the contacts and the impacts.
struct Push {
    shapes: (ShapeId, ShapeId),
    bodies: (BodyId, BodyId),
    impulse: Real,
    normal: Vec2,
    impact_fraction: Option<Real>,
}

/// Adds the step's contact-force events to `events`: for every pair of shapes that a solved
/// contact or an impact joined this step, its total normal impulse over the step (the solver's
/// totals, `ManifoldPoint::total_normal_impulse`, plus the impacts' impulses), reported when the
/// mean force `impulse / dt` reaches the smaller threshold the two shapes have.
pub(super) fn contact_force_events(
    bodies: &BodySet,
    contacts: &ContactSet,
    events: &mut StepEvents,
    dt: Real,
    step: u64,
) {
    let mut pushes: Vec<Push> = Vec::new();
    let mut by_pair: HashMap<(ShapeId, ShapeId), usize> = HashMap::new();
    for c in contacts.as_slice().iter().filter(|c| c.touching) {
        let (a, b) = (bodies.at(c.a), bodies.at(c.b));
        // Pairs asleep were not solved: their totals are an earlier step's.
        if !((a.is_dynamic() && a.awake) || (b.is_dynamic() && b.awake)) {
            continue;
        }
        for m in c.manifolds.iter().filter(|m| m.count > 0) {
            let shapes = (
                bodies.shape_id(c.a, m.piece_a as usize),
                bodies.shape_id(c.b, m.piece_b as usize),
            );
            if threshold(bodies, shapes.0).is_none() && threshold(bodies, shapes.1).is_none() {
                continue;
            }
            let impulse: Real = m.points[..m.count]
                .iter()
                .map(|p| p.total_normal_impulse)
                .sum();
            match by_pair.get(&shapes) {
                Some(&k) => pushes[k].impulse += impulse,
                None => {
                    by_pair.insert(shapes, pushes.len());
                    pushes.push(Push {
                        shapes,
                        bodies: (bodies.id(c.a), bodies.id(c.b)),
                        impulse,
                        normal: m.normal,
                        impact_fraction: None,
                    });
                }
            }
        }
    }
    // `World::advance` keeps the events of all its steps: this step's impacts only.
    for i in events.impacts.iter().filter(|i| i.step == step) {
        if threshold(bodies, i.shape_a).is_none() && threshold(bodies, i.shape_b).is_none() {
            continue;
        }
        let (k, flipped) = match (
            by_pair.get(&(i.shape_a, i.shape_b)),
            by_pair.get(&(i.shape_b, i.shape_a)),
        ) {
            (Some(&k), _) => (k, false),
            (None, Some(&k)) => (k, true),
            (None, None) => {
                by_pair.insert((i.shape_a, i.shape_b), pushes.len());
                pushes.push(Push {
                    shapes: (i.shape_a, i.shape_b),
                    bodies: (i.body_a, i.body_b),
                    impulse: 0.0,
                    normal: i.normal,
                    impact_fraction: None,
                });
                (pushes.len() - 1, false)
            }
        };
        let p = &mut pushes[k];
        p.impulse += i.impulse;
        if p.impact_fraction.is_none_or(|f| i.fraction < f) {
            p.impact_fraction = Some(i.fraction);
        }
        if p.impulse == i.impulse {
            p.normal = if flipped { -i.normal } else { i.normal };
        }
    }
    for p in pushes {
        let limit = match (threshold(bodies, p.shapes.0), threshold(bodies, p.shapes.1)) {
            (Some(x), Some(y)) => x.min(y),
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => continue,
        };
        let force = p.impulse / dt;
        if force >= limit && p.impulse > 0.0 {
            events.contact_forces.push(ContactForceEvent {
                body_a: p.bodies.0,
                body_b: p.bodies.1,
                shape_a: p.shapes.0,
                shape_b: p.shapes.1,
                step,
                total_impulse: p.impulse,
                total_force: force,
                normal: p.normal,
                impact_fraction: p.impact_fraction,
            });
        }
    }
}
