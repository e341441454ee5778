//! Data-driven tests of the qualifier rules (`check::qualifiers`).
//!
//! `tests/qualifiers/cases.txt` holds the cases. Each case is
//!
//! ```text
//! == description
//! <version> <stage> <context> [ext=NAME,NAME] [type=TYPE] [name=NAME]
//! <qualifier text, or `-` for none>
//! --
//! <expected output>
//! ```
//!
//! * version: `110` … `330`, `100es`, `300es`, `150compat`;
//! * stage: `vert`, `geom`, `frag`;
//! * context: `global`, `local`, `param`, `return`, `struct`, `block`,
//!   `member-uniform`, `member-in`, `member-out`, `qualifier-only`;
//! * type (no spaces): `vec4`, `int[3]`, `float[]`, `struct(vec4,int[2])`,
//!   `sampler2D`, …; when given, `check_storage_type` (or `check_variable` when
//!   a name is given) runs too.
//!
//! The qualifier text is parsed by a tiny parser here into `ast::TypeQualifier`
//! (line 1, columns as written). The output is one `resolved:` summary line and
//! the rendered diagnostics. `BLESS=1 cargo test -p rgl-glsl --test qualifiers`
//! rewrites the expectations.

use std::fmt::Write as _;
use std::path::PathBuf;

use rgl_glsl::ast::{
    BinaryOp, Expr, ExprKind, Ident, Interpolation, LayoutItem, Precision, Qualifier, Storage,
    TypeQualifier, UnaryOp,
};
use rgl_glsl::check::qualifiers::{
    check_storage_type, check_variable, resolve_qualifiers, DeclContext, QualifierEnv,
    ResolvedQualifiers, StorageClass,
};
use rgl_glsl::hir::MatrixLayout;
use rgl_glsl::span::SourceLoc;
use rgl_glsl::types::{
    SamplerDim, SamplerType, ScalarKind, StructArena, StructField, StructType, Type,
};
use rgl_glsl::{Profile, Stage, Version};

struct Case {
    title: String,
    header: String,
    qualifiers: String,
    expected: String,
}

fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(title) = line.strip_prefix("== ") else {
            continue;
        };
        let header = lines.next().unwrap_or_default().to_string();
        let qualifiers = lines.next().unwrap_or_default().to_string();
        let separator = lines.next().unwrap_or_default();
        assert_eq!(
            separator, "--",
            "case `{title}`: expected `--` after the qualifier line"
        );
        let mut expected = String::new();
        while let Some(next) = lines.peek() {
            if next.starts_with("== ") {
                break;
            }
            expected.push_str(next);
            expected.push('\n');
            lines.next();
        }
        let expected = expected.trim_end().to_string();
        cases.push(Case {
            title: title.to_string(),
            header,
            qualifiers,
            expected,
        });
    }
    cases
}

fn parse_version(word: &str) -> Version {
    if let Some(n) = word.strip_suffix("es") {
        Version::es(n.parse().expect("version number"))
    } else if let Some(n) = word.strip_suffix("compat") {
        Version {
            number: n.parse().expect("version number"),
            profile: Profile::Compatibility,
        }
    } else {
        Version::desktop(word.parse().expect("version number"))
    }
}

fn parse_context(word: &str) -> DeclContext {
    match word {
        "global" => DeclContext::GlobalVariable,
        "local" => DeclContext::LocalVariable,
        "param" => DeclContext::FunctionParameter,
        "return" => DeclContext::FunctionReturn,
        "struct" => DeclContext::StructMember,
        "block" => DeclContext::Block,
        "member-uniform" => DeclContext::BlockMember(StorageClass::Uniform),
        "member-in" => DeclContext::BlockMember(StorageClass::In),
        "member-out" => DeclContext::BlockMember(StorageClass::Out),
        "qualifier-only" => DeclContext::QualifierOnly,
        other => panic!("unknown context `{other}`"),
    }
}

// ---- a tiny qualifier parser -------------------------------------------

#[derive(Debug, Clone)]
struct Tok {
    text: String,
    col: u32,
}

fn tokenize(text: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.')
            {
                i += 1;
            }
        } else {
            i += 1;
        }
        toks.push(Tok {
            text: text[start..i].to_string(),
            col: start as u32 + 1,
        });
    }
    toks
}

fn loc(col: u32) -> SourceLoc {
    SourceLoc::new(1, col)
}

