//! Scenes shared by the benches: deterministic random poses (no RNG dependency).
#![allow(dead_code)]

use std::f64::consts::PI;
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
