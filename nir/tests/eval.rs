//! Interpreter file tests: `tests/eval/*.nir` hold an `eval` header, input lines, the
//! shader, and the expected result of evaluating it as `; ` comment lines after a
//! `; expect:` marker. `BLESS=1` rewrites the expectations (review the diff).
//!
//! Input lines (before the `shader:` line; values are `1.5` / `-2.0e3` floats, `0x..`
//! raw words or decimal integers):
//! * `input LOC.xyzw v...` / `input[V] LOC.xyzw v...`: input components (vertex `V`
//!   for geometry shaders); `LOC` is a location name or number;
//! * `uniform SLOT v...`: up to four words of a default-block uniform slot;
//! * `ubo BLOCK v...`: words appended (little endian) to a uniform block;
//! * `sysval SYSTEM_VALUE_X v...`: a system value;
//! * `texture N WxHxD LEVELS`: size of the procedural texture of sampler `N`;
//! * `image N WxHxD`: a zero-filled image at image index `N` (its final texels
//!   that are not all zero are printed);
//! * `budget N`: instruction budget.
//!
//! `opt_loop_preserves_eval_results` runs every eval file-test shader through the
//! optimisation loop, evaluating after each pass: defined outputs must not change (a
//! small translation validation of the loop's passes, naming the first bad pass).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use rgl_nir::eval::{evaluate, EvalImage, EvalInput, EvalOutput, InputKey, Texture};
use rgl_nir::ir::names::{self, LocKind};
use rgl_nir::ir::Stage;

#[test]
fn eval_filetests() {
    common::run_expect_files("eval", "eval file tests", run_one);
}

fn parse_word(s: &str) -> Result<u32, String> {
    if let Some(h) = s.strip_prefix("0x") {
        return u32::from_str_radix(h, 16).map_err(|e| format!("bad hex `{s}`: {e}"));
    }
    if s.contains(['.', 'e', 'n', 'i']) {
        return s
            .parse::<f32>()
            .map(f32::to_bits)
            .map_err(|e| format!("bad float `{s}`: {e}"));
    }
    if let Ok(v) = s.parse::<i32>() {
        return Ok(v as u32);
    }
    s.parse::<u32>()
        .map_err(|e| format!("bad number `{s}`: {e}"))
}

/// `LOC.xyzw` → (location, first component, count).
fn parse_loc(s: &str) -> Result<(i32, u8, usize), String> {
    let (loc, sw) = s.split_once('.').unwrap_or((s, "x"));
    let location = names::parse_location(loc).ok_or(format!("unknown location `{loc}`"))?;
    let first = names::component_of(sw.as_bytes().first().copied().unwrap_or(b'x'))
        .ok_or(format!("bad components `{sw}`"))?;
    Ok((location, first, sw.len()))
}

