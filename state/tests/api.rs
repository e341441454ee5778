//! API transcript tests: each `tests/api/*.gl` script is a list of GL calls run on a
//! fresh headless context; the test prints every call with its result and the GL
//! error it left, and compares the transcript with `*.out` (`BLESS=1` rewrites).
//!
//! Script syntax: one call per line, `name arg...`; `#` starts a comment. Names
//! (`$vs`) bind results of `create_*` calls. A source argument may be a heredoc:
//! `shader_source $vs <<` followed by lines up to a line `>>`. GL enums are written
//! by name (`GL_VERTEX_SHADER`); numbers are decimal or `0x` hex.

use std::collections::HashMap;
use std::path::Path;

use rgl_state::{gl, Context, Program, Shader, UniformLocation};

#[path = "api/buffers.rs"]
mod buffers;
#[path = "api/compute.rs"]
mod compute;
#[path = "api/query.rs"]
mod query;
#[path = "api/sync.rs"]
mod sync;
#[path = "api/texfb.rs"]
mod texfb;

/// A GL enum by registry name (`GL_VERTEX_SHADER`), from the state tracker's
/// one table of GL enums.
fn enum_value(name: &str) -> Option<u32> {
    gl::by_name(name).map(|(_, value)| value)
}

fn error_name(code: u32) -> &'static str {
    match code {
        gl::NO_ERROR => "GL_NO_ERROR",
        gl::INVALID_ENUM => "GL_INVALID_ENUM",
        gl::INVALID_VALUE => "GL_INVALID_VALUE",
        gl::INVALID_OPERATION => "GL_INVALID_OPERATION",
        gl::INVALID_FRAMEBUFFER_OPERATION => "GL_INVALID_FRAMEBUFFER_OPERATION",
        gl::OUT_OF_MEMORY => "GL_OUT_OF_MEMORY",
        gl::STACK_OVERFLOW => "GL_STACK_OVERFLOW",
        gl::STACK_UNDERFLOW => "GL_STACK_UNDERFLOW",
        _ => "?",
    }
}

/// A GL enum by name, or a decimal / `0x` hex number; `A|B` ORs bit flags.
fn parse_u32(w: &str) -> Result<u32, String> {
    if let Some((l, r)) = w.split_once('|') {
        return Ok(parse_u32(l)? | parse_u32(r)?);
    }
    if let Some(v) = enum_value(w) {
        return Ok(v);
    }
    let parsed = match w.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => w.parse(),
    };
    parsed.map_err(|_| format!("bad number `{w}`"))
}

#[derive(Default)]
struct Names {
    shaders: HashMap<String, Shader>,
    programs: HashMap<String, Program>,
    locations: HashMap<String, Option<UniformLocation>>,
    objects: texfb::Objects,
}

struct Args<'a> {
    words: Vec<&'a str>,
    pos: usize,
}

impl<'a> Args<'a> {
    fn next(&mut self) -> Result<&'a str, String> {
        let w = self
            .words
            .get(self.pos)
            .copied()
            .ok_or("missing argument")?;
        self.pos += 1;
        Ok(w)
    }
    fn u32(&mut self) -> Result<u32, String> {
        parse_u32(self.next()?)
    }
    fn i32(&mut self) -> Result<i32, String> {
        let w = self.next()?;
        w.parse().map_err(|_| format!("bad integer `{w}`"))
    }
    fn f32(&mut self) -> Result<f32, String> {
        let w = self.next()?;
        w.parse().map_err(|_| format!("bad float `{w}`"))
    }
    fn f32s(&mut self) -> Result<Vec<f32>, String> {
        let mut v = Vec::new();
        while self.pos < self.words.len() {
            v.push(self.f32()?);
        }
        Ok(v)
    }
    fn i32s(&mut self) -> Result<Vec<i32>, String> {
        let mut v = Vec::new();
        while self.pos < self.words.len() {
            v.push(self.i32()?);
        }
        Ok(v)
    }
}

fn shader(names: &Names, w: &str) -> Result<Shader, String> {
    names
        .shaders
        .get(w)
        .copied()
        .ok_or(format!("unknown shader {w}"))
}

