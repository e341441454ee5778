//! `dump_resources`: a stable text listing of a linked program's interface —
//! attributes, fragment outputs, the varyings of every stage with their slots,
//! active uniforms and uniform blocks, storage blocks with their buffer variables
//! and compute shared memory (when the program has them). Used by the linker's file tests,
//! `rglc --link` and the conformance runner.

use std::fmt::Write;

use rgl_glsl::hir::{Constant, ScalarValue, VarMode};
use rgl_glsl::types::StructArena;
use rgl_nir::ir::names::{location_name, LocKind};

use super::types::type_name;
use super::usage::globals;
use crate::program::LinkedProgram;

fn constant_text(c: &Constant, out: &mut String) {
    match c {
        Constant::Components(values) => {
            let parts: Vec<String> = values
                .iter()
                .map(|v| match v {
                    ScalarValue::Float(f) => format!("{f:?}"),
                    ScalarValue::Int(i) => i.to_string(),
                    ScalarValue::Uint(u) => format!("{u}u"),
                    ScalarValue::Bool(b) => b.to_string(),
                })
                .collect();
            out.push('(');
            out.push_str(&parts.join(" "));
            out.push(')');
        }
        Constant::Aggregate(parts) => {
            out.push('[');
            for (i, p) in parts.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                constant_text(p, out);
            }
            out.push(']');
        }
    }
}

fn stage_letters(mask: u32) -> String {
    let mut s = String::new();
    for (bit, c) in [(0, 'v'), (1, 'g'), (2, 'f'), (3, 'c')] {
        if mask & (1 << bit) != 0 {
            s.push(c);
        }
    }
    s
}