fn parse_inputs(header: &[&str]) -> Result<EvalInput, String> {
    let mut input = EvalInput::default();
    for line in header {
        let mut parts = line.split_whitespace();
        let Some(kw) = parts.next() else { continue };
        let rest: Vec<&str> = parts.collect();
        let words = |from: usize| -> Result<Vec<u32>, String> {
            rest.iter().skip(from).map(|w| parse_word(w)).collect()
        };
        if let Some(v) = kw.strip_prefix("input") {
            let vertex = match v.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
                Some(n) => n.parse().map_err(|_| format!("bad vertex in `{line}`"))?,
                None if v.is_empty() => 0,
                None => return Err(format!("bad input line `{line}`")),
            };
            let (location, first, count) =
                parse_loc(rest.first().ok_or("input needs a location")?)?;
            let vals = words(1)?;
            if vals.len() != count {
                return Err(format!(
                    "`{line}`: {count} components but {} values",
                    vals.len()
                ));
            }
            for (i, v) in vals.into_iter().enumerate() {
                input.inputs.insert(
                    InputKey {
                        vertex,
                        location,
                        component: first + i as u8,
                    },
                    v,
                );
            }
        } else if kw == "uniform" {
            let slot: usize = rest
                .first()
                .and_then(|s| s.parse().ok())
                .ok_or(format!("bad uniform slot in `{line}`"))?;
            let vals = words(1)?;
            if input.uniforms.len() <= slot {
                input.uniforms.resize(slot + 1, [0; 4]);
            }
            for (i, v) in vals.into_iter().enumerate().take(4) {
                input.uniforms[slot][i] = v;
            }
        } else if kw == "ubo" {
            let block: usize = rest
                .first()
                .and_then(|s| s.parse().ok())
                .ok_or(format!("bad block in `{line}`"))?;
            if input.ubos.len() <= block {
                input.ubos.resize(block + 1, Vec::new());
            }
            for v in words(1)? {
                input.ubos[block].extend_from_slice(&v.to_le_bytes());
            }
        } else if kw == "sysval" {
            let loc = names::parse_location(rest.first().ok_or("sysval needs a name")?)
                .ok_or(format!("unknown system value in `{line}`"))?;
            let mut v = [0u32; 4];
            for (i, w) in words(1)?.into_iter().enumerate().take(4) {
                v[i] = w;
            }
            input.system_values.insert(loc, v);
        } else if kw == "texture" {
            let n: usize = rest
                .first()
                .and_then(|s| s.parse().ok())
                .ok_or(format!("bad sampler in `{line}`"))?;
            let dims: Vec<u32> = rest
                .get(1)
                .ok_or("texture needs WxHxD")?
                .split('x')
                .map(|d| d.parse().map_err(|_| format!("bad size in `{line}`")))
                .collect::<Result<_, _>>()?;
            let levels = rest.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
            if input.textures.len() <= n {
                input.textures.resize(n + 1, Texture::default());
            }
            input.textures[n] = Texture {
                width: dims.first().copied().unwrap_or(1),
                height: dims.get(1).copied().unwrap_or(1),
                depth: dims.get(2).copied().unwrap_or(1),
                levels,
                texels: None,
                seed: n as u32 + 1,
            };
        } else if kw == "image" {
            let n: usize = rest
                .first()
                .and_then(|s| s.parse().ok())
                .ok_or(format!("bad image index in `{line}`"))?;
            let dims: Vec<u32> = rest
                .get(1)
                .ok_or("image needs WxHxD")?
                .split('x')
                .map(|d| d.parse().map_err(|_| format!("bad size in `{line}`")))
                .collect::<Result<_, _>>()?;
            if input.images.len() <= n {
                input.images.resize(n + 1, EvalImage::default());
            }
            let d = |i: usize| dims.get(i).copied().unwrap_or(1);
            input.images[n] = EvalImage::new([d(0), d(1), d(2)]);
        } else if kw == "budget" {
            input.max_instructions = rest
                .first()
                .and_then(|s| s.parse().ok())
                .ok_or(format!("bad budget in `{line}`"))?;
        } else {
            return Err(format!("unknown input line `{line}`"));
        }
    }
    Ok(input)
}

fn word(v: u32) -> String {
    let f = f32::from_bits(v);
    let exp = (v >> 23) & 0xff;
    if v == 0 || (exp != 0 && exp != 0xff && f.abs() < 1e9 && f.abs() > 1e-9) {
        format!("0x{v:08x} ({f:?})")
    } else {
        format!("0x{v:08x} ({})", v as i32)
    }
}

fn print_outputs(
    stage: Stage,
    outputs: &BTreeMap<(i32, u8), u32>,
    undefined: &BTreeSet<(i32, u8)>,
    prefix: &str,
    out: &mut String,
) {
    let kind = if stage == Stage::Fragment {
        LocKind::FragResult
    } else {
        LocKind::Varying
    };
    for ((loc, comp), v) in outputs {
        let c = names::XYZW
            .get(usize::from(*comp))
            .map(|c| *c as char)
            .unwrap_or('?');
        if undefined.contains(&(*loc, *comp)) {
            let _ = writeln!(
                out,
                "; {prefix}{}.{c} = undefined",
                names::location_name(kind, *loc)
            );
        } else {
            let _ = writeln!(
                out,
                "; {prefix}{}.{c} = {}",
                names::location_name(kind, *loc),
                word(*v)
            );
        }
    }
}

