//! The calls that change how a body takes part in the simulation: its kind at run time, the
//! rotation lock, its mass properties, a kinematic target, sleep on request. Each validates its input and changes
//! nothing when it refuses (`docs/bodies.md`).

use super::{body_label, proxy_type, sleep, World};
use crate::constants::{MAX_DAMPING, MAX_GRAVITY_SCALE};
use crate::dynamics::body::inverse_inertia;
use crate::dynamics::body_input::{
    check_finite, check_mass_data, check_position, check_speeds, check_transform, non_negative,
    within,
};
use crate::dynamics::shape_def::assemble;
use crate::dynamics::{BodyError, BodyId, BodyKind, MassData};
use crate::math::{Real, Transform, Vec2};

impl World {
    /// Gives a dynamic body its mass (kg), rotational inertia about its centre of mass (kg·m²)
    /// and centre of mass (metres, body frame) instead of those of its shapes, or, with `None`,
    /// goes back to its shapes'. The body's frame stays where it is, and every material point
    /// keeps its velocity (a moved centre of mass moves with the body's turn). The setting is
    /// kept while shapes are added or removed and through kind changes (it applies whenever the
    /// body is dynamic). Wakes the body.
    ///
    /// # Errors
    /// [`BodyError::UnknownBody`] for a stale id; [`BodyError::Conflicting`] for a body that is
    /// not dynamic (only dynamic bodies have mass); [`BodyError::NonFinite`] or
    /// [`BodyError::OutOfRange`] for a mass or inertia that is not positive and finite (at most
    /// 1e15) or a centre beyond ±1e5 m. Nothing changes on error.
    pub fn set_mass_data(&mut self, id: BodyId, mass: Option<MassData>) -> Result<(), BodyError> {
        let (body, label) = self.body_mut(id)?;
        if body.kind != BodyKind::Dynamic {
            return Err(BodyError::Conflicting {
                body: label,
                reason: "only a dynamic body has mass; make it dynamic first (set_body_kind)",
            });
        }
        if let Some(m) = &mass {
            check_mass_data(&label, m)?;
        }
        let assembly = assemble(body.kind, &body.shapes, &label, mass.as_ref())?;
        body.mass_override = mass;
        body.take_assembly(assembly);
        body.wake();
        Ok(())
    }

    /// Takes a body out of the simulation and the queries (`false`), or puts it back (`true`),
    /// as Box2D's `b2Body_Disable` / `b2Body_Enable`. A disabled body keeps its shapes, pose,
    /// settings and id (`World::body` still gives it, `Body::is_enabled` says so), but it
    /// collides with nothing, no query (rays, casts, overlaps, points, boxes, explosions) sees
    /// it, its sensors and it report nothing, it does not move, and nothing wakes it; the bodies
    /// it touched wake (what rested on it falls). Enabled again, it wakes and moves on with the
    /// velocities it had, and its contacts are found afresh in the next step. It may still be
    /// moved with `set_transform` while disabled; forces, impulses, velocities and kinematic
    /// targets are refused. Doing what is already done does nothing.
    ///
    /// # Errors
    /// [`BodyError::UnknownBody`] for a stale id; [`BodyError::Conflicting`] when disabling a
    /// body that has joints (remove them first). Nothing changes on error.
    pub fn set_enabled(&mut self, id: BodyId, enabled: bool) -> Result<(), BodyError> {
        let key = self.bodies.key(id).ok_or(BodyError::UnknownBody(id))?;
        let body = self.bodies.at(key);
        if body.disabled.is_none() == enabled {
            return Ok(());
        }
        if enabled {
            let body = self.bodies.at_mut(key);
            if let Some((v, w)) = body.disabled.take() {
                if body.kind != BodyKind::Static {
                    (body.linear_velocity, body.angular_velocity) = (v, w);
                }
            }
            body.wake();
            // Found afresh: its proxy counts as moved, so the next step pairs it again.
            let aabb = body.aabb();
            self.broad_phase.reset_proxy(self.bodies.proxy(key), &aabb);
            return Ok(());
        }
        let jointed = self.joints.has_joint(key);
        if jointed {
            return Err(BodyError::Conflicting {
                body: body_label(body, id),
                reason: "it has joints, which would pull on a body out of the simulation; \
                         remove them first",
            });
        }
        self.wake_neighbours(key, false);
        self.contacts.remove_involving(key);
        let body = self.bodies.at_mut(key);
        body.disabled = Some((body.linear_velocity, body.angular_velocity));
        (body.linear_velocity, body.angular_velocity) = (Vec2::ZERO, 0.0);
        body.awake = false;
        body.sleep_time = 0.0;
        body.kinematic_target = None;
        Ok(())
    }

