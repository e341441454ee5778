//! The printer: Mesa's modern `nir_print` text format (Mesa's `nir_print.c`), which
//! [`crate::reader`] parses back (`print(parse(text)) == text`).
//!
//! Blocks and SSA defs are numbered densely in program order while printing; the
//! printer works per instruction *kind*, never per opcode. Extensions needed for
//! round-tripping: `decl_struct` lines for struct types (a field's matrix layout, when
//! not inherited, prefixes it: `row_major mat3x4 m;`; so does an explicit std140
//! offset of a uniform block member: `@16 vec4 v;`), `[%N]` array indices even when
//! constant, and `// exact` on exact ALU instructions.

use crate::arena::{EntityRef, SecondaryMap};
use crate::intrinsics::{AtomicOp, IndexKind, Scope, MEMORY_SEMANTICS};
use crate::ir::names::{self, LocKind};
use crate::ir::*;
use crate::opcodes::Base;
use std::fmt::Write;

/// Prints a whole shader.
pub fn print_shader(shader: &Shader) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "shader: {}", shader.stage.name());
    let info = &shader.info;
    if let Some(n) = &info.name {
        let _ = writeln!(out, "name: {n}");
    }
    if let Some(l) = &info.label {
        let _ = writeln!(out, "label: {l}");
    }
    if info.internal {
        out.push_str("internal: true\n");
    }
    if info.io_lowered {
        out.push_str("io_lowered: true\n");
    }
    if info.uses_discard {
        out.push_str("uses_discard: true\n");
    }
    if let Some([x, y, z]) = info.workgroup_size {
        let _ = writeln!(out, "workgroup_size: {x}, {y}, {z}");
    }
    if info.shared_size != 0 {
        let _ = writeln!(out, "shared: {}", info.shared_size);
    }
    if let Some(gs) = &info.gs {
        let _ = writeln!(out, "input_primitive: {}", gs.input_primitive.name());
        let _ = writeln!(out, "output_primitive: {}", gs.output_primitive.name());
        let _ = writeln!(out, "vertices_in: {}", gs.vertices_in);
        let _ = writeln!(out, "vertices_out: {}", gs.vertices_out);
        let _ = writeln!(out, "invocations: {}", gs.invocations);
    }
    let _ = writeln!(out, "inputs: {}", info.num_inputs);
    let _ = writeln!(out, "outputs: {}", info.num_outputs);
    let _ = writeln!(out, "uniforms: {}", info.num_uniforms);
    for st in &shader.structs {
        let _ = write!(out, "decl_struct {} {{", st.name);
        for (i, (name, ty)) in st.fields.iter().enumerate() {
            out.push(' ');
            if let Some(o) = st.explicit_offset(i) {
                let _ = write!(out, "@{o} ");
            }
            if let Some(k) = st.layout(i).keyword() {
                let _ = write!(out, "{k} ");
            }
            let _ = ty.write(&shader.structs, &mut out);
            let _ = write!(out, " {name};");
        }
        out.push_str(" }\n");
    }
    for &var in &shader.globals {
        print_var(shader, var, "", &mut out);
    }
    for (i, (_, func)) in shader.functions.iter().enumerate() {
        if i > 0 && out.ends_with("}\n") {
            out.push('\n');
        }
        let _ = write!(out, "decl_function {} (", func.name);
        for (i, (name, comps, bits)) in func.params.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "{}", def_size(*comps, *bits));
            let _ = write!(out, " {name}");
        }
        out.push(')');
        if func.is_entrypoint {
            out.push_str(" (entrypoint)");
        }
        out.push('\n');
        if let Some(body) = &func.body {
            out.push('\n');
            let _ = writeln!(out, "impl {} {{", func.name);
            ImplPrinter::new(shader, body).print(&mut out);
            out.push_str("}\n");
        }
    }
    out
}