fn program(names: &Names, w: &str) -> Result<Program, String> {
    names
        .programs
        .get(w)
        .copied()
        .ok_or(format!("unknown program {w}"))
}

fn location(names: &Names, w: &str) -> Result<Option<UniformLocation>, String> {
    names
        .locations
        .get(w)
        .copied()
        .ok_or(format!("unknown location {w}"))
}

/// Runs one call; returns the printed result.
/// The error a call module returns for a name it does not handle, so that
/// [`dispatch`] tries the next module.
const NOT_HANDLED: &str = "\0not handled";

type CallFn = fn(&mut Context, &mut texfb::Objects, &str, &mut Args<'_>) -> Result<String, String>;

/// Runs `name` in the first call module that handles it.
fn dispatch(
    ctx: &mut Context,
    objs: &mut texfb::Objects,
    name: &str,
    a: &mut Args<'_>,
) -> Result<String, String> {
    const MODULES: [CallFn; 5] = [
        texfb::call,
        buffers::call,
        sync::call,
        query::call,
        compute::call,
    ];
    for call in MODULES {
        match call(ctx, objs, name, a) {
            Err(e) if e == NOT_HANDLED => continue,
            r => return r,
        }
    }
    Err(format!("unknown call `{name}`"))
}

fn call(
    ctx: &mut Context,
    names: &mut Names,
    name: &str,
    a: &mut Args<'_>,
    text: Option<&str>,
) -> Result<String, String> {
    Ok(match name {
        "create_shader" => {
            let bind = a.next()?;
            match ctx.create_shader(a.u32()?) {
                Ok(s) => {
                    names.shaders.insert(bind.to_string(), s);
                    format!("{bind} = shader {}", s.name())
                }
                Err(e) => format!("Err({e})"),
            }
        }
        // Subroutines (GL 4.x §7.10): PROGRAM STAGE NAME / INDEX [PNAME].
        "get_subroutine_uniform_location" | "get_subroutine_index" => {
            let (p, stage, n) = (program(names, a.next()?)?, a.u32()?, a.next()?);
            if name == "get_subroutine_index" {
                ctx.get_subroutine_index(p, stage, n).to_string()
            } else {
                ctx.get_subroutine_uniform_location(p, stage, n).to_string()
            }
        }
        "get_active_subroutine_name" | "get_active_subroutine_uniform_name" => {
            let (p, stage, i) = (program(names, a.next()?)?, a.u32()?, a.u32()?);
            if name == "get_active_subroutine_name" {
                ctx.get_active_subroutine_name(p, stage, i)
            } else {
                ctx.get_active_subroutine_uniform_name(p, stage, i)
            }
        }
        "get_active_subroutine_uniform_iv" => {
            let (p, stage, i, pname) = (program(names, a.next()?)?, a.u32()?, a.u32()?, a.u32()?);
            let values = ctx.get_active_subroutine_uniform_iv(p, stage, i, pname);
            values
                .iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        }
        // Program interface queries (GL 4.3 §7.3.1): PROGRAM INTERFACE ...
        "get_program_interface" => {
            let (p, iface, pname) = (program(names, a.next()?)?, a.u32()?, a.u32()?);
            ctx.get_program_interface_i32(p, iface, pname).to_string()
        }
        "get_program_resource_name" => {
            let (p, iface, i) = (program(names, a.next()?)?, a.u32()?, a.u32()?);
            ctx.get_program_resource_name(p, iface, i)
        }
        "get_program_resource" => {
            let (p, iface, i, prop) = (program(names, a.next()?)?, a.u32()?, a.u32()?, a.u32()?);
            let values = ctx.get_program_resource_i32(p, iface, i, &[prop]);
            values
                .iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        }
        "get_program_resource_location" => {
            let (p, iface, n) = (program(names, a.next()?)?, a.u32()?, a.next()?);
            ctx.get_program_resource_location(p, iface, n).to_string()
        }
        "get_program_stage_iv" => {
            let (p, stage, pname) = (program(names, a.next()?)?, a.u32()?, a.u32()?);
            ctx.get_program_stage_iv(p, stage, pname).to_string()
        }
        // uniform_subroutines STAGE INDEX...
        "uniform_subroutines" => {
            let stage = a.u32()?;
            let mut indices = Vec::new();
            while let Ok(i) = a.u32() {
                indices.push(i);
            }
            ctx.uniform_subroutines_uiv(stage, &indices);
            String::new()
        }
        "get_uniform_subroutine" => {
            let (stage, location) = (a.u32()?, a.i32()?);
            ctx.get_uniform_subroutine_uiv(stage, location).to_string()
        }
        "shader_source" => {
            let s = shader(names, a.next()?)?;
            ctx.shader_source(s, text.unwrap_or(""));
            String::new()
        }
        "compile_shader" => {
            let s = shader(names, a.next()?)?;
            ctx.compile_shader(s);
            format!("status {}", ctx.get_shader_compile_status(s))
        }
        // GL_ARB_shading_language_include: names are single words here.
        "named_string" => {
            let (ty, n) = (a.u32()?, a.next()?);
            ctx.named_string(ty, n, text.unwrap_or(""));
            String::new()
        }
        "delete_named_string" => {
            ctx.delete_named_string(a.next()?);
            String::new()
        }
        "is_named_string" => format!("{}", ctx.is_named_string(a.next()?)),
        "get_named_string" => format!("{:?}", ctx.get_named_string(a.next()?)),
        "get_named_string_iv" => {
            let n = a.next()?;
            format!("{}", ctx.get_named_string_iv(n, a.u32()?))
        }
        "compile_shader_include" => {
            let s = shader(names, a.next()?)?;
            let paths: Vec<&str> = std::iter::from_fn(|| a.next().ok()).collect();
            ctx.compile_shader_include(s, &paths);
            format!("status {}", ctx.get_shader_compile_status(s))
        }
        "shader_info_log" => {
            let s = shader(names, a.next()?)?;
            format!("{:?}", ctx.get_shader_info_log(s))
        }
        "delete_shader" => {
            ctx.delete_shader(shader(names, a.next()?)?);
            String::new()
        }
        "is_shader" => format!("{}", ctx.is_shader(shader(names, a.next()?)?)),
        "create_program" => {
            let bind = a.next()?;
            let p = ctx.create_program().map_err(|e| e.to_string())?;
            names.programs.insert(bind.to_string(), p);
            format!("{bind} = program {}", p.name())
        }
        "attach_shader" => {
            let p = program(names, a.next()?)?;
            ctx.attach_shader(p, shader(names, a.next()?)?);
            String::new()
        }
        "detach_shader" => {
            let p = program(names, a.next()?)?;
            ctx.detach_shader(p, shader(names, a.next()?)?);
            String::new()
        }
        "bind_attrib_location" => {
            let p = program(names, a.next()?)?;
            let index = a.u32()?;
            ctx.bind_attrib_location(p, index, a.next()?);
            String::new()
        }
        "link_program" => {
            let p = program(names, a.next()?)?;
            ctx.link_program(p);
            format!("status {}", ctx.get_program_link_status(p))
        }
        "program_info_log" => {
            let p = program(names, a.next()?)?;
            format!("{:?}", ctx.get_program_info_log(p))
        }
        "use_program" => {
            let w = a.next()?;
            let p = if w == "0" {
                None
            } else {
                Some(program(names, w)?)
            };
            ctx.use_program(p);
            String::new()
        }
        "delete_program" => {
            ctx.delete_program(program(names, a.next()?)?);
            String::new()
        }
        "is_program" => format!("{}", ctx.is_program(program(names, a.next()?)?)),
        "get_attrib_location" => {
            let p = program(names, a.next()?)?;
            format!("{:?}", ctx.get_attrib_location(p, a.next()?))
        }
        "get_uniform_location" => {
            let bind = a.next()?;
            let p = program(names, a.next()?)?;
            let loc = ctx.get_uniform_location(p, a.next()?);
            names.locations.insert(bind.to_string(), loc);
            format!("{bind} = {:?}", loc.map(|l| l.0))
        }
        "uniform_f32" => {
            let loc = location(names, a.next()?)?;
            let v = a.f32s()?;
            match v.len() {
                1 => ctx.uniform_1_f32_slice(loc.as_ref(), &v),
                2 => ctx.uniform_2_f32_slice(loc.as_ref(), &v),
                3 => ctx.uniform_3_f32_slice(loc.as_ref(), &v),
                4 => ctx.uniform_4_f32_slice(loc.as_ref(), &v),
                16 => ctx.uniform_matrix_4_f32_slice(loc.as_ref(), false, &v),
                n => return Err(format!("uniform_f32 with {n} values")),
            }
            String::new()
        }
        "uniform_i32" => {
            let loc = location(names, a.next()?)?;
            let v = a.i32s()?;
            match v.len() {
                1 => ctx.uniform_1_i32_slice(loc.as_ref(), &v),
                2 => ctx.uniform_2_i32_slice(loc.as_ref(), &v),
                4 => ctx.uniform_4_i32_slice(loc.as_ref(), &v),
                n => return Err(format!("uniform_i32 with {n} values")),
            }
            String::new()
        }
        "get_uniform" => {
            let p = program(names, a.next()?)?;
            let loc = location(names, a.next()?)?.ok_or("location -1")?;
            let words = ctx.get_uniform_words(p, &loc);
            format!("{words:08x?}")
        }
        "active_uniforms" => {
            let p = program(names, a.next()?)?;
            let mut out = Vec::new();
            let mut i = 0;
            while let Some(u) = ctx.get_active_uniform(p, i) {
                out.push(format!("{}:0x{:04X}x{}", u.name, u.utype, u.size));
                i += 1;
            }
            // The first out-of-range index left GL_INVALID_VALUE; part of the query.
            ctx.get_error();
            out.join(" ")
        }
        "active_uniform_name" => {
            let p = program(names, a.next()?)?;
            ctx.get_active_uniform_name(p, a.u32()?)
        }
        "active_uniform_block_name" => {
            let p = program(names, a.next()?)?;
            ctx.get_active_uniform_block_name(p, a.u32()?)
        }
        "active_uniform_block_indices" => {
            let p = program(names, a.next()?)?;
            format!(
                "{:?}",
                ctx.get_active_uniform_block_uniform_indices(p, a.u32()?)
            )
        }
        "active_uniform_block_parameter" => {
            let p = program(names, a.next()?)?;
            let index = a.u32()?;
            format!(
                "{}",
                ctx.get_active_uniform_block_parameter_i32(p, index, a.u32()?)
            )
        }
        "active_attribs" => {
            let p = program(names, a.next()?)?;
            let mut out = Vec::new();
            let mut i = 0;
            while let Some(u) = ctx.get_active_attrib(p, i) {
                out.push(format!("{}:0x{:04X}x{}", u.name, u.utype, u.size));
                i += 1;
            }
            // The first out-of-range index left GL_INVALID_VALUE; part of the query.
            ctx.get_error();
            out.join(" ")
        }
        "active_uniform_parameter" => {
            let p = program(names, a.next()?)?;
            let index = a.u32()?;
            format!(
                "{}",
                ctx.get_active_uniform_parameter_i32(p, index, a.u32()?)
            )
        }
        "enable" => {
            ctx.enable(a.u32()?);
            String::new()
        }
        "disable" => {
            ctx.disable(a.u32()?);
            String::new()
        }
        "is_enabled" => format!("{}", ctx.is_enabled(a.u32()?)),
        "viewport" => {
            ctx.viewport(a.i32()?, a.i32()?, a.i32()?, a.i32()?);
            String::new()
        }
        "depth_func" => {
            ctx.depth_func(a.u32()?);
            String::new()
        }
        "blend_func" => {
            let (s, d) = (a.u32()?, a.u32()?);
            ctx.blend_func(s, d);
            String::new()
        }
        "cull_face" => {
            ctx.cull_face(a.u32()?);
            String::new()
        }
        "front_face" => {
            ctx.front_face(a.u32()?);
            String::new()
        }
        "point_size" => {
            ctx.point_size(a.f32()?);
            String::new()
        }
        "matrix_mode" => {
            ctx.matrix_mode(a.u32()?);
            String::new()
        }
        "push_matrix" => {
            ctx.push_matrix();
            String::new()
        }
        "pop_matrix" => {
            ctx.pop_matrix();
            String::new()
        }
        "ortho" => {
            let v: Vec<f64> = a.f32s()?.into_iter().map(f64::from).collect();
            let [l, r, b, t, n, f] = v[..] else {
                return Err("ortho needs 6 values".into());
            };
            ctx.ortho(l, r, b, t, n, f);
            String::new()
        }
        "get_parameter" => format!("{}", ctx.get_parameter_i32(a.u32()?)),
        "get_string" => ctx.get_parameter_string(a.u32()?),
        "get_string_indexed" => {
            let pname = a.u32()?;
            ctx.get_parameter_string_indexed(pname, a.u32()?)
        }
        "get_program_parameter" => {
            let p = program(names, a.next()?)?;
            format!("{}", ctx.get_program_parameter_i32(p, a.u32()?))
        }
        "get_shader_parameter" => {
            let s = shader(names, a.next()?)?;
            format!("{}", ctx.get_shader_parameter_i32(s, a.u32()?))
        }
        "get_uniform_indices" => {
            let p = program(names, a.next()?)?;
            let list: Vec<&str> = std::iter::from_fn(|| a.next().ok()).collect();
            format!("{:?}", ctx.get_uniform_indices(p, &list))
        }
        "hint" => {
            ctx.hint(a.u32()?, a.u32()?);
            String::new()
        }
        "vertex_attrib_pointer" => {
            let (index, size, ty) = (a.u32()?, a.i32()?, a.u32()?);
            let (stride, offset) = (a.i32()?, a.i32()?);
            ctx.vertex_attrib_pointer_f32(index, size, ty, false, stride, offset);
            String::new()
        }
        "draw_arrays" => {
            ctx.draw_arrays(a.u32()?, a.i32()?, a.i32()?);
            String::new()
        }
        "enable_vertex_attrib_array" => {
            ctx.enable_vertex_attrib_array(a.u32()?);
            String::new()
        }
        "raw_enum_call" => {
            // A call with an arbitrary enum, for INVALID_ENUM checks.
            let which = a.next()?;
            let v = a.u32()?;
            match which {
                "create_shader" => drop(ctx.create_shader(v)),
                "enable" => ctx.enable(v),
                "bind_buffer" => ctx.bind_buffer(v, None),
                other => return Err(format!("raw_enum_call {other}")),
            }
            String::new()
        }
        other => {
            return dispatch(ctx, &mut names.objects, other, a);
        }
    })
}

fn run_script(script: &str) -> String {
    let mut ctx = Context::new_headless(64, 64);
    let mut names = Names::default();
    let mut out = String::new();
    let mut lines = script.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, heredoc) = match line.strip_suffix("<<") {
            Some(h) => (h.trim(), true),
            None => (line, false),
        };
        let mut text = None;
        if heredoc {
            let mut body = String::new();
            for (_, l) in lines.by_ref() {
                if l.trim() == ">>" {
                    break;
                }
                body.push_str(l);
                body.push('\n');
            }
            text = Some(body);
        }
        let mut words = head.split_whitespace();
        let Some(name) = words.next() else { continue };
        let mut args = Args {
            words: words.collect(),
            pos: 0,
        };
        let result = match call(&mut ctx, &mut names, name, &mut args, text.as_deref()) {
            Ok(r) => r,
            Err(e) => format!("SCRIPT ERROR line {}: {e}", n + 1),
        };
        let err = error_name(ctx.get_error());
        let result = if result.is_empty() {
            String::new()
        } else {
            format!(" => {result}")
        };
        out.push_str(&format!("{head}{result} [{err}]\n"));
    }
    out
}

#[test]
fn api_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/api");
    let bless = std::env::var_os("BLESS").is_some();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/api")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "gl"))
        .collect();
    entries.sort();
    assert!(!entries.is_empty(), "no scripts in {}", dir.display());
    let mut failures = Vec::new();
    for path in entries {
        let script = std::fs::read_to_string(&path).expect("read script");
        let got = run_script(&script);
        let out = path.with_extension("out");
        if bless {
            std::fs::write(&out, &got).expect("write expectation");
            continue;
        }
        let want = std::fs::read_to_string(&out).unwrap_or_default();
        if got != want {
            failures.push(format!(
                "{}: transcript differs (BLESS=1 rewrites)\n--- want\n{want}--- got\n{got}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
