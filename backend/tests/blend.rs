//! Blending table: every row of `tests/data/blend.txt` (equations, factors, source,
//! destination, constant) is drawn over a cleared pixel of an RGBA32F and an RGBA8
//! target. Results must equal a reference written from the GL spec's blend tables
//! (below, independent of the driver's code) and the blessed `blend.expected`.

mod common;

use std::sync::Arc;

use common::*;
use rgl_backend::driver::ShaderStage;
use rgl_backend::driver::*;
use rgl_backend::exec::{ClosureShader, IoDecl, Reg, ShaderExec, ShaderInfo};
use rgl_backend::format::Format;
use rgl_backend::Driver;
use rgl_nir::ir::names::FRAG_RESULT_DATA0;

fn eq(s: &str) -> BlendEquation {
    match s {
        "add" => BlendEquation::Add,
        "subtract" => BlendEquation::Subtract,
        "reverse_subtract" => BlendEquation::ReverseSubtract,
        "min" => BlendEquation::Min,
        "max" => BlendEquation::Max,
        _ => panic!("equation {s}"),
    }
}

fn fac(s: &str) -> BlendFactor {
    use BlendFactor::*;
    match s {
        "zero" => Zero,
        "one" => One,
        "src_color" => SrcColor,
        "one_minus_src_color" => OneMinusSrcColor,
        "dst_color" => DstColor,
        "one_minus_dst_color" => OneMinusDstColor,
        "src_alpha" => SrcAlpha,
        "one_minus_src_alpha" => OneMinusSrcAlpha,
        "dst_alpha" => DstAlpha,
        "one_minus_dst_alpha" => OneMinusDstAlpha,
        "constant_color" => ConstantColor,
        "one_minus_constant_color" => OneMinusConstantColor,
        "constant_alpha" => ConstantAlpha,
        "one_minus_constant_alpha" => OneMinusConstantAlpha,
        "src_alpha_saturate" => SrcAlphaSaturate,
        "src1_color" => Src1Color,
        "one_minus_src1_color" => OneMinusSrc1Color,
        "src1_alpha" => Src1Alpha,
        "one_minus_src1_alpha" => OneMinusSrc1Alpha,
        _ => panic!("factor {s}"),
    }
}

/// GL 4.6 §17.3.6 tables 17.1/17.2, written out per factor name.
fn reference(names: &[&str], s: [f32; 4], s1: [f32; 4], d: [f32; 4], k: [f32; 4]) -> [f32; 4] {
    let f = |name: &str, c: usize| -> f32 {
        let a = c == 3;
        match name {
            "zero" => 0.0,
            "one" => 1.0,
            "src_color" => s[c],
            "one_minus_src_color" => 1.0 - s[c],
            "dst_color" => d[c],
            "one_minus_dst_color" => 1.0 - d[c],
            "src_alpha" => s[3],
            "one_minus_src_alpha" => 1.0 - s[3],
            "dst_alpha" => d[3],
            "one_minus_dst_alpha" => 1.0 - d[3],
            "constant_color" => k[c],
            "one_minus_constant_color" => 1.0 - k[c],
            "constant_alpha" => k[3],
            "one_minus_constant_alpha" => 1.0 - k[3],
            "src_alpha_saturate" => {
                if a {
                    1.0
                } else {
                    s[3].min(1.0 - d[3])
                }
            }
            "src1_color" => s1[c],
            "one_minus_src1_color" => 1.0 - s1[c],
            "src1_alpha" => s1[3],
            "one_minus_src1_alpha" => 1.0 - s1[3],
            _ => unreachable!(),
        }
    };
    let mut o = [0.0; 4];
    for c in 0..4 {
        let (e, sf, df) = if c < 3 {
            (names[0], names[1], names[2])
        } else {
            (names[3], names[4], names[5])
        };
        o[c] = match e {
            "add" => s[c] * f(sf, c) + d[c] * f(df, c),
            "subtract" => s[c] * f(sf, c) - d[c] * f(df, c),
            "reverse_subtract" => d[c] * f(df, c) - s[c] * f(sf, c),
            "min" => s[c].min(d[c]),
            "max" => s[c].max(d[c]),
            _ => unreachable!(),
        };
    }
    o
}

