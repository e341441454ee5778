//! Pass file tests: `tests/filetests/<pass>/*.nir` hold a `test <pass>` header, the
//! input shader, and the expected output after running only that pass as `; ` comment
//! lines after a `; expect:` marker (`; expect: no progress` when the pass must not
//! change anything, `; expect: error: <why>` when the pass must refuse the shader).
//! `BLESS=1` rewrites the expectations in place. Parameterised
//! passes take their arguments from an optional second line, `// args: key=value ...`
//! (see `rgl_nir::passes::build_pass`).

mod common;

#[test]
fn pass_filetests() {
    common::run_expect_files("filetests", "file tests", run_one);
}

/// Returns (the file up to the expectations, the expectation text the pass produced).
fn run_one(text: &str) -> Result<(String, String), String> {
    let mut lines = text.lines();
    let header = lines.next().ok_or("empty file")?;
    let pass_name = header
        .strip_prefix("test ")
        .ok_or("first line must be `test <pass>`")?
        .trim();
    // Optional second line `// args: key=value ...` for parameterised passes.
    let mut lines = lines.peekable();
    let args = match lines.peek().and_then(|l| l.strip_prefix("// args:")) {
        Some(a) => {
            let a = a.trim().to_string();
            lines.next();
            Some(a)
        }
        None => None,
    };
    let pass = rgl_nir::passes::build_pass(pass_name, args.as_deref().unwrap_or(""))
        .map_err(|e| e.to_string())?;
    let input: String = lines
        .take_while(|l| !l.starts_with("; expect:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut shader = rgl_nir::reader::parse_shader(&input).map_err(|e| format!("input: {e}"))?;
    rgl_nir::validate::validate(&shader).map_err(|e| format!("input invalid: {e}"))?;
    let progress = match rgl_nir::passes::run_pass(pass.as_ref(), &mut shader) {
        Ok(progress) => progress,
        // A refusal is an outcome to check like any other; the shader stays valid.
        Err(rgl_nir::passes::PassError::Failed { failure, .. }) => {
            rgl_nir::validate::validate(&shader)
                .map_err(|e| format!("invalid after a refusal: {e}"))?;
            let args_line = args.map(|a| format!("// args: {a}\n")).unwrap_or_default();
            return Ok((
                format!("{header}\n{args_line}{input}"),
                format!("; expect: error: {failure}\n"),
            ));
        }
        Err(e) => return Err(e.to_string()),
    };
    let mut out = String::new();
    if progress {
        out.push_str("; expect:\n");
        for l in rgl_nir::print::print_shader(&shader).lines() {
            if l.is_empty() {
                out.push_str(";\n");
            } else {
                out.push_str(&format!("; {l}\n"));
            }
        }
    } else {
        out.push_str("; expect: no progress\n");
    }
    let args_line = args.map(|a| format!("// args: {a}\n")).unwrap_or_default();
    Ok((format!("{header}\n{args_line}{input}"), out))
}
