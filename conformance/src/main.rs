//! The `rgl-conformance` command line:
//! * `rgl-conformance glslparser PATH...` runs every glslparsertest file under
//!   the given paths (compile, and link when `check_link: true`); `--peer
//!   host` runs them on the host's GL too, as piglit's glslparsertest does;
//! * `rgl-conformance shader-test --link-only PATH...` compiles and links the
//!   program of every `.shader_test` file and checks `link error` (`--nir`:
//!   through the link-time NIR pipeline too);
//! * `rgl-conformance shader-test PATH...` runs the `[test]` scripts on rgl's
//!   state tracker, each file in its own child process (`--timeout` kills a
//!   hung one); `--peer host` runs them on the host's GL too and compares;
//! * `rgl-conformance shader-test --parse-only PATH...` parses and prints the
//!   totals of sections, requirements and commands, and every parse error.
//!
//! Each run prints failures, warnings and skips and a closing `N passed, N
//! warned, N failed, N skipped` line; see `--help`.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use rgl_conformance::report::{self, Report};
use rgl_conformance::shader_test::isolate::{self, Engine};
use rgl_conformance::shader_test::link_only::LinkDepth;
use rgl_conformance::shader_test::{self, peer, stats::ParseStats};
use rgl_conformance::{causes, fill, fill_db, glslparser, parallel, result, walk};

#[derive(Parser)]
#[command(
    name = "rgl-conformance",
    about = "Runs piglit conformance tests against rgl"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile piglit glslparsertest files (and link them when check_link is
    /// true) and compare with their expect_result.
    Glslparser(GlslparserArgs),
    /// Run piglit .shader_test files.
    ShaderTest(ShaderTestArgs),
    /// (internal) The host side of `glslparser --peer host`: file paths on
    /// stdin, one result line each on stdout.
    #[command(hide = true)]
    GlslparserHost {
        /// A core-profile context instead of a compatibility one.
        #[arg(long)]
        core: bool,
    },
    /// (internal) Run one .shader_test file in this process and print its
    /// result as one JSON line: the child process of `shader-test`.
    #[command(hide = true)]
    ShaderTestOne(ShaderTestOneArgs),
    /// Fill-rate benchmark: time full-screen draws of workload .shader_test
    /// files on rgl and on the host's Mesa drivers, one child process per
    /// configuration.
    Fill(FillArgs),
    /// (internal) One fill-rate configuration in this process: the child of `fill`.
    #[command(hide = true)]
    FillOne(FillOneArgs),
}

#[derive(clap::Args)]
struct FillArgs {
    /// Workload files or folders (default: conformance/benches/fill).
    #[arg(conflicts_with = "shader_db")]
    paths: Vec<PathBuf>,
    /// Configurations to measure: rgl:N (the default driver), rgl-NAME:N
    /// (`RGL_DRIVER=NAME`, e.g. rgl-interp:1), llvmpipe:N, softpipe
    /// (default: rgl:1,rgl:2,llvmpipe:1,llvmpipe:2 and, without --shader-db,
    /// softpipe:1).
    #[arg(long, value_delimiter = ',')]
    configs: Vec<String>,
    /// At least this many timed draws per configuration (default 5; 3 with
    /// --shader-db).
    #[arg(long)]
    min_draws: Option<usize>,
    /// At most this many timed draws per configuration (default 50; 20 with
    /// --shader-db).
    #[arg(long)]
    max_draws: Option<usize>,
    /// Keep drawing until this many seconds have passed, after --min-draws
    /// (default 3; 0.3 with --shader-db).
    #[arg(long)]
    budget: Option<f64>,
    /// Kill a configuration's child after this many seconds (default 300).
    #[arg(long, default_value_t = 300)]
    timeout: u64,
    /// Generate a full-screen workload from every program of this shader-db
    /// folder and measure those (see conformance/README.md).
    #[arg(long, value_name = "DIR")]
    shader_db: Option<PathBuf>,
    /// With --shader-db: only programs whose id contains one of these texts
    /// (comma-separated).
    #[arg(long, requires = "shader_db", value_delimiter = ',')]
    filter: Vec<String>,
    /// With --shader-db: at most this many programs.
    #[arg(long, requires = "shader_db")]
    limit: Option<usize>,
    /// With --shader-db: where to write the workloads (default target/fill-db).
    #[arg(long, requires = "shader_db")]
    out: Option<PathBuf>,
    /// With --shader-db: only write the workloads.
    #[arg(long, requires = "shader_db")]
    generate_only: bool,
    /// With --shader-db: start no new program after this many seconds.
    #[arg(long, requires = "shader_db", default_value_t = 3600.0)]
    total_budget: f64,
    /// With --shader-db: the largest sample channel difference between rgl
    /// and llvmpipe that counts as the same image.
    #[arg(long, requires = "shader_db", default_value_t = 0.05)]
    tolerance: f32,
}