fn primary(tok: &Tok) -> Expr {
    let t = tok.text.as_str();
    let kind = if let Some(hex) = t.strip_prefix("0x") {
        ExprKind::IntConst(u32::from_str_radix(hex, 16).expect("hex") as i32)
    } else if let Some(u) = t.strip_suffix('u') {
        ExprKind::UintConst(u.parse().expect("uint"))
    } else if t.contains('.') {
        ExprKind::FloatConst(t.parse().expect("float"))
    } else if t.starts_with(|c: char| c.is_ascii_digit()) {
        ExprKind::IntConst(t.parse::<i64>().expect("int") as i32)
    } else if t == "true" || t == "false" {
        ExprKind::BoolConst(t == "true")
    } else {
        ExprKind::Variable(Ident {
            name: t.into(),
            loc: loc(tok.col),
        })
    };
    Expr {
        kind,
        loc: loc(tok.col),
    }
}

/// `value := ['-'] primary (('+'|'-') primary)*`
fn parse_value(toks: &[Tok]) -> Expr {
    let (mut expr, mut rest) = match toks {
        [minus, operand, rest @ ..] if minus.text == "-" => (
            Expr {
                kind: ExprKind::Unary(UnaryOp::Minus, Box::new(primary(operand))),
                loc: loc(minus.col),
            },
            rest,
        ),
        [first, rest @ ..] => (primary(first), rest),
        [] => panic!("empty layout value"),
    };
    while let [op, operand, tail @ ..] = rest {
        let bin = if op.text == "+" {
            BinaryOp::Add
        } else {
            BinaryOp::Sub
        };
        expr = Expr {
            kind: ExprKind::Binary(bin, Box::new(expr), Box::new(primary(operand))),
            loc: loc(op.col),
        };
        rest = tail;
    }
    expr
}

fn parse_qualifiers(text: &str) -> Option<TypeQualifier> {
    if text.trim() == "-" {
        return None;
    }
    let toks = tokenize(text);
    let mut qualifiers = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let tok = &toks[i];
        let l = loc(tok.col);
        let q = match tok.text.as_str() {
            "layout" => {
                assert_eq!(
                    toks.get(i + 1).map(|t| t.text.as_str()),
                    Some("("),
                    "layout needs `(`"
                );
                i += 2;
                let mut items = Vec::new();
                let mut current: Vec<Tok> = Vec::new();
                loop {
                    let t = toks.get(i).expect("unterminated layout(");
                    i += 1;
                    if t.text == "," || t.text == ")" {
                        if let Some((name, rest)) = current.split_first() {
                            let value = match rest {
                                [] => None,
                                [eq, value @ ..] if eq.text == "=" => {
                                    Some(Box::new(parse_value(value)))
                                }
                                _ => panic!("bad layout item"),
                            };
                            items.push(LayoutItem {
                                name: Ident {
                                    name: name.text.as_str().into(),
                                    loc: loc(name.col),
                                },
                                value,
                            });
                        }
                        current.clear();
                        if t.text == ")" {
                            break;
                        }
                    } else {
                        current.push(t.clone());
                    }
                }
                qualifiers.push(Qualifier::Layout(items, l));
                continue;
            }
            "const" => Qualifier::Storage(Storage::Const, l),
            "in" => Qualifier::Storage(Storage::In, l),
            "out" => Qualifier::Storage(Storage::Out, l),
            "inout" => Qualifier::Storage(Storage::InOut, l),
            "centroid" => Qualifier::Storage(Storage::Centroid, l),
            "sample" => Qualifier::Storage(Storage::Sample, l),
            "patch" => Qualifier::Storage(Storage::Patch, l),
            "uniform" => Qualifier::Storage(Storage::Uniform, l),
            "buffer" => Qualifier::Storage(Storage::Buffer, l),
            "shared" => Qualifier::Storage(Storage::Shared, l),
            "attribute" => Qualifier::Storage(Storage::Attribute, l),
            "varying" => Qualifier::Storage(Storage::Varying, l),
            "coherent" => Qualifier::Storage(Storage::Other("coherent"), l),
            "subroutine" => Qualifier::Storage(Storage::Other("subroutine"), l),
            "highp" => Qualifier::Precision(Precision::High, l),
            "mediump" => Qualifier::Precision(Precision::Medium, l),
            "lowp" => Qualifier::Precision(Precision::Low, l),
            "smooth" => Qualifier::Interpolation(Interpolation::Smooth, l),
            "flat" => Qualifier::Interpolation(Interpolation::Flat, l),
            "noperspective" => Qualifier::Interpolation(Interpolation::NoPerspective, l),
            "invariant" => Qualifier::Invariant(l),
            "precise" => Qualifier::Precise(l),
            other => panic!("unknown qualifier word `{other}`"),
        };
        qualifiers.push(q);
        i += 1;
    }
    let first = toks.first().map_or(1, |t| t.col);
    Some(TypeQualifier {
        qualifiers,
        loc: loc(first),
    })
}

