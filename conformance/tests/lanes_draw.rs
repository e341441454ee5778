//! End-to-end lane-compiler tests through the software driver: every
//! `tests/data/lanes_draw/*.shader_test` holds a GLSL program (piglit section syntax)
//! and a `[test]` section; the program is compiled with `rgl_glsl`, linked through the
//! NIR pipeline, finalized with a default variant, compiled by the driver's default
//! compiler ([`rgl_backend::lanes::LaneCompiler`]), drawn into an 8×8 RGBA8 target,
//! and the pixels (top row first, `rrggbbaa`) or the draw error are compared with the
//! `.expect` file next to it (`BLESS=1` rewrites).
//!
//! `[test]` lines:
//! * `uniform SLOT a b c d`: words of a vec4 uniform slot (floats, or `i:N` ints);
//! * `ubo BLOCK a b ...`: floats appended to uniform block `BLOCK`;
//! * `texture UNIT WxH LEVELS nearest|linear`: an RGBA8 texture whose texel (x, y) of
//!   level `l` is (x·32, y·32, l·64, 255), bound to `UNIT` with repeat wrapping;
//! * `budget N`: the draw's instruction budget;
//! * `draw quad` (full-screen, piglit_texcoord 0..1) / `draw triangle` /
//!   `draw points` (the 4 quad corners).
//!
//! Vertex attribute `piglit_vertex` is the position, `piglit_texcoord` the texture
//! coordinate; other attributes read (0, 0, 0, 1).

use std::path::Path;

use rgl_backend::driver::ShaderStage;
use rgl_backend::driver::*;
use rgl_backend::driver::{Filter, MipFilter, SamplerState, Wrap};
use rgl_backend::format::{Format, VertexFormat};
use rgl_backend::{Driver, SoftDriver};
use rgl_conformance::shader_test::program as test_program;
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::Bindings;
use rgl_nir::finalize::{finalize_variant, VariantLowering};
use rgl_nir::ir::{names, Shader, Stage, VarMode};
use rgl_nir::passes::Runner;

const W: u32 = 8;
const H: u32 = 8;

fn word(s: &str) -> u32 {
    if let Some(i) = s.strip_prefix("i:") {
        return i.parse::<i32>().expect("int") as u32;
    }
    s.parse::<f32>().expect("float").to_bits()
}

/// Compiles and links the file's program to finalized NIR stages.
fn program(text: &str) -> Result<Vec<Shader>, String> {
    let src = test_program::from_text(text, std::path::Path::new("."))
        .map_err(|why| format!("not a runnable program: {why:?}"))?;
    let compiled = test_program::compile_all(&src);
    for c in &compiled {
        if !c.success() {
            return Err(format!("compile failed: {}", c.info_log));
        }
    }
    let refs: Vec<_> = compiled.iter().collect();
    let bindings = Bindings {
        attribs: vec![("piglit_vertex".into(), 0), ("piglit_texcoord".into(), 1)],
        frag_data: Vec::new(),
    };
    let linked = build_program(&refs, &bindings, PipelineOptions::default())
        .map_err(|l| format!("link failed: {l}"))?;
    let mut out = Vec::new();
    for st in &linked.stages {
        let mut nir = st.nir.clone().ok_or("no NIR")?;
        finalize_variant(
            &mut nir,
            &VariantLowering::default(),
            &rgl_nir::options::CompilerOptions::default(),
            &mut Runner::new(),
        )
        .map_err(|e| format!("finalize: {e}"))?;
        out.push(nir);
    }
    Ok(out)
}