#[derive(clap::Args)]
struct FillOneArgs {
    /// rgl or host.
    #[arg(long)]
    engine: String,
    #[arg(long)]
    min_draws: usize,
    #[arg(long)]
    max_draws: usize,
    #[arg(long)]
    budget: f64,
    /// shader_runner's -ignore-missing-uniforms.
    #[arg(long)]
    ignore_missing_uniforms: bool,
    path: PathBuf,
}

#[derive(clap::Args)]
struct ShaderTestOneArgs {
    /// rgl or host.
    #[arg(long, default_value = "rgl")]
    engine: String,
    /// Only check that the engine can create a context.
    #[arg(long)]
    probe: bool,
    /// The file's id.
    #[arg(long, default_value = "")]
    id: String,
    /// The file.
    #[arg(required_unless_present = "probe")]
    path: Option<PathBuf>,
}

#[derive(clap::Args)]
struct CommonArgs {
    /// Files or folders (walked recursively, in sorted order).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Also print a line for every passing test.
    #[arg(long)]
    verbose: bool,
    /// Write every result (path, id, status, reason, duration) to this JSON file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Compare with this list of passing test ids; exit non-zero if any of them no longer passes.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Rewrite the --baseline file from this run instead of failing on regressions.
    #[arg(long, requires = "baseline")]
    update_baseline: bool,
    /// Print pass/fail/skip counts per spec folder.
    #[arg(long)]
    summary: bool,
    /// Number of worker threads.
    #[arg(long, short = 'j', default_value_t = 2)]
    jobs: usize,
    /// glslparser and --link-only: stop the run (exit status 3) if one test
    /// runs for longer than this many seconds (default 120; 0: never).
    /// shader-test: kill a file's child process after this many seconds and
    /// fail the file with "timeout" (default 10; 0: never).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<u64>,
}

#[derive(clap::Args)]
struct GlslparserArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Also run every file on this peer implementation (`host`: the host's GL
    /// through EGL, as piglit's glslparsertest runs it) and print both results
    /// side by side (with --json FILE, the peer's results go to FILE with the
    /// extension `host.json`).
    #[arg(long, value_name = "PEER")]
    peer: Option<String>,
}

#[derive(clap::Args)]
struct ShaderTestArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Only compile and link each file's program and check `link error` / `link success`.
    #[arg(long, conflicts_with = "parse_only")]
    link_only: bool,
    /// With --link-only: run all of glLinkProgram, including glsl_to_nir and the
    /// link-time NIR pipeline, instead of the GLSL IR linker alone.
    #[arg(long, requires = "link_only")]
    nir: bool,
    /// Only parse the files; print totals per section, requirement and command,
    /// and every parse error (exit status 1 if any).
    #[arg(long)]
    parse_only: bool,
    /// With --parse-only: also print the parsed form of every file.
    #[arg(long, requires = "parse_only")]
    dump: bool,
    /// Run the files in this process instead of one child process each (for
    /// debugging: a crash then ends the run, and --timeout stops it).
    #[arg(long)]
    in_process: bool,
    /// Also run every file on this peer implementation (`host`: the host's GL
    /// through EGL) and print both results side by side (with --json FILE,
    /// the peer's results go to FILE with the extension `host.json`).
    #[arg(long, value_name = "PEER")]
    peer: Option<String>,
    /// Print the N most common failure causes.
    #[arg(long, value_name = "N")]
    causes: Option<usize>,
}

