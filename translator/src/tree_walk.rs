//! One walk of an input tree for the checks that read files beyond the one they translate (the
//! includers' mask macros, Thrust/CUB includes for the C++ standard, files an include may name).

use std::ops::ControlFlow;
use std::path::Path;

/// How deep below the root the walk goes.
const MAX_DEPTH: usize = 32;

/// Calls `visit(path, rel, len)` for each regular file under `root`, in a stable order (each
/// directory's entries sorted), with `rel` its `/`-separated path below `root` and `len` its
/// size, until `visit` breaks. Hidden entries (`.git`) and symbolic links are passed over, as
/// are directories more than 32 deep; at most `max_entries` directory entries are looked at.
pub(crate) fn walk_files(
    root: &Path,
    max_entries: usize,
    mut visit: impl FnMut(&Path, &str, u64) -> ControlFlow<()>,
) {
    let mut dirs = vec![(root.to_path_buf(), String::new(), 0usize)];
    let mut looked = 0usize;
    while let Some((dir, rel, depth)) = dirs.pop() {
        if looked >= max_entries {
            return;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        looked += entries.len();
        for path in entries {
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let child = if rel.is_empty() {
                name.to_string()
            } else {
                format!("{rel}/{name}")
            };
            if meta.is_dir() {
                if depth < MAX_DEPTH {
                    dirs.push((path, child, depth + 1));
                }
            } else if meta.is_file() && visit(&path, &child, meta.len()).is_break() {
                return;
            }
        }
    }
}
