//! GL API misuse, table-driven. Each row of the tables in `misuse/` names one
//! public entry point of [`Context`], a call that breaks one rule of that
//! command's "Errors" text in the GL 3.3 compatibility-profile specification
//! (with the setup it needs), and the GL error the spec names. The driver runs
//! every row on a fresh fixture context ([`fixture::Fx`]: linked programs,
//! buffers, VAOs, textures of every target, a sampler, framebuffers and
//! renderbuffers, non-default fixed-function state), and checks that
//!
//! * the call does not panic;
//! * `get_error` returns exactly the expected error;
//! * every piece of state the public queries can observe ([`snapshot`]) is the
//!   same after the call as before it (GL 3.3 §2.5: a command that generates
//!   an error has no other effect).
//!
//! The driver also reads the crate's sources for the public methods of
//! `Context` and fails if one of them is neither in a table nor in the
//! [`table::NO_ERRORS`] list (entry points whose spec text lists no error this
//! API can produce). It prints the counts; at the time of writing: 269
//! public entry points, 211 of them with error rows and 58 listed as raising
//! no error; 641 error rows (180 `GL_INVALID_ENUM`, 190 `GL_INVALID_VALUE`,
//! 259 `GL_INVALID_OPERATION`, 10 `GL_INVALID_FRAMEBUFFER_OPERATION`, one each
//! of `GL_STACK_OVERFLOW` and `GL_STACK_UNDERFLOW`).
//!
//! Section numbers are those of the GL 3.3 core specification (the
//! compatibility specification has the same rules, some under other numbers);
//! `compat §` marks rules only the compatibility profile has. Where 3.3 and
//! later versions name different errors, the row follows 3.3 and says so.

#[path = "misuse/fixture.rs"]
mod fixture;
#[path = "misuse/snapshot.rs"]
mod snapshot;
#[path = "misuse/table.rs"]
mod table;
#[path = "misuse/table_compute.rs"]
mod table_compute;
#[path = "misuse/table_framebuffer.rs"]
mod table_framebuffer;
#[path = "misuse/table_images.rs"]
mod table_images;
#[path = "misuse/table_mapping.rs"]
mod table_mapping;
#[path = "misuse/table_named_strings.rs"]
mod table_named_strings;
#[path = "misuse/table_objects.rs"]
mod table_objects;
#[path = "misuse/table_program_interface.rs"]
mod table_program_interface;
#[path = "misuse/table_query.rs"]
mod table_query;
#[path = "misuse/table_state.rs"]
mod table_state;
#[path = "misuse/table_subroutines.rs"]
mod table_subroutines;
#[path = "misuse/table_sync.rs"]
mod table_sync;
#[path = "misuse/table_uniforms.rs"]
mod table_uniforms;

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};

use rgl_state::gl;

use table::Row;

fn error_name(code: u32) -> String {
    match code {
        gl::NO_ERROR => "GL_NO_ERROR".into(),
        gl::INVALID_ENUM => "GL_INVALID_ENUM".into(),
        gl::INVALID_VALUE => "GL_INVALID_VALUE".into(),
        gl::INVALID_OPERATION => "GL_INVALID_OPERATION".into(),
        gl::INVALID_FRAMEBUFFER_OPERATION => "GL_INVALID_FRAMEBUFFER_OPERATION".into(),
        gl::OUT_OF_MEMORY => "GL_OUT_OF_MEMORY".into(),
        gl::STACK_OVERFLOW => "GL_STACK_OVERFLOW".into(),
        gl::STACK_UNDERFLOW => "GL_STACK_UNDERFLOW".into(),
        other => format!("0x{other:04X}"),
    }
}

/// The public methods of `Context`, read from the crate's sources: every
/// `pub fn` taking `self` inside an `impl Context` block, plus the uniform
/// setters the `slice_setters!` / `matrix_setters!` macros declare.
fn public_entry_points() -> BTreeSet<String> {
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("state/src is readable") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let mut names = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("source is readable");
        let mut in_context = false;
        let mut in_setters = false;
        let mut pending: Option<String> = None;
        for line in text.lines() {
            if line.starts_with("impl Context {") {
                in_context = true;
            } else if line == "}" {
                in_context = false;
            }
            if line.starts_with("slice_setters! {") || line.starts_with("matrix_setters! {") {
                in_setters = true;
                continue;
            }
            if in_setters {
                match line.trim().split_once(':') {
                    Some((name, _)) if name.starts_with("uniform_") => {
                        names.insert(name.to_string());
                    }
                    _ if line == "}" => in_setters = false,
                    _ => {}
                }
                continue;
            }
            if !in_context {
                continue;
            }
            if let Some(rest) = line.strip_prefix("    pub fn ") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                pending = Some(name);
            }
            if let Some(name) = &pending {
                if line.contains("self") {
                    names.insert(name.clone());
                    pending = None;
                } else if line.contains('{') || line.contains("->") {
                    pending = None;
                }
            }
        }
    }
    names
}