fn print_result(stage: Stage, r: &Result<EvalOutput, rgl_nir::eval::EvalError>) -> String {
    let mut out = String::new();
    match r {
        Err(e) => {
            let _ = writeln!(out, "; error: {e}");
        }
        Ok(r) => {
            if r.discarded {
                out.push_str("; discarded\n");
            }
            if r.undefined_control > 0 {
                let _ = writeln!(out, "; undefined control flow x{}", r.undefined_control);
            }
            print_outputs(stage, &r.outputs, &r.undefined, "", &mut out);
            for (i, v) in r.emitted.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "; emit {i} (stream {}, primitive {})",
                    v.stream, v.primitive
                );
                print_outputs(stage, &v.outputs, &v.undefined, "  ", &mut out);
            }
            if r.primitives_ended > 0 {
                let _ = writeln!(out, "; end_primitive x{}", r.primitives_ended);
            }
            for (i, img) in r.images.iter().enumerate() {
                for (t, texel) in img.texels.iter().enumerate() {
                    if texel.iter().any(|w| *w != 0) {
                        let words: Vec<String> = texel.iter().map(|w| word(*w)).collect();
                        let _ = writeln!(out, "; image {i} texel {t} = {}", words.join(" "));
                    }
                }
            }
            if r.out_of_bounds > 0 {
                let _ = writeln!(out, "; out_of_bounds x{}", r.out_of_bounds);
            }
        }
    }
    out
}

