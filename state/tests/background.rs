//! Background compilation (`GL_KHR_parallel_shader_compile`): every command that
//! waits for an in-flight compile or link gives the answer it gives when
//! compiles and links are synchronous.
//!
//! * [`wait_points`]: a table of scenarios, one per wait point (a status or
//!   info-log query, a resource query, `glUseProgram`, a draw, a relink, a
//!   delete, a detach, `glShaderSource`, a superseded compile). Each runs on a
//!   fresh context twice, once with `max_shader_compiler_threads(0)` and once
//!   with one worker kept busy by a large link queued first (so the scenario's
//!   objects are still in flight when it queries them), and the two
//!   transcripts (every result and every `glGetError`) must be identical.
//! * [`shader_db_both_modes`]: every shader-db program compiled and linked in
//!   one long-lived context per mode, all queued before the first query in the
//!   background mode; compile status, link status and info logs must match.

mod common;
#[path = "common/shader_db.rs"]
mod shader_db;

use std::fmt::Write;
use std::path::PathBuf;

use rgl_state::{gl, Context, Program, Shader};

const VS: &str = "#version 140
in vec4 pos;
out vec4 color;
uniform vec4 tint;
void main() { gl_Position = pos; color = tint; }
";
const FS: &str = "#version 140
in vec4 color;
out vec4 frag;
layout(std140) uniform Block { vec4 scale; };
uniform float gain;
void main() { frag = color * scale * gain; }
";
/// Reads a varying the vertex shader does not write: a link error.
const FS_UNMATCHED: &str = "#version 140
in vec4 missing;
out vec4 frag;
void main() { frag = missing; }
";
/// A compile error.
const FS_BAD: &str = "#version 130
out vec4 frag;
void main() { frag = undeclared; }
";

/// The objects of one scenario: compiled and linked, never queried.
struct Objs {
    vs: Shader,
    fs: Shader,
    fs_bad: Shader,
    good: Program,
    unmatched: Program,
    uncompiled: Program,
}

fn shader(ctx: &mut Context, kind: u32, src: &str) -> Shader {
    let s = ctx.create_shader(kind).expect("shader name");
    ctx.shader_source(s, src);
    ctx.compile_shader(s);
    s
}

fn program(ctx: &mut Context, shaders: &[Shader]) -> Program {
    let p = ctx.create_program().expect("program name");
    for s in shaders {
        ctx.attach_shader(p, *s);
    }
    ctx.link_program(p);
    p
}

/// A vertex shader long enough that compiling and linking it keeps a worker
/// busy while a scenario queues its jobs behind it.
fn big_vertex_shader() -> String {
    let mut s = String::from(
        "#version 130\nin vec4 pos;\nuniform vec4 u[64];\nvoid main() {\n vec4 a = pos;\n",
    );
    for i in 0..1500 {
        let _ = writeln!(s, " a = a * u[{}] + sin(a.yzwx * {}.0);", i % 64, i % 7 + 1);
    }
    s.push_str(" gl_Position = a;\n}\n");
    s
}

/// Sets up a context in the given mode with the scenario objects queued.
/// Returns whether the good program was still linking after setup (only
/// meaningful in the background mode).
fn setup(threads: u32) -> (Context, Objs, bool) {
    let mut ctx = Context::new_headless(8, 8);
    ctx.max_shader_compiler_threads(threads);
    if threads > 0 {
        let big = shader(&mut ctx, gl::VERTEX_SHADER, &big_vertex_shader());
        let fs = shader(
            &mut ctx,
            gl::FRAGMENT_SHADER,
            "#version 130\nout vec4 f;\nvoid main() { f = vec4(1.0); }\n",
        );
        program(&mut ctx, &[big, fs]);
    }
    let vs = shader(&mut ctx, gl::VERTEX_SHADER, VS);
    let fs = shader(&mut ctx, gl::FRAGMENT_SHADER, FS);
    let fs_unmatched = shader(&mut ctx, gl::FRAGMENT_SHADER, FS_UNMATCHED);
    let fs_bad = shader(&mut ctx, gl::FRAGMENT_SHADER, FS_BAD);
    let good = program(&mut ctx, &[vs, fs]);
    let unmatched = program(&mut ctx, &[vs, fs_unmatched]);
    let uncompiled = program(&mut ctx, &[vs, fs_bad]);
    let in_flight = ctx.get_program_parameter_i32(good, gl::COMPLETION_STATUS_KHR) == 0;
    let objs = Objs {
        vs,
        fs,
        fs_bad,
        good,
        unmatched,
        uncompiled,
    };
    (ctx, objs, in_flight)
}

