//! A body's shapes after creation: adding and removing shapes, changing a shape's filter.
//!
//! Every change re-combines the body's shapes (`dynamics/shape_def.rs`): mass, centre of mass and
//! inertia are recomputed exactly, the body's frame stays where it is (its centre of mass moves
//! with the new mass distribution, every material point keeps its velocity), and the change takes
//! effect on the next step: contacts of the body compute their manifolds afresh and every contact's
//! filter is read again. A rejected call leaves the world as it was.

use super::World;
use crate::dynamics::body_input::{check_force_threshold, check_material};
use crate::dynamics::shape_def::{assemble, check_shape_def, BodyShape, MAX_SHAPES_PER_BODY};
use crate::dynamics::{BodyError, BodyId, Filter, ShapeDef, ShapeId};
use crate::math::Real;

impl World {
    /// Adds a shape to a body (its offset places it in the body's frame). Errors (world
    /// unchanged): a stale body id, non-finite or negative numbers, a dynamic body left without
    /// mass, more than [`MAX_SHAPES_PER_BODY`] shapes.
    pub fn add_shape(&mut self, body: BodyId, def: ShapeDef) -> Result<ShapeId, BodyError> {
        self.add_shapes_at_once(body, vec![def])
            .map(|ids| ids[0])
            .map_err(|(_, e)| e)
    }

    /// Adds several shapes to a body at once (each offset places its shape in the body's frame)
    /// and returns their ids in the order given: what [`World::add_shape`] does for each in
    /// turn, but the body's shapes are combined once. Every shape change re-combines all of a
    /// body's shapes, so building a body of n shapes one call at a time costs about n² (a static
    /// ground of 2,505 tiles: 7 s), and this call about n log n (the same ground: milliseconds).
    /// Give a tile map or a ground of many pieces here. Errors (world unchanged, none of the
    /// shapes added): [`BodyError::InShapeList`] naming the position of the refused shape (the
    /// last one for errors of the whole, such as more than [`MAX_SHAPES_PER_BODY`] shapes or a
    /// dynamic body left without mass), and a stale body id as it is.
    pub fn add_shapes(
        &mut self,
        body: BodyId,
        defs: impl IntoIterator<Item = ShapeDef>,
    ) -> Result<Vec<ShapeId>, BodyError> {
        self.add_shapes_at_once(body, defs.into_iter().collect())
            .map_err(|(position, e)| match e {
                BodyError::UnknownBody(_) => e,
                e => BodyError::InShapeList {
                    position,
                    source: Box::new(e),
                },
            })
    }

    /// [`World::add_shapes`] with the error and the position in `defs` of the shape it is about
    /// (the last one for errors of the combination). `add_shape` is this with one shape; the
    /// scene loader gives a body's extra shapes at once.
    pub(crate) fn add_shapes_at_once(
        &mut self,
        body: BodyId,
        defs: Vec<ShapeDef>,
    ) -> Result<Vec<ShapeId>, (usize, BodyError)> {
        if defs.is_empty() {
            return Ok(Vec::new());
        }
        let last = defs.len() - 1;
        let (b, label) = self.body_mut(body).map_err(|e| (0, e))?;
        for (k, def) in defs.iter().enumerate() {
            check_shape_def(&label, def).map_err(|e| (k, e))?;
        }
        if b.shapes.len() + defs.len() > MAX_SHAPES_PER_BODY {
            let k = MAX_SHAPES_PER_BODY.saturating_sub(b.shapes.len());
            return Err((
                k,
                BodyError::TooManyShapes {
                    body: label,
                    limit: MAX_SHAPES_PER_BODY,
                },
            ));
        }
        let first = b.next_shape;
        let mut shapes = b.shapes.clone();
        shapes.extend(defs.into_iter().enumerate().map(|(k, def)| BodyShape {
            index: first + k as u32,
            def,
            contact_force_threshold: None,
        }));
        let assembly =
            assemble(b.kind, &shapes, &label, b.mass_override.as_ref()).map_err(|e| (last, e))?;
        b.shapes = shapes;
        b.next_shape = first + last as u32 + 1;
        let old_sensors = b.sensors.len();
        b.take_assembly(assembly);
        self.shapes_changed(body, old_sensors);
        Ok((0..=last as u32)
            .map(|k| ShapeId {
                body,
                index: first + k,
            })
            .collect())
    }

    /// Removes a shape from its body. Errors (world unchanged): a stale id, the body's last
    /// shape, a dynamic body left without mass.
    pub fn remove_shape(&mut self, id: ShapeId) -> Result<ShapeDef, BodyError> {
        let (b, label) = self.body_mut(id.body)?;
        let slot = b.shape_slot(id).ok_or_else(|| BodyError::UnknownShape {
            body: label.clone(),
            index: id.index,
        })?;
        if b.shapes.len() == 1 {
            return Err(BodyError::LastShape {
                body: label,
                index: id.index,
            });
        }
        let mut shapes = b.shapes.clone();
        let removed = shapes.remove(slot);
        let assembly = assemble(b.kind, &shapes, &label, b.mass_override.as_ref())?;
        b.shapes = shapes;
        let old_sensors = b.sensors.len();
        b.take_assembly(assembly);
        self.shapes_changed(id.body, old_sensors);
        Ok(removed.def)
    }

