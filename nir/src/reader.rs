//! The reader: parses the text printed by [`crate::print`] back into a [`Shader`].
//!
//! Malformed input never panics: every failure is a [`ParseError`] with a 1-based line
//! and column. SSA values and blocks may be referenced before their definition (phis on
//! loop back edges); unresolved references are reported at the end of the impl. The
//! CFG is recomputed from the control-flow tree, so `// preds`/`// succs` comments are
//! ignored on input.

use crate::arena::EntityRef;
use crate::intrinsics::{AtomicOp, IndexKind, IntrinsicOp, Scope};
use crate::ir::names;
use crate::ir::*;
use crate::opcodes::Opcode;
use std::collections::HashMap;
use std::fmt;

/// A located parse error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

type Res<T> = Result<T, ParseError>;

/// Deepest if/loop nesting the reader accepts (keeps the recursive walks bounded).
pub const MAX_NESTING: usize = 512;

/// A cursor over one line.
struct Lex<'a> {
    s: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Lex<'a> {
    fn err<T>(&self, message: impl Into<String>) -> Res<T> {
        Err(ParseError {
            line: self.line,
            col: self.pos + 1,
            message: message.into(),
        })
    }
    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }
    fn ws(&mut self) {
        while self.rest().starts_with(' ') || self.rest().starts_with('\t') {
            self.pos += 1;
        }
    }
    fn eat(&mut self, t: &str) -> bool {
        self.ws();
        if self.rest().starts_with(t) {
            self.pos += t.len();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &str) -> Res<()> {
        if self.eat(t) {
            Ok(())
        } else {
            let found: String = self.rest().chars().take(20).collect();
            self.err(format!("expected `{t}`, found `{found}`"))
        }
    }
    fn at_end(&mut self) -> bool {
        self.ws();
        self.rest().is_empty()
    }
    fn end(&mut self) -> Res<()> {
        if self.at_end() {
            Ok(())
        } else {
            let found: String = self.rest().chars().take(20).collect();
            self.err(format!("unexpected trailing text `{found}`"))
        }
    }
    /// A word of identifier-ish characters.
    fn word(&mut self) -> Res<&'a str> {
        self.ws();
        let r = self.rest();
        let n = r
            .char_indices()
            .find(|(_, c)| {
                !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '~' | '[' | ']' | '-' | '$'))
            })
            .map(|(i, _)| i)
            .unwrap_or(r.len());
        if n == 0 {
            let found: String = r.chars().take(20).collect();
            return self.err(format!("expected a name, found `{found}`"));
        }
        self.pos += n;
        Ok(&r[..n])
    }
    fn number<T: std::str::FromStr>(&mut self) -> Res<T> {
        self.ws();
        let r = self.rest();
        let n = r
            .char_indices()
            .find(|(i, c)| !(c.is_ascii_digit() || (*i == 0 && *c == '-')))
            .map(|(i, _)| i)
            .unwrap_or(r.len());
        match r[..n].parse() {
            Ok(v) if n > 0 => {
                self.pos += n;
                Ok(v)
            }
            _ => self.err("expected a number"),
        }
    }
    fn hex(&mut self) -> Res<u64> {
        self.ws();
        if !self.rest().starts_with("0x") {
            return self.err("expected a hex constant");
        }
        self.pos += 2;
        let r = self.rest();
        let n = r.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(r.len());
        match u64::from_str_radix(&r[..n], 16) {
            Ok(v) if n > 0 => {
                self.pos += n;
                Ok(v)
            }
            _ => self.err("bad hex constant"),
        }
    }
    /// Skips a balanced parenthesised group (inline constant annotations).
    fn skip_group(&mut self) -> Res<()> {
        self.ws();
        if !self.rest().starts_with('(') {
            return Ok(());
        }
        let mut depth = 0usize;
        for (i, c) in self.rest().char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += i + 1;
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        self.err("unbalanced parenthesis")
    }
}

/// Parses a def size `32`, `32x4`.
fn parse_size(lx: &mut Lex) -> Res<(u8, u8)> {
    let bits: u8 = lx.number()?;
    if !matches!(bits, 1 | 8 | 16 | 32 | 64) {
        return lx.err(format!("invalid bit size {bits}"));
    }
    let comps = if lx.rest().starts_with('x') {
        lx.pos += 1;
        let c: u8 = lx.number()?;
        if !(1..=16).contains(&c) {
            return lx.err(format!("invalid component count {c}"));
        }
        c
    } else {
        1
    };
    Ok((comps, bits))
}

struct ImplCtx {
    func: FunctionImpl,
    defs: HashMap<u32, Def>,
    defined: HashMap<Def, bool>,
    first_use: HashMap<Def, (usize, usize)>,
    blocks: HashMap<u32, Block>,
    phi_fixups: Vec<(Instr, usize, u32, usize, usize)>,
    /// Stack of (parent list, node for if/loop, in_else).
    stack: Vec<(CfParent, Option<CfNode>)>,
    cur_block: Option<Block>,
    locals: HashMap<String, VarId>,
}

