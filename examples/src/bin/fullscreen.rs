//! The full-screen fragment-shader example (see `rgl_examples::fullscreen`).
fn main() -> std::process::ExitCode {
    rgl_examples::main_for("fullscreen")
}