fn main() -> ExitCode {
    env_logger::init();
    let cli = Cli::parse();
    match cli.command {
        Command::Glslparser(args) => run_glslparser(&args),
        Command::GlslparserHost { core } => glslparser::host::child_main(core),
        Command::ShaderTest(args) if args.parse_only => parse_only(&args),
        Command::ShaderTest(args) if args.link_only => {
            let (command, depth) = if args.nir {
                ("shader-test --link-only --nir", LinkDepth::Nir)
            } else {
                ("shader-test --link-only", LinkDepth::GlslIr)
            };
            run(
                &args.common,
                command,
                shader_test::is_candidate,
                |files, o| shader_test::link_only::run_all(files, o, depth),
                |_, _| String::new(),
            )
        }
        Command::ShaderTest(args) => run_shader_tests(&args),
        Command::ShaderTestOne(args) => shader_test_one(&args),
        Command::Fill(args) => fill(&args),
        Command::FillOne(args) => {
            let draws = fill::Draws {
                min: args.min_draws,
                max: args.max_draws,
                budget: Duration::from_secs_f64(args.budget.max(0.0)),
            };
            let result = Engine::parse(&args.engine).and_then(|engine| {
                fill::measure(&args.path, engine, draws, args.ignore_missing_uniforms)
            });
            println!("{}", fill::encode(&result));
            ExitCode::SUCCESS
        }
    }
}