fn run_case(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let stages = match program(&text) {
        Ok(s) => s,
        Err(e) => return format!("error: {e}\n"),
    };
    let mut d = SoftDriver::new(1);
    let tex = d
        .create_texture(&TextureDesc {
            target: TexTarget::D2,
            format: Format::Rgba8Unorm,
            width: W,
            height: H,
            depth: 1,
            levels: 1,
        })
        .unwrap();
    let color = Surface {
        texture: tex,
        level: 0,
        layer: 0,
    };
    d.set_framebuffer(&FramebufferState {
        width: W,
        height: H,
        colors: vec![Some(color)],
        zs: None,
    })
    .unwrap();
    d.set_viewport(Viewport {
        x: 0.0,
        y: 0.0,
        width: W as f32,
        height: H as f32,
        near: 0.0,
        far: 1.0,
    })
    .unwrap();
    d.clear(&ClearRequest {
        color: Some([0.0, 0.0, 0.0, 0.0]),
        color_masks: [0xf; 8],
        depth: None,
        stencil: None,
        scissor: None,
    })
    .unwrap();
    // Vertex elements by driver location, like the state tracker.
    let mut attrib_of_element: Vec<i32> = Vec::new();
    for nir in &stages {
        let stage = match nir.stage {
            Stage::Vertex => ShaderStage::Vertex,
            Stage::Geometry => ShaderStage::Geometry,
            _ => ShaderStage::Fragment,
        };
        if nir.stage == Stage::Vertex {
            for &v in &nir.globals {
                let var = &nir.variables[v];
                if var.mode == VarMode::ShaderIn && var.location >= 0 {
                    let dl = var.driver_location as usize;
                    if attrib_of_element.len() <= dl {
                        attrib_of_element.resize(dl + 1, -1);
                    }
                    attrib_of_element[dl] = var.location - names::VERT_ATTRIB_GENERIC0;
                }
            }
        }
        let h = match d.create_shader(nir) {
            Ok(h) => h,
            Err(e) => return format!("error: create_shader: {e}\n"),
        };
        d.bind_shader(stage, Some(h)).unwrap();
    }
    let mut uniforms: Vec<u32> = Vec::new();
    let mut ubos: Vec<Vec<u8>> = Vec::new();
    let mut views = Vec::new();
    let mut samplers = Vec::new();
    let mut mode = None;
    let mut in_test = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_test = t == "[test]";
            continue;
        }
        if !in_test || t.is_empty() || t.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = t.split_whitespace().collect();
        match parts[0] {
            "uniform" => {
                let slot: usize = parts[1].parse().unwrap();
                if uniforms.len() < (slot + 1) * 4 {
                    uniforms.resize((slot + 1) * 4, 0);
                }
                for (k, w) in parts[2..].iter().enumerate() {
                    uniforms[slot * 4 + k] = word(w);
                }
            }
            "ubo" => {
                let b: usize = parts[1].parse().unwrap();
                if ubos.len() <= b {
                    ubos.resize(b + 1, Vec::new());
                }
                for w in &parts[2..] {
                    ubos[b].extend_from_slice(&word(w).to_le_bytes());
                }
            }
            "texture" => {
                let unit: usize = parts[1].parse().unwrap();
                let (tw, th) = parts[2].split_once('x').unwrap();
                let (tw, th): (u32, u32) = (tw.parse().unwrap(), th.parse().unwrap());
                let levels: u32 = parts[3].parse().unwrap();
                let filter = if parts[4] == "linear" {
                    Filter::Linear
                } else {
                    Filter::Nearest
                };
                let t = d
                    .create_texture(&TextureDesc {
                        target: TexTarget::D2,
                        format: Format::Rgba8Unorm,
                        width: tw,
                        height: th,
                        depth: 1,
                        levels,
                    })
                    .unwrap();
                for l in 0..levels {
                    let (lw, lh) = ((tw >> l).max(1), (th >> l).max(1));
                    let mut data = Vec::new();
                    for y in 0..lh {
                        for x in 0..lw {
                            data.extend_from_slice(&[
                                (x * 32).min(255) as u8,
                                (y * 32).min(255) as u8,
                                (l * 64).min(255) as u8,
                                255,
                            ]);
                        }
                    }
                    d.texture_upload(
                        t,
                        l,
                        TexBox {
                            x: 0,
                            y: 0,
                            z: 0,
                            width: lw,
                            height: lh,
                            depth: 1,
                        },
                        &data,
                    )
                    .unwrap();
                }
                if views.len() <= unit {
                    views.resize(unit + 1, None);
                    samplers.resize(unit + 1, None);
                }
                views[unit] = Some(SamplerView {
                    texture: t,
                    first_level: 0,
                    last_level: levels - 1,
                    swizzle: Swizzle::IDENTITY,
                });
                let s = d
                    .create_sampler_state(&SamplerState {
                        wrap: [Wrap::Repeat; 3],
                        mag: filter,
                        min: filter,
                        mip: if levels > 1 {
                            MipFilter::Nearest
                        } else {
                            MipFilter::None
                        },
                        ..SamplerState::default()
                    })
                    .unwrap();
                samplers[unit] = Some(s);
            }
            "budget" => d.set_instruction_budget(parts[1].parse().unwrap()),
            "draw" => mode = Some(parts[1].to_string()),
            other => panic!("{}: unknown test command `{other}`", path.display()),
        }
    }
    d.set_uniforms(&uniforms).unwrap();
    for (b, data) in ubos.iter().enumerate() {
        let buf = d.create_buffer(data).unwrap();
        d.set_uniform_buffer(
            b as u32,
            Some(BufferRange {
                buffer: buf,
                offset: 0,
                size: data.len() as u64,
            }),
        )
        .unwrap();
    }
    d.set_sampler_views(&views).unwrap();
    d.bind_sampler_states(&samplers).unwrap();
    let (prim, corners): (PrimMode, Vec<[f32; 4]>) = match mode.as_deref() {
        Some("quad") => (
            PrimMode::TriangleStrip,
            vec![
                [-1.0, -1.0, 0.0, 1.0],
                [1.0, -1.0, 0.0, 1.0],
                [-1.0, 1.0, 0.0, 1.0],
                [1.0, 1.0, 0.0, 1.0],
            ],
        ),
        Some("triangle") => (
            PrimMode::Triangles,
            vec![
                [-1.0, -1.0, 0.0, 1.0],
                [1.0, -1.0, 0.0, 1.0],
                [-1.0, 1.0, 0.0, 1.0],
            ],
        ),
        Some("points") => (
            PrimMode::Points,
            vec![
                [-0.75, -0.75, 0.0, 1.0],
                [0.75, -0.75, 0.0, 1.0],
                [-0.75, 0.75, 0.0, 1.0],
                [0.75, 0.75, 0.0, 1.0],
            ],
        ),
        other => panic!("{}: bad draw {other:?}", path.display()),
    };
    // Two attributes per vertex: position, texcoord.
    let mut bytes = Vec::new();
    for c in &corners {
        let tc = [(c[0] + 1.0) / 2.0, (c[1] + 1.0) / 2.0, 0.0, 1.0];
        for v in c.iter().chain(tc.iter()) {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    let vb = d.create_buffer(&bytes).unwrap();
    d.set_vertex_buffers(&[VertexBufferBinding {
        buffer: vb,
        offset: 0,
        stride: 32,
    }])
    .unwrap();
    let elems: Vec<VertexSource> = attrib_of_element
        .iter()
        .map(|&a| match a {
            0 | 1 => VertexSource::Array {
                buffer: 0,
                offset: 16 * a as u32,
                format: VertexFormat::float(4),
                divisor: 0,
            },
            _ => VertexSource::Constant([0, 0, 0, 1.0f32.to_bits()]),
        })
        .collect();
    let ve = d.create_vertex_elements(&elems).unwrap();
    d.bind_vertex_elements(ve).unwrap();
    let r = d.draw(&DrawInfo::arrays(prim, 0, corners.len() as u32));
    if let Err(e) = r {
        return format!("error: draw: {e}\n");
    }
    let raw = d
        .read_surface(
            color,
            Rect {
                x: 0,
                y: 0,
                width: W,
                height: H,
            },
        )
        .unwrap();
    let mut s = String::new();
    for y in (0..H as usize).rev() {
        let row: Vec<String> = (0..W as usize)
            .map(|x| {
                let p = &raw[(y * W as usize + x) * 4..][..4];
                format!("{:02x}{:02x}{:02x}{:02x}", p[0], p[1], p[2], p[3])
            })
            .collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

#[test]
fn lanes_draw_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lanes_draw");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "shader_test"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no cases in {}", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        let actual = run_case(f);
        let exp = f.with_extension("expect");
        if std::env::var_os("BLESS").is_some() {
            std::fs::write(&exp, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&exp).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{}:\n--- expected\n{expected}--- actual\n{actual}",
                f.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
