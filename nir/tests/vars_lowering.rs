//! The variable-lowering passes as a pipeline (vars branch):
//!
//! * every shader of the round-trip corpus (`tests/ir`) and every file-test input goes
//!   through the lowering sequence of Mesa's link step (io to temporaries, inlining,
//!   globals to locals, copy splitting/lowering, indirect derefs, vars to SSA, dead
//!   variables), validated after every pass by the runner, and must print and re-parse
//!   identically afterwards;
//! * `tests/vars_pipeline/*.nir` are pipeline snapshots: a `pipeline <pass> ...`
//!   header, the input, and the expected output after those passes (`; ` lines after
//!   `; expect:`, rewritten with `BLESS=1`);
//! * a call-tree explosion (each function calling the previous one twice, 40 deep)
//!   must make `InlineFunctions { limit }` fail with "shader too large after inlining"
//!   quickly, leaving a valid shader.

mod common;

use rgl_nir::passes::{inline_functions, Pass, PassFailure, Runner};

/// Mesa's order (`gl_nir_link_glsl`, `prelink_lowering`) for the passes of this branch.
const LOWERING: &[&str] = &[
    "lower_io_to_temporaries",
    "inline_functions",
    "lower_global_vars_to_local",
    "split_var_copies",
    "lower_var_copies",
    "lower_indirect_derefs",
    "lower_vars_to_ssa",
    "remove_dead_variables",
    "opt_dce",
];

fn corpus() -> Vec<(String, String)> {
    common::corpus_inputs()
}

#[test]
fn lowering_sequence_keeps_every_corpus_shader_valid() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for (name, text) in corpus() {
        let Ok(mut shader) = rgl_nir::reader::parse_shader(&text) else {
            continue;
        };
        if rgl_nir::validate::validate(&shader).is_err() {
            continue;
        }
        ran += 1;
        let mut runner = Runner::new();
        runner.validate = true;
        if let Err(e) = runner.run_all(LOWERING, &mut shader) {
            failures.push(format!("{name}: {e}"));
            continue;
        }
        // A second round must be valid too (and the sequence must settle).
        if let Err(e) = runner.run_to_fixed_point(LOWERING, &mut shader, 8) {
            failures.push(format!("{name} (second round): {e}"));
            continue;
        }
        let printed = rgl_nir::print::print_shader(&shader);
        match rgl_nir::reader::parse_shader(&printed) {
            Ok(s) if rgl_nir::print::print_shader(&s) == printed => {}
            Ok(_) => failures.push(format!("{name}: output does not round-trip")),
            Err(e) => failures.push(format!("{name}: output does not parse: {e}")),
        }
    }
    assert!(ran > 10, "only {ran} corpus shaders ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn pipeline_snapshots() {
    let files = common::nir_files(&common::tests_dir().join("vars_pipeline"));
    assert!(!files.is_empty(), "no pipeline snapshots");
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read");
        let mut lines = text.lines();
        let header = lines.next().unwrap_or_default();
        let Some(passes) = header.strip_prefix("pipeline ") else {
            failures.push(format!(
                "{}: first line must be `pipeline <passes>`",
                path.display()
            ));
            continue;
        };
        let passes: Vec<&str> = passes.split_whitespace().collect();
        let input: String = lines
            .take_while(|l| !l.starts_with("; expect:"))
            .map(|l| format!("{l}\n"))
            .collect();
        let mut shader = match rgl_nir::reader::parse_shader(&input) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{}: input: {e}", path.display()));
                continue;
            }
        };
        let mut runner = Runner::new();
        runner.validate = true;
        if let Err(e) = runner.run_all(&passes, &mut shader) {
            failures.push(format!("{}: {e}", path.display()));
            continue;
        }
        let mut actual = String::from("; expect:\n");
        for l in rgl_nir::print::print_shader(&shader).lines() {
            if l.is_empty() {
                actual.push_str(";\n");
            } else {
                actual.push_str(&format!("; {l}\n"));
            }
        }
        let expected: String = text
            .lines()
            .skip_while(|l| !l.starts_with("; expect:"))
            .map(|l| format!("{l}\n"))
            .collect();
        if expected != actual {
            if common::bless() {
                std::fs::write(path, format!("{header}\n{input}{actual}")).expect("bless");
            } else {
                failures.push(format!(
                    "{}:\n{}",
                    path.display(),
                    common::diff(&expected, &actual)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `f0` does a little work; `fK` calls `f(K-1)` twice; `main` calls the last one.
fn explosion(depth: usize) -> String {
    let mut s = String::from(
        "shader: MESA_SHADER_VERTEX\ninputs: 0\noutputs: 1\nuniforms: 0\n\
         decl_var shader_out INTERP_MODE_NONE none float o (VARYING_SLOT_VAR0.x, 0, 0)\n\
         decl_function f0 ()\n\nimpl f0 {\n    block b0:\n\
         \x20   32 %0 = deref_var &o (shader_out float)\n\
         \x20   32 %1 = @load_deref (%0) (access=none)\n\
         \x20   32 %2 = fadd %1, %1\n\
         \x20   @store_deref (%0, %2) (wrmask=x, access=none)\n\
         \x20   block b1:\n}\n",
    );
    for k in 1..=depth {
        s.push_str(&format!(
            "\ndecl_function f{k} ()\n\nimpl f{k} {{\n    block b0:\n    call f{p}\n    call f{p}\n    block b1:\n}}\n",
            p = k - 1
        ));
    }
    s.push_str(&format!(
        "\ndecl_function main () (entrypoint)\n\nimpl main {{\n    block b0:\n    call f{depth}\n    block b1:\n}}\n"
    ));
    s
}

#[test]
fn call_tree_explosion_is_refused() {
    let text = explosion(40);
    let mut shader = rgl_nir::reader::parse_shader(&text).expect("explosion parses");
    rgl_nir::validate::validate(&shader).expect("explosion is valid");
    let start = std::time::Instant::now();
    let inline = inline_functions::InlineFunctions { limit: 20_000 };
    let err = inline
        .run(&mut shader)
        .expect_err("a 2^40 call tree must exceed the limit");
    assert!(
        matches!(err, PassFailure::InlineLimit { limit: 20_000, .. }),
        "unexpected failure: {err}"
    );
    assert!(
        err.to_string().contains("shader too large after inlining"),
        "unexpected message: {err}"
    );
    rgl_nir::validate::validate(&shader).expect("the shader stays valid");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "inlining took {:?}",
        start.elapsed()
    );
    // A small tree inlines completely under the same limit.
    let mut small = rgl_nir::reader::parse_shader(&explosion(4)).expect("parses");
    assert_eq!(inline.run(&mut small), Ok(true));
    rgl_nir::validate::validate(&small).expect("valid after inlining");
    assert_eq!(small.functions.len(), 1, "only main remains");
}
