//! Math primitives: [`Rot`], [`Transform`] and [`Aabb`], in the style of glam.
//!
//! Everything is `f64` ([`Real`]) and uses [`glam::DVec2`] (re-exported as [`Vec2`]) as its vector.
//! Units are metres and radians, counter-clockwise positive, y up. A [`Transform`] maps a body's
//! *local* frame into the *world* frame: `world = rotation * local + translation`. Rotations are kept
//! as a unit complex number (cosine, sine) as in Box2D v3, so composing and applying them needs no
//! trigonometry.

/// The vector type of the public API: [`glam::DVec2`] (metres, or metres per second, by context;
/// world or local frame as each function says). Re-exported at the crate root as `sweep2d::Vec2`.
pub type Vec2 = glam::DVec2;

/// The scalar type of the whole crate (metres, seconds, kilograms, radians).
pub type Real = f64;

/// A rotation in the plane, stored as the unit complex number `cos + i sin` of its angle.
///
/// Counter-clockwise positive. Build it with [`Rot::from_angle`]; the pair is kept normalised by every
/// constructor in this crate.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rot {
    /// Cosine of the angle (dimensionless).
    pub cos: Real,
    /// Sine of the angle (dimensionless).
    pub sin: Real,
}

impl Default for Rot {
    #[inline]
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Rot {
    /// The rotation by zero radians.
    pub const IDENTITY: Self = Self { cos: 1.0, sin: 0.0 };

    /// The rotation by `angle` radians (counter-clockwise).
    #[inline]
    #[must_use]
    pub fn from_angle(angle: Real) -> Self {
        let (sin, cos) = crate::trig::sin_cos(angle);
        Self { cos, sin }
    }

    /// The rotation by `angle` radians for the engine's inner loops: Taylor polynomials for small
    /// turns (|angle| ≤ 1/64 rad, where the first omitted terms, `x⁹/9!` and `x¹⁰/10!`, are below
    /// 1e-21, far under an ulp of the result; within 2 ulps of [`Rot::from_angle`], tested),
    /// `sin_cos` beyond. Substep turns and the poses of a time-of-impact search are mostly
    /// small, and the library call was 2–4% of a step.
    #[inline]
    #[must_use]
    pub(crate) fn turn(angle: Real) -> Self {
        if angle.abs() > 1.0 / 64.0 {
            return Self::from_angle(angle);
        }
        let x2 = angle * angle;
        let sin = angle * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0)));
        let cos = 1.0 - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0)));
        Self { cos, sin }
    }

    /// The angle of this rotation in radians, in `(-π, π]`.
    #[inline]
    #[must_use]
    pub fn angle(self) -> Real {
        crate::trig::atan2(self.sin, self.cos)
    }

    /// Rotates the vector `v` by this rotation.
    #[inline]
    #[must_use]
    pub fn rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(
            self.cos * v.x - self.sin * v.y,
            self.sin * v.x + self.cos * v.y,
        )
    }

    /// Rotates the vector `v` by the inverse of this rotation.
    #[inline]
    #[must_use]
    pub fn inv_rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(
            self.cos * v.x + self.sin * v.y,
            -self.sin * v.x + self.cos * v.y,
        )
    }

    /// The composition `self ∘ other`: first `other`, then `self` (angles add).
    #[inline]
    #[must_use]
    pub fn mul_rot(self, other: Self) -> Self {
        Self {
            cos: self.cos * other.cos - self.sin * other.sin,
            sin: self.sin * other.cos + self.cos * other.sin,
        }
    }

    /// The composition `self⁻¹ ∘ other`: the rotation of `other` seen from `self` (angle difference).
    #[inline]
    #[must_use]
    pub fn inv_mul_rot(self, other: Self) -> Self {
        Self {
            cos: self.cos * other.cos + self.sin * other.sin,
            sin: self.cos * other.sin - self.sin * other.cos,
        }
    }

    /// The inverse rotation (the angle negated).
    #[inline]
    #[must_use]
    pub fn inverse(self) -> Self {
        Self {
            cos: self.cos,
            sin: -self.sin,
        }
    }

    /// The image of the x axis under this rotation (a unit vector).
    #[inline]
    #[must_use]
    pub fn x_axis(self) -> Vec2 {
        Vec2::new(self.cos, self.sin)
    }

    /// Returns `true` if both components are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(self) -> bool {
        self.cos.is_finite() && self.sin.is_finite()
    }
}

