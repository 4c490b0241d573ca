//! The page model as one self-contained HTML file: inline CSS and script,
//! every row written here once as plain HTML, every user text escaped. The
//! script only toggles classes on the rows listed in the embedded data.

use std::fmt::Write as _;

use serde_json::{Value as Json, json};

use super::model::{Grid, KeyCell, Legend, Page, PatternView, Segment};
use crate::check::model::{EntityId, Model};

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The whole page; `title` names the schema, `initial` the pattern picked
/// when it opens.
pub fn html(model: &Model, page: &Page, title: &str, initial: Option<&str>) -> String {
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"color-scheme\" content=\"light dark\">\n");
    let _ = writeln!(out, "<title>dyno view: {}</title>", esc(title));
    out.push_str("<style>\n");
    out.push_str(STYLE);
    // One hue per entity, spread by the golden angle so neighbours differ.
    for (id, _) in model.entity_ids() {
        let _ = writeln!(out, ".e{}{{--h:{}}}", id.index(), (id.index() * 137 + 210) % 360);
    }
    out.push_str("</style>\n</head>\n<body>\n<div class=\"side\">\n");
    let _ = writeln!(out, "<h1>{}</h1>", esc(title));
    let _ = writeln!(out, "<p class=\"what\">{}</p>", esc(&page.items));
    picker(&mut out, model, page, initial);
    out.push_str(
        "<div id=\"nopick\" class=\"panel\"><p>Choose a pattern to highlight the items its read returns.</p>\n",
    );
    key_help(&mut out);
    out.push_str("</div>\n");
    for (n, pattern) in page.patterns.iter().enumerate() {
        panel(&mut out, n, pattern);
    }
    legend(&mut out, &page.legend);
    if !page.notes.is_empty() {
        out.push_str("<h2>Notes</h2>\n<ul class=\"notes\">\n");
        for note in &page.notes {
            let _ = writeln!(out, "<li>{}</li>", esc(note));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</div>\n<main>\n");
    if page.grids.is_empty() {
        out.push_str("<p>The schema has no table with a key: there are no items to show.</p>\n");
    }
    for grid in &page.grids {
        grid_html(&mut out, model, grid);
    }
    out.push_str("</main>\n<script type=\"application/json\" id=\"dyno-data\">");
    out.push_str(&script_json(&data(page)));
    out.push_str("</script>\n<script>\n");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

fn picker(out: &mut String, model: &Model, page: &Page, initial: Option<&str>) {
    out.push_str("<label for=\"pick\">Pattern</label>\n<select id=\"pick\">\n<option value=\"\">(none)</option>\n");
    for (n, (pattern, (_, declared))) in page.patterns.iter().zip(model.pattern_ids()).enumerate() {
        let selected = if initial == Some(declared.name.text.as_str()) {
            " selected"
        } else {
            ""
        };
        let _ = writeln!(out, "<option value=\"{n}\"{selected}>{}</option>", esc(&pattern.name));
    }
    out.push_str("</select>\n");
}

fn key_help(out: &mut String) {
    out.push_str(
        "<ul class=\"keys\">\n<li><span class=\"swatch ret\"></span> returned by the read</li>\n\
         <li><span class=\"swatch read\"></span> read by the key condition, dropped by the filter</li>\n\
         <li><span class=\"swatch miss\"></span> meant by the pattern but not returned</li>\n\
         <li><span class=\"swatch leak\"></span> returned but not meant by the pattern</li>\n</ul>\n",
    );
}

fn panel(out: &mut String, n: usize, pattern: &PatternView) {
    let _ = writeln!(out, "<div id=\"p{n}\" class=\"panel\" hidden>");
    let _ = writeln!(out, "<h2><code>{}</code></h2>", esc(&pattern.name));
    if let Some(docs) = &pattern.docs {
        let _ = writeln!(out, "<p>{}</p>", esc(docs));
    }
    if let Some(note) = &pattern.note {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", esc(note));
    }
    if !pattern.how.is_empty() {
        let _ = writeln!(out, "<p>{}</p>", esc(&pattern.how));
    }
    if pattern.grid.is_some() {
        let _ = writeln!(
            out,
            "<p class=\"counts\">reads <b>{}</b> item{} · returns <b>{}</b> · the pattern means <b>{}</b></p>",
            pattern.reads.len(),
            if pattern.reads.len() == 1 { "" } else { "s" },
            pattern.returns.len(),
            pattern.means.len()
        );
    }
    if let Some(cost) = &pattern.cost {
        let _ = writeln!(out, "<p>Cost: {}</p>", esc(cost));
    }
    if !pattern.params.is_empty() {
        out.push_str("<h3>Parameters (from an item)</h3>\n<table class=\"params\">\n");
        for (name, value) in &pattern.params {
            let _ = writeln!(
                out,
                "<tr><th>{}</th><td><code>{}</code></td></tr>",
                esc(name),
                esc(value)
            );
        }
        out.push_str("</table>\n");
    }
    if !pattern.sent.is_empty() {
        let _ = writeln!(
            out,
            "<h3>Key condition{}</h3>",
            if pattern.sent.len() > 1 {
                "s, one per request"
            } else {
                ""
            }
        );
        for (condition, _) in &pattern.sent {
            let _ = writeln!(out, "<pre>{}</pre>", esc(condition));
        }
    }
    if let Some(request) = &pattern.request {
        out.push_str("<h3>Request (<code>dyno explain</code>)</h3>\n");
        let _ = writeln!(out, "<pre>{}</pre>", esc(&pretty(request)));
    } else if let Some((_, request)) = pattern.sent.first() {
        out.push_str("<h3>Request, as written</h3>\n");
        let _ = writeln!(out, "<pre>{}</pre>", esc(&pretty(request)));
    }
    out.push_str("</div>\n");
}

fn legend(out: &mut String, legend: &[Legend]) {
    out.push_str("<h2>Prefix registry</h2>\n<table class=\"legend\">\n");
    out.push_str("<thead><tr><th scope=\"col\">Entity</th><th scope=\"col\">Key</th><th scope=\"col\">Template</th></tr></thead>\n");
    for entry in legend {
        let span = entry.keys.len().max(1);
        let _ = write!(
            out,
            "<tbody><tr><th scope=\"rowgroup\" rowspan=\"{span}\">{}{}</th>",
            chip(entry.entity, &entry.name),
            entry
                .table
                .as_deref()
                .map_or(String::new(), |t| format!("<br><small>{}</small>", esc(t)))
        );
        if entry.keys.is_empty() {
            out.push_str("<td colspan=\"2\">writes no items</td></tr>\n");
        }
        for (k, (attr, template)) in entry.keys.iter().enumerate() {
            if k > 0 {
                out.push_str("<tr>");
            }
            let _ = writeln!(
                out,
                "<td>{}</td><td><code>{}</code></td></tr>",
                esc(attr),
                esc(template)
            );
        }
        out.push_str("</tbody>\n");
    }
    out.push_str("</table>\n");
}

fn chip(entity: EntityId, name: &str) -> String {
    format!("<span class=\"ent e{}\">{}</span>", entity.index(), esc(name))
}

fn grid_html(out: &mut String, model: &Model, grid: &Grid) {
    let rows: usize = grid.partitions.iter().map(|p| p.rows.len()).sum();
    let _ = writeln!(
        out,
        "<section class=\"grid\" id=\"{}\" aria-label=\"{}\">",
        grid.id,
        esc(&grid.title)
    );
    let _ = writeln!(
        out,
        "<h2>{} <small>{} item{} in {} partition{}</small></h2>",
        esc(&grid.title),
        rows,
        if rows == 1 { "" } else { "s" },
        grid.partitions.len(),
        if grid.partitions.len() == 1 { "" } else { "s" }
    );
    // One table per partition with the same fixed column widths, so the
    // columns line up and the browser lays out only the partitions on
    // screen (`content-visibility`): thousands of rows load and restyle fast.
    let mut columns = String::from("<colgroup>");
    for _ in grid.partition_keys.iter().chain(&grid.sort_keys) {
        columns.push_str("<col class=\"key\">");
    }
    columns.push_str("<col class=\"entity\"><col></colgroup>");
    let _ = write!(out, "<table class=\"head\">{columns}<thead><tr>");
    for key in grid.partition_keys.iter().chain(&grid.sort_keys) {
        let _ = write!(out, "<th scope=\"col\">{}</th>", esc(key));
    }
    out.push_str("<th scope=\"col\">Entity</th><th scope=\"col\">Attributes</th></tr></thead></table>\n");
    for partition in &grid.partitions {
        let label: Vec<&str> = partition.key.iter().map(|k| k.text.as_str()).collect();
        let _ = write!(
            out,
            "<table class=\"part\" aria-label=\"{}\" style=\"contain-intrinsic-size:auto {}px\">{columns}<tbody>",
            esc(&label.join(", ")),
            partition.rows.len() * 44
        );
        for (r, row) in partition.rows.iter().enumerate() {
            let class = row.entity.map_or("unknown".to_string(), |e| format!("e{}", e.index()));
            let _ = write!(
                out,
                "<tr id=\"{}\" class=\"{class}\" data-key=\"{}\">",
                row.id,
                esc(&key_json(&row.primary))
            );
            if r == 0 {
                for key in &partition.key {
                    let _ = write!(
                        out,
                        "<th scope=\"rowgroup\" rowspan=\"{}\" class=\"pk\">{}</th>",
                        partition.rows.len(),
                        key_html(key)
                    );
                }
            }
            for key in &row.sort {
                let _ = write!(out, "<td class=\"sk\">{}</td>", key_html(key));
            }
            let entity = row
                .entity
                .map_or("<span class=\"ent\">(unknown)</span>".to_string(), |e| {
                    chip(e, &model.entity(e).name.text)
                });
            let _ = write!(
                out,
                "<td title=\"{}\">{entity}</td><td class=\"attrs\">",
                esc(&row.origin)
            );
            for (name, value) in &row.attributes {
                let _ = write!(out, "<span><i>{}</i> {}</span> ", esc(name), esc(&clip(value)));
            }
            out.push_str("</td></tr>\n");
        }
        out.push_str("</tbody></table>\n");
    }
    out.push_str("</section>\n");
}

/// The item's primary key as a JSON array of texts: what tests and scripts
/// identify an item by, the same in every grid.
fn key_json(primary: &[String]) -> String {
    Json::from(primary.to_vec()).to_string()
}

/// A key value: its literals and hole values marked, then what the holes
/// say (`tenantId=acme`).
fn key_html(key: &KeyCell) -> String {
    let Some(segments) = &key.decoded else {
        return format!("<code>{}</code>", esc(&clip(&key.text)));
    };
    let mut out = String::from("<code>");
    let mut holes = Vec::new();
    for segment in segments {
        match segment {
            Segment::Literal(text) => {
                let _ = write!(out, "<span class=\"lit\">{}</span>", esc(text));
            }
            Segment::Hole { attr, value } => {
                let _ = write!(
                    out,
                    "<span class=\"hole\" title=\"{}\">{}</span>",
                    esc(attr),
                    esc(&clip(value))
                );
                holes.push(format!("{}={}", esc(attr), esc(&clip(value))));
            }
        }
    }
    out.push_str("</code>");
    if !holes.is_empty() {
        let _ = write!(out, "<span class=\"dec\">{}</span>", holes.join(" "));
    }
    out
}

/// Long values are cut to keep the grid readable.
fn clip(text: &str) -> String {
    const MAX: usize = 80;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(MAX).collect();
    cut.push('…');
    cut
}

/// What the script needs per pattern: the rows to mark, and (for scripts
/// and tests reading the page) the requests as sent.
fn data(page: &Page) -> Json {
    json!({
        "patterns": page.patterns.iter().map(|p| json!({
            "name": p.name,
            "grid": p.grid,
            "reads": p.reads,
            "returns": p.returns,
            "means": p.means,
            "requests": p.sent.iter().map(|(_, request)| request).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// JSON safe inside `<script>`: `<`, `>` and `&` only occur in strings,
/// where their `\u` escapes mean the same.
fn script_json(value: &Json) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

fn pretty(value: &Json) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Text for HTML content and quoted attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