fn vec4(s: &str) -> [f32; 4] {
    let v: Vec<f32> = s.split_whitespace().map(|t| t.parse().unwrap()).collect();
    [v[0], v[1], v[2], v[3]]
}

fn dual_fs(src: [f32; 4], src1: [f32; 4]) -> Arc<dyn ShaderExec> {
    let info = ShaderInfo {
        stage: ShaderStage::Fragment,
        inputs: vec![],
        outputs: vec![
            IoDecl::vec4(FRAG_RESULT_DATA0),
            IoDecl {
                index: 1,
                ..IoDecl::vec4(FRAG_RESULT_DATA0)
            },
        ],
        sysvals: 0,
        uses_discard: false,
        storage: Default::default(),
        gs: None,
    };
    ClosureShader::new(info, move |inv| {
        for c in 0..4 {
            inv.outputs[c] = Reg::splat_f(src[c]);
            inv.outputs[4 + c] = Reg::splat_f(src1[c]);
        }
        Ok(())
    })
}

#[test]
fn blend_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/blend.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let parts: Vec<&str> = line.split(';').collect();
        let names: Vec<&str> = parts[0].split_whitespace().collect();
        let (src, dst, k) = (vec4(parts[1]), vec4(parts[2]), vec4(parts[3]));
        let src1 = [src[2], src[1], src[0], src[3]];
        for fmt in [Format::Rgba32Float, Format::Rgba8Unorm] {
            let mut f = Fixture::new(4, 4, fmt, None, 1, 0);
            f.clear(dst);
            let mut b = BlendState::default();
            b.rt[0] = RtBlend {
                enabled: true,
                rgb_eq: eq(names[0]),
                src_rgb: fac(names[1]),
                dst_rgb: fac(names[2]),
                alpha_eq: eq(names[3]),
                src_alpha: fac(names[4]),
                dst_alpha: fac(names[5]),
                color_mask: 0xf,
            };
            let h = f.d.create_blend_state(&b).unwrap();
            f.d.bind_blend_state(h).unwrap();
            f.d.set_blend_color(k).unwrap();
            f.set_fs(dual_fs(src, src1));
            f.draw_win(
                PrimMode::TriangleFan,
                &[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)],
            )
            .unwrap();
            let got = f.read()[5];
            // Reference: normalized targets clamp inputs and the stored destination.
            let unorm = fmt == Format::Rgba8Unorm;
            let q = |v: [f32; 4]| {
                if unorm {
                    v.map(|x| (x.clamp(0.0, 1.0) * 255.0).round() / 255.0)
                } else {
                    v
                }
            };
            let cl = |v: [f32; 4]| {
                if unorm {
                    v.map(|x| x.clamp(0.0, 1.0))
                } else {
                    v
                }
            };
            let want = q(reference(&names, cl(src), cl(src1), q(dst), cl(k)));
            // One quantization step for normalized targets (ties at .5 may round
            // either way after float blending).
            let tol = if unorm { 1.0 / 255.0 + 1e-6 } else { 1e-5 };
            for c in 0..4 {
                assert!(
                    (got[c] - want[c]).abs() <= tol,
                    "{line} {fmt:?}: got {got:?} want {want:?}"
                );
            }
            out.push_str(&format!(
                "{:<12} {}: {:.4} {:.4} {:.4} {:.4}\n",
                format!("{fmt:?}"),
                parts[0].trim(),
                got[0],
                got[1],
                got[2],
                got[3]
            ));
        }
    }
    check_expect(&path.with_extension("expected"), &out);
}

#[test]
fn color_mask_keeps_channels() {
    let mut f = Fixture::new(4, 4, Format::Rgba8Unorm, None, 1, 0);
    f.clear([0.2, 0.4, 0.6, 0.8]);
    let mut b = BlendState::default();
    b.rt[0].color_mask = 0b0101;
    let h = f.d.create_blend_state(&b).unwrap();
    f.d.bind_blend_state(h).unwrap();
    f.draw_win(
        PrimMode::TriangleFan,
        &[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)],
    )
    .unwrap();
    let p = f.read()[0];
    let want = [1.0, 0.4, 1.0, 0.8];
    for c in 0..4 {
        assert!((p[c] - want[c]).abs() < 1e-6, "{p:?}");
    }
}
