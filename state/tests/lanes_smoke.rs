//! Shaders through the whole stack: GLSL compiled and linked by the [`Context`], the
//! draw-time variant finalized by the state tracker and compiled by the software
//! driver's default lane compiler, drawn and read back with `read_pixels`. Each
//! `tests/lanes_smoke/*.glsl` holds a vertex and a fragment shader (after `// vertex`
//! and `// fragment` lines) and optional `// uniform NAME x y z w` lines; the 8×8 RGBA8
//! result of a full-screen quad (top row first, `rrggbbaa`), the GL error and the
//! draw error are compared with the `.expect` file next to it (`BLESS=1` rewrites).

use std::path::Path;

use rgl_state::{gl, Context};

const W: i32 = 8;
const H: i32 = 8;

fn run(text: &str) -> String {
    let (vs_src, fs_src) = {
        let v = text.find("// vertex").expect("// vertex");
        let f = text.find("// fragment").expect("// fragment");
        (&text[v..f], &text[f..])
    };
    let mut cx = Context::new_headless(W as u32, H as u32);
    let vs = cx.create_shader(gl::VERTEX_SHADER).unwrap();
    cx.shader_source(vs, vs_src);
    cx.compile_shader(vs);
    let fs = cx.create_shader(gl::FRAGMENT_SHADER).unwrap();
    cx.shader_source(fs, fs_src);
    cx.compile_shader(fs);
    let p = cx.create_program().unwrap();
    cx.attach_shader(p, vs);
    cx.attach_shader(p, fs);
    cx.bind_attrib_location(p, 0, "pos");
    cx.link_program(p);
    cx.use_program(Some(p));
    for line in text.lines() {
        if let Some(rest) = line.trim().strip_prefix("// uniform ") {
            let parts: Vec<&str> = rest.split_whitespace().collect();
            let v: Vec<f32> = parts[1..].iter().map(|s| s.parse().unwrap()).collect();
            let loc = cx.get_uniform_location(p, parts[0]);
            cx.uniform_4_f32(loc.as_ref(), v[0], v[1], v[2], v[3]);
        }
    }
    let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let bytes: Vec<u8> = quad.iter().flat_map(|f| f.to_le_bytes()).collect();
    let buf = cx.create_buffer().unwrap();
    cx.bind_buffer(gl::ARRAY_BUFFER, Some(buf));
    cx.buffer_data_u8_slice(gl::ARRAY_BUFFER, &bytes, gl::STATIC_DRAW);
    cx.vertex_attrib_pointer_f32(0, 2, gl::FLOAT, false, 8, 0);
    cx.enable_vertex_attrib_array(0);
    let before = cx.get_error();
    cx.clear_color(0.0, 0.0, 0.0, 0.0);
    cx.clear(gl::COLOR_BUFFER_BIT);
    cx.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    let err = cx.get_error();
    let mut out = format!(
        "setup error {before:#x}, draw error {err:#x}, last draw error: {:?}\n",
        cx.last_draw_error()
    );
    let mut px = vec![0u8; (W * H * 4) as usize];
    cx.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE, &mut px);
    for y in (0..H as usize).rev() {
        let row: Vec<String> = (0..W as usize)
            .map(|x| {
                let p = &px[(y * W as usize + x) * 4..][..4];
                format!("{:02x}{:02x}{:02x}{:02x}", p[0], p[1], p[2], p[3])
            })
            .collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

#[test]
fn lanes_smoke_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lanes_smoke");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "glsl"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for f in files {
        let actual = run(&std::fs::read_to_string(&f).unwrap());
        let exp = f.with_extension("expect");
        if std::env::var_os("BLESS").is_some() {
            std::fs::write(&exp, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&exp).unwrap_or_default();
        assert_eq!(expected, actual, "{} (BLESS=1 rewrites)", f.display());
    }
}
