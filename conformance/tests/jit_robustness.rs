//! Robustness of JIT-compiled shaders: hostile indices into uniform arrays, uniform
//! blocks shorter than declared, local arrays, varying arrays and texel fetches
//! read 0 and drop writes; endless loops (uniform and divergent) stop with
//! [`Error::BudgetExceeded`]. Each case is a small GLSL program from
//! `tests/jit_robustness/*.shader_test`, built through the NIR pipeline; the
//! fragment stage is compiled by the JIT (default options and 1 quad per iteration;
//! it must not fall back) and by the lane
//! interpreter and run on one batch whose lanes carry the hostile values of
//! [`HOSTILE`] in every input word.
//!
//! The JIT must agree with the interpreter on every lane that is not discarded (a
//! discarded lane's outputs mean nothing), and its outputs (or its
//! error) are printed and compared with `tests/jit_robustness/expected.txt`
//! (`BLESS=1` rewrites it; review the diff). The expected text shows the zeros.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rgl_backend::driver::{SamplerState, ShaderStage, Swizzle, TexTarget};
use rgl_backend::exec::{
    Budget, Invocation, Reg, Resources, ShaderExec, SysVals, ALL_LANES, LANES,
};
use rgl_backend::format::Format;
use rgl_backend::jit::{JitCompiler, JitOptions};
use rgl_backend::lanes::LaneShader;
use rgl_backend::texture::{MipLevel, TexView, TextureBinding};
use rgl_backend::Error;
use rgl_conformance::shader_test::program as test_program;
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::Bindings;
use rgl_nir::finalize::{finalize_variant, VariantLowering};
use rgl_nir::passes::Runner;

/// The value of every input word of each lane (as i32 bits).
const HOSTILE: [i32; LANES] = [
    0,
    1,
    3,
    4,
    7,
    8,
    100,
    1000,
    -1,
    -2,
    -100,
    i32::MIN,
    i32::MAX,
    0x4000_0000,
    -0x4000_0000,
    65536,
];

/// Instruction budget of one run: an endless loop must use it up quickly.
const BUDGET: u64 = 1 << 24;

fn case_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jit_robustness")
}

/// The fragment stage of a case, finalized.
fn fragment_nir(text: &str) -> rgl_nir::ir::Shader {
    let src = test_program::from_text(text, Path::new(".")).expect("a runnable program");
    let compiled = test_program::compile_all(&src);
    for c in &compiled {
        assert!(c.success(), "case does not compile: {}", c.info_log);
    }
    let refs: Vec<_> = compiled.iter().collect();
    let bindings = Bindings {
        attribs: vec![("piglit_vertex".into(), 0)],
        frag_data: Vec::new(),
    };
    let linked = build_program(&refs, &bindings, PipelineOptions::default()).expect("links");
    let mut nir = linked
        .stages
        .iter()
        .filter_map(|s| s.nir.clone())
        .find(|n| n.stage == rgl_nir::ir::Stage::Fragment)
        .expect("a fragment stage");
    finalize_variant(
        &mut nir,
        &VariantLowering::default(),
        &rgl_nir::options::CompilerOptions::default(),
        &mut Runner::new(),
    )
    .expect("finalize");
    nir
}

struct Outcome {
    outputs: Vec<Reg>,
    kill: u32,
    result: Result<(), Error>,
}

