//! `rgl-conformance fill`: the fill-rate benchmark. Each workload is a
//! `.shader_test` file (`conformance/benches/fill/`) that draws one full-screen
//! rectangle; the benchmark runs the file once through the shader_runner
//! [`Executor`] (its probes must pass), then replays its last `draw rect`,
//! reading back one pixel after each draw so that every draw is finished
//! before the next starts (batched draws would let llvmpipe skip covered
//! tiles), and reports the median time per draw as Mpix/s.
//!
//! Every configuration runs in its own child process (`fill-one`) because the
//! thread count and the host driver are chosen through the environment before
//! any GL code runs: `RGL_THREADS` for rgl, `GALLIUM_DRIVER` and
//! `LP_NUM_THREADS` for the host's Mesa. The parent also measures how well
//! this machine's CPUs scale from one thread to two on a pure ALU loop
//! ([`cpu_scaling`]), so that 2-thread figures can be read against it.
//!
//! After the timed draws the child reads back a grid of [`sample_points`], so
//! the parent can compare the engines' images (a fast wrong result shows as
//! a large difference). `fill --shader-db` ([`crate::fill_db::run`]) drives
//! the same children over workloads generated from game shaders.

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use crate::shader_test::command::Command;
use crate::shader_test::exec::Executor;
use crate::shader_test::isolate::{make_context, spawn_reader, wait_with_timeout, Engine};
use crate::shader_test::storage::StorageCommand;
use crate::shader_test::{self};

/// One engine configuration of the benchmark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// `rgl` (the default driver), `rgl-NAME` (rgl with `RGL_DRIVER=NAME`, e.g.
    /// `rgl-jit`, `rgl-interp`), `rgl-NAME/OPTIONS` (also `RGL_JIT=OPTIONS`, e.g.
    /// `rgl-jit/pipeline=shader`), `llvmpipe` or `softpipe`.
    pub driver: String,
    /// Worker threads (rgl: `RGL_THREADS`, llvmpipe: `LP_NUM_THREADS`).
    pub threads: u32,
}

impl Config {
    /// Parses `rgl:2`, `rgl-interp:1`, `rgl-jit/pipeline=shader:1`, `llvmpipe:1`,
    /// `softpipe`.
    pub fn parse(text: &str) -> Result<Config, String> {
        let (driver, threads) = match text.split_once(':') {
            Some((d, t)) => (
                d,
                t.parse()
                    .map_err(|_| format!("bad thread count in {text:?}"))?,
            ),
            None => (text, 1),
        };
        let rgl_named = driver.strip_prefix("rgl-").is_some_and(|n| !n.is_empty());
        if !(rgl_named || matches!(driver, "rgl" | "llvmpipe" | "softpipe")) {
            return Err(format!(
                "unknown driver {driver:?} (rgl, rgl-NAME, llvmpipe or softpipe)"
            ));
        }
        Ok(Config {
            driver: driver.to_string(),
            threads,
        })
    }

    /// `driver:threads`.
    pub fn label(&self) -> String {
        format!("{}:{}", self.driver, self.threads)
    }

    /// Whether this configuration runs rgl.
    pub fn is_rgl(&self) -> bool {
        self.driver == "rgl" || self.driver.starts_with("rgl-")
    }

    fn engine(&self) -> Engine {
        if self.is_rgl() {
            Engine::Rgl
        } else {
            Engine::Host
        }
    }

    /// The environment that selects this configuration in a child.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        match self.driver.as_str() {
            "rgl" => vec![("RGL_THREADS", self.threads.to_string())],
            driver if self.is_rgl() => {
                let named = &driver["rgl-".len()..];
                let (name, options) = named.split_once('/').unwrap_or((named, ""));
                let mut env = vec![
                    ("RGL_THREADS", self.threads.to_string()),
                    ("RGL_DRIVER", name.to_string()),
                ];
                if !options.is_empty() {
                    env.push(("RGL_JIT", options.to_string()));
                }
                env
            }
            driver => vec![
                ("GALLIUM_DRIVER", driver.to_string()),
                ("LP_NUM_THREADS", self.threads.to_string()),
            ],
        }
    }
}

/// Sample points per side of the read-back grid.
const SAMPLE_GRID: u32 = 8;