/// `fill`: every workload × configuration in child processes, then a table
/// with the ratios to softpipe and llvmpipe and the image agreement with the
/// first configuration.
fn fill(args: &FillArgs) -> ExitCode {
    let shader_db = args.shader_db.is_some();
    let default_configs = if shader_db {
        "rgl:1,rgl:2,llvmpipe:1,llvmpipe:2"
    } else {
        "rgl:1,rgl:2,llvmpipe:1,llvmpipe:2,softpipe:1"
    };
    let names: Vec<&str> = if args.configs.is_empty() {
        default_configs.split(',').collect()
    } else {
        args.configs.iter().map(String::as_str).collect()
    };
    let configs: Result<Vec<_>, _> = names.iter().map(|c| fill::Config::parse(c)).collect();
    let configs = match configs {
        Ok(c) if !c.is_empty() => c,
        Ok(_) => {
            eprintln!("error: no configuration");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (min, max, budget) = if shader_db {
        (3, 20, 0.3)
    } else {
        (5, 50, 3.0)
    };
    let child = fill::ChildRun {
        draws: fill::Draws {
            min: args.min_draws.unwrap_or(min),
            max: args.max_draws.unwrap_or(max),
            budget: Duration::from_secs_f64(args.budget.unwrap_or(budget).max(0.0)),
        },
        ignore_missing_uniforms: shader_db,
        timeout: Duration::from_secs(args.timeout.max(1)),
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: cannot find this executable: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(corpus) = &args.shader_db {
        let options = fill_db::run::Options {
            corpus: corpus.clone(),
            out: args.out.clone().unwrap_or_else(|| {
                let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
                manifest.parent().unwrap_or(manifest).join("target/fill-db")
            }),
            filter: args.filter.clone(),
            limit: args.limit,
            configs,
            child,
            total_budget: Duration::from_secs_f64(args.total_budget.max(0.0)),
            tolerance: args.tolerance,
            generate_only: args.generate_only,
        };
        return match fill_db::run::run(&options, &exe) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        };
    }
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benches/fill"
        ))]
    } else {
        args.paths.clone()
    };
    let workloads = fill::workloads(&paths);
    if workloads.is_empty() {
        eprintln!("error: no workload files");
        return ExitCode::from(2);
    }
    let scaling = fill::cpu_scaling();
    println!("CPU scaling check (2-thread / 1-thread ALU throughput, 2.0 = perfect): {scaling:.2}");
    let mut failed = false;
    for workload in &workloads {
        let name = workload
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        println!("\n{name}");
        println!(
            "  {:<12} {:>10} {:>12} {:>7} {:>12} {:>12} {:>10} {:>13}",
            "config",
            "Mpix/s",
            "median ms",
            "draws",
            "/softpipe",
            "/llvmpipe",
            "max diff",
            "1st draw ms"
        );
        let results: Vec<_> = configs
            .iter()
            .map(|c| (c, fill::run_child(&exe, c, workload, &child)))
            .collect();
        let rate = |driver: &str, threads: u32| {
            results.iter().find_map(|(c, r)| match r {
                Ok(m) if c.driver == driver && (driver == "softpipe" || c.threads == threads) => {
                    Some(m.mpix_per_s())
                }
                _ => None,
            })
        };
        let reference = results.iter().find_map(|(_, r)| r.as_ref().ok());
        for (c, r) in &results {
            match r {
                Ok(m) => {
                    let ratio = |peer: Option<f64>| {
                        peer.map_or("-".to_string(), |p| format!("{:.4}x", m.mpix_per_s() / p))
                    };
                    let diff = reference.map_or(0.0, |first| {
                        fill::max_difference(&first.samples, &m.samples)
                    });
                    let first = m
                        .first_draw_s
                        .map_or_else(|| "-".to_string(), |s| format!("{:.3}", s * 1e3));
                    println!(
                        "  {:<12} {:>10.4} {:>12.3} {:>7} {:>12} {:>12} {:>10.3} {:>13}",
                        c.label(),
                        m.mpix_per_s(),
                        m.median_s * 1e3,
                        m.draws,
                        ratio(rate("softpipe", 1)),
                        ratio(rate("llvmpipe", c.threads)),
                        diff,
                        first
                    );
                }
                Err(e) => {
                    if c.is_rgl() {
                        failed = true;
                    }
                    println!("  {:<12} error: {e}", c.label());
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Stack of the child's test thread.
const CHILD_STACK: usize = 256 << 20;

/// The child process of `shader-test`: one file, one JSON line.
fn shader_test_one(args: &ShaderTestOneArgs) -> ExitCode {
    let engine = match Engine::parse(&args.engine) {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.probe {
        println!("{}", isolate::probe_line(engine));
        return ExitCode::SUCCESS;
    }
    let Some(path) = &args.path else {
        eprintln!("error: no file given");
        return ExitCode::from(2);
    };
    let file = walk::FoundFile {
        path: path.clone(),
        id: if args.id.is_empty() {
            path.display().to_string()
        } else {
            args.id.clone()
        },
        root: String::new(),
    };
    // A large stack, as the other runners give each test: deep nesting in a
    // shader must be an error of the compiler, not a stack overflow here.
    let worker = std::thread::Builder::new()
        .name(format!("test {}", file.id))
        .stack_size(CHILD_STACK)
        .spawn(move || isolate::run_file(&file, engine));
    let result = match worker {
        Ok(handle) => match handle.join() {
            Ok(result) => result,
            Err(_) => {
                eprintln!("error: the test thread died");
                return ExitCode::FAILURE;
            }
        },
        Err(e) => {
            eprintln!("error: cannot start the test thread: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("{}", isolate::encode(&result));
    ExitCode::SUCCESS
}

fn run_shader_tests(args: &ShaderTestArgs) -> ExitCode {
    let common = &args.common;
    let start = Instant::now();
    let peer = match args.peer.as_deref() {
        None => None,
        Some("host") => Some(Engine::Host),
        Some(other) => {
            eprintln!("error: unknown peer {other:?} (the only peer is `host`)");
            return ExitCode::from(2);
        }
    };
    let files = match walk::walk(&common.paths, shader_test::is_candidate) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let roots: BTreeSet<String> = common.paths.iter().map(|p| walk::root_name(p)).collect();
    // 0: no limit.
    let timeout = match common.timeout.unwrap_or(10) {
        0 => None,
        t => Some(Duration::from_secs(t)),
    };
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("error: cannot find this program's path to start child processes: {e}");
            return ExitCode::from(2);
        }
    };
    let child = isolate::ChildOptions {
        exe,
        jobs: common.jobs,
        timeout: timeout.unwrap_or(Duration::MAX),
    };
    let run_engine = |engine: Engine| {
        if args.in_process {
            let options = parallel::Options {
                jobs: common.jobs,
                timeout,
            };
            let outcomes = parallel::run(
                &files,
                options,
                |f| f.id.clone(),
                |f| isolate::run_file(f, engine),
            );
            files
                .iter()
                .zip(outcomes)
                .map(|(f, o)| {
                    o.unwrap_or_else(|why| result::TestResult {
                        path: f.path.clone(),
                        id: f.id.clone(),
                        status: result::Status::Fail,
                        reason: why,
                        detail: String::new(),
                        duration: Duration::ZERO,
                    })
                })
                .collect::<Vec<_>>()
        } else {
            isolate::run_all(&files, engine, &child)
        }
    };
    let results = run_engine(Engine::Rgl);
    let mut extra = String::new();
    let mut host_results = None;
    if let Some(engine) = peer {
        match isolate::probe(engine, &child) {
            Ok(renderer) => {
                let host = run_engine(engine);
                extra.push_str(&peer::render(&results, &host, &renderer, true));
                if let Some(json) = &common.json {
                    let path = json.with_extension("host.json");
                    if let Err(e) = std::fs::write(&path, result::to_json(&host)) {
                        eprintln!("error: cannot write {}: {e}", path.display());
                    }
                }
                host_results = Some(host);
            }
            Err(why) => {
                let why = if why.starts_with("EGL not available") {
                    why
                } else {
                    format!("EGL not available ({why})")
                };
                extra.push_str(&format!("peer host: {why}; skipping\n"));
            }
        }
    }
    if let Some(n) = args.causes {
        extra.push_str(&causes::render(&results, n, "rgl"));
        if let Some(host) = &host_results {
            extra.push_str(&causes::render(host, n, "host"));
        }
    }
    let report = Report {
        command: "shader-test".to_string(),
        verbose: common.verbose,
        json: common.json.clone(),
        baseline: common.baseline.clone(),
        update_baseline: common.update_baseline,
        summary: common.summary,
        jobs: common.jobs,
        extra,
    };
    report::finish(&report, &results, &roots, start)
}

/// `glslparser`, with `--peer host` run after rgl on the same files.
fn run_glslparser(args: &GlslparserArgs) -> ExitCode {
    match args.peer.as_deref() {
        None | Some("host") => {}
        Some(other) => {
            eprintln!("error: unknown peer {other:?} (the only peer is `host`)");
            return ExitCode::from(2);
        }
    }
    let json = args.common.json.clone();
    run(
        &args.common,
        "glslparser",
        glslparser::is_candidate,
        glslparser::run_all,
        |files, results| {
            if args.peer.is_none() {
                return String::new();
            }
            let exe = match std::env::current_exe() {
                Ok(exe) => exe,
                Err(e) => return format!("peer host: cannot find this program's path: {e}\n"),
            };
            match glslparser::host::run_all(files, &exe) {
                Ok((renderer, host)) => {
                    if let Some(json) = &json {
                        let path = json.with_extension("host.json");
                        if let Err(e) = std::fs::write(&path, result::to_json(&host)) {
                            eprintln!("error: cannot write {}: {e}", path.display());
                        }
                    }
                    peer::render(results, &host, &renderer, false)
                }
                Err(why) => format!("peer host: {why}; skipping\n"),
            }
        },
    )
}

/// Runs `run_all` over the files, then `peer` (which returns extra report
/// text), and reports.
fn run(
    args: &CommonArgs,
    command: &str,
    wanted: fn(&std::path::Path) -> bool,
    run_all: impl Fn(&[walk::FoundFile], parallel::Options) -> Vec<rgl_conformance::result::TestResult>,
    peer: impl FnOnce(&[walk::FoundFile], &[rgl_conformance::result::TestResult]) -> String,
) -> ExitCode {
    let start = Instant::now();
    let files = match walk::walk(&args.paths, wanted) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let roots: BTreeSet<String> = args.paths.iter().map(|p| walk::root_name(p)).collect();
    let options = parallel::Options {
        jobs: args.jobs,
        timeout: match args.timeout.unwrap_or(120) {
            0 => None,
            t => Some(Duration::from_secs(t)),
        },
    };
    let results = run_all(&files, options);
    let extra = peer(&files, &results);
    let report = Report {
        command: command.to_string(),
        verbose: args.verbose,
        json: args.json.clone(),
        baseline: args.baseline.clone(),
        update_baseline: args.update_baseline,
        summary: args.summary,
        jobs: args.jobs,
        extra,
    };
    report::finish(&report, &results, &roots, start)
}

fn parse_only(args: &ShaderTestArgs) -> ExitCode {
    let files = match walk::walk(&args.common.paths, shader_test::is_candidate) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut stats = ParseStats::default();
    for file in &files {
        let (text, non_utf8) = match shader_test::read(&file.path) {
            Ok(read) => read,
            Err(e) => {
                stats
                    .errors
                    .push((file.id.clone(), format!("cannot read the file: {e}")));
                continue;
            }
        };
        let parsed = shader_test::parse(&text);
        if args.dump {
            println!("=== {}", file.id);
            print!("{}", shader_test::dump::dump(&parsed));
        }
        stats.add(&file.id, &parsed, non_utf8);
    }
    print!("{}", stats.render());
    if stats.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
