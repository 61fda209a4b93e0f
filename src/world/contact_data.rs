//! The world's touching contacts as plain data, for gameplay code (`World::contacts`,
//! `World::body_contacts`): each touching pair of shapes with its manifold (world points,
//! normal, separations) and the impulses the solver applied in the last step.

use super::World;
use crate::dynamics::{BodyId, ShapeId};
use crate::math::{Real, Vec2};

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
