//! `lower_alpha_test` (Mesa's `nir_lower_alpha_test` as `st_nir_lower_alpha_test`
//! uses it, the `lower_alpha_func` variant key): the fixed-function alpha test done in
//! the fragment shader.
//!
//! * The alpha tested is the `w` channel written by the last `store_output` to
//!   `FRAG_RESULT_COLOR` or `FRAG_RESULT_DATA0` on each path through the shader (a
//!   store is "last" when no other store of that alpha can follow it; after
//!   `lower_io_to_temporaries` these are the copies before each exit). Right after
//!   each such store the pass emits `ref = load_uniform(ref_slot).x`, the GL
//!   comparison of the alpha with `ref`, and `terminate_if(!pass)`.
//! * `GL_ALWAYS` is no lowering at all; `GL_NEVER` emits an unconditional `terminate`
//!   at the start of the entry point (no fragment survives, whatever it writes).
//! * Comparisons are those of `nir_compare_func`: LESS `flt(a, ref)`, LEQUAL
//!   `fge(ref, a)`, GREATER `flt(ref, a)`, GEQUAL `fge(a, ref)`, EQUAL `feq`,
//!   NOTEQUAL `fneu`; a NaN alpha passes only NOTEQUAL.
//! * `info.uses_discard` is set when a test was emitted.
//!
//! A shader that never writes the alpha of color 0 is left unchanged (its alpha is
//! undefined). Refused with an error (the shader is untouched): an alpha store inside
//! a loop or outside the entry point, or a dynamically indexed store that may write
//! draw buffer 0; run `lower_io_to_temporaries` first. Other stages are left
//! unchanged. The pass is idempotent: a store already followed in its block by a
//! `terminate_if` on a value read from `ref_slot` is not tested again, nor is a
//! shader whose first block already has a `terminate` (NEVER).

use super::args::{parse_u32, FromPassArgs, PassArgs, PassArgsError};
use super::variant_util::*;
use super::{Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::{IndexKind, IntrinsicOp};
use crate::ir::names::{FRAG_RESULT_COLOR, FRAG_RESULT_DATA0};
use crate::ir::*;
use crate::opcodes::Opcode;

/// A GL comparison function (`glAlphaFunc`, `glDepthFunc`, ...).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CompareFunc {
    /// `GL_NEVER`.
    Never,
    /// `GL_LESS`.
    Less,
    /// `GL_EQUAL`.
    Equal,
    /// `GL_LEQUAL`.
    Lequal,
    /// `GL_GREATER`.
    Greater,
    /// `GL_NOTEQUAL`.
    Notequal,
    /// `GL_GEQUAL`.
    Gequal,
    /// `GL_ALWAYS` (the default: the test is off).
    #[default]
    Always,
}

impl CompareFunc {
    /// Every function with its lower-case name (as used in file-test arguments).
    pub const ALL: [(CompareFunc, &'static str); 8] = [
        (CompareFunc::Never, "never"),
        (CompareFunc::Less, "less"),
        (CompareFunc::Equal, "equal"),
        (CompareFunc::Lequal, "lequal"),
        (CompareFunc::Greater, "greater"),
        (CompareFunc::Notequal, "notequal"),
        (CompareFunc::Gequal, "gequal"),
        (CompareFunc::Always, "always"),
    ];
    /// The function of a GL enum (`GL_NEVER` = 0x0200 .. `GL_ALWAYS` = 0x0207).
    pub fn from_gl(e: u32) -> Option<CompareFunc> {
        let i = e.checked_sub(0x0200)?;
        Self::ALL.get(i as usize).map(|(f, _)| *f)
    }
    /// The GL enum of the function.
    pub fn to_gl(self) -> u32 {
        let i = Self::ALL.iter().position(|(f, _)| *f == self).unwrap_or(7);
        0x0200 + i as u32
    }
    /// The lower-case name (`less`).
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(f, _)| *f == self)
            .map(|(_, n)| *n)
            .unwrap_or("always")
    }
    /// Parses a lower-case name.
    pub fn parse(s: &str) -> Option<CompareFunc> {
        Self::ALL.iter().find(|(_, n)| *n == s).map(|(f, _)| *f)
    }
}

