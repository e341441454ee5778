//! Data-driven checks of the built-in table: for every version × profile ×
//! stage, the visible function overloads (count per name) and the visible
//! built-in variables with their types and qualifiers are rendered to text and
//! compared with `tests/builtins/*.txt` (`BLESS=1` rewrites them); plus
//! targeted overload queries from `tests/builtins/queries.txt`.

use std::fmt::Write as _;
use std::path::PathBuf;

use rgl_glsl::builtins::{self, Availability, ParamDirection};
use rgl_glsl::hir::Constant;
use rgl_glsl::types::{StructArena, Type};
use rgl_glsl::{Profile, Stage, Version};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("builtins")
}

/// Compares `actual` with the file `name`, or rewrites it under `BLESS=1`.
fn check_file(name: &str, actual: &str) -> Result<(), String> {
    let path = data_dir().join(name);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, actual).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: {e} (run with BLESS=1)", path.display()))?;
    if expected == actual {
        return Ok(());
    }
    let mut diff = format!("{} differs (BLESS=1 to accept):\n", path.display());
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    for i in 0..e.len().max(a.len()) {
        let (el, al) = (
            e.get(i).copied().unwrap_or("<eof>"),
            a.get(i).copied().unwrap_or("<eof>"),
        );
        if el != al {
            let _ = writeln!(diff, "line {}:\n  expected: {el}\n  actual:   {al}", i + 1);
            break;
        }
    }
    Err(diff)
}

fn parse_context(words: &[&str]) -> Option<(Version, Stage, Vec<String>)> {
    let number: u16 = words.first()?.parse().ok()?;
    let profile = match *words.get(1)? {
        "core" => Profile::Core,
        "compat" => Profile::Compatibility,
        "es" => Profile::Es,
        _ => return None,
    };
    let stage = match *words.get(2)? {
        "vs" => Stage::Vertex,
        "gs" => Stage::Geometry,
        "fs" => Stage::Fragment,
        _ => return None,
    };
    let extensions = words[3..].iter().map(|s| s.to_string()).collect();
    Some((Version { number, profile }, stage, extensions))
}

fn contexts() -> Vec<(Version, Stage)> {
    let mut list = Vec::new();
    let versions = [
        Version::desktop(110),
        Version::desktop(120),
        Version::desktop(130),
        Version::desktop(140),
        Version {
            number: 140,
            profile: Profile::Compatibility,
        },
        Version::desktop(150),
        Version {
            number: 150,
            profile: Profile::Compatibility,
        },
        Version::desktop(330),
        Version {
            number: 330,
            profile: Profile::Compatibility,
        },
        Version::es(100),
        Version::es(300),
    ];
    for version in versions {
        for stage in [Stage::Vertex, Stage::Geometry, Stage::Fragment] {
            if stage == Stage::Geometry && !version.at_least(150, 0) {
                continue;
            }
            list.push((version, stage));
        }
    }
    list
}

fn file_name(version: Version, stage: Stage) -> String {
    let profile = match version.profile {
        Profile::Core => "core",
        Profile::Compatibility => "compat",
        Profile::Es => "es",
    };
    let stage = match stage {
        Stage::Vertex => "vs",
        Stage::Geometry => "gs",
        Stage::Fragment => "fs",
        Stage::Compute => "cs",
    };
    format!("{}-{profile}-{stage}.txt", version.number)
}

