//! `rgl-conformance fill --shader-db DIR`: generates a workload for every
//! shader-db program (into `--out`, by default `target/fill-db/`), runs each
//! program × configuration in a child process exactly as `fill` does
//! ([`crate::fill::run_child`], with shader_runner's
//! `-ignore-missing-uniforms`), and reports per program the fill rate of
//! every configuration, rgl / llvmpipe at the same thread count, and the
//! largest channel difference between the engines' sample pixels; then the
//! geometric means of the ratios (overall and per kind of texture target),
//! the slowest programs, the programs whose images disagree, and every
//! program left out with its reason.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{generate_file, TargetKind};
use crate::fill::{self, ChildRun, Config, Measurement};
use crate::shader_test;
use crate::walk;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The shader-db folder.
    pub corpus: PathBuf,
    /// Where the generated workloads are written.
    pub out: PathBuf,
    /// Only programs whose id contains one of these texts (all when empty).
    pub filter: Vec<String>,
    /// At most this many programs (after the filter).
    pub limit: Option<usize>,
    /// Configurations, in column order.
    pub configs: Vec<Config>,
    /// Per child: draws, timeout.
    pub child: ChildRun,
    /// Stop starting programs after this much time (the rest are counted as
    /// not run).
    pub total_budget: Duration,
    /// A sample channel differing by more than this between rgl and
    /// llvmpipe marks the program's image as disagreeing.
    pub tolerance: f32,
    /// Only write the workloads.
    pub generate_only: bool,
}

/// One program's results.
struct Row {
    id: String,
    kinds: Vec<TargetKind>,
    results: Vec<Result<Measurement, String>>,
}

/// The system's load averages (`/proc/loadavg`: 1, 5 and 15 minutes), to
/// print beside the figures: other processes on the machine slow the
/// configurations unevenly.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| "unknown".into())
}

/// The geometric mean of `values` (`None` when empty).
pub fn geometric_mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let log_sum: f64 = values.iter().map(|v| v.ln()).sum();
    Some((log_sum / values.len() as f64).exp())
}

/// The median and the 90th percentile (nearest rank) of sorted `values`.
fn percentiles(values: &[f64]) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let rank =
        |p: f64| values[((p * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1];
    Some((rank(0.5), rank(0.9)))
}

/// The llvmpipe configuration with the threads of `rgl`.
fn peer_index(configs: &[Config], rgl: &Config) -> Option<usize> {
    configs
        .iter()
        .position(|c| c.driver == "llvmpipe" && c.threads == rgl.threads)
}

/// Per rgl configuration: (its index, its peer's index).
fn ratio_pairs(configs: &[Config]) -> Vec<(usize, usize)> {
    configs
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_rgl())
        .filter_map(|(i, c)| peer_index(configs, c).map(|p| (i, p)))
        .collect()
}

fn ratio(row: &Row, (rgl, peer): (usize, usize)) -> Option<f64> {
    match (&row.results[rgl], &row.results[peer]) {
        (Ok(a), Ok(b)) => Some(a.mpix_per_s() / b.mpix_per_s()),
        _ => None,
    }
}

/// The largest sample difference between any rgl configuration and the
/// first llvmpipe configuration (or the first configuration that ran).
fn max_difference(row: &Row, configs: &[Config]) -> Option<f32> {
    let reference = configs
        .iter()
        .position(|c| c.driver == "llvmpipe")
        .and_then(|i| row.results[i].as_ref().ok())
        .or_else(|| row.results.iter().find_map(|r| r.as_ref().ok()))?;
    rgl_difference(row, configs, reference)
}

/// The largest sample difference between any rgl configuration and
/// softpipe, when softpipe ran: a third opinion where rgl and llvmpipe
/// disagree (llvmpipe computes with fast-math rules where a shader makes an
/// infinity or a NaN).
fn softpipe_difference(row: &Row, configs: &[Config]) -> Option<f32> {
    let reference = configs
        .iter()
        .position(|c| c.driver == "softpipe")
        .and_then(|i| row.results[i].as_ref().ok())?;
    rgl_difference(row, configs, reference)
}