/// Points (fractions of the framebuffer) read back after the timed draws, so
/// that the engines' images can be compared: the centres of an 8×8 grid of
/// cells, row by row from the bottom.
pub fn sample_points() -> Vec<(f32, f32)> {
    let at = |i: u32| (i as f32 + 0.5) / SAMPLE_GRID as f32;
    (0..SAMPLE_GRID)
        .flat_map(|y| (0..SAMPLE_GRID).map(move |x| (at(x), at(y))))
        .collect()
}

/// What one configuration measured on one workload.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// Timed draws.
    pub draws: usize,
    /// Median seconds per draw (draw + one-pixel read-back).
    pub median_s: f64,
    /// Pixels per draw.
    pub pixels: u64,
    /// Colors at [`sample_points`].
    pub samples: Vec<[f32; 4]>,
    /// Seconds of the script's first draw with a one-pixel read-back: the
    /// draw that compiles the program's variant (rgl: variant and fused
    /// pipeline; llvmpipe: its shader and fragment variants). `None` for
    /// compute workloads.
    pub first_draw_s: Option<f64>,
}

impl Measurement {
    /// Megapixels per second at the median draw time.
    pub fn mpix_per_s(&self) -> f64 {
        self.pixels as f64 / self.median_s / 1e6
    }
}

/// How many draws a configuration times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Draws {
    /// At least this many timed draws.
    pub min: usize,
    /// At most this many.
    pub max: usize,
    /// Keep drawing until this much time has passed (after `min`).
    pub budget: Duration,
}

/// Runs `path` once, then times its last `draw rect` until `draws.min` draws
/// are done and `draws.budget` has passed (at most `draws.max`).
/// `ignore_missing_uniforms` is shader_runner's `-ignore-missing-uniforms`
/// ([`Executor::ignore_missing_uniforms`]).
pub fn measure(
    path: &Path,
    engine: Engine,
    draws: Draws,
    ignore_missing_uniforms: bool,
) -> Result<Measurement, String> {
    let (text, _) = shader_test::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let parsed = shader_test::parse(&text);
    if let Some(e) = parsed.errors.first() {
        return Err(format!(
            "{}: line {}: {}",
            path.display(),
            e.line,
            e.message
        ));
    }
    let test = parsed.test;
    let timed = test
        .commands
        .iter()
        .rev()
        .find(|c| matches!(c.value, Command::DrawRect { .. }))
        .or_else(|| test.commands.iter().rev().find(|c| is_compute(&c.value)))
        .map(|c| c.value.clone())
        .ok_or_else(|| format!("{}: no `draw rect` or `compute` to time", path.display()))?;
    if let Command::Storage(StorageCommand::Compute(groups)) = &timed {
        return measure_compute(path, &test, engine, draws, &timed, *groups);
    }
    let draw = timed;
    let (width, height) = test.requirements.size();
    let mut context = make_context(engine)?;
    let mut executor = Executor::new(context.as_mut());
    executor.ignore_missing_uniforms(ignore_missing_uniforms);
    executor.time_first_draw(true);
    let outcome = executor.run(&test, path);
    if outcome.status != crate::result::Status::Pass {
        return Err(format!(
            "the workload does not pass: {}",
            outcome.messages.join("; ")
        ));
    }
    let first_draw_s = executor.first_draw().map(|d| d.as_secs_f64());
    let times = time_replays(&mut executor, &draw, draws, |e| {
        e.context().read_color(0, 0, 1, 1).map(drop)
    })?;
    let mut samples = Vec::new();
    for (fx, fy) in sample_points() {
        let (x, y) = ((fx * width as f32) as i32, (fy * height as f32) as i32);
        let px = executor.context().read_color(x, y, 1, 1)?;
        samples.push(px.first().copied().ok_or("empty read-back")?);
    }
    Ok(Measurement {
        draws: times.len(),
        median_s: times[times.len() / 2],
        pixels: width as u64 * height as u64,
        samples,
        first_draw_s,
    })
}

