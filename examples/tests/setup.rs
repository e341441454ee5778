//! Every example's setup on a real rgl context: its shaders compile and link with
//! rgl's front end and linker, every uniform it looks up is active, and no GL
//! error is pending afterwards. (Drawing is covered by the golden tests.)

use rgl_examples::{app_by_name, glutil, APPS};
use rgl_state::Context;

#[test]
fn every_example_sets_up_without_gl_errors() {
    let mut failures = Vec::new();
    for name in APPS {
        let mut app = app_by_name(name).expect("listed app exists");
        let mut gl = Context::new_headless(64, 48);
        let r = app
            .init(&mut gl, 64, 48)
            .and_then(|()| glutil::check(&mut gl, "after init"));
        if let Err(e) = r {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn unknown_example_name_is_rejected() {
    assert!(app_by_name("no-such-app").is_none());
}

#[test]
fn drawing_before_init_is_an_error() {
    for name in APPS {
        let mut app = app_by_name(name).expect("listed app exists");
        let mut gl = Context::new_headless(8, 8);
        let e = app.frame(&mut gl, 0.0).unwrap_err();
        assert_eq!(e.to_string(), format!("{name}: frame drawn before init"));
    }
}
