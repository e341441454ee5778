//! Translation validation of the lane compiler against the reference interpreter:
//! every `.shader_test` of `../shared/corpus/{piglit,piglit-geometry,shader-db}` is
//! compiled and linked through the NIR pipeline (`rgl_link::pipeline::build_program`,
//! `piglit_vertex` at attribute 0 and `piglit_texcoord` at 1, as the conformance
//! runner binds them), each stage finalized with a default variant and compiled by
//! [`LaneShader`]; it then runs on deterministic pseudo-random batches of 16 lanes
//! (inputs, uniforms, uniform blocks and system values typed by the loads that read
//! them), and `rgl_nir::eval::evaluate` runs on each lane's inputs. Outputs (or the
//! emitted vertices of geometry shaders, and discards) must agree: integers bit for
//! bit, floats within 2 ulps (±0 and NaNs equal), except float outputs that depend
//! on an op GLSL lets an implementation approximate (the lane compiler uses f32
//! and `rgl_backend::fastmath`, eval f64): those within the bound of
//! `common::precision` (a NaN from `pow` outside its GLSL domain is counted and
//! skipped). Lanes the interpreter reports as
//! undefined (undefined outputs, control flow on undefined values, out-of-bounds
//! accesses) or over its budget are skipped. Textures: both sides get the same 4×4
//! (×4) texels with nearest, level-0, repeat sampling (the interpreter's model);
//! stages with array, cube or shadow lookups, projectors or other ops are compiled
//! but not compared (their models differ). Fragment
//! stages using derivatives get the same inputs on the four lanes of each quad, so
//! their derivatives are 0 as in the interpreter.
//!
//! The test prints the counts (stages compiled, compared, unsupported by reason,
//! skipped lanes) and fails on any mismatch or panic.

mod common;

use common::corpus::{
    bind_nearest, entry, files, nearest_textures, put_system_values, scan, Rng, Scan,
};
use common::precision;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use rgl_backend::driver::ShaderStage;
use rgl_backend::exec::{Budget, GsSink, Invocation, Reg, Resources, ShaderExec, SysVals, LANES};
use rgl_backend::lanes::LaneShader;
use rgl_backend::Error;
use rgl_conformance::shader_test::link_only::NotRunnable;
use rgl_conformance::shader_test::program;
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::Bindings;
use rgl_nir::eval::{evaluate, EvalErrorKind, EvalInput, InputKey};
use rgl_nir::finalize::{finalize_variant, VariantLowering};
use rgl_nir::ir::Shader;
use rgl_nir::opcodes::Base;
use rgl_nir::passes::Runner;

const BATCHES: usize = 3;
const EVAL_BUDGET: u64 = 200_000;

#[derive(Default)]
struct Counts {
    files: usize,
    programs: usize,
    stages: usize,
    compiled: usize,
    compared: usize,
    tex_compared: usize,
    lanes: usize,
    skipped_lanes: BTreeMap<&'static str, usize>,
    /// Output comparisons skipped: NaN from `pow` outside its GLSL domain.
    pow_domain: usize,
    skipped_stages: BTreeMap<String, usize>,
    unsupported: BTreeMap<String, usize>,
    mismatches: Vec<String>,
    /// Programs of the corpus that were not compared, with the reason (most fail to
    /// compile or link on purpose: piglit's negative tests).
    dropped: Vec<String>,
}

#[derive(Default)]
struct Sink {
    /// Per lane: (primitive index, outputs snapshot).
    verts: Vec<Vec<(u32, Vec<u32>)>>,
    prims: Vec<u32>,
}

impl GsSink for Sink {
    fn emit_vertex(&mut self, mask: u32, outputs: &[Reg]) {
        for l in 0..LANES {
            if mask & (1 << l) != 0 {
                let snap = outputs.iter().map(|r| r.0[l]).collect();
                self.verts[l].push((self.prims[l], snap));
            }
        }
    }
    fn end_primitive(&mut self, mask: u32) {
        for l in 0..LANES {
            if mask & (1 << l) != 0 {
                self.prims[l] += 1;
            }
        }
    }
}

