//! Prints GLSL IR in Mesa's s-expression dump format (`ir_print_visitor`), byte
//! for byte where our IR carries the same information, so `--dump-hir` /
//! `--dump-lir` output diffs cleanly against Mesa's (`ir_print_visitor.cpp`).
//!
//! Deliberate differences from Mesa, all forced by what we do not have:
//! * User structs print as `Name` rather than `Name@0x<pointer>`; when two
//!   distinct structs share a name, each prints as `Name@<index>` with its
//!   stable arena index.
//! * Texture lookups use the modern positional layout with the `is_sparse` field
//!   (`0`) and, for `tex`/`txb`/`txd`, the `clamp` field (`()`); Mesa ≤ ~20
//!   lacks both.
//! * The `name@N` / `parameter@N` counters restart at every
//!   [`print_module_with`] call (Mesa's are process-wide statics).
//! * `invariant` prints as Mesa's `invariant ` qualifier; we do not track
//!   Mesa's separate `explicit_invariant` bit.
//!
//! Expressions are printed with an explicit work stack, so arbitrarily deep
//! operator chains (`a+a+…+a`) cannot overflow the call stack.

pub mod read;

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use crate::arena::Handle;
use crate::ast::{Interpolation, Precision};
use crate::hir::{Constant, Expr, ExprKind, Item, Module, ScalarValue, Stmt, TexOp, Variable};
use crate::types::{StructType, Type};

/// Printer switches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Print the `(structure …)` header for user structs first, as Mesa's
    /// `--dump-hir` does.
    pub structures: bool,
}

/// Renders a module as Mesa's `--dump-lir` text (no structure header).
pub fn print_module(module: &Module) -> String {
    print_module_with(module, &PrintOptions::default())
}

/// Renders a module as Mesa's dump text with the given options.
pub fn print_module_with(module: &Module, options: &PrintOptions) -> String {
    let mut printer = Printer::new(module);
    if options.structures {
        printer.structures();
    }
    printer.out.push_str("(\n");
    for item in &module.items {
        // Mesa prints each top-level instruction with a fresh visitor, so the
        // collision table starts empty for each of them.
        printer.names.clear();
        printer.scopes = vec![HashSet::new()];
        match *item {
            Item::Variable(var) => {
                printer.declare(var);
                printer.out.push('\n');
            }
            Item::Function(function) => printer.function(function),
        }
    }
    printer.out.push_str(")\n");
    printer.out
}