/// Replays `command` and waits for it with `finish` until `draws.min`
/// replays are done and `draws.budget` has passed (at most `draws.max`);
/// the times in seconds, sorted.
fn time_replays(
    executor: &mut Executor<'_>,
    command: &Command,
    draws: Draws,
    mut finish: impl FnMut(&mut Executor<'_>) -> Result<(), String>,
) -> Result<Vec<f64>, String> {
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < draws.max.max(1)
        && (times.len() < draws.min || start.elapsed() < draws.budget)
    {
        let t = Instant::now();
        executor.replay(command)?;
        finish(executor)?;
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    Ok(times)
}

fn is_compute(command: &Command) -> bool {
    matches!(command, Command::Storage(StorageCommand::Compute(_)))
}

/// The compute form of [`measure`]: runs the file once (its probes must
/// pass), then times its last `compute X Y Z` (dispatch, then a 4-byte read
/// of the storage buffer its last `probe ssbo` reads, so that the dispatch
/// has finished) and reports invocations as "pixels": workgroups times the
/// `local_size_*` of the `[compute shader]`.
fn measure_compute(
    path: &Path,
    test: &shader_test::parse::ShaderTest,
    engine: Engine,
    draws: Draws,
    dispatch: &Command,
    groups: [u32; 3],
) -> Result<Measurement, String> {
    let source = test
        .shaders
        .iter()
        .find(|s| {
            s.kind
                == shader_test::parse::ShaderKind::Glsl(shader_test::parse::SectionStage::Compute)
        })
        .map(|s| s.source.as_str())
        .ok_or_else(|| format!("{}: no [compute shader]", path.display()))?;
    let local = local_size(source);
    let probe = test.commands.iter().rev().find_map(|c| match &c.value {
        Command::Storage(StorageCommand::Probe { target, index, .. }) => Some((*target, *index)),
        _ => None,
    });
    let (target, index) =
        probe.ok_or_else(|| format!("{}: no `probe ssbo` to finish on", path.display()))?;
    let mut context = make_context(engine)?;
    let mut executor = Executor::new(context.as_mut());
    let outcome = executor.run(test, path);
    if outcome.status != crate::result::Status::Pass {
        return Err(format!(
            "the workload does not pass: {}",
            outcome.messages.join("; ")
        ));
    }
    let times = time_replays(&mut executor, dispatch, draws, |e| {
        e.context().read_storage(target, index, 0, 4).map(drop)
    })?;
    let invocations = groups
        .iter()
        .chain(local.iter())
        .fold(1u64, |n, d| n.saturating_mul(u64::from(*d)));
    Ok(Measurement {
        draws: times.len(),
        median_s: times[times.len() / 2],
        pixels: invocations,
        samples: Vec::new(),
        first_draw_s: None,
    })
}

/// `layout(local_size_x = X, local_size_y = Y, local_size_z = Z)` of a
/// compute shader's source, each 1 when absent (GLSL 4.30 §4.4.1.1); only
/// integer literals are read.
fn local_size(source: &str) -> [u32; 3] {
    let mut size = [1u32; 3];
    for (i, key) in ["local_size_x", "local_size_y", "local_size_z"]
        .iter()
        .enumerate()
    {
        if let Some(at) = source.find(key) {
            let rest = source[at + key.len()..].trim_start();
            if let Some(value) = rest.strip_prefix('=') {
                let digits: String = value
                    .trim_start()
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                size[i] = digits.parse().unwrap_or(1);
            }
        }
    }
    size
}

/// The child's result line (`ok …` or `err …`).
pub fn encode(result: &Result<Measurement, String>) -> String {
    match result {
        Ok(m) => {
            let samples: Vec<String> = m
                .samples
                .iter()
                .map(|s| {
                    s.iter()
                        .map(|c| format!("{c}"))
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .collect();
            let first = m
                .first_draw_s
                .map_or_else(|| "-".to_string(), |s| s.to_string());
            format!(
                "ok {} {} {} {} {}",
                m.draws,
                m.median_s,
                m.pixels,
                first,
                samples.join(";")
            )
        }
        Err(e) => format!("err {}", e.replace('\n', " ")),
    }
}

/// Reads a child's result line.
pub fn decode(line: &str) -> Result<Measurement, String> {
    if let Some(e) = line.strip_prefix("err ") {
        return Err(e.to_string());
    }
    let bad = || format!("malformed fill-one output {line:?}");
    let rest = line.strip_prefix("ok ").ok_or_else(bad)?;
    let mut words = rest.split(' ');
    let mut next = || words.next().ok_or_else(bad);
    let draws = next()?.parse().map_err(|_| bad())?;
    let median_s = next()?.parse().map_err(|_| bad())?;
    let pixels = next()?.parse().map_err(|_| bad())?;
    let first_draw_s = match next()? {
        "-" => None,
        s => Some(s.parse().map_err(|_| bad())?),
    };
    let mut samples = Vec::new();
    // A compute workload has no samples (an empty field).
    for s in next()?.split(';').filter(|s| !s.is_empty()) {
        let c: Vec<f32> = s.split(',').filter_map(|v| v.parse().ok()).collect();
        samples.push(<[f32; 4]>::try_from(c.as_slice()).map_err(|_| bad())?);
    }
    Ok(Measurement {
        draws,
        median_s,
        pixels,
        samples,
        first_draw_s,
    })
}

/// How a child runs, besides its configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChildRun {
    /// Timed draws.
    pub draws: Draws,
    /// Passed on to [`measure`].
    pub ignore_missing_uniforms: bool,
    /// A child running longer is killed (an endless shader on the host).
    pub timeout: Duration,
}

/// Runs one configuration on one workload in a child process of `exe`.
pub fn run_child(
    exe: &Path,
    config: &Config,
    workload: &Path,
    run: &ChildRun,
) -> Result<Measurement, String> {
    let mut child = Process::new(exe);
    child
        .arg("fill-one")
        .arg("--engine")
        .arg(config.engine().name())
        .arg("--min-draws")
        .arg(run.draws.min.to_string())
        .arg("--max-draws")
        .arg(run.draws.max.to_string())
        .arg("--budget")
        .arg(run.draws.budget.as_secs_f64().to_string());
    if run.ignore_missing_uniforms {
        child.arg("--ignore-missing-uniforms");
    }
    child
        .arg(workload)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in config.env() {
        child.env(k, v);
    }
    let mut child = child
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let stdout = child.stdout.take().map(spawn_reader);
    let stderr = child.stderr.take().map(spawn_reader);
    let status = wait_with_timeout(&mut child, run.timeout);
    let text = |h: Option<std::thread::JoinHandle<Vec<u8>>>| {
        h.and_then(|h| h.join().ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    };
    let (stdout, stderr) = (text(stdout), text(stderr));
    let Some(status) = status else {
        return Err(format!(
            "timeout: killed after {} s",
            run.timeout.as_secs_f64()
        ));
    };
    match stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("ok ") || l.starts_with("err "))
    {
        Some(line) => decode(line),
        None => Err(format!(
            "fill-one exited with {status} and no result: {}",
            stderr.lines().last().unwrap_or("")
        )),
    }
}

/// The 2-thread / 1-thread throughput of a pure ALU loop on this machine
/// right now (2.0 = perfect scaling): the same-run check that 2-thread
/// figures are read against.
pub fn cpu_scaling() -> f64 {
    fn spin(iterations: u64) -> u64 {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..iterations {
            x = x.rotate_left(7) ^ i.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        }
        x
    }
    const N: u64 = 200_000_000;
    let t = Instant::now();
    std::hint::black_box(spin(N));
    let one = t.elapsed().as_secs_f64();
    let t = Instant::now();
    std::thread::scope(|s| {
        let a = s.spawn(|| spin(N));
        let b = s.spawn(|| spin(N));
        std::hint::black_box((a.join().ok(), b.join().ok()));
    });
    let two = t.elapsed().as_secs_f64();
    2.0 * one / two
}

/// The largest per-channel difference between two sample sets.
pub fn max_difference(a: &[[f32; 4]], b: &[[f32; 4]]) -> f32 {
    a.iter()
        .zip(b)
        .flat_map(|(x, y)| (0..4).map(move |c| (x[c] - y[c]).abs()))
        .fold(0.0, f32::max)
}

/// The workloads under `paths` (files, or folders of `.shader_test` files).
pub fn workloads(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(p)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|f| f.extension().is_some_and(|x| x == "shader_test"))
                .collect();
            files.sort();
            out.extend(files);
        } else {
            out.push(p.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn child_result_lines_round_trip() {
        let draw = Measurement {
            draws: 7,
            median_s: 0.0125,
            pixels: 1 << 20,
            samples: vec![[0.0, 0.5, 1.0, 1.0], [0.25, 0.125, 0.0, 1.0]],
            first_draw_s: Some(0.0875),
        };
        let compute = Measurement {
            draws: 3,
            median_s: 0.5,
            pixels: 4096,
            samples: Vec::new(),
            first_draw_s: None,
        };
        for m in [draw, compute] {
            let line = encode(&Ok(m.clone()));
            assert_eq!(decode(&line), Ok(m), "{line}");
        }
        let err = encode(&Err("no\nluck".into()));
        assert_eq!(decode(&err), Err("no luck".to_string()));
        assert!(decode("ok 1 2").is_err());
    }
}
