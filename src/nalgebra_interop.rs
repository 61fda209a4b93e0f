//! Conversions to and from nalgebra (feature `nalgebra`).
//!
//! Vectors and points convert through nalgebra's own glam conversions (`convert-glam033`), which
//! this feature enables: `nalgebra::Vector2<f64>` and `nalgebra::Point2<f64>` ⇄ [`Vec2`]. This
//! module adds the rigid types: [`Rot`] ⇄ `UnitComplex<f64>` and [`Transform`] ⇄ `Isometry2<f64>`,
//! both meaning "local frame → world frame".

use crate::math::Vec2;
use crate::math::{Rot, Transform};
use nalgebra::{Isometry2, UnitComplex, Vector2};

impl From<Rot> for UnitComplex<f64> {
    fn from(r: Rot) -> Self {
        UnitComplex::from_cos_sin_unchecked(r.cos, r.sin)
    }
}

impl From<UnitComplex<f64>> for Rot {
    fn from(r: UnitComplex<f64>) -> Self {
        Rot {
            cos: r.cos_angle(),
            sin: r.sin_angle(),
        }
    }
}

impl From<Transform> for Isometry2<f64> {
    fn from(t: Transform) -> Self {
        Isometry2::from_parts(
            Vector2::new(t.translation.x, t.translation.y).into(),
            t.rotation.into(),
        )
    }
}

impl From<Isometry2<f64>> for Transform {
    fn from(iso: Isometry2<f64>) -> Self {
        let v = iso.translation.vector;
        Transform::from_parts(Vec2::new(v.x, v.y), iso.rotation.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use nalgebra::{Point2, Vector2};

    #[test]
    fn round_trips() {
        let v = Vec2::new(1.5, -2.0);
        let nv: Vector2<f64> = v.into();
        let back: Vec2 = nv.into();
        assert_eq!(back, v);
        let np: Point2<f64> = v.into();
        assert_eq!(Vec2::from(np), v);

        let t = Transform::new(Vec2::new(3.0, 4.0), 0.8);
        let iso: Isometry2<f64> = t.into();
        let p = Vec2::new(0.25, -1.0);
        let moved = iso * Point2::new(p.x, p.y);
        assert_relative_eq!(
            Vec2::new(moved.x, moved.y),
            t.transform_point(p),
            epsilon = 1e-12
        );
        let t2: Transform = iso.into();
        assert_relative_eq!(t2.translation, t.translation, epsilon = 1e-12);
        assert_relative_eq!(t2.angle(), t.angle(), epsilon = 1e-12);
    }
}
