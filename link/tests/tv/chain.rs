//! Evaluation side of translation validation: seeded random program inputs, running
//! a program's stages as a chain (vertex → geometry → fragment) with the interpreter,
//! and comparing two chains' results.
//!
//! A program is evaluated end to end rather than stage by stage because link-time
//! passes legitimately change a stage's interface (dead varyings removed, constant
//! varyings propagated into the consumer, varyings compacted to other locations):
//! only what leaves the pipeline must stay the same. So the chain feeds each stage's
//! outputs to the next stage's inputs and compares:
//! * fragment outputs (all components the original shader writes) and the discard
//!   flag (when both runs discard, outputs are not compared);
//! * the fixed-function outputs of the vertex / geometry stage (`POS`, `PSIZ`,
//!   `CLIP_VERTEX`, `CLIP_DIST0/1`, `LAYER`, `VIEWPORT`) of every vertex;
//! * the emitted-vertex list of a geometry shader (count, streams, primitives).
//!
//! Comparison: integers and booleans bit-exact; floats bit-exact (any NaN equals any
//! NaN) unless a pass listed in `opt_loop::INEXACT_PASSES` made progress on the
//! program, in which case ([`float_eq`]) they are equal when both are NaN, or within
//! [`MAX_ULPS`] ULPs, or within a relative error of [`REL_TOL`] — the bound for
//! inexact algebraic rewrites (reassociation, `ffma` fusion, `flrp` expansion) — or
//! within an absolute [`ABS_TOL`] of each other when both are tiny (cancellation
//! after such a rewrite).

use std::collections::{BTreeMap, BTreeSet};

use rgl_glsl::types::{ScalarKind, Type as GlslType};
use rgl_glsl::Stage as GlslStage;
use rgl_link::LinkedProgram;
use rgl_nir::eval::{evaluate, io_components, EvalError, EvalInput, EvalOutput, InputKey, Outputs};
use rgl_nir::ir::names::{self, LocKind};
use rgl_nir::ir::{BaseType, Shader, VarMode};

/// Largest ULP distance accepted between two floats.
pub const MAX_ULPS: u32 = 4;
/// Largest relative error accepted between two floats.
pub const REL_TOL: f64 = 1e-5;
/// Largest absolute difference accepted when both values are below 1e-3 in magnitude.
pub const ABS_TOL: f64 = 1e-6;

/// xorshift64* PRNG.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    /// Next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// A float worth computing with: mostly uniform in [-4, 4] on a 1/64 grid-free
    /// spread, sometimes a special value.
    pub fn float(&mut self) -> f32 {
        const SPECIAL: [f32; 8] = [0.0, 1.0, -1.0, 0.5, 2.0, 0.25, 3.0, -0.5];
        if self.below(8) == 0 {
            SPECIAL[self.below(8) as usize]
        } else {
            (self.below(1 << 24) as f64 / f64::from(1u32 << 24) * 8.0 - 4.0) as f32
        }
    }
    /// A word of scalar type `base`.
    pub fn word(&mut self, base: BaseType) -> u32 {
        match base {
            BaseType::Float => self.float().to_bits(),
            // Mostly small non-negative values, so uniforms used as array indices stay
            // in bounds often enough to exercise indirect indexing.
            BaseType::Int if self.below(4) != 0 => self.below(4) as u32,
            BaseType::Int => (self.below(17) as i32 - 8) as u32,
            BaseType::Uint if self.below(4) != 0 => self.below(4) as u32,
            BaseType::Uint => self.below(17) as u32,
            BaseType::Bool => self.below(2) as u32,
        }
    }
}

fn base_of(kind: ScalarKind) -> BaseType {
    match kind {
        ScalarKind::Float => BaseType::Float,
        ScalarKind::Int => BaseType::Int,
        ScalarKind::Uint => BaseType::Uint,
        ScalarKind::Bool => BaseType::Bool,
    }
}

/// (columns, rows, base) of a leaf uniform type; `None` for samplers and aggregates.
fn leaf_shape(ty: &GlslType) -> Option<(u32, u32, BaseType)> {
    match ty {
        GlslType::Scalar(k) => Some((1, 1, base_of(*k))),
        GlslType::Vector(k, n) => Some((1, u32::from(*n), base_of(*k))),
        GlslType::Matrix { columns, rows } => {
            Some((u32::from(*columns), u32::from(*rows), BaseType::Float))
        }
        _ => None,
    }
}