/// The program's interface as text (one item per line, stable order).
pub fn dump_resources(program: &LinkedProgram) -> String {
    let mut out = String::new();
    let empty = StructArena::default();
    let structs = program
        .stages
        .first()
        .map(|s| &s.hir.structs)
        .unwrap_or(&empty);
    let _ = writeln!(out, "version {}", program.version);
    if let Some([x, y, z]) = program.compute_local_size() {
        let _ = writeln!(out, "compute local size {x} {y} {z}");
    }
    let _ = writeln!(out, "attributes:");
    for a in &program.attributes {
        let ty = program
            .stage(rgl_glsl::Stage::Vertex)
            .map(|s| type_name(&a.ty, &s.hir.structs))
            .unwrap_or_else(|| type_name(&a.ty, structs));
        let _ = writeln!(out, "  {} {} location={}", a.name, ty, a.location);
    }
    let _ = writeln!(out, "frag outputs:");
    for o in &program.frag_outputs {
        let ty = program
            .stage(rgl_glsl::Stage::Fragment)
            .map(|s| type_name(&o.ty, &s.hir.structs))
            .unwrap_or_else(|| type_name(&o.ty, structs));
        let _ = writeln!(
            out,
            "  {} {} location={} index={}",
            o.name, ty, o.location, o.index
        );
    }
    for st in &program.stages {
        let m = &st.hir;
        let _ = writeln!(out, "{} stage:", st.stage);
        for v in globals(m) {
            let var = &m.variables[v];
            let dir = match var.mode {
                VarMode::ShaderIn => "in",
                VarMode::ShaderOut => "out",
                VarMode::Uniform => "uniform",
                _ => continue,
            };
            let Some(link) = st.vars.get(&v) else {
                let _ = writeln!(
                    out,
                    "  {dir} {} {} (unplaced)",
                    type_name(&var.ty, &m.structs),
                    var.name
                );
                continue;
            };
            let kind = match (st.stage, var.mode) {
                (rgl_glsl::Stage::Vertex, VarMode::ShaderIn) => LocKind::VertAttrib,
                (rgl_glsl::Stage::Fragment, VarMode::ShaderOut) => LocKind::FragResult,
                _ => LocKind::Varying,
            };
            if var.mode == VarMode::Uniform {
                let _ = writeln!(
                    out,
                    "  uniform {} {} driver_location={}",
                    type_name(&var.ty, &m.structs),
                    var.name,
                    link.driver_location
                );
            } else {
                let _ = writeln!(
                    out,
                    "  {dir} {} {} {}.{}{}",
                    type_name(&var.ty, &m.structs),
                    var.name,
                    location_name(kind, link.location),
                    link.location_frac,
                    if link.index != 0 {
                        format!(" index={}", link.index)
                    } else {
                        String::new()
                    }
                );
            }
        }
    }
    let _ = writeln!(
        out,
        "uniforms: slots={} samplers={}",
        program.uniform_slots, program.num_samplers
    );
    for u in &program.uniforms {
        let ty = program
            .stages
            .iter()
            .find(|s| u.stages & (1 << s.stage as u32) != 0)
            .map(|s| type_name(&u.ty, &s.hir.structs))
            .unwrap_or_else(|| type_name(&u.ty, structs));
        let mut line = format!("  {} {}", u.name, ty);
        if u.array_size != 1 {
            let _ = write!(line, " size={}", u.array_size);
        }
        match u.block {
            Some(b) => {
                let _ = write!(
                    line,
                    " block={} offset={} array_stride={} matrix_stride={}",
                    b, u.offset, u.array_stride, u.matrix_stride
                );
                if u.row_major {
                    line.push_str(" row_major");
                }
            }
            None => {
                let _ = write!(line, " location={} slot={}", u.location, u.slot);
                if let Some(s) = u.sampler_index {
                    let what = if u.ty.is_image() { "image" } else { "sampler" };
                    let _ = write!(line, " {what}={s}");
                }
            }
        }
        let _ = write!(line, " stages={}", stage_letters(u.stages));
        if let Some(init) = &u.initializer {
            line.push_str(" init=");
            constant_text(init, &mut line);
        }
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "uniform blocks:");
    for (i, b) in program.uniform_blocks.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {i} {} binding={} size={} members={:?} stages={}",
            b.name,
            b.binding,
            b.data_size,
            b.members,
            stage_letters(b.stages)
        );
    }
    // Listed only when the program has them, so GL 3.3 listings stay as they were.
    let storage = program.storage_blocks();
    if !storage.is_empty() {
        let _ = writeln!(out, "storage blocks:");
        for (i, b) in storage.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {i} {} binding={} size={} stages={}",
                b.name,
                b.binding,
                b.data_size,
                stage_letters(b.stages)
            );
            for v in &b.variables {
                let ty = program
                    .stages
                    .iter()
                    .find(|s| b.stages & (1 << s.stage as u32) != 0)
                    .map(|s| type_name(&v.ty, &s.hir.structs))
                    .unwrap_or_else(|| type_name(&v.ty, structs));
                let _ = writeln!(
                    out,
                    "    {} {ty} size={} offset={} array_stride={} matrix_stride={}{} top_level_size={} top_level_stride={}",
                    v.name,
                    v.array_size,
                    v.offset,
                    v.array_stride,
                    v.matrix_stride,
                    if v.row_major { " row_major" } else { "" },
                    v.top_level_array_size,
                    v.top_level_array_stride
                );
            }
        }
    }
    let counters = program.atomic_counter_buffers();
    if !counters.is_empty() {
        let _ = writeln!(out, "atomic counter buffers:");
        for b in &counters {
            let _ = writeln!(
                out,
                "  binding={} size={} stages={}",
                b.binding,
                b.data_size,
                stage_letters(b.stages)
            );
            for c in &b.counters {
                let _ = writeln!(
                    out,
                    "    {} offset={} size={} stages={}",
                    c.name,
                    c.offset,
                    c.array_size,
                    stage_letters(c.stages)
                );
            }
        }
    }
    let shared = program.shared_size();
    if shared > 0 {
        let _ = writeln!(out, "shared memory: {shared} bytes");
    }
    if !program.warnings.is_empty() {
        let _ = writeln!(out, "warnings:");
        for w in &program.warnings {
            let _ = writeln!(out, "  {w}");
        }
    }
    out
}
