//! Sine, cosine and arctangent computed by the crate itself, so that a simulation's results do not
//! depend on the platform's maths library (`libm` differs between glibc, musl, macOS, Windows and
//! wasm in the last bit, and a last bit is enough for two runs of a chaotic pile to part ways).
//! Only IEEE-754 basic operations (`+ − × ÷`, `sqrt`, rounding) are used, which every platform
//! computes identically, and no fused multiply-add (Rust never contracts `a * b + c` on its own).
//! See `docs/reliability.md`, "Determinism".
//!
//! The method is the classic one (as in fdlibm): reduce the argument by multiples of π/2 with
//! π/2 split into three parts (Cody–Waite), so the reduced argument keeps about 100 bits of π/2
//! and is exact to the last bit for |x| up to about 1e6; then minimax polynomials on [−π/4, π/4]
//! (their published coefficients). The arctangent reduces its argument into five ranges around
//! atan(0), atan(½), atan(1), atan(3/2) and π/2 and evaluates one odd polynomial. Accuracy,
//! against the platform's functions: within 1 ulp for |x| ≤ 1e5 rad (tested).

// The constants are written with the digits they are published with; each rounds to the
// nearest f64, which is the value meant.
#![allow(clippy::excessive_precision)]

// Plain `f64` throughout, not the crate's `Real` alias: the published coefficients and the bit
// manipulations of the reduction are those of IEEE-754 double precision.

/// 2/π.
const INV_PIO2: f64 = core::f64::consts::FRAC_2_PI;
/// The first 33 bits of π/2: `n · PIO2_1` is exact for |n| < 2^20.
const PIO2_1: f64 = 1.570_796_326_734_125_614_17;
/// π/2 − PIO2_1.
const PIO2_1T: f64 = 6.077_100_506_506_192_249_32e-11;
/// The next 33 bits of π/2.
const PIO2_2: f64 = 6.077_100_506_303_965_976_60e-11;
/// π/2 − (PIO2_1 + PIO2_2).
const PIO2_2T: f64 = 2.022_266_248_795_950_631_54e-21;
/// The third 33 bits of π/2.
const PIO2_3: f64 = 2.022_266_248_711_166_455_80e-21;
/// π/2 − (PIO2_1 + PIO2_2 + PIO2_3).
const PIO2_3T: f64 = 8.478_427_660_368_899_569_97e-32;

/// 2^66 and 2^-27 (exact).
const TWO_66: f64 = 73_786_976_294_838_206_464.0;
const TWO_M27: f64 = 7.450_580_596_923_828_125e-9;

/// The biased exponent of `x` (its bits 52–62).
fn exponent(x: f64) -> i32 {
    ((x.to_bits() >> 52) & 0x7ff) as i32
}

/// `x = n·π/2 + (hi + lo)` with |hi + lo| ≤ π/4 (about): returns `(n mod 4, hi, lo)`.
fn reduce(x: f64) -> (u32, f64, f64) {
    let n = (x * INV_PIO2).round();
    // First round: good to about 85 bits unless x is close to a multiple of π/2.
    let mut r = x - n * PIO2_1;
    let mut w = n * PIO2_1T;
    let mut hi = r - w;
    let ex = exponent(x);
    // Cancellation (the result lost more than 16, then 49 bits to x's): take 33 more bits of
    // π/2 each time.
    for (part, tail, lost) in [(PIO2_2, PIO2_2T, 16), (PIO2_3, PIO2_3T, 49)] {
        if ex - exponent(hi) <= lost {
            break;
        }
        let t = r;
        w = n * part;
        r = t - w;
        w = n * tail - ((t - r) - w);
        hi = r - w;
    }
    let lo = (r - hi) - w;
    // n is an integer-valued float; its low two bits pick the quadrant (two's complement for
    // negative n, so −1 ↦ 3).
    let quadrant = (n as i64 & 3) as u32;
    (quadrant, hi, lo)
}

/// sin(x + y) for |x| ≤ π/4, |y| tiny (the reduction's tail).
fn kernel_sin(x: f64, y: f64) -> f64 {
    const S1: f64 = -1.666_666_666_666_663_243_48e-1;
    const S2: f64 = 8.333_333_333_322_489_461_24e-3;
    const S3: f64 = -1.984_126_982_985_794_931_34e-4;
    const S4: f64 = 2.755_731_370_707_006_767_89e-6;
    const S5: f64 = -2.505_076_025_340_686_341_95e-8;
    const S6: f64 = 1.589_690_995_211_550_102_21e-10;
    let z = x * x;
    let w = z * z;
    let r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    let v = z * x;
    x - ((z * (0.5 * y - v * r) - y) - v * S1)
}

/// cos(x + y) for |x| ≤ π/4, |y| tiny.
fn kernel_cos(x: f64, y: f64) -> f64 {
    const C1: f64 = 4.166_666_666_666_660_190_37e-2;
    const C2: f64 = -1.388_888_888_887_410_957_49e-3;
    const C3: f64 = 2.480_158_728_947_672_941_78e-5;
    const C4: f64 = -2.755_731_435_139_066_330_35e-7;
    const C5: f64 = 2.087_572_321_298_174_827_90e-9;
    const C6: f64 = -1.135_964_755_778_819_482_65e-11;
    let z = x * x;
    let w = z * z;
    let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + (z * r - x * y))
}