/// Everything random about one evaluation of a program.
pub struct Seeded {
    /// Uniforms, UBOs and system values shared by every stage.
    pub common: EvalInput,
    /// Vertex attributes per vertex (vertex index = position in the vector).
    pub attribs: Vec<BTreeMap<InputKey, u32>>,
    /// Inputs of a first stage that is not a vertex shader, per vertex.
    pub first_inputs: BTreeMap<InputKey, u32>,
}

/// Most vertices a geometry shader input primitive has (lines/triangles with
/// adjacency have 4 / 6).
const MAX_PRIM_VERTICES: u32 = 6;

/// Vertex count of the geometry stage's input primitive (from the length of its
/// per-vertex input arrays; 3 when it has none).
pub fn gs_vertices(gs: &Shader) -> u32 {
    gs.globals
        .iter()
        .filter_map(|v| gs.variables.get(*v))
        .filter(|v| v.mode == VarMode::ShaderIn)
        .find_map(|v| match &v.ty {
            rgl_nir::ir::Type::Array(_, n) if *n > 0 => Some(*n),
            _ => None,
        })
        .unwrap_or(3)
        .min(MAX_PRIM_VERTICES)
}

fn random_inputs(
    shader: &Shader,
    rng: &mut Rng,
    vertex_override: Option<u32>,
) -> BTreeMap<InputKey, u32> {
    let mut out = BTreeMap::new();
    for &v in &shader.globals {
        for c in io_components(shader, v) {
            if shader.variables.get(v).map(|x| x.mode) != Some(VarMode::ShaderIn) {
                continue;
            }
            let key = InputKey {
                vertex: vertex_override.unwrap_or(c.vertex),
                location: c.location,
                component: c.component,
            };
            out.insert(key, rng.word(c.base));
        }
    }
    out
}

/// Builds the random inputs of seed `seed` for `program`, whose original
/// (`glsl_to_nir`) shaders are `before`.
pub fn seeded(program: &LinkedProgram, before: &[Shader], seed: u64) -> Seeded {
    let mut rng = Rng::new(seed);
    let mut common = EvalInput::default();
    // Default-block uniforms: random floats, then typed values per active uniform.
    let slots = program.uniform_slots as usize + 1;
    common.uniforms = (0..slots)
        .map(|_| {
            [
                rng.float().to_bits(),
                rng.float().to_bits(),
                rng.float().to_bits(),
                rng.float().to_bits(),
            ]
        })
        .collect();
    for u in program.uniforms.iter().filter(|u| u.block.is_none()) {
        let Some((cols, rows, base)) = leaf_shape(&u.ty) else {
            continue;
        };
        for e in 0..u.array_size.min(4096) {
            for c in 0..cols {
                let slot = (u.slot + e * cols + c) as usize;
                if common.uniforms.len() <= slot {
                    common.uniforms.resize(slot + 1, [0; 4]);
                }
                for r in 0..rows.min(4) {
                    common.uniforms[slot][r as usize] = rng.word(base);
                }
            }
        }
    }
    // Uniform blocks: random float words, then typed members.
    for (b, block) in program.uniform_blocks.iter().enumerate() {
        let size = (block.data_size as usize).clamp(16, 1 << 16);
        let mut bytes: Vec<u8> = (0..size / 4)
            .flat_map(|_| rng.float().to_bits().to_le_bytes())
            .collect();
        for u in program
            .uniforms
            .iter()
            .filter(|u| u.block == Some(b as u32))
        {
            let Some((cols, rows, base)) = leaf_shape(&u.ty) else {
                continue;
            };
            for e in 0..u.array_size.min(4096) {
                for c in 0..cols {
                    for r in 0..rows {
                        let (major, minor) = if u.row_major { (r, c) } else { (c, r) };
                        let off = i64::from(u.offset)
                            + i64::from(e) * i64::from(u.array_stride.max(0))
                            + i64::from(major) * i64::from(u.matrix_stride.max(0))
                            + i64::from(minor) * 4;
                        let Ok(off) = usize::try_from(off) else {
                            continue;
                        };
                        if off + 4 <= bytes.len() {
                            bytes[off..off + 4].copy_from_slice(&rng.word(base).to_le_bytes());
                        }
                    }
                }
            }
        }
        if common.ubos.len() <= b {
            common.ubos.resize(b + 1, Vec::new());
        }
        common.ubos[b] = bytes;
    }
    // System values.
    let sv = |name: &str| {
        names::SYSTEM_VALUES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap_or(-1)
    };
    let f = |x: f32| x.to_bits();
    let front = rng.below(2) as u32;
    let frag = [
        f(rng.below(256) as f32 + 0.5),
        f(rng.below(256) as f32 + 0.5),
        f(rng.below(1024) as f32 / 1024.0),
        f(1.0),
    ];
    let pntc = [
        f(rng.below(64) as f32 / 64.0),
        f(rng.below(64) as f32 / 64.0),
        0,
        0,
    ];
    let prim = rng.below(16) as u32;
    let inst = rng.below(4) as u32;
    for (name, v) in [
        ("SYSTEM_VALUE_FRONT_FACE", [front, 0, 0, 0]),
        ("SYSTEM_VALUE_FRAG_COORD", frag),
        ("SYSTEM_VALUE_POINT_COORD", pntc),
        ("SYSTEM_VALUE_INSTANCE_ID", [inst, 0, 0, 0]),
        ("SYSTEM_VALUE_PRIMITIVE_ID", [prim, 0, 0, 0]),
        ("SYSTEM_VALUE_SAMPLE_POS", [f(0.5), f(0.5), 0, 0]),
        ("SYSTEM_VALUE_SAMPLE_MASK_IN", [1, 0, 0, 0]),
    ] {
        common.system_values.insert(sv(name), v);
    }
    // Per-vertex attributes, from the original vertex shader's inputs.
    let mut attribs = Vec::new();
    let mut first_inputs = BTreeMap::new();
    let stages: Vec<GlslStage> = program.stages.iter().map(|s| s.stage).collect();
    let vertices = stages
        .iter()
        .position(|s| *s == GlslStage::Geometry)
        .and_then(|i| before.get(i))
        .map(gs_vertices)
        .unwrap_or(1);
    match (stages.first(), before.first()) {
        (Some(GlslStage::Vertex), Some(vs)) => {
            for _ in 0..vertices {
                attribs.push(random_inputs(vs, &mut rng, Some(0)));
            }
        }
        (Some(_), Some(first)) => first_inputs = random_inputs(first, &mut rng, None),
        _ => {}
    }
    Seeded {
        common,
        attribs,
        first_inputs,
    }
}

