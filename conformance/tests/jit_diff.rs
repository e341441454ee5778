//! Differential test of the shader JIT: every `.shader_test` of
//! `../shared/corpus/{piglit,piglit-geometry,shader-db}` is compiled and linked
//! through the NIR pipeline (`piglit_vertex` at attribute 0, `piglit_texcoord` at
//! 1, as the conformance runner binds them), each stage finalized with a default
//! variant and compiled by the lane interpreter ([`LaneShader`]) and by the JIT
//! ([`JitCompiler::compile_native`], no fallback) with its default options
//! (adaptive quads) and with 1, 2 and 4 quads per iteration fixed. Both run on
//! the same
//! deterministic pseudo-random batches; `rgl_nir::eval` runs on each lane too.
//!
//! Two texture configurations per stage:
//! * **nearest**: RGBA32F textures sampled nearest on level 0 with repeat wrapping
//!   (the reference interpreter's model). JIT and interpreter must agree on every
//!   lane; JIT and `nir::eval` must agree where the eval test `lanes_eval`
//!   compares (its skip rules: undefined lanes, budget, texture kinds eval does
//!   not model).
//! * **filtered** (stages with textures): bilinear and trilinear filtering over
//!   full mip chains, RGBA8 (the sampler's fast paths), RGBA16F and depth formats
//!   with shadow compare, every target the stage's samplers use, several wrap modes
//!   and LOD bias, inputs varying smoothly inside each 2×2 quad so implicit LODs
//!   select different levels. JIT and interpreter must agree on every lane.
//!
//! Agreement with the interpreter: outputs (or discards) bit for bit, except that
//! two NaNs or two zeros of either sign are equal (both follow GLSL's precision
//! rules with the same f32 operations, `rgl_backend::fastmath`). Agreement with
//! eval (f64, rounded once): integers bit for bit; float outputs that depend on an
//! op GLSL lets an implementation approximate within the bound of
//! `common::precision` (a NaN from `pow` outside its GLSL domain is counted and
//! skipped); other floats within 2 ulps. Fragment stages that take derivatives (or implicit
//! LODs) inside control flow, or that discard, get the same inputs on the four
//! lanes of each quad: derivatives of values computed in divergent control flow or
//! after a discard are undefined (the interpreter reads stale lanes there).
//!
//! The test fails on any mismatch or panic, and when the corpus is missing under
//! `CI=true`. It prints the counts, the programs that did not compile or link,
//! every stage the JIT could not build (with the reason) and the stages the
//! interpreter could not build.

mod common;

use common::corpus::{
    bind_nearest, entry, files, nearest_textures, put_system_values, scan, NearestTexture, Rng,
    Scan,
};
use common::precision;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use rgl_backend::driver::{
    CompareFunc, Filter, MipFilter, SamplerState, ShaderStage, TexTarget, Wrap,
};
use rgl_backend::exec::{
    Budget, Invocation, Reg, Resources, ShaderExec, ShaderInfo, SysVals, ALL_LANES, LANES,
};
use rgl_backend::format::Format;
use rgl_backend::jit::{JitCompiler, JitOptions};
use rgl_backend::lanes::LaneShader;
use rgl_backend::texture::{TexView, TextureBinding};
use rgl_backend::Error;
use rgl_conformance::shader_test::program as test_program;
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::Bindings;
use rgl_nir::eval::{evaluate, EvalErrorKind, EvalInput, InputKey};
use rgl_nir::finalize::{finalize_variant, VariantLowering};
use rgl_nir::ir::{SamplerDim, Shader};
use rgl_nir::opcodes::Base;
use rgl_nir::passes::Runner;

const BATCHES: usize = 3;
const EVAL_BUDGET: u64 = 200_000;

#[derive(Default)]
struct Counts {
    files: usize,
    programs: usize,
    stages: usize,
    geometry: usize,
    jit_built: usize,
    nearest_batches: usize,
    filtered_batches: usize,
    eval_compared: usize,
    lanes: usize,
    budget_skips: usize,
    skipped_lanes: BTreeMap<&'static str, usize>,
    /// Output comparisons skipped: NaN from `pow` outside its GLSL domain.
    pow_domain: usize,
    interp_unbuilt: Vec<String>,
    jit_unbuilt: Vec<String>,
    mismatches: Vec<String>,
}