/// Prints one instruction of `func` with the same numbering as [`print_shader`], for
/// error messages.
pub fn print_instr_standalone(shader: &Shader, func: &FunctionImpl, instr: Instr) -> String {
    let mut p = ImplPrinter::new(shader, func);
    p.digits = 1;
    let mut out = String::new();
    p.instr(instr, 0, &mut out);
    out.trim().to_string()
}

fn def_size(comps: u8, bits: u8) -> String {
    if comps > 1 {
        format!("{bits}x{comps}")
    } else {
        format!("{bits}")
    }
}

fn loc_kind(shader: &Shader, mode: VarMode) -> LocKind {
    match (mode, shader.stage) {
        (VarMode::ShaderIn, Stage::Vertex) => LocKind::VertAttrib,
        (VarMode::ShaderOut, Stage::Fragment) => LocKind::FragResult,
        (VarMode::ShaderIn | VarMode::ShaderOut, _) => LocKind::Varying,
        (VarMode::SystemValue, _) => LocKind::SystemValue,
        _ => LocKind::Plain,
    }
}

fn print_var(shader: &Shader, id: VarId, indent: &str, out: &mut String) {
    let Some(var) = shader.variables.get(id) else {
        let _ = writeln!(out, "{indent}decl_var <bad {id}>");
        return;
    };
    let _ = write!(out, "{indent}decl_var ");
    if var.centroid {
        out.push_str("centroid ");
    }
    if var.sample {
        out.push_str("sample ");
    }
    if var.invariant {
        out.push_str("invariant ");
    }
    if var.packing == Packing::Std430 {
        out.push_str("std430 ");
    }
    let interp = Interp::ALL
        .iter()
        .find(|(i, _)| *i == var.interp)
        .map(|(_, n)| *n)
        .unwrap_or("?");
    let _ = write!(
        out,
        "{} {} {} ",
        var.mode.decl_name(),
        interp,
        names::access_name(var.access)
    );
    let _ = var.ty.write(&shader.structs, out);
    let _ = write!(out, " {}", var.name);
    match var.mode {
        VarMode::SystemValue => {
            let _ = write!(
                out,
                " ({})",
                names::location_name(LocKind::SystemValue, var.location)
            );
        }
        VarMode::ShaderIn
        | VarMode::ShaderOut
        | VarMode::Uniform
        | VarMode::Ubo
        | VarMode::Ssbo => {
            let loc = names::location_name(loc_kind(shader, var.mode), var.location);
            let _ = write!(out, " ({loc}");
            if matches!(var.mode, VarMode::ShaderIn | VarMode::ShaderOut) {
                let mut base = &var.ty;
                while let Type::Array(e, _) = base {
                    base = e;
                }
                if let Some(n) = base.vector_components() {
                    out.push('.');
                    for c in var.location_frac..(var.location_frac + n).min(4) {
                        out.push(names::XYZW[usize::from(c)] as char);
                    }
                }
            }
            let _ = write!(out, ", {}, {})", var.driver_location, var.binding);
        }
        VarMode::FunctionTemp | VarMode::ShaderTemp | VarMode::Shared => {}
    }
    if let Some(init) = &var.init {
        out.push_str(" = {");
        for (i, v) in init.iter().enumerate() {
            let _ = write!(out, "{} 0x{v:08x}", if i > 0 { "," } else { "" });
        }
        out.push_str(" }");
    }
    out.push('\n');
}

struct ImplPrinter<'a> {
    shader: &'a Shader,
    func: &'a FunctionImpl,
    def_num: SecondaryMap<Def, Option<u32>>,
    block_num: SecondaryMap<Block, Option<u32>>,
    digits: usize,
}