/// Results of one chain run.
#[derive(Clone, Debug, Default)]
pub struct ChainRun {
    /// Vertex shader outputs per vertex.
    pub vs: Vec<EvalOutput>,
    /// Geometry shader output.
    pub gs: Option<EvalOutput>,
    /// Fragment shader output.
    pub fs: Option<EvalOutput>,
}

impl ChainRun {
    /// True when the run's behaviour is undefined: control flow or addressing that
    /// depends on an undefined value, or a write out of bounds, in any stage.
    pub fn undefined_behaviour(&self) -> bool {
        self.vs
            .iter()
            .chain(&self.gs)
            .chain(&self.fs)
            .any(|o| o.undefined_control > 0 || o.out_of_bounds_writes > 0)
    }
}

fn sysval(input: &EvalInput, name: &str) -> [u32; 4] {
    names::SYSTEM_VALUES
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, v)| input.system_values.get(v))
        .copied()
        .unwrap_or([0; 4])
}

/// Fragment inputs that come from fixed function, not from the previous stage.
const FS_FIXED_INPUTS: &[i32] = &[0, 21, 24, 25];

/// Inputs of a fragment shader fed by `outputs` of the previous stage: every
/// component carries over, and the fixed-function inputs (`POS` = `gl_FragCoord`,
/// `FACE`, `PNTC`, `PRIMITIVE_ID`) are the system values of the seed.
fn fs_inputs(common: &EvalInput, outputs: &Outputs) -> BTreeMap<InputKey, u32> {
    let mut m: BTreeMap<InputKey, u32> = outputs
        .iter()
        .map(|((l, c), v)| {
            (
                InputKey {
                    vertex: 0,
                    location: *l,
                    component: *c,
                },
                *v,
            )
        })
        .collect();
    let mut put = |loc: i32, vals: [u32; 4]| {
        for (c, v) in vals.iter().enumerate() {
            m.insert(
                InputKey {
                    vertex: 0,
                    location: loc,
                    component: c as u8,
                },
                *v,
            );
        }
    };
    put(0, sysval(common, "SYSTEM_VALUE_FRAG_COORD"));
    put(24, sysval(common, "SYSTEM_VALUE_FRONT_FACE"));
    put(25, sysval(common, "SYSTEM_VALUE_POINT_COORD"));
    put(21, sysval(common, "SYSTEM_VALUE_PRIMITIVE_ID"));
    m
}

