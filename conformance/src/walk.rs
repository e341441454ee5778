//! Deterministic discovery of test files under the paths given on the command
//! line. Each file gets a stable id: the last component of the root it was
//! found under, then its path below that root (`piglit/tests/spec/...`), with
//! `/` separators. Ids name tests in baselines and reports; they do not depend
//! on where the corpus lives.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One discovered file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundFile {
    /// The path to open (the root as given, joined with the relative path).
    pub path: PathBuf,
    /// The stable id (see the module docs).
    pub id: String,
    /// Name of the root it came from (the first component of `id`).
    pub root: String,
}

/// Name used for a root in ids: its last normal component, after resolving
/// `.`/`..` through the file system when possible.
pub fn root_name(root: &Path) -> String {
    let resolved = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    match resolved.file_name() {
        Some(name) => name.to_string_lossy().into_owned(),
        None => resolved.to_string_lossy().into_owned(),
    }
}

fn id_of(root: &str, relative: &Path) -> String {
    let mut id = root.to_string();
    for component in relative.components() {
        id.push('/');
        id.push_str(&component.as_os_str().to_string_lossy());
    }
    id
}

/// Walks `roots` in order; directories are walked recursively with entries in
/// byte order of their names, so the result is the same on every machine.
/// Only files for which `wanted` returns true are kept. Symbolic links to
/// directories are not followed (no cycles).
pub fn walk(roots: &[PathBuf], wanted: impl Fn(&Path) -> bool) -> io::Result<Vec<FoundFile>> {
    let mut out = Vec::new();
    for root in roots {
        let meta = fs::metadata(root)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", root.display())))?;
        let name = root_name(root);
        if meta.is_dir() {
            walk_dir(root, Path::new(""), &name, &wanted, &mut out)?;
        } else if wanted(root) {
            // A file given directly is its own root: its id is its file name.
            out.push(FoundFile {
                path: root.clone(),
                id: name.clone(),
                root: name,
            });
        }
    }
    Ok(out)
}

fn walk_dir(
    root: &Path,
    relative: &Path,
    root_name: &str,
    wanted: &impl Fn(&Path) -> bool,
    out: &mut Vec<FoundFile>,
) -> io::Result<()> {
    let dir = root.join(relative);
    let mut entries: Vec<fs::DirEntry> = fs::read_dir(&dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?
        .collect::<Result<_, _>>()?;
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let child = relative.join(entry.file_name());
        let file_type = entry.file_type()?;
        if file_type.is_dir() {
            walk_dir(root, &child, root_name, wanted, out)?;
        } else {
            let path = root.join(&child);
            // Follows a symlink to a file; skips dangling links and links to dirs.
            let is_file = file_type.is_file() || fs::metadata(&path).is_ok_and(|m| m.is_file());
            if is_file && wanted(&path) {
                out.push(FoundFile {
                    path,
                    id: id_of(root_name, &child),
                    root: root_name.to_string(),
                });
            }
        }
    }
    Ok(())
}