fn rgl_difference(row: &Row, configs: &[Config], reference: &Measurement) -> Option<f32> {
    row.results
        .iter()
        .zip(configs)
        .filter(|(_, c)| c.is_rgl())
        .filter_map(|(r, _)| r.as_ref().ok())
        .map(|m| fill::max_difference(&reference.samples, &m.samples))
        .reduce(f32::max)
}

fn kinds_label(kinds: &[TargetKind]) -> String {
    if kinds.is_empty() {
        "-".into()
    } else {
        kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join(",")
    }
}

/// The breakdown groups a program belongs to.
fn groups(kinds: &[TargetKind]) -> Vec<&'static str> {
    let mut out = Vec::new();
    if kinds.is_empty() {
        out.push("no sampler");
    }
    if kinds == [TargetKind::D2] {
        out.push("2D only");
    }
    for (kind, name) in [
        (TargetKind::D1, "1D"),
        (TargetKind::D3, "3D"),
        (TargetKind::Cube, "cube"),
        (TargetKind::Shadow, "shadow"),
    ] {
        if kinds.contains(&kind) {
            out.push(name);
        }
    }
    out
}

fn header(configs: &[Config], pairs: &[(usize, usize)]) -> String {
    let mut line = format!("{:<52}", "program");
    for c in configs {
        let _ = write!(line, " {:>12}", c.label());
    }
    for (rgl, _) in pairs {
        let _ = write!(line, " {:>15}", format!("{}/lp", configs[*rgl].label()));
    }
    let _ = write!(line, " {:>8}  targets", "max diff");
    line
}

fn row_line(row: &Row, configs: &[Config], pairs: &[(usize, usize)]) -> String {
    let mut line = format!("{:<52}", row.id);
    for r in &row.results {
        match r {
            Ok(m) => {
                let _ = write!(line, " {:>12.2}", m.mpix_per_s());
            }
            Err(_) => {
                let _ = write!(line, " {:>12}", "error");
            }
        }
    }
    for pair in pairs {
        match ratio(row, *pair) {
            Some(r) => {
                let _ = write!(line, " {:>14.3}x", r);
            }
            None => {
                let _ = write!(line, " {:>15}", "-");
            }
        }
    }
    match max_difference(row, configs) {
        Some(d) => {
            let _ = write!(line, " {d:>8.3}");
        }
        None => {
            let _ = write!(line, " {:>8}", "-");
        }
    }
    let _ = write!(line, "  {}", kinds_label(&row.kinds));
    line
}

/// Generates the workloads of the selected programs: (id, generated path,
/// kinds) for each success, (id, reason) for each failure.
#[allow(clippy::type_complexity)]
fn generate_all(
    options: &Options,
) -> Result<
    (
        Vec<(String, PathBuf, Vec<TargetKind>)>,
        Vec<(String, String)>,
    ),
    String,
> {
    let files = walk::walk(
        std::slice::from_ref(&options.corpus),
        shader_test::is_candidate,
    )
    .map_err(|e| e.to_string())?;
    let selected = files
        .into_iter()
        .filter(|f| options.filter.is_empty() || options.filter.iter().any(|t| f.id.contains(t)))
        .take(options.limit.unwrap_or(usize::MAX));
    let mut made = Vec::new();
    let mut failed = Vec::new();
    for file in selected {
        match generate_file(&file.path, &file.id) {
            Ok(workload) => {
                let path = options.out.join(&file.id);
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                }
                std::fs::write(&path, &workload.text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                made.push((file.id, path, workload.kinds));
            }
            Err(why) => failed.push((file.id, why.to_string())),
        }
    }
    Ok((made, failed))
}