/// Runs the stages `shaders` (in `program.stages` order) as a chain on `seed`.
/// `Err` carries the index of the stage that failed to evaluate.
pub fn run_chain(
    program: &LinkedProgram,
    shaders: &[&Shader],
    seed: &Seeded,
) -> Result<ChainRun, (usize, EvalError)> {
    let mut run = ChainRun::default();
    // Outputs of the previous stage per vertex, with their undefined components.
    type StageOutputs = Vec<(Outputs, BTreeSet<(i32, u8)>)>;
    let mut prev: Option<StageOutputs> = None;
    let key = |v: usize, l: i32, c: u8| InputKey {
        vertex: v as u32,
        location: l,
        component: c,
    };
    for (i, st) in program.stages.iter().enumerate() {
        let Some(shader) = shaders.get(i) else { break };
        let mut input = seed.common.clone();
        match st.stage {
            GlslStage::Vertex => {
                let mut outs = Vec::new();
                for (v, attribs) in seed.attribs.iter().enumerate() {
                    input.inputs = attribs.clone();
                    let id = [v as u32 + 2, 0, 0, 0];
                    for name in ["SYSTEM_VALUE_VERTEX_ID", "SYSTEM_VALUE_VERTEX_ID_ZERO_BASE"] {
                        if let Some((_, n)) = names::SYSTEM_VALUES.iter().find(|(x, _)| *x == name)
                        {
                            input.system_values.insert(*n, id);
                        }
                    }
                    let out = evaluate(shader, &input).map_err(|e| (i, e))?;
                    outs.push((out.outputs.clone(), out.undefined.clone()));
                    run.vs.push(out);
                }
                prev = Some(outs);
            }
            GlslStage::Geometry => {
                match &prev {
                    Some(outs) => {
                        input.inputs.clear();
                        input.missing_inputs_undefined = true;
                        for (v, (o, u)) in outs.iter().enumerate() {
                            for ((l, c), w) in o {
                                input.inputs.insert(key(v, *l, *c), *w);
                            }
                            for (l, c) in u {
                                input.undefined_inputs.insert(key(v, *l, *c));
                            }
                        }
                    }
                    None => input.inputs = seed.first_inputs.clone(),
                }
                let out = evaluate(shader, &input).map_err(|e| (i, e))?;
                prev = Some(
                    out.emitted
                        .first()
                        .map(|v| vec![(v.outputs.clone(), v.undefined.clone())])
                        .unwrap_or_default(),
                );
                run.gs = Some(out);
            }
            GlslStage::Fragment => {
                input.inputs = match prev.as_ref().map(|p| p.first()) {
                    Some(Some((o, u))) => {
                        input.missing_inputs_undefined = true;
                        input.undefined_inputs = u
                            .iter()
                            .filter(|(l, _)| !FS_FIXED_INPUTS.contains(l))
                            .map(|(l, c)| key(0, *l, *c))
                            .collect();
                        fs_inputs(&seed.common, o)
                    }
                    // The geometry shader emitted nothing: no fragment.
                    Some(None) => break,
                    None => {
                        let mut m = seed.first_inputs.clone();
                        m.extend(fs_inputs(&seed.common, &Outputs::new()));
                        m
                    }
                };
                run.fs = Some(evaluate(shader, &input).map_err(|e| (i, e))?);
            }
            // Compute programs are not chained: they are linked alone and
            // glsl_to_nir rejects them until the NIR backend has the stage.
            GlslStage::Compute => break,
        }
    }
    Ok(run)
}

/// Floats equal within the stated bound (see the module docs).
pub fn float_eq(a: u32, b: u32) -> bool {
    if a == b {
        return true;
    }
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    if x.is_nan() || y.is_nan() {
        return x.is_nan() && y.is_nan();
    }
    if x.is_infinite() || y.is_infinite() {
        return x == y;
    }
    if x.is_sign_negative() == y.is_sign_negative() && a.abs_diff(b) <= MAX_ULPS {
        return true;
    }
    let (x, y) = (f64::from(x), f64::from(y));
    let m = x.abs().max(y.abs());
    (x - y).abs() <= REL_TOL * m || (m < 1e-3 && (x - y).abs() <= ABS_TOL)
}

/// Scalar type of each output component of a shader (from its variables). A
/// component that two output variables share (dual-source blend outputs: NIR
/// variables carry no blend index, so `index = 1` outputs alias `index = 0` ones) is
/// left out: its final value depends on store order, which passes may change.
pub fn output_types(shader: &Shader) -> BTreeMap<(i32, u8), BaseType> {
    let mut m = BTreeMap::new();
    let mut shared = BTreeSet::new();
    for &v in &shader.globals {
        if shader.variables.get(v).map(|x| x.mode) != Some(VarMode::ShaderOut) {
            continue;
        }
        for c in io_components(shader, v) {
            if m.insert((c.location, c.component), c.base).is_some() {
                shared.insert((c.location, c.component));
            }
        }
    }
    for k in shared {
        m.remove(&k);
    }
    m
}