type Scenario = fn(&mut Context, &Objs, &mut String);

fn err(ctx: &mut Context, out: &mut String) {
    let _ = writeln!(out, "error {:#x}", ctx.get_error());
}

/// Links `good` again, this time failing, while it is current.
fn relink_failing(ctx: &mut Context, o: &Objs) {
    ctx.use_program(Some(o.good));
    ctx.detach_shader(o.good, o.fs);
    ctx.attach_shader(o.good, o.fs_bad);
    ctx.link_program(o.good);
}

fn draw(ctx: &mut Context, out: &mut String) {
    common::fullscreen_quad(ctx, 0);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6);
    let _ = writeln!(
        out,
        "draw {:#x} {:?}",
        ctx.get_error(),
        ctx.last_draw_error()
    );
    let _ = writeln!(out, "pixel {:?}", common::pixel(ctx, 4, 4));
}

const SCENARIOS: &[(&str, Scenario)] = &[
    ("compile status", |c, o, out| {
        for s in [o.vs, o.fs, o.fs_bad] {
            let _ = writeln!(out, "{}", c.get_shader_compile_status(s));
        }
    }),
    ("shader info log", |c, o, out| {
        let _ = writeln!(out, "{}", c.get_shader_info_log(o.fs_bad));
    }),
    ("shader parameters", |c, o, out| {
        for p in [
            gl::COMPILE_STATUS,
            gl::INFO_LOG_LENGTH,
            gl::SHADER_SOURCE_LENGTH,
        ] {
            let _ = writeln!(out, "{}", c.get_shader_parameter_i32(o.fs_bad, p));
        }
    }),
    ("link status", |c, o, out| {
        for p in [o.good, o.unmatched, o.uncompiled] {
            let _ = writeln!(out, "{}", c.get_program_link_status(p));
        }
    }),
    ("program info log", |c, o, out| {
        for p in [o.good, o.unmatched, o.uncompiled] {
            let _ = writeln!(out, "{}", c.get_program_info_log(p));
        }
    }),
    ("program parameters", |c, o, out| {
        for pname in [
            gl::LINK_STATUS,
            gl::INFO_LOG_LENGTH,
            gl::ACTIVE_UNIFORMS,
            gl::ACTIVE_ATTRIBUTES,
            gl::ACTIVE_UNIFORM_BLOCKS,
        ] {
            for p in [o.good, o.unmatched] {
                let _ = writeln!(out, "{}", c.get_program_parameter_i32(p, pname));
            }
        }
    }),
    ("uniform location", |c, o, out| {
        let _ = writeln!(out, "{:?}", c.get_uniform_location(o.good, "tint"));
        let _ = writeln!(out, "{:?}", c.get_uniform_location(o.unmatched, "tint"));
    }),
    ("attrib and frag data location", |c, o, out| {
        let _ = writeln!(out, "{:?}", c.get_attrib_location(o.good, "pos"));
        let _ = writeln!(out, "{:?}", c.get_frag_data_location(o.good, "frag"));
        err(c, out);
        let _ = writeln!(out, "{:?}", c.get_attrib_location(o.unmatched, "pos"));
    }),
    ("active uniform", |c, o, out| {
        let _ = writeln!(out, "{:?}", c.get_active_uniform(o.good, 0).map(|u| u.name));
        let _ = writeln!(
            out,
            "{}",
            c.get_active_uniform_parameter_i32(o.good, 0, gl::UNIFORM_TYPE)
        );
        let _ = writeln!(
            out,
            "{:?}",
            c.get_uniform_indices(o.good, &["gain", "tint"])
        );
    }),
    ("uniform blocks", |c, o, out| {
        let _ = writeln!(out, "{:?}", c.get_uniform_block_index(o.good, "Block"));
        c.uniform_block_binding(o.good, 0, 3);
        err(c, out);
        let _ = writeln!(
            out,
            "{}",
            c.get_active_uniform_block_parameter_i32(o.good, 0, gl::UNIFORM_BLOCK_BINDING)
        );
        c.uniform_block_binding(o.unmatched, 0, 3);
    }),
    ("use program", |c, o, out| {
        c.use_program(Some(o.unmatched));
        err(c, out);
        c.use_program(Some(o.good));
        err(c, out);
        let current = c.get_parameter_i32(gl::CURRENT_PROGRAM);
        let _ = writeln!(out, "current is good: {}", current == o.good.name() as i32);
    }),
    ("uniform setter and getter", |c, o, out| {
        c.use_program(Some(o.good));
        let l = c.get_uniform_location(o.good, "gain");
        c.uniform_1_f32(l.as_ref(), 0.5);
        err(c, out);
        if let Some(l) = l {
            let _ = writeln!(out, "{:?}", c.get_uniform_words(o.good, &l));
        }
    }),
    ("draw", |c, o, out| {
        c.use_program(Some(o.good));
        let l = c.get_uniform_location(o.good, "gain");
        c.uniform_1_f32(l.as_ref(), 1.0);
        draw(c, out);
    }),
    ("failed relink keeps the executable", |c, o, out| {
        relink_failing(c, o);
        draw(c, out);
        let _ = writeln!(out, "{}", c.get_program_link_status(o.good));
        c.use_program(None);
        draw(c, out);
    }),
    ("failed relink, then uniform setter", |c, o, out| {
        relink_failing(c, o);
        c.uniform_1_f32(None, 1.0);
        err(c, out);
        c.use_program(Some(o.good));
        err(c, out);
    }),
    ("failed relink, then use another program", |c, o, out| {
        relink_failing(c, o);
        c.use_program(Some(o.unmatched));
        err(c, out);
        draw(c, out);
    }),
    ("relink twice", |c, o, out| {
        c.link_program(o.good);
        c.detach_shader(o.good, o.fs);
        c.link_program(o.good);
        let _ = writeln!(out, "{}", c.get_program_link_status(o.good));
        let _ = writeln!(out, "{}", c.get_program_info_log(o.good));
    }),
    ("delete program in flight", |c, o, out| {
        c.delete_program(o.good);
        err(c, out);
        let _ = writeln!(out, "{}", c.is_program(o.good));
        let _ = writeln!(out, "{}", c.get_program_link_status(o.good));
        err(c, out);
    }),
    (
        "delete current program with a relink in flight",
        |c, o, out| {
            relink_failing(c, o);
            c.delete_program(o.good);
            let _ = writeln!(
                out,
                "{}",
                c.get_program_parameter_i32(o.good, gl::DELETE_STATUS)
            );
            draw(c, out);
            c.use_program(None);
            let _ = writeln!(out, "{}", c.is_program(o.good));
        },
    ),
    ("delete shader in flight", |c, o, out| {
        c.delete_shader(o.fs_bad);
        let _ = writeln!(out, "{}", c.is_shader(o.fs_bad));
        let _ = writeln!(out, "{}", c.get_shader_compile_status(o.fs_bad));
        err(c, out);
        c.delete_program(o.uncompiled);
        let _ = writeln!(out, "{}", c.is_shader(o.fs_bad));
    }),
    ("detach then relink", |c, o, out| {
        c.detach_shader(o.unmatched, o.vs);
        err(c, out);
        let _ = writeln!(out, "{}", c.get_program_info_log(o.unmatched));
        c.link_program(o.unmatched);
        let _ = writeln!(out, "{}", c.get_program_info_log(o.unmatched));
    }),
    ("shader source while compiling", |c, o, out| {
        c.shader_source(o.fs_bad, FS);
        let _ = writeln!(out, "{}", c.get_shader_compile_status(o.fs_bad));
        let _ = writeln!(out, "{}", c.get_shader_source(o.fs_bad));
        c.compile_shader(o.fs_bad);
        let _ = writeln!(out, "{}", c.get_shader_compile_status(o.fs_bad));
    }),
    ("compile superseded by a recompile", |c, o, out| {
        c.shader_source(o.fs, FS_BAD);
        c.compile_shader(o.fs);
        c.shader_source(o.fs, FS);
        c.compile_shader(o.fs);
        c.link_program(o.good);
        let _ = writeln!(out, "{}", c.get_shader_compile_status(o.fs));
        let _ = writeln!(out, "{}", c.get_program_link_status(o.good));
    }),
    (
        "link reads the compile current at link time",
        |c, o, out| {
            c.shader_source(o.fs, FS_BAD);
            c.compile_shader(o.fs);
            c.link_program(o.good);
            c.shader_source(o.fs, FS);
            c.compile_shader(o.fs);
            let _ = writeln!(out, "{}", c.get_program_link_status(o.good));
            let _ = writeln!(out, "{}", c.get_program_info_log(o.good));
            let _ = writeln!(out, "{}", c.get_shader_compile_status(o.fs));
        },
    ),
    ("errors on the wrong object kind", |c, o, out| {
        let _ = c.get_shader_compile_status(Shader(o.good.0));
        err(c, out);
        let _ = c.get_program_link_status(Program(o.vs.0));
        err(c, out);
        let _ = c.get_program_parameter_i32(o.good, gl::COMPILE_STATUS);
        err(c, out);
    }),
];