impl ImplCtx {
    fn def_ref(&mut self, lx: &mut Lex) -> Res<Def> {
        lx.ws();
        let (line, col) = (lx.line, lx.pos + 1);
        lx.expect("%")?;
        let n: u32 = lx.number()?;
        if let Some(d) = self.defs.get(&n) {
            return Ok(*d);
        }
        let d = self.func.defs.push(DefData {
            instr: Instr::new(0),
            num_components: 0,
            bit_size: 0,
        });
        self.defs.insert(n, d);
        self.first_use.insert(d, (line, col));
        Ok(d)
    }
    fn define(&mut self, lx: &Lex, n: u32, instr: Instr, comps: u8, bits: u8) -> Res<Def> {
        let d = match self.defs.get(&n) {
            Some(d) => *d,
            None => {
                let d = self.func.defs.push(DefData {
                    instr,
                    num_components: comps,
                    bit_size: bits,
                });
                self.defs.insert(n, d);
                d
            }
        };
        if self.defined.insert(d, true).is_some() {
            return lx.err(format!("%{n} is defined twice"));
        }
        self.func.defs[d] = DefData {
            instr,
            num_components: comps,
            bit_size: bits,
        };
        Ok(d)
    }
}

/// Parses a shader.
pub fn parse_shader(text: &str) -> Res<Shader> {
    let lines: Vec<&str> = text.lines().collect();
    let mut shader = Shader::new(Stage::Vertex);
    let mut idx = 0;
    let mut saw_stage = false;
    let mut funcs_by_name: HashMap<String, FuncId> = HashMap::new();
    // Pre-scan function declarations so calls may refer to later functions.
    for (i, line) in lines.iter().enumerate() {
        if let Some(rest) = line.strip_prefix("decl_function ") {
            let mut lx = Lex {
                s: rest,
                pos: 0,
                line: i + 1,
            };
            let name = lx.word()?.to_string();
            if funcs_by_name.contains_key(&name) {
                return lx.err(format!("function `{name}` declared twice"));
            }
            let id = shader.add_function(&name, false);
            funcs_by_name.insert(name, id);
        }
    }
    while idx < lines.len() {
        let line_no = idx + 1;
        let line = lines[idx];
        idx += 1;
        let mut lx = Lex {
            s: line,
            pos: 0,
            line: line_no,
        };
        if lx.at_end() || line.trim_start().starts_with("//") {
            continue;
        }
        if let Some((key, value)) = line.split_once(": ").filter(|(k, _)| !k.contains(' ')) {
            let value = value.trim_end();
            let parse_u32 = |v: &str| {
                v.parse::<u32>().map_err(|_| ParseError {
                    line: line_no,
                    col: key.len() + 3,
                    message: format!("bad number `{v}`"),
                })
            };
            let flag = |v: &str| -> Res<bool> {
                match v {
                    "true" => Ok(true),
                    "false" => Ok(false),
                    _ => Err(ParseError {
                        line: line_no,
                        col: key.len() + 3,
                        message: format!("expected true/false, found `{v}`"),
                    }),
                }
            };
            match key {
                "shader" => {
                    shader.stage = Stage::ALL
                        .iter()
                        .find(|(_, n)| *n == value)
                        .map(|(s, _)| *s)
                        .ok_or_else(|| ParseError {
                            line: line_no,
                            col: 9,
                            message: format!("unknown stage `{value}`"),
                        })?;
                    saw_stage = true;
                }
                "name" => shader.info.name = Some(value.to_string()),
                "label" => shader.info.label = Some(value.to_string()),
                "internal" => shader.info.internal = flag(value)?,
                "io_lowered" => shader.info.io_lowered = flag(value)?,
                "uses_discard" => shader.info.uses_discard = flag(value)?,
                "input_primitive" | "output_primitive" => {
                    let prim = crate::ir::Primitive::ALL
                        .iter()
                        .find(|(_, n)| *n == value)
                        .map(|(p, _)| *p)
                        .ok_or_else(|| ParseError {
                            line: line_no,
                            col: key.len() + 3,
                            message: format!("unknown primitive `{value}`"),
                        })?;
                    let gs = shader.info.gs.get_or_insert_with(Default::default);
                    if key == "input_primitive" {
                        gs.input_primitive = prim;
                    } else {
                        gs.output_primitive = prim;
                    }
                }
                "vertices_in" | "vertices_out" | "invocations" => {
                    let n = parse_u32(value)?;
                    let gs = shader.info.gs.get_or_insert_with(Default::default);
                    match key {
                        "vertices_in" => gs.vertices_in = n,
                        "vertices_out" => gs.vertices_out = n,
                        _ => gs.invocations = n,
                    }
                }
                "workgroup_size" => {
                    let mut size = [0u32; 3];
                    let parts: Vec<&str> = value.split(", ").collect();
                    if parts.len() != 3 {
                        return lx.err("expected `workgroup_size: X, Y, Z`");
                    }
                    for (slot, part) in size.iter_mut().zip(parts) {
                        *slot = parse_u32(part)?;
                    }
                    shader.info.workgroup_size = Some(size);
                }
                "shared" => shader.info.shared_size = parse_u32(value)?,
                "inputs" => shader.info.num_inputs = parse_u32(value)?,
                "outputs" => shader.info.num_outputs = parse_u32(value)?,
                "uniforms" => shader.info.num_uniforms = parse_u32(value)?,
                _ => return lx.err(format!("unknown header key `{key}`")),
            }
            continue;
        }
        if !saw_stage {
            return lx.err("expected `shader: MESA_SHADER_...` first");
        }
        if line.starts_with("decl_struct ") {
            parse_struct(&mut shader, &mut lx)?;
        } else if line.starts_with("decl_var ") {
            let var = parse_var(&shader, &mut lx, false)?;
            shader.add_global(var);
        } else if let Some(rest) = line.strip_prefix("decl_function ") {
            let mut lx = Lex {
                s: rest,
                pos: 0,
                line: line_no,
            };
            let name = lx.word()?;
            let id = funcs_by_name[name];
            lx.expect("(")?;
            let mut params = Vec::new();
            if !lx.eat(")") {
                loop {
                    let (c, b) = parse_size(&mut lx)?;
                    let pname = lx.word()?.to_string();
                    params.push((pname, c, b));
                    if lx.eat(")") {
                        break;
                    }
                    lx.expect(",")?;
                }
            }
            shader.functions[id].params = params;
            if lx.eat("(entrypoint)") {
                shader.functions[id].is_entrypoint = true;
            }
            lx.end()?;
        } else if let Some(rest) = line.strip_prefix("impl ") {
            let mut lx = Lex {
                s: rest,
                pos: 0,
                line: line_no,
            };
            let name = lx.word()?;
            lx.expect("{")?;
            lx.end()?;
            let Some(&id) = funcs_by_name.get(name) else {
                return lx.err(format!("impl of undeclared function `{name}`"));
            };
            if shader.functions[id].body.is_some() {
                return lx.err(format!("function `{name}` has two impls"));
            }
            let (body, next) = parse_impl(&mut shader, &lines, idx, &funcs_by_name)?;
            shader.functions[id].body = Some(body);
            idx = next;
        } else {
            return lx.err("expected a declaration or `impl`");
        }
    }
    if !saw_stage {
        return Err(ParseError {
            line: 1,
            col: 1,
            message: "empty shader text".into(),
        });
    }
    Ok(shader)
}

