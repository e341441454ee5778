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
        if let Some(c) = &var.constant_value {
            let _ = write!(out, " = {}", render_constant(c));
        }
        out.push('\n');
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
                Some(sig) => format!(
                    "{}{}",
                    sig.return_type.display(&structs),
                    if sig.constant_foldable {
                        ""
                    } else {
                        " (not foldable)"
                    }
                ),
                None => "none".to_string(),
            }
        };
        let _ = writeln!(out, "{line}\n  => {answer}");
    }
    check_file("queries.expected", &out).unwrap_or_else(|e| panic!("{e}"));
    let _ = Type::Void;
}