impl<'a> ImplPrinter<'a> {
    fn new(shader: &'a Shader, func: &'a FunctionImpl) -> Self {
        let mut def_num = SecondaryMap::new();
        let mut block_num = SecondaryMap::new();
        let mut next = 0u32;
        for (i, b) in func.blocks_in_order().into_iter().enumerate() {
            block_num[b] = Some(i as u32);
            for instr in func.block_instrs(b) {
                for d in func.instrs[instr].defs() {
                    def_num[d] = Some(next);
                    next += 1;
                }
            }
        }
        let digits = next.saturating_sub(1).to_string().len();
        ImplPrinter {
            shader,
            func,
            def_num,
            block_num,
            digits,
        }
    }

    fn col(&self) -> usize {
        5 + 1 + 1 + self.digits + 3
    }

    fn def(&self, d: Def) -> String {
        match self.def_num[d] {
            Some(n) => format!("%{n}"),
            None => format!("%<bad {}>", d.index()),
        }
    }

    fn block(&self, b: Block) -> String {
        match self.block_num.get(b) {
            Some(n) => format!("b{n}"),
            None => format!("b<bad {}>", b.index()),
        }
    }

    fn print(&self, out: &mut String) {
        for &var in &self.func.locals {
            print_var(self.shader, var, "    ", out);
        }
        self.list(self.func.body, 1, out);
        let _ = writeln!(out, "    block {}:", self.block(self.func.end_block));
    }

    fn list(&self, list: CfList, depth: usize, out: &mut String) {
        let indent = "    ".repeat(depth);
        for node in self.func.list_nodes(list) {
            match &self.func.cf[node].kind {
                CfKind::Block(b) => self.block_body(*b, depth, out),
                CfKind::If {
                    cond,
                    then_list,
                    else_list,
                } => {
                    let _ = writeln!(out, "{indent}if {} {{", self.def(*cond));
                    self.list(*then_list, depth + 1, out);
                    let _ = writeln!(out, "{indent}}} else {{");
                    self.list(*else_list, depth + 1, out);
                    let _ = writeln!(out, "{indent}}}");
                }
                CfKind::Loop { body } => {
                    let _ = writeln!(out, "{indent}loop {{");
                    self.list(*body, depth + 1, out);
                    let _ = writeln!(out, "{indent}}}");
                }
            }
        }
    }

    fn blocks_list(&self, blocks: &[Block]) -> String {
        let mut sorted: Vec<(u32, Block)> = blocks
            .iter()
            .map(|b| (self.block_num.get(*b).unwrap_or(u32::MAX), *b))
            .collect();
        sorted.sort();
        sorted
            .iter()
            .map(|(_, b)| format!(" {}", self.block(*b)))
            .collect()
    }

    fn block_body(&self, b: Block, depth: usize, out: &mut String) {
        let indent = "    ".repeat(depth);
        let data = &self.func.blocks[b];
        let header = format!("block {}:", self.block(b));
        let pad = self.col().saturating_sub(header.len()).max(1);
        let preds = self.blocks_list(&data.preds);
        let succs: String = data
            .succs
            .iter()
            .map(|s| format!(" {}", self.block(*s)))
            .collect();
        let instrs = self.func.block_instrs(b);
        if instrs.is_empty() {
            let _ = writeln!(
                out,
                "{indent}{header}{:pad$}// preds:{preds}, succs:{succs}",
                ""
            );
            return;
        }
        let _ = writeln!(out, "{indent}{header}{:pad$}// preds:{preds}", "");
        for instr in instrs {
            self.instr(instr, depth, out);
        }
        let _ = writeln!(out, "{indent}{:w$}// succs:{succs}", "", w = self.col());
    }

    fn def_prefix(&self, d: Def) -> String {
        let data = &self.func.defs[d];
        format!(
            "{:<5} {:>w$} = ",
            def_size(data.num_components, data.bit_size),
            self.def(d),
            w = 1 + self.digits
        )
    }

