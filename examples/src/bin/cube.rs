//! The textured spinning cube example (see `rgl_examples::cube`).
fn main() -> std::process::ExitCode {
    rgl_examples::main_for("cube")
}