/// One batch: inputs from [`HOSTILE`], `uniform_slots` uniform slots holding
/// `slot + component / 10`, one 16-byte uniform block, and a 2×2 RGBA8 texture.
fn run(shader: &dyn ShaderExec, uniform_slots: usize) -> Outcome {
    let info = shader.info();
    let mut inputs = vec![Reg::default(); info.inputs.len() * 4];
    for r in inputs.iter_mut() {
        for (l, w) in r.0.iter_mut().enumerate() {
            *w = HOSTILE[l] as u32;
        }
    }
    let uniforms: Vec<[u32; 4]> = (0..uniform_slots)
        .map(|s| [0, 1, 2, 3].map(|c| (s as f32 + c as f32 / 10.0 + 1.0).to_bits()))
        .collect();
    let ubo: Vec<u8> = [5.0f32, 6.0, 7.0, 8.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let ubos: Vec<&[u8]> = vec![&ubo];
    let texels: Vec<u8> = (0..16).map(|i| 16 * i as u8 + 15).collect();
    let textures = vec![Some(TextureBinding::new(
        TexView {
            target: TexTarget::D2,
            format: Format::Rgba8Unorm,
            levels: vec![MipLevel {
                data: &texels,
                width: 2,
                height: 2,
                depth: 1,
            }],
            swizzle: Swizzle::IDENTITY,
        },
        SamplerState::default(),
    ))];
    let mut outputs = vec![Reg::default(); info.outputs.len() * 4];
    let mut budget = Budget::new(BUDGET);
    let mut scratch = Vec::new();
    let sys = SysVals::default();
    let mut inv = Invocation {
        inputs: &inputs,
        outputs: &mut outputs,
        sys: &sys,
        mask: ALL_LANES,
        kill: 0,
        res: Resources {
            uniforms: &uniforms,
            ubos: &ubos,
            textures: &textures,
            storage: &[],
            images: &[],
        },
        budget: &mut budget,
        scratch: &mut scratch,
        gs: None,
    };
    let result = shader.run(&mut inv);
    let kill = inv.kill;
    Outcome {
        outputs,
        kill,
        result,
    }
}

fn render(name: &str, o: &Outcome, out: &mut String) {
    let _ = writeln!(out, "== {name}");
    match &o.result {
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
        }
        Ok(()) => {
            for l in 0..LANES {
                if o.kill >> l & 1 != 0 {
                    let _ = writeln!(out, "{:>11}: discarded", HOSTILE[l]);
                    continue;
                }
                let words: Vec<String> = o
                    .outputs
                    .iter()
                    .map(|r| {
                        let f = f32::from_bits(r.0[l]);
                        if r.0[l] == 0 {
                            "0".to_string()
                        } else {
                            format!("{f}")
                        }
                    })
                    .collect();
                let _ = writeln!(out, "{:>11}: {}", HOSTILE[l], words.join(" "));
            }
        }
    }
}

#[test]
fn hostile_shaders_read_zero_and_stop() {
    if !rgl_backend::jit::host_supported() {
        eprintln!("jit_robustness: the JIT does not run on this host");
        return;
    }
    let jits = [
        JitOptions::default(),
        JitOptions {
            quads: 1,
            ..JitOptions::default()
        },
    ]
    .map(|o| JitCompiler::with_options(o).expect("JIT on a supported host"));
    let mut cases: Vec<PathBuf> = std::fs::read_dir(case_dir())
        .expect("case folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "shader_test"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no cases in {}", case_dir().display());
    let mut text = String::new();
    for path in &cases {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let nir = fragment_nir(&std::fs::read_to_string(path).unwrap());
        let lane = LaneShader::new(&nir).expect("the interpreter compiles the case");
        assert_eq!(lane.info().stage, ShaderStage::Fragment);
        let natives: Vec<_> = jits
            .iter()
            .map(|j| {
                j.compile_native(&nir, lane.info())
                    .unwrap_or_else(|e| panic!("{name}: the JIT must compile the case: {e}"))
            })
            .collect();
        // Too few uniform slots on purpose: constant slots past them read 0 too.
        let slots = nir.info.num_uniforms as usize;
        for (suffix, slots) in [("", slots), (" (no uniform storage)", 0)] {
            let a = run(&lane, slots);
            for (k, native) in natives.iter().enumerate() {
                let t = Instant::now();
                let b = run(native, slots);
                let took = t.elapsed();
                assert!(
                    took.as_secs() < 20,
                    "{name}: an endless loop took {took:?} to stop"
                );
                match (&a.result, &b.result) {
                    (Ok(()), Ok(())) => {
                        assert_eq!(a.kill, b.kill, "{name}{suffix}: discards differ");
                        for l in (0..LANES).filter(|l| a.kill >> l & 1 == 0) {
                            for (w, (x, y)) in a.outputs.iter().zip(&b.outputs).enumerate() {
                                assert_eq!(
                                x.0[l], y.0[l],
                                "{name}{suffix}: lane {l} word {w}: interpreter {:#x}, jit {:#x}",
                                x.0[l], y.0[l]
                            );
                            }
                        }
                    }
                    (Err(x), Err(y)) => assert_eq!(x, y, "{name}{suffix}: errors differ"),
                    (x, y) => panic!("{name}{suffix}: interpreter {x:?}, jit {y:?}"),
                }
                if k == 0 {
                    render(&format!("{name}{suffix}"), &b, &mut text);
                }
            }
        }
    }
    let expected_path = case_dir().join("expected.txt");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&expected_path, &text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if expected != text {
        for (i, (e, g)) in expected.lines().zip(text.lines()).enumerate() {
            if e != g {
                eprintln!("line {}: expected `{e}`, got `{g}`", i + 1);
            }
        }
        panic!(
            "{} differs from the JIT's outputs (BLESS=1 rewrites it)",
            expected_path.display()
        );
    }
}
