//! `rglc`: rgl's standalone GLSL compiler, modelled on Mesa's `glsl_compiler`.
//!
//! ```text
//! rglc [--version N] [--stage vert|geom|frag] [--dump-ast] [--dump-hir] [--dump-lir] [--just-log]
//!      [--link [--dump-nir] [--dump-nir-passes] [--stats] [--driver NAME]] FILE...
//! ```
//!
//! Each file is compiled on its own (stage from the extension unless `--stage`
//! is given); a `.shader_test` file contributes the shaders of its program as
//! shader_runner compiles them (read by the conformance crate's parser,
//! `rgl_conformance::shader_test::program`). With `--link` the compiled files form one
//! program, which is linked and taken through the NIR pipeline; `--dump-nir` prints
//! every stage's final NIR, `--dump-nir-passes` the NIR after `glsl_to_nir` and after
//! every pass that made progress, `--stats` shader-db style instruction counts per
//! stage, `--driver` uses a driver's compiler options. Dumps go to stdout, info logs
//! to stderr. Exit status: 0 when everything compiled (and linked), 1 at the first
//! compile failure or a link failure, 2 on a usage error (bad option, unknown
//! extension, unreadable file, a `.shader_test` without a runnable program).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use rgl_backend::driver::ShaderStage;
use rgl_backend::registry;
use rgl_conformance::shader_test::link_only::NotRunnable;
use rgl_conformance::shader_test::program;
use rgl_glsl::{compile_bytes, CompileOptions, CompiledShader, Stage};
use rgl_link::pipeline::{build_program, stage_name, PipelineOptions};
use rgl_link::Bindings;
use rgl_nir::options::StageOptions;
use rgl_nir::stats::ShaderStats;

#[derive(Parser, Debug)]
#[command(
    name = "rglc",
    about = "Compile GLSL shaders with rgl's front end and dump its IR"
)]
struct Args {
    /// GLSL version to compile as (110 120 130 140 150 330, 100 and 300 for ES);
    /// overrides the shader's #version.
    #[arg(long = "version", value_name = "N")]
    glsl_version: Option<u16>,
    /// Stage of every file, instead of guessing from the extension.
    #[arg(long, value_parser = ["vert", "geom", "frag"])]
    stage: Option<String>,
    /// Print the syntax tree as GLSL-like text.
    #[arg(long)]
    dump_ast: bool,
    /// Print GLSL IR straight after semantic checking.
    #[arg(long)]
    dump_hir: bool,
    /// Print GLSL IR after compile-time lowering.
    #[arg(long)]
    dump_lir: bool,
    /// Print only the info logs, without "Info log for" headers.
    #[arg(long)]
    just_log: bool,
    /// Link the files into one program and run the NIR pipeline.
    #[arg(long)]
    link: bool,
    /// With --link: print the final NIR of every stage.
    #[arg(long, requires = "link")]
    dump_nir: bool,
    /// With --link: print the NIR after glsl_to_nir and after every pass that made
    /// progress.
    #[arg(long, requires = "link")]
    dump_nir_passes: bool,
    /// With --link: print instruction counts of every stage's final NIR.
    #[arg(long, requires = "link")]
    stats: bool,
    /// With --link: run the pipeline with the compiler options this driver asks for
    /// (a name from rgl-backend's driver registry) instead of the defaults.
    #[arg(long, requires = "link", value_name = "NAME")]
    driver: Option<String>,
    /// Shader files (.vert, .geom, .frag), or piglit/shader-db `.shader_test` files
    /// (their shader sections, in order).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

fn main() -> ExitCode {
    env_logger::init();
    let args = Args::parse();
    let mut compiled = Vec::new();
    // A .shader_test file stands for its shader sections, in order.
    let mut units: Vec<(PathBuf, Option<Stage>, Vec<u8>)> = Vec::new();
    for path in &args.files {
        if path.extension().is_some_and(|e| e == "shader_test") {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(err) => {
                    eprintln!("rglc: {}: {err}", path.display());
                    return ExitCode::from(2);
                }
            };
            let shaders = match program::from_text(&text, path) {
                Ok(shaders) => shaders,
                Err(NotRunnable::Skip(why) | NotRunnable::Error(why)) => {
                    eprintln!("rglc: {}: {why}", path.display());
                    return ExitCode::from(2);
                }
            };
            for shader in shaders {
                let name = format!("{}:{}", path.display(), shader.header_line);
                units.push((
                    PathBuf::from(name),
                    Some(shader.stage),
                    shader.source.into_bytes(),
                ));
            }
            continue;
        }
        let source = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(err) => {
                eprintln!("rglc: {}: {err}", path.display());
                return ExitCode::from(2);
            }
        };
        units.push((path.clone(), None, source));
    }
    for (path, section_stage, source) in &units {
        let ext = args
            .stage
            .clone()
            .or_else(|| path.extension().and_then(|e| e.to_str()).map(str::to_owned));
        let stage = section_stage.or_else(|| ext.as_deref().and_then(Stage::from_extension));
        let Some(stage) = stage else {
            eprintln!(
                "rglc: {}: cannot tell the stage; use .vert/.geom/.frag or --stage",
                path.display()
            );
            return ExitCode::from(2);
        };
        let mut options = CompileOptions::new(stage);
        if args.glsl_version.is_some() {
            options.version_override = args.glsl_version;
        }
        options.keep_ast = args.dump_ast;
        options.keep_hir = args.dump_hir;
        let shader = compile_bytes(source, &options);
        if args.dump_ast {
            if let Some(ast) = &shader.ast {
                print!("{}", rgl_glsl::parse::print_ast(ast));
            }
        }
        if args.dump_hir {
            if let Some(hir) = &shader.hir {
                print!("{}", rgl_glsl::hir::print::print_module(hir));
            }
        }
        if args.dump_lir {
            if let Some(lir) = &shader.lir {
                print!("{}", rgl_glsl::hir::print::print_module(lir));
            }
        }
        if args.just_log {
            eprint!("{}", shader.info_log);
        } else {
            eprintln!("Info log for {}:\n{}", path.display(), shader.info_log);
        }
        if !shader.success() {
            return ExitCode::from(1);
        }
        compiled.push(shader);
    }
    if args.link {
        return link(&args, &compiled);
    }
    ExitCode::SUCCESS
}