/// Formats one float component as Mesa does: `%f`, signed zero, `%a` below
/// 1e-6 and `%e` above 1e6 in magnitude.
pub fn format_float(value: f32) -> String {
    if value.is_nan() {
        return if value.is_sign_negative() {
            "-nan"
        } else {
            "nan"
        }
        .to_string();
    }
    if value == 0.0 || (value.abs() >= 0.000_001 && value.abs() <= 1_000_000.0) {
        return format!("{:.6}", value as f64);
    }
    if value.abs() < 0.000_001 {
        return hex_float(value as f64);
    }
    if value.is_infinite() {
        return if value < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    // C's `%e`: mantissa with six decimals, exponent signed with ≥ 2 digits.
    let text = format!("{:.6e}", value as f64);
    match text.split_once('e') {
        Some((mantissa, exponent)) => {
            let exponent: i32 = exponent.parse().unwrap_or(0);
            let sign = if exponent < 0 { '-' } else { '+' };
            format!("{mantissa}e{sign}{:02}", exponent.abs())
        }
        None => text,
    }
}

/// C's `%a` for a finite, nonzero double (`0x1.ad7f2ap-24`).
fn hex_float(value: f64) -> String {
    let bits = value.to_bits();
    let sign = if bits >> 63 != 0 { "-" } else { "" };
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let mantissa = bits & ((1u64 << 52) - 1);
    let (lead, exponent) = if biased == 0 {
        (0, -1022)
    } else {
        (1, biased - 1023)
    };
    let digits = format!("{mantissa:013x}");
    let digits = digits.trim_end_matches('0');
    let dot = if digits.is_empty() { "" } else { "." };
    format!("{sign}0x{lead}{dot}{digits}p{exponent:+}")
}

/// Formats a constant of type `ty` as `(constant <type> (<values>)) `.
pub fn format_constant(module: &Module, value: &Constant, ty: &Type) -> String {
    let printer = Printer::new(module);
    let mut out = String::new();
    printer.constant(&mut out, value, ty);
    out
}

/// Formats a type as Mesa's printer does (`vec4`, `(array float 2)`, `S`).
pub fn format_type(module: &Module, ty: &Type) -> String {
    let printer = Printer::new(module);
    let mut out = String::new();
    printer.ty(&mut out, ty);
    out
}

/// One step of printing an expression tree without recursion.
enum Work {
    Expr(Handle<Expr>),
    Text(&'static str),
    Owned(String),
}

struct Printer<'m> {
    module: &'m Module,
    out: String,
    indentation: usize,
    /// Printed name of each variable seen in the current top-level item.
    names: HashMap<Handle<Variable>, String>,
    /// Scoped set of printed names (Mesa's symbol table).
    scopes: Vec<HashSet<String>>,
    /// Last `name@N` suffix used.
    collision_counter: u32,
    /// Last `parameter@N` suffix used.
    parameter_counter: u32,
    /// Printed names of structs that need a disambiguator.
    struct_names: HashMap<Handle<StructType>, String>,
}

impl<'m> Printer<'m> {
    fn new(module: &'m Module) -> Self {
        let mut by_name: HashMap<&str, Vec<Handle<StructType>>> = HashMap::new();
        for (handle, st) in module.structs.iter() {
            if !st.is_interface && !st.name.starts_with("gl_") {
                by_name.entry(st.name.as_str()).or_default().push(handle);
            }
        }
        let mut struct_names = HashMap::new();
        for (name, handles) in by_name {
            if handles.len() > 1 {
                for handle in handles {
                    struct_names.insert(handle, format!("{name}@{}", handle.index()));
                }
            }
        }
        Printer {
            module,
            out: String::new(),
            indentation: 0,
            names: HashMap::new(),
            scopes: vec![HashSet::new()],
            collision_counter: 1,
            parameter_counter: 0,
            struct_names,
        }
    }

    fn indent(&mut self) {
        for _ in 0..self.indentation {
            self.out.push_str("  ");
        }
    }

    fn structures(&mut self) {
        for (handle, st) in self.module.structs.iter() {
            if st.is_interface || st.name.starts_with("gl_") {
                continue;
            }
            let mut header = String::new();
            self.ty(&mut header, &Type::Struct(handle));
            let _ = writeln!(
                self.out,
                "(structure ({}) ({}) ({}) (",
                st.name,
                header,
                st.fields.len()
            );
            for field in &st.fields {
                let mut field_ty = String::new();
                self.ty(&mut field_ty, &field.ty);
                let _ = writeln!(self.out, "\t(({field_ty})({}))", field.name);
            }
            self.out.push_str(")\n");
        }
    }

    fn ty(&self, out: &mut String, ty: &Type) {
        match ty {
            Type::Array(elem, len) => {
                out.push_str("(array ");
                self.ty(out, elem);
                let _ = write!(out, " {})", len.unwrap_or(0));
            }
            Type::Struct(handle) => match self.struct_names.get(handle) {
                Some(name) => out.push_str(name),
                None => match self.module.structs.get(*handle) {
                    Some(st) => out.push_str(&st.name),
                    None => out.push_str("error"),
                },
            },
            Type::Error => out.push_str("error"),
            other => {
                let _ = write!(out, "{}", other.display(&self.module.structs));
            }
        }
    }

    /// Mesa's `unique_name`: the variable's name, or `name@N` when another
    /// visible variable already printed under that name.
    fn unique_name(&mut self, var: Handle<Variable>) -> String {
        let Some(variable) = self.module.variables.get(var) else {
            return "error".to_string();
        };
        if variable.name.is_empty() {
            self.parameter_counter += 1;
            return format!("parameter@{}", self.parameter_counter);
        }
        if let Some(name) = self.names.get(&var) {
            return name.clone();
        }
        let visible = self
            .scopes
            .iter()
            .any(|scope| scope.contains(&variable.name));
        let name = if visible {
            self.collision_counter += 1;
            format!("{}@{}", variable.name, self.collision_counter)
        } else {
            variable.name.clone()
        };
        self.names.insert(var, name.clone());
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.clone());
        }
        name
    }

    fn declare(&mut self, var: Handle<Variable>) {
        let module = self.module;
        let Some(variable) = module.variables.get(var) else {
            self.out.push_str("(declare () error error)");
            return;
        };
        let mut quals = String::new();
        if let Some(binding) = variable.binding.filter(|&b| b != 0) {
            let _ = write!(quals, "binding={binding} ");
        }
        if let Some(location) = variable.location.filter(|&l| l != -1) {
            let _ = write!(quals, "location={location} ");
        }
        if variable.centroid {
            quals.push_str("centroid ");
        }
        // Mesa's ir_print_visitor prints the format as its pipe_format number;
        // rgl prints the layout qualifier's GLSL spelling.
        if let Some(format) = variable.image_format {
            let _ = write!(quals, "format={} ", format.name());
        }
        let memory = variable.memory;
        for (set, word) in [
            (memory.read_only, "readonly "),
            (memory.write_only, "writeonly "),
            (memory.coherent, "coherent "),
            (memory.volatile, "volatile "),
            (memory.restrict, "restrict "),
        ] {
            if set {
                quals.push_str(word);
            }
        }
        // Mesa's ir_print_visitor order: sample, patch, invariant, precise,
        // the mode, then `stream%u` for a non-zero stream.
        if variable.sample {
            quals.push_str("sample ");
        }
        if variable.invariant {
            quals.push_str("invariant ");
        }
        if variable.precise {
            quals.push_str("precise ");
        }
        let mode = variable.mode.dump_name();
        if !mode.is_empty() {
            quals.push_str(mode);
            quals.push(' ');
        }
        if variable.stream != 0 {
            let _ = write!(quals, "stream{} ", variable.stream);
        }
        quals.push_str(match variable.interpolation {
            None => "",
            Some(Interpolation::Smooth) => "smooth",
            Some(Interpolation::Flat) => "flat",
            Some(Interpolation::NoPerspective) => "noperspective",
        });
        quals.push_str(match variable.precision {
            None => "",
            Some(Precision::High) => "highp ",
            Some(Precision::Medium) => "mediump ",
            Some(Precision::Low) => "lowp ",
        });
        let mut ty = String::new();
        self.ty(&mut ty, &variable.ty);
        let name = self.unique_name(var);
        let _ = write!(self.out, "(declare ({quals}) {ty} {name})");
        for value in [&variable.constant_initializer, &variable.constant_value]
            .into_iter()
            .flatten()
        {
            self.out.push(' ');
            let mut text = String::new();
            self.constant(&mut text, value, &variable.ty);
            self.out.push_str(&text);
        }
    }

    fn function(&mut self, function: Handle<crate::hir::Function>) {
        let module = self.module;
        let Some(func) = module.functions.get(function) else {
            return;
        };
        // Built-in signatures live outside the shader in Mesa and are not printed.
        if func.signatures.iter().all(|sig| sig.builtin.is_some()) {
            return;
        }
        let _ = writeln!(self.out, "( function {}", func.name);
        self.indentation += 1;
        for sig in func.signatures.iter().filter(|sig| sig.builtin.is_none()) {
            self.indent();
            self.scopes.push(HashSet::new());
            self.out.push_str("(signature ");
            self.indentation += 1;
            let mut ret = String::new();
            self.ty(&mut ret, &sig.return_type);
            self.out.push_str(&ret);
            self.out.push('\n');
            self.indent();
            self.out.push_str("(parameters\n");
            self.indentation += 1;
            for &param in &sig.parameters {
                self.indent();
                self.declare(param);
                self.out.push('\n');
            }
            self.indentation -= 1;
            self.indent();
            self.out.push_str(")\n");
            self.indent();
            self.out.push_str("(\n");
            self.block(&sig.body);
            self.indent();
            self.out.push_str("))\n");
            self.indentation -= 1;
            self.scopes.pop();
            self.out.push('\n');
        }
        self.indentation -= 1;
        self.indent();
        self.out.push_str(")\n\n");
    }

    /// Prints statements one level deeper, each on its own line.
    fn block(&mut self, stmts: &[Handle<Stmt>]) {
        self.indentation += 1;
        for &stmt in stmts {
            self.indent();
            self.stmt(stmt);
            self.out.push('\n');
        }
        self.indentation -= 1;
    }

    fn stmt(&mut self, handle: Handle<Stmt>) {
        let module = self.module;
        let Some(stmt) = module.stmts.get(handle) else {
            self.out.push_str("error");
            return;
        };
        match stmt {
            Stmt::Declare(var) => self.declare(*var),
            Stmt::Assign {
                lhs,
                rhs,
                write_mask,
            } => {
                let mask: String = (0..4)
                    .filter(|i| write_mask & (1 << i) != 0)
                    .map(|i| b"xyzw"[i] as char)
                    .collect();
                let _ = write!(self.out, "(assign  ({mask}) ");
                self.expr(*lhs);
                self.out.push(' ');
                self.expr(*rhs);
                self.out.push_str(") ");
            }
            Stmt::Call {
                function,
                signature: _,
                return_deref,
                args,
            } => {
                let name = module
                    .functions
                    .get(*function)
                    .map_or("error", |f| f.name.as_str());
                let _ = write!(self.out, "(call {name} ");
                if let Some(deref) = return_deref {
                    self.expr(*deref);
                }
                self.out.push_str(" (");
                for &arg in args {
                    self.expr(arg);
                }
                self.out.push_str("))\n");
            }
            Stmt::Return(value) => {
                self.out.push_str("(return");
                if let Some(value) = value {
                    self.out.push(' ');
                    self.expr(*value);
                }
                self.out.push(')');
            }
            Stmt::Discard(condition) => {
                self.out.push_str("(discard ");
                if let Some(condition) = condition {
                    self.out.push(' ');
                    self.expr(*condition);
                }
                self.out.push(')');
            }
            Stmt::If {
                condition,
                then_block,
                else_block,
            } => {
                self.out.push_str("(if ");
                self.expr(*condition);
                self.out.push_str("(\n");
                self.block(then_block);
                self.indent();
                self.out.push_str(")\n");
                self.indent();
                if else_block.is_empty() {
                    self.out.push_str("())\n");
                } else {
                    self.out.push_str("(\n");
                    self.block(else_block);
                    self.indent();
                    self.out.push_str("))\n");
                }
            }
            Stmt::Loop { body } => {
                self.out.push_str("(loop (\n");
                self.block(body);
                self.indent();
                self.out.push_str("))\n");
            }
            Stmt::Break => self.out.push_str("break"),
            Stmt::Continue => self.out.push_str("continue"),
            Stmt::EmitVertex => self.out.push_str("(emit-vertex (constant int (0)) )\n"),
            Stmt::EndPrimitive => self.out.push_str("(end-primitive (constant int (0)) )\n"),
        }
    }

    fn expr(&mut self, root: Handle<Expr>) {
        let module = self.module;
        let mut work = vec![Work::Expr(root)];
        while let Some(item) = work.pop() {
            let handle = match item {
                Work::Text(text) => {
                    self.out.push_str(text);
                    continue;
                }
                Work::Owned(text) => {
                    self.out.push_str(&text);
                    continue;
                }
                Work::Expr(handle) => handle,
            };
            let Some(expr) = module.exprs.get(handle) else {
                self.out.push_str("error");
                continue;
            };
            match &expr.kind {
                ExprKind::Constant(value) => {
                    let mut text = String::new();
                    self.constant(&mut text, value, &expr.ty);
                    self.out.push_str(&text);
                }
                ExprKind::VarRef(var) => {
                    let name = self.unique_name(*var);
                    let _ = write!(self.out, "(var_ref {name}) ");
                }
                ExprKind::ArrayRef(base, index) => {
                    self.out.push_str("(array_ref ");
                    work.push(Work::Text(") "));
                    work.push(Work::Expr(*index));
                    work.push(Work::Expr(*base));
                }
                ExprKind::RecordRef(base, field) => {
                    self.out.push_str("(record_ref ");
                    let field_name = module
                        .exprs
                        .get(*base)
                        .and_then(|b| match b.ty {
                            Type::Struct(h) => module.structs.get(h),
                            _ => None,
                        })
                        .and_then(|st| st.fields.get(*field as usize))
                        .map_or("error", |f| f.name.as_str());
                    work.push(Work::Text(") "));
                    work.push(Work::Owned(format!(" {field_name}")));
                    work.push(Work::Expr(*base));
                }
                ExprKind::Swizzle(base, swizzle) => {
                    let _ = write!(self.out, "(swiz {} ", swizzle.letters());
                    work.push(Work::Text(")"));
                    work.push(Work::Expr(*base));
                }
                ExprKind::Operation(op, operands) => {
                    self.out.push_str("(expression ");
                    let mut ty = String::new();
                    self.ty(&mut ty, &expr.ty);
                    let _ = write!(self.out, "{ty} {} ", op.spelling());
                    work.push(Work::Text(") "));
                    for &operand in operands.iter().rev() {
                        work.push(Work::Expr(operand));
                    }
                }
                ExprKind::Texture(tex) => {
                    let mut ty = String::new();
                    self.ty(&mut ty, &expr.ty);
                    let _ = write!(self.out, "({} {ty} ", tex.op.name());
                    // Build the pieces in print order, then push reversed.
                    let mut pieces: Vec<Work> = vec![Work::Expr(tex.sampler), Work::Text(" ")];
                    let query = matches!(tex.op, TexOp::Txs | TexOp::QueryLevels);
                    if !query {
                        match tex.coordinate {
                            Some(coord) => pieces.push(Work::Expr(coord)),
                            None => pieces.push(Work::Text("()")),
                        }
                        pieces.push(Work::Text(" "));
                        if tex.op != TexOp::Lod {
                            pieces.push(Work::Text("0 "));
                        }
                        match tex.offset {
                            Some(offset) => pieces.push(Work::Expr(offset)),
                            None => pieces.push(Work::Text("0")),
                        }
                        pieces.push(Work::Text(" "));
                    }
                    if !matches!(tex.op, TexOp::Txf | TexOp::TxfMs) && !query {
                        match tex.projector {
                            Some(projector) => pieces.push(Work::Expr(projector)),
                            None => pieces.push(Work::Text("1")),
                        }
                        match tex.shadow_comparator {
                            Some(comparator) => {
                                pieces.push(Work::Text(" "));
                                pieces.push(Work::Expr(comparator));
                            }
                            None => pieces.push(Work::Text(" ()")),
                        }
                    }
                    if matches!(tex.op, TexOp::Tex | TexOp::Txb | TexOp::Txd) {
                        pieces.push(Work::Text(" ()"));
                    }
                    pieces.push(Work::Text(" "));
                    match tex.op {
                        TexOp::Tex | TexOp::Lod | TexOp::QueryLevels => {}
                        TexOp::Txb
                        | TexOp::Txl
                        | TexOp::Txf
                        | TexOp::Txs
                        | TexOp::TxfMs
                        | TexOp::Tg4 => match tex.lod {
                            Some(lod) => pieces.push(Work::Expr(lod)),
                            None => pieces.push(Work::Text("error")),
                        },
                        TexOp::Txd => match tex.grad {
                            Some((dx, dy)) => {
                                pieces.push(Work::Text("("));
                                pieces.push(Work::Expr(dx));
                                pieces.push(Work::Text(" "));
                                pieces.push(Work::Expr(dy));
                                pieces.push(Work::Text(")"));
                            }
                            None => pieces.push(Work::Text("error")),
                        },
                    }
                    pieces.push(Work::Text(")"));
                    work.extend(pieces.into_iter().rev());
                }
            }
        }
    }

    fn constant(&self, out: &mut String, value: &Constant, ty: &Type) {
        out.push_str("(constant ");
        self.ty(out, ty);
        out.push_str(" (");
        match (value, ty) {
            (Constant::Aggregate(elems), Type::Array(elem_ty, _)) => {
                for elem in elems {
                    self.constant(out, elem, elem_ty);
                }
            }
            (Constant::Aggregate(fields), Type::Struct(handle)) => {
                let decls = self
                    .module
                    .structs
                    .get(*handle)
                    .map(|s| s.fields.as_slice())
                    .unwrap_or(&[]);
                for (i, field) in fields.iter().enumerate() {
                    let (name, field_ty) = decls
                        .get(i)
                        .map_or(("error", &Type::Error), |d| (d.name.as_str(), &d.ty));
                    let _ = write!(out, "({name} ");
                    self.constant(out, field, field_ty);
                    out.push(')');
                }
            }
            (Constant::Aggregate(elems), _) => {
                for elem in elems {
                    self.constant(out, elem, &Type::Error);
                }
            }
            (Constant::Components(comps), _) => {
                for (i, comp) in comps.iter().enumerate() {
                    if i != 0 {
                        out.push(' ');
                    }
                    match *comp {
                        ScalarValue::Float(f) => out.push_str(&format_float(f)),
                        ScalarValue::Int(v) => {
                            let _ = write!(out, "{v}");
                        }
                        ScalarValue::Uint(v) => {
                            let _ = write!(out, "{v}");
                        }
                        ScalarValue::Bool(b) => out.push(if b { '1' } else { '0' }),
                    }
                }
            }
        }
        out.push_str(")) ");
    }
}
