//! A scratch directory for one test, removed when the test ends (passing or
//! not), so that `cargo test` leaves nothing behind in the temp folder.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Scratch(PathBuf);

impl Scratch {
    /// An empty directory of its own, named after `label`.
    pub fn new(label: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let unique = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("dyno-test-{}-{unique}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        Scratch(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `contents` to `name` (parents created); its path.
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl Scratch {
    /// A copy of the files of the folder `from` (not its sub-folders) in
    /// `into`, a folder of the scratch directory; its path.
    pub fn copy_folder(&self, from: &Path, into: &str) -> PathBuf {
        for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())) {
            let path = entry.unwrap().path();
            if path.is_file() {
                let name = path.file_name().unwrap().to_str().unwrap();
                self.file(&format!("{into}/{name}"), std::fs::read(&path).unwrap());
            }
        }
        self.0.join(into)
    }

    /// Runs `git ARGS` in the scratch directory (a repository made with
    /// `git init` here), committing as a test user.
    pub fn git(&self, args: &[&str]) {
        let status = std::process::Command::new("git")
            .args(["-c", "user.name=dyno", "-c", "user.email=dyno@example.invalid"])
            .args(args)
            .current_dir(&self.0)
            .status()
            .expect("run git");
        assert!(status.success(), "git {args:?}");
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