#[test]
fn wait_points() {
    let mut in_flight = 0;
    let mut failures = Vec::new();
    for (name, scenario) in SCENARIOS {
        let mut transcripts = Vec::new();
        for threads in [0, 1] {
            let (mut ctx, objs, busy) = setup(threads);
            if threads > 0 && busy {
                in_flight += 1;
            }
            let mut out = String::new();
            scenario(&mut ctx, &objs, &mut out);
            err(&mut ctx, &mut out);
            // Completion is reported once everything was waited for.
            ctx.finish();
            transcripts.push(out);
        }
        if std::env::var_os("RGL_SHOW_TRANSCRIPTS").is_some() {
            eprintln!("== {name}\n{}", transcripts[0]);
        }
        if transcripts[0] != transcripts[1] {
            failures.push(format!(
                "{name}:\n--- synchronous\n{}--- background\n{}",
                transcripts[0], transcripts[1]
            ));
        }
    }
    eprintln!(
        "wait points: {} scenarios, {in_flight} with the program still linking when queried",
        SCENARIOS.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn completion_status_after_wait() {
    let (mut ctx, o, _) = setup(1);
    // A status query waits; afterwards the object reports completion.
    let _ = ctx.get_program_link_status(o.good);
    assert_eq!(
        ctx.get_program_parameter_i32(o.good, gl::COMPLETION_STATUS_KHR),
        1
    );
    let _ = ctx.get_shader_compile_status(o.fs_bad);
    assert_eq!(
        ctx.get_shader_parameter_i32(o.fs_bad, gl::COMPLETION_STATUS_KHR),
        1
    );
    assert_eq!(
        ctx.get_parameter_i32(gl::MAX_SHADER_COMPILER_THREADS_KHR),
        1
    );
    assert_eq!(ctx.get_error(), gl::NO_ERROR);
}

/// Everything observable about one compiled and linked corpus program.
fn outcome(ctx: &mut Context, shaders: &[Shader], program: Program) -> String {
    let mut out = String::new();
    for s in shaders {
        let _ = writeln!(
            out,
            "shader {} {:?}",
            ctx.get_shader_compile_status(*s),
            ctx.get_shader_info_log(*s)
        );
    }
    let _ = writeln!(
        out,
        "program {} {:?} uniforms {} attributes {}",
        ctx.get_program_link_status(program),
        ctx.get_program_info_log(program),
        ctx.get_program_parameter_i32(program, gl::ACTIVE_UNIFORMS),
        ctx.get_program_parameter_i32(program, gl::ACTIVE_ATTRIBUTES)
    );
    out
}

#[test]
fn shader_db_both_modes() {
    let root = shader_db::root();
    let files = shader_db::files(&root);
    assert!(
        !files.is_empty(),
        "no shader-db corpus under {}",
        root.display()
    );
    let programs: Vec<(PathBuf, Vec<(u32, String)>)> = files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable corpus file");
            let sections = shader_db::shader_sections(&text);
            (p, sections)
        })
        .collect();
    let mut results: Vec<Vec<String>> = Vec::new();
    for threads in [0, 2] {
        let mut ctx = Context::new_headless(8, 8);
        ctx.max_shader_compiler_threads(threads);
        // Queue every compile and link before the first query.
        let queued: Vec<(Vec<Shader>, Program)> = programs
            .iter()
            .map(|(_, sections)| {
                let shaders: Vec<Shader> = sections
                    .iter()
                    .map(|(kind, src)| shader(&mut ctx, *kind, src))
                    .collect();
                let p = program(&mut ctx, &shaders);
                (shaders, p)
            })
            .collect();
        results.push(
            queued
                .iter()
                .map(|(shaders, p)| outcome(&mut ctx, shaders, *p))
                .collect(),
        );
        assert_eq!(ctx.get_error(), gl::NO_ERROR);
    }
    let mut linked = 0;
    for (i, (path, _)) in programs.iter().enumerate() {
        assert_eq!(
            results[0][i],
            results[1][i],
            "{}: background compile differs from synchronous",
            path.display()
        );
        linked += results[0][i].contains("program true") as usize;
    }
    eprintln!(
        "shader-db: {} programs, {linked} linked, identical in both modes",
        programs.len()
    );
}