    /// Changes a body's kind at run time: static ↔ kinematic ↔ dynamic (a door that comes off its
    /// hinges, a platform that starts to move, a crate frozen in place). The body keeps its frame
    /// and shapes; its mass, inertia and centre of mass are those its shapes give the new kind
    /// (none for static and kinematic bodies; its mass data when given, `set_mass_data`, once
    /// dynamic again); it keeps the velocity of its material points,
    /// except that a static body is at rest; forces and a kinematic target it no longer applies
    /// to are dropped. Its contacts are dropped and found afresh in the next step (as Box2D does:
    /// a pair that still touches reports a contact begin again), its proxy moves to its new kind's
    /// tree, and it and every body it touched wake. Refused, changing nothing, when a dynamic
    /// body's shapes have no mass (`density` 0), or when a joint would be left without a dynamic
    /// body (a joint to a body that is not dynamic, or a mouse joint, on a body made static or
    /// kinematic: remove the joint first).
    pub fn set_body_kind(&mut self, id: BodyId, kind: BodyKind) -> Result<(), BodyError> {
        let key = self.bodies.key(id).ok_or(BodyError::UnknownBody(id))?;
        let body = self.bodies.at(key);
        if body.kind == kind {
            return Ok(());
        }
        let label = body_label(body, id);
        if kind != BodyKind::Dynamic {
            let dynamic =
                |k: Option<u32>| k.is_some_and(|k| self.bodies.at(k).kind == BodyKind::Dynamic);
            let stranded = self.joints.slots_of(key).iter().any(|&slot| {
                let j = self.joints.at(slot as usize);
                (j.body_b == key && !dynamic(j.body_a))
                    || (j.body_a == Some(key) && !dynamic(Some(j.body_b)))
            });
            if stranded {
                return Err(BodyError::Conflicting {
                    body: label,
                    reason: "a joint ties it to a body that is not dynamic (or it is a mouse \
                             joint's): a joint needs a dynamic body; remove the joint first",
                });
            }
        }
        let assembly = assemble(kind, &body.shapes, &label, body.mass_override.as_ref())?;
        // Nothing fails from here on.
        self.wake_neighbours(key, true);
        self.contacts.remove_involving(key);
        let body = self.bodies.at_mut(key);
        body.kind = kind;
        body.take_assembly(assembly);
        if kind == BodyKind::Static {
            body.linear_velocity = Vec2::ZERO;
            body.angular_velocity = 0.0;
        }
        if kind != BodyKind::Dynamic {
            body.force = Vec2::ZERO;
            body.torque = 0.0;
        }
        if kind != BodyKind::Kinematic {
            body.kinematic_target = None;
        }
        body.wake();
        let aabb = body.aabb();
        self.broad_phase.destroy_proxy(self.bodies.proxy(key));
        let proxy = self.broad_phase.create_proxy(&aabb, proxy_type(kind), key);
        self.bodies.set_proxy(key, proxy);
        self.bodies.shapes_changed = true;
        Ok(())
    }

    /// Locks (`true`) or unlocks a body's rotation (see [`BodyDef::fixed_rotation`](crate::BodyDef::fixed_rotation)). Locking
    /// stops its spin at once (angular velocity 0); unlocking gives it back its rotational
    /// inertia from its shapes. Wakes the body.
    pub fn set_fixed_rotation(&mut self, id: BodyId, fixed: bool) -> Result<(), BodyError> {
        let (body, _) = self.body_mut(id)?;
        body.fixed_rotation = fixed;
        body.inv_inertia = inverse_inertia(body.inertia, fixed);
        if fixed && body.kind != BodyKind::Static {
            body.angular_velocity = 0.0;
            body.torque = 0.0;
        }
        body.wake();
        Ok(())
    }

    /// Locks (or unlocks) a body's translation along the world x and y axes (`BodyDef::lock_x`,
    /// `lock_y`): along a locked axis nothing moves it (its inverse mass there is zero in the
    /// solver, the joints and the continuous pass, so what hits it along that axis meets an
    /// immovable body), and its velocity along it is set to 0. Both locked and the rotation
    /// locked too, it stands still. Wakes the body.
    pub fn set_locked_translation(
        &mut self,
        id: BodyId,
        lock_x: bool,
        lock_y: bool,
    ) -> Result<(), BodyError> {
        let (body, _) = self.body_mut(id)?;
        (body.lock_x, body.lock_y) = (lock_x, lock_y);
        if body.kind != BodyKind::Static {
            body.linear_velocity *= body.free_axes();
            body.force *= body.free_axes();
        }
        if let Some((v, w)) = body.disabled {
            body.disabled = Some((v * body.free_axes(), w));
        }
        body.wake();
        Ok(())
    }

    /// Sets the multiplier of the world's gravity for this body (within ±1e3; 0 floats, −1 falls
    /// up). Wakes the body.
    pub fn set_gravity_scale(&mut self, id: BodyId, scale: Real) -> Result<(), BodyError> {
        let (body, label) = self.body_mut(id)?;
        check_finite(&label, "gravity_scale", scale)?;
        within(
            &label,
            "gravity_scale",
            scale,
            MAX_GRAVITY_SCALE,
            "between −1e3 and 1e3 (MAX_GRAVITY_SCALE)",
        )?;
        body.gravity_scale = scale;
        body.wake();
        Ok(())
    }

