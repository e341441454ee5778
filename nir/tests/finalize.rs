//! Draw-time variant file tests: `tests/finalize/*.nir` hold a `finalize <options>`
//! header, optional `run <inputs>` lines, the (IO-lowered) shader, and, after a
//! `; expect:` marker, the shader after `finalize_variant` (or its error) followed by
//! what the reference interpreter computes for every run, before and after
//! finalisation. `BLESS=1` rewrites the expectations (review the diff).
//!
//! Options (whitespace separated): `clamp_color`, `flatshade`, `two_sided`,
//! `alpha=<func>:<ref slot>`, `point_size=<slot>`, `ucp=<enables>:<first slot>`, and
//! for the driver's compiler options `scalar` (`lower_to_scalar`).
//! A `run` line lists `;`-separated inputs: `input[V] LOC.xyzw v...`,
//! `uniform SLOT v...`, `sysval SYSTEM_VALUE_X v...` (floats with a `.`, else
//! integers or `0x` words).

mod common;

use std::collections::BTreeSet;
use std::fmt::Write;

use rgl_nir::eval::{evaluate, EvalInput, InputKey, Outputs};
use rgl_nir::finalize::{finalize_variant, VariantLowering};
use rgl_nir::ir::names::{self, LocKind};
use rgl_nir::ir::{Shader, Stage};
use rgl_nir::options::CompilerOptions;
use rgl_nir::passes::lower_alpha_test::CompareFunc;
use rgl_nir::passes::Runner;

#[test]
fn finalize_filetests() {
    common::run_expect_files("finalize", "finalize file tests", run_one);
}

fn num(s: &str) -> Result<u32, String> {
    let r = if let Some(h) = s.strip_prefix("0x") {
        u32::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b") {
        u32::from_str_radix(b, 2).ok()
    } else {
        s.parse().ok()
    };
    r.ok_or(format!("bad number `{s}`"))
}

fn word(s: &str) -> Result<u32, String> {
    if s.contains('.') {
        return s
            .parse::<f32>()
            .map(f32::to_bits)
            .map_err(|e| format!("bad float `{s}`: {e}"));
    }
    if let Ok(v) = s.parse::<i32>() {
        return Ok(v as u32);
    }
    num(s)
}

fn parse_options(line: &str) -> Result<(VariantLowering, CompilerOptions), String> {
    let mut o = VariantLowering::default();
    let mut compiler = CompilerOptions::default();
    for w in line.split_whitespace() {
        let (k, v) = w.split_once('=').unwrap_or((w, ""));
        let pair = || -> Result<(&str, u32), String> {
            let (a, b) = v.split_once(':').ok_or(format!("`{w}` needs a:b"))?;
            Ok((a, num(b)?))
        };
        match k {
            "scalar" => compiler.lower_to_scalar = true,
            "clamp_color" => o.clamp_color = true,
            "flatshade" => o.flatshade = true,
            "two_sided" => o.two_sided_color = true,
            "alpha" => {
                let (f, slot) = pair()?;
                o.alpha_func = CompareFunc::parse(f).ok_or(format!("bad func `{f}`"))?;
                o.alpha_ref_slot = slot;
            }
            "point_size" => o.point_size_slot = Some(num(v)?),
            "ucp" => {
                let (e, slot) = pair()?;
                o.ucp_enables = u8::try_from(num(e)?).map_err(|_| "ucp enables is 8 bits")?;
                o.clip_plane_slot = slot;
            }
            _ => return Err(format!("unknown option `{w}`")),
        }
    }
    Ok((o, compiler))
}