fn parse_struct(shader: &mut Shader, lx: &mut Lex) -> Res<()> {
    lx.expect("decl_struct")?;
    let name = lx.word()?.to_string();
    if shader.structs.iter().any(|s| s.name == name) {
        return lx.err(format!("struct `{name}` declared twice"));
    }
    lx.expect("{")?;
    // Register first so fields may not refer to the struct itself (no recursion) but
    // later structs can refer to it.
    let mut fields = Vec::new();
    let mut layouts = Vec::new();
    let mut offsets = Vec::new();
    while !lx.eat("}") {
        if lx.eat("@") {
            offsets.push(lx.number::<u32>()?);
        }
        let mut tyname = lx.word()?;
        let mut layout = FieldLayout::Inherit;
        for l in [FieldLayout::RowMajor, FieldLayout::ColumnMajor] {
            if Some(tyname) == l.keyword() {
                layout = l;
                tyname = lx.word()?;
            }
        }
        layouts.push(layout);
        let Some(ty) = Type::parse(tyname, &shader.structs) else {
            return lx.err(format!("unknown type `{}`", short(tyname)));
        };
        let fname = lx.word()?.to_string();
        lx.expect(";")?;
        fields.push((fname, ty));
    }
    lx.end()?;
    if layouts.iter().all(|l| *l == FieldLayout::Inherit) {
        layouts.clear();
    }
    if !offsets.is_empty() && offsets.len() != fields.len() {
        return lx.err(format!(
            "struct `{name}`: {} of {} fields have an explicit offset (`@N`); all or none must",
            offsets.len(),
            fields.len()
        ));
    }
    shader.structs.push(StructDef {
        name,
        fields,
        layouts,
        offsets,
    });
    Ok(())
}