    /// Sets a body's linear and angular damping (1/s, each between 0 and 1e6: velocity decays as
    /// `v / (1 + h·c)` each substep of `h = dt / substeps`). Wakes the body.
    pub fn set_damping(
        &mut self,
        id: BodyId,
        linear: Real,
        angular: Real,
    ) -> Result<(), BodyError> {
        let (body, label) = self.body_mut(id)?;
        for (field, value) in [("linear_damping", linear), ("angular_damping", angular)] {
            check_finite(&label, field, value)?;
            non_negative(&label, field, value)?;
            within(&label, field, value, MAX_DAMPING, "between 0 and 1e6 (1/s)")?;
        }
        body.linear_damping = linear;
        body.angular_damping = angular;
        body.wake();
        Ok(())
    }

    /// Moves a kinematic body so that its frame is exactly at `target` (world) at the end of the
    /// next step: its velocities are set to cover the way in that step (the shorter way round,
    /// under half a turn), so the continuous pass sweeps it against what it pushes as any moving
    /// body, and when the step ends the body is where [`World::set_transform`] would put it, to
    /// the bit. The velocities are zero
    /// after that step unless a new target is set: call it every step to drive a platform
    /// along a path. Refused for static and dynamic bodies (`BodyError::WrongKind`), for a
    /// target that is not a valid transform or is out of range, and for one farther than a step
    /// at the speed limits (1e5 m/s, 1e5 rad/s). Wakes the body.
    pub fn set_kinematic_target(&mut self, id: BodyId, target: Transform) -> Result<(), BodyError> {
        let dt = self.config.dt;
        let (body, label) = self.body_mut(id)?;
        check_transform(&label, &target)?;
        check_position(&label, "target.translation", target.translation)?;
        check_enabled(body, &label)?;
        if body.kind != BodyKind::Kinematic {
            return Err(BodyError::WrongKind {
                body: label,
                kind: body.kind,
                reason: "only a kinematic body is driven to a target; set a dynamic body's \
                         velocity or pose instead",
            });
        }
        let centre = target.transform_point(body.local_center);
        let linear = (centre - body.pose.translation) / dt;
        let turn = body.pose.rotation.inv_mul_rot(target.rotation).angle();
        let angular = if body.fixed_rotation { 0.0 } else { turn / dt };
        check_speeds(&label, linear, angular)?;
        body.linear_velocity = linear;
        body.angular_velocity = angular;
        body.kinematic_target = Some(target);
        body.wake();
        Ok(())
    }

    /// Puts a dynamic body's island to sleep at once: the body and every dynamic body it touches
    /// or is jointed to, through others (`docs/simulation.md`, "Sleeping"). They stop (velocities
    /// 0) and cost no solver or narrow-phase work until something wakes them (a body that meets
    /// them, an impact, a call). Refused for a static or kinematic body and for an island with a
    /// body that may not sleep (`BodyDef::allow_sleep` false), naming it; nothing changes then.
    /// The call reports no event ([`StepEvents::fell_asleep`](crate::StepEvents::fell_asleep) lists the bodies a step put to
    /// sleep).
    pub fn put_to_sleep(&mut self, id: BodyId) -> Result<(), BodyError> {
        let (body, label) = self.body_mut(id)?;
        if body.kind != BodyKind::Dynamic {
            return Err(BodyError::WrongKind {
                body: label,
                kind: body.kind,
                reason:
                    "only dynamic bodies sleep (static and kinematic bodies cost nothing at rest)",
            });
        }
        let key = id.index;
        let island = sleep::island_of(&self.bodies, &self.contacts, &self.joints, key);
        if let Some(&k) = island.iter().find(|&&k| !self.bodies.at(k).allow_sleep) {
            let other = body_label(self.bodies.at(k), self.bodies.id(k));
            return Err(BodyError::Conflicting {
                body: other,
                reason: "it may not sleep (allow_sleep is false) and its island was asked to; \
                         allow it to sleep first",
            });
        }
        for k in island {
            let b = self.bodies.at_mut(k);
            b.awake = false;
            b.linear_velocity = Vec2::ZERO;
            b.angular_velocity = 0.0;
            b.force = Vec2::ZERO;
            b.torque = 0.0;
        }
        Ok(())
    }
}

/// Refuses to set a disabled body moving (`World::set_enabled`).
pub(super) fn check_enabled(body: &crate::Body, label: &str) -> Result<(), BodyError> {
    if body.disabled.is_some() {
        return Err(BodyError::Conflicting {
            body: label.to_string(),
            reason: "the body is disabled: enable it first (set_enabled)",
        });
    }
    Ok(())
}
