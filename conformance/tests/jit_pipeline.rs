//! The fused per-pixel pipeline against the Rust per-pixel path, over a table of
//! driver states (`tests/jit_pipeline/states.txt`, one draw per row).
//!
//! Each row names a program (`tests/jit_pipeline/NAME.shader_test`, vertex and
//! fragment sections) and the state to draw it with: colour target formats,
//! depth/stencil format, depth function and write, stencil state of both faces,
//! blending, colour mask, scissor, target size and raster threads. The same
//! draw (a dozen overlapping triangles of both windings, some perspective,
//! some clipped, over targets filled with pseudo-random contents) runs on two
//! software drivers compiling the shaders with the JIT: one builds fused
//! pipelines (the default), the other runs the shader alone inside the
//! rasterizer's Rust code (`RGL_JIT=pipeline=shader`). Every byte of every
//! target must agree, including the layers around the one drawn to (the targets
//! are layer 1 of 3-layer array textures, so a write outside the band's rows
//! would show there).
//!
//! The printed outcome of each row (which path drew it, fragments written) is
//! compared with `tests/jit_pipeline/expected.txt` (`BLESS=1` rewrites it;
//! review the diff). A second test draws the table again with the pipelines
//! compiled unoptimised (`RGL_JIT=opt=none`, both register allocators).
//!
//! Row syntax: whitespace-separated `key=value` after the program name:
//! `color=FMT[,FMT]` (rgba8 r8 rg8 rgba16f rgba32f), `zs=FMT` (z16 z24x8 z24s8
//! z32f z32fs8), `depth=FUNC[,write]`, `stencil=FUNC,REF,VALUEMASK,WRITEMASK,
//! FAIL,ZFAIL,ZPASS` (both faces) and `back=...` (the back face),
//! `blend=EQ,SRC,DST[,EQ,SRC,DST]` (RGB then alpha, every target),
//! `constant=R,G,B,A`, `mask=CHANNELS` (e.g. `rg`, `-` for none), `scissor=X,Y,W,H`,
//! `size=WxH`, `threads=N`, `depth_range=NEAR,FAR`, `depth_clamp`,
//! `prim=triangles|lines|points`, `point_size=N`, `line_width=N`,
//! `offset=SCALE,UNITS` (polygon offset), `budget=N` (instruction budget; the
//! draw's error is printed and must be the same on both paths).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rgl_backend::driver::*;
use rgl_backend::format::{Format, VertexFormat};
use rgl_backend::jit::{JitCompiler, JitOptions};
use rgl_backend::{Driver, SoftDriver};
use rgl_conformance::shader_test::program as test_program;
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::Bindings;
use rgl_nir::finalize::{finalize_variant, VariantLowering};
use rgl_nir::ir::{Shader, Stage};
use rgl_nir::passes::Runner;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jit_pipeline")
}

