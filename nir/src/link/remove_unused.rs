//! `remove_unused_varyings` (Mesa's `nir_remove_unused_varyings` +
//! `nir_remove_unused_io_vars`): a user output (location ≥ `VARYING_SLOT_VAR0`) whose
//! slots and components no consumer input covers becomes a shader temporary, and so
//! does a user input that no producer output covers (reading it then yields an
//! undefined value, as in Mesa). Built-ins (`gl_Position`, `gl_PointSize`,
//! `gl_ClipDistance`, `gl_TexCoord`, …) are never touched.
//!
//! Coverage is computed per component: a bit per slot (`location`, counted over the
//! per-vertex type) for each component `location_frac..+components`. Unlike Mesa,
//! which counts every declared input as read, an input the consumer never references
//! does not keep an output alive (it is dead; Mesa removes such variables with
//! `nir_remove_dead_variables` before this pass).

use super::*;

/// Per-component slot masks (bit `location` of `masks[component]`).
type Masks = [u128; 4];

fn var_mask(stage: Stage, var: &Variable, structs: &[StructDef]) -> Option<(u128, Vec<usize>)> {
    if var.location < 0 || var.location >= 128 {
        return None;
    }
    let ty = io_type(stage, var);
    let slots = ty.type_size_vec4(structs)?.clamp(1, 128);
    let mut mask = if slots >= 128 {
        u128::MAX
    } else {
        (1u128 << slots) - 1
    };
    mask = mask.checked_shl(var.location as u32).unwrap_or(0);
    let mut base = &ty;
    while let Type::Array(e, _) = base {
        base = e;
    }
    let comps = match base {
        Type::Scalar(_) | Type::Vector(..) => base.vector_components().unwrap_or(4),
        Type::Matrix { rows, .. } => *rows,
        _ => 4,
    };
    let first = usize::from(var.location_frac);
    let comps: Vec<usize> = (first..first + usize::from(comps))
        .filter(|c| *c < 4)
        .collect();
    Some((mask, comps))
}

fn gather(shader: &Shader, vars: &[VarId]) -> Masks {
    let mut m = [0u128; 4];
    for &v in vars {
        if let Some((mask, comps)) = var_mask(shader.stage, &shader.variables[v], &shader.structs) {
            for c in comps {
                m[c] |= mask;
            }
        }
    }
    m
}

/// Demotes user IO variables of `mode` that `other` does not cover.
fn remove_unused_io(shader: &mut Shader, mode: VarMode, other: &Masks) -> bool {
    let mut progress = false;
    for v in vars_of_mode(shader, mode) {
        let var = &shader.variables[v];
        if !is_user_varying(var.location) {
            continue;
        }
        let used = match var_mask(shader.stage, var, &shader.structs) {
            Some((mask, comps)) => comps.iter().any(|c| other[*c] & mask != 0),
            None => true,
        };
        if !used {
            let var = &mut shader.variables[v];
            var.mode = VarMode::ShaderTemp;
            var.location = 0;
            var.location_frac = 0;
            var.driver_location = 0;
            progress = true;
        }
    }
    if progress {
        fixup_deref_modes(shader);
    }
    progress
}

/// Demotes outputs of `producer` nobody reads and inputs of `consumer` nobody writes
/// to shader temporaries. Returns true when either shader changed.
pub fn remove_unused_varyings(producer: &mut Shader, consumer: &mut Shader) -> bool {
    if producer.stage == Stage::Fragment || consumer.stage == Stage::Vertex {
        return false;
    }
    let outputs = vars_of_mode(producer, VarMode::ShaderOut);
    let live_inputs = referenced_vars(consumer);
    let inputs: Vec<VarId> = vars_of_mode(consumer, VarMode::ShaderIn)
        .into_iter()
        .filter(|v| live_inputs.contains(v))
        .collect();
    let written = gather(producer, &outputs);
    let mut read = gather(consumer, &inputs);
    if producer.stage == Stage::TessCtrl {
        // TCS invocations read each other's outputs: outputs the TCS reads stay.
        let loaded = loaded_vars(producer);
        let own: Vec<VarId> = outputs.into_iter().filter(|v| loaded.contains(v)).collect();
        let m = gather(producer, &own);
        for c in 0..4 {
            read[c] |= m[c];
        }
    }
    let p = remove_unused_io(producer, VarMode::ShaderOut, &read);
    let c = remove_unused_io(consumer, VarMode::ShaderIn, &written);
    p || c
}

/// Variables read by a `load_deref` (through any deref chain).
fn loaded_vars(shader: &Shader) -> rustc_hash::FxHashSet<VarId> {
    use crate::intrinsics::IntrinsicOp;
    let mut out = rustc_hash::FxHashSet::default();
    for (_, f) in shader.functions.iter() {
        let Some(body) = &f.body else { continue };
        for block in body.blocks_in_order() {
            for instr in body.block_instrs(block) {
                if let InstrKind::Intrinsic(intr) = &body.instrs[instr].kind {
                    if intr.op == IntrinsicOp::load_deref {
                        if let Some(v) = intr
                            .srcs
                            .first()
                            .and_then(|d| crate::passes::lower_system_values::deref_root(body, *d))
                        {
                            out.insert(v);
                        }
                    }
                }
            }
        }
    }
    out
}