/// The pass with its parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LowerAlphaTest {
    /// The comparison.
    pub func: CompareFunc,
    /// The vec4 uniform slot whose `x` holds the reference value.
    pub ref_slot: u32,
}

impl FromPassArgs for LowerAlphaTest {
    /// `func=<never|less|...|always> slot=N`, both required.
    fn from_args(args: &mut PassArgs<'_>) -> Result<Self, PassArgsError> {
        Ok(LowerAlphaTest {
            func: args.required("func", "a compare function name", CompareFunc::parse)?,
            ref_slot: args.required("slot", "a number", parse_u32)?,
        })
    }
}

impl Pass for LowerAlphaTest {
    fn name(&self) -> &'static str {
        "lower_alpha_test"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        lower_alpha_test(shader, self.func, self.ref_slot)
    }
}

/// An alpha store: the instruction and the channel of its value holding alpha.
struct AlphaStore {
    instr: Instr,
    value: Def,
    channel: u8,
}

/// Emits the alpha test; returns true when the shader changed.
fn lower_alpha_test(
    shader: &mut Shader,
    func: CompareFunc,
    ref_slot: u32,
) -> Result<bool, PassFailure> {
    if shader.stage != Stage::Fragment || func == CompareFunc::Always {
        return Ok(false);
    }
    let Some(entry) = entry_point(shader) else {
        return Ok(false);
    };
    // Alpha stores outside the entry point cannot be followed to the shader's end.
    for (id, f) in shader.functions.iter() {
        if id == entry {
            continue;
        }
        if let Some(body) = &f.body {
            if !alpha_stores(body)?.is_empty() {
                return Err(PassFailure::AlphaStoreOutsideEntry {
                    function: f.name.clone(),
                });
            }
        }
    }
    let Some(body) = shader.functions[entry].body.as_mut() else {
        return Ok(false);
    };
    if func == CompareFunc::Never {
        let Some(first) = body.blocks_in_order().into_iter().next() else {
            return Ok(false);
        };
        let killed = body
            .block_instrs(first)
            .into_iter()
            .any(|i| intrinsic_of(body, i).is_some_and(|x| x.op == IntrinsicOp::terminate));
        if killed {
            return Ok(false);
        }
        let cursor = Builder::after_phis(body, first);
        Builder::new(body, cursor).intrinsic(IntrinsicOp::terminate, vec![], 0, vec![], None);
        shader.info.uses_discard = true;
        return Ok(true);
    }
    body.recompute_cfg();
    let stores = alpha_stores(body)?;
    let mut finals = final_stores(body, &stores)?;
    finals.retain(|s| !tested_after(body, s.instr, ref_slot));
    for s in &finals {
        let mut b = Builder::new(body, Cursor::After(s.instr));
        let Some(reference) = build_load_uniform(&mut b, ref_slot, 1) else {
            continue;
        };
        let mut src = AluSrc::new(s.value);
        src.swizzle[0] = s.channel;
        let alpha = b.alu(Opcode::mov, [src], 1);
        let pass = compare(&mut b, func, alpha, reference);
        let fail = b.alu_defs(Opcode::inot, &[pass]);
        b.intrinsic(IntrinsicOp::terminate_if, vec![fail], 0, vec![], None);
    }
    if finals.is_empty() {
        return Ok(false);
    }
    shader.info.uses_discard = true;
    Ok(true)
}

/// `a <func> reference` as a 1-bit boolean (`func` is neither ALWAYS nor NEVER).
fn compare(b: &mut Builder, func: CompareFunc, a: Def, reference: Def) -> Def {
    let (op, x, y) = match func {
        CompareFunc::Less => (Opcode::flt, a, reference),
        CompareFunc::Lequal => (Opcode::fge, reference, a),
        CompareFunc::Greater => (Opcode::flt, reference, a),
        CompareFunc::Gequal => (Opcode::fge, a, reference),
        CompareFunc::Equal => (Opcode::feq, a, reference),
        CompareFunc::Notequal => (Opcode::fneu, a, reference),
        CompareFunc::Never | CompareFunc::Always => {
            let v = func == CompareFunc::Always;
            return b.load_const(1, vec![u64::from(v)]);
        }
    };
    b.alu_defs(op, &[x, y])
}