/// Bits equal, or both NaN, or both zero.
fn same(a: u32, b: u32) -> bool {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    a == b || (x.is_nan() && y.is_nan()) || (a << 1 == 0 && b << 1 == 0)
}

/// `lanes_eval`'s float tolerance against the reference interpreter (2 ulps).
fn same_eval(a: u32, b: u32, float: bool) -> bool {
    if a == b {
        return true;
    }
    if !float {
        return false;
    }
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    if x.is_nan() && y.is_nan() || x == y {
        return true;
    }
    if x.is_sign_negative() != y.is_sign_negative() {
        return false;
    }
    (a as i64 - b as i64).abs() <= 2
}

/// One batch's inputs and resources.
struct Batch {
    inputs: Vec<Reg>,
    sys: SysVals,
    uniforms: Vec<[u32; 4]>,
    ubos: Vec<Vec<u8>>,
    mask: u32,
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Config {
    Nearest,
    Filtered,
}

/// Random inputs: per lane, the same on each quad's four lanes (`quad_same`), or
/// (`smooth`) floats varying linearly inside each quad by `step`.
fn make_batch(
    info: &ShaderInfo,
    sc: &Scan,
    rng: &mut Rng,
    quad_same: bool,
    smooth: Option<f32>,
    mask: u32,
) -> Batch {
    let stage = info.stage;
    let nv = info.gs.map_or(1, |g| g.vertices_in as usize);
    let uniforms: Vec<[u32; 4]> = (0..sc.uniform_slots.min(4096) + 4)
        .map(|s| {
            let t = sc.uniform_ty.get(&s).copied();
            [0; 4].map(|_| rng.word(t))
        })
        .collect();
    let ubos: Vec<Vec<u8>> = (0..sc.ubo_blocks)
        .map(|_| (0..64).flat_map(|_| rng.word(None).to_le_bytes()).collect())
        .collect();
    let per_vertex = info.inputs.len() * 4;
    let mut inputs = vec![Reg::default(); nv * per_vertex];
    let mut sys = SysVals::default();
    let input_ty = |i: usize| {
        let d = &info.inputs[i];
        let eloc = if stage == ShaderStage::Vertex {
            sc.vs_loc.get(&d.location).copied().unwrap_or(d.location)
        } else {
            d.location
        };
        sc.input_ty.get(&eloc).copied()
    };
    for l in 0..LANES {
        let src = if quad_same { l & !3 } else { l };
        if src != l {
            for r in inputs.iter_mut() {
                r.0[l] = r.0[src];
            }
            for c in 0..4 {
                sys.frag_coord[c].0[l] = sys.frag_coord[c].0[src];
            }
            for c in 0..2 {
                sys.point_coord[c].0[l] = sys.point_coord[c].0[src];
            }
            sys.front_face.0[l] = sys.front_face.0[src];
            sys.primitive_id.0[l] = sys.primitive_id.0[src];
            continue;
        }
        let (px, py) = ((l & 1) as f32, ((l >> 1) & 1) as f32);
        for v in 0..nv {
            for i in 0..info.inputs.len() {
                let t = input_ty(i);
                for c in 0..4 {
                    let r = v * per_vertex + i * 4 + c;
                    let base = f32::from_bits(inputs[r].0[l & !3]);
                    let k = c as f32;
                    inputs[r].0[l] = match (smooth, t) {
                        (Some(step), Some(Base::Float) | None) if l & 3 != 0 => {
                            (base + step * (px * (1.0 + 0.25 * k) + py * (0.5 + 0.5 * k))).to_bits()
                        }
                        _ => rng.word(t),
                    };
                }
            }
        }
        for c in 0..4 {
            sys.frag_coord[c].0[l] = rng.float();
        }
        for c in 0..2 {
            sys.point_coord[c].0[l] = rng.float();
        }
        sys.front_face.0[l] = if rng.next().is_multiple_of(2) {
            u32::MAX
        } else {
            0
        };
        sys.vertex_id.0[l] = rng.int();
        sys.instance_id.0[l] = rng.int();
        sys.primitive_id.0[l] = rng.int();
    }
    Batch {
        inputs,
        sys,
        uniforms,
        ubos,
        mask,
    }
}

/// Outputs, discards and the budget outcome of one run.
struct RunResult {
    outputs: Vec<Reg>,
    kill: u32,
    budget: bool,
    error: Option<Error>,
}

fn run(shader: &dyn ShaderExec, b: &Batch, textures: &[Option<TextureBinding<'_>>]) -> RunResult {
    let info = shader.info();
    let ubo_refs: Vec<&[u8]> = b.ubos.iter().map(|v| v.as_slice()).collect();
    let mut outputs = vec![Reg::default(); info.outputs.len() * 4];
    let mut budget = Budget::new(EVAL_BUDGET * 16 * 8);
    let mut scratch = Vec::new();
    let mut inv = Invocation {
        inputs: &b.inputs,
        outputs: &mut outputs,
        sys: &b.sys,
        mask: b.mask,
        kill: 0,
        res: Resources {
            uniforms: &b.uniforms,
            ubos: &ubo_refs,
            textures,
            storage: &[],
            images: &[],
        },
        budget: &mut budget,
        scratch: &mut scratch,
        gs: None,
    };
    let r = shader.run(&mut inv);
    let kill = inv.kill;
    RunResult {
        outputs,
        kill,
        budget: matches!(r, Err(Error::BudgetExceeded(_))),
        error: r.err().filter(|e| !matches!(e, Error::BudgetExceeded(_))),
    }
}

/// Compares the JIT with the interpreter on the live lanes; `None` when they agree.
fn compare_runs(
    info: &ShaderInfo,
    mask: u32,
    interp: &RunResult,
    jit: &RunResult,
) -> Option<String> {
    if info.stage == ShaderStage::Fragment && (interp.kill & mask) != (jit.kill & mask) {
        return Some(format!(
            "discards: interpreter {:#06x}, jit {:#06x}",
            interp.kill & mask,
            jit.kill & mask
        ));
    }
    for l in 0..LANES {
        if mask & (1 << l) == 0 || (interp.kill >> l) & 1 != 0 {
            continue;
        }
        for (w, (a, b)) in interp.outputs.iter().zip(&jit.outputs).enumerate() {
            if !same(a.0[l], b.0[l]) {
                return Some(format!(
                    "lane {l} output {}.{}: interpreter {:#010x} ({}), jit {:#010x} ({})",
                    info.outputs[w / 4].location,
                    w % 4,
                    a.0[l],
                    f32::from_bits(a.0[l]),
                    b.0[l],
                    f32::from_bits(b.0[l])
                ));
            }
        }
    }
    None
}

/// `nir::eval` on lane `l` of a batch; `Err(reason)` when the lane is skipped.
fn eval_lane(
    nir: &Shader,
    info: &ShaderInfo,
    sc: &Scan,
    b: &Batch,
    l: usize,
    texs: &[NearestTexture],
) -> Result<rgl_nir::eval::EvalOutput, &'static str> {
    let stage = info.stage;
    let mut ein = EvalInput {
        uniforms: b.uniforms.clone(),
        ubos: b.ubos.clone(),
        max_instructions: EVAL_BUDGET,
        textures: texs.iter().map(|t| t.eval.clone()).collect(),
        ..EvalInput::default()
    };
    for (i, d) in info.inputs.iter().enumerate() {
        let eloc = if stage == ShaderStage::Vertex {
            sc.vs_loc.get(&d.location).copied().unwrap_or(d.location)
        } else {
            d.location
        };
        for c in 0..4u8 {
            ein.inputs.insert(
                InputKey {
                    vertex: 0,
                    location: eloc,
                    component: c,
                },
                b.inputs[i * 4 + c as usize].0[l],
            );
        }
    }
    put_system_values(&mut ein, stage == ShaderStage::Fragment, &b.sys, l);
    match evaluate(nir, &ein) {
        Ok(o) if o.undefined_control > 0 || o.out_of_bounds > 0 => Err("undefined"),
        Ok(o) => Ok(o),
        Err(e) if e.kind == EvalErrorKind::BudgetExceeded => Err("eval budget"),
        Err(_) => Err("eval error"),
    }
}

/// Compares the JIT's lane `l` with one eval run (`lanes_eval`'s rule).
fn compare_eval(
    out: &rgl_nir::eval::EvalOutput,
    info: &ShaderInfo,
    sc: &Scan,
    jit: &RunResult,
    l: usize,
    pow_domain: &mut usize,
) -> Option<String> {
    if info.stage == ShaderStage::Fragment && out.discarded != (jit.kill >> l & 1 != 0) {
        return Some(format!(
            "lane {l} discard: jit {} eval {}",
            jit.kill >> l & 1 != 0,
            out.discarded
        ));
    }
    if out.discarded {
        return None;
    }
    for (&(loc, c), &v) in &out.outputs {
        if out.undefined.contains(&(loc, c)) {
            continue;
        }
        let Some(o) = info.outputs.iter().position(|d| d.location == loc) else {
            return Some(format!("output {loc}.{c} written by eval is not declared"));
        };
        let mine = jit.outputs[o * 4 + c as usize].0[l];
        let float = sc.output_ty.get(&loc).is_none_or(|b| *b == Base::Float);
        let agree = if float && sc.inexact.contains(&(loc, c)) {
            precision::within_bound(mine, v)
        } else {
            same_eval(mine, v, float)
        };
        if !agree && float && sc.pow.contains(&(loc, c)) && precision::pow_domain_nan(mine, v) {
            *pow_domain += 1;
            continue;
        }
        if !agree {
            return Some(format!(
                "lane {l} output {loc}.{c}: jit {mine:#010x} ({}) eval {v:#010x} ({})",
                f32::from_bits(mine),
                f32::from_bits(v)
            ));
        }
    }
    None
}

/// A texture of the filtered configuration: a full mip chain of random texels.
struct FilteredTexture {
    target: TexTarget,
    format: Format,
    levels: Vec<(u32, u32, u32, Vec<u8>)>,
    sampler: SamplerState,
}

/// Textures for every unit the stage samples, for filtered batch `batch`: RGBA8
/// (batches 0 and 2) or RGBA16F, depth formats with a compare function for shadow
/// samplers, wraps and mip filters varying with the batch.
fn filtered_textures(sc: &Scan, rng: &mut Rng, batch: usize) -> Vec<FilteredTexture> {
    let n = sc
        .textures
        .keys()
        .next_back()
        .map_or(0, |k| *k as usize + 1)
        .min(32);
    let wraps = [
        [Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat],
        [Wrap::ClampToBorder, Wrap::Repeat, Wrap::ClampToEdge],
        [Wrap::MirroredRepeat, Wrap::MirrorClampToEdge, Wrap::Repeat],
    ][batch % 3];
    (0..n as u32)
        .map(|i| {
            let (dim, array, shadow, _) =
                sc.textures
                    .get(&i)
                    .copied()
                    .unwrap_or((SamplerDim::D2, false, false, Base::Float));
            let target = match (dim, array) {
                (SamplerDim::D1, false) => TexTarget::D1,
                (SamplerDim::D1, true) => TexTarget::D1Array,
                (SamplerDim::D3, _) => TexTarget::D3,
                (SamplerDim::Cube, _) => TexTarget::Cube,
                (SamplerDim::Rect, _) => TexTarget::Rect,
                (_, true) => TexTarget::D2Array,
                _ => TexTarget::D2,
            };
            let (w, h, d) = match target {
                TexTarget::D1 => (16u32, 1u32, 1u32),
                TexTarget::D1Array => (16, 3, 1),
                TexTarget::D3 => (8, 8, 8),
                TexTarget::Cube => (8, 8, 6),
                TexTarget::D2Array => (16, 16, 3),
                _ => (16, 16, 1),
            };
            let format = if shadow {
                [Format::Z16Unorm, Format::Z32Float, Format::Z24UnormX8][batch % 3]
            } else if batch.is_multiple_of(2) {
                Format::Rgba8Unorm
            } else {
                Format::Rgba16Float
            };
            let mips = target != TexTarget::Rect;
            let mut levels = Vec::new();
            let (mut lw, mut lh, mut ld) = (w, h, d);
            loop {
                let bytes = (lw * lh * ld) as usize * format.bytes_per_pixel();
                let data: Vec<u8> = match format {
                    Format::Rgba16Float => (0..bytes / 2)
                        .flat_map(|_| {
                            half::f16::from_f32((rng.next() % 1000) as f32 / 500.0 - 0.5)
                                .to_bits()
                                .to_le_bytes()
                        })
                        .collect(),
                    Format::Z32Float => (0..bytes / 4)
                        .flat_map(|_| ((rng.next() % 1000) as f32 / 999.0).to_le_bytes())
                        .collect(),
                    _ => (0..bytes).map(|_| rng.next() as u8).collect(),
                };
                levels.push((lw, lh, ld, data));
                if !mips || (lw == 1 && (lh == 1 || target == TexTarget::D1Array)) {
                    break;
                }
                lw = (lw / 2).max(1);
                if target != TexTarget::D1Array {
                    lh = (lh / 2).max(1);
                }
                if target == TexTarget::D3 {
                    ld = (ld / 2).max(1);
                }
            }
            let sampler = SamplerState {
                wrap: if target == TexTarget::Cube {
                    [Wrap::ClampToEdge; 3]
                } else {
                    wraps
                },
                mag: Filter::Linear,
                min: if batch == 1 {
                    Filter::Nearest
                } else {
                    Filter::Linear
                },
                mip: [MipFilter::Linear, MipFilter::Nearest, MipFilter::Linear][batch % 3],
                lod_bias: [0.0, 0.75, -0.5][batch % 3],
                border: [0.25, 0.5, 0.75, 1.0],
                compare: shadow.then_some(
                    [
                        CompareFunc::Less,
                        CompareFunc::GreaterEqual,
                        CompareFunc::LessEqual,
                    ][batch % 3],
                ),
                ..SamplerState::default()
            };
            FilteredTexture {
                target,
                format,
                levels,
                sampler,
            }
        })
        .collect()
}

fn bind_filtered(texs: &[FilteredTexture]) -> Vec<Option<TextureBinding<'_>>> {
    texs.iter()
        .map(|t| {
            Some(TextureBinding::new(
                TexView::new(t.target, t.format, &t.levels),
                t.sampler,
            ))
        })
        .collect()
}

