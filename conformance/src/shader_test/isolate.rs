//! Running `.shader_test` files one per child process, so that a crash, an
//! abort, a stack overflow or a hang in one file cannot stop the rest.
//!
//! The parent re-executes its own binary with the hidden subcommand
//! `shader-test-one --engine rgl|host --id ID FILE`; the child runs the file
//! ([`run_file`]) and prints its result as one JSON line ([`encode`]). The
//! parent keeps `jobs` children running, kills one that runs past the timeout
//! (the file fails with `timeout: …`), and turns a child that died without a
//! result line into a failure naming the signal or exit status and the last
//! lines it wrote to stderr (a panic message, Rust's stack-overflow note).
//!
//! For tests of the isolation itself, `RGL_CONFORMANCE_FAULT=KIND:TEXT[,…]` makes
//! [`run_file`] misbehave on files whose id contains `TEXT`: `panic` panics,
//! `abort` aborts the process, `hang` never returns.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::exec::{Executor, GlContext};
use crate::panic_capture;
use crate::result::{json_string, Status, TestResult};
use crate::walk::FoundFile;

/// Which GL implementation runs a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// rgl's state tracker on the software driver ([`super::rgl_context`]).
    Rgl,
    /// The host's GL through EGL ([`super::host`]).
    Host,
}

impl Engine {
    /// Name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Rgl => "rgl",
            Engine::Host => "host",
        }
    }

    /// Parses a command-line name.
    pub fn parse(name: &str) -> Result<Engine, String> {
        match name {
            "rgl" => Ok(Engine::Rgl),
            "host" => Ok(Engine::Host),
            other => Err(format!("unknown engine {other:?} (rgl or host)")),
        }
    }
}

/// Environment variable of the fault injection (see the module docs).
pub const FAULT_ENV: &str = "RGL_CONFORMANCE_FAULT";

fn inject_fault(id: &str) {
    let Ok(specs) = std::env::var(FAULT_ENV) else {
        return;
    };
    for spec in specs.split(',') {
        let Some((kind, text)) = spec.split_once(':') else {
            continue;
        };
        if text.is_empty() || !id.contains(text) {
            continue;
        }
        match kind {
            "panic" => panic!("{FAULT_ENV}: injected panic"),
            "abort" => {
                eprintln!("{FAULT_ENV}: injected abort");
                std::process::abort()
            }
            "hang" => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            _ => {}
        }
    }
}

fn result_of(file: &FoundFile, status: Status, messages: Vec<String>, d: Duration) -> TestResult {
    let reason = match messages.len() {
        0 => String::new(),
        1 => messages[0].clone(),
        n => format!("{} (and {} more)", messages[0], n - 1),
    };
    let detail = if messages.len() > 1 {
        messages.join("\n")
    } else {
        String::new()
    };
    TestResult {
        path: file.path.clone(),
        id: file.id.clone(),
        status,
        reason,
        detail,
        duration: d,
    }
}

/// Creates the context of `engine` (`Err`: the engine is not available).
pub fn make_context(engine: Engine) -> Result<Box<dyn GlContext>, String> {
    match engine {
        Engine::Rgl => Ok(Box::new(super::rgl_context::RglContext::new())),
        Engine::Host => super::host::HostContext::new().map(|c| Box::new(c) as Box<dyn GlContext>),
    }
}

/// Runs one file in this process: parse, create the context, execute. A
/// panic becomes a failure naming it.
pub fn run_file(file: &FoundFile, engine: Engine) -> TestResult {
    let start = Instant::now();
    let one = |status, why: String| result_of(file, status, vec![why], start.elapsed());
    let (text, _) = match super::read(&file.path) {
        Ok(read) => read,
        Err(e) => return one(Status::Error, format!("cannot read the file: {e}")),
    };
    let parsed = super::parse(&text);
    if let Some(first) = parsed.errors.first() {
        return one(
            Status::Error,
            format!("parse error: line {}: {}", first.line, first.message),
        );
    }
    let outcome = panic_capture::catch(|| {
        inject_fault(&file.id);
        let mut context = match make_context(engine) {
            Ok(c) => c,
            Err(why) => return Err(why),
        };
        Ok(Executor::new(context.as_mut()).run(&parsed.test, &file.path))
    });
    match outcome {
        Err(panic) => {
            let mut r = one(
                Status::Fail,
                format!("{} {}", engine.name(), panic.summary().replace('\n', " ")),
            );
            r.detail = panic.backtrace.trim_end().to_string();
            r
        }
        Ok(Err(why)) => one(Status::Skip, format!("{} context: {why}", engine.name())),
        Ok(Ok(outcome)) => result_of(file, outcome.status, outcome.messages, start.elapsed()),
    }
}