/// A rigid transform (rotation then translation) from a local frame to the world frame.
///
/// `world = rotation.rotate(local) + translation`. Translation in metres, rotation counter-clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Transform {
    /// Position of the local origin in the world frame (metres).
    pub translation: Vec2,
    /// Orientation of the local frame relative to the world frame.
    pub rotation: Rot,
}

impl Transform {
    /// The identity transform: local and world frames coincide.
    pub const IDENTITY: Self = Self {
        translation: Vec2::ZERO,
        rotation: Rot::IDENTITY,
    };

    /// A transform with the given translation (metres) and rotation `angle` (radians, CCW).
    #[inline]
    #[must_use]
    pub fn new(translation: Vec2, angle: Real) -> Self {
        Self {
            translation,
            rotation: Rot::from_angle(angle),
        }
    }

    /// A transform from a translation (metres) and an already built rotation.
    #[inline]
    #[must_use]
    pub const fn from_parts(translation: Vec2, rotation: Rot) -> Self {
        Self {
            translation,
            rotation,
        }
    }

    /// A pure translation by `translation` (metres).
    #[inline]
    #[must_use]
    pub const fn from_translation(translation: Vec2) -> Self {
        Self {
            translation,
            rotation: Rot::IDENTITY,
        }
    }

    /// The rotation angle in radians, in `(-π, π]`.
    #[inline]
    #[must_use]
    pub fn angle(&self) -> Real {
        self.rotation.angle()
    }

    /// Maps a point from the local frame to the world frame (metres).
    #[inline]
    #[must_use]
    pub fn transform_point(&self, p: Vec2) -> Vec2 {
        self.rotation.rotate(p) + self.translation
    }

    /// Maps a direction from the local frame to the world frame (rotation only).
    #[inline]
    #[must_use]
    pub fn transform_vector(&self, v: Vec2) -> Vec2 {
        self.rotation.rotate(v)
    }

    /// Maps a point from the world frame into this local frame (metres).
    #[inline]
    #[must_use]
    pub fn inv_transform_point(&self, p: Vec2) -> Vec2 {
        self.rotation.inv_rotate(p - self.translation)
    }

    /// Maps a direction from the world frame into this local frame (rotation only).
    #[inline]
    #[must_use]
    pub fn inv_transform_vector(&self, v: Vec2) -> Vec2 {
        self.rotation.inv_rotate(v)
    }

    /// The composition `self * other`: apply `other` first, then `self`.
    ///
    /// If `other` maps frame C into frame B and `self` maps B into the world, the result maps C into
    /// the world.
    #[inline]
    #[must_use]
    pub fn mul_transform(&self, other: &Self) -> Self {
        Self {
            translation: self.transform_point(other.translation),
            rotation: self.rotation.mul_rot(other.rotation),
        }
    }

    /// The composition `self⁻¹ * other`: `other` expressed in this frame.
    ///
    /// With `self` the pose of body A and `other` the pose of body B (both local→world), the result
    /// maps B's local frame into A's local frame. Narrow-phase kernels use it to work in A's frame.
    #[inline]
    #[must_use]
    pub fn inv_mul(&self, other: &Self) -> Self {
        Self {
            translation: self.inv_transform_point(other.translation),
            rotation: self.rotation.inv_mul_rot(other.rotation),
        }
    }

    /// The inverse transform (world → local).
    #[inline]
    #[must_use]
    pub fn inverse(&self) -> Self {
        let rotation = self.rotation.inverse();
        Self {
            translation: -rotation.rotate(self.translation),
            rotation,
        }
    }