// ---- a tiny type parser -------------------------------------------------

fn parse_type(text: &str, structs: &mut StructArena) -> Type {
    let (base, arrays) = match text.find('[') {
        Some(p) if !text.starts_with("struct(") || text.rfind(')').is_some_and(|c| c < p) => {
            text.split_at(p)
        }
        _ => (text, ""),
    };
    let mut ty = parse_base_type(base, structs);
    let dims: Vec<&str> = arrays.split('[').filter(|s| !s.is_empty()).collect();
    for dim in dims.iter().rev() {
        let n = dim.trim_end_matches(']');
        ty = Type::Array(
            Box::new(ty),
            if n.is_empty() {
                None
            } else {
                Some(n.parse().expect("array size"))
            },
        );
    }
    ty
}

fn parse_base_type(text: &str, structs: &mut StructArena) -> Type {
    if let Some(inner) = text
        .strip_prefix("struct(")
        .and_then(|t| t.strip_suffix(')'))
    {
        let mut fields = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        let mut parts = Vec::new();
        for (i, c) in inner.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&inner[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&inner[start..]);
        for (i, part) in parts.iter().enumerate() {
            let ty = parse_type(part, structs);
            fields.push(StructField {
                name: format!("m{i}"),
                ty,
                qualifiers: Default::default(),
            });
        }
        let h = structs.append(StructType {
            name: "S".into(),
            fields,
            is_interface: false,
        });
        return Type::Struct(h);
    }
    let scalar = |s: &str| match s {
        "float" => Some(ScalarKind::Float),
        "int" => Some(ScalarKind::Int),
        "uint" => Some(ScalarKind::Uint),
        "bool" => Some(ScalarKind::Bool),
        _ => None,
    };
    if let Some(k) = scalar(text) {
        return Type::Scalar(k);
    }
    for (prefix, kind) in [
        ("vec", ScalarKind::Float),
        ("ivec", ScalarKind::Int),
        ("uvec", ScalarKind::Uint),
        ("bvec", ScalarKind::Bool),
    ] {
        if let Some(n) = text.strip_prefix(prefix).and_then(|n| n.parse::<u8>().ok()) {
            return Type::Vector(kind, n);
        }
    }
    if let Some(m) = text.strip_prefix("mat") {
        let (c, r) = match m.split_once('x') {
            Some((c, r)) => (c.parse().expect("mat"), r.parse().expect("mat")),
            None => {
                let n = m.parse().expect("mat");
                (n, n)
            }
        };
        return Type::mat(c, r);
    }
    let (kind, rest) = if let Some(r) = text.strip_prefix("isampler") {
        (ScalarKind::Int, r)
    } else if let Some(r) = text.strip_prefix("usampler") {
        (ScalarKind::Uint, r)
    } else if let Some(r) = text.strip_prefix("sampler") {
        (ScalarKind::Float, r)
    } else {
        panic!("unknown type `{text}`");
    };
    let shadow = rest.ends_with("Shadow");
    let rest = rest.trim_end_matches("Shadow");
    let arrayed = rest.ends_with("Array");
    let rest = rest.trim_end_matches("Array");
    let dim = match rest {
        "1D" => SamplerDim::D1,
        "2D" => SamplerDim::D2,
        "3D" => SamplerDim::D3,
        "Cube" => SamplerDim::Cube,
        "2DRect" => SamplerDim::Rect,
        "Buffer" => SamplerDim::Buffer,
        other => panic!("unknown sampler `{other}`"),
    };
    Type::Sampler(SamplerType {
        dim,
        arrayed,
        shadow,
        kind,
    })
}

// ---- running a case -----------------------------------------------------

