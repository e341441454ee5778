//! Command-line behaviour of `rglc`: exit status 0 on success, 1 on a compile
//! error, 2 on a usage error; info logs on stderr, dumps on stdout.

use std::process::Command;

fn rglc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rglc"))
        .args(args)
        .output()
        .expect("run rglc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write_temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("rglc-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write shader");
    path.to_string_lossy().into_owned()
}

#[test]
fn exit_status_follows_the_compile_result() {
    let good = write_temp(
        "good.frag",
        "#version 130\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    let bad = write_temp(
        "bad.frag",
        "#version 130\nvoid main() { undeclared_thing = 1.0; }\n",
    );
    let (code, stdout, stderr) = rglc(&["--dump-hir", &good]);
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(stdout.starts_with('('), "HIR dump on stdout, got: {stdout}");
    assert!(stderr.contains("Info log for"), "stderr: {stderr}");
    let (code, _, stderr) = rglc(&[&bad]);
    assert_eq!(code, 1, "stderr: {stderr}");
    assert!(stderr.contains("0:2("), "a located error, got: {stderr}");
}

#[test]
fn usage_errors_exit_with_2() {
    assert_eq!(rglc(&[]).0, 2);
    assert_eq!(rglc(&["--no-such-flag", "x.frag"]).0, 2);
    let unknown_stage = write_temp("shader.txt", "void main() {}\n");
    assert_eq!(rglc(&[&unknown_stage]).0, 2);
    assert_eq!(rglc(&["/nonexistent/dir/a.vert"]).0, 2);
}