/// `(sin x, cos x)` for `x` in radians, the same bits on every platform. Non-finite `x` gives
/// `(NaN, NaN)`. Within 1 ulp of the exact values for |x| ≤ 1e5; larger arguments keep about
/// 100 bits of π/2 in the reduction, so they lose accuracy gradually (still deterministic).
#[must_use]
pub fn sin_cos(x: f64) -> (f64, f64) {
    if !x.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    // |x| < π/4: no reduction (and sin x = x exactly below 2^-26, as the polynomial gives).
    if x.abs() <= core::f64::consts::FRAC_PI_4 {
        return (kernel_sin(x, 0.0), kernel_cos(x, 0.0));
    }
    let (q, hi, lo) = reduce(x);
    let (s, c) = (kernel_sin(hi, lo), kernel_cos(hi, lo));
    match q {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// sin x (radians), the same bits on every platform (see [`sin_cos`]).
#[must_use]
pub fn sin(x: f64) -> f64 {
    sin_cos(x).0
}

/// cos x (radians), the same bits on every platform (see [`sin_cos`]).
#[must_use]
pub fn cos(x: f64) -> f64 {
    sin_cos(x).1
}

/// atan x for x ≥ 0 (radians).
fn atan_non_negative(x: f64) -> f64 {
    // atan of the range centres (hi + lo parts) and the polynomial's coefficients (fdlibm).
    const ATAN_HI: [f64; 4] = [
        4.636_476_090_008_060_935_15e-1,
        core::f64::consts::FRAC_PI_4,
        9.827_937_232_473_290_540_82e-1,
        core::f64::consts::FRAC_PI_2,
    ];
    const ATAN_LO: [f64; 4] = [
        2.269_877_745_296_168_709_24e-17,
        3.061_616_997_868_383_017_93e-17,
        1.390_331_103_123_099_845_16e-17,
        6.123_233_995_736_766_035_87e-17,
    ];
    const AT: [f64; 11] = [
        3.333_333_333_333_293_180_27e-1,
        -1.999_999_999_987_648_324_76e-1,
        1.428_571_427_250_346_637_11e-1,
        -1.111_111_040_546_235_578_80e-1,
        9.090_887_133_436_506_561_96e-2,
        -7.691_876_205_044_829_994_95e-2,
        6.661_073_137_387_531_206_69e-2,
        -5.833_570_133_790_573_486_45e-2,
        4.976_877_994_615_932_360_17e-2,
        -3.653_157_274_421_691_552_70e-2,
        1.628_582_011_536_578_236_23e-2,
    ];
    if x >= TWO_66 {
        return ATAN_HI[3] + ATAN_LO[3];
    }
    let (id, x) = if x < 0.4375 {
        if x < TWO_M27 {
            return x; // atan x = x to the last bit
        }
        (None, x)
    } else if x < 0.6875 {
        (Some(0), (2.0 * x - 1.0) / (2.0 + x))
    } else if x < 1.1875 {
        (Some(1), (x - 1.0) / (x + 1.0))
    } else if x < 2.4375 {
        (Some(2), (x - 1.5) / (1.0 + 1.5 * x))
    } else {
        (Some(3), -1.0 / x)
    };
    let z = x * x;
    let w = z * z;
    // Odd and even halves of the polynomial, interleaved as fdlibm does.
    let s1 = z * (AT[0] + w * (AT[2] + w * (AT[4] + w * (AT[6] + w * (AT[8] + w * AT[10])))));
    let s2 = w * (AT[1] + w * (AT[3] + w * (AT[5] + w * (AT[7] + w * AT[9]))));
    match id {
        None => x - x * (s1 + s2),
        Some(i) => ATAN_HI[i] - ((x * (s1 + s2) - ATAN_LO[i]) - x),
    }
}

/// atan(y / x) in (−π, π], the angle of the point (x, y) (radians), the same bits on every
/// platform. `atan2(0, 0)` is 0; a NaN input gives NaN. Within 2 ulp of the platform's `atan2`
/// (tested).
#[must_use]
pub fn atan2(y: f64, x: f64) -> f64 {
    use core::f64::consts::{FRAC_PI_2, PI};
    if y.is_nan() || x.is_nan() {
        return f64::NAN;
    }
    if y == 0.0 {
        // ±0 for x > 0 (or +0), ±π for x < 0 (or −0).
        return if x.is_sign_negative() {
            PI.copysign(y)
        } else {
            y
        };
    }
    if x == 0.0 {
        return FRAC_PI_2.copysign(y);
    }
    if x.is_infinite() || y.is_infinite() {
        return match (x.is_infinite(), y.is_infinite()) {
            (true, true) => {
                if x > 0.0 {
                    core::f64::consts::FRAC_PI_4.copysign(y)
                } else {
                    (3.0 * core::f64::consts::FRAC_PI_4).copysign(y)
                }
            }
            (true, false) => {
                if x > 0.0 {
                    0.0f64.copysign(y)
                } else {
                    PI.copysign(y)
                }
            }
            _ => FRAC_PI_2.copysign(y),
        };
    }
    // Fold into the first octant: t = atan(small / large) ∈ [0, π/4], then add it to or take it
    // from 0, π/2 or π with their tails kept, so no digits of t are lost near ±π/2 or ±π.
    const PIO2_LO: f64 = 6.123_233_995_736_766_035_87e-17;
    const PI_LO: f64 = 1.224_646_799_147_353_207_17e-16;
    let (ay, ax) = (y.abs(), x.abs());
    let r = if ay <= ax {
        let t = atan_non_negative(ay / ax);
        if x > 0.0 {
            t
        } else {
            PI - (t - PI_LO)
        }
    } else {
        let t = atan_non_negative(ax / ay);
        if x > 0.0 {
            FRAC_PI_2 - (t - PIO2_LO)
        } else {
            FRAC_PI_2 + (t + PIO2_LO)
        }
    };
    r.copysign(y)
}

/// The length of (x, y), `sqrt(x² + y²)`, the same bits on every platform (the platform's
/// `hypot` is a library function). For inputs the engine accepts (|x|, |y| ≤ 1e150) no
/// intermediate over- or underflows to a wrong answer.
#[must_use]
pub fn length(x: f64, y: f64) -> f64 {
    (x * x + y * y).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place between two finite floats.
    fn ulps(a: f64, b: f64) -> u64 {
        let key = |v: f64| {
            let b = v.to_bits() as i64;
            if b < 0 {
                i64::MIN - b
            } else {
                b
            }
        };
        (key(a) - key(b)).unsigned_abs()
    }

    /// A fixed spread of arguments: uniform in several ranges, near multiples of π/2, tiny.
    fn arguments() -> Vec<f64> {
        let mut out = Vec::new();
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        for &range in &[1.0, 4.0, 100.0, 1e4, 1e5] {
            for _ in 0..20_000 {
                out.push((2.0 * next() - 1.0) * range);
            }
        }
        for k in -2000..2000 {
            let m = k as f64 * core::f64::consts::FRAC_PI_2;
            out.extend([m, m + 1e-9, m - 1e-12, f64::from_bits(m.to_bits() + 1)]);
        }
        out.extend([
            0.0,
            -0.0,
            1e-300,
            -1e-20,
            3e-9,
            0.785,
            core::f64::consts::FRAC_PI_4,
        ]);
        out
    }

    #[test]
    fn sin_and_cos_are_within_one_ulp_of_the_platform() {
        let mut worst = (0, 0.0);
        for x in arguments() {
            let (s, c) = sin_cos(x);
            let (es, ec) = x.sin_cos();
            // Near a zero of the function an ulp of the result is tiny; compare against the
            // larger of the two values' ulp there (both are within 1e-16 absolute).
            for (got, want) in [(s, es), (c, ec)] {
                let u = if want.abs() < 1e-8 {
                    u64::from((got - want).abs() > 1e-16 * x.abs().max(1.0))
                } else {
                    ulps(got, want)
                };
                if u > worst.0 {
                    worst = (u, x);
                }
            }
        }
        assert!(worst.0 <= 1, "{} ulp at x = {:e}", worst.0, worst.1);
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        assert!(sin(-0.0).is_sign_negative());
        assert!(sin_cos(f64::NAN).0.is_nan() && sin_cos(f64::INFINITY).1.is_nan());
    }

    #[test]
    fn atan2_is_within_two_ulps_of_the_platform_in_every_quadrant() {
        let args = arguments();
        let mut worst = (0, 0.0, 0.0);
        for (i, &y) in args.iter().enumerate().step_by(7) {
            for &x in args.iter().skip(i % 13).step_by(4099) {
                let (got, want) = (atan2(y, x), y.atan2(x));
                let u = ulps(got, want);
                if u > worst.0 {
                    worst = (u, y, x);
                }
            }
        }
        assert!(
            worst.0 <= 2,
            "{} ulp at ({:e}, {:e})",
            worst.0,
            worst.1,
            worst.2
        );
        for (y, x) in [
            (0.0, 1.0),
            (-0.0, 1.0),
            (0.0, -1.0),
            (-0.0, -1.0),
            (1.0, 0.0),
            (-1.0, 0.0),
            (1.0, f64::INFINITY),
            (1.0, f64::NEG_INFINITY),
            (f64::INFINITY, f64::INFINITY),
            (f64::NEG_INFINITY, -1.0),
            (1e-300, -1e300),
            (1e300, 1e-300),
        ] {
            let (got, want) = (atan2(y, x), y.atan2(x));
            assert!(
                ulps(got, want) <= 1,
                "atan2({y:e}, {x:e}) = {got} vs {want}"
            );
        }
        assert!(atan2(f64::NAN, 1.0).is_nan());
    }
}