    /// Changes a shape's collision filter; pairs it starts or stops colliding with follow from the
    /// next step (a touching pair that the new filter separates reports a contact end).
    pub fn set_filter(&mut self, id: ShapeId, filter: Filter) -> Result<(), BodyError> {
        let (b, label) = self.body_mut(id.body)?;
        let slot = b.shape_slot(id).ok_or_else(|| BodyError::UnknownShape {
            body: label.clone(),
            index: id.index,
        })?;
        let mut shapes = b.shapes.clone();
        shapes[slot].def.filter = filter;
        let assembly = assemble(b.kind, &shapes, &label, b.mass_override.as_ref())?;
        b.shapes = shapes;
        let old_sensors = b.sensors.len();
        b.take_assembly(assembly);
        self.shapes_changed(id.body, old_sensors);
        Ok(())
    }

    /// Changes a shape's friction coefficient and restitution (both ≥ 0, as in `ShapeDef`): its
    /// contacts mix the new values from the next step, and the continuous pass's impacts at once.
    /// Wakes the body.
    pub fn set_shape_material(
        &mut self,
        id: ShapeId,
        friction: Real,
        restitution: Real,
    ) -> Result<(), BodyError> {
        let (b, slot, label) = self.shape_mut(id)?;
        check_material(&label, friction, restitution)?;
        let def = &mut b.shapes[slot].def;
        (def.friction, def.restitution) = (friction, restitution);
        // Contacts compute their manifolds, and so their mixed material, afresh.
        b.shape_version = b.shape_version.wrapping_add(1);
        b.wake();
        Ok(())
    }

    /// Reports the contacts of shape `id` as contact-force events (`StepEvents::contact_forces`)
    /// in every step whose force between it and another shape reaches `threshold` newtons: the
    /// total normal impulse of the pair over the step (the solver's and the continuous pass's
    /// impacts) divided by `dt`. `None` stops the events. A pair is reported when either
    /// shape's threshold is reached. Wakes nothing.
    ///
    /// # Errors
    /// [`BodyError::UnknownBody`] or [`BodyError::UnknownShape`] for a stale id;
    /// [`BodyError::NonFinite`] or [`BodyError::OutOfRange`] for a threshold that is not a finite
    /// force from 0 to 1e15 N. Nothing changes on error.
    pub fn set_contact_force_threshold(
        &mut self,
        id: ShapeId,
        threshold: Option<Real>,
    ) -> Result<(), BodyError> {
        let (b, slot, label) = self.shape_mut(id)?;
        if let Some(t) = threshold {
            check_force_threshold(&label, t)?;
        }
        b.shapes[slot].contact_force_threshold = threshold;
        self.force_thresholds = self
            .bodies
            .iter()
            .flat_map(|(_, b)| &b.shapes)
            .filter(|s| s.contact_force_threshold.is_some())
            .count();
        Ok(())
    }

    /// The body of shape `id`, the shape's slot in its list, and the body's label for errors;
    /// the error for a stale body or shape.
    fn shape_mut(&mut self, id: ShapeId) -> Result<(&mut crate::Body, usize, String), BodyError> {
        let (b, label) = self.body_mut(id.body)?;
        let slot = b.shape_slot(id).ok_or_else(|| BodyError::UnknownShape {
            body: label.clone(),
            index: id.index,
        })?;
        Ok((b, slot, label))
    }

    /// The contact-force threshold of shape `id` (N), if it has one.
    #[must_use]
    pub fn contact_force_threshold(&self, id: ShapeId) -> Option<Real> {
        let b = self.bodies.get(id.body)?;
        b.shape_slot(id)
            .and_then(|slot| b.shapes[slot].contact_force_threshold)
    }

    /// The definition of a shape (shape and offset in its body's frame, material, filter, sensor
    /// flag), or `None` if it or its body was removed.
    #[must_use]
    pub fn shape(&self, id: ShapeId) -> Option<&ShapeDef> {
        let b = self.bodies.get(id.body)?;
        b.shape_slot(id).map(|slot| &b.shapes[slot].def)
    }

    /// The ids of a body's shapes, oldest first (empty for a stale body id).
    #[must_use]
    pub fn shape_ids(&self, body: BodyId) -> Vec<ShapeId> {
        self.bodies.get(body).map_or_else(Vec::new, |b| {
            b.shapes
                .iter()
                .map(|s| ShapeId {
                    body,
                    index: s.index,
                })
                .collect()
        })
    }

    /// After a change of body `id`'s shapes (it had `old_sensors` sensor shapes before): its
    /// proxy takes its new box, and contacts re-read their filters on the next step.
    fn shapes_changed(&mut self, id: BodyId, old_sensors: usize) {
        let key = id.index;
        self.bodies.at_mut(key).wake();
        let body = self.bodies.at(key);
        let aabb = body.aabb();
        self.bodies.sensor_shapes = self.bodies.sensor_shapes - old_sensors + body.sensors.len();
        self.broad_phase.reset_proxy(self.bodies.proxy(key), &aabb);
        self.bodies.shapes_changed = true;
    }
}
