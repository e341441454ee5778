//! Data-driven test of the full runner's [`Executor`] over a small test
//! context: every `tests/shader_test/exec/*.shader_test` fixture runs on
//! [`ClearOnlyContext`], and the outcome (status, per-line messages) plus the
//! log of context calls is compared with `tests/shader_test/exec/expected.txt`
//! (`BLESS=1` rewrites it).
//!
//! The context is a test double, not a GL implementation: it builds programs
//! with the real front end and linker, keeps a colour buffer that only `clear`
//! writes, records every call with its arguments (so the runner's own
//! computations — rectangles, projections, texture images — are checked), and
//! reports draws as not rendering.
//! That is enough to check the runner's own logic: requirement skips,
//! `link error`/`link success` bookkeeping, probe regions, relative
//! coordinates and tolerances, that a failing line does not stop the script,
//! that `probe warn` mismatches alone give WARN, and that a command the runner
//! cannot run skips the file only when nothing failed before it.

use std::path::{Path, PathBuf};

use rgl_conformance::result::Status;
use rgl_conformance::shader_test::command::{
    TexParam, TextureTarget, UniformTarget, UniformType, UniformValues,
};
use rgl_conformance::shader_test::exec::{Executor, GlContext, RectDraw, StateChange};
use rgl_conformance::shader_test::gl_enum::GlEnum;
use rgl_conformance::shader_test::link_only::{self, BuildOutcome, ProgramShader};
use rgl_conformance::shader_test::support::Capabilities;
use rgl_conformance::shader_test::textures::TextureImage;
use rgl_conformance::shader_test::{self, vertex_data::VertexData};

struct ClearOnlyContext {
    width: i32,
    height: i32,
    pixels: Vec<[f32; 4]>,
    log: Vec<String>,
    path: PathBuf,
}

