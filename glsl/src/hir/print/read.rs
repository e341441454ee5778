//! Reads the s-expression dump format back into a [`Module`], so that
//! `print(read(text)) == text` can be tested and lowering passes can be tested
//! on IR text without going through the checker.
//!
//! It accepts what [`super::print_module_with`] writes (and therefore Mesa's
//! dumps, modulo `Name@0x…` struct names, which are matched by their name
//! before the `@`). Calls to functions not defined in the text get a
//! prototype-only signature. Errors are plain messages: this is a test and
//! debugging tool, not a user-facing front end.

use std::collections::HashMap;

use crate::arena::Handle;
use crate::ast::{Interpolation, Precision};
use crate::hir::{
    Constant, Expr, ExprKind, Function, Item, Module, Op, ScalarValue, Signature, Stmt, Swizzle,
    TexOp, Texture, VarMode, Variable,
};
use crate::types::{SamplerDim, SamplerType, ScalarKind, StructField, StructType, Type};
use crate::version::Stage;

/// Deepest list nesting accepted.
const MAX_DEPTH: usize = 512;

/// An s-expression.
#[derive(Clone, Debug, PartialEq)]
enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

/// Parses dump text (optionally preceded by `(structure …)` headers).
pub fn read_module(text: &str) -> Result<Module, String> {
    let mut module = Module::default();
    let mut lines = text.lines().peekable();
    // Optional `; stage: vertex|fragment|geometry` header for pass tests.
    while let Some(line) = lines.peek() {
        let Some(comment) = line.strip_prefix(';') else {
            break;
        };
        if let Some(stage) = comment.trim().strip_prefix("stage:") {
            module.stage = Some(match stage.trim() {
                "vertex" => Stage::Vertex,
                "fragment" => Stage::Fragment,
                "geometry" => Stage::Geometry,
                other => return Err(format!("unknown stage `{other}'")),
            });
        }
        lines.next();
    }
    // Structure headers are line-oriented and, as in Mesa, not balanced.
    while let Some(line) = lines.peek() {
        let Some(rest) = line.strip_prefix("(structure (") else {
            break;
        };
        let name = rest.split(')').next().unwrap_or_default().to_string();
        lines.next();
        let handle = module.structs.append(StructType {
            name,
            fields: Vec::new(),
            is_interface: false,
        });
        for line in lines.by_ref() {
            if line == ")" {
                break;
            }
            let field = parse_sexps(line.trim())?;
            let [Sexp::List(parts)] = field.as_slice() else {
                return Err(format!("bad structure field `{line}'"));
            };
            let [Sexp::List(ty), Sexp::List(name)] = parts.as_slice() else {
                return Err(format!("bad structure field `{line}'"));
            };
            let [ty] = ty.as_slice() else {
                return Err(format!("bad field type in `{line}'"));
            };
            let [Sexp::Atom(name)] = name.as_slice() else {
                return Err(format!("bad field name in `{line}'"));
            };
            let ty = parse_type(&module, ty)?;
            module.structs[handle].fields.push(StructField {
                name: name.clone(),
                ty,
                qualifiers: Default::default(),
            });
        }
    }
    let rest: Vec<&str> = lines.collect();
    let sexps = parse_sexps(&rest.join("\n"))?;
    let [Sexp::List(items)] = sexps.as_slice() else {
        return Err("expected one top-level list".into());
    };
    let mut reader = Reader {
        module,
        scopes: vec![HashMap::new()],
        functions: HashMap::new(),
    };
    let mut pending_decl: Option<Handle<Variable>> = None;
    let mut constants_seen = 0;
    for item in items {
        if let (Some(var), Some("constant")) = (pending_decl, head(item)) {
            reader.attach_constant(var, item, &mut constants_seen)?;
            continue;
        }
        pending_decl = None;
        match head(item) {
            Some("declare") => {
                let var = reader.declare(item)?;
                reader.module.items.push(Item::Variable(var));
                pending_decl = Some(var);
                constants_seen = 0;
            }
            Some("function") | Some("subroutine") => reader.function(item)?,
            _ => return Err(format!("unexpected top-level item {item:?}")),
        }
    }
    Ok(reader.module)
}

