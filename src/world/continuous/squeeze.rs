//! Bodies pinned against immovable ones: when the group solve around an impact leaves a contact
//! with a static or kinematic body still closing (a box pressed by a kinematic blade into the
//! floor, directly or through other bodies), sequential impulses have met a system they cannot
//! settle in a few sweeps: two immovable bodies closing on the group from nearly opposite sides
//! (a narrow wedge) need a large sideways speed, which Gauss–Seidel reaches only after hundreds of
//! sweeps, and with friction a wedge narrower than the friction angle has no solution at all.
//!
//! The group is then solved exactly without friction: the non-penetration conditions of all its
//! contact points at the impact time form a linear complementarity problem (impulses `λ ≥ 0`,
//! normal velocities `w = Aλ + b ≥ 0`, `λ·w = 0`, with `A` the contacts' Delassus matrix), solved
//! by Murty's principal pivoting with the least-index rule, which terminates for the positive
//! definite `A` we give it (a tiny ridge on the diagonal makes redundant points harmless). The
//! squeezed bodies leave along the free direction, as a rigid body pressed between a moving and a
//! fixed one would (docs/continuous.md, "Pinned bodies").
//!
//! Where no free direction exists (the immovable bodies close from exactly opposite sides, or the
//! way out needs more than `SQUEEZE_SPEED_FACTOR` times the closing speed) the group is jammed:
//! the kinematic bodies pressing it yield for the rest of the step (they pass the bodies they
//! press, as if those were not there), the group is settled again without them, and the static
//! world always wins.

use super::group::GroupContact;
use super::group_joints::GroupJoint;
use super::impact::SavedVelocity;
use super::ContinuousPass;
use crate::dynamics::contact_math::InverseMass;
use crate::dynamics::BodyKind;
use crate::math::{Real, Vec2};
use crate::world::contact_set::pair_key;

/// Most contact points an exact squeeze solves (a group's points; each pivot costs a dense
/// factorisation of up to this size). Larger groups yield instead.
const SQUEEZE_MAX_POINTS: usize = 48;

/// Largest speed change (as a multiple of the group's fastest closing speed, plus 1 m/s; a turn
/// counts at the body's reach) a squeeze may give a body. Pressed into a wedge of angle `α`, a body leaves at `1 / sin α` times the closing
/// speed; beyond 20× (a wedge under 3°) the bodies are taken as jammed.
const SQUEEZE_SPEED_FACTOR: Real = 20.0;

/// Closing speed (m/s) left at an immovable contact, over its target, that counts as the group
/// solve having failed: the slop over a whole step at 60 Hz.
const RESIDUAL_SPEED: Real = crate::constants::LINEAR_SLOP * 60.0;

/// Closing speed (relative to the group's closing speed + 1 m/s) a squeeze may leave at a point.
const SQUEEZE_TOLERANCE: Real = 1e-6;

/// Relative size of the ridge added to the Delassus matrix's diagonal.
const RIDGE: Real = 1e-9;

/// One contact point of the squeeze's problem.
#[derive(Clone, Copy)]
struct Row {
    a: u32,
    b: u32,
    n: Vec2,
    ra: Vec2,
    rb: Vec2,
    target: Real,
}