/// The child's result line.
pub fn encode(r: &TestResult) -> String {
    let mut out = String::from("{\"status\": ");
    json_string(&mut out, r.status.name());
    out.push_str(", \"reason\": ");
    json_string(&mut out, &r.reason);
    out.push_str(", \"detail\": ");
    json_string(&mut out, &r.detail);
    out.push_str(&format!(
        ", \"duration\": {:.6}}}",
        r.duration.as_secs_f64()
    ));
    out
}

/// Reads a JSON string literal at the start of `s` (after the quote); returns
/// the string and the rest.
fn json_str(s: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &s[i + 1..])),
            '\\' => {
                let (_, e) = chars.next()?;
                out.push(match e {
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'u' => {
                        let hex: String = (0..4)
                            .filter_map(|_| chars.next().map(|(_, h)| h))
                            .collect();
                        char::from_u32(u32::from_str_radix(&hex, 16).ok()?).unwrap_or('\u{fffd}')
                    }
                    other => other,
                });
            }
            c => out.push(c),
        }
    }
    None
}

/// Parses one flat JSON object of string and number values (a result line,
/// or one line of the `--json` file without its trailing comma) into its
/// (key, value) pairs in order; numbers keep their text.
pub fn parse_flat_object(line: &str) -> Option<Vec<(String, String)>> {
    let mut rest = line.trim().trim_end_matches(',').strip_prefix('{')?;
    let mut fields = Vec::new();
    loop {
        rest = rest.trim_start().trim_start_matches(',').trim_start();
        if rest.starts_with('}') {
            return Some(fields);
        }
        let (key, after) = json_str(rest.strip_prefix('"')?)?;
        rest = after.trim_start().strip_prefix(':')?.trim_start();
        if let Some(s) = rest.strip_prefix('"') {
            let (value, after) = json_str(s)?;
            rest = after;
            fields.push((key, value));
        } else {
            let end = rest.find([',', '}'])?;
            fields.push((key, rest[..end].trim().to_string()));
            rest = &rest[end..];
        }
    }
}

/// A status by its JSON name.
pub fn status_named(name: &str) -> Option<Status> {
    Some(match name {
        "pass" => Status::Pass,
        "warn" => Status::Warn,
        "fail" => Status::Fail,
        "skip" => Status::Skip,
        "error" => Status::Error,
        _ => return None,
    })
}

/// Parses a result line written by [`encode`] back into (status, reason,
/// detail, duration).
pub fn decode(line: &str) -> Option<(Status, String, String, Duration)> {
    let fields = parse_flat_object(line)?;
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    let status = status_named(&get("status")?)?;
    let duration: f64 = get("duration").map_or(Some(0.0), |d| d.parse().ok())?;
    let duration = Duration::try_from_secs_f64(duration).unwrap_or(Duration::ZERO);
    Some((
        status,
        get("reason").unwrap_or_default(),
        get("detail").unwrap_or_default(),
        duration,
    ))
}

/// How to run children.
#[derive(Clone, Debug)]
pub struct ChildOptions {
    /// The runner binary (normally `std::env::current_exe()`).
    pub exe: PathBuf,
    /// Children at once.
    pub jobs: usize,
    /// A child running longer is killed and its file fails.
    pub timeout: Duration,
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        15 => "SIGTERM",
        _ => "signal",
    }
}

pub(crate) fn spawn_reader(
    mut pipe: impl std::io::Read + Send + 'static,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// The last `n` non-empty lines of `text`, joined with ` | `.
fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("note: run with"))
        .collect();
    lines[lines.len().saturating_sub(n)..].join(" | ")
}

/// Waits for `child` up to `timeout`; `None` when it had to be killed.
pub(crate) fn wait_with_timeout(
    child: &mut Child,
    timeout: Duration,
) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    let mut nap = Duration::from_millis(1);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if start.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            Ok(None) => {
                std::thread::sleep(nap);
                nap = (nap * 2).min(Duration::from_millis(20));
            }
            Err(_) => return child.wait().ok(),
        }
    }
}