fn head(sexp: &Sexp) -> Option<&str> {
    match sexp {
        Sexp::List(items) => match items.first() {
            Some(Sexp::Atom(a)) => Some(a.as_str()),
            _ => None,
        },
        Sexp::Atom(_) => None,
    }
}

fn parse_sexps(text: &str) -> Result<Vec<Sexp>, String> {
    let mut stack: Vec<Vec<Sexp>> = vec![Vec::new()];
    let mut atom = String::new();
    let flush = |atom: &mut String, stack: &mut Vec<Vec<Sexp>>| {
        if !atom.is_empty() {
            if let Some(top) = stack.last_mut() {
                top.push(Sexp::Atom(std::mem::take(atom)));
            }
        }
    };
    for ch in text.chars() {
        match ch {
            '(' => {
                flush(&mut atom, &mut stack);
                if stack.len() > MAX_DEPTH {
                    return Err("nesting too deep".into());
                }
                stack.push(Vec::new());
            }
            ')' => {
                flush(&mut atom, &mut stack);
                let list = stack.pop().ok_or("unbalanced `)'")?;
                stack
                    .last_mut()
                    .ok_or("unbalanced `)'")?
                    .push(Sexp::List(list));
            }
            c if c.is_whitespace() => flush(&mut atom, &mut stack),
            c => atom.push(c),
        }
    }
    flush(&mut atom, &mut stack);
    if stack.len() != 1 {
        return Err("unbalanced `('".into());
    }
    Ok(stack.pop().unwrap_or_default())
}

fn atom(sexp: &Sexp) -> Result<&str, String> {
    match sexp {
        Sexp::Atom(a) => Ok(a),
        Sexp::List(_) => Err(format!("expected an atom, found {sexp:?}")),
    }
}

fn list(sexp: &Sexp) -> Result<&[Sexp], String> {
    match sexp {
        Sexp::List(items) => Ok(items),
        Sexp::Atom(a) => Err(format!("expected a list, found `{a}'")),
    }
}

fn parse_type(module: &Module, sexp: &Sexp) -> Result<Type, String> {
    match sexp {
        Sexp::List(items) => match items.as_slice() {
            [Sexp::Atom(array), elem, Sexp::Atom(len)] if array == "array" => {
                let len: u32 = len
                    .parse()
                    .map_err(|_| format!("bad array length `{len}'"))?;
                let elem = parse_type(module, elem)?;
                Ok(Type::Array(
                    Box::new(elem),
                    if len == 0 { None } else { Some(len) },
                ))
            }
            _ => Err(format!("bad type {sexp:?}")),
        },
        Sexp::Atom(name) => {
            type_by_name(module, name).ok_or_else(|| format!("unknown type `{name}'"))
        }
    }
}

fn type_by_name(module: &Module, name: &str) -> Option<Type> {
    let scalar = |n: &str| match n {
        "float" => Some(ScalarKind::Float),
        "int" => Some(ScalarKind::Int),
        "uint" => Some(ScalarKind::Uint),
        "bool" => Some(ScalarKind::Bool),
        _ => None,
    };
    if name == "void" {
        return Some(Type::Void);
    }
    if name == "error" {
        return Some(Type::Error);
    }
    if let Some(kind) = scalar(name) {
        return Some(Type::Scalar(kind));
    }
    for (prefix, kind) in [
        ("vec", ScalarKind::Float),
        ("ivec", ScalarKind::Int),
        ("uvec", ScalarKind::Uint),
        ("bvec", ScalarKind::Bool),
    ] {
        if let Some(n) = name.strip_prefix(prefix).and_then(|n| n.parse::<u8>().ok()) {
            if (2..=4).contains(&n) {
                return Some(Type::Vector(kind, n));
            }
        }
    }
    if let Some(dims) = name.strip_prefix("mat") {
        let (c, r) = match dims.split_once('x') {
            Some((c, r)) => (c.parse::<u8>().ok()?, r.parse::<u8>().ok()?),
            None => (dims.parse::<u8>().ok()?, dims.parse::<u8>().ok()?),
        };
        return Some(Type::mat(c, r));
    }
    if let Some(sampler) = sampler_by_name(name) {
        return Some(Type::Sampler(sampler));
    }
    if let Some(image) = crate::check::types::image_type(name) {
        return Some(Type::Image(image));
    }
    if name == "atomic_uint" {
        return Some(Type::AtomicUint);
    }
    // Structs: by printed name (`S`, `S@3`) or Mesa's `S@0x…`.
    let printer_names: Vec<(Handle<StructType>, String)> = module
        .structs
        .iter()
        .map(|(h, _)| (h, super::format_type(module, &Type::Struct(h))))
        .collect();
    if let Some((h, _)) = printer_names.iter().find(|(_, n)| n == name) {
        return Some(Type::Struct(*h));
    }
    let bare = name.split('@').next().unwrap_or(name);
    module
        .structs
        .iter()
        .find(|(_, st)| st.name == bare)
        .map(|(h, _)| Type::Struct(h))
}