/// Fixed-function outputs of pre-rasterisation stages.
const FIXED_FUNCTION: &[i32] = &[0, 12, 16, 17, 18, 22, 23];

fn word(v: u32) -> String {
    format!("0x{v:08x} ({:e} / {})", f32::from_bits(v), v as i32)
}

fn compare_outputs(
    what: &str,
    stage_kind: LocKind,
    before: &Outputs,
    before_undefined: &BTreeSet<(i32, u8)>,
    after: &Outputs,
    types: &BTreeMap<(i32, u8), BaseType>,
    only_fixed: bool,
    exact: bool,
    diffs: &mut Vec<String>,
) {
    for (&(loc, comp), &b) in before {
        if (only_fixed && !FIXED_FUNCTION.contains(&loc)) || before_undefined.contains(&(loc, comp))
        {
            continue;
        }
        let name = format!(
            "{what} {}.{}",
            names::location_name(stage_kind, loc),
            names::XYZW
                .get(usize::from(comp))
                .map(|c| *c as char)
                .unwrap_or('?')
        );
        if !only_fixed && !types.contains_key(&(loc, comp)) {
            // Not an output of a single variable of the original (aliased).
            continue;
        }
        let Some(&a) = after.get(&(loc, comp)) else {
            diffs.push(format!("{name}: written before ({}), not after", word(b)));
            continue;
        };
        let float = only_fixed || types.get(&(loc, comp)) == Some(&BaseType::Float);
        let same = if float && !exact {
            float_eq(a, b)
        } else if float {
            a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
        } else {
            a == b
        };
        if !same {
            diffs.push(format!("{name}: before {} after {}", word(b), word(a)));
        }
    }
}

/// Differences between a reference chain run and another one (empty = equal).
pub fn compare_runs(
    program: &LinkedProgram,
    before_shaders: &[&Shader],
    before: &ChainRun,
    after: &ChainRun,
    exact: bool,
) -> Vec<String> {
    let mut diffs = Vec::new();
    let stage_index = |s: GlslStage| program.stages.iter().position(|x| x.stage == s);
    let types_of = |s: GlslStage| {
        stage_index(s)
            .and_then(|i| before_shaders.get(i))
            .map(|sh| output_types(sh))
            .unwrap_or_default()
    };
    let vs_types = types_of(GlslStage::Vertex);
    for (v, (b, a)) in before.vs.iter().zip(&after.vs).enumerate() {
        compare_outputs(
            &format!("VS vertex {v}"),
            LocKind::Varying,
            &b.outputs,
            &b.undefined,
            &a.outputs,
            &vs_types,
            true,
            exact,
            &mut diffs,
        );
    }
    if let (Some(b), Some(a)) = (&before.gs, &after.gs) {
        let types = types_of(GlslStage::Geometry);
        if b.emitted.len() != a.emitted.len() {
            diffs.push(format!(
                "GS emitted {} vertices before, {} after",
                b.emitted.len(),
                a.emitted.len()
            ));
        }
        if b.primitives_ended != a.primitives_ended {
            diffs.push(format!(
                "GS ended {} primitives before, {} after",
                b.primitives_ended, a.primitives_ended
            ));
        }
        for (i, (vb, va)) in b.emitted.iter().zip(&a.emitted).enumerate() {
            if (vb.stream, vb.primitive) != (va.stream, va.primitive) {
                diffs.push(format!(
                    "GS vertex {i}: stream/primitive ({}, {}) before, ({}, {}) after",
                    vb.stream, vb.primitive, va.stream, va.primitive
                ));
            }
            compare_outputs(
                &format!("GS vertex {i}"),
                LocKind::Varying,
                &vb.outputs,
                &vb.undefined,
                &va.outputs,
                &types,
                true,
                exact,
                &mut diffs,
            );
        }
    }
    match (&before.fs, &after.fs) {
        (Some(b), Some(a)) => {
            if b.discarded != a.discarded {
                diffs.push(format!(
                    "FS discarded before: {}, after: {}",
                    b.discarded, a.discarded
                ));
            } else if !b.discarded {
                compare_outputs(
                    "FS",
                    LocKind::FragResult,
                    &b.outputs,
                    &b.undefined,
                    &a.outputs,
                    &types_of(GlslStage::Fragment),
                    false,
                    exact,
                    &mut diffs,
                );
            }
        }
        (None, None) => {}
        (b, a) => diffs.push(format!(
            "FS ran before: {}, after: {}",
            b.is_some(),
            a.is_some()
        )),
    }
    diffs
}