impl ContinuousPass<'_> {
    /// The largest closing speed past its target (m/s) at the group's contacts (only those with
    /// an immovable body — static, kinematic or pinned — when `immovable_only`), or 0.
    fn residual(&self, contacts: &[GroupContact], immovable_only: bool) -> Real {
        let mut worst: Real = 0.0;
        for k in contacts {
            if immovable_only && self.movable(k.a) && self.movable(k.b) {
                continue;
            }
            for p in &k.points[..k.count] {
                let vn = self
                    .relative_velocity_of(k.a, p.ra, k.b, p.rb)
                    .dot(k.normal);
                worst = worst.max(p.target - vn);
            }
        }
        worst
    }

    /// Whether the group solve left a contact with an immovable body closing (see the module
    /// notes).
    pub(super) fn pinned_group(&self, contacts: &[GroupContact]) -> bool {
        self.residual(contacts, true) > RESIDUAL_SPEED
    }

    /// Settles a pinned group: restores the members' velocities from `saved` (as they were before
    /// the group solve), then solves the frictionless problem exactly. If that has no acceptable
    /// solution (or the group has joints), the kinematic bodies pressing the group yield and the
    /// group is solved again without them (sequential impulses, static contacts last). Returns whether the group was
    /// squeezed out (`false`: jammed, kinematic bodies yielded).
    pub(super) fn squeeze(
        &mut self,
        contacts: &mut Vec<GroupContact>,
        joints: &mut [GroupJoint],
        saved: &[SavedVelocity],
    ) -> bool {
        self.restore_velocities(saved);
        let closing = self.residual(contacts, false);
        // (A jointed group is not solved exactly: its joints are equality constraints the
        // pivoting does not carry.)
        if joints.is_empty() && self.squeeze_exact(contacts, saved, closing) {
            return true;
        }
        self.restore_velocities(saved);
        // The kinematic bodies that press the group (close on it at the impact time) yield.
        let kinematic = |this: &Self, i: u32| this.bodies.at(i).kind == BodyKind::Kinematic;
        let mut pressing = Vec::new();
        for k in contacts.iter() {
            let closes = k.points[..k.count].iter().any(|p| {
                self.relative_velocity_of(k.a, p.ra, k.b, p.rb)
                    .dot(k.normal)
                    < p.target
            });
            if closes && (kinematic(self, k.a) || kinematic(self, k.b)) {
                pressing.push(pair_key(k.a, k.b));
            }
        }
        contacts.retain(|k| !pressing.contains(&pair_key(k.a, k.b)));
        self.buf.yielded.extend(pressing);
        for k in contacts.iter_mut() {
            for p in &mut k.points[..k.count] {
                p.normal_impulse = 0.0;
                p.tangent_impulse = 0.0;
            }
        }
        self.solve_group(contacts, joints);
        false
    }

    /// The exact frictionless solve; applies it and returns `true` if it converged within the
    /// speed bound (`closing`: the fastest closing speed in the group before it, m/s).
    fn squeeze_exact(
        &mut self,
        contacts: &[GroupContact],
        saved: &[SavedVelocity],
        closing: Real,
    ) -> bool {
        let rows: Vec<Row> = contacts
            .iter()
            .flat_map(|k| {
                k.points[..k.count].iter().map(|p| Row {
                    a: k.a,
                    b: k.b,
                    n: k.normal,
                    ra: p.ra,
                    rb: p.rb,
                    target: p.target,
                })
            })
            .collect();
        let m = rows.len();
        if m == 0 || m > SQUEEZE_MAX_POINTS {
            return false;
        }
        let mass = |this: &Self, i: u32| {
            if this.movable(i) {
                this.inv_mass(i)
            } else {
                InverseMass::default()
            }
        };
        // Delassus matrix: the change of row i's normal velocity per unit impulse of row j.
        let mut a = vec![0.0; m * m];
        for i in 0..m {
            for j in 0..m {
                let (ri, rj) = (&rows[i], &rows[j]);
                let mut sum = 0.0;
                for (bi, oi, si) in [(ri.a, ri.ra, -1.0), (ri.b, ri.rb, 1.0)] {
                    for (bj, oj, sj) in [(rj.a, rj.ra, -1.0), (rj.b, rj.rb, 1.0)] {
                        if bi != bj {
                            continue;
                        }
                        let inv = mass(self, bi);
                        sum += si
                            * sj
                            * (inv.linear_across(ri.n, rj.n)
                                + inv.angular * oi.perp_dot(ri.n) * oj.perp_dot(rj.n));
                    }
                }
                a[i * m + j] = sum;
            }
        }
        let scale = (0..m).map(|i| a[i * m + i]).fold(0.0, Real::max);
        if scale <= 0.0 {
            return false;
        }
        for i in 0..m {
            a[i * m + i] += RIDGE * scale;
        }
        let b: Vec<Real> = rows
            .iter()
            .map(|r| self.relative_velocity_of(r.a, r.ra, r.b, r.rb).dot(r.n) - r.target)
            .collect();
        let Some(lambda) = murty(&a, &b, m) else {
            return false;
        };
        for (r, &l) in rows.iter().zip(&lambda) {
            if l != 0.0 {
                self.push_impulse(r.a, r.b, r.ra, r.rb, l * r.n);
            }
        }
        // The ridge gives an infeasible problem (bodies between parallel faces closing on each
        // other) a compromise that meets no face: only a solution that keeps every point out is
        // one.
        let unmet = rows
            .iter()
            .map(|r| r.target - self.relative_velocity_of(r.a, r.ra, r.b, r.rb).dot(r.n))
            .fold(0.0, Real::max);
        if unmet > SQUEEZE_TOLERANCE * (1.0 + closing) {
            return false;
        }
        let bound = SQUEEZE_SPEED_FACTOR * closing + 1.0;
        let fast = saved.iter().any(|&(i, v, w)| {
            let body = self.bodies.at(i);
            (body.linear_velocity - v).length() + (body.angular_velocity - w).abs() * body.reach
                > bound
        });
        !fast
    }
}