fn sampler_by_name(name: &str) -> Option<SamplerType> {
    let (kind, rest) = if let Some(r) = name.strip_prefix("isampler") {
        (ScalarKind::Int, r)
    } else if let Some(r) = name.strip_prefix("usampler") {
        (ScalarKind::Uint, r)
    } else {
        (ScalarKind::Float, name.strip_prefix("sampler")?)
    };
    let (rest, shadow) = match rest.strip_suffix("Shadow") {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (rest, arrayed) = match rest.strip_suffix("Array") {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let dim = match rest {
        "1D" => SamplerDim::D1,
        "2D" => SamplerDim::D2,
        "3D" => SamplerDim::D3,
        "Cube" => SamplerDim::Cube,
        "2DRect" => SamplerDim::Rect,
        "Buffer" => SamplerDim::Buffer,
        "2DMS" => SamplerDim::Ms,
        "ExternalOES" => SamplerDim::External,
        _ => return None,
    };
    Some(SamplerType {
        dim,
        arrayed,
        shadow,
        kind,
    })
}

struct Reader {
    module: Module,
    scopes: Vec<HashMap<String, Handle<Variable>>>,
    functions: HashMap<String, Handle<Function>>,
}

impl Reader {
    fn lookup(&self, name: &str) -> Result<Handle<Variable>, String> {
        self.scopes
            .iter()
            .rev()
            .find_map(|scope| scope.get(name).copied())
            .ok_or_else(|| format!("undeclared variable `{name}'"))
    }

    fn declare(&mut self, sexp: &Sexp) -> Result<Handle<Variable>, String> {
        let items = list(sexp)?;
        let [_, Sexp::List(quals), ty, Sexp::Atom(name)] = items else {
            return Err(format!("bad declare {sexp:?}"));
        };
        let ty = parse_type(&self.module, ty)?;
        // `x@3` is the printer's spelling of a second variable named `x`.
        let source_name = match name.rsplit_once('@') {
            Some((base, n)) if n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty() => base,
            _ => name.as_str(),
        };
        let source_name = if source_name == "parameter" && name.contains('@') {
            ""
        } else {
            source_name
        };
        let mut var = Variable::new(source_name, ty, VarMode::Auto);
        for qual in quals {
            let word = atom(qual)?;
            if let Some(n) = word.strip_prefix("binding=") {
                var.binding = n.parse().ok();
                continue;
            }
            if let Some(n) = word.strip_prefix("location=") {
                var.location = n.parse().ok();
                continue;
            }
            if let Some(n) = word.strip_prefix("format=") {
                let format = crate::hir::image::ImageFormat::from_name(n, false, |a, b| a == b)
                    .ok_or_else(|| format!("unknown image format `{n}'"))?;
                var.image_format = Some(format);
                continue;
            }
            // Interpolation is printed without a trailing space, so it can be
            // glued to the precision that follows.
            let mut word = word;
            for (interp, value) in [
                ("smooth", Interpolation::Smooth),
                ("flat", Interpolation::Flat),
                ("noperspective", Interpolation::NoPerspective),
            ] {
                if let Some(rest) = word.strip_prefix(interp) {
                    var.interpolation = Some(value);
                    word = rest;
                }
            }
            if let Some(n) = word.strip_prefix("stream").and_then(|n| n.parse().ok()) {
                var.stream = n;
                continue;
            }
            match word {
                "" => {}
                "centroid" => var.centroid = true,
                "readonly" => var.memory.read_only = true,
                "writeonly" => var.memory.write_only = true,
                "coherent" => var.memory.coherent = true,
                "volatile" => var.memory.volatile = true,
                "restrict" => var.memory.restrict = true,
                "invariant" => var.invariant = true,
                "sample" => var.sample = true,
                "precise" => var.precise = true,
                "uniform" => var.mode = VarMode::Uniform,
                "shader_in" => var.mode = VarMode::ShaderIn,
                "shader_out" => var.mode = VarMode::ShaderOut,
                "in" => var.mode = VarMode::FunctionIn,
                "out" => var.mode = VarMode::FunctionOut,
                "inout" => var.mode = VarMode::FunctionInout,
                "const_in" => var.mode = VarMode::ConstIn,
                "sys" => var.mode = VarMode::SystemValue,
                "shared" => var.mode = VarMode::Shared,
                "shader_storage" => var.mode = VarMode::ShaderStorage,
                "temporary" => var.mode = VarMode::Temporary,
                "highp" => var.precision = Some(Precision::High),
                "mediump" => var.precision = Some(Precision::Medium),
                "lowp" => var.precision = Some(Precision::Low),
                other => return Err(format!("unknown qualifier `{other}'")),
            }
        }
        var.is_builtin = name.starts_with("gl_");
        let handle = self.module.variables.append(var);
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.clone(), handle);
        }
        Ok(handle)
    }

    fn attach_constant(
        &mut self,
        var: Handle<Variable>,
        sexp: &Sexp,
        seen: &mut usize,
    ) -> Result<(), String> {
        let ty = self.module.variables[var].ty.clone();
        let (value, _) = self.constant(sexp)?;
        let variable = &mut self.module.variables[var];
        *seen += 1;
        if *seen == 1 {
            variable.constant_value = Some(value);
            if variable.mode != VarMode::Uniform {
                variable.read_only = true;
            }
        } else {
            // Two constants: initializer first, then value.
            variable.constant_initializer = variable.constant_value.take();
            variable.constant_value = Some(value);
        }
        let _ = ty;
        Ok(())
    }

    fn constant(&self, sexp: &Sexp) -> Result<(Constant, Type), String> {
        let items = list(sexp)?;
        let [_, ty, Sexp::List(values)] = items else {
            return Err(format!("bad constant {sexp:?}"));
        };
        let ty = parse_type(&self.module, ty)?;
        let value = match &ty {
            Type::Array(..) => Constant::Aggregate(
                values
                    .iter()
                    .map(|v| self.constant(v).map(|(c, _)| c))
                    .collect::<Result<_, _>>()?,
            ),
            Type::Struct(_) => {
                let mut fields = Vec::new();
                for field in values {
                    let [_, value] = list(field)? else {
                        return Err(format!("bad struct constant field {field:?}"));
                    };
                    fields.push(self.constant(value)?.0);
                }
                Constant::Aggregate(fields)
            }
            _ => {
                // An opaque uniform's constant is its unit: one int (the
                // checker's `opaque_binding_units`, Mesa's set_opaque_binding).
                let kind = if ty.is_opaque() {
                    ScalarKind::Int
                } else {
                    ty.scalar_kind().ok_or("constant of non-numeric type")?
                };
                let mut comps = crate::hir::Components::new();
                for v in values {
                    comps.push(parse_scalar(kind, atom(v)?)?);
                }
                Constant::Components(comps)
            }
        };
        Ok((value, ty))
    }

    fn function(&mut self, sexp: &Sexp) -> Result<(), String> {
        let items = list(sexp)?;
        let [_, Sexp::Atom(name), signatures @ ..] = items else {
            return Err(format!("bad function {sexp:?}"));
        };
        let handle = self.function_handle(name);
        self.module.functions[handle].signatures.clear();
        self.module.items.push(Item::Function(handle));
        for sig in signatures {
            let [_, ret, Sexp::List(params), Sexp::List(body)] = list(sig)? else {
                return Err(format!("bad signature {sig:?}"));
            };
            let return_type = parse_type(&self.module, ret)?;
            self.scopes.push(HashMap::new());
            let mut parameters = Vec::new();
            for param in params.iter().skip(1) {
                parameters.push(self.declare(param)?);
            }
            let body = self.block(body)?;
            self.scopes.pop();
            self.module.functions[handle].signatures.push(Signature {
                return_type,
                parameters,
                is_defined: !body.is_empty(),
                body,
                builtin: None,
            });
        }
        Ok(())
    }

    fn function_handle(&mut self, name: &str) -> Handle<Function> {
        if let Some(h) = self.functions.get(name) {
            return *h;
        }
        let h = self.module.functions.append(Function {
            name: name.to_string(),
            signatures: Vec::new(),
        });
        self.functions.insert(name.to_string(), h);
        h
    }

    fn block(&mut self, items: &[Sexp]) -> Result<Vec<Handle<Stmt>>, String> {
        let mut out = Vec::new();
        let mut pending_decl = None;
        let mut seen = 0;
        for item in items {
            if let (Some(var), Some("constant")) = (pending_decl, head(item)) {
                self.attach_constant(var, item, &mut seen)?;
                continue;
            }
            pending_decl = None;
            let stmt = self.stmt(item)?;
            if let Stmt::Declare(var) = stmt {
                pending_decl = Some(var);
                seen = 0;
            }
            out.push(self.module.stmts.append(stmt));
        }
        Ok(out)
    }

    fn stmt(&mut self, sexp: &Sexp) -> Result<Stmt, String> {
        if let Sexp::Atom(word) = sexp {
            return match word.as_str() {
                "break" => Ok(Stmt::Break),
                "continue" => Ok(Stmt::Continue),
                other => Err(format!("unknown statement `{other}'")),
            };
        }
        let items = list(sexp)?;
        let head = items.first().map(atom).transpose()?.unwrap_or("");
        Ok(match (head, &items[1..]) {
            ("declare", _) => Stmt::Declare(self.declare(sexp)?),
            ("assign", [Sexp::List(mask), lhs, rhs]) => {
                let mut write_mask = 0u8;
                for m in mask {
                    for c in atom(m)?.chars() {
                        let bit = "xyzw"
                            .find(c)
                            .ok_or_else(|| format!("bad mask letter `{c}'"))?;
                        write_mask |= 1 << bit;
                    }
                }
                Stmt::Assign {
                    lhs: self.expr(lhs)?,
                    rhs: self.expr(rhs)?,
                    write_mask,
                }
            }
            ("call", [Sexp::Atom(name), rest @ ..]) => {
                let (deref, args) = match rest {
                    [deref, Sexp::List(args)] => (Some(self.expr(deref)?), args),
                    [Sexp::List(args)] => (None, args),
                    _ => return Err(format!("bad call {sexp:?}")),
                };
                let args = args
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<Result<Vec<_>, _>>()?;
                let function = self.function_handle(name);
                if self.module.functions[function].signatures.is_empty() {
                    let return_type = match deref {
                        Some(d) => self.module.exprs[d].ty.clone(),
                        None => Type::Void,
                    };
                    self.module.functions[function].signatures.push(Signature {
                        return_type,
                        parameters: Vec::new(),
                        body: Vec::new(),
                        is_defined: false,
                        builtin: None,
                    });
                }
                Stmt::Call {
                    function,
                    signature: 0,
                    return_deref: deref,
                    args,
                }
            }
            ("return", []) => Stmt::Return(None),
            ("return", [value]) => Stmt::Return(Some(self.expr(value)?)),
            ("discard", []) => Stmt::Discard(None),
            ("discard", [cond]) => Stmt::Discard(Some(self.expr(cond)?)),
            ("if", [cond, Sexp::List(then_block), Sexp::List(else_block)]) => Stmt::If {
                condition: self.expr(cond)?,
                then_block: self.block(then_block)?,
                else_block: self.block(else_block)?,
            },
            ("loop", [Sexp::List(body)]) => Stmt::Loop {
                body: self.block(body)?,
            },
            ("emit-vertex", [_]) => Stmt::EmitVertex,
            ("end-primitive", [_]) => Stmt::EndPrimitive,
            _ => return Err(format!("unknown statement {sexp:?}")),
        })
    }

    fn add(&mut self, kind: ExprKind, ty: Type) -> Handle<Expr> {
        self.module.exprs.append(Expr { kind, ty })
    }

    fn expr(&mut self, sexp: &Sexp) -> Result<Handle<Expr>, String> {
        let items = list(sexp)?;
        let head = items.first().map(atom).transpose()?.unwrap_or("");
        match (head, &items[1..]) {
            ("var_ref", [Sexp::Atom(name)]) => {
                let var = self.lookup(name)?;
                let ty = self.module.variables[var].ty.clone();
                Ok(self.add(ExprKind::VarRef(var), ty))
            }
            ("array_ref", [base, index]) => {
                let base = self.expr(base)?;
                let index = self.expr(index)?;
                let ty = self.module.exprs[base]
                    .ty
                    .index_result()
                    .ok_or("array_ref of a non-indexable value")?;
                Ok(self.add(ExprKind::ArrayRef(base, index), ty))
            }
            ("record_ref", [base, Sexp::Atom(field)]) => {
                let base = self.expr(base)?;
                let Type::Struct(st) = self.module.exprs[base].ty else {
                    return Err("record_ref of a non-struct".into());
                };
                let (index, decl) = self.module.structs[st]
                    .fields
                    .iter()
                    .enumerate()
                    .find(|(_, f)| &f.name == field)
                    .ok_or_else(|| format!("no field `{field}'"))?;
                let ty = decl.ty.clone();
                Ok(self.add(ExprKind::RecordRef(base, index as u32), ty))
            }
            ("swiz", [Sexp::Atom(letters), base]) => {
                let base = self.expr(base)?;
                let kind = self.module.exprs[base]
                    .ty
                    .scalar_kind()
                    .ok_or("swizzle of a non-vector")?;
                let mut swizzle = Swizzle {
                    components: [0; 4],
                    len: 0,
                };
                for c in letters.chars() {
                    let i = "xyzw".find(c).ok_or("bad swizzle letter")?;
                    if swizzle.len == 4 {
                        return Err("swizzle too long".into());
                    }
                    swizzle.components[swizzle.len as usize] = i as u8;
                    swizzle.len += 1;
                }
                Ok(self.add(
                    ExprKind::Swizzle(base, swizzle),
                    Type::vec(kind, swizzle.len),
                ))
            }
            ("expression", [ty, Sexp::Atom(op), operands @ ..]) => {
                let ty = parse_type(&self.module, ty)?;
                let op = Op::from_spelling(op).ok_or_else(|| format!("unknown operator `{op}'"))?;
                let operands = operands
                    .iter()
                    .map(|o| self.expr(o))
                    .collect::<Result<crate::hir::Operands, _>>()?;
                Ok(self.add(ExprKind::Operation(op, operands), ty))
            }
            ("constant", _) => {
                let (value, ty) = self.constant(sexp)?;
                Ok(self.add(ExprKind::Constant(value), ty))
            }
            (
                op @ ("tex" | "txb" | "txl" | "txd" | "txf" | "txf_ms" | "txs" | "lod"
                | "query_levels" | "tg4"),
                [ty, rest @ ..],
            ) => {
                let op = match op {
                    "tex" => TexOp::Tex,
                    "txb" => TexOp::Txb,
                    "txl" => TexOp::Txl,
                    "txd" => TexOp::Txd,
                    "txf" => TexOp::Txf,
                    "txf_ms" => TexOp::TxfMs,
                    "txs" => TexOp::Txs,
                    "query_levels" => TexOp::QueryLevels,
                    "tg4" => TexOp::Tg4,
                    _ => TexOp::Lod,
                };
                let ty = parse_type(&self.module, ty)?;
                self.texture(op, ty, rest)
            }
            _ => Err(format!("unknown expression {sexp:?}")),
        }
    }

    /// An optional operand: `()` (absent) or the default atom means `None`.
    fn optional(&mut self, sexp: &Sexp) -> Result<Option<Handle<Expr>>, String> {
        match sexp {
            Sexp::Atom(_) => Ok(None),
            Sexp::List(items) if items.is_empty() => Ok(None),
            other => self.expr(other).map(Some),
        }
    }

    fn texture(&mut self, op: TexOp, ty: Type, fields: &[Sexp]) -> Result<Handle<Expr>, String> {
        let mut it = fields.iter();
        let mut next = || {
            it.next()
                .ok_or_else(|| format!("texture {op:?}: missing field"))
        };
        let sampler = next()?.clone();
        let sampler = self.expr(&sampler)?;
        let mut tex = Texture {
            op,
            sampler,
            coordinate: None,
            offset: None,
            projector: None,
            shadow_comparator: None,
            lod: None,
            grad: None,
        };
        let mut rest: Vec<&Sexp> = it.collect();
        rest.reverse();
        let mut take = || {
            rest.pop()
                .ok_or_else(|| format!("texture {op:?}: missing field"))
        };
        let query = matches!(op, TexOp::Txs | TexOp::QueryLevels);
        if !query {
            let coord = take()?;
            tex.coordinate = Some(self.expr(coord)?);
            if op != TexOp::Lod {
                take()?; // is_sparse
            }
            tex.offset = self.optional(take()?)?;
        }
        if !matches!(op, TexOp::Txf | TexOp::TxfMs) && !query {
            tex.projector = self.optional(take()?)?;
            tex.shadow_comparator = self.optional(take()?)?;
        }
        if matches!(op, TexOp::Tex | TexOp::Txb | TexOp::Txd) {
            take()?; // clamp
        }
        match op {
            TexOp::Tex | TexOp::Lod | TexOp::QueryLevels => {}
            TexOp::Txd => {
                let grad = list(take()?)?;
                let [dx, dy] = grad else {
                    return Err("txd needs two gradients".into());
                };
                tex.grad = Some((self.expr(dx)?, self.expr(dy)?));
            }
            _ => tex.lod = Some(self.expr(take()?)?),
        }
        Ok(self.add(ExprKind::Texture(Box::new(tex)), ty))
    }
}