    fn const_inline(&self, d: Def, comps: &[u8], float: bool) -> String {
        let Some(values) = self.func.const_value(d) else {
            return String::new();
        };
        let bits = self.func.defs[d].bit_size;
        let parts: Vec<String> = comps
            .iter()
            .map(|c| {
                let v = values.get(usize::from(*c)).copied().unwrap_or(0);
                if bits == 1 {
                    (if v != 0 { "true" } else { "false" }).to_string()
                } else if float && bits == 32 {
                    format!("{:.6}", f32::from_bits(v as u32))
                } else if float && bits == 64 {
                    format!("{:.6}", f64::from_bits(v))
                } else {
                    format!("0x{v:x}")
                }
            })
            .collect();
        format!(" ({})", parts.join(", "))
    }

    fn instr(&self, instr: Instr, depth: usize, out: &mut String) {
        let indent = "    ".repeat(depth);
        let data = &self.func.instrs[instr];
        out.push_str(&indent);
        match data.def {
            Some(d) => out.push_str(&self.def_prefix(d)),
            None => {
                let _ = write!(out, "{:w$}", "", w = self.col());
            }
        }
        match &data.kind {
            InstrKind::Alu(alu) => self.alu(data, alu, out),
            InstrKind::Deref(deref) => self.deref(deref, out),
            InstrKind::Intrinsic(intr) => self.intrinsic(intr, out),
            InstrKind::Tex(tex) => self.tex(tex, out),
            InstrKind::LoadConst(values) => {
                let bits = data
                    .def
                    .and_then(|d| self.func.defs.get(d))
                    .map(|d| d.bit_size)
                    .unwrap_or(32);
                let parts: Vec<String> = values
                    .iter()
                    .map(|v| match bits {
                        1 => (if *v != 0 { "true" } else { "false" }).to_string(),
                        32 => format!("0x{v:08x} = {}", interpret(*v, 32)),
                        64 => format!("0x{v:016x} = {}", interpret(*v, 64)),
                        _ => format!("0x{v:0w$x}", w = usize::from(bits.div_ceil(4))),
                    })
                    .collect();
                let _ = write!(out, "load_const ({})", parts.join(", "));
            }
            InstrKind::Undef => out.push_str("undefined"),
            InstrKind::Phi(srcs) => {
                out.push_str("phi");
                let mut srcs: Vec<&(Block, Def)> = srcs.iter().collect();
                srcs.sort_by_key(|(b, _)| self.block_num.get(*b).unwrap_or(u32::MAX));
                for (i, (b, d)) in srcs.iter().enumerate() {
                    let _ = write!(
                        out,
                        "{} {}: {}",
                        if i > 0 { "," } else { "" },
                        self.block(*b),
                        self.def(*d)
                    );
                }
            }
            InstrKind::Jump(j) => out.push_str(j.name()),
            InstrKind::Call { callee, args } => {
                let name = self
                    .shader
                    .functions
                    .get(*callee)
                    .map(|f| f.name.as_str())
                    .unwrap_or("<bad>");
                let _ = write!(out, "call {name}");
                for (i, a) in args.iter().enumerate() {
                    let _ = write!(out, "{} {}", if i > 0 { "," } else { "" }, self.def(*a));
                }
            }
            InstrKind::ParallelCopy(entries) => {
                out.push_str("parallel_copy");
                for (i, (dst, src)) in entries.iter().enumerate() {
                    let size = self
                        .func
                        .defs
                        .get(*dst)
                        .map(|d| def_size(d.num_components, d.bit_size))
                        .unwrap_or_default();
                    let _ = write!(
                        out,
                        "{} {size} {} = {}",
                        if i > 0 { "," } else { "" },
                        self.def(*dst),
                        self.def(*src)
                    );
                }
            }
        }
        out.push('\n');
    }

