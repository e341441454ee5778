//! Hostile input: every case must end in an info log with an error (or compile),
//! never a panic, stack overflow or hang.

use rgl_glsl::{compile_bytes, CompileOptions, Stage};

/// Compiles `source` as a fragment shader and returns whether it compiled and
/// the first error line of the info log (its first line when it has no error).
fn run(source: &[u8]) -> (bool, String) {
    let shader = compile_bytes(source, &CompileOptions::new(Stage::Fragment));
    let log = shader.info_log.to_string();
    let first = log
        .lines()
        .find(|l| l.contains(": error: "))
        .or_else(|| log.lines().next())
        .unwrap_or("");
    (shader.success(), first.to_owned())
}

fn assert_rejected(name: &str, source: &[u8]) {
    let (ok, first) = run(source);
    assert!(!ok, "{name}: compiled, but it must be rejected");
    assert!(
        first.contains("error"),
        "{name}: expected an error line, got `{first}'"
    );
}

#[test]
fn malformed_utf8_is_a_located_error() {
    let (ok, first) = run(b"void main() {\n  float x = 1.0; \xff\xfe\n}\n");
    assert!(!ok);
    assert_eq!(first, "0:2(18): error: invalid UTF-8 in shader source");
}

#[test]
fn nul_bytes() {
    assert_rejected("nul", b"void main() { float x\0 = 1.0; }\n");
}

#[test]
fn one_megabyte_identifier() {
    let mut src = b"void main() { float ".to_vec();
    src.extend(std::iter::repeat_n(b'a', 1 << 20));
    src.extend_from_slice(b" = 1.0; }\n");
    let (_ok, first) = run(&src);
    // Either accepted or rejected with a limit error; it must simply not crash.
    assert!(
        first.is_empty() || first.contains("error") || first.contains("warning"),
        "{first}"
    );
}

#[test]
fn deeply_nested_parentheses() {
    let depth = 100_000;
    let mut src = b"void main() { float x = ".to_vec();
    src.extend(std::iter::repeat_n(b'(', depth));
    src.extend_from_slice(b"1.0");
    src.extend(std::iter::repeat_n(b')', depth));
    src.extend_from_slice(b"; }\n");
    assert_rejected("parentheses", &src);
}

#[test]
fn deeply_nested_blocks() {
    let depth = 100_000;
    let mut src = b"void main() ".to_vec();
    src.extend(std::iter::repeat_n(b'{', depth));
    src.extend(std::iter::repeat_n(b'}', depth));
    src.push(b'\n');
    assert_rejected("blocks", &src);
}

#[test]
fn deep_macro_recursion() {
    let depth = 10_000;
    let mut src = String::new();
    for i in 0..depth {
        src.push_str(&format!("#define M{} M{}\n", i, i + 1));
    }
    src.push_str(&format!(
        "#define M{depth} 1.0\nvoid main() {{ float x = M0; }}\n"
    ));
    let (_ok, first) = run(src.as_bytes());
    assert!(first.is_empty() || first.contains("error"), "{first}");
}

#[test]
fn exponential_macro_blowup() {
    let mut src = String::from("#define A0 x x\n");
    for i in 1..64 {
        src.push_str(&format!("#define A{i} A{p} A{p}\n", p = i - 1));
    }
    src.push_str("void main() { A63; }\n");
    assert_rejected("blow-up", src.as_bytes());
}

#[test]
fn huge_array_sizes() {
    assert_rejected(
        "array",
        b"uniform float a[2147483647]; void main() { gl_FragColor = vec4(a[0]); }\n",
    );
    assert_rejected("array", b"float a[4294967295]; void main() {}\n");
    assert_rejected("negative", b"float a[-1]; void main() {}\n");
}

#[test]
fn absurd_version_numbers() {
    assert_rejected("version", b"#version 4294967295\nvoid main() {}\n");
    assert_rejected(
        "version",
        b"#version 99999999999999999999999\nvoid main() {}\n",
    );
    assert_rejected("version", b"#version 1 es core\nvoid main() {}\n");
}

#[test]
fn garbage_bytes() {
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let text = String::from_utf8_lossy(&garbage).into_owned();
    assert_rejected("garbage", text.as_bytes());
}