fn same(a: u32, b: u32, float: bool) -> bool {
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

/// Outputs of one eval run vs the lane outputs of lane `l`.
fn compare_outputs(
    eval: &BTreeMap<(i32, u8), u32>,
    undefined: &BTreeSet<(i32, u8)>,
    info: &rgl_backend::ShaderInfo,
    sc: &Scan,
    get: impl Fn(usize) -> u32,
    pow_domain: &mut usize,
) -> Option<String> {
    for (&(loc, c), &v) in eval {
        if undefined.contains(&(loc, c)) {
            continue;
        }
        let Some(o) = info.outputs.iter().position(|d| d.location == loc) else {
            return Some(format!("output {loc}.{c} written by eval is not declared"));
        };
        let mine = get(o * 4 + c as usize);
        let float = sc.output_ty.get(&loc).is_none_or(|b| *b == Base::Float);
        let agree = if float && sc.inexact.contains(&(loc, c)) {
            precision::within_bound(mine, v)
        } else {
            same(mine, v, float)
        };
        if !agree && float && sc.pow.contains(&(loc, c)) && precision::pow_domain_nan(mine, v) {
            *pow_domain += 1;
            continue;
        }
        if !agree {
            return Some(format!(
                "output {loc}.{c}: lanes {mine:#010x} ({}) eval {v:#010x} ({})",
                f32::from_bits(mine),
                f32::from_bits(v)
            ));
        }
    }
    None
}

fn run_stage(nir: &Shader, file: &Path, seed: u64, counts: &mut Counts) {
    counts.stages += 1;
    let shader = match LaneShader::new(nir) {
        Ok(s) => s,
        Err(Error::Unsupported(m)) => {
            // Group reasons by their text without numbers.
            let key: String = m.chars().filter(|c| !c.is_ascii_digit()).collect();
            *counts.unsupported.entry(key).or_default() += 1;
            return;
        }
        Err(e) => {
            *counts.unsupported.entry(format!("{e}")).or_default() += 1;
            return;
        }
    };
    counts.compiled += 1;
    let Some(func) = entry(nir) else { return };
    let sc = scan(nir, func);
    if let Some(why) = sc.eval_tex_skip {
        *counts.skipped_stages.entry(why.into()).or_default() += 1;
        return;
    }
    if sc.has_tex {
        counts.tex_compared += 1;
    }
    let info = shader.info().clone();
    let stage = info.stage;
    let nv = info.gs.map_or(1, |g| g.vertices_in as usize);
    let mut rng = Rng(seed | 1);
    let mut scratch = Vec::new();
    counts.compared += 1;
    for batch in 0..BATCHES {
        // Resources shared by the batch.
        let uniforms: Vec<[u32; 4]> = (0..sc.uniform_slots.min(4096) + 4)
            .map(|s| {
                let t = sc.uniform_ty.get(&s).copied();
                [0; 4].map(|_| rng.word(t))
            })
            .collect();
        let ubos: Vec<Vec<u8>> = (0..sc.ubo_blocks)
            .map(|_| (0..64).flat_map(|_| rng.word(None).to_le_bytes()).collect())
            .collect();
        let ubo_refs: Vec<&[u8]> = ubos.iter().map(|v| v.as_slice()).collect();
        let texs = nearest_textures(&sc, &mut rng);
        let bindings = bind_nearest(&texs);
        // Per-lane inputs.
        let per_vertex = info.inputs.len() * 4;
        let mut inputs = vec![Reg::default(); nv * per_vertex];
        let mut sys = SysVals::default();
        let quad_same = stage == ShaderStage::Fragment && sc.has_derivs;
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
            for v in 0..nv {
                for (i, d) in info.inputs.iter().enumerate() {
                    let eloc = if stage == ShaderStage::Vertex {
                        sc.vs_loc.get(&d.location).copied().unwrap_or(d.location)
                    } else {
                        d.location
                    };
                    let t = sc.input_ty.get(&eloc).copied();
                    for c in 0..4 {
                        inputs[v * per_vertex + i * 4 + c].0[l] = rng.word(t);
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
        let mut outputs = vec![Reg::default(); info.outputs.len() * 4];
        let mut budget = Budget::new(EVAL_BUDGET * 16 * 8);
        let mut sink = Sink {
            verts: vec![Vec::new(); LANES],
            prims: vec![0; LANES],
        };
        let mut inv = Invocation {
            inputs: &inputs,
            outputs: &mut outputs,
            sys: &sys,
            mask: rgl_backend::exec::ALL_LANES,
            kill: 0,
            res: Resources {
                uniforms: &uniforms,
                ubos: &ubo_refs,
                textures: &bindings,
                storage: &[],
                images: &[],
            },
            budget: &mut budget,
            scratch: &mut scratch,
            gs: if stage == ShaderStage::Geometry {
                Some(&mut sink)
            } else {
                None
            },
        };
        let result = shader.run(&mut inv);
        let kill = inv.kill;
        let lanes_budget = matches!(result, Err(Error::BudgetExceeded(_)));
        if let Err(e) = &result {
            if !lanes_budget {
                counts.mismatches.push(format!(
                    "{}: {:?} batch {batch}: run failed: {e}",
                    file.display(),
                    stage
                ));
                return;
            }
        }
        let mut any_eval_budget = false;
        for l in 0..LANES {
            counts.lanes += 1;
            let mut ein = EvalInput {
                uniforms: uniforms.clone(),
                ubos: ubos.clone(),
                max_instructions: EVAL_BUDGET,
                textures: texs.iter().map(|t| t.eval.clone()).collect(),
                ..EvalInput::default()
            };
            for v in 0..nv {
                for (i, d) in info.inputs.iter().enumerate() {
                    let eloc = if stage == ShaderStage::Vertex {
                        sc.vs_loc.get(&d.location).copied().unwrap_or(d.location)
                    } else {
                        d.location
                    };
                    for c in 0..4u8 {
                        ein.inputs.insert(
                            InputKey {
                                vertex: if stage == ShaderStage::Geometry {
                                    v as u32
                                } else {
                                    0
                                },
                                location: eloc,
                                component: c,
                            },
                            inputs[v * per_vertex + i * 4 + c as usize].0[l],
                        );
                    }
                }
            }
            put_system_values(&mut ein, stage == ShaderStage::Fragment, &sys, l);
            let out = match evaluate(nir, &ein) {
                Ok(o) => o,
                Err(e) if e.kind == EvalErrorKind::BudgetExceeded => {
                    any_eval_budget = true;
                    *counts.skipped_lanes.entry("eval budget").or_default() += 1;
                    continue;
                }
                Err(e) => {
                    *counts.skipped_lanes.entry("eval error").or_default() += 1;
                    let key = format!("eval: {:?}", e.kind);
                    *counts.skipped_stages.entry(key).or_default() += 1;
                    continue;
                }
            };
            if lanes_budget {
                continue;
            }
            if out.undefined_control > 0 || out.out_of_bounds > 0 {
                *counts.skipped_lanes.entry("undefined").or_default() += 1;
                continue;
            }
            let ctx = |m: String| {
                format!(
                    "{}: {:?} batch {batch} lane {l}: {m}",
                    file.display(),
                    stage
                )
            };
            if stage == ShaderStage::Fragment && out.discarded != (kill >> l & 1 != 0) {
                counts.mismatches.push(ctx(format!(
                    "discard: lanes {} eval {}",
                    kill >> l & 1 != 0,
                    out.discarded
                )));
                return;
            }
            if out.discarded {
                continue;
            }
            if stage == ShaderStage::Geometry {
                let mine = &sink.verts[l];
                if mine.len() != out.emitted.len() {
                    counts.mismatches.push(ctx(format!(
                        "emitted {} vertices, eval {}",
                        mine.len(),
                        out.emitted.len()
                    )));
                    return;
                }
                for (k, (ev, (prim, snap))) in out.emitted.iter().zip(mine).enumerate() {
                    if ev.primitive != *prim {
                        counts.mismatches.push(ctx(format!(
                            "vertex {k}: primitive {prim}, eval {}",
                            ev.primitive
                        )));
                        return;
                    }
                    if let Some(m) = compare_outputs(
                        &ev.outputs,
                        &ev.undefined,
                        &info,
                        &sc,
                        |w| snap.get(w).copied().unwrap_or(0),
                        &mut counts.pow_domain,
                    ) {
                        counts.mismatches.push(ctx(format!("vertex {k}: {m}")));
                        return;
                    }
                }
            } else if let Some(m) = compare_outputs(
                &out.outputs,
                &out.undefined,
                &info,
                &sc,
                |w| outputs.get(w).map_or(0, |r| r.0[l]),
                &mut counts.pow_domain,
            ) {
                counts.mismatches.push(ctx(m));
                return;
            }
        }
        if lanes_budget && !any_eval_budget {
            counts.mismatches.push(format!(
                "{}: {:?} batch {batch}: lane program exceeded its budget, eval did not",
                file.display(),
                stage
            ));
            return;
        }
    }
}

#[test]
fn lanes_match_the_reference_interpreter() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut all = Vec::new();
    for sub in ["piglit", "piglit-geometry", "shader-db"] {
        files(&corpus.join(sub), &mut all);
    }
    if all.is_empty() {
        // Under CI a missing corpus is a failure, never a vacuous pass.
        assert!(
            std::env::var_os("CI").is_none(),
            "lanes_eval: no corpus at {} (CI=true needs it)",
            corpus.display()
        );
        eprintln!(
            "lanes_eval: no corpus at {}; nothing compared",
            corpus.display()
        );
        return;
    }
    let bindings = Bindings {
        attribs: vec![("piglit_vertex".into(), 0), ("piglit_texcoord".into(), 1)],
        frag_data: Vec::new(),
    };
    let mut counts = Counts::default();
    let mut panics = Vec::new();
    for (fi, f) in all.iter().enumerate() {
        counts.files += 1;
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let rel = f.strip_prefix(&corpus).unwrap_or(f).display().to_string();
        let src = match program::from_text(&text, f) {
            Ok(src) if src.is_empty() => continue,
            Ok(src) => src,
            Err(NotRunnable::Skip(why) | NotRunnable::Error(why)) => {
                counts.dropped.push(format!("{rel}: {why}"));
                continue;
            }
        };
        let r = catch_unwind(AssertUnwindSafe(|| {
            let compiled = program::compile_all(&src);
            if compiled.iter().any(|c| !c.success()) {
                return Err("does not compile".to_string());
            }
            let refs: Vec<_> = compiled.iter().collect();
            build_program(&refs, &bindings, PipelineOptions::default()).map_err(|e| {
                format!(
                    "does not link: {}",
                    e.to_string().lines().next().unwrap_or("")
                )
            })
        }));
        let linked = match r {
            Ok(Ok(l)) => l,
            Ok(Err(why)) => {
                counts.dropped.push(format!("{rel}: {why}"));
                continue;
            }
            Err(_) => {
                panics.push(format!("{rel}: compile or link panicked"));
                continue;
            }
        };
        counts.programs += 1;
        for (si, st) in linked.stages.iter().enumerate() {
            let Some(mut nir) = st.nir.clone() else {
                continue;
            };
            if let Err(e) = finalize_variant(
                &mut nir,
                &VariantLowering::default(),
                &rgl_nir::options::CompilerOptions::default(),
                &mut Runner::new(),
            ) {
                counts
                    .dropped
                    .push(format!("{rel}: stage {si} does not finalize: {e}"));
                continue;
            }
            let seed = 0x9e37_79b9_7f4a_7c15u64 ^ ((fi as u64) << 8) ^ si as u64;
            let r = catch_unwind(AssertUnwindSafe(|| run_stage(&nir, f, seed, &mut counts)));
            if r.is_err() {
                panics.push(format!("{}: stage {si} panicked", f.display()));
            }
        }
    }
    println!(
        "lanes_eval: {} files, {} programs linked, {} stages, {} compiled, {} compared ({} with textures, {} lanes)",
        counts.files,
        counts.programs,
        counts.stages,
        counts.compiled,
        counts.compared,
        counts.tex_compared,
        counts.lanes
    );
    println!(
        "lanes_eval: {} programs or stages not compared (listed below)",
        counts.dropped.len()
    );
    for d in &counts.dropped {
        println!("  not built: {d}");
    }
    for (k, v) in &counts.unsupported {
        println!("  unsupported {v:4}: {k}");
    }
    for (k, v) in &counts.skipped_stages {
        println!("  not compared {v:4}: {k}");
    }
    println!(
        "  skipped outputs {:4}: pow outside its GLSL domain (NaN here, a number in eval)",
        counts.pow_domain
    );
    for (k, v) in &counts.skipped_lanes {
        println!("  skipped lanes {v:4}: {k}");
    }
    for m in counts.mismatches.iter().take(40) {
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
