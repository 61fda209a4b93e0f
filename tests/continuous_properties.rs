//! Property tests of the continuous queries against the brute-force reference in `common`
//! (`ref_first_contact`: dense sampling of the motion, each interval excluded by a full-speed
//! Lipschitz bound on the SAT-free gap, or bisected).
//!
//! Case counts follow `PROPTEST_CASES` (256 by default, as CI runs them). For a long local run:
//! `PROPTEST_CASES=100000 cargo test --release --test continuous_properties`.

mod common;

use common::*;
use proptest::prelude::*;
use sweep2d::query::{swept_hull, swept_intersects, time_of_impact, Motion, ToiStatus};
use sweep2d::{Shape, Transform, Vec2};

/// The least gap over a dense sampling of the motion (metres): how deep a contact the motions make.
fn deepest(a: &Shape, ma: &Motion, b: &Shape, mb: &Motion) -> f64 {
    (0..=2000)
        .map(|i| i as f64 / 2000.0)
        .map(|t| gap(a, &ma.pose_at(t), b, &mb.pose_at(t)))
        .fold(f64::INFINITY, f64::min)
}

proptest! {
    /// Translation: the TOI exists exactly when the shapes meet, and equals the first contact
    /// within 1e-9 (never later).
    #[test]
    fn translation_toi_is_exact(
        a in any_shape(), ma in motion(3.0, 0.0), b in any_shape(), mb in motion(3.0, 0.0)
    ) {
        let toi = time_of_impact(&a, &ma, &b, &mb);
        let reference = ref_first_contact(&a, &ma, &b, &mb);
        match (toi, reference) {
            (Some(toi), RefContact::At(t)) => {
                prop_assert!(toi.t <= t + 1e-9, "TOI {} later than the first contact {}", toi.t, t);
                prop_assert!((toi.t - t).abs() <= 1e-9, "TOI {} vs first contact {}", toi.t, t);
                prop_assert_eq!(toi.status == ToiStatus::Overlapping, t == 0.0 && gap(&a, &ma.start, &b, &mb.start) <= 0.0);
            }
            (None, RefContact::At(t)) => {
                // Only a graze that floating point cannot tell from a miss may be missed.
                let depth = deepest(&a, &ma, &b, &mb).min(gap(&a, &ma.pose_at(t), &b, &mb.pose_at(t)));
                prop_assert!(depth >= -1e-9, "missed a contact at {} reaching {} m deep", t, -depth);
            }
            (Some(toi), RefContact::Never) => {
                let g = gap(&a, &ma.pose_at(toi.t), &b, &mb.pose_at(toi.t));
                prop_assert!(g <= 1e-9, "reported a contact at {} with gap {}", toi.t, g);
            }
            (None, RefContact::Never) | (_, RefContact::Unknown) => {}
        }
    }

    /// With rotation: never a miss, never later than the first contact, and the gap at the returned
    /// pose is within the tolerance (not overlapping).
    #[test]
    fn rotating_toi_is_never_late(
        a in any_shape(), ma in motion(3.0, 12.0), b in any_shape(), mb in motion(3.0, 12.0)
    ) {
        let toi = time_of_impact(&a, &ma, &b, &mb);
        let reference = ref_first_contact(&a, &ma, &b, &mb);
        if let RefContact::At(t) = reference {
            let toi = toi.expect("a contact the reference found was missed");
            prop_assert!(toi.t <= t + 1e-12, "TOI {} later than the first contact {}", toi.t, t);
        }
        if let Some(toi) = toi {
            let g = gap(&a, &ma.pose_at(toi.t), &b, &mb.pose_at(toi.t));
            match toi.status {
                ToiStatus::Overlapping => prop_assert!(toi.t == 0.0 && g <= 0.0),
                ToiStatus::Hit => prop_assert!((-1e-9..=1e-6 + 1e-9).contains(&g), "gap {} at the hit", g),
                ToiStatus::BudgetExhausted => prop_assert!(g >= -1e-9, "budget time overlaps: {}", g),
            }
        }
    }

    /// Swapping A and B gives the same time and a flipped normal.
    #[test]
    fn toi_is_symmetric(
        a in convex_shape(), ma in motion(3.0, 6.0), b in convex_shape(), mb in motion(3.0, 6.0)
    ) {
        let ab = time_of_impact(&a, &ma, &b, &mb);
        let ba = time_of_impact(&b, &mb, &a, &ma);
        prop_assert_eq!(ab.is_some(), ba.is_some());
        if let (Some(ab), Some(ba)) = (ab, ba) {
            let exact = ma.is_translation() && mb.is_translation();
            let tol = if exact { 1e-9 } else { 1e-6 };
            prop_assert!((ab.t - ba.t).abs() <= tol, "{} vs {}", ab.t, ba.t);
            if ab.status == ToiStatus::Hit && ba.status == ToiStatus::Hit {
                prop_assert!((ab.normal + ba.normal).length() <= 1e-3 || (ab.t - ba.t).abs() > 0.0,
                    "normals {:?} and {:?} do not flip", ab.normal, ba.normal);
            }
        }
    }

    /// Every pose of the motion lies inside the swept hull: sampled `t`, sampled boundary points.
    #[test]
    fn swept_hull_holds_every_pose(s in any_shape(), m in motion(3.0, 30.0), ts in prop::collection::vec(0.0..=1.0f64, 24)) {
        let hull = swept_hull(&s, &m);
        let bb = hull.aabb();
        for t in ts {
            let xf = m.pose_at(t);
            for core in world_cores(&s, &xf) {
                for p in &core.points {
                    for k in 0..8 {
                        let q = *p + Vec2::from_angle(k as f64 * std::f64::consts::FRAC_PI_4) * core.radius;
                        // Relative slack 1e-12 for rounding in the hull construction.
                        let inside = hull.contains_point(q)
                            || hull.vertices().iter().any(|v| v.distance(q) <= hull.radius() * (1.0 + 1e-12) + 1e-12);
                        prop_assert!(inside, "point {:?} of the pose at t = {} is outside", q, t);
                        prop_assert!(bb.grown(1e-12).contains_point(q));
                    }
                }
            }
        }
    }

    /// Swept SAT rejection: exact under translation, conservative with rotation.
    #[test]
    fn swept_rejection_never_rejects_a_meeting_pair(
        a in any_shape(), ma in motion(3.0, 8.0), b in any_shape(), mb in motion(3.0, 8.0)
    ) {
        let maybe = swept_intersects(&a, &ma, &b, &mb);
        match ref_first_contact(&a, &ma, &b, &mb) {
            RefContact::At(t) => {
                let depth = gap(&a, &ma.pose_at(t), &b, &mb.pose_at(t));
                prop_assert!(maybe || depth >= -1e-9, "rejected a pair that meets at {}", t);
            }
            RefContact::Never if ma.is_translation() && mb.is_translation() => {
                prop_assert!(!maybe || deepest(&a, &ma, &b, &mb) <= 1e-9, "translation test is not exact");
            }
            _ => {}
        }
    }
}

#[test]
fn a_zero_spin_motion_is_a_translation() {
    let m = Motion::new(Transform::IDENTITY, Vec2::X, 0.0);
    assert!(m.is_translation());
}