fn link(args: &Args, compiled: &[CompiledShader]) -> ExitCode {
    let shaders: Vec<&CompiledShader> = compiled.iter().collect();
    let mut print_step = |stage: usize, step: &str, shader: &rgl_nir::ir::Shader| {
        println!(
            "NIR (stage {stage}) after {step}:\n{}",
            rgl_nir::print::print_shader(shader)
        );
    };
    let mut compiler = StageOptions::default();
    if let Some(name) = &args.driver {
        let driver = match registry::create(Some(name), &registry::DriverConfig { threads: 1 }) {
            Ok(driver) => driver,
            Err(err) => {
                eprintln!("rglc: --driver {name}: {err}");
                return ExitCode::from(2);
            }
        };
        for stage in [
            ShaderStage::Vertex,
            ShaderStage::Geometry,
            ShaderStage::Fragment,
        ] {
            compiler.set(stage.into(), driver.compiler_options(stage));
        }
    }
    let options = PipelineOptions {
        observer: if args.dump_nir_passes {
            Some(&mut print_step)
        } else {
            None
        },
        compiler,
        ..PipelineOptions::default()
    };
    let program = match build_program(&shaders, &Bindings::default(), options) {
        Ok(p) => p,
        Err(log) => {
            eprint!(
                "{}{log}",
                if args.just_log {
                    ""
                } else {
                    "Info log for linking:\n"
                }
            );
            return ExitCode::from(1);
        }
    };
    for stage in &program.stages {
        let Some(nir) = &stage.nir else { continue };
        if args.dump_nir {
            println!(
                "NIR for linked {} program 0:\n{}",
                stage_name(stage.stage),
                rgl_nir::print::print_shader(nir)
            );
        }
        if args.stats {
            println!(
                "{} shader: {}",
                stage_name(stage.stage),
                ShaderStats::of(nir)
            );
        }
    }
    if !program.warnings.is_empty() && !args.just_log {
        eprintln!("Info log for linking:");
    }
    for w in &program.warnings {
        eprintln!("warning: {w}");
    }
    ExitCode::SUCCESS
}