/// The program's finalized stages.
fn program(name: &str) -> Vec<Shader> {
    let path = dir().join(format!("{name}.shader_test"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let src = test_program::from_text(&text, &path)
        .unwrap_or_else(|e| panic!("{}: not runnable: {e:?}", path.display()));
    let compiled = test_program::compile_all(&src);
    for c in &compiled {
        assert!(c.success(), "{name} does not compile: {}", c.info_log);
    }
    let refs: Vec<_> = compiled.iter().collect();
    let bindings = Bindings {
        attribs: vec![("piglit_vertex".into(), 0), ("attr".into(), 1)],
        frag_data: Vec::new(),
    };
    let linked = build_program(&refs, &bindings, PipelineOptions::default())
        .unwrap_or_else(|e| panic!("{name} does not link: {e}"));
    linked
        .stages
        .iter()
        .map(|s| {
            let mut nir = s.nir.clone().expect("NIR");
            finalize_variant(
                &mut nir,
                &VariantLowering::default(),
                &rgl_nir::options::CompilerOptions::default(),
                &mut Runner::new(),
            )
            .expect("finalize");
            nir
        })
        .collect()
}

fn format(s: &str) -> Format {
    match s {
        "rgba8" => Format::Rgba8Unorm,
        "r8" => Format::R8Unorm,
        "rg8" => Format::Rg8Unorm,
        "rgba16f" => Format::Rgba16Float,
        "rgba32f" => Format::Rgba32Float,
        "z16" => Format::Z16Unorm,
        "z24x8" => Format::Z24UnormX8,
        "z24s8" => Format::Z24UnormS8,
        "z32f" => Format::Z32Float,
        "z32fs8" => Format::Z32FloatS8,
        _ => panic!("format {s}"),
    }
}

fn func(s: &str) -> CompareFunc {
    match s {
        "never" => CompareFunc::Never,
        "less" => CompareFunc::Less,
        "equal" => CompareFunc::Equal,
        "lequal" => CompareFunc::LessEqual,
        "greater" => CompareFunc::Greater,
        "notequal" => CompareFunc::NotEqual,
        "gequal" => CompareFunc::GreaterEqual,
        "always" => CompareFunc::Always,
        _ => panic!("compare function {s}"),
    }
}

fn op(s: &str) -> StencilOp {
    match s {
        "keep" => StencilOp::Keep,
        "zero" => StencilOp::Zero,
        "replace" => StencilOp::Replace,
        "incr" => StencilOp::Incr,
        "decr" => StencilOp::Decr,
        "invert" => StencilOp::Invert,
        "incr_wrap" => StencilOp::IncrWrap,
        "decr_wrap" => StencilOp::DecrWrap,
        _ => panic!("stencil op {s}"),
    }
}

fn number(s: &str) -> u8 {
    match s.strip_prefix("0x") {
        Some(h) => u8::from_str_radix(h, 16).expect("hex"),
        None => s.parse().expect("number"),
    }
}

fn stencil_face(s: &str) -> StencilFace {
    let p: Vec<&str> = s.split(',').collect();
    assert_eq!(p.len(), 7, "stencil={s}");
    StencilFace {
        func: func(p[0]),
        reference: number(p[1]),
        value_mask: number(p[2]),
        write_mask: number(p[3]),
        fail_op: op(p[4]),
        zfail_op: op(p[5]),
        zpass_op: op(p[6]),
    }
}

fn equation(s: &str) -> BlendEquation {
    match s {
        "add" => BlendEquation::Add,
        "sub" => BlendEquation::Subtract,
        "rsub" => BlendEquation::ReverseSubtract,
        "min" => BlendEquation::Min,
        "max" => BlendEquation::Max,
        _ => panic!("equation {s}"),
    }
}

fn factor(s: &str) -> BlendFactor {
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

/// One row of the table.
struct Row {
    program: String,
    colors: Vec<Format>,
    zs: Option<Format>,
    dsa: DepthStencilState,
    blend: RtBlend,
    constant: [f32; 4],
    scissor: Option<Rect>,
    size: (u32, u32),
    threads: usize,
    depth_range: (f32, f32),
    depth_clamp: bool,
    prim: PrimMode,
    point_size: f32,
    line_width: f32,
    offset: Option<(f32, f32)>,
    budget: Option<u64>,
}

fn parse_row(line: &str) -> Row {
    let mut it = line.split_whitespace();
    let program = it.next().expect("program").to_string();
    let mut row = Row {
        program,
        colors: vec![Format::Rgba8Unorm],
        zs: None,
        dsa: DepthStencilState::default(),
        blend: RtBlend::default(),
        constant: [0.25, 0.5, 0.75, 0.375],
        scissor: None,
        size: (37, 23),
        threads: 1,
        depth_range: (0.0, 1.0),
        depth_clamp: false,
        prim: PrimMode::Triangles,
        point_size: 1.0,
        line_width: 1.0,
        offset: None,
        budget: None,
    };
    let mut back = None;
    for item in it {
        let (k, v) = item.split_once('=').unwrap_or((item, ""));
        let list: Vec<&str> = v.split(',').collect();
        match k {
            "color" => row.colors = list.iter().map(|f| format(f)).collect(),
            "zs" => row.zs = Some(format(v)),
            "depth" => {
                row.dsa.depth_test = true;
                row.dsa.depth_func = func(list[0]);
                row.dsa.depth_write = list.get(1) == Some(&"write");
            }
            "stencil" => {
                row.dsa.stencil_test = true;
                row.dsa.front = stencil_face(v);
            }
            "back" => back = Some(stencil_face(v)),
            "blend" => {
                row.blend.enabled = true;
                row.blend.rgb_eq = equation(list[0]);
                row.blend.src_rgb = factor(list[1]);
                row.blend.dst_rgb = factor(list[2]);
                let a = if list.len() >= 6 { 3 } else { 0 };
                row.blend.alpha_eq = equation(list[a]);
                row.blend.src_alpha = factor(list[a + 1]);
                row.blend.dst_alpha = factor(list[a + 2]);
            }
            "constant" => {
                for (c, x) in list.iter().enumerate() {
                    row.constant[c] = x.parse().expect("float");
                }
            }
            "mask" => {
                row.blend.color_mask = v
                    .chars()
                    .map(|c| match c {
                        'r' => 1,
                        'g' => 2,
                        'b' => 4,
                        'a' => 8,
                        _ => 0,
                    })
                    .sum();
            }
            "scissor" => {
                let n: Vec<i64> = list.iter().map(|x| x.parse().expect("int")).collect();
                row.scissor = Some(Rect {
                    x: n[0] as i32,
                    y: n[1] as i32,
                    width: n[2] as u32,
                    height: n[3] as u32,
                });
            }
            "size" => {
                let (w, h) = v.split_once('x').expect("WxH");
                row.size = (w.parse().expect("w"), h.parse().expect("h"));
            }
            "threads" => row.threads = v.parse().expect("threads"),
            "depth_range" => {
                row.depth_range = (list[0].parse().expect("f"), list[1].parse().expect("f"))
            }
            "depth_clamp" => row.depth_clamp = true,
            "prim" => {
                row.prim = match v {
                    "triangles" => PrimMode::Triangles,
                    "lines" => PrimMode::Lines,
                    "points" => PrimMode::Points,
                    _ => panic!("prim {v}"),
                }
            }
            "point_size" => row.point_size = v.parse().expect("point size"),
            "line_width" => row.line_width = v.parse().expect("line width"),
            "offset" => {
                row.offset = Some((list[0].parse().expect("f"), list[1].parse().expect("f")))
            }
            "budget" => row.budget = Some(v.parse().expect("budget")),
            _ => panic!("unknown key {k} in `{line}`"),
        }
    }
    row.dsa.back = back.unwrap_or(row.dsa.front);
    row
}

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    fn unit(&mut self) -> f32 {
        self.next() as f32 / (1u64 << 31) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// Pseudo-random texel bytes of a whole level: colours and depths finite (the
/// two paths may order NaN operands differently), stencil any byte.
fn contents(fmt: Format, pixels: usize, rng: &mut Lcg) -> Vec<u8> {
    let mut out = Vec::with_capacity(pixels * fmt.bytes_per_pixel());
    for _ in 0..pixels {
        match fmt {
            Format::Rgba16Float => {
                for _ in 0..4 {
                    let v = half::f16::from_f32(rng.range(-0.5, 1.5));
                    out.extend_from_slice(&v.to_bits().to_le_bytes());
                }
            }
            Format::Rgba32Float => {
                for _ in 0..4 {
                    out.extend_from_slice(&rng.range(-0.5, 1.5).to_le_bytes());
                }
            }
            Format::Z32Float => out.extend_from_slice(&rng.unit().to_le_bytes()),
            Format::Z32FloatS8 => {
                out.extend_from_slice(&rng.unit().to_le_bytes());
                out.extend_from_slice(&rng.next().to_le_bytes());
            }
            _ => {
                for _ in 0..fmt.bytes_per_pixel() {
                    out.push(rng.next() as u8);
                }
            }
        }
    }
    out
}

/// The vertices of the draw: 14 triangles (positions in clip space, some with
/// w != 1 and some crossing the near/far planes and the window edges; both
/// windings), and one attribute.
fn vertices(rng: &mut Lcg) -> Vec<f32> {
    let mut v = Vec::new();
    for t in 0..14 {
        for _ in 0..3 {
            let w = if t % 3 == 0 { 1.0 } else { rng.range(0.5, 2.0) };
            let (x, y) = (rng.range(-1.3, 1.3), rng.range(-1.3, 1.3));
            let z = rng.range(-1.2, 1.2);
            v.extend_from_slice(&[x * w, y * w, z * w, w]);
            for _ in 0..4 {
                v.push(rng.range(-0.25, 1.25));
            }
        }
    }
    v
}

struct Targets {
    colors: Vec<TextureHandle>,
    zs: Option<TextureHandle>,
    /// The draw's error.
    error: Option<String>,
}

/// Sets up the row's state on `d` (targets filled from a generator seeded by the
/// row number) and draws; returns the targets.
fn draw(d: &mut SoftDriver, row: &Row, seed: u64, stages: &[Shader]) -> Result<Targets, String> {
    let e = |e: rgl_backend::Error| e.to_string();
    let mut rng = Lcg(seed);
    let (w, h) = row.size;
    let new_target = |d: &mut SoftDriver, fmt: Format, rng: &mut Lcg| {
        let t = d
            .create_texture(&TextureDesc {
                target: TexTarget::D2Array,
                format: fmt,
                width: w,
                height: h,
                depth: 3,
                levels: 1,
            })
            .map_err(e)?;
        let data = contents(fmt, (w * h * 3) as usize, rng);
        d.texture_upload(
            t,
            0,
            TexBox {
                x: 0,
                y: 0,
                z: 0,
                width: w,
                height: h,
                depth: 3,
            },
            &data,
        )
        .map_err(e)?;
        Ok::<_, String>(t)
    };
    let mut colors = Vec::new();
    for &f in &row.colors {
        colors.push(new_target(d, f, &mut rng)?);
    }
    let zs = match row.zs {
        Some(f) => Some(new_target(d, f, &mut rng)?),
        None => None,
    };
    let surface = |t: TextureHandle| Surface {
        texture: t,
        level: 0,
        layer: 1,
    };
    d.set_framebuffer(&FramebufferState {
        width: w,
        height: h,
        colors: colors.iter().map(|&t| Some(surface(t))).collect(),
        zs: zs.map(surface),
    })
    .map_err(e)?;
    d.set_viewport(Viewport {
        x: 0.0,
        y: 0.0,
        width: w as f32,
        height: h as f32,
        near: row.depth_range.0,
        far: row.depth_range.1,
    })
    .map_err(e)?;
    if let Some(s) = row.scissor {
        d.set_scissor(s).map_err(e)?;
    }
    let rast = d
        .create_rasterizer_state(&RasterizerState {
            scissor: row.scissor.is_some(),
            depth_clamp: row.depth_clamp,
            point_size: row.point_size,
            line_width: row.line_width,
            offset_fill: row.offset.is_some(),
            offset_line: row.offset.is_some(),
            offset_point: row.offset.is_some(),
            offset_scale: row.offset.map_or(0.0, |o| o.0),
            offset_units: row.offset.map_or(0.0, |o| o.1),
            ..RasterizerState::default()
        })
        .map_err(e)?;
    d.bind_rasterizer_state(rast).map_err(e)?;
    let dsa = d.create_depth_stencil_state(&row.dsa).map_err(e)?;
    d.bind_depth_stencil_state(dsa).map_err(e)?;
    let blend = d
        .create_blend_state(&BlendState {
            rt: [row.blend; MAX_RENDER_TARGETS],
        })
        .map_err(e)?;
    d.bind_blend_state(blend).map_err(e)?;
    d.set_blend_color(row.constant).map_err(e)?;
    for nir in stages {
        let stage = match nir.stage {
            Stage::Vertex => ShaderStage::Vertex,
            _ => ShaderStage::Fragment,
        };
        let sh = d.create_shader(nir).map_err(e)?;
        d.bind_shader(stage, Some(sh)).map_err(e)?;
    }
    let verts = vertices(&mut rng);
    let bytes: Vec<u8> = verts.iter().flat_map(|f| f.to_le_bytes()).collect();
    let vb = d.create_buffer(&bytes).map_err(e)?;
    d.set_vertex_buffers(&[VertexBufferBinding {
        buffer: vb,
        offset: 0,
        stride: 32,
    }])
    .map_err(e)?;
    let elems = [0u32, 16].map(|offset| VertexSource::Array {
        buffer: 0,
        offset,
        format: VertexFormat::float(4),
        divisor: 0,
    });
    let ve = d.create_vertex_elements(&elems).map_err(e)?;
    d.bind_vertex_elements(ve).map_err(e)?;
    if let Some(n) = row.budget {
        d.set_instruction_budget(n);
    }
    let drawn = d.draw(&DrawInfo::arrays(row.prim, 0, (verts.len() / 8) as u32));
    Ok(Targets {
        colors,
        zs,
        error: drawn.err().map(e),
    })
}

fn read_all(d: &SoftDriver, t: TextureHandle) -> Vec<u8> {
    let desc = d.texture_desc(t).expect("desc");
    d.texture_read(
        t,
        0,
        TexBox {
            x: 0,
            y: 0,
            z: 0,
            width: desc.width,
            height: desc.height,
            depth: desc.depth,
        },
    )
    .expect("read")
}

/// First differing pixel of two targets, as text.
fn mismatch(fused: &[u8], rust: &[u8], fmt: Format, w: u32, h: u32) -> Option<String> {
    let bpp = fmt.bytes_per_pixel();
    let i = fused.iter().zip(rust).position(|(a, b)| a != b)?;
    let px = i / bpp;
    let (layer, y, x) = (
        px / (w * h) as usize,
        px / w as usize % h as usize,
        px % w as usize,
    );
    let at = px * bpp;
    Some(format!(
        "{fmt:?} layer {layer} pixel ({x}, {y}): fused {:02x?}, rust {:02x?}",
        &fused[at..at + bpp],
        &rust[at..at + bpp]
    ))
}

fn jit(opts: JitOptions) -> Arc<JitCompiler> {
    Arc::new(JitCompiler::with_options(opts).expect("the JIT runs on this host"))
}

fn fused(fused_pipeline: bool) -> JitOptions {
    JitOptions {
        fused_pipeline,
        ..JitOptions::default()
    }
}

/// Draws every row of the state table with `fused_jit` and `rust_jit`: the
/// printed outcome of each row, and the rows whose draws differ.
fn run_table(fused_jit: &Arc<JitCompiler>, rust_jit: &Arc<JitCompiler>) -> (String, Vec<String>) {
    let table = std::fs::read_to_string(dir().join("states.txt")).expect("states.txt");
    let mut programs: std::collections::HashMap<String, Vec<Shader>> = Default::default();
    let mut report = String::new();
    let mut failures = Vec::new();
    for (n, line) in table.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let row = parse_row(line);
        let stages = programs
            .entry(row.program.clone())
            .or_insert_with(|| program(&row.program))
            .clone();
        let mut fused = SoftDriver::new(row.threads);
        fused.set_compiler(fused_jit.clone());
        let mut rust = SoftDriver::new(row.threads);
        rust.set_compiler(rust_jit.clone());
        let seed = n as u64 + 1;
        let a = draw(&mut fused, &row, seed, &stages);
        let b = draw(&mut rust, &row, seed, &stages);
        let (a, b) = match (a, b) {
            (Ok(a), Ok(b)) => (a, b),
            (a, b) => {
                failures.push(format!("{line}: fused {:?}, rust {:?}", a.err(), b.err()));
                continue;
            }
        };
        let c = fused.counters();
        let path = if c.pipeline_fallbacks > 0 {
            "rust"
        } else if c.pipeline_builds + c.pipeline_hits > 0 {
            "fused"
        } else {
            "none"
        };
        if a.error != b.error {
            failures.push(format!(
                "{line}: draw errors differ: fused {:?}, rust {:?}",
                a.error, b.error
            ));
        }
        let rc = rust.counters();
        if (c.fs_invocations, c.fragments_written) != (rc.fs_invocations, rc.fragments_written) {
            failures.push(format!(
                "{line}: counters differ: fused {} invocations / {} written, rust {} / {}",
                c.fs_invocations, c.fragments_written, rc.fs_invocations, rc.fragments_written
            ));
        }
        let pairs = a
            .colors
            .iter()
            .zip(&b.colors)
            .zip(&row.colors)
            .map(|((x, y), f)| (*x, *y, *f))
            .chain(a.zs.zip(b.zs).zip(row.zs).map(|((x, y), f)| (x, y, f)));
        // A draw stopped by the instruction budget leaves what was written
        // before the stop; with several threads each stops at its own point,
        // so those contents depend on scheduling and only the error is compared.
        let partial = a.error.is_some() && row.threads > 1;
        for (x, y, f) in pairs.filter(|_| !partial) {
            let (fa, ra) = (read_all(&fused, x), read_all(&rust, y));
            if let Some(m) = mismatch(&fa, &ra, f, row.size.0, row.size.1) {
                failures.push(format!("{line}: {m}"));
            }
        }
        writeln!(
            report,
            "{line}\n    {path}: {} invocations, {} fragments written",
            c.fs_invocations, c.fragments_written
        )
        .unwrap();
        if let Some(err) = &a.error {
            writeln!(report, "    error: {err}").unwrap();
        }
    }
    (report, failures)
}

#[test]
fn fused_pipeline_matches_rust_path() {
    let (report, failures) = run_table(&jit(fused(true)), &jit(fused(false)));
    assert!(
        failures.is_empty(),
        "{} rows differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let expected_path = dir().join("expected.txt");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&expected_path, &report).expect("write expected.txt");
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if expected != report {
        for (i, (e, r)) in expected.lines().zip(report.lines()).enumerate() {
            if e != r {
                panic!(
                    "expected.txt differs at line {}:\n  expected: {e}\n  got:      {r}\n(BLESS=1 rewrites it)",
                    i + 1
                );
            }
        }
        panic!(
            "expected.txt has {} lines, the run {} (BLESS=1 rewrites it)",
            expected.lines().count(),
            report.lines().count()
        );
    }
}

/// The same table with the fused pipelines compiled without Cranelift's
/// optimizer, under both register allocators: a value defined in a block that
/// does not dominate its use is legal only after the optimizer has moved it, so
/// this catches what the default build hides (it once made the backtracking
/// allocator panic and `single_pass` read an undefined register).
#[test]
fn unoptimised_fused_pipelines_match_rust_path() {
    use rgl_backend::jit::{OptLevel, Regalloc};
    let expected = std::fs::read_to_string(dir().join("expected.txt")).unwrap_or_default();
    let rust_jit = jit(fused(false));
    for regalloc in [Regalloc::Backtracking, Regalloc::SinglePass] {
        let opts = JitOptions {
            opt_level: OptLevel::None,
            regalloc,
            ..fused(true)
        };
        let (report, failures) = run_table(&jit(opts), &rust_jit);
        assert!(
            failures.is_empty(),
            "opt=none, {regalloc:?}: {} rows differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
        assert!(
            report == expected,
            "opt=none, {regalloc:?}: the rows' outcomes differ from expected.txt"
        );
    }
}

/// Options of a JIT compiling every variant at once with `opt_level` and
/// `regalloc` (no tiers).
fn untiered(
    opt_level: rgl_backend::jit::OptLevel,
    regalloc: rgl_backend::jit::Regalloc,
) -> JitOptions {
    JitOptions {
        opt_level,
        regalloc,
        tier: false,
        ..fused(true)
    }
}

/// Tiered compiles (`RGL_JIT=tier=on`): the table drawn with tier-0 code
/// (`opt=none`, `single_pass`) and with the optimised code (`speed`,
/// backtracking) gives the same bytes in every target and the same outcome.
#[test]
fn tier0_and_optimised_pipelines_agree() {
    use rgl_backend::jit::{OptLevel, Regalloc};
    let tier0 = untiered(OptLevel::None, Regalloc::SinglePass);
    assert_eq!(tier0, JitOptions::default().tier0());
    let (report, failures) = run_table(
        &jit(tier0),
        &jit(untiered(OptLevel::Speed, Regalloc::Backtracking)),
    );
    assert!(
        failures.is_empty(),
        "tier 0 against optimised: {} rows differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let expected = std::fs::read_to_string(dir().join("expected.txt")).unwrap_or_default();
    assert!(
        report == expected,
        "tier 0: the rows' outcomes differ from expected.txt"
    );
}

/// Uploads the targets' initial contents again (the same bytes `draw` made
/// from `seed`) and repeats the row's draw with the shaders and state still
/// bound.
fn redraw(d: &mut SoftDriver, row: &Row, seed: u64, t: &Targets) -> Option<String> {
    let mut rng = Lcg(seed);
    let (w, h) = row.size;
    let targets = t
        .colors
        .iter()
        .zip(&row.colors)
        .chain(t.zs.as_ref().zip(row.zs.as_ref()));
    for (&tex, &fmt) in targets {
        let data = contents(fmt, (w * h * 3) as usize, &mut rng);
        let whole = TexBox {
            x: 0,
            y: 0,
            z: 0,
            width: w,
            height: h,
            depth: 3,
        };
        d.texture_upload(tex, 0, whole, &data).expect("upload");
    }
    let verts = vertices(&mut rng);
    d.draw(&DrawInfo::arrays(row.prim, 0, (verts.len() / 8) as u32))
        .err()
        .map(|e| e.to_string())
}

/// The swap: each row drawn by a tiered JIT (tier-0 code), then, after the
/// background rebuilds are done, drawn again on the same driver: the second
/// draw of every row the fused path draws swaps in the optimised pipeline
/// (the driver's `pipeline_tier_ups`), and both draws leave the same bytes.
#[test]
fn tier_up_swaps_in_identical_code() {
    let jit = jit(JitOptions {
        tier: true,
        ..fused(true)
    });
    assert!(jit.options().tiered());
    let table = std::fs::read_to_string(dir().join("states.txt")).expect("states.txt");
    let mut failures = Vec::new();
    let mut swapped = 0;
    for (n, line) in table.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let row = parse_row(line);
        let stages = program(&row.program);
        let mut d = SoftDriver::new(row.threads);
        d.set_compiler(jit.clone());
        let seed = n as u64 + 1;
        let first = match draw(&mut d, &row, seed, &stages) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{line}: {e}"));
                continue;
            }
        };
        let targets: Vec<TextureHandle> = first.colors.iter().copied().chain(first.zs).collect();
        let before: Vec<Vec<u8>> = targets.iter().map(|&t| read_all(&d, t)).collect();
        let c = d.counters();
        let fused_path = c.pipeline_fallbacks == 0 && c.pipeline_builds > 0;
        if c.pipeline_tier_ups != 0 {
            failures.push(format!("{line}: a tier-up before the rebuild was awaited"));
        }
        jit.wait_tier_ups();
        let error = redraw(&mut d, &row, seed, &first);
        if error != first.error {
            failures.push(format!(
                "{line}: draw errors differ: tier 0 {:?}, optimised {error:?}",
                first.error
            ));
        }
        let c = d.counters();
        if fused_path {
            if c.pipeline_tier_ups != 1 {
                failures.push(format!(
                    "{line}: {} tier-ups at the second draw, not 1",
                    c.pipeline_tier_ups
                ));
            }
            swapped += 1;
        }
        // A multi-threaded draw stopped by the budget leaves scheduling-dependent
        // contents (see `run_table`).
        if first.error.is_some() && row.threads > 1 {
            continue;
        }
        let formats = row.colors.iter().copied().chain(row.zs);
        for ((&t, a), f) in targets.iter().zip(&before).zip(formats) {
            let b = read_all(&d, t);
            if let Some(m) = mismatch(a, &b, f, row.size.0, row.size.1) {
                failures.push(format!("{line}: tier 0 against optimised: {m}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(swapped > 0, "no row drew with a fused pipeline");
    let stats = jit.tier_stats();
    assert_eq!(stats.failed, 0, "{stats:?}");
}
