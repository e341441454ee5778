//! The RGB triangle example (see `rgl_examples::triangle`).
fn main() -> std::process::ExitCode {
    rgl_examples::main_for("triangle")
}