    /// This transform rotated by `angle` radians about the world point `pivot` (metres).
    ///
    /// The pivot stays fixed: useful to turn a body about a point that is not its local origin.
    #[inline]
    #[must_use]
    pub fn rotated_about(&self, pivot: Vec2, angle: Real) -> Self {
        let r = Rot::from_angle(angle);
        Self {
            translation: pivot + r.rotate(self.translation - pivot),
            rotation: r.mul_rot(self.rotation),
        }
    }

    /// Returns `true` if translation and rotation are all finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.rotation.is_finite()
    }
}

impl core::ops::Mul for Transform {
    type Output = Transform;
    /// Same as [`Transform::mul_transform`].
    #[inline]
    fn mul(self, rhs: Transform) -> Transform {
        self.mul_transform(&rhs)
    }
}

/// An axis-aligned bounding box in the frame its points are given in (usually world, metres).
///
/// `min <= max` componentwise for a box built by the constructors here. Boxes are closed: touching
/// boxes overlap.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb {
    /// Lower corner (metres).
    pub min: Vec2,
    /// Upper corner (metres).
    pub max: Vec2,
}

impl Aabb {
    /// A box from its two corners; the corners may be given in any order.
    #[inline]
    #[must_use]
    pub fn new(a: Vec2, b: Vec2) -> Self {
        Self {
            min: a.min(b),
            max: a.max(b),
        }
    }

    /// The box of a centre and half extents (metres, taken as absolute values).
    #[inline]
    #[must_use]
    pub fn from_center_half_extents(center: Vec2, half_extents: Vec2) -> Self {
        let h = half_extents.abs();
        Self {
            min: center - h,
            max: center + h,
        }
    }

    /// The smallest box holding every point, or `None` for an empty slice.
    #[must_use]
    pub fn from_points(points: &[Vec2]) -> Option<Self> {
        let (first, rest) = points.split_first()?;
        let mut b = Self {
            min: *first,
            max: *first,
        };
        for p in rest {
            b.min = b.min.min(*p);
            b.max = b.max.max(*p);
        }
        Some(b)
    }

