//! The precision of `rgl_backend::fastmath` against `f64` library results, over
//! sampled f32 inputs (every `STRIDE`-th bit pattern of each domain, plus its
//! edges), checked against the bounds its module doc states — which are inside
//! GLSL's (§4.7.1 "Range and Precision": `exp2` 3 + 2·|x| ULP, `log2` 3 ULP
//! outside [0.5, 2] and absolute 2⁻²¹ inside, `pow` inherited from
//! `exp2(y·log2(x))`) — and the special values. Prints the largest error found
//! per row.

use rgl_backend::fastmath::{cos_f32, exp2_f32, log2_f32, pow_f32, sin_f32};

/// Every STRIDE-th bit pattern is checked.
const STRIDE: u32 = 97;

/// ULP distance between two finite floats of the same sign (or both zero).
fn ulps(a: f32, b: f32) -> u64 {
    if a == b {
        return 0;
    }
    if a.is_sign_negative() != b.is_sign_negative() {
        return u64::MAX;
    }
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
}

/// The f32 bit patterns of [lo, hi] (same sign) at STRIDE, plus hi.
fn domain(lo: f32, hi: f32) -> impl Iterator<Item = f32> {
    let (a, b) = if lo.to_bits() <= hi.to_bits() {
        (lo.to_bits(), hi.to_bits())
    } else {
        (hi.to_bits(), lo.to_bits())
    };
    (a..=b)
        .step_by(STRIDE as usize)
        .chain([b])
        .map(f32::from_bits)
}

enum Bound {
    /// Result within this many ULP of the correctly rounded value.
    Ulp(u64),
    /// Absolute error at most this.
    Abs(f64),
}

struct Row {
    what: &'static str,
    lo: f32,
    hi: f32,
    f: fn(f32) -> f32,
    exact: fn(f64) -> f64,
    bound: Bound,
}