fn parse_var(shader: &Shader, lx: &mut Lex, local: bool) -> Res<Variable> {
    lx.ws();
    lx.expect("decl_var ")?;
    let mut flags = (false, false, false);
    let mut packing = Packing::Std140;
    loop {
        if lx.rest().starts_with("std430 ") {
            lx.pos += 7;
            packing = Packing::Std430;
            continue;
        }
        if lx.rest().starts_with("centroid ") {
            lx.pos += 9;
            flags.0 = true;
        } else if lx.rest().starts_with("sample ") {
            lx.pos += 7;
            flags.1 = true;
        } else if lx.rest().starts_with("invariant ") {
            lx.pos += 10;
            flags.2 = true;
        } else {
            break;
        }
    }
    let mode = if lx.rest().starts_with(' ') {
        if local {
            VarMode::FunctionTemp
        } else {
            VarMode::ShaderTemp
        }
    } else {
        let w = lx.word()?;
        match w {
            "shader_in" => VarMode::ShaderIn,
            "shader_out" => VarMode::ShaderOut,
            "uniform" => VarMode::Uniform,
            "ubo" => VarMode::Ubo,
            "system" => VarMode::SystemValue,
            "ssbo" => VarMode::Ssbo,
            "shared" => VarMode::Shared,
            _ => return lx.err(format!("unknown variable mode `{w}`")),
        }
    };
    let interp_word = lx.word()?;
    let Some(&(interp, _)) = Interp::ALL.iter().find(|(_, n)| *n == interp_word) else {
        return lx.err(format!("unknown interpolation `{interp_word}`"));
    };
    lx.ws();
    let rest = lx.rest();
    let access_word = &rest[..rest.find([' ', '\t']).unwrap_or(rest.len())];
    lx.pos += access_word.len();
    let Some(access) = names::parse_access(access_word) else {
        return lx.err(format!("bad access `{}`", short(access_word)));
    };
    let tyname = lx.word()?;
    let Some(ty) = Type::parse(tyname, &shader.structs) else {
        return lx.err(format!("unknown type `{}`", short(tyname)));
    };
    let name = lx.word()?;
    let mut var = Variable::new(name, mode, ty);
    var.interp = interp;
    (var.centroid, var.sample, var.invariant) = flags;
    var.access = access;
    var.packing = packing;
    if lx.eat("(") {
        let loc_word = lx.word()?;
        let (loc, comps) = match loc_word.split_once('.') {
            Some((l, c)) => (l, Some(c)),
            None => (loc_word, None),
        };
        let Some(location) = names::parse_location(loc) else {
            return lx.err(format!("unknown location `{loc}`"));
        };
        var.location = location;
        if let Some(c) = comps {
            match c.bytes().next().and_then(names::component_of) {
                Some(first) if first < 4 => var.location_frac = first,
                _ => return lx.err(format!("bad component list `{c}`")),
            }
        }
        if mode != VarMode::SystemValue {
            lx.expect(",")?;
            var.driver_location = lx.number()?;
            lx.expect(",")?;
            var.binding = lx.number()?;
        }
        lx.expect(")")?;
    }
    if lx.eat("=") {
        lx.expect("{")?;
        let mut init = Vec::new();
        while !lx.eat("}") {
            if !init.is_empty() {
                lx.expect(",")?;
            }
            init.push(lx.hex()?);
        }
        var.init = Some(init);
    }
    lx.end()?;
    Ok(var)
}

fn parse_impl(
    shader: &mut Shader,
    lines: &[&str],
    mut idx: usize,
    funcs: &HashMap<String, FuncId>,
) -> Res<(FunctionImpl, usize)> {
    let mut cx = ImplCtx {
        func: FunctionImpl::new_empty(),
        defs: HashMap::new(),
        defined: HashMap::new(),
        first_use: HashMap::new(),
        blocks: HashMap::new(),
        phi_fixups: Vec::new(),
        stack: vec![(CfParent::Root, None)],
        cur_block: None,
        locals: HashMap::new(),
    };
    let mut last_block_line: Option<(u32, usize)> = None;
    loop {
        let Some(line) = lines.get(idx) else {
            return Err(ParseError {
                line: idx,
                col: 1,
                message: "unterminated impl (missing `}`)".into(),
            });
        };
        idx += 1;
        let line_no = idx;
        // Strip a trailing comment, remembering `// exact`.
        let (code, comment) = match line.find("//") {
            Some(p) => (&line[..p], line[p + 2..].trim()),
            None => (*line, ""),
        };
        let mut lx = Lex {
            s: code,
            pos: 0,
            line: line_no,
        };
        if lx.at_end() {
            continue;
        }
        let trimmed = code.trim();
        if trimmed == "}" {
            let (parent, node) = match cx.stack.pop() {
                Some(top) => top,
                None => return lx.err("unbalanced `}`"),
            };
            cx.cur_block = None;
            if parent == CfParent::Root {
                finish_impl(&mut cx, last_block_line, line_no)?;
                return Ok((cx.func, idx));
            }
            let _ = node;
            continue;
        }
        if trimmed == "} else {" {
            match cx.stack.pop() {
                Some((CfParent::Then(n), _)) => cx.stack.push((CfParent::Else(n), Some(n))),
                _ => return lx.err("`} else {` without a matching `if`"),
            }
            cx.cur_block = None;
            continue;
        }
        let parent = cx.stack.last().map(|s| s.0).unwrap_or(CfParent::Root);
        if trimmed.starts_with("decl_var ") {
            if cx.func.body.first.is_some() {
                return lx.err("local variables must come before the first block");
            }
            let var = parse_var(shader, &mut lx, true)?;
            let name = var.name.clone();
            let id = shader.variables.push(var);
            cx.func.locals.push(id);
            cx.locals.insert(name, id);
            continue;
        }
        if trimmed.starts_with("block ") {
            lx.expect("block")?;
            lx.expect("b")?;
            let n: u32 = lx.number()?;
            lx.expect(":")?;
            lx.end()?;
            if cx.blocks.contains_key(&n) {
                return lx.err(format!("block b{n} defined twice"));
            }
            let block = cx.func.blocks.push(BlockData::default());
            cx.blocks.insert(n, block);
            let node = cx.func.append_cf(parent, CfKind::Block(block));
            cx.func.blocks[block].cf = Some(node);
            cx.cur_block = Some(block);
            last_block_line = (parent == CfParent::Root).then_some((n, line_no));
            continue;
        }
        if (trimmed.starts_with("if ") || trimmed == "loop {") && cx.stack.len() > MAX_NESTING {
            return lx.err(format!(
                "control flow nested deeper than {MAX_NESTING} levels"
            ));
        }
        if trimmed.starts_with("if ") {
            lx.expect("if")?;
            let cond = cx.def_ref(&mut lx)?;
            lx.expect("{")?;
            lx.end()?;
            let node = cx.func.append_cf(
                parent,
                CfKind::If {
                    cond,
                    then_list: CfList::default(),
                    else_list: CfList::default(),
                },
            );
            cx.stack.push((CfParent::Then(node), Some(node)));
            cx.cur_block = None;
            last_block_line = None;
            continue;
        }
        if trimmed == "loop {" {
            let node = cx.func.append_cf(
                parent,
                CfKind::Loop {
                    body: CfList::default(),
                },
            );
            cx.stack.push((CfParent::Loop(node), Some(node)));
            cx.cur_block = None;
            last_block_line = None;
            continue;
        }
        let Some(block) = cx.cur_block else {
            return lx.err("instruction outside of a block");
        };
        let instr = parse_instr(shader, &mut cx, &mut lx, comment == "exact", funcs)?;
        cx.func.link_instr_at_end(block, instr);
    }
}