/// Every store writing the alpha of color 0, in program order.
fn alpha_stores(func: &FunctionImpl) -> Result<Vec<AlphaStore>, PassFailure> {
    let mut out = Vec::new();
    for instr in all_instrs(func) {
        let Some(intr) = intrinsic_of(func, instr) else {
            continue;
        };
        if intr.op != IntrinsicOp::store_output {
            continue;
        }
        let Some((location, slots)) = io_location(intr) else {
            continue;
        };
        let location = match const_offset(func, intr) {
            Some(o) => i64::from(location) + i64::from(o),
            None => {
                let end = i64::from(location) + i64::from(slots);
                if (i64::from(location)..end).contains(&i64::from(FRAG_RESULT_DATA0)) {
                    return Err(PassFailure::AlphaStoreDynamicIndex);
                }
                continue;
            }
        };
        if location != i64::from(FRAG_RESULT_COLOR) && location != i64::from(FRAG_RESULT_DATA0) {
            continue;
        }
        let component = index(intr, IndexKind::Component).unwrap_or(0);
        let wrmask = index(intr, IndexKind::WriteMask).unwrap_or(0);
        let Some(channel) = 3u32.checked_sub(component) else {
            continue;
        };
        if channel >= u32::from(intr.num_components) || wrmask & (1 << channel) == 0 {
            continue;
        }
        let Some(&value) = intr.srcs.first() else {
            continue;
        };
        out.push(AlphaStore {
            instr,
            value,
            channel: channel as u8,
        });
    }
    Ok(out)
}

/// The stores that no other alpha store can follow. Errors when a store sits in a loop.
fn final_stores(
    func: &FunctionImpl,
    stores: &[AlphaStore],
) -> Result<Vec<AlphaStore>, PassFailure> {
    let blocks: Vec<Option<Block>> = stores.iter().map(|s| func.instr_block(s.instr)).collect();
    let mut out = Vec::new();
    for (i, s) in stores.iter().enumerate() {
        let Some(block) = blocks[i] else { continue };
        if reachable_from_succs(func, block, block) {
            return Err(PassFailure::AlphaStoreInLoop);
        }
        let later_in_block = stores[i + 1..]
            .iter()
            .zip(&blocks[i + 1..])
            .any(|(_, b)| *b == Some(block));
        let later_elsewhere = blocks
            .iter()
            .flatten()
            .any(|b| *b != block && reachable_from_succs(func, block, *b));
        if !later_in_block && !later_elsewhere {
            out.push(AlphaStore {
                instr: s.instr,
                value: s.value,
                channel: s.channel,
            });
        }
    }
    Ok(out)
}

/// True when a `terminate_if` whose condition reads `load_uniform` of `ref_slot`
/// follows `store` in its block (the test this pass emitted, possibly rewritten by
/// later optimisations).
fn tested_after(func: &FunctionImpl, store: Instr, ref_slot: u32) -> bool {
    let mut cur = func.instr_next(store);
    while let Some(instr) = cur {
        if let Some(intr) = intrinsic_of(func, instr) {
            if intr.op == IntrinsicOp::terminate_if
                && intr
                    .srcs
                    .first()
                    .is_some_and(|&c| reads_uniform(func, c, ref_slot, 4))
            {
                return true;
            }
        }
        cur = func.instr_next(instr);
    }
    false
}

/// True when `def` is computed (through at most `depth` ALU levels) from a
/// `load_uniform` of `slot`.
fn reads_uniform(func: &FunctionImpl, def: Def, slot: u32, depth: u32) -> bool {
    let Some(data) = func.defs.get(def) else {
        return false;
    };
    match &func.instrs[data.instr].kind {
        InstrKind::Intrinsic(i) => {
            i.op == IntrinsicOp::load_uniform && index(i, IndexKind::Base) == Some(slot)
        }
        InstrKind::Alu(alu) if depth > 0 => alu
            .srcs
            .iter()
            .any(|s| reads_uniform(func, s.def, slot, depth - 1)),
        _ => false,
    }
}