    fn alu(&self, data: &InstrData, alu: &Alu, out: &mut String) {
        let info = alu.op.info();
        let dest_comps = data
            .def
            .and_then(|d| self.func.defs.get(d))
            .map(|d| d.num_components)
            .unwrap_or(1);
        let _ = write!(out, "{}", alu.op);
        for (i, src) in alu.srcs.iter().enumerate() {
            out.push_str(if i > 0 { ", " } else { " " });
            out.push_str(&self.def(src.def));
            let read = match info.input_sizes.get(i) {
                Some(0) | None => dest_comps,
                Some(n) => *n,
            };
            let src_comps = self
                .func
                .defs
                .get(src.def)
                .map(|d| d.num_components)
                .unwrap_or(0);
            let comps = &src.swizzle[..usize::from(read.min(16))];
            let identity = comps.iter().enumerate().all(|(i, c)| usize::from(*c) == i);
            if !identity || read != src_comps {
                out.push('.');
                let letters: &[u8] = if src_comps > 4 {
                    names::ABCD
                } else {
                    names::XYZW
                };
                for c in comps {
                    out.push(letters.get(usize::from(*c)).copied().unwrap_or(b'?') as char);
                }
            }
            let float = info
                .input_types
                .get(i)
                .is_some_and(|t| t.base == Base::Float);
            out.push_str(&self.const_inline(src.def, comps, float));
        }
        if alu.exact {
            out.push_str("  // exact");
        }
    }

    fn deref_suffix(&self, deref: &Deref, out: &mut String) {
        let _ = write!(out, " ({} ", deref.mode.deref_name());
        let _ = deref.ty.write(&self.shader.structs, out);
        out.push(')');
    }

    fn deref(&self, deref: &Deref, out: &mut String) {
        match &deref.kind {
            DerefKind::Var(v) => {
                let name = self
                    .shader
                    .variables
                    .get(*v)
                    .map(|v| v.name.as_str())
                    .unwrap_or("<bad>");
                let _ = write!(out, "deref_var &{name}");
                self.deref_suffix(deref, out);
            }
            DerefKind::Array { parent, index } => {
                let _ = write!(
                    out,
                    "deref_array &(*{})[{}]",
                    self.def(*parent),
                    self.def(*index)
                );
                self.deref_suffix(deref, out);
                self.path_comment(deref, out);
            }
            DerefKind::ArrayWildcard { parent } => {
                let _ = write!(out, "deref_array &(*{})[*]", self.def(*parent));
                self.deref_suffix(deref, out);
                self.path_comment(deref, out);
            }
            DerefKind::Struct { parent, field } => {
                let fname = self.struct_field_name(*parent, *field);
                let _ = write!(out, "deref_struct &{}->{fname}", self.def(*parent));
                self.deref_suffix(deref, out);
                self.path_comment(deref, out);
            }
            DerefKind::Cast { parent, ptr_stride } => {
                out.push_str("deref_cast (");
                let _ = deref.ty.write(&self.shader.structs, out);
                let _ = write!(out, " *){}", self.def(*parent));
                self.deref_suffix(deref, out);
                let _ = write!(out, " (ptr_stride={ptr_stride})");
            }
        }
    }

    /// Mesa's `  // &var[1].field` comment spelling the whole chain (constant indices
    /// inline); omitted when the chain contains a cast. Ignored by the reader.
    fn path_comment(&self, deref: &Deref, out: &mut String) {
        if let Some(path) = self.path(deref, 0) {
            let _ = write!(out, "  // &{path}");
        }
    }