fn finish_impl(cx: &mut ImplCtx, last_block: Option<(u32, usize)>, close_line: usize) -> Res<()> {
    // The last top-level block is the end block when it is empty and follows a block.
    let Some((n, line)) = last_block else {
        return Err(ParseError {
            line: close_line,
            col: 1,
            message: "impl must end with its end block".into(),
        });
    };
    let Some(&block) = cx.blocks.get(&n) else {
        return Err(ParseError {
            line,
            col: 1,
            message: "internal: end block not recorded".into(),
        });
    };
    let Some(node) = cx.func.blocks[block].cf else {
        return Err(ParseError {
            line,
            col: 1,
            message: "end block is not in the tree".into(),
        });
    };
    if cx.func.blocks[block].first.is_some() {
        return Err(ParseError {
            line,
            col: 1,
            message: format!("the end block b{n} must be empty"),
        });
    }
    cx.func.remove_cf(node);
    // Re-point the reserved end block: swap the parsed block's identity with it.
    let end = cx.func.end_block;
    cx.blocks.insert(n, end);
    for (instr, slot, bn, line, col) in std::mem::take(&mut cx.phi_fixups) {
        let Some(&b) = cx.blocks.get(&bn) else {
            return Err(ParseError {
                line,
                col,
                message: format!("unknown block b{bn}"),
            });
        };
        if let InstrKind::Phi(srcs) = &mut cx.func.instrs[instr].kind {
            if let Some(entry) = srcs.get_mut(slot) {
                entry.0 = b;
            }
        }
    }
    for (d, (line, col)) in &cx.first_use {
        if !cx.defined.contains_key(d) {
            return Err(ParseError {
                line: *line,
                col: *col,
                message: "use of an undefined SSA value".into(),
            });
        }
    }
    cx.func.recompute_cfg();
    Ok(())
}