/// Runs one file in a child process.
pub fn run_child(file: &FoundFile, engine: Engine, options: &ChildOptions) -> TestResult {
    let start = Instant::now();
    let fail = |reason: String, detail: String| TestResult {
        path: file.path.clone(),
        id: file.id.clone(),
        status: Status::Fail,
        reason,
        detail,
        duration: start.elapsed(),
    };
    let mut command = Command::new(&options.exe);
    command
        .arg("shader-test-one")
        .arg("--engine")
        .arg(engine.name());
    if file.id == PROBE_ID {
        command.arg("--probe");
    } else {
        command.arg("--id").arg(&file.id).arg(&file.path);
    }
    let spawned = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            return fail(
                format!(
                    "cannot start the child process {}: {e}",
                    options.exe.display()
                ),
                String::new(),
            )
        }
    };
    let stdout = child.stdout.take().map(spawn_reader);
    let stderr = child.stderr.take().map(spawn_reader);
    let status = wait_with_timeout(&mut child, options.timeout);
    let text = |h: Option<std::thread::JoinHandle<Vec<u8>>>| {
        h.and_then(|h| h.join().ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    };
    let (out, err) = (text(stdout), text(stderr));
    let Some(status) = status else {
        return fail(
            format!(
                "timeout: killed after {} s (a hang, e.g. an endless shader loop)",
                options.timeout.as_secs_f64()
            ),
            String::new(),
        );
    };
    if let Some((status, reason, detail, duration)) = out
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .and_then(decode)
    {
        return TestResult {
            path: file.path.clone(),
            id: file.id.clone(),
            status,
            reason,
            detail,
            duration,
        };
    }
    let how = {
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            match status.signal() {
                Some(s) => format!("crashed with signal {s} ({})", signal_name(s)),
                None => format!("exited with {status} without a result"),
            }
        }
        #[cfg(not(unix))]
        {
            format!("exited with {status} without a result")
        }
    };
    let last = tail(&err, 3);
    let reason = if last.is_empty() {
        format!("{} child {how}", engine.name())
    } else {
        format!("{} child {how}: {last}", engine.name())
    };
    fail(reason, tail(&err, 40).replace(" | ", "\n"))
}

/// Runs every file in child processes, `options.jobs` at a time; results in
/// input order.
pub fn run_all(files: &[FoundFile], engine: Engine, options: &ChildOptions) -> Vec<TestResult> {
    let jobs = options.jobs.clamp(1, files.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<TestResult>>> = Mutex::new(vec![None; files.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(index) else { break };
                let r = run_child(file, engine, options);
                if let Ok(mut all) = results.lock() {
                    all[index] = Some(r);
                }
            });
        }
    });
    let all = results.into_inner().unwrap_or_default();
    files
        .iter()
        .zip(all)
        .map(|(file, r)| {
            r.unwrap_or_else(|| TestResult {
                path: file.path.clone(),
                id: file.id.clone(),
                status: Status::Fail,
                reason: "the runner thread of this file died".into(),
                detail: String::new(),
                duration: Duration::ZERO,
            })
        })
        .collect()
}

/// The child side of the host peer's availability check: creates a host
/// context and prints whether it worked (`pass` with the renderer, or `skip`
/// with the reason).
pub fn probe_line(engine: Engine) -> String {
    let r = match panic_capture::catch(|| make_context(engine).map(|c| c.describe())) {
        Ok(Ok(renderer)) => (Status::Pass, renderer),
        Ok(Err(why)) => (Status::Skip, why),
        Err(panic) => (Status::Fail, panic.summary()),
    };
    encode(&TestResult {
        path: PathBuf::new(),
        id: String::new(),
        status: r.0,
        reason: r.1,
        detail: String::new(),
        duration: Duration::ZERO,
    })
}

/// The id [`run_child`] takes for the availability check.
const PROBE_ID: &str = "(probe)";

/// Asks a child whether `engine` can create a context here: `Ok(renderer)`
/// or `Err(why not)`.
pub fn probe(engine: Engine, options: &ChildOptions) -> Result<String, String> {
    let probe_file = FoundFile {
        path: PathBuf::new(),
        id: PROBE_ID.into(),
        root: String::new(),
    };
    let r = run_child(&probe_file, engine, options);
    match r.status {
        Status::Pass => Ok(r.reason),
        _ => Err(r.reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lines_round_trip() {
        let r = TestResult {
            path: PathBuf::new(),
            id: String::new(),
            status: Status::Fail,
            reason: "line 3: \"probe\" \\ failed\tat (1, 2)".into(),
            detail: "a\nb \u{1}".into(),
            duration: Duration::from_millis(1500),
        };
        let decoded = decode(&encode(&r));
        assert_eq!(
            decoded,
            Some((
                Status::Fail,
                r.reason.clone(),
                r.detail.clone(),
                Duration::from_millis(1500)
            ))
        );
        assert_eq!(decode("not json"), None);
        assert_eq!(decode("{\"status\": \"bogus\"}"), None);
    }
}