    /// The smallest box holding both boxes.
    #[inline]
    #[must_use]
    pub fn union(&self, other: &Self) -> Self {
        Self {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// Returns `true` if the boxes share at least one point (touching counts).
    #[inline]
    #[must_use]
    pub fn overlaps(&self, other: &Self) -> bool {
        // All four comparisons at once (one SIMD compare where the CPU has one), then one branch
        // on the result: in tree descents each comparison alone is a coin toss the branch
        // predictor keeps losing, and the compiler turns `&` of scalar comparisons back into four
        // branches. The same IEEE comparisons as `a <= b` each, so the same answer.
        let lower = wide::f64x4::new([self.min.x, self.min.y, other.min.x, other.min.y]);
        let upper = wide::f64x4::new([other.max.x, other.max.y, self.max.x, self.max.y]);
        lower.simd_le(upper).to_bitmask() == 0b1111
    }

    /// Returns `true` if `other` lies entirely inside this box (boundaries included).
    #[inline]
    #[must_use]
    pub fn contains(&self, other: &Self) -> bool {
        self.min.x <= other.min.x
            && self.min.y <= other.min.y
            && other.max.x <= self.max.x
            && other.max.y <= self.max.y
    }

    /// Returns `true` if the point lies inside this box or on its boundary.
    #[inline]
    #[must_use]
    pub fn contains_point(&self, p: Vec2) -> bool {
        self.min.x <= p.x && p.x <= self.max.x && self.min.y <= p.y && p.y <= self.max.y
    }

    /// The centre of the box (metres).
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec2 {
        0.5 * (self.min + self.max)
    }

    /// Half the size of the box along each axis (metres).
    #[inline]
    #[must_use]
    pub fn half_extents(&self) -> Vec2 {
        0.5 * (self.max - self.min)
    }

    /// The perimeter (metres): the cost measure of the surface-area heuristic in 2D.
    #[inline]
    #[must_use]
    pub fn perimeter(&self) -> Real {
        2.0 * ((self.max.x - self.min.x) + (self.max.y - self.min.y))
    }

    /// The box grown by `margin` metres on every side (shrunk for a negative margin).
    #[inline]
    #[must_use]
    pub fn grown(&self, margin: Real) -> Self {
        let m = Vec2::splat(margin);
        Self {
            min: self.min - m,
            max: self.max + m,
        }
    }

    /// Casts the ray `origin + t * direction`, `t` in `[0, max_t]`, against the box (slab method).
    ///
    /// Returns the smallest `t` at which the ray is inside or on the box, so `Some(0.0)` when the
    /// origin is already inside. `direction` need not be unit length: `t` is in units of it.
    #[must_use]
    pub fn ray_cast(&self, origin: Vec2, direction: Vec2, max_t: Real) -> Option<Real> {
        let mut t_min: Real = 0.0;
        let mut t_max = max_t;
        for axis in 0..2 {
            let (o, d, lo, hi) = (
                origin[axis],
                direction[axis],
                self.min[axis],
                self.max[axis],
            );
            if d == 0.0 {
                if o < lo || o > hi {
                    return None;
                }
            } else {
                let inv = 1.0 / d;
                let (mut t1, mut t2) = ((lo - o) * inv, (hi - o) * inv);
                if t1 > t2 {
                    core::mem::swap(&mut t1, &mut t2);
                }
                t_min = t_min.max(t1);
                t_max = t_max.min(t2);
                if t_min > t_max {
                    return None;
                }
            }
        }
        Some(t_min)
    }

    /// Returns `true` if both corners are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.min.is_finite() && self.max.is_finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use core::f64::consts::PI;

    #[test]
    fn compose_and_inverse_round_trip() {
        let a = Transform::new(Vec2::new(1.0, -2.0), 0.7);
        let b = Transform::new(Vec2::new(-3.0, 0.5), -1.9);
        let p = Vec2::new(0.3, 0.8);
        let ab = a * b;
        assert_relative_eq!(
            ab.transform_point(p),
            a.transform_point(b.transform_point(p)),
            epsilon = 1e-12
        );
        let b_in_a = a.inv_mul(&b);
        assert_relative_eq!(
            a.transform_point(b_in_a.transform_point(p)),
            b.transform_point(p),
            epsilon = 1e-12
        );
        let id = a * a.inverse();
        assert_relative_eq!(id.translation, Vec2::ZERO, epsilon = 1e-12);
        assert_relative_eq!(id.angle(), 0.0, epsilon = 1e-12);
        assert_relative_eq!(
            a.inv_transform_point(a.transform_point(p)),
            p,
            epsilon = 1e-12
        );
    }

    #[test]
    fn angle_is_wrapped_and_rotation_is_ccw() {
        assert_relative_eq!(
            Transform::new(Vec2::ZERO, 3.0 * PI / 2.0).angle(),
            -PI / 2.0
        );
        let r = Rot::from_angle(PI / 2.0);
        assert_relative_eq!(r.rotate(Vec2::X), Vec2::Y, epsilon = 1e-15);
        assert_relative_eq!(r.inv_rotate(Vec2::Y), Vec2::X, epsilon = 1e-15);
    }

    #[test]
    fn rotation_about_a_pivot_keeps_the_pivot_fixed() {
        let t = Transform::new(Vec2::new(2.0, 0.0), 0.0);
        let pivot = Vec2::new(1.0, 0.0);
        let r = t.rotated_about(pivot, PI / 2.0);
        assert_relative_eq!(r.translation, Vec2::new(1.0, 1.0), epsilon = 1e-12);
        // The world point that sat on the pivot is still there.
        let local_pivot = t.inv_transform_point(pivot);
        assert_relative_eq!(r.transform_point(local_pivot), pivot, epsilon = 1e-12);
    }

    #[test]
    fn aabb_queries() {
        let a = Aabb::new(Vec2::new(1.0, 1.0), Vec2::new(-1.0, -1.0));
        let b = Aabb::from_center_half_extents(Vec2::new(2.0, 0.0), Vec2::ONE);
        assert!(a.overlaps(&b), "touching boxes overlap");
        assert!(!a.overlaps(&b.grown(-1e-9)));
        let u = a.union(&b);
        assert!(u.contains(&a) && u.contains(&b));
        assert_relative_eq!(u.perimeter(), 2.0 * (4.0 + 2.0));
        assert!(a.contains_point(Vec2::new(1.0, -1.0)));
        assert_eq!(Aabb::from_points(&[]), None);
    }

    proptest::proptest! {
        /// The SIMD overlap test answers what the four scalar comparisons answer: boxes drawn on
        /// a coarse grid (so that touching edges, shared corners and equal boxes come up often),
        /// with NaN in a bound now and then (never overlapping).
        #[test]
        fn overlaps_is_the_four_comparisons(
            a in proptest::array::uniform4(-4i8..4),
            b in proptest::array::uniform4(-4i8..4),
            nan in proptest::option::weighted(0.1, 0usize..8),
        ) {
            let mut v: Vec<Real> = a.iter().chain(&b).map(|&k| Real::from(k) * 0.25).collect();
            if let Some(i) = nan {
                v[i] = Real::NAN;
            }
            let boxes = |o: usize| Aabb { min: Vec2::new(v[o], v[o + 1]), max: Vec2::new(v[o + 2], v[o + 3]) };
            let (p, q) = (boxes(0), boxes(4));
            let scalar = p.min.x <= q.max.x && q.min.x <= p.max.x && p.min.y <= q.max.y && q.min.y <= p.max.y;
            proptest::prop_assert_eq!(p.overlaps(&q), scalar);
            proptest::prop_assert_eq!(q.overlaps(&p), scalar);
        }
    }

    #[test]
    fn aabb_ray_cast() {
        let a = Aabb::new(Vec2::new(1.0, -1.0), Vec2::new(3.0, 1.0));
        let t = a.ray_cast(Vec2::ZERO, Vec2::new(2.0, 0.0), 1.0).unwrap();
        assert_relative_eq!(t, 0.5);
        assert_eq!(a.ray_cast(Vec2::ZERO, Vec2::new(2.0, 0.0), 0.4), None);
        assert_eq!(a.ray_cast(Vec2::ZERO, Vec2::new(0.0, 1.0), 10.0), None);
        assert_eq!(a.ray_cast(Vec2::new(2.0, 0.0), Vec2::X, 1.0), Some(0.0));
        // Diagonal ray grazing the corner.
        let t = a
            .ray_cast(Vec2::new(0.0, -2.0), Vec2::new(1.0, 1.0), 5.0)
            .unwrap();
        assert_relative_eq!(t, 1.0);
    }
}

/// A number as error messages show it: plain between 1e-4 and 1e6 (`0.5`, `-3`, `250000`),
/// in exponent form outside (`1e160`, `5e-324`), so a huge or tiny value is one short word.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Num(pub Real);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        if v == 0.0 || !v.is_finite() || (1e-4..1e6).contains(&v.abs()) {
            write!(f, "{v}")
        } else {
            write!(f, "{v:e}")
        }
    }
}

/// The unit vector at `angle` radians from +x, `(cos, sin)`, computed by [`crate::trig`] (the
/// same bits on every platform, unlike `DVec2::from_angle`).
#[inline]
#[must_use]
pub fn unit_at(angle: Real) -> Vec2 {
    let (sin, cos) = crate::trig::sin_cos(angle);
    Vec2::new(cos, sin)
}

/// The crate's tests' random numbers: xorshift64 from `seed` (not zero), the raw 64-bit words
/// (each test maps them to its range; no RNG dependency, the same sequence everywhere).
#[cfg(test)]
pub(crate) fn xorshift64(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
