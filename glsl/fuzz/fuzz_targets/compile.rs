//! Fuzz target `compile`: arbitrary bytes into `rgl_glsl::compile`. The first
//! byte picks the stage (its value mod 3: 0 vertex, 1 fragment, 2 geometry;
//! the seeds use the ASCII digits `0`, `1`, `2`), the rest is the source,
//! converted lossily from UTF-8. The compiler must never panic, overflow the
//! stack or hang, and its info log must render.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rgl_glsl::{compile, CompileOptions, Stage};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, source)) = data.split_first() else {
        return;
    };
    let stage = match selector % 3 {
        0 => Stage::Vertex,
        1 => Stage::Fragment,
        _ => Stage::Geometry,
    };
    let source = String::from_utf8_lossy(source);
    let shader = compile(&source, &CompileOptions::new(stage));
    let log = shader.info_log.to_string();
    // A failed compile must say why.
    assert!(
        shader.success() || !log.is_empty(),
        "compile failed with an empty info log"
    );
});
