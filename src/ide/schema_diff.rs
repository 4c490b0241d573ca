//! The open schema against an earlier version of it (the editor's is the
//! file at git `HEAD`): the breaking changes of `crate::diff` that sit on
//! the open file's lines, as warnings, and the migration of the one under
//! the cursor, for the hover. Reading that earlier version is the server's
//! business; this is pure.

use super::File;
use crate::check::Analysis;
use crate::diff::{self, At, Change, Class, Version};
use crate::syntax::Span;

/// An earlier version of the open file's schema, checked: its files'
/// texts by `FileId` (a schema folder has several).
pub struct Earlier<'a> {
    pub texts: &'a [&'a str],
    pub analysis: &'a Analysis,
    /// How the editor names it: `HEAD`.
    pub label: &'a str,
}

/// One breaking change on a line of the open file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub span: Span,
    pub class: Class,
    /// The change and what it was, in one line each.
    pub message: String,
    /// The migration as Markdown, for the hover.
    pub markdown: String,
}

/// The breaking changes from `earlier` to the schema of `file` (whose
/// files' texts are `texts`, by `FileId`) located in `file`; none when the
/// earlier version has syntax errors (its model is partial).
pub fn warnings(earlier: &Earlier<'_>, texts: &[&str], file: &File) -> Vec<Warning> {
    if earlier.analysis.schema.diagnostics.iter().any(|d| d.code.is_syntax()) {
        return Vec::new();
    }
    let old = Version {
        schema: &earlier.analysis.schema,
        texts: earlier.texts,
    };
    let new = Version {
        schema: &file.analysis.schema,
        texts,
    };
    diff::diff(old, new)
        .into_iter()
        .filter(|c| c.class.is_breaking())
        .filter_map(|change| match change.at {
            At::New(at) if at.file == file.analysis.file => Some(warning(earlier, at.span, &change)),
            At::New(_) | At::Old(_) => None,
        })
        .collect()
}

/// The hover text of the warnings under `offset`.
pub fn hover(warnings: &[Warning], offset: usize) -> Option<(Span, String)> {
    let under: Vec<&Warning> = warnings
        .iter()
        .filter(|w| w.span.start() <= offset && offset <= w.span.end())
        .collect();
    let first = under.first()?;
    let markdown = under
        .iter()
        .map(|w| w.markdown.as_str())
        .collect::<Vec<_>>()
        .join("\n\n---\n\n");
    Some((first.span, markdown))
}

fn warning(earlier: &Earlier<'_>, span: Span, change: &Change) -> Warning {
    let was = change
        .was
        .and_then(|w| earlier.texts.get(w.file.index())?.get(w.span.start()..w.span.end()))
        .map(|text| text.lines().next().unwrap_or("").trim_end().to_string());
    let mut message = format!(
        "{} (against {}): {}",
        change.class.name(),
        earlier.label,
        change.message
    );
    if let Some(was) = &was {
        message.push_str(&format!("\nwas: {was}"));
    }
    let mut markdown = format!(
        "**dyno diff** against `{}`: `{}`\n\n{}",
        earlier.label,
        change.class.name(),
        change.message
    );
    if let Some(was) = &was {
        markdown.push_str(&format!("\n\nWas: `{was}`"));
    }
    if let Some(affected) = &change.affected {
        let keys: Vec<String> = affected.keys.iter().map(|(a, t)| format!("{a} `{t}`")).collect();
        markdown.push_str(&format!(
            "\n\nAffects the `{}` items written with {}.",
            affected.name,
            keys.join(", ")
        ));
    }
    if !change.steps.is_empty() {
        markdown.push_str("\n\nMigration:\n");
        for (n, step) in change.steps.iter().enumerate() {
            markdown.push_str(&format!("\n{}. {step}", n + 1));
        }
    }
    Warning {
        span,
        class: change.class,
        message,
        markdown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "table App {\n  key pk, sk\n}\n\nentity User {\n  userId: id\n\n  pk = \"USER#{userId}\"\n  sk = \"PROFILE\"\n}\n\n/// One user.\npattern getUser(userId) -> User\n";

    fn earlier(analysis: &Analysis) -> Earlier<'_> {
        Earlier {
            texts: &[OLD],
            analysis,
            label: "HEAD",
        }
    }

    #[test]
    fn a_changed_template_warns_on_its_line_with_the_migration_in_the_hover() {
        let old = crate::check::analyze(OLD);
        let new_text = OLD.replace("\"USER#{userId}\"", "\"U#{userId}\"");
        let file = File::new(new_text.clone());
        let found = warnings(&earlier(&old), &[&file.text], &file);
        let on_template = found.iter().find(|w| w.class == Class::Migration).expect("a migration");
        assert_eq!(
            &new_text[on_template.span.start()..on_template.span.end()],
            "pk = \"U#{userId}\""
        );
        assert!(
            on_template.message.contains("was: pk = \"USER#{userId}\""),
            "{}",
            on_template.message
        );
        let inside = on_template.span.start() + 3;
        let (span, markdown) = hover(&found, inside).unwrap();
        assert_eq!(span, on_template.span);
        assert!(
            markdown.contains("Migration:\n\n1. read every item with the old keys"),
            "{markdown}"
        );
        assert_eq!(hover(&found, 0), None);
    }

    #[test]
    fn an_unchanged_or_unparsable_earlier_version_gives_no_warnings() {
        let old = crate::check::analyze(OLD);
        assert!(warnings(&earlier(&old), &[OLD], &File::new(OLD.to_string())).is_empty());
        let broken = crate::check::analyze("table App {\n");
        let earlier = Earlier {
            texts: &["table App {\n"],
            analysis: &broken,
            label: "HEAD",
        };
        let changed = OLD.replace("USER#", "U#");
        assert!(warnings(&earlier, &[&changed], &File::new(changed.clone())).is_empty());
    }
}