fn parse_scalar(kind: ScalarKind, text: &str) -> Result<ScalarValue, String> {
    let bad = || format!("bad {} constant `{text}'", kind.name());
    Ok(match kind {
        ScalarKind::Float => ScalarValue::Float(parse_float(text).ok_or_else(bad)?),
        ScalarKind::Int => ScalarValue::Int(text.parse().map_err(|_| bad())?),
        ScalarKind::Uint => ScalarValue::Uint(text.parse().map_err(|_| bad())?),
        ScalarKind::Bool => match text {
            "1" => ScalarValue::Bool(true),
            "0" => ScalarValue::Bool(false),
            _ => return Err(bad()),
        },
    })
}

/// Parses `%f`, `%e`, `%a`, `inf` and `nan` spellings.
fn parse_float(text: &str) -> Option<f32> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    let magnitude = if let Some(hex) = body.strip_prefix("0x") {
        let (mantissa, exponent) = hex.split_once('p')?;
        let exponent: i32 = exponent.parse().ok()?;
        let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let mut value = u64::from_str_radix(int_part, 16).ok()? as f64;
        let mut scale = 1.0 / 16.0;
        for digit in frac_part.chars() {
            value += digit.to_digit(16)? as f64 * scale;
            scale /= 16.0;
        }
        (value * 2f64.powi(exponent)) as f32
    } else if body == "nan" {
        f32::NAN
    } else {
        body.parse::<f32>().ok()?
    };
    Some(if negative { -magnitude } else { magnitude })
}
