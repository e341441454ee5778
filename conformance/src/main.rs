//! The `rgl-conformance` command line:
//! * `rgl-conformance glslparser PATH...` runs every glslparsertest file under
//!   the given paths (compile, and link when `check_link: true`);
//! * `rgl-conformance shader-test --link-only PATH...` compiles and links the
//!   program of every `.shader_test` file and checks `link error` (`--nir`:
//!   through the link-time NIR pipeline too);
//! * `rgl-conformance shader-test PATH...` runs the `[test]` scripts (needs a
//!   GL context; until rgl has one, every file is a skip saying so);
//! * `rgl-conformance shader-test --parse-only PATH...` parses and prints the
//!   totals of sections, requirements and commands, and every parse error.
//!
//! Each run prints failures and skips and a closing `N passed, N failed, N
//! skipped` line; see `--help`.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use rgl_conformance::report::{self, Report};
use rgl_conformance::shader_test::link_only::LinkDepth;
use rgl_conformance::shader_test::{self, stats::ParseStats};
use rgl_conformance::{glslparser, parallel, walk};

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
    Glslparser(CommonArgs),
    /// Run piglit .shader_test files.
    ShaderTest(ShaderTestArgs),
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
    /// Stop the run (exit status 3) if one test runs for longer than this many seconds (0: never).
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    timeout: u64,
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Glslparser(args) => {
            run(&args, "glslparser", glslparser::is_candidate, |files, o| {
                glslparser::run_all(files, o)
            })
        }
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
            )
        }
        Command::ShaderTest(args) => run(
            &args.common,
            "shader-test",
            shader_test::is_candidate,
            shader_test::exec::run_all_without_context,
        ),
    }
}

fn run(
    args: &CommonArgs,
    command: &str,
    wanted: fn(&std::path::Path) -> bool,
    run_all: impl Fn(&[walk::FoundFile], parallel::Options) -> Vec<rgl_conformance::result::TestResult>,
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
        timeout: (args.timeout > 0).then(|| Duration::from_secs(args.timeout)),
    };
    let results = run_all(&files, options);
    let report = Report {
        command: command.to_string(),
        verbose: args.verbose,
        json: args.json.clone(),
        baseline: args.baseline.clone(),
        update_baseline: args.update_baseline,
        summary: args.summary,
        jobs: args.jobs,
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
