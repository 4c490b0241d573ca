//! What the editor end-to-end tests (tests/editors_neovim.rs,
//! tests/editors_emacs.rs) set up alike: a project holding the billing
//! example with a planted error, and a PATH that finds the freshly built
//! `dyno` first.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Writes `project/.git` (the root marker) and `project/billing.dyno`:
/// examples/billing.dyno with the pinned query's `"USER#"` made `"USERS#"`,
/// which the server reports as E203. Returns the schema's path and the
/// typo's 0-based line.
pub fn billing_with_a_typo(project: &Path) -> (PathBuf, usize) {
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let example = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/billing.dyno")).unwrap();
    let good = r#"begins_with(sk, "USER#")"#;
    assert_eq!(
        example.matches(good).count(),
        1,
        "examples/billing.dyno should hold exactly one {good}"
    );
    let text = example.replace(good, r#"begins_with(sk, "USERS#")"#);
    let typo_line = text.lines().position(|l| l.contains(r#""USERS#""#)).unwrap();
    let schema = project.join("billing.dyno");
    std::fs::write(&schema, text).unwrap();
    (schema, typo_line)
}

/// PATH with the directory of the `dyno` binary under test first, so that
/// an editor configured with the command `dyno` starts it.
pub fn path_with_dyno_first(dyno: &Path) -> OsString {
    let mut path = vec![dyno.parent().unwrap().to_path_buf()];
    path.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    std::env::join_paths(path).unwrap()
}
