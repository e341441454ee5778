//! The gears example in the spirit of glxgears (see `rgl_examples::gears`).
fn main() -> std::process::ExitCode {
    rgl_examples::main_for("gears")
}