/// Murty's principal pivoting for the LCP `w = A·λ + b`, `λ ≥ 0`, `w ≥ 0`, `λ·w = 0` (`A` dense,
/// `m × m`, positive definite): the active set flips its least-index violator until none is left.
/// `None` if it does not finish in the iteration bound or a factorisation fails.
fn murty(a: &[Real], b: &[Real], m: usize) -> Option<Vec<Real>> {
    let tol = 1e-12 * (1.0 + b.iter().fold(0.0, |s: Real, x| s.max(x.abs())));
    let mut active = vec![false; m];
    let mut lambda;
    for _ in 0..(8 * m + 8) {
        let set: Vec<usize> = (0..m).filter(|&i| active[i]).collect();
        lambda = solve_on_set(a, b, m, &set)?;
        let violator = (0..m).find(|&i| {
            if active[i] {
                lambda[i] < -tol
            } else {
                let w: Real = (0..m).map(|j| a[i * m + j] * lambda[j]).sum::<Real>() + b[i];
                w < -tol
            }
        });
        match violator {
            None => {
                lambda.iter_mut().for_each(|l| *l = l.max(0.0));
                return Some(lambda);
            }
            Some(i) => active[i] = !active[i],
        }
    }
    None
}

/// The impulses with `set` active: `A_SS·λ_S = −b_S`, zero elsewhere. `None` if the
/// factorisation fails.
fn solve_on_set(a: &[Real], b: &[Real], m: usize, set: &[usize]) -> Option<Vec<Real>> {
    let mut lambda = vec![0.0; m];
    if set.is_empty() {
        return Some(lambda);
    }
    let s = set.len();
    let mut sub = vec![0.0; s * s];
    let mut rhs = vec![0.0; s];
    for (p, &i) in set.iter().enumerate() {
        rhs[p] = -b[i];
        for (q, &j) in set.iter().enumerate() {
            sub[p * s + q] = a[i * m + j];
        }
    }
    let x = cholesky_solve(&mut sub, &mut rhs, s)?;
    for (p, &i) in set.iter().enumerate() {
        lambda[i] = x[p];
    }
    Some(lambda)
}

/// Solves `M x = r` for symmetric positive definite `M` (`s × s`, overwritten by its factor).
fn cholesky_solve(mat: &mut [Real], r: &mut [Real], s: usize) -> Option<Vec<Real>> {
    for j in 0..s {
        let mut d = mat[j * s + j];
        for k in 0..j {
            d -= mat[j * s + k] * mat[j * s + k];
        }
        if d.is_nan() || d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        mat[j * s + j] = d;
        for i in (j + 1)..s {
            let mut v = mat[i * s + j];
            for k in 0..j {
                v -= mat[i * s + k] * mat[j * s + k];
            }
            mat[i * s + j] = v / d;
        }
    }
    for i in 0..s {
        let mut v = r[i];
        for k in 0..i {
            v -= mat[i * s + k] * r[k];
        }
        r[i] = v / mat[i * s + i];
    }
    for i in (0..s).rev() {
        let mut v = r[i];
        for k in (i + 1)..s {
            v -= mat[k * s + i] * r[k];
        }
        r[i] = v / mat[i * s + i];
    }
    Some(r.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over every active set: the LCP's solution for a positive definite matrix is
    /// unique, so Murty's answer must equal the one set whose λ and w are both non-negative.
    fn brute(a: &[Real], b: &[Real], m: usize) -> Vec<Real> {
        for mask in 0u32..(1 << m) {
            let set: Vec<usize> = (0..m).filter(|&i| mask & (1 << i) != 0).collect();
            let lambda = solve_on_set(a, b, m, &set).unwrap();
            let ok = (0..m).all(|i| {
                let w: Real = (0..m).map(|j| a[i * m + j] * lambda[j]).sum::<Real>() + b[i];
                lambda[i] >= -1e-12 && w >= -1e-12
            });
            if ok {
                return lambda;
            }
        }
        panic!("no solution");
    }

    #[test]
    fn murty_matches_brute_force_on_random_positive_definite_problems() {
        let mut word = crate::math::xorshift64(0x9e37_79b9_7f4a_7c15);
        let mut next = || (word() >> 11) as Real / (1u64 << 53) as Real * 2.0 - 1.0;
        for m in 1..=7 {
            for _ in 0..200 {
                // A = GᵀG + δI: positive definite, often badly conditioned (a narrow wedge).
                let g: Vec<Real> = (0..m * m).map(|_| next()).collect();
                let mut a = vec![0.0; m * m];
                for i in 0..m {
                    for j in 0..m {
                        a[i * m + j] = (0..m).map(|k| g[k * m + i] * g[k * m + j]).sum();
                    }
                    a[i * m + i] += 1e-3;
                }
                let b: Vec<Real> = (0..m).map(|_| next()).collect();
                let got = murty(&a, &b, m).expect("terminates");
                let want = brute(&a, &b, m);
                for i in 0..m {
                    assert!(
                        (got[i] - want[i]).abs() <= 1e-7 * (1.0 + want[i].abs()),
                        "m = {m}: λ{i} = {} but the unique solution has {}",
                        got[i],
                        want[i]
                    );
                }
            }
        }
    }
}