fn render_constant(c: &Constant) -> String {
    match c {
        Constant::Components(values) => values
            .iter()
            .map(|v| format!("{v:?}"))
            .collect::<Vec<_>>()
            .join(" "),
        Constant::Aggregate(items) => items
            .iter()
            .map(render_constant)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn render_context(version: Version, stage: Stage) -> String {
    let avail = Availability {
        version,
        stage,
        extensions: &[],
    };
    let mut out = String::new();
    let mut total = 0;
    let mut lines = String::new();
    for name in builtins::all_function_names() {
        let overloads = builtins::find_functions(name, &avail);
        let mut seen = std::collections::HashSet::new();
        for sig in &overloads {
            let key: Vec<String> = sig
                .parameters
                .iter()
                .map(|(t, _)| t.display(&StructArena::new()).to_string())
                .collect();
            if !seen.insert(key.clone()) {
                let _ = writeln!(lines, "  DUPLICATE {name}({})", key.join(", "));
            }
        }
        if !overloads.is_empty() {
            total += overloads.len();
            let _ = writeln!(lines, "  {name} {}", overloads.len());
        }
    }
    let _ = writeln!(
        out,
        "# GLSL {version} {:?} {stage}: {total} function overloads",
        version.profile
    );
    out.push_str(&lines);
    let _ = writeln!(out, "# variables");
    let mut structs = StructArena::new();
    for name in builtins::all_variable_names() {
        let Some(var) = builtins::lookup_variable(name, &avail, &mut structs) else {
            continue;
        };
        let _ = write!(
            out,
            "  {} {} {}",
            var.ty.display(&structs),
            var.name,
            var.mode.dump_name()
        );
        if let Some(location) = var.location {
            let _ = write!(out, " location={location}");
        }
        if let Some(p) = var.precision {
            let _ = write!(out, " {p:?}");
        }
        if let Some(i) = var.interpolation {
            let _ = write!(out, " {i:?}");
        }
        if var.read_only {
            out.push_str(" read_only");
        }
        if let Some(block) = var.interface_block.and_then(|h| structs.get(h)) {
            let _ = write!(out, " block={}", block.name);
        }
        if let Some(c) = &var.constant_value {
            let _ = write!(out, " = {}", render_constant(c));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "# types");
    for (_, body) in structs.iter() {
        let kind = if body.is_interface { "block" } else { "struct" };
        let fields: Vec<String> = body
            .fields
            .iter()
            .map(|f| match f.qualifiers.precision {
                Some(p) => format!("{p:?} {} {}", f.ty.display(&structs), f.name),
                None => format!("{} {}", f.ty.display(&structs), f.name),
            })
            .collect();
        let _ = writeln!(out, "  {kind} {} {{ {} }}", body.name, fields.join("; "));
    }
    out
}

#[test]
fn visible_builtins_per_context() {
    let mut failures = Vec::new();
    let mut summary = String::new();
    for (version, stage) in contexts() {
        let text = render_context(version, stage);
        let first = text.lines().next().unwrap_or_default().to_string();
        let _ = writeln!(summary, "{first}");
        for line in text.lines().filter(|l| l.contains("DUPLICATE")) {
            failures.push(format!(
                "GLSL {version} {stage}: overload visible twice: {line}"
            ));
        }
        if let Err(e) = check_file(&file_name(version, stage), &text) {
            failures.push(e);
        }
    }
    if let Err(e) = check_file("summary.txt", &summary) {
        failures.push(e);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `queries.txt`: lines `VERSION PROFILE STAGE [EXTENSION…] : name(type, …)` or
/// `… : variable NAME`; the answer is the matched return type or `none`.
#[test]
fn targeted_queries() {
    let input = std::fs::read_to_string(data_dir().join("queries.txt")).expect("queries.txt");
    let mut out = String::new();
    for line in input.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((context, query)) = line.split_once(" : ") else {
            panic!("bad query line: {line}");
        };
        let words: Vec<&str> = context.split_whitespace().collect();
        let (version, stage, extensions) = parse_context(&words).expect("bad context");
        let avail = Availability {
            version,
            stage,
            extensions: &extensions,
        };
        let answer = if let Some(name) = query.strip_prefix("variable ") {
            let mut structs = StructArena::new();
            match builtins::lookup_variable(name.trim(), &avail, &mut structs) {
                Some(var) => format!("{} {}", var.ty.display(&structs), var.mode.dump_name()),
                None => "none".to_string(),
            }
        } else {
            let (name, args) = query.split_once('(').expect("call syntax");
            let args: Vec<String> = args
                .trim_end_matches(')')
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            let structs = StructArena::new();
            let found = builtins::find_functions(name.trim(), &avail)
                .into_iter()
                .find(|sig| {
                    sig.parameters.len() == args.len()
                        && sig.parameters.iter().zip(&args).all(|((ty, dir), want)| {
                            let shown = ty.display(&structs).to_string();
                            let shown = if *dir == ParamDirection::Out {
                                format!("out {shown}")
                            } else {
                                shown
                            };
                            &shown == want
                        })
                });
            match found {
                Some(sig) => {
                    let constant: Vec<String> = (0..sig.parameters.len())
                        .filter(|&i| builtins::requires_constant_argument(sig.id, i))
                        .map(|i| {
                            builtins::parameter_name(sig.id, i)
                                .unwrap_or("?")
                                .to_string()
                        })
                        .collect();
                    format!(
                        "{}{}{}",
                        sig.return_type.display(&structs),
                        if sig.constant_foldable {
                            ""
                        } else {
                            " (not foldable)"
                        },
                        if constant.is_empty() {
                            String::new()
                        } else {
                            format!(" constant: {}", constant.join(", "))
                        }
                    )
                }
                None => "none".to_string(),
            }
        };
        let _ = writeln!(out, "{line}\n  => {answer}");
    }
    check_file("queries.expected", &out).unwrap_or_else(|e| panic!("{e}"));
    let _ = Type::Void;
}

#[path = "builtins/validate.rs"]
mod validate;

use rgl_glsl::arena::Handle;
use rgl_glsl::builtins::{BuiltinId, BuiltinSignature};
use rgl_glsl::hir::{
    Expr, ExprKind, Function, Item, Module, ScalarValue, Signature, VarMode, Variable,
};
use rgl_glsl::types::{SamplerDim, ScalarKind};

/// Every overload in the table, by walking ids until the table ends.
fn all_signatures() -> Vec<BuiltinSignature> {
    (0u32..)
        .map_while(|i| builtins::signature(BuiltinId(i)))
        .collect()
}

/// A module holding one variable per parameter (named `arg0`, …) and `ret`.
fn call_module(
    version: Version,
    stage: Stage,
    sig: &BuiltinSignature,
) -> (Module, Vec<Handle<Expr>>, Option<Handle<Expr>>) {
    let mut module = Module {
        version: Some(version),
        stage: Some(stage),
        ..Module::default()
    };
    let mut args = Vec::new();
    for (i, (ty, _)) in sig.parameters.iter().enumerate() {
        let mode = if ty.is_sampler() {
            VarMode::Uniform
        } else {
            VarMode::Auto
        };
        let var = module
            .variables
            .append(Variable::new(format!("arg{i}"), ty.clone(), mode));
        module.items.push(Item::Variable(var));
        args.push(module.exprs.append(Expr {
            kind: ExprKind::VarRef(var),
            ty: ty.clone(),
        }));
    }
    let ret = (sig.return_type != Type::Void).then(|| {
        let var =
            module
                .variables
                .append(Variable::new("ret", sig.return_type.clone(), VarMode::Auto));
        module.items.push(Item::Variable(var));
        module.exprs.append(Expr {
            kind: ExprKind::VarRef(var),
            ty: sig.return_type.clone(),
        })
    });
    (module, args, ret)
}

/// A constant argument of type `ty` with distinct, well-behaved values.
fn sample_constant(ty: &Type, seed: usize) -> Option<Constant> {
    let n = ty.components() as usize;
    let values = (0..n)
        .map(|i| {
            let k = (seed * 3 + i) as i32;
            match ty.scalar_kind() {
                Some(ScalarKind::Float) => Some(ScalarValue::Float(0.25 + 0.125 * k as f32)),
                Some(ScalarKind::Int) => Some(ScalarValue::Int(k + 1)),
                Some(ScalarKind::Uint) => Some(ScalarValue::Uint(k as u32 + 1)),
                Some(ScalarKind::Bool) => Some(ScalarValue::Bool(k % 2 == 0)),
                None => None,
            }
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Constant::Components(values.into()))
}

/// Every overload expands (call form) into well-typed IR trees, and every
/// constant-foldable one also expands (value form) into a tree the constant
/// evaluator folds.
#[test]
fn every_overload_expands_to_valid_ir() {
    let mut problems = Vec::new();
    let version = Version {
        number: 330,
        profile: Profile::Compatibility,
    };
    for sig in all_signatures() {
        // The interpolation functions read gl_FragCoord: fragment shaders.
        let stage = if sig.name.starts_with("interpolateAt") {
            Stage::Fragment
        } else {
            Stage::Vertex
        };
        let (mut module, args, ret) = call_module(version, stage, &sig);
        let stmts = builtins::expand_call(sig.id, &mut module, ret, &args);
        let structs = StructArena::new();
        let params: Vec<String> = sig
            .parameters
            .iter()
            .map(|(t, _)| t.display(&structs).to_string())
            .collect();
        let label = format!("{}({})", sig.name, params.join(", "));
        if builtins::keeps_call(sig.id) {
            // No IR expansion: the call is kept for later stages; the
            // foldable ones must still fold on constant arguments.
            if !stmts.is_empty() {
                problems.push(format!("{label}: a kept call expands"));
            }
            if sig.constant_foldable {
                fold_problems(&sig, &label, &mut problems);
            }
            continue;
        }
        if stmts.is_empty() {
            problems.push(format!("{label}: no statements"));
            continue;
        }
        // Texture lookups name every parameter; only offsets must be constant.
        let names: Vec<Option<&str>> = (0..=sig.parameters.len())
            .map(|i| builtins::parameter_name(sig.id, i))
            .collect();
        let is_texture = names[0] == Some("sampler");
        if is_texture
            && (names[..sig.parameters.len()].contains(&None)
                || names[sig.parameters.len()].is_some())
        {
            problems.push(format!("{label}: parameter names {names:?}"));
        }
        let has_offset_name = names.contains(&Some("offset"));
        let has_constant =
            (0..sig.parameters.len()).any(|i| builtins::requires_constant_argument(sig.id, i));
        if has_offset_name != has_constant || (has_constant && !sig.name.contains("Offset")) {
            problems.push(format!("{label}: constant offset parameter mismatch"));
        }
        if let Err(e) = validate::check_stmts(&module, &stmts) {
            problems.push(format!("{label}: {e}"));
        }
        // The same call with its result discarded still expands.
        let (mut module, args, _) = call_module(version, stage, &sig);
        let stmts = builtins::expand_call(sig.id, &mut module, None, &args);
        if stmts.is_empty() {
            problems.push(format!(
                "{label}: no statements when the result is discarded"
            ));
        } else if let Err(e) = validate::check_stmts(&module, &stmts) {
            problems.push(format!("{label} (discarded): {e}"));
        }
        if sig.constant_foldable {
            fold_problems(&sig, &label, &mut problems);
        } else if !args.is_empty() {
            let mut module = Module::default();
            let args: Vec<_> = sig
                .parameters
                .iter()
                .map(|(ty, _)| {
                    module.exprs.append(Expr {
                        kind: ExprKind::Constant(Constant::Components(Default::default())),
                        ty: ty.clone(),
                    })
                })
                .collect();
            if builtins::expand_value(sig.id, &mut module, &args).is_some() {
                problems.push(format!("{label}: not foldable but has a value expansion"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// A constant-foldable overload expands (value form) on sample constants into
/// a valid tree the constant evaluator folds.
fn fold_problems(sig: &BuiltinSignature, label: &str, problems: &mut Vec<String>) {
    let mut module = Module::default();
    let mut args = Vec::new();
    for (i, (ty, _)) in sig.parameters.iter().enumerate() {
        let value = sample_constant(ty, i).expect("foldable parameters are numeric");
        args.push(module.exprs.append(Expr {
            kind: ExprKind::Constant(value),
            ty: ty.clone(),
        }));
    }
    match builtins::expand_value(sig.id, &mut module, &args) {
        None => problems.push(format!("{label}: foldable but no value expansion")),
        Some(value) => {
            let mut seen = std::collections::HashSet::new();
            if let Err(e) = validate::check_expr(&module, value, &mut seen) {
                problems.push(format!("{label} (value): {e}"));
            } else if rgl_glsl::hir::const_eval::evaluate(&module, value).is_none() {
                problems.push(format!("{label}: value expansion does not fold"));
            }
        }
    }
}

/// Finds the overload `name(types…)` visible in `avail`.
fn find_overload(
    name: &str,
    types: &[String],
    avail: &Availability<'_>,
) -> Option<BuiltinSignature> {
    let structs = StructArena::new();
    builtins::find_functions(name, avail)
        .into_iter()
        .find(|sig| {
            sig.parameters.len() == types.len()
                && sig.parameters.iter().zip(types).all(|((ty, dir), want)| {
                    let shown = ty.display(&structs).to_string();
                    let shown = if *dir == ParamDirection::Out {
                        format!("out {shown}")
                    } else {
                        shown
                    };
                    &shown == want
                })
        })
}

/// `expansions.txt`: `CONTEXT : name(type, …)` → the printed IR of the call's
/// expansion (arguments are variables `arg0`…, the result goes to `ret`).
#[test]
fn printed_expansions() {
    let input = std::fs::read_to_string(data_dir().join("expansions.txt")).expect("expansions.txt");
    let mut out = String::new();
    for line in input.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (context, query) = line.split_once(" : ").expect("CONTEXT : call");
        let words: Vec<&str> = context.split_whitespace().collect();
        let (version, stage, extensions) = parse_context(&words).expect("bad context");
        let avail = Availability {
            version,
            stage,
            extensions: &extensions,
        };
        let (name, args) = query.split_once('(').expect("call syntax");
        let types: Vec<String> = args
            .trim_end_matches(')')
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        let _ = writeln!(out, "# {line}");
        let Some(sig) = find_overload(name.trim(), &types, &avail) else {
            let _ = writeln!(out, "no such overload\n");
            continue;
        };
        let (mut module, args, ret) = call_module(version, stage, &sig);
        let body = builtins::expand_call(sig.id, &mut module, ret, &args);
        let main = Function {
            name: "main".into(),
            signatures: vec![Signature {
                return_type: Type::Void,
                parameters: vec![],
                body,
                is_defined: true,
                builtin: None,
            }],
        };
        let function = module.functions.append(main);
        module.items.push(Item::Function(function));
        out.push_str(&rgl_glsl::hir::print::print_module(&module));
        out.push('\n');
    }
    check_file("expansions.expected", &out).unwrap_or_else(|e| panic!("{e}"));
}

/// Parses `type(v v …)` into a constant expression.
fn parse_constant_arg(module: &mut Module, text: &str) -> Option<(Handle<Expr>, String)> {
    let (type_name, values) = text.trim().split_once('(')?;
    let ty = parse_type(type_name.trim())?;
    let kind = ty.scalar_kind()?;
    let values: Vec<ScalarValue> = values
        .trim_end_matches(')')
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(|v| match kind {
            ScalarKind::Float => v.parse().ok().map(ScalarValue::Float),
            ScalarKind::Int => v.parse().ok().map(ScalarValue::Int),
            ScalarKind::Uint => v.parse().ok().map(ScalarValue::Uint),
            ScalarKind::Bool => v.parse().ok().map(ScalarValue::Bool),
        })
        .collect::<Option<_>>()?;
    let values = if values.len() == 1 {
        vec![values[0]; ty.components() as usize]
    } else {
        values
    };
    if values.len() != ty.components() as usize {
        return None;
    }
    let handle = module.exprs.append(Expr {
        kind: ExprKind::Constant(Constant::Components(values.into())),
        ty,
    });
    Some((handle, type_name.trim().to_string()))
}

fn parse_type(name: &str) -> Option<Type> {
    let scalar = |k: &str| match k {
        "" => Some(ScalarKind::Float),
        "i" => Some(ScalarKind::Int),
        "u" => Some(ScalarKind::Uint),
        "b" => Some(ScalarKind::Bool),
        _ => None,
    };
    Some(match name {
        "float" => Type::FLOAT,
        "int" => Type::INT,
        "uint" => Type::UINT,
        "bool" => Type::BOOL,
        _ => {
            if let Some(dims) = name.strip_prefix("mat") {
                let (c, r) = match dims.split_once('x') {
                    Some((c, r)) => (c.parse().ok()?, r.parse().ok()?),
                    None => (dims.parse().ok()?, dims.parse().ok()?),
                };
                Type::mat(c, r)
            } else {
                let (prefix, n) = name.split_once("vec")?;
                Type::Vector(scalar(prefix)?, n.parse().ok()?)
            }
        }
    })
}

/// `values.txt`: `name(type(values), …)` → the constant the value expansion
/// folds to (through `hir::const_eval`), printed as a Mesa constant.
#[test]
fn folded_values() {
    let input = std::fs::read_to_string(data_dir().join("values.txt")).expect("values.txt");
    let version = Version {
        number: 330,
        profile: Profile::Compatibility,
    };
    let avail = Availability {
        version,
        stage: Stage::Vertex,
        extensions: &[],
    };
    let mut out = String::new();
    for line in input.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (avail, call) = match line.split_once(" : ") {
            Some((context, call)) => {
                let words: Vec<&str> = context.split_whitespace().collect();
                let (version, stage, _) = parse_context(&words).expect("bad context");
                (
                    Availability {
                        version,
                        stage,
                        extensions: &[],
                    },
                    call,
                )
            }
            None => (avail, line),
        };
        let (name, rest) = call.split_once('(').expect("call syntax");
        let rest = rest.strip_suffix(')').expect("closing parenthesis");
        let mut module = Module::default();
        let mut args = Vec::new();
        let mut types = Vec::new();
        for piece in rest.split(';') {
            let (arg, ty) = parse_constant_arg(&mut module, piece)
                .unwrap_or_else(|| panic!("bad argument {piece}"));
            args.push(arg);
            types.push(ty);
        }
        let answer = match find_overload(name.trim(), &types, &avail) {
            None => "no such overload".to_string(),
            Some(sig) => match builtins::expand_value(sig.id, &mut module, &args) {
                None => "not foldable".to_string(),
                Some(value) => match rgl_glsl::hir::const_eval::evaluate(&module, value) {
                    None => "does not fold".to_string(),
                    Some(c) => rgl_glsl::hir::print::format_constant(&module, &c, &sig.return_type),
                },
            },
        };
        let _ = writeln!(out, "{line}\n  => {}", answer.trim_end());
    }
    check_file("values.expected", &out).unwrap_or_else(|e| panic!("{e}"));
    let _ = SamplerDim::D2;
}
