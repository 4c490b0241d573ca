//! Files on disk under the editor's overlay: read when not open, and read
//! again only when their modification time or length changed.

use std::path::Path;
use std::time::SystemTime;

use super::{Content, FileId, Origin, Superseded, Workspace};

/// When a file on disk last changed, as far as reading it again goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    modified: SystemTime,
    len: u64,
}

impl Stamp {
    /// A stamp no file has: the next sync reads the file.
    pub(super) const UNREAD: Stamp = Stamp {
        modified: SystemTime::UNIX_EPOCH,
        len: u64::MAX,
    };

    fn of(path: &Path) -> Option<Stamp> {
        let metadata = std::fs::metadata(path).ok()?;
        Some(Stamp {
            modified: metadata.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            len: metadata.len(),
        })
    }
}

impl Workspace {
    /// The file at `path` as it is on disk, unless an editor has it open
    /// (its text wins). Read again only when the disk changed; `None` when
    /// it cannot be read.
    pub fn sync_from_disk(&mut self, path: &Path, name: &str) -> Option<(FileId, Superseded)> {
        if let Some(file) = self.file(name) {
            let input = &self.files[file.index()].input;
            match input.origin {
                Origin::Editor => return Some((file, Superseded::default())),
                Origin::Disk(stamp) if Some(stamp) == Stamp::of(path) => return Some((file, Superseded::default())),
                Origin::Disk(_) => {}
            }
        }
        let stamp = Stamp::of(path)?;
        let text = std::fs::read_to_string(path)
            .ok()
            .filter(|text| text.len() <= crate::syntax::MAX_TEXT)?;
        Some(self.set_input(name, Content::Text(text.into()), Origin::Disk(stamp)))
    }

    /// The editor closed the file: it is the disk's again, read at the next
    /// sync. Its text is freed now.
    pub fn close(&mut self, file: FileId) -> Superseded {
        let path = self.files[file.index()].path.clone();
        self.set_input(&path, Content::Text("".into()), Origin::Disk(Stamp::UNREAD))
            .1
    }
}