fn parse_instr(
    shader: &Shader,
    cx: &mut ImplCtx,
    lx: &mut Lex,
    exact: bool,
    funcs: &HashMap<String, FuncId>,
) -> Res<Instr> {
    lx.ws();
    let instr = cx.func.instrs.push(InstrData {
        kind: InstrKind::Undef,
        def: None,
    });
    let first = lx.rest().as_bytes().first().copied().unwrap_or(b' ');
    let def = if first.is_ascii_digit() {
        let (comps, bits) = parse_size(lx)?;
        lx.expect("%")?;
        let n: u32 = lx.number()?;
        lx.expect("=")?;
        let d = cx.define(lx, n, instr, comps, bits)?;
        cx.func.instrs[instr].def = Some(d);
        Some(d)
    } else {
        None
    };
    let kind = if lx.eat("@") {
        parse_intrinsic(shader, cx, lx, def)?
    } else if lx.rest().starts_with('(') {
        parse_tex(cx, lx)?
    } else {
        let word = lx.word()?;
        match word {
            "load_const" => {
                let Some(d) = def else {
                    return lx.err("load_const needs a destination");
                };
                let bits = cx.func.defs[d].bit_size;
                lx.expect("(")?;
                let mut values = Vec::new();
                while !lx.eat(")") {
                    if !values.is_empty() {
                        lx.expect(",")?;
                    }
                    if lx.eat("true") {
                        values.push(1);
                    } else if lx.eat("false") {
                        values.push(0);
                    } else {
                        values.push(lx.hex()? & crate::opcodes::mask(bits));
                        if lx.eat("=") {
                            // Skip the interpretation up to the next `,` or `)`.
                            let r = lx.rest();
                            let n = r.find([',', ')']).unwrap_or(r.len());
                            lx.pos += n;
                        }
                    }
                }
                if values.len() != usize::from(cx.func.defs[d].num_components) {
                    return lx.err("load_const value count differs from the destination size");
                }
                InstrKind::LoadConst(values)
            }
            "undefined" => InstrKind::Undef,
            "phi" => {
                let mut srcs = Vec::new();
                if !lx.at_end() {
                    loop {
                        lx.ws();
                        let (line, col) = (lx.line, lx.pos + 1);
                        lx.expect("b")?;
                        let bn: u32 = lx.number()?;
                        lx.expect(":")?;
                        let d = cx.def_ref(lx)?;
                        cx.phi_fixups.push((instr, srcs.len(), bn, line, col));
                        srcs.push((Block::new(0), d));
                        if !lx.eat(",") {
                            break;
                        }
                    }
                }
                InstrKind::Phi(srcs)
            }
            "break" => InstrKind::Jump(JumpKind::Break),
            "continue" => InstrKind::Jump(JumpKind::Continue),
            "return" => InstrKind::Jump(JumpKind::Return),
            "halt" => InstrKind::Jump(JumpKind::Halt),
            "call" => {
                let name = lx.word()?;
                let Some(&callee) = funcs.get(name) else {
                    return lx.err(format!("call of undeclared function `{name}`"));
                };
                let mut args = Vec::new();
                if !lx.at_end() {
                    loop {
                        args.push(cx.def_ref(lx)?);
                        if !lx.eat(",") {
                            break;
                        }
                    }
                }
                InstrKind::Call { callee, args }
            }
            "parallel_copy" => {
                let mut entries = Vec::new();
                if !lx.at_end() {
                    loop {
                        let (comps, bits) = parse_size(lx)?;
                        lx.expect("%")?;
                        let n: u32 = lx.number()?;
                        let d = cx.define(lx, n, instr, comps, bits)?;
                        lx.expect("=")?;
                        let s = cx.def_ref(lx)?;
                        entries.push((d, s));
                        if !lx.eat(",") {
                            break;
                        }
                    }
                }
                InstrKind::ParallelCopy(entries)
            }
            "deref_var" | "deref_array" | "deref_struct" | "deref_cast" => {
                parse_deref(shader, cx, lx, word)?
            }
            op => match op.parse::<Opcode>() {
                Ok(op) => {
                    let mut srcs = Vec::new();
                    for i in 0..op.info().num_inputs() {
                        if i > 0 {
                            lx.expect(",")?;
                        }
                        let d = cx.def_ref(lx)?;
                        let mut src = AluSrc::new(d);
                        if lx.rest().starts_with('.') {
                            lx.pos += 1;
                            let r = lx.rest();
                            let n = r.find(|c: char| !c.is_ascii_lowercase()).unwrap_or(r.len());
                            if n == 0 || n > 16 {
                                return lx.err("bad swizzle");
                            }
                            for (k, c) in r[..n].bytes().enumerate() {
                                match names::component_of(c) {
                                    Some(v) => src.swizzle[k] = v,
                                    None => {
                                        return lx
                                            .err(format!("bad swizzle letter `{}`", c as char))
                                    }
                                }
                            }
                            lx.pos += n;
                        }
                        lx.skip_group()?;
                        srcs.push(src);
                    }
                    InstrKind::Alu(Alu {
                        op,
                        srcs: srcs.into(),
                        exact,
                    })
                }
                Err(()) => return lx.err(format!("unknown instruction `{}`", short(op))),
            },
        }
    };
    lx.end()?;
    let needs_def = match &kind {
        InstrKind::Alu(_)
        | InstrKind::Deref(_)
        | InstrKind::Tex(_)
        | InstrKind::LoadConst(_)
        | InstrKind::Undef
        | InstrKind::Phi(_) => Some(true),
        InstrKind::Jump(_) | InstrKind::Call { .. } | InstrKind::ParallelCopy(_) => Some(false),
        InstrKind::Intrinsic(i) => Some(i.op.info().dest_components.is_some()),
    };
    match (needs_def, def.is_some()) {
        (Some(true), false) => return lx.err("this instruction needs a destination"),
        (Some(false), true) => return lx.err("this instruction has no destination"),
        _ => {}
    }
    cx.func.instrs[instr].kind = kind;
    Ok(instr)
}

fn parse_deref_suffix(shader: &Shader, lx: &mut Lex) -> Res<(VarMode, Type)> {
    lx.expect("(")?;
    let m = lx.word()?;
    let Some(mode) = VarMode::from_deref_name(m) else {
        return lx.err(format!("unknown mode `{m}`"));
    };
    let t = lx.word()?;
    let Some(ty) = Type::parse(t, &shader.structs) else {
        return lx.err(format!("unknown type `{}`", short(t)));
    };
    lx.expect(")")?;
    Ok((mode, ty))
}