fn summary(r: &ResolvedQualifiers) -> String {
    let mut s = format!("resolved: {:?}", r.storage);
    let mut flag = |on: bool, word: &str| {
        if on {
            s.push(' ');
            s.push_str(word);
        }
    };
    flag(r.is_const, "const");
    flag(r.is_attribute, "attribute");
    flag(r.is_varying, "varying");
    flag(r.centroid, "centroid");
    flag(r.invariant, "invariant");
    if let Some(i) = r.interpolation {
        let _ = write!(s, " {i:?}");
    }
    if let Some(p) = r.precision {
        let _ = write!(s, " {p:?}p");
    }
    let l = &r.layout;
    let mut items = Vec::new();
    if let Some(v) = l.location {
        items.push(format!("location={v}"));
    }
    if let Some(v) = l.index {
        items.push(format!("index={v}"));
    }
    if let Some(v) = l.binding {
        items.push(format!("binding={v}"));
    }
    if let Some(p) = l.packing {
        items.push(format!("{p:?}"));
    }
    if l.matrix_layout != MatrixLayout::Inherited {
        items.push(format!("{:?}", l.matrix_layout));
    }
    if l.origin_upper_left {
        items.push("origin_upper_left".into());
    }
    if l.pixel_center_integer {
        items.push("pixel_center_integer".into());
    }
    if l.early_fragment_tests {
        items.push("early_fragment_tests".into());
    }
    if let Some(p) = l.primitive {
        items.push(format!("{p:?}"));
    }
    if let Some(v) = l.max_vertices {
        items.push(format!("max_vertices={v}"));
    }
    let enhanced = [
        ("component", l.component),
        ("offset", l.offset),
        ("align", l.align),
        ("xfb_buffer", l.xfb_buffer),
        ("xfb_offset", l.xfb_offset),
        ("xfb_stride", l.xfb_stride),
    ];
    for (name, value) in enhanced {
        if let Some(v) = value {
            items.push(format!("{name}={v}"));
        }
    }
    if let Some(v) = l.invocations {
        items.push(format!("invocations={v}"));
    }
    if let Some(d) = l.depth_layout {
        items.push(format!("depth_{d:?}"));
    }
    if r.has_layout {
        let _ = write!(s, " layout({})", items.join(", "));
    }
    s
}

fn run_case(case: &Case) -> String {
    let mut words = case.header.split_whitespace();
    let version = parse_version(words.next().expect("version"));
    let stage = match words.next().expect("stage") {
        "vert" => Stage::Vertex,
        "geom" => Stage::Geometry,
        "frag" => Stage::Fragment,
        other => panic!("unknown stage `{other}`"),
    };
    let context = parse_context(words.next().expect("context"));
    let mut extensions = Vec::new();
    let mut ty_text = None;
    let mut name = None;
    for word in words {
        if let Some(e) = word.strip_prefix("ext=") {
            extensions.extend(e.split(',').map(str::to_string));
        } else if let Some(t) = word.strip_prefix("type=") {
            ty_text = Some(t);
        } else if let Some(n) = word.strip_prefix("name=") {
            name = Some(n);
        } else {
            panic!("unknown header word `{word}`");
        }
    }
    let env = QualifierEnv {
        version,
        stage,
        extensions: &extensions,
        layout_values: &[],
    };
    let qualifier = parse_qualifiers(&case.qualifiers);
    let (resolved, mut diags) = resolve_qualifiers(qualifier.as_ref(), context, &env);
    if let Some(t) = ty_text {
        let mut structs = StructArena::new();
        let ty = parse_type(t, &mut structs);
        let decl_loc = SourceLoc::new(1, 1);
        diags.extend(match name {
            Some(n) => check_variable(&resolved, n, &ty, &structs, context, &env, decl_loc),
            None => check_storage_type(&resolved, &ty, &structs, context, &env, decl_loc),
        });
    }
    let mut out = summary(&resolved);
    for d in &diags {
        out.push('\n');
        out.push_str(&d.to_string());
    }
    out
}

#[test]
fn qualifier_cases() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/qualifiers/cases.txt");
    let text = std::fs::read_to_string(&path).expect("read cases.txt");
    let cases = parse_cases(&text);
    assert!(!cases.is_empty(), "no cases in {}", path.display());
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let mut blessed = String::new();
    for line in text.lines().take_while(|l| !l.starts_with("== ")) {
        blessed.push_str(line);
        blessed.push('\n');
    }
    for case in &cases {
        let actual = run_case(case);
        if actual != case.expected {
            failures.push(format!(
                "case `{}`\n  {}\n  {}\n--- expected\n{}\n--- actual\n{}\n",
                case.title, case.header, case.qualifiers, case.expected, actual
            ));
        }
        let _ = write!(
            blessed,
            "== {}\n{}\n{}\n--\n{}\n\n",
            case.title, case.header, case.qualifiers, actual
        );
    }
    if bless {
        std::fs::write(&path, blessed.trim_end().to_string() + "\n").expect("write cases.txt");
        return;
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
