//! Contact arithmetic, written once for the narrow phase, the solver and the continuous pass: the
//! velocity of a body's material point, the relative velocity of two bodies at a contact, the
//! effective mass along a direction, the velocity change an impulse makes, and how the friction
//! and restitution of two bodies mix ([`MixingRule`]).
//!
//! Conventions: offsets `r` are from a body's centre of mass to the point (metres, world
//! orientation); an impulse `j` (N·s, world) acts on B and `−j` on A, so a positive normal impulse
//! along the normal from A toward B pushes the bodies apart.

use crate::math::{Real, Vec2};

/// `ω × r` for a scalar angular velocity `ω` (rad/s) and an offset `r` (metres): the velocity
/// (m/s) of a point at `r` on a body turning at `ω`.
#[inline(always)]
pub(crate) fn cross_sv(w: Real, r: Vec2) -> Vec2 {
    Vec2::new(-w * r.y, w * r.x)
}

/// Velocity (m/s, world) of the material point at offset `r` of a body moving at `v` (m/s) and
/// turning at `w` (rad/s).
#[inline(always)]
pub(crate) fn point_velocity(v: Vec2, w: Real, r: Vec2) -> Vec2 {
    v + cross_sv(w, r)
}

/// Velocity of B's point at offset `rb` relative to A's point at offset `ra` (m/s, world): its
/// component along the normal is negative while the bodies approach.
#[inline(always)]
pub(crate) fn relative_velocity(
    va: Vec2,
    wa: Real,
    ra: Vec2,
    vb: Vec2,
    wb: Real,
    rb: Vec2,
) -> Vec2 {
    vb + cross_sv(wb, rb) - va - cross_sv(wa, ra)
}

/// Inverse mass (1/kg) and inverse rotational inertia (1/(kg·m²)) of a body; zero for static and
/// kinematic bodies, which impulses do not move. A body whose translation is locked along a world
/// axis (`World::set_locked_translation`) has zero inverse mass along it: `axes` holds 1 for a
/// free axis and 0 for a locked one, and the inverse mass is the diagonal `linear · axes`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct InverseMass {
    /// 1 / mass.
    pub linear: Real,
    /// 1 / inertia about the centre of mass.
    pub angular: Real,
    /// 1 for each world axis the body may move along, 0 for a locked one.
    pub axes: Vec2,
}

impl InverseMass {
    /// A body's inverse masses, free to move along both axes.
    #[cfg(test)]
    pub const fn free(linear: Real, angular: Real) -> Self {
        Self {
            linear,
            angular,
            axes: Vec2::ONE,
        }
    }

    /// Whether impulses move the body at all.
    #[inline(always)]
    pub fn responds(self) -> bool {
        (self.linear != 0.0 && self.axes != Vec2::ZERO) || self.angular != 0.0
    }

    /// Whether its translation is free along both axes (the common case, computed as before
    /// the locks existed, to the bit).
    #[inline(always)]
    fn free_axes(self) -> bool {
        self.axes == Vec2::ONE
    }

    /// The linear velocity change (m/s) an impulse `p` (N·s) makes.
    #[inline(always)]
    pub fn linear_response(self, p: Vec2) -> Vec2 {
        if self.free_axes() {
            self.linear * p
        } else {
            self.linear * (self.axes * p)
        }
    }

    /// The inverse mass along the unit direction `d` (1/kg): `linear`, or less along a locked
    /// axis.
    #[inline(always)]
    pub fn linear_along(self, d: Vec2) -> Real {
        if self.free_axes() {
            self.linear
        } else {
            self.linear * (self.axes.x * d.x * d.x + self.axes.y * d.y * d.y)
        }
    }

    /// The linear coupling `u · M⁻¹ · w` of two directions (1/kg).
    #[inline(always)]
    pub fn linear_across(self, u: Vec2, w: Vec2) -> Real {
        if self.free_axes() {
            self.linear * u.dot(w)
        } else {
            self.linear * (self.axes * u).dot(w)
        }
    }

