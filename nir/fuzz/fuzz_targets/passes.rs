//! Fuzz target `passes`: the NIR text reader, the validator and the pass
//! pipeline. The input is NIR text, optionally preceded by a file-test header
//! (`test <pass>` and `// args: ...`, as in `nir/tests/filetests`). The reader
//! must reject bad text with an error, never a panic. A shader that parses and
//! validates then goes through the named pass (or, without a header, every
//! registered pass that needs no arguments, in registry order) and then the
//! optimization loop, validated after every pass: a pass may refuse a shader
//! (`PassError::Failed`) but must leave it valid, and must never produce IR the
//! validator rejects. The final shader must print and re-parse to the same text
//! (the text IR round-trips).

#![no_main]

use libfuzzer_sys::fuzz_target;
use rgl_nir::passes::{self, opt_loop, PassError, Runner};
use rgl_nir::{print::print_shader, reader::parse_shader, validate::validate};

/// Splits off the file-test header: (pass name, its arguments, the NIR text).
fn split_header(text: &str) -> (Option<&str>, &str, &str) {
    let Some(rest) = text.strip_prefix("test ") else {
        return (None, "", text);
    };
    let (name, rest) = rest.split_once('\n').unwrap_or((rest, ""));
    match rest.strip_prefix("// args:") {
        Some(args) => {
            let (args, body) = args.split_once('\n').unwrap_or((args, ""));
            (Some(name.trim()), args.trim(), body)
        }
        None => (Some(name.trim()), "", rest),
    }
}

/// A pass result is fine when the shader is still valid: progress, no progress,
/// or a refusal. A pass that leaves invalid IR is the bug this target looks for.
fn check(result: Result<bool, PassError>, shader: &rgl_nir::ir::Shader, what: &str) {
    match result {
        Ok(_) | Err(PassError::Failed { .. }) | Err(PassError::Args(_)) => {}
        Err(e) => panic!("{what}: {e}"),
    }
    if let Err(errors) = validate(shader) {
        panic!("{what} left invalid IR:\n{errors}\n{}", print_shader(shader));
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (pass, args, body) = split_header(text);
    let Ok(mut shader) = parse_shader(body) else {
        return;
    };
    if validate(&shader).is_err() {
        return;
    }
    // Validation after every pass is explicit below, whatever the build profile.
    let mut runner = Runner::new();
    match pass {
        Some(name) => {
            let Ok(p) = passes::build_pass(name, args) else {
                return;
            };
            check(runner.run(p.as_ref(), &mut shader), &shader, name);
        }
        None => {
            for &name in passes::PASS_NAMES {
                if let Some(p) = passes::pass_by_name(name) {
                    check(runner.run(p.as_ref(), &mut shader), &shader, name);
                }
            }
        }
    }
    check(
        opt_loop::optimize(&mut runner, &mut shader).map(|rounds| rounds > 0),
        &shader,
        "the optimization loop",
    );
    let printed = print_shader(&shader);
    let again = parse_shader(&printed)
        .unwrap_or_else(|e| panic!("printed IR does not parse: {e}\n{printed}"));
    assert_eq!(print_shader(&again), printed, "the text IR does not round-trip");
});