    fn parent_deref(&self, d: Def) -> Option<&'a Deref> {
        let data = self.func.defs.get(d)?;
        match &self.func.instrs.get(data.instr)?.kind {
            InstrKind::Deref(p) => Some(p),
            _ => None,
        }
    }

    fn path(&self, deref: &Deref, depth: usize) -> Option<String> {
        if depth > 64 {
            return None;
        }
        match &deref.kind {
            DerefKind::Var(v) => self.shader.variables.get(*v).map(|v| v.name.clone()),
            DerefKind::Array { parent, index } => {
                let base = self.path(self.parent_deref(*parent)?, depth + 1)?;
                let idx = match self.func.const_value(*index) {
                    Some([v]) => {
                        let bits = self.func.defs[*index].bit_size;
                        crate::opcodes::sign_extend(*v, bits).to_string()
                    }
                    _ => self.def(*index),
                };
                Some(format!("{base}[{idx}]"))
            }
            DerefKind::ArrayWildcard { parent } => Some(format!(
                "{}[*]",
                self.path(self.parent_deref(*parent)?, depth + 1)?
            )),
            DerefKind::Struct { parent, field } => {
                let base = self.path(self.parent_deref(*parent)?, depth + 1)?;
                Some(format!(
                    "{base}.{}",
                    self.struct_field_name(*parent, *field)
                ))
            }
            DerefKind::Cast { .. } => None,
        }
    }

    fn struct_field_name(&self, parent: Def, field: u32) -> String {
        let ty = self
            .func
            .defs
            .get(parent)
            .and_then(|d| self.func.instrs.get(d.instr))
            .and_then(|i| match &i.kind {
                InstrKind::Deref(d) => Some(&d.ty),
                _ => None,
            });
        if let Some(Type::Struct(id)) = ty {
            if let Some(f) = self
                .shader
                .structs
                .get(id.index())
                .and_then(|s| s.fields.get(field as usize))
            {
                return f.0.clone();
            }
        }
        format!("<field {field}>")
    }

    fn intrinsic(&self, intr: &Intrinsic, out: &mut String) {
        let info = intr.op.info();
        let _ = write!(out, "@{} (", intr.op);
        for (i, src) in intr.srcs.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&self.def(*src));
            let comps = self
                .func
                .defs
                .get(*src)
                .map(|d| d.num_components)
                .unwrap_or(0);
            let all: Vec<u8> = (0..comps).collect();
            out.push_str(&self.const_inline(*src, &all, false));
        }
        out.push(')');
        if !info.indices.is_empty() {
            out.push_str(" (");
            for (i, kind) in info.indices.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let v = intr.indices.get(i).copied().unwrap_or(0);
                out.push_str(&format_index(self.shader, intr, *kind, v));
            }
            out.push(')');
        }
    }

    fn tex(&self, tex: &Tex, out: &mut String) {
        let name = TexOp::ALL
            .iter()
            .find(|(o, _)| *o == tex.op)
            .map(|(_, n)| *n)
            .unwrap_or("?");
        let _ = write!(out, "({}){name}", tex.dest_type);
        for (i, (kind, def)) in tex.srcs.iter().enumerate() {
            let _ = write!(
                out,
                "{} {} ({})",
                if i > 0 { "," } else { "" },
                self.def(*def),
                kind.name()
            );
        }
        let sep = if tex.srcs.is_empty() { " " } else { ", " };
        let _ = write!(out, "{sep}{}", tex.dim.name());
        if tex.is_array {
            out.push_str(", array");
        }
        if tex.is_shadow {
            out.push_str(", shadow");
        }
        let has = |k| tex.srcs.iter().any(|(kind, _)| *kind == k);
        if !has(TexSrcKind::TextureDeref) || tex.texture_index != 0 {
            let _ = write!(out, ", {} (texture)", tex.texture_index);
        }
        if !has(TexSrcKind::SamplerDeref) || tex.sampler_index != 0 {
            let _ = write!(out, ", {} (sampler)", tex.sampler_index);
        }
        if tex.op == TexOp::Tg4 {
            let _ = write!(out, ", {} (gather_component)", tex.component);
        }
    }
}

/// The annotation after a 32/64-bit constant: the float value when the bits look like
/// a float of moderate magnitude (or zero), else the signed integer value.
fn interpret(v: u64, bits: u8) -> String {
    let (f, i) = if bits == 32 {
        (
            f64::from(f32::from_bits(v as u32)),
            i64::from(v as u32 as i32),
        )
    } else {
        (f64::from_bits(v), v as i64)
    };
    if f == 0.0 && i == 0 {
        return "0.000000".to_string();
    }
    if f.is_finite() && (1e-6..1e9).contains(&f.abs()) {
        format!("{f:.6}")
    } else {
        i.to_string()
    }
}