    /// The velocity change `(Δv, Δω)` an impulse `j` (N·s) at offset `r` makes.
    #[inline(always)]
    pub fn response(self, r: Vec2, j: Vec2) -> (Vec2, Real) {
        (self.linear_response(j), self.angular * r.perp_dot(j))
    }
}

/// The inverse of the effective mass of two bodies at offsets `ra`, `rb` along the unit direction
/// `d`: `1/mA + 1/mB + (rA × d)²/IA + (rB × d)²/IB` (1/kg). An impulse `λ·d` changes the relative
/// velocity along `d` by `λ` times this.
#[inline(always)]
pub(crate) fn inverse_effective_mass(
    a: InverseMass,
    ra: Vec2,
    b: InverseMass,
    rb: Vec2,
    d: Vec2,
) -> Real {
    let (rda, rdb) = (ra.perp_dot(d), rb.perp_dot(d));
    a.linear_along(d) + b.linear_along(d) + a.angular * rda * rda + b.angular * rdb * rdb
}

/// How the friction or restitution coefficients of two bodies combine into the pair's.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MixingRule {
    /// `√(a·b)`: either body slippery makes the pair slippery (Box2D's and Rapier's friction
    /// default).
    #[default]
    GeometricMean,
    /// `max(a, b)`: the bouncier body decides (Box2D's restitution default).
    Max,
    /// `min(a, b)`.
    Min,
    /// `(a + b) / 2`.
    Average,
    /// `a · b`.
    Multiply,
}

impl MixingRule {
    /// The pair's coefficient from the two bodies' coefficients (both ≥ 0).
    #[inline]
    #[must_use]
    pub fn mix(self, a: Real, b: Real) -> Real {
        match self {
            MixingRule::GeometricMean => (a * b).sqrt(),
            MixingRule::Max => a.max(b),
            MixingRule::Min => a.min(b),
            MixingRule::Average => 0.5 * (a + b),
            MixingRule::Multiply => a * b,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_velocity_is_v_plus_w_cross_r() {
        // Turning at 2 rad/s, the point 1 m along x moves at 2 m/s along y.
        let v = point_velocity(Vec2::new(1.0, 0.0), 2.0, Vec2::new(1.0, 0.0));
        assert_eq!(v, Vec2::new(1.0, 2.0));
        let rel = relative_velocity(
            Vec2::ZERO,
            0.0,
            Vec2::ZERO,
            Vec2::new(0.0, -3.0),
            1.0,
            Vec2::new(0.0, 1.0),
        );
        assert_eq!(rel, Vec2::new(-1.0, -3.0));
    }

    #[test]
    fn effective_mass_of_a_point_hit_off_centre() {
        // A unit mass with unit inertia hit 1 m off its centre, across the offset: 1 + 1² = 2.
        let body = InverseMass::free(1.0, 1.0);
        let ground = InverseMass::default();
        let k = inverse_effective_mass(ground, Vec2::ZERO, body, Vec2::X, Vec2::Y);
        assert_eq!(k, 2.0);
        // Along the offset the impulse passes through the centre: no turning.
        let k = inverse_effective_mass(ground, Vec2::ZERO, body, Vec2::X, Vec2::X);
        assert_eq!(k, 1.0);
        assert!(!ground.responds() && body.responds());
        assert_eq!(body.response(Vec2::X, Vec2::Y), (Vec2::Y, 1.0));
    }

    #[test]
    fn mixing_rules() {
        assert_eq!(MixingRule::GeometricMean.mix(0.25, 1.0), 0.5);
        assert_eq!(MixingRule::Max.mix(0.25, 1.0), 1.0);
        assert_eq!(MixingRule::Min.mix(0.25, 1.0), 0.25);
        assert_eq!(MixingRule::Average.mix(0.25, 1.0), 0.625);
        assert_eq!(MixingRule::Multiply.mix(0.25, 1.0), 0.25);
    }
}