impl GlContext for ClearOnlyContext {
    fn capabilities(&self) -> Capabilities {
        Capabilities::rgl_link_only()
    }
    fn create_framebuffer(&mut self, width: u32, height: u32, depth: bool) -> Result<(), String> {
        self.log
            .push(format!("framebuffer {width}x{height} depth={depth}"));
        self.width = width as i32;
        self.height = height as i32;
        self.pixels = vec![[0.0; 4]; (width * height) as usize];
        Ok(())
    }
    fn build_program(
        &mut self,
        shaders: &[ProgramShader],
        bindings: &rgl_link::Bindings,
    ) -> Result<Result<(), String>, String> {
        self.log.push(format!(
            "build program: {} shader(s), bindings {:?}",
            shaders.len(),
            bindings.attribs
        ));
        match link_only::build(shaders, &self.path, link_only::LinkDepth::GlslIr) {
            BuildOutcome::CompileFailed(why) => Err(why),
            BuildOutcome::LinkFailed(log) => Ok(Err(log)),
            BuildOutcome::Linked(_) => Ok(Ok(())),
        }
    }
    fn load_vertex_data(&mut self, data: &VertexData) -> Result<(), String> {
        self.log
            .push(format!("vertex data: {} rows", data.rows.len()));
        Ok(())
    }
    fn clear(
        &mut self,
        color: Option<[f32; 4]>,
        depth: Option<f64>,
        stencil: Option<i32>,
    ) -> Result<(), String> {
        self.log.push(format!(
            "clear color={color:?} depth={depth:?} stencil={stencil:?}"
        ));
        if let Some(c) = color {
            self.pixels.iter_mut().for_each(|p| *p = c);
        }
        Ok(())
    }
    fn draw_rect(&mut self, rect: &RectDraw) -> Result<(), String> {
        self.log.push(format!("draw_rect {rect:?}"));
        Err("the test context does not render".into())
    }
    fn draw_arrays(
        &mut self,
        mode: GlEnum,
        first: i32,
        count: i32,
        instances: Option<u32>,
    ) -> Result<(), String> {
        self.log
            .push(format!("draw_arrays {mode} {first} {count} {instances:?}"));
        Err("the test context does not render".into())
    }
    fn uniform(
        &mut self,
        target: &UniformTarget,
        ty: UniformType,
        values: &UniformValues,
    ) -> Result<(), String> {
        self.log
            .push(format!("uniform {target:?} {ty:?} {values:?}"));
        Ok(())
    }
    fn has_uniform(&mut self, name: &str) -> Result<bool, String> {
        self.log.push(format!("has_uniform {name}"));
        Ok(true)
    }
    fn ubo_array_index(&mut self, index: u32) -> Result<(), String> {
        self.log.push(format!("ubo array index {index}"));
        Ok(())
    }
    fn texture(&mut self, unit: u32, image: &TextureImage) -> Result<(), String> {
        let levels: Vec<String> = image
            .levels
            .iter()
            .map(|l| format!("{}:{}x{}x{}", l.level, l.width, l.height, l.depth))
            .collect();
        self.log.push(format!(
            "texture unit {unit}: {} {} levels [{}] min {:?} mag {:?} wrap {:?} compare {:?}",
            image.target.name(),
            image.internal_format,
            levels.join(" "),
            image.min_filter,
            image.mag_filter,
            image.wrap,
            image.compare_func.map(|e| e.name)
        ));
        Ok(())
    }
    fn tex_parameter(&mut self, target: TextureTarget, param: &TexParam) -> Result<(), String> {
        self.log
            .push(format!("tex_parameter {} {param:?}", target.name()));
        Ok(())
    }
    fn state(&mut self, change: &StateChange) -> Result<(), String> {
        self.log.push(format!("state {change:?}"));
        Ok(())
    }
    fn read_color(&mut self, x: i32, y: i32, w: i32, h: i32) -> Result<Vec<[f32; 4]>, String> {
        self.log.push(format!("read_color ({x}, {y}, {w}, {h})"));
        let mut out = Vec::new();
        for row in y..y + h {
            for col in x..x + w {
                let index = usize::try_from(row * self.width + col).map_err(|e| e.to_string())?;
                out.push(*self.pixels.get(index).ok_or("read outside the buffer")?);
            }
        }
        Ok(out)
    }
    fn read_depth(&mut self, _x: i32, _y: i32) -> Result<f32, String> {
        Err("the test context has no depth buffer".into())
    }
    fn active_uniform(&mut self, name: &str, pname: u32) -> Result<i64, String> {
        Err(format!(
            "the test context answers no uniform queries ({name}, 0x{pname:x})"
        ))
    }
    fn program_query(&mut self, pname: u32) -> Result<i64, String> {
        Err(format!(
            "the test context answers no program queries (0x{pname:x})"
        ))
    }
    fn program_resource(&mut self, interface: u32, name: &str, prop: u32) -> Result<i64, String> {
        Err(format!(
            "the test context answers no interface queries (0x{interface:x} {name} 0x{prop:x})"
        ))
    }
    fn dispatch_compute(&mut self, groups: [u32; 3]) -> Result<(), String> {
        Err(format!("the test context runs no compute ({groups:?})"))
    }
    fn memory_barrier(&mut self, bits: u32) -> Result<(), String> {
        Err(format!("the test context has no barriers (0x{bits:x})"))
    }
    fn storage_buffer(&mut self, _: u32, index: u32, _: u32) -> Result<(), String> {
        Err(format!("the test context has no storage buffers ({index})"))
    }
    fn storage_sub_data(&mut self, _: u32, index: u32, _: u32, _: &[u8]) -> Result<(), String> {
        Err(format!("the test context has no storage buffers ({index})"))
    }
    fn read_storage(&mut self, _: u32, index: u32, _: u32, _: u32) -> Result<Vec<u8>, String> {
        Err(format!("the test context has no storage buffers ({index})"))
    }
}

#[test]
fn executor_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shader_test/exec");
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| shader_test::is_candidate(p))
        .collect();
    fixtures.sort();
    assert!(!fixtures.is_empty(), "no fixtures in {}", dir.display());
    let mut actual = String::new();
    for path in &fixtures {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (text, _) = shader_test::read(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let parsed = shader_test::parse(&text);
        assert!(parsed.errors.is_empty(), "{name}: {:?}", parsed.errors);
        let mut context = ClearOnlyContext {
            width: 0,
            height: 0,
            pixels: Vec::new(),
            log: Vec::new(),
            path: path.clone(),
        };
        let outcome = Executor::new(&mut context).run(&parsed.test, path);
        let status = match outcome.status {
            Status::Pass => "PASS",
            Status::Warn => "WARN",
            Status::Fail | Status::Error => "FAIL",
            Status::Skip => "SKIP",
        };
        actual.push_str(&format!("=== {name}: {status}\n"));
        for m in &outcome.messages {
            let m = m.replace(&path.display().to_string(), &name);
            actual.push_str(&format!("  message: {m}\n"));
        }
        for call in &context.log {
            actual.push_str(&format!("  call: {call}\n"));
        }
    }
    let expected_path = dir.join("expected.txt");
    if std::env::var_os("BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&expected_path, &actual)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", expected_path.display()));
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}); run with BLESS=1 to create it",
            expected_path.display()
        )
    });
    assert_eq!(
        expected,
        actual,
        "executor results differ from {}; review and rerun with BLESS=1",
        expected_path.display()
    );
}
