//! Fuzz target `link`: two fuzzed shaders compiled, then linked and taken through
//! the whole NIR pipeline (`rgl_link::pipeline::build_program`). The input is two
//! parts split at the first NUL byte; each part's first byte picks its stage as in
//! the `compile` target (value mod 3: 0 vertex, 1 fragment, 2 geometry). Shaders
//! that fail to compile are dropped, so the linker sees every combination the
//! front end accepts: one stage, two of the same stage, mismatched interfaces. It
//! must never panic, overflow the stack or hang, and a failed link must say why.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rgl_glsl::{compile, CompileOptions, CompiledShader, Stage};
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::Bindings;

fn shader(part: &[u8]) -> Option<CompiledShader> {
    let (&selector, source) = part.split_first()?;
    let stage = match selector % 3 {
        0 => Stage::Vertex,
        1 => Stage::Fragment,
        _ => Stage::Geometry,
    };
    let compiled = compile(&String::from_utf8_lossy(source), &CompileOptions::new(stage));
    compiled.success().then_some(compiled)
}

fuzz_target!(|data: &[u8]| {
    let (a, b) = match data.iter().position(|&c| c == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let shaders: Vec<CompiledShader> = [a, b].into_iter().filter_map(shader).collect();
    if shaders.is_empty() {
        return;
    }
    let refs: Vec<&CompiledShader> = shaders.iter().collect();
    if let Err(log) = build_program(&refs, &Bindings::default(), PipelineOptions::default()) {
        assert!(!log.to_string().is_empty(), "link failed with an empty log");
    }
});
