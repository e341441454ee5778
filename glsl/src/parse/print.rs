//! GLSL-like pretty printer of [`crate::ast`], behind `rglc --dump-ast`.
//!
//! The output is valid GLSL that parses back to the same tree (locations
//! aside): every compound sub-expression is parenthesised, negative `int`
//! constants (wrapped hex/octal literals) print as hex bit patterns, and floats
//! print with the shortest spelling that reads back to the same `f32`.

use std::fmt::Write;

use crate::ast::*;

/// Prints a translation unit as GLSL text, one top-level item per paragraph.
pub fn print_ast(unit: &TranslationUnit) -> String {
    let mut p = Printer {
        out: String::new(),
        indent: 0,
    };
    for (i, item) in unit.items.iter().enumerate() {
        if i > 0 {
            p.out.push('\n');
        }
        match item {
            ExternalDecl::Function(def) => {
                p.prototype(&def.prototype);
                p.out.push(' ');
                p.compound(&def.body);
                p.out.push('\n');
            }
            ExternalDecl::Declaration(d) => {
                p.declaration(d);
                p.out.push('\n');
            }
        }
    }
    p.out
}

struct Printer {
    out: String,
    indent: usize,
}

impl Printer {
    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
    }

    // -- declarations -------------------------------------------------------

    fn declaration(&mut self, d: &Declaration) {
        match &d.kind {
            DeclarationKind::Prototype(p) => {
                self.prototype(p);
                self.out.push(';');
            }
            DeclarationKind::Variables(list) => {
                self.fully_specified(&list.ty);
                for (i, decl) in list.declarators.iter().enumerate() {
                    self.out.push_str(if i == 0 { " " } else { ", " });
                    self.out.push_str(&decl.name.name);
                    if let Some(a) = &decl.array {
                        self.array(a);
                    }
                    if let Some(init) = &decl.initializer {
                        self.out.push_str(" = ");
                        self.initializer(init);
                    }
                }
                self.out.push(';');
            }
            DeclarationKind::Precision(p, ty) => {
                self.out.push_str("precision ");
                self.out.push_str(precision(*p));
                self.out.push(' ');
                self.type_specifier(ty);
                self.out.push(';');
            }
            DeclarationKind::Block(b) => {
                self.qualifier(&b.qualifier);
                self.out.push(' ');
                self.out.push_str(&b.name.name);
                self.out.push_str(" {");
                self.fields(&b.fields);
                self.out.push('}');
                if let Some(inst) = &b.instance {
                    self.out.push(' ');
                    self.out.push_str(&inst.name);
                    if let Some(a) = &b.instance_array {
                        self.array(a);
                    }
                }
                self.out.push(';');
            }
            DeclarationKind::Invariant(names) => {
                self.out.push_str("invariant ");
                let names: Vec<&str> = names.iter().map(|n| &*n.name).collect();
                self.out.push_str(&names.join(", "));
                self.out.push(';');
            }
            DeclarationKind::QualifierOnly(q) => {
                self.qualifier(q);
                self.out.push(';');
            }
        }
    }

    fn prototype(&mut self, p: &FunctionPrototype) {
        self.fully_specified(&p.return_type);
        self.out.push(' ');
        self.out.push_str(&p.name.name);
        self.out.push('(');
        for (i, param) in p.parameters.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if let Some(q) = &param.qualifier {
                self.qualifier(q);
                self.out.push(' ');
            }
            self.type_specifier(&param.ty);
            if let Some(name) = &param.name {
                self.out.push(' ');
                self.out.push_str(&name.name);
            }
            if let Some(a) = &param.array {
                self.array(a);
            }
        }
        self.out.push(')');
    }

    fn fully_specified(&mut self, t: &FullySpecifiedType) {
        if let Some(q) = &t.qualifier {
            self.qualifier(q);
            self.out.push(' ');
        }
        self.type_specifier(&t.ty);
    }

    fn initializer(&mut self, init: &Initializer) {
        match init {
            Initializer::Simple(e) => self.expr(e),
            Initializer::List(items, _) => {
                self.out.push('{');
                for (i, item) in items.iter().enumerate() {
                    self.out.push_str(if i == 0 { " " } else { ", " });
                    self.initializer(item);
                }
                self.out.push_str(" }");
            }
        }
    }

    // -- types ----------------------------------------------------------------

    fn type_specifier(&mut self, t: &TypeSpecifier) {
        match &t.ty {
            TypeName::Builtin(name) => self.out.push_str(name),
            TypeName::Named(name) => self.out.push_str(&name.name),
            TypeName::Struct(s) => {
                self.out.push_str("struct ");
                if let Some(name) = &s.name {
                    self.out.push_str(&name.name);
                    self.out.push(' ');
                }
                self.out.push('{');
                self.fields(&s.fields);
                self.out.push('}');
            }
        }
        if let Some(a) = &t.array {
            self.array(a);
        }
    }

    fn fields(&mut self, fields: &[StructField]) {
        self.indent += 1;
        for f in fields {
            self.newline();
            if let Some(q) = &f.qualifier {
                self.qualifier(q);
                self.out.push(' ');
            }
            self.type_specifier(&f.ty);
            for (i, (name, array)) in f.names.iter().enumerate() {
                self.out.push_str(if i == 0 { " " } else { ", " });
                self.out.push_str(&name.name);
                if let Some(a) = array {
                    self.array(a);
                }
            }
            self.out.push(';');
        }
        self.indent -= 1;
        self.newline();
    }

    fn array(&mut self, a: &ArraySpecifier) {
        for dim in &a.dimensions {
            self.out.push('[');
            if let Some(e) = dim {
                self.expr(e);
            }
            self.out.push(']');
        }
    }

    fn qualifier(&mut self, q: &TypeQualifier) {
        for (i, qual) in q.qualifiers.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            match qual {
                Qualifier::Storage(s, _) => self.out.push_str(storage(*s)),
                Qualifier::Layout(items, _) => {
                    self.out.push_str("layout(");
                    for (j, item) in items.iter().enumerate() {
                        if j > 0 {
                            self.out.push_str(", ");
                        }
                        self.out.push_str(&item.name.name);
                        if let Some(v) = &item.value {
                            self.out.push_str(" = ");
                            self.expr(v);
                        }
                    }
                    self.out.push(')');
                }
                Qualifier::Precision(p, _) => self.out.push_str(precision(*p)),
                Qualifier::Interpolation(i, _) => self.out.push_str(match i {
                    Interpolation::Smooth => "smooth",
                    Interpolation::Flat => "flat",
                    Interpolation::NoPerspective => "noperspective",
                }),
                Qualifier::Invariant(_) => self.out.push_str("invariant"),
                Qualifier::Precise(_) => self.out.push_str("precise"),
                Qualifier::Subroutine(types, _) => {
                    self.out.push_str("subroutine");
                    if !types.is_empty() {
                        self.out.push('(');
                        for (i, t) in types.iter().enumerate() {
                            if i > 0 {
                                self.out.push_str(", ");
                            }
                            self.type_specifier(t);
                        }
                        self.out.push(')');
                    }
                }
            }
        }
    }

    // -- statements -------------------------------------------------------------

    fn compound(&mut self, c: &CompoundStmt) {
        self.out.push('{');
        self.indent += 1;
        for s in &c.statements {
            self.newline();
            self.statement(s);
        }
        self.indent -= 1;
        self.newline();
        self.out.push('}');
    }

    /// A nested statement body: compound bodies stay on the line.
    fn body(&mut self, s: &Statement) {
        if let StatementKind::Compound(c) = &s.kind {
            self.out.push(' ');
            self.compound(c);
        } else {
            self.indent += 1;
            self.newline();
            self.statement(s);
            self.indent -= 1;
        }
    }

    fn statement(&mut self, s: &Statement) {
        match &s.kind {
            StatementKind::Declaration(d) => self.declaration(d),
            StatementKind::Expr(e) => {
                if let Some(e) = e {
                    self.expr(e);
                }
                self.out.push(';');
            }
            StatementKind::If(cond, then, other) => {
                self.out.push_str("if (");
                self.expr(cond);
                self.out.push(')');
                self.body(then);
                if let Some(other) = other {
                    self.newline();
                    self.out.push_str("else");
                    self.body(other);
                }
            }
            StatementKind::Switch(e, body) => {
                self.out.push_str("switch (");
                self.expr(e);
                self.out.push_str(") {");
                self.indent += 1;
                for s in body {
                    self.newline();
                    self.statement(s);
                }
                self.indent -= 1;
                self.newline();
                self.out.push('}');
            }
            StatementKind::Case(e) => {
                self.out.push_str("case ");
                self.expr(e);
                self.out.push(':');
            }
            StatementKind::Default => self.out.push_str("default:"),
            StatementKind::While(cond, body) => {
                self.out.push_str("while (");
                self.condition(cond);
                self.out.push(')');
                self.body(body);
            }
            StatementKind::DoWhile(body, cond) => {
                self.out.push_str("do");
                self.body(body);
                self.newline();
                self.out.push_str("while (");
                self.expr(cond);
                self.out.push_str(");");
            }
            StatementKind::For(init, cond, step, body) => {
                self.out.push_str("for (");
                match &**init {
                    ForInit::Expr(e) => {
                        if let Some(e) = e {
                            self.expr(e);
                        }
                        self.out.push(';');
                    }
                    ForInit::Declaration(d) => self.declaration(d),
                }
                self.out.push(' ');
                if let Some(c) = cond {
                    self.condition(c);
                }
                self.out.push_str("; ");
                if let Some(e) = step {
                    self.expr(e);
                }
                self.out.push(')');
                self.body(body);
            }
            StatementKind::Continue => self.out.push_str("continue;"),
            StatementKind::Break => self.out.push_str("break;"),
            StatementKind::Return(e) => {
                self.out.push_str("return");
                if let Some(e) = e {
                    self.out.push(' ');
                    self.expr(e);
                }
                self.out.push(';');
            }
            StatementKind::Discard => self.out.push_str("discard;"),
            StatementKind::Compound(c) => self.compound(c),
        }
    }

    fn condition(&mut self, c: &Condition) {
        match c {
            Condition::Expr(e) => self.expr(e),
            Condition::Declaration(ty, name, init) => {
                self.fully_specified(ty);
                self.out.push(' ');
                self.out.push_str(&name.name);
                self.out.push_str(" = ");
                self.initializer(init);
            }
        }
    }

    // -- expressions ------------------------------------------------------------

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Variable(id) => self.out.push_str(&id.name),
            ExprKind::IntConst(v) => {
                if *v < 0 {
                    let _ = write!(self.out, "{:#x}", *v as u32);
                } else {
                    let _ = write!(self.out, "{v}");
                }
            }
            ExprKind::UintConst(v) => {
                let _ = write!(self.out, "{v}u");
            }
            ExprKind::BoolConst(v) => {
                let _ = write!(self.out, "{v}");
            }
            ExprKind::FloatConst(v) => self.float(f64::from(*v), *v == f32::INFINITY, ""),
            ExprKind::DoubleConst(v) => self.float(*v, v.is_infinite() && *v > 0.0, "lf"),
            ExprKind::Unary(op, a) => {
                self.out.push('(');
                self.out.push_str(match op {
                    UnaryOp::PreInc => "++",
                    UnaryOp::PreDec => "--",
                    UnaryOp::Plus => "+",
                    UnaryOp::Minus => "-",
                    UnaryOp::Not => "!",
                    UnaryOp::Complement => "~",
                });
                self.expr(a);
                self.out.push(')');
            }
            ExprKind::Binary(op, a, b) => {
                self.out.push('(');
                self.expr(a);
                self.out.push(' ');
                self.out.push_str(op.symbol());
                self.out.push(' ');
                self.expr(b);
                self.out.push(')');
            }
            ExprKind::Ternary(c, a, b) => {
                self.out.push('(');
                self.expr(c);
                self.out.push_str(" ? ");
                self.expr(a);
                self.out.push_str(" : ");
                self.expr(b);
                self.out.push(')');
            }
            ExprKind::Assign(op, a, b) => {
                self.out.push('(');
                self.expr(a);
                self.out.push(' ');
                if let AssignOp::Op(op) = op {
                    self.out.push_str(op.symbol());
                }
                self.out.push_str("= ");
                self.expr(b);
                self.out.push(')');
            }
            ExprKind::Index(a, i) => {
                self.expr(a);
                self.out.push('[');
                self.expr(i);
                self.out.push(']');
            }
            ExprKind::Call(callee, args) => {
                match callee {
                    Callee::Name(id) => self.out.push_str(&id.name),
                    Callee::Type(ty) => self.type_specifier(ty),
                }
                self.out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(a);
                }
                self.out.push(')');
            }
            ExprKind::Field(a, field) => {
                self.expr(a);
                self.out.push('.');
                self.out.push_str(&field.name);
            }
            ExprKind::MethodLength(a) => {
                self.expr(a);
                self.out.push_str(".length()");
            }
            ExprKind::PostInc(a) => {
                self.out.push('(');
                self.expr(a);
                self.out.push_str("++)");
            }
            ExprKind::PostDec(a) => {
                self.out.push('(');
                self.expr(a);
                self.out.push_str("--)");
            }
            ExprKind::Comma(a, b) => {
                self.out.push('(');
                self.expr(a);
                self.out.push_str(", ");
                self.expr(b);
                self.out.push(')');
            }
        }
    }

    /// A float literal that reads back to the same value.
    fn float(&mut self, v: f64, infinite: bool, suffix: &str) {
        if infinite {
            // Literals only overflow upwards; this spelling overflows again.
            let _ = write!(self.out, "1e999{suffix}");
            return;
        }
        let text = if suffix.is_empty() {
            format!("{:?}", v as f32)
        } else {
            format!("{v:?}")
        };
        self.out.push_str(&text);
        if !text.contains(['.', 'e', 'E']) {
            self.out.push_str(".0");
        }
        self.out.push_str(suffix);
    }
}

fn precision(p: Precision) -> &'static str {
    match p {
        Precision::High => "highp",
        Precision::Medium => "mediump",
        Precision::Low => "lowp",
    }
}

fn storage(s: Storage) -> &'static str {
    match s {
        Storage::Const => "const",
        Storage::In => "in",
        Storage::Out => "out",
        Storage::InOut => "inout",
        Storage::Centroid => "centroid",
        Storage::Sample => "sample",
        Storage::Patch => "patch",
        Storage::Uniform => "uniform",
        Storage::Buffer => "buffer",
        Storage::Shared => "shared",
        Storage::Attribute => "attribute",
        Storage::Varying => "varying",
        Storage::Other(word) => word,
    }
}
