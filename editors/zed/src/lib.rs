//! Starts `dyno lsp` for .dyno files: the `dyno` binary is looked up on the
//! PATH of the worktree's shell environment (install it with
//! `cargo install --path .` in a clone of dyno; docs/editors.md).

use zed_extension_api::{self as zed, LanguageServerId, Result, Worktree};

struct Dyno;

impl zed::Extension for Dyno {
    fn new() -> Self {
        Dyno
    }

    fn language_server_command(&mut self, _id: &LanguageServerId, worktree: &Worktree) -> Result<zed::Command> {
        let command = worktree.which("dyno").ok_or_else(|| {
            "dyno is not on PATH: run `cargo install --path .` in a clone of dyno (docs/editors.md)".to_string()
        })?;
        Ok(zed::Command {
            command,
            args: vec!["lsp".into()],
            env: worktree.shell_env(),
        })
    }
}

zed::register_extension!(Dyno);