/// Runs the whole benchmark; `Err` for a setup problem (no corpus, no
/// configuration, cannot write the workloads).
pub fn run(options: &Options, exe: &Path) -> Result<(), String> {
    let start = Instant::now();
    let (made, not_generated) = generate_all(options)?;
    let selected = made.len() + not_generated.len();
    println!(
        "shader-db: {selected} programs selected from {}; {} workloads written to {}, {} not generated",
        options.corpus.display(),
        made.len(),
        options.out.display(),
        not_generated.len()
    );
    for (id, why) in &not_generated {
        println!("NOT GENERATED {id}: {why}");
    }
    if options.generate_only {
        return Ok(());
    }
    if options.configs.is_empty() {
        return Err("no configuration".into());
    }
    let configs = &options.configs;
    let pairs = ratio_pairs(configs);
    let scaling_before = fill::cpu_scaling();
    println!(
        "CPU scaling check before (2-thread / 1-thread ALU throughput, 2.0 = perfect): {scaling_before:.2}; load average {}",
        load_average()
    );
    println!(
        "draws per configuration: {}..{} within {:.1} s; Mpix/s = pixels / median draw; `X/lp` columns: X / llvmpipe at the same threads",
        options.child.draws.min,
        options.child.draws.max,
        options.child.draws.budget.as_secs_f64()
    );
    println!("{}", header(configs, &pairs));
    let mut rows = Vec::new();
    let mut not_run = Vec::new();
    for (id, path, kinds) in &made {
        if start.elapsed() >= options.total_budget {
            not_run.push(id.clone());
            continue;
        }
        let results = configs
            .iter()
            .map(|c| fill::run_child(exe, c, path, &options.child))
            .collect();
        let row = Row {
            id: id.clone(),
            kinds: kinds.clone(),
            results,
        };
        println!("{}", row_line(&row, configs, &pairs));
        rows.push(row);
    }
    let scaling_after = fill::cpu_scaling();
    print!(
        "{}",
        summary(
            options,
            &rows,
            &not_generated,
            &not_run,
            (scaling_before, scaling_after)
        )
    );
    println!("elapsed: {:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// The closing report.
fn summary(
    options: &Options,
    rows: &[Row],
    not_generated: &[(String, String)],
    not_run: &[String],
    scaling: (f64, f64),
) -> String {
    let configs = &options.configs;
    let pairs = ratio_pairs(configs);
    let mut out = String::new();
    let (measured, failed): (Vec<&Row>, Vec<&Row>) = rows
        .iter()
        .partition(|r| r.results.iter().all(Result::is_ok));
    let _ = writeln!(
        out,
        "\nCPU scaling check after: {:.2} (before: {:.2}); load average {}",
        scaling.1,
        scaling.0,
        load_average()
    );
    let _ = writeln!(
        out,
        "programs: {} generated and measured on every configuration, {} failed on a configuration, {} not generated, {} not run (--total-budget)",
        measured.len(),
        failed.len(),
        not_generated.len(),
        not_run.len()
    );
    for row in &failed {
        for (r, c) in row.results.iter().zip(configs) {
            if let Err(e) = r {
                let _ = writeln!(out, "FAILED {} on {}: {e}", row.id, c.label());
            }
        }
    }
    if pairs.is_empty() {
        let _ = writeln!(
            out,
            "no rgl configuration has an llvmpipe one with the same threads: no ratios"
        );
        return out;
    }
    let mean_of = |rows: &[&Row], pair| {
        let ratios: Vec<f64> = rows.iter().filter_map(|r| ratio(r, pair)).collect();
        geometric_mean(&ratios).map(|g| (g, ratios.len()))
    };
    let agreeing: Vec<&Row> = measured
        .iter()
        .copied()
        .filter(|r| max_difference(r, configs).is_some_and(|d| d <= options.tolerance))
        .collect();
    let _ = writeln!(
        out,
        "\ngeometric mean of rgl / llvmpipe over the programs measured on every configuration:"
    );
    for &pair in &pairs {
        let label = format!("{} / {}", configs[pair.0].label(), configs[pair.1].label());
        match (mean_of(&measured, pair), mean_of(&agreeing, pair)) {
            (Some((all, n)), agree) => {
                let agree = agree.map_or_else(
                    || "-".to_string(),
                    |(g, k)| format!("{g:.3}x over the {k} whose images agree"),
                );
                let _ = writeln!(out, "  {label:<28} {all:.3}x ({n} programs); {agree}");
            }
            (None, _) => {
                let _ = writeln!(out, "  {label:<28} -");
            }
        }
    }
    let mut by_group: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for row in &measured {
        for g in groups(&row.kinds) {
            by_group.entry(g).or_default().push(row);
        }
    }
    let _ = writeln!(
        out,
        "\nby texture target (a program counts in every group it samples):"
    );
    for (group, rows) in &by_group {
        let means: Vec<String> = pairs
            .iter()
            .map(|&pair| {
                mean_of(rows, pair).map_or_else(
                    || "-".into(),
                    |(g, _)| format!("{}: {g:.3}x", configs[pair.0].label()),
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "  {group:<12} {:>4} programs  {}",
            rows.len(),
            means.join("  ")
        );
    }
    let _ = writeln!(
        out,
        "\nfirst draw (compiles the program's variant; with a one-pixel read-back) minus the median draw, per configuration, over the programs measured on every configuration:"
    );
    for (i, c) in configs.iter().enumerate() {
        let mut extra: Vec<f64> = measured
            .iter()
            .filter_map(|r| r.results[i].as_ref().ok())
            .filter_map(|m| m.first_draw_s.map(|f| (f - m.median_s).max(0.0) * 1e3))
            .collect();
        extra.sort_by(f64::total_cmp);
        match percentiles(&extra) {
            Some((median, p90)) => {
                let _ = writeln!(
                    out,
                    "  {:<12} median {median:.2} ms, p90 {p90:.2} ms ({} programs)",
                    c.label(),
                    extra.len()
                );
            }
            None => {
                let _ = writeln!(out, "  {:<12} -", c.label());
            }
        }
    }
    let first = pairs[0];
    let mut slowest: Vec<(&Row, f64)> = measured
        .iter()
        .filter_map(|r| ratio(r, first).map(|v| (*r, v)))
        .collect();
    slowest.sort_by(|a, b| a.1.total_cmp(&b.1));
    let _ = writeln!(
        out,
        "\nslowest 10 by {} / {}:",
        configs[first.0].label(),
        configs[first.1].label()
    );
    for (row, r) in slowest.iter().take(10) {
        let _ = writeln!(out, "  {r:.3}x  {}  ({})", row.id, kinds_label(&row.kinds));
    }
    let disagreeing: Vec<(&Row, f32)> = measured
        .iter()
        .filter_map(|r| {
            max_difference(r, configs)
                .filter(|d| *d > options.tolerance)
                .map(|d| (*r, d))
        })
        .collect();
    let _ = writeln!(
        out,
        "\nimages: {} of {} programs agree with llvmpipe within {} at every sample point",
        measured.len() - disagreeing.len(),
        measured.len(),
        options.tolerance
    );
    for (row, d) in &disagreeing {
        let softpipe = softpipe_difference(row, configs)
            .map_or_else(String::new, |s| format!(" (from softpipe: {s:.3})"));
        let _ = writeln!(
            out,
            "DIFF {}: max channel difference {d:.3}{softpipe}",
            row.id
        );
    }
    for id in not_run {
        let _ = writeln!(out, "NOT RUN {id}: --total-budget reached");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometric_mean_of_ratios() {
        // (1/4 · 4 · 2 · 8)^(1/4) = 16^(1/4) = 2.
        let g = geometric_mean(&[0.25, 4.0, 2.0, 8.0]).unwrap_or(0.0);
        assert!((g - 2.0).abs() < 1e-12, "{g}");
        assert_eq!(geometric_mean(&[]), None);
    }

    #[test]
    fn median_and_p90_by_nearest_rank() {
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(percentiles(&v), Some((5.0, 9.0)));
        assert_eq!(percentiles(&[3.0]), Some((3.0, 3.0)));
        assert_eq!(percentiles(&[]), None);
    }

    #[test]
    fn groups_of_target_kinds() {
        assert_eq!(groups(&[]), ["no sampler"]);
        assert_eq!(groups(&[TargetKind::D2]), ["2D only"]);
        assert_eq!(
            groups(&[TargetKind::D2, TargetKind::Cube, TargetKind::Shadow]),
            ["cube", "shadow"]
        );
    }

    #[test]
    fn ratios_pair_rgl_with_llvmpipe_of_the_same_threads() {
        let configs: Vec<Config> = ["rgl:1", "rgl-interp:2", "llvmpipe:2", "llvmpipe:1"]
            .iter()
            .filter_map(|c| Config::parse(c).ok())
            .collect();
        assert_eq!(ratio_pairs(&configs), [(0, 3), (1, 2)]);
    }
}