#[test]
fn fastmath_within_the_stated_bounds() {
    let rows = [
        Row {
            what: "exp2 [-126, 128]",
            lo: 0.0,
            hi: 128.0,
            f: exp2_f32,
            exact: f64::exp2,
            bound: Bound::Ulp(2),
        },
        Row {
            what: "exp2 negative",
            lo: -0.0,
            hi: -126.0,
            f: exp2_f32,
            exact: f64::exp2,
            bound: Bound::Ulp(2),
        },
        Row {
            what: "log2 (0, 0.5]",
            lo: f32::MIN_POSITIVE,
            hi: 0.5,
            f: log2_f32,
            exact: f64::log2,
            bound: Bound::Ulp(2),
        },
        Row {
            what: "log2 [2, max]",
            lo: 2.0,
            hi: f32::MAX,
            f: log2_f32,
            exact: f64::log2,
            bound: Bound::Ulp(2),
        },
        Row {
            what: "log2 [0.5, 2] (absolute)",
            lo: 0.5,
            hi: 2.0,
            f: log2_f32,
            exact: f64::log2,
            bound: Bound::Abs(1.0 / (1u64 << 23) as f64),
        },
        Row {
            what: "sin [0, 1e5] (absolute)",
            lo: 0.0,
            hi: 1e5,
            f: sin_f32,
            exact: f64::sin,
            bound: Bound::Abs(1.0 / (1u64 << 22) as f64),
        },
        Row {
            what: "sin [-1e5, 0] (absolute)",
            lo: -0.0,
            hi: -1e5,
            f: sin_f32,
            exact: f64::sin,
            bound: Bound::Abs(1.0 / (1u64 << 22) as f64),
        },
        Row {
            what: "cos [0, 1e5] (absolute)",
            lo: 0.0,
            hi: 1e5,
            f: cos_f32,
            exact: f64::cos,
            bound: Bound::Abs(1.0 / (1u64 << 22) as f64),
        },
        Row {
            what: "cos [-1e5, 0] (absolute)",
            lo: -0.0,
            hi: -1e5,
            f: cos_f32,
            exact: f64::cos,
            bound: Bound::Abs(1.0 / (1u64 << 22) as f64),
        },
    ];
    let mut failures = Vec::new();
    for row in &rows {
        let mut worst = (0f64, 0f32);
        for x in domain(row.lo, row.hi) {
            let got = (row.f)(x);
            let want = (row.exact)(x as f64);
            let err = match row.bound {
                Bound::Ulp(_) => {
                    let w = want as f32;
                    if w.is_infinite() || w == 0.0 {
                        // Overflow / underflow: the result must be the same.
                        if got == w {
                            0.0
                        } else {
                            f64::INFINITY
                        }
                    } else if w.abs() < f32::MIN_POSITIVE {
                        // Denormal results: one rounding of the scaled result.
                        (got as f64 - want).abs() / f32::from_bits(1) as f64
                    } else {
                        ulps(got, w) as f64
                    }
                }
                Bound::Abs(_) => (got as f64 - want).abs(),
            };
            if !(err <= worst.0) {
                worst = (err, x);
            }
        }
        let ok = match row.bound {
            Bound::Ulp(n) => worst.0 <= n as f64,
            Bound::Abs(a) => worst.0 <= a,
        };
        println!(
            "{:<28} worst {:>12.4e} at x = {:e}{}",
            row.what,
            worst.0,
            worst.1,
            if ok { "" } else { "  FAIL" }
        );
        if !ok {
            failures.push(row.what);
        }
    }
    // Special values.
    let specials: [(&str, f32, f32); 12] = [
        ("exp2(NaN)", exp2_f32(f32::NAN), f32::NAN),
        ("exp2(+inf)", exp2_f32(f32::INFINITY), f32::INFINITY),
        ("exp2(-inf)", exp2_f32(f32::NEG_INFINITY), 0.0),
        ("exp2(0)", exp2_f32(0.0), 1.0),
        ("log2(1)", log2_f32(1.0), 0.0),
        ("log2(0)", log2_f32(0.0), f32::NEG_INFINITY),
        ("log2(-0)", log2_f32(-0.0), f32::NEG_INFINITY),
        ("log2(-1)", log2_f32(-1.0), f32::NAN),
        ("log2(+inf)", log2_f32(f32::INFINITY), f32::INFINITY),
        ("pow(1, y)", pow_f32(1.0, 123.4), 1.0),
        ("sin(+inf)", sin_f32(f32::INFINITY), f32::NAN),
        ("cos(NaN)", cos_f32(f32::NAN), f32::NAN),
    ];
    for (what, got, want) in specials {
        let ok = got == want || (got.is_nan() && want.is_nan());
        println!(
            "{what:<28} {got} (want {want}){}",
            if ok { "" } else { "  FAIL" }
        );
        if !ok {
            failures.push(what);
        }
    }
    // Exact powers of two through exp2 and log2.
    for n in -126..128 {
        let x = n as f32;
        if exp2_f32(x) != 2f32.powi(n) || log2_f32(2f32.powi(n)) != x {
            failures.push("powers of two");
            println!(
                "2^{n}: exp2 {} log2 {}  FAIL",
                exp2_f32(x),
                log2_f32(2f32.powi(n))
            );
            break;
        }
    }
    // pow within exp2's bound of the exact exp2(y·log2 x) error propagation:
    // |rel err| <= (3 + 2|p|)·2^-24 + |p|·ln2·(log2's relative error), p = y·log2 x.
    let mut worst = 0f64;
    for i in 0..2000u32 {
        let x = 0.01 + i as f32 * 0.05;
        for &y in &[-3.7f32, -1.0, 0.5, 2.2, 5.0, 15.5] {
            let got = pow_f32(x, y) as f64;
            let want = (x as f64).powf(y as f64);
            let p = (y as f64 * (x as f64).log2()).abs();
            let allowed = ((3.0 + 2.0 * p) * 2f64.powi(-24)
                + p * std::f64::consts::LN_2 * 3.0 * 2f64.powi(-24))
                * want.abs();
            let err = (got - want).abs();
            worst = worst.max(err / allowed.max(f64::MIN_POSITIVE));
        }
    }
    println!("{:<28} worst {:.3} of its bound", "pow (0, 100] × y", worst);
    if worst > 1.0 {
        failures.push("pow");
    }
    assert!(failures.is_empty(), "outside the bound: {failures:?}");
}