fn parse_deref(shader: &Shader, cx: &mut ImplCtx, lx: &mut Lex, word: &str) -> Res<InstrKind> {
    let kind = match word {
        "deref_var" => {
            lx.expect("&")?;
            let name = lx.word()?;
            let var = cx.locals.get(name).copied().or_else(|| {
                shader
                    .globals
                    .iter()
                    .copied()
                    .find(|v| shader.variables.get(*v).is_some_and(|v| v.name == name))
            });
            match var {
                Some(v) => DerefKind::Var(v),
                None => return lx.err(format!("unknown variable `{}`", short(name))),
            }
        }
        "deref_array" => {
            lx.expect("&(*")?;
            let parent = cx.def_ref(lx)?;
            lx.expect(")[")?;
            if lx.eat("*") {
                lx.expect("]")?;
                DerefKind::ArrayWildcard { parent }
            } else {
                let index = cx.def_ref(lx)?;
                lx.expect("]")?;
                DerefKind::Array { parent, index }
            }
        }
        "deref_struct" => {
            lx.expect("&")?;
            let parent = cx.def_ref(lx)?;
            lx.expect("->")?;
            let fname = lx.word()?;
            let pty = cx
                .func
                .defs
                .get(parent)
                .and_then(|d| cx.func.instrs.get(d.instr))
                .and_then(|i| match &i.kind {
                    InstrKind::Deref(d) => Some(d.ty.clone()),
                    _ => None,
                });
            let field = match pty {
                Some(Type::Struct(id)) => shader
                    .structs
                    .get(id.index())
                    .and_then(|s| s.fields.iter().position(|f| f.0 == fname)),
                _ => None,
            };
            match field {
                Some(f) => DerefKind::Struct {
                    parent,
                    field: f as u32,
                },
                None => {
                    return lx.err(format!(
                        "`{fname}` is not a field of the parent deref's struct type"
                    ))
                }
            }
        }
        _ => {
            lx.expect("(")?;
            let t = lx.word()?;
            if Type::parse(t, &shader.structs).is_none() {
                return lx.err(format!("unknown type `{}`", short(t)));
            }
            lx.expect("*)")?;
            let parent = cx.def_ref(lx)?;
            let (mode, ty) = parse_deref_suffix(shader, lx)?;
            lx.expect("(ptr_stride=")?;
            let ptr_stride = lx.number()?;
            lx.expect(")")?;
            return Ok(InstrKind::Deref(Deref {
                kind: DerefKind::Cast { parent, ptr_stride },
                mode,
                ty,
            }));
        }
    };
    let (mode, ty) = parse_deref_suffix(shader, lx)?;
    Ok(InstrKind::Deref(Deref { kind, mode, ty }))
}

fn parse_intrinsic(
    shader: &Shader,
    cx: &mut ImplCtx,
    lx: &mut Lex,
    def: Option<Def>,
) -> Res<InstrKind> {
    let _ = shader;
    let name = lx.word()?;
    let Ok(op) = name.parse::<IntrinsicOp>() else {
        return lx.err(format!("unknown intrinsic `{}`", short(name)));
    };
    let info = op.info();
    lx.expect("(")?;
    let mut srcs = Vec::new();
    while !lx.eat(")") {
        if !srcs.is_empty() {
            lx.expect(",")?;
        }
        srcs.push(cx.def_ref(lx)?);
        lx.skip_group()?;
    }
    let mut indices = vec![0u32; info.indices.len()];
    if lx.eat("(") {
        let mut k = 0;
        while !lx.eat(")") {
            if k > 0 {
                lx.expect(",")?;
            }
            let Some(&kind) = info.indices.get(k) else {
                return lx.err(format!("too many indices for `{name}`"));
            };
            lx.ws();
            if kind == IndexKind::IoSemantics {
                lx.expect("io location=")?;
                let w = lx.word()?;
                let Some(loc) = names::parse_location(w) else {
                    return lx.err(format!("unknown location `{w}`"));
                };
                lx.expect("slots=")?;
                let slots: u32 = lx.number()?;
                indices[k] = (loc as u32 & 0xffff) | (slots << 16);
            } else {
                lx.expect(kind.name())?;
                lx.expect("=")?;
                indices[k] = match kind {
                    IndexKind::WriteMask => {
                        let r = lx.rest();
                        let n = r.find(|c: char| !c.is_ascii_lowercase()).unwrap_or(r.len());
                        let mut m = 0u32;
                        for c in r[..n].bytes() {
                            match names::component_of(c) {
                                Some(v) => m |= 1 << v,
                                None => return lx.err("bad write mask"),
                            }
                        }
                        lx.pos += n;
                        m
                    }
                    IndexKind::Access | IndexKind::DstAccess | IndexKind::SrcAccess => {
                        let r = lx.rest();
                        let n = r.find([',', ')']).unwrap_or(r.len());
                        let text = r[..n].trim();
                        lx.pos += n;
                        match names::parse_access(text) {
                            Some(v) => v,
                            None => return lx.err(format!("bad access `{text}`")),
                        }
                    }
                    IndexKind::DestType | IndexKind::SrcType => {
                        let w = lx.word()?;
                        if w == "invalid" {
                            0
                        } else {
                            match names::parse_alu_type(w) {
                                Some(t) => names::alu_type_code(t),
                                None => return lx.err(format!("bad type `{w}`")),
                            }
                        }
                    }
                    IndexKind::AtomicOp => {
                        let w = lx.word()?;
                        match AtomicOp::from_name(w)
                            .map(AtomicOp::code)
                            .or(w.parse().ok())
                        {
                            Some(code) => code,
                            None => return lx.err(format!("unknown atomic op `{}`", short(w))),
                        }
                    }
                    IndexKind::ExecutionScope | IndexKind::MemoryScope => {
                        let w = lx.word()?;
                        match Scope::from_name(w).map(Scope::code).or(w.parse().ok()) {
                            Some(code) => code,
                            None => return lx.err(format!("unknown scope `{}`", short(w))),
                        }
                    }
                    IndexKind::MemorySemantics | IndexKind::MemoryModes => {
                        let r = lx.rest();
                        let n = r.find([',', ')']).unwrap_or(r.len());
                        let text = r[..n].trim();
                        let parsed = if kind == IndexKind::MemorySemantics {
                            crate::print::parse_semantics(text)
                        } else {
                            VarMode::parse_set(text)
                        };
                        match parsed {
                            Some(v) => {
                                lx.pos += n;
                                v
                            }
                            None => {
                                return lx.err(format!("bad {} `{}`", kind.name(), short(text)))
                            }
                        }
                    }
                    IndexKind::ImageDim => {
                        let r = lx.rest();
                        let n = r.find([',', ')']).unwrap_or(r.len());
                        let text = r[..n].trim();
                        match SamplerDim::ALL.iter().position(|(_, name)| *name == text) {
                            Some(i) => {
                                lx.pos += n;
                                i as u32
                            }
                            None => return lx.err(format!("unknown image dim `{}`", short(text))),
                        }
                    }
                    IndexKind::ImageArray => match lx.word()? {
                        "true" => 1,
                        "false" => 0,
                        w => return lx.err(format!("bad image_array `{}`", short(w))),
                    },
                    IndexKind::Format => {
                        let w = lx.word()?;
                        match crate::intrinsics::ImageFormat::from_name(w)
                            .map(crate::intrinsics::ImageFormat::code)
                            .or(w.parse().ok())
                        {
                            Some(code) => code,
                            None => return lx.err(format!("unknown format `{}`", short(w))),
                        }
                    }
                    _ => lx.number()?,
                };
            }
            k += 1;
        }
        if k != info.indices.len() {
            return lx.err(format!("`{name}` takes {} indices", info.indices.len()));
        }
    } else if !info.indices.is_empty() {
        return lx.err(format!("`{name}` needs its indices"));
    }
    let num_components = if info.dest_components == Some(0) {
        def.map(|d| cx.func.defs[d].num_components).unwrap_or(0)
    } else {
        info.src_components
            .iter()
            .zip(&srcs)
            .find(|(c, _)| **c == 0)
            .map(|(_, d)| cx.func.defs[*d].num_components)
            .unwrap_or(0)
    };
    Ok(InstrKind::Intrinsic(Intrinsic {
        op,
        srcs,
        num_components,
        indices,
    }))
}