/// Formats one constant index (`base=0`, `wrmask=xyzw`, `dest_type=float32`, ...).
pub fn format_index(shader: &Shader, intr: &Intrinsic, kind: IndexKind, v: u32) -> String {
    match kind {
        IndexKind::WriteMask => {
            let letters: String = (0..16u8)
                .filter(|c| v & (1 << c) != 0)
                .map(|c| if c < 4 { names::XYZW[usize::from(c)] } else { names::ABCD[usize::from(c)] } as char)
                .collect();
            format!("wrmask={letters}")
        }
        IndexKind::Access | IndexKind::DstAccess | IndexKind::SrcAccess => {
            format!("{}={}", kind.name(), names::access_name(v))
        }
        IndexKind::DestType | IndexKind::SrcType => {
            let t = names::alu_type_from_code(v)
                .map(|t| t.to_string())
                .unwrap_or_else(|| "invalid".into());
            format!("{}={t}", kind.name())
        }
        IndexKind::IoSemantics => {
            let loc = (v & 0xffff) as i32;
            let slots = v >> 16;
            let lk = match (intr.op, shader.stage) {
                (crate::intrinsics::IntrinsicOp::load_input, Stage::Vertex) => LocKind::VertAttrib,
                (crate::intrinsics::IntrinsicOp::store_output, Stage::Fragment)
                | (crate::intrinsics::IntrinsicOp::load_output, Stage::Fragment) => {
                    LocKind::FragResult
                }
                _ => LocKind::Varying,
            };
            format!(
                "io location={} slots={slots}",
                names::location_name(lk, loc)
            )
        }
        IndexKind::AtomicOp => match AtomicOp::from_code(v) {
            Some(op) => format!("atomic_op={}", op.name()),
            None => format!("atomic_op={v}"),
        },
        IndexKind::ExecutionScope | IndexKind::MemoryScope => match Scope::from_code(v) {
            Some(s) => format!("{}={}", kind.name(), s.name()),
            None => format!("{}={v}", kind.name()),
        },
        IndexKind::MemorySemantics => format!("{}={}", kind.name(), semantics_name(v)),
        IndexKind::MemoryModes => format!("{}={}", kind.name(), VarMode::set_name(v)),
        IndexKind::ImageDim => match SamplerDim::ALL.get(v as usize) {
            Some((_, n)) => format!("image_dim={n}"),
            None => format!("image_dim={v}"),
        },
        IndexKind::ImageArray => format!("image_array={}", v != 0),
        IndexKind::Format => match crate::intrinsics::ImageFormat::from_code(v) {
            Some(f) => format!("format={}", f.name()),
            None => format!("format={v}"),
        },
        _ => format!("{}={v}", kind.name()),
    }
}

/// Prints memory semantics bits (`NONE`, `ACQ|REL|VISIBLE`, unknown bits in hex).
pub fn semantics_name(bits: u32) -> String {
    let mut parts: Vec<String> = MEMORY_SEMANTICS
        .iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|(_, n)| n.to_string())
        .collect();
    let known: u32 = MEMORY_SEMANTICS.iter().map(|(b, _)| *b).sum();
    if bits & !known != 0 {
        parts.push(format!("0x{:x}", bits & !known));
    }
    if parts.is_empty() {
        "NONE".to_string()
    } else {
        parts.join("|")
    }
}

/// Parses memory semantics printed by [`semantics_name`].
pub fn parse_semantics(text: &str) -> Option<u32> {
    if text == "NONE" {
        return Some(0);
    }
    let mut bits = 0;
    for part in text.split('|') {
        bits |= match part.strip_prefix("0x") {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => MEMORY_SEMANTICS.iter().find(|(_, n)| *n == part)?.0,
        };
    }
    Some(bits)
}