/// Runs one row on a fresh fixture; the failure, if any.
fn run_row(row: &Row) -> Option<String> {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let (mut ctx, fx) = fixture::Fx::new();
        if let Some(setup) = row.setup {
            setup(&mut ctx, &fx);
            let e = ctx.get_error();
            if e != gl::NO_ERROR {
                return Some(format!("setup raised {}", error_name(e)));
            }
        }
        let before = snapshot::snapshot(&mut ctx, &fx);
        (row.call)(&mut ctx, &fx);
        let got = ctx.get_error();
        let after = snapshot::snapshot(&mut ctx, &fx);
        let mut why = Vec::new();
        if got != row.err {
            why.push(format!(
                "expected {}, got {}",
                error_name(row.err),
                error_name(got)
            ));
        }
        let changed = snapshot::diff(&before, &after);
        if !changed.is_empty() {
            why.push(format!("state changed: {}", changed.join("; ")));
        }
        (!why.is_empty()).then(|| why.join(", "))
    }));
    match outcome {
        Ok(r) => r,
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Some(format!("panicked: {msg}"))
        }
    }
}

#[test]
fn every_entry_point_answers_every_misuse_with_the_spec_error_and_no_state_change() {
    let rows: Vec<Row> = [
        table_objects::rows(),
        table_uniforms::rows(),
        table_state::rows(),
        table_framebuffer::rows(),
        table_mapping::rows(),
        table_sync::rows(),
        table_query::rows(),
        table_compute::rows(),
        table_images::rows(),
        table_program_interface::rows(),
        table_subroutines::rows(),
        table_named_strings::rows(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut failures = Vec::new();
    let mut per_entry: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        *per_entry.entry(row.ep).or_default() += 1;
        if let Some(why) = run_row(row) {
            failures.push(format!(
                "row {i}: {} [{}] ({}): {why}",
                row.ep,
                error_name(row.err),
                row.spec
            ));
        }
    }

    let public = public_entry_points();
    let no_errors: BTreeSet<&str> = table::NO_ERRORS.iter().map(|(n, _)| *n).collect();
    let with_rows: BTreeSet<&str> = per_entry.keys().copied().collect();
    for name in &public {
        if !with_rows.contains(name.as_str()) && !no_errors.contains(name.as_str()) {
            failures.push(format!(
                "entry point {name} has no misuse row and is not listed in NO_ERRORS"
            ));
        }
    }
    for name in with_rows.iter().chain(&no_errors) {
        if !public.contains(*name) {
            failures.push(format!("table names {name}, which is not a public method"));
        }
    }
    for name in with_rows.intersection(&no_errors) {
        failures.push(format!("{name} has rows and is listed in NO_ERRORS"));
    }
    println!(
        "misuse table: {} public entry points; {} with error rows, {} listed as error-free; {} error rows",
        public.len(),
        with_rows.len(),
        no_errors.len(),
        rows.len()
    );
    let by_error = rows.iter().fold(BTreeMap::new(), |mut m, r| {
        *m.entry(error_name(r.err)).or_insert(0usize) += 1;
        m
    });
    println!("rows by expected error: {by_error:?}");
    assert!(
        failures.is_empty(),
        "{} of {} rows or checks failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn the_fixture_is_error_free_and_its_snapshot_is_stable() {
    let (mut ctx, fx) = fixture::Fx::new();
    assert_eq!(ctx.get_error(), gl::NO_ERROR);
    let a = snapshot::snapshot(&mut ctx, &fx);
    let b = snapshot::snapshot(&mut ctx, &fx);
    assert!(
        snapshot::diff(&a, &b).is_empty(),
        "{:?}",
        snapshot::diff(&a, &b)
    );
    // The snapshot sees the state a misuse row could disturb: a valid call to
    // each kind of setter changes it.
    let probes: [(&str, table::Step); 7] = [
        ("indexed binding", |c, f| {
            c.bind_buffer_range(gl::UNIFORM_BUFFER, 2, Some(f.ubuf), 0, 16)
        }),
        ("depth func", |c, _| c.depth_func(gl::GREATER)),
        ("buffer data", |c, _| {
            c.buffer_sub_data_u8_slice(gl::ARRAY_BUFFER, 0, &[9])
        }),
        ("texture parameter", |c, _| {
            c.tex_parameter_i32(gl::TEXTURE_2D, gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE as i32)
        }),
        ("uniform", |c, f| c.uniform_1_f32(Some(&f.loc_f), 7.0)),
        ("attribute", |c, _| c.vertex_attrib_divisor(0, 3)),
        ("pixels", |c, _| {
            c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT)
        }),
    ];
    for (what, probe) in probes {
        let (mut ctx, fx) = fixture::Fx::new();
        if what == "pixels" {
            ctx.clear_color(0.0, 1.0, 0.0, 1.0);
        }
        let before = snapshot::snapshot(&mut ctx, &fx);
        probe(&mut ctx, &fx);
        assert_eq!(ctx.get_error(), gl::NO_ERROR, "{what}");
        let after = snapshot::snapshot(&mut ctx, &fx);
        assert!(
            !snapshot::diff(&before, &after).is_empty(),
            "the snapshot misses a {what} change"
        );
    }
}
