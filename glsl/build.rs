//! Build script: generates the GLSL parser from `src/parse/grammar.lalrpop`
//! with lalrpop (into `OUT_DIR/parse/grammar.rs`).

fn main() {
    lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .emit_rerun_directives(true)
        .process_file("src/parse/grammar.lalrpop")
        .expect("lalrpop: cannot generate the GLSL parser from src/parse/grammar.lalrpop");
}