fn parse_tex(cx: &mut ImplCtx, lx: &mut Lex) -> Res<InstrKind> {
    lx.expect("(")?;
    let t = lx.word()?;
    let Some(dest_type) = names::parse_alu_type(t) else {
        return lx.err(format!("bad type `{t}`"));
    };
    lx.expect(")")?;
    let opname = lx.word()?;
    let Some(&(op, _)) = TexOp::ALL.iter().find(|(_, n)| *n == opname) else {
        return lx.err(format!("unknown texture op `{opname}`"));
    };
    let mut tex = Tex {
        op,
        dest_type,
        dim: SamplerDim::D2,
        is_array: false,
        is_shadow: false,
        texture_index: 0,
        sampler_index: 0,
        component: 0,
        srcs: Vec::new(),
    };
    let mut saw_dim = false;
    loop {
        lx.ws();
        if lx.rest().starts_with('%') {
            let d = cx.def_ref(lx)?;
            lx.expect("(")?;
            let k = lx.word()?;
            let Some(&(kind, _)) = TexSrcKind::ALL.iter().find(|(_, n)| *n == k) else {
                return lx.err(format!("unknown texture source kind `{k}`"));
            };
            lx.expect(")")?;
            tex.srcs.push((kind, d));
        } else if lx.rest().starts_with(|c: char| c.is_ascii_digit()) && !saw_dim_prefix(lx.rest())
        {
            let v: u32 = lx.number()?;
            lx.expect("(")?;
            match lx.word()? {
                "texture" => tex.texture_index = v,
                "sampler" => tex.sampler_index = v,
                "gather_component" => tex.component = v.min(3) as u8,
                w => return lx.err(format!("unknown texture index `{w}`")),
            }
            lx.expect(")")?;
        } else {
            let w = lx.word()?;
            if let Some(&(dim, _)) = SamplerDim::ALL.iter().find(|(_, n)| *n == w) {
                tex.dim = dim;
                saw_dim = true;
            } else if w == "array" {
                tex.is_array = true;
            } else if w == "shadow" {
                tex.is_shadow = true;
            } else {
                return lx.err(format!("unexpected `{w}` in texture instruction"));
            }
        }
        if !lx.eat(",") {
            break;
        }
    }
    if !saw_dim {
        return lx.err("texture instruction lacks its sampler dimension");
    }
    Ok(InstrKind::Tex(tex))
}

/// `1D`/`2D`/`3D`/`2D-MSAA` start with a digit but are dims, not indices.
fn saw_dim_prefix(s: &str) -> bool {
    s.starts_with("1D") || s.starts_with("2D") || s.starts_with("3D")
}

/// A name cut to at most 40 characters for error messages.
fn short(s: &str) -> String {
    if s.chars().count() <= 40 {
        s.to_string()
    } else {
        let head: String = s.chars().take(40).collect();
        format!("{head}...")
    }
}