fn run_one(text: &str) -> Result<(String, String), String> {
    let mut lines = text.lines();
    if lines.next() != Some("eval") {
        return Err("first line must be `eval`".into());
    }
    let header: Vec<&str> = lines
        .clone()
        .take_while(|l| !l.starts_with("shader:"))
        .filter(|l| !l.trim().is_empty() && !l.starts_with("//"))
        .collect();
    let input = parse_inputs(&header)?;
    let prefix: String = std::iter::once("eval")
        .chain(
            text.lines()
                .skip(1)
                .take_while(|l| !l.starts_with("; expect:")),
        )
        .map(|l| format!("{l}\n"))
        .collect();
    let shader_text: String = text
        .lines()
        .skip_while(|l| !l.starts_with("shader:"))
        .take_while(|l| !l.starts_with("; expect:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let shader = rgl_nir::reader::parse_shader(&shader_text).map_err(|e| format!("input: {e}"))?;
    rgl_nir::validate::validate(&shader).map_err(|e| format!("input invalid: {e}"))?;
    let result = evaluate(&shader, &input);
    let printed = print_result(shader.stage, &result);
    Ok((prefix, format!("; expect:\n{printed}")))
}

/// The optimisation loop must keep every defined output of the eval file tests: each
/// shader is optimised with an observer that evaluates it after every pass that made
/// progress; a difference names the first pass that changed the result.
#[test]
fn opt_loop_preserves_eval_results() {
    let mut failures = Vec::new();
    for path in common::nir_files(&common::tests_dir().join("eval")) {
        let text = std::fs::read_to_string(&path).expect("read");
        let header: Vec<&str> = text
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("shader:"))
            .filter(|l| !l.trim().is_empty() && !l.starts_with("//"))
            .collect();
        let Ok(input) = parse_inputs(&header) else {
            continue;
        };
        let body: String = text
            .lines()
            .skip_while(|l| !l.starts_with("shader:"))
            .take_while(|l| !l.starts_with("; expect:"))
            .map(|l| format!("{l}\n"))
            .collect();
        let Ok(shader) = rgl_nir::reader::parse_shader(&body) else {
            continue;
        };
        let Ok(reference) = evaluate(&shader, &input) else {
            continue;
        };
        if reference.undefined_control > 0 {
            continue;
        }
        let mut first_bad: Option<String> = None;
        let mut optimized = shader.clone();
        {
            let mut observer = |pass: &'static str, s: &rgl_nir::ir::Shader| {
                if first_bad.is_some() {
                    return;
                }
                let same = match evaluate(s, &input) {
                    Ok(r) => {
                        reference
                            .outputs
                            .iter()
                            .filter(|(k, _)| !reference.undefined.contains(k))
                            .all(|(k, v)| r.outputs.get(k) == Some(v))
                            && r.discarded == reference.discarded
                            && r.emitted.len() == reference.emitted.len()
                    }
                    Err(_) => false,
                };
                if !same {
                    first_bad = Some(format!(
                        "{}: `{pass}` changed the result; shader after it:\n{}",
                        path.display(),
                        rgl_nir::print::print_shader(s)
                    ));
                }
            };
            let mut runner = rgl_nir::passes::Runner::with_observer(&mut observer);
            if let Err(e) = rgl_nir::passes::opt_loop::optimize(&mut runner, &mut optimized) {
                failures.push(format!("{}: {e}", path.display()));
            }
        }
        failures.extend(first_bad);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Shader texts of every NIR corpus in `tests/` (round-trip corpus, pass file-test
/// inputs, eval file-test shaders).
fn corpus_shaders() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["ir", "filetests", "eval"] {
        for p in common::nir_files(&common::tests_dir().join(dir)) {
            let t = std::fs::read_to_string(p).expect("read");
            let body: String = t
                .lines()
                .skip_while(|l| !l.starts_with("shader:"))
                .take_while(|l| !l.starts_with("; expect:"))
                .map(|l| format!("{l}\n"))
                .collect();
            out.push(body);
        }
    }
    out
}

/// The interpreter never panics: every corpus shader, and every line-level mutant of
/// it (line deleted, two lines swapped) that still parses and validates, evaluates to
/// a result or an error, with zero inputs and with filled inputs and a tiny budget.
#[test]
fn eval_never_panics_on_mutants() {
    let mut filled = EvalInput {
        uniforms: vec![[0x3f80_0000, 2, 0xffff_ffff, 0x4000_0000]; 64],
        ubos: vec![vec![0x41; 256]; 4],
        ..EvalInput::default()
    };
    for loc in 0..64 {
        for component in 0..4u8 {
            for vertex in 0..3 {
                filled.inputs.insert(
                    InputKey {
                        vertex,
                        location: loc,
                        component,
                    },
                    0x3f00_0000 + u32::from(component),
                );
            }
        }
    }
    filled.max_instructions = 20_000;
    let zero = EvalInput {
        max_instructions: 20_000,
        ..EvalInput::default()
    };
    let mut tiny = filled.clone();
    tiny.max_instructions = 20;
    let mut evaluated = 0;
    for text in corpus_shaders() {
        let lines: Vec<&str> = text.lines().collect();
        let mut variants = vec![text.clone()];
        for i in 0..lines.len() {
            let mut v = lines.clone();
            v.remove(i);
            variants.push(v.iter().map(|l| format!("{l}\n")).collect());
            if i + 1 < lines.len() {
                let mut v = lines.clone();
                v.swap(i, i + 1);
                variants.push(v.iter().map(|l| format!("{l}\n")).collect());
            }
        }
        for v in variants {
            let Ok(shader) = rgl_nir::reader::parse_shader(&v) else {
                continue;
            };
            if rgl_nir::validate::validate(&shader).is_err() {
                continue;
            }
            for input in [&zero, &filled, &tiny] {
                let _ = evaluate(&shader, input);
                evaluated += 1;
            }
        }
    }
    assert!(evaluated > 100, "only {evaluated} evaluations");
}