fn run_stage(
    nir: &Shader,
    file: &Path,
    seed: u64,
    jit_compilers: &[(String, JitCompiler)],
    counts: &mut Counts,
) {
    counts.stages += 1;
    let lane = match LaneShader::new(nir) {
        Ok(s) => s,
        Err(e) => {
            counts
                .interp_unbuilt
                .push(format!("{}: {:?}: {e}", file.display(), nir.stage));
            return;
        }
    };
    let info = lane.info().clone();
    if info.stage == ShaderStage::Geometry {
        counts.geometry += 1;
        return;
    }
    let mut jits = Vec::new();
    for (name, c) in jit_compilers {
        match c.compile_native(nir, &info) {
            Ok(s) => {
                counts.jit_built += 1;
                jits.push((name.as_str(), s));
            }
            Err(e) => counts.jit_unbuilt.push(format!(
                "{}: {:?} ({name}): {e}",
                file.display(),
                info.stage
            )),
        }
    }
    if jits.is_empty() {
        return;
    }
    let Some(func) = entry(nir) else { return };
    let sc = scan(nir, func);
    let fragment = info.stage == ShaderStage::Fragment;
    let mut rng = Rng(seed | 1);
    let ctx = |cfg: &str, batch: usize, m: String| {
        format!(
            "{}: {:?} {cfg} batch {batch}: {m}",
            file.display(),
            info.stage
        )
    };
    for batch in 0..BATCHES {
        // The last batch runs with some lanes dead.
        let mask = if batch == 2 {
            (rng.next() & ALL_LANES) | 1
        } else {
            ALL_LANES
        };
        let quad_same = fragment && sc.has_derivs;
        for config in [Config::Nearest, Config::Filtered] {
            if config == Config::Filtered && !sc.has_tex {
                continue;
            }
            let (b, filt);
            let mut near = Vec::new();
            let bindings = match config {
                Config::Nearest => {
                    b = make_batch(&info, &sc, &mut rng, quad_same, None, mask);
                    near = nearest_textures(&sc, &mut rng);
                    counts.nearest_batches += 1;
                    bind_nearest(&near)
                }
                Config::Filtered => {
                    let step = [0.02f32, 0.15, 0.6][batch];
                    let same = fragment && (sc.nested_derivs || sc.discards);
                    b = make_batch(&info, &sc, &mut rng, same, (!same).then_some(step), mask);
                    filt = filtered_textures(&sc, &mut rng, batch);
                    counts.filtered_batches += 1;
                    bind_filtered(&filt)
                }
            };
            let ri = run(&lane, &b, &bindings);
            let cfg = if config == Config::Nearest {
                "nearest"
            } else {
                "filtered"
            };
            let mut last = None;
            for (jname, jit) in &jits {
                let cfg = format!("{cfg} {jname}");
                let rj = run(jit, &b, &bindings);
                if let Some(e) = ri.error.as_ref().or(rj.error.as_ref()) {
                    counts
                        .mismatches
                        .push(ctx(&cfg, batch, format!("run failed: {e}")));
                    return;
                }
                if ri.budget || rj.budget {
                    counts.budget_skips += 1;
                    if config == Config::Nearest && rj.budget {
                        // The JIT may only run out where the reference does too.
                        let mut eval_budget = false;
                        for l in 0..LANES {
                            if mask & (1 << l) != 0
                                && matches!(
                                    eval_lane(nir, &info, &sc, &b, l, &near),
                                    Err("eval budget")
                                )
                            {
                                eval_budget = true;
                                break;
                            }
                        }
                        if !eval_budget {
                            counts.mismatches.push(ctx(
                                &cfg,
                                batch,
                                "jit exceeded its budget, eval did not".into(),
                            ));
                            return;
                        }
                    }
                    continue;
                }
                if let Some(m) = compare_runs(&info, mask, &ri, &rj) {
                    counts.mismatches.push(ctx(&cfg, batch, m));
                    return;
                }
                last = Some(rj);
            }
            let Some(rj) = last else { continue };
            if config == Config::Nearest && sc.eval_tex_skip.is_none() {
                counts.eval_compared += 1;
                for l in 0..LANES {
                    if mask & (1 << l) == 0 {
                        continue;
                    }
                    counts.lanes += 1;
                    match eval_lane(nir, &info, &sc, &b, l, &near) {
                        Ok(out) => {
                            if let Some(m) =
                                compare_eval(&out, &info, &sc, &rj, l, &mut counts.pow_domain)
                            {
                                counts.mismatches.push(ctx(cfg, batch, m));
                                return;
                            }
                        }
                        Err(why) => *counts.skipped_lanes.entry(why).or_default() += 1,
                    }
                }
            }
        }
    }
}