fn parse_run(line: &str) -> Result<EvalInput, String> {
    let mut input = EvalInput::default();
    for item in line.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let parts: Vec<&str> = item.split_whitespace().collect();
        let (kw, rest) = parts.split_first().ok_or("empty run item")?;
        if let Some(v) = kw.strip_prefix("input") {
            let vertex = match v.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
                Some(n) => n.parse().map_err(|_| format!("bad vertex in `{item}`"))?,
                None => 0,
            };
            let loc = rest.first().ok_or("input needs a location")?;
            let (l, sw) = loc.split_once('.').unwrap_or((loc, "x"));
            let location = names::parse_location(l).ok_or(format!("unknown location `{l}`"))?;
            let first = names::component_of(sw.as_bytes()[0]).ok_or("bad components")?;
            for (i, w) in rest[1..].iter().enumerate() {
                let key = InputKey {
                    vertex,
                    location,
                    component: first + i as u8,
                };
                input.inputs.insert(key, word(w)?);
            }
        } else if *kw == "uniform" {
            let slot = num(rest.first().ok_or("uniform needs a slot")?)? as usize;
            if input.uniforms.len() <= slot {
                input.uniforms.resize(slot + 1, [0; 4]);
            }
            for (i, w) in rest[1..].iter().enumerate().take(4) {
                input.uniforms[slot][i] = word(w)?;
            }
        } else if *kw == "sysval" {
            let name = rest.first().ok_or("sysval needs a name")?;
            let loc = names::parse_location(name).ok_or(format!("unknown sysval `{name}`"))?;
            let mut v = [0u32; 4];
            for (i, w) in rest[1..].iter().enumerate().take(4) {
                v[i] = word(w)?;
            }
            input.system_values.insert(loc, v);
        } else {
            return Err(format!("unknown run item `{item}`"));
        }
    }
    Ok(input)
}

fn print_outputs(
    stage: Stage,
    outputs: &Outputs,
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
            .map_or('?', |c| *c as char);
        let name = names::location_name(kind, *loc);
        if undefined.contains(&(*loc, *comp)) {
            let _ = writeln!(out, "; {prefix}{name}.{c} = undefined");
        } else {
            let _ = writeln!(out, "; {prefix}{name}.{c} = {:?}", f32::from_bits(*v));
        }
    }
}

fn eval_text(shader: &Shader, input: &EvalInput, out: &mut String) {
    match evaluate(shader, input) {
        Err(e) => {
            let _ = writeln!(out, ";   error: {e:?}");
        }
        Ok(r) if r.discarded => out.push_str(";   discarded\n"),
        Ok(r) => {
            print_outputs(shader.stage, &r.outputs, &r.undefined, "  ", out);
            for (i, v) in r.emitted.iter().enumerate() {
                print_outputs(
                    shader.stage,
                    &v.outputs,
                    &v.undefined,
                    &format!("  v{i} "),
                    out,
                );
            }
        }
    }
}

/// Returns (the file up to the expectations, the expectation text produced).
fn run_one(text: &str) -> Result<(String, String), String> {
    let mut lines = text.lines().peekable();
    let header = lines.next().ok_or("empty file")?;
    let (opts, compiler) = parse_options(
        header
            .strip_prefix("finalize")
            .ok_or("first line must be `finalize <options>`")?,
    )?;
    let mut runs = Vec::new();
    let mut head = format!("{header}\n");
    while let Some(l) = lines.peek().and_then(|l| l.strip_prefix("run ")) {
        runs.push(parse_run(l)?);
        head.push_str(&format!("run {l}\n"));
        lines.next();
    }
    let input: String = lines
        .take_while(|l| !l.starts_with("; expect:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let original = rgl_nir::reader::parse_shader(&input).map_err(|e| format!("input: {e}"))?;
    rgl_nir::validate::validate(&original).map_err(|e| format!("input invalid: {e}"))?;
    let mut shader = original.clone();
    let mut runner = Runner::new();
    runner.validate = true;
    let mut out = String::from("; expect:\n");
    match finalize_variant(&mut shader, &opts, &compiler, &mut runner) {
        Err(e) => {
            let _ = writeln!(out, "; error: {e}");
        }
        Ok(false) => out.push_str("; no change\n"),
        Ok(true) => {
            for l in rgl_nir::print::print_shader(&shader).lines() {
                if l.is_empty() {
                    out.push_str(";\n");
                } else {
                    let _ = writeln!(out, "; {l}");
                }
            }
        }
    }
    for (i, run) in runs.iter().enumerate() {
        let _ = writeln!(out, "; run {i} before:");
        eval_text(&original, run, &mut out);
        let _ = writeln!(out, "; run {i} after:");
        eval_text(&shader, run, &mut out);
    }
    Ok((format!("{head}{input}"), out))
}
