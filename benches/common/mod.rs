//! Scenes shared by the benches: deterministic random poses (no RNG dependency).
#![allow(dead_code)]

use std::f64::consts::PI;
use sweep2d::query::Motion;
use sweep2d::{Transform, Vec2};

/// A small deterministic generator (xorshift64*), so every run measures the same configurations.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }
    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }
}

/// `n` pose pairs with B placed within `spread` metres of A, random angles: most pairs overlap.
pub fn random_pose_pairs(n: usize, spread: f64, seed: u64) -> Vec<(Transform, Transform)> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let xa = Transform::new(
                Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0)),
                rng.range(-PI, PI),
            );
            let d = Vec2::new(rng.range(-spread, spread), rng.range(-spread, spread));
            (xa, Transform::new(xa.translation + d, rng.range(-PI, PI)))
        })
        .collect()
}

/// `n` motion pairs for time-of-impact benches: B starts 2–4 m from A (random sideways offset up
/// to 1 m) and moves 6 m toward it over the step, so most pairs hit and some miss; both turn by up
/// to `spin` radians over the step.
pub fn toi_motions(n: usize, spin: f64, seed: u64) -> Vec<(Motion, Motion)> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let a0 = Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
            let dir = Vec2::from_angle(rng.range(-PI, PI));
            let b0 = a0 + dir * rng.range(2.0, 4.0) + dir.perp() * rng.range(-1.0, 1.0);
            let ma = Motion::new(
                Transform::new(a0, rng.range(-3.0, 3.0)),
                Vec2::ZERO,
                rng.range(-spin, spin),
            );
            let mb = Motion::new(
                Transform::new(b0, rng.range(-3.0, 3.0)),
                -dir * 6.0,
                rng.range(-spin, spin),
            );
            (ma, mb)
        })
        .collect()
}