#[test]
fn jit_matches_the_interpreter_and_the_reference() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut all = Vec::new();
    for sub in ["piglit", "piglit-geometry", "shader-db"] {
        files(&corpus.join(sub), &mut all);
    }
    if all.is_empty() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "jit_diff: no corpus at {} (CI=true: the corpus must be there)",
            corpus.display()
        );
        eprintln!(
            "jit_diff: no corpus at {}: nothing compared",
            corpus.display()
        );
        return;
    }
    if !rgl_backend::jit::host_supported() {
        eprintln!("jit_diff: the JIT does not run on this host: nothing compared");
        return;
    }
    // The default options (adaptive quads per iteration) and every fixed quad
    // count the emitter supports.
    let mut jits = vec![(
        "default".to_string(),
        JitCompiler::new().expect("JIT on a supported host"),
    )];
    for quads in [1, 2, 4] {
        let opts = JitOptions {
            quads,
            adaptive_quads: false,
            ..JitOptions::default()
        };
        jits.push((
            format!("quads={quads}"),
            JitCompiler::with_options(opts).expect("JIT on a supported host"),
        ));
    }
    let bindings = Bindings {
        attribs: vec![("piglit_vertex".into(), 0), ("piglit_texcoord".into(), 1)],
        frag_data: Vec::new(),
    };
    let mut counts = Counts::default();
    let mut panics = Vec::new();
    let mut unlinked = Vec::new();
    for (fi, f) in all.iter().enumerate() {
        counts.files += 1;
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let src = match test_program::from_text(&text, f) {
            Ok(src) if src.is_empty() => continue,
            Ok(src) => src,
            Err(_) => {
                unlinked.push(f.clone());
                continue;
            }
        };
        let r = catch_unwind(AssertUnwindSafe(|| {
            let compiled = test_program::compile_all(&src);
            if compiled.iter().any(|c| !c.success()) {
                return None;
            }
            let refs: Vec<_> = compiled.iter().collect();
            build_program(&refs, &bindings, PipelineOptions::default()).ok()
        }));
        let linked = match r {
            Ok(Some(l)) => l,
            Ok(None) | Err(_) => {
                unlinked.push(f.clone());
                continue;
            }
        };
        counts.programs += 1;
        for (si, st) in linked.stages.iter().enumerate() {
            let Some(mut nir) = st.nir.clone() else {
                continue;
            };
            let finalized = finalize_variant(
                &mut nir,
                &VariantLowering::default(),
                &rgl_nir::options::CompilerOptions::default(),
                &mut Runner::new(),
            );
            if finalized.is_err() {
                counts
                    .interp_unbuilt
                    .push(format!("{}: stage {si}: finalize failed", f.display()));
                continue;
            }
            let seed = 0x9e37_79b9_7f4a_7c15u64 ^ ((fi as u64) << 8) ^ si as u64;
            let r = catch_unwind(AssertUnwindSafe(|| {
                run_stage(&nir, f, seed, &jits, &mut counts)
            }));
            if r.is_err() {
                panics.push(format!("{}: stage {si} panicked", f.display()));
            }
        }
    }
    println!(
        "jit_diff: {} files, {} programs linked ({} did not compile or link), {} stages: {} geometry (interpreter only), {} JIT builds ({} configurations); {} nearest and {} filtered batches compared with the interpreter, {} with eval ({} lanes), {} batches over budget",
        counts.files,
        counts.programs,
        unlinked.len(),
        counts.stages,
        counts.geometry,
        counts.jit_built,
        jits.len(),
        counts.nearest_batches,
        counts.filtered_batches,
        counts.eval_compared,
        counts.lanes,
        counts.budget_skips,
    );
    println!(
        "  stages the interpreter could not build: {}",
        counts.interp_unbuilt.len()
    );
    for m in &counts.interp_unbuilt {
        println!("    {m}");
    }
    println!(
        "  stages the JIT could not build: {}",
        counts.jit_unbuilt.len()
    );
    for m in &counts.jit_unbuilt {
        println!("    {m}");
    }
    println!(
        "  eval outputs skipped {:5}: pow outside its GLSL domain (NaN here, a number in eval)",
        counts.pow_domain
    );
    for (k, v) in &counts.skipped_lanes {
        println!("  eval lanes skipped {v:5}: {k}");
    }
    for m in counts.mismatches.iter().take(60) {
        println!("MISMATCH {m}");
    }
    for p in &panics {
        println!("PANIC {p}");
    }
    assert!(
        counts.mismatches.is_empty() && panics.is_empty(),
        "{} mismatches, {} panics",
        counts.mismatches.len(),
        panics.len()
    );
}
