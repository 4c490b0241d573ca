//! Document symbols (tables > indexes, entities > attributes, patterns)
//! and the flat list workspace symbols search.

use super::File;
use crate::syntax::Span;
use crate::syntax::ast::{Item, SourceFile};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Table,
    Index,
    Entity,
    Attribute,
    Pattern,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentSymbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole declaration.
    pub span: Span,
    /// The name.
    pub selection: Span,
    pub children: Vec<DocumentSymbol>,
}

pub fn document_symbols(file: &File) -> Vec<DocumentSymbol> {
    outline(&file.text, &file.analysis.parse.file)
}

/// The symbols of a syntax tree and its text: no analysis needed, so files
/// that are not open can be searched from their parse alone.
pub fn outline(text: &str, tree: &SourceFile) -> Vec<DocumentSymbol> {
    tree.items.iter().map(|item| item_symbol(text, item)).collect()
}

/// At most this many symbols (children counted) in the outline of an open
/// document: about 250 bytes of JSON each, so the answer stays within a
/// few megabytes however large the file is.
pub const MAX_OUTLINE_SYMBOLS: usize = 10_000;

/// A document's outline, cut to at most `max` symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outline {
    pub symbols: Vec<DocumentSymbol>,
    /// What was left out, when the outline is cut.
    pub omitted: Option<Omitted>,
}

/// The items an outline leaves out: always the last ones of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Omitted {
    /// Top-level items left out.
    pub items: usize,
    /// Symbols left out, their children counted.
    pub symbols: usize,
    /// From the first item left out to the end of the last.
    pub span: Span,
    /// The name of the first item left out.
    pub selection: Span,
}

/// The outline of an open document with at most `max` symbols: the whole
/// of [`outline`] when it has no more, else its first top-level items,
/// each with all its children, as long as they leave room for one more
/// symbol (the caller's note of what was left out). Symbols of the items
/// left out are never built.
pub fn bounded_outline(file: &File, max: usize) -> Outline {
    let text = &*file.text;
    let items = &file.analysis.parse.file.items;
    let counts: Vec<usize> = items.iter().map(symbol_count).collect();
    let total: usize = counts.iter().sum();
    if total <= max {
        return Outline {
            symbols: outline(text, &file.analysis.parse.file),
            omitted: None,
        };
    }
    let mut kept = 0;
    let mut used = 0;
    while kept < items.len() && used + counts[kept] < max {
        used += counts[kept];
        kept += 1;
    }
    let rest = &items[kept..];
    let omitted = Omitted {
        items: rest.len(),
        symbols: total - used,
        span: Span::new(rest[0].span().start(), rest[rest.len() - 1].span().end()),
        selection: item_name(&rest[0]),
    };
    Outline {
        symbols: items[..kept].iter().map(|item| item_symbol(text, item)).collect(),
        omitted: Some(omitted),
    }
}

/// How many symbols an item makes: itself and its children.
fn symbol_count(item: &Item) -> usize {
    1 + match item {
        Item::Table(t) => t.indexes.len(),
        Item::Entity(e) => e.attributes.len(),
        Item::Pattern(_) => 0,
    }
}

fn item_name(item: &Item) -> Span {
    match item {
        Item::Table(t) => t.name.span,
        Item::Entity(e) => e.name.span,
        Item::Pattern(p) => p.name.span,
    }
}

fn item_symbol(text: &str, item: &Item) -> DocumentSymbol {
    let symbol = |name: &str, detail: Option<String>, kind, span, selection, children| DocumentSymbol {
        name: name.to_string(),
        detail,
        kind,
        span,
        selection,
        children,
    };
    match item {
        Item::Table(t) => {
            let children = t
                .indexes
                .iter()
                .map(|i| {
                    let detail = Some(if i.local { "local index" } else { "global index" }.to_string());
                    symbol(&i.name.text, detail, SymbolKind::Index, i.span, i.name.span, Vec::new())
                })
                .collect();
            symbol(
                &t.name.text,
                Some("table".into()),
                SymbolKind::Table,
                t.span,
                t.name.span,
                children,
            )
        }
        Item::Entity(e) => {
            let children = e
                .attributes
                .iter()
                .map(|a| {
                    // The type as written (`int(pad 6)`, `string?`), on one line.
                    let written = text.get(a.ty.span.range()).unwrap_or(&a.ty.name.text);
                    let ty = written.split_whitespace().collect::<Vec<_>>().join(" ");
                    let optional = if a.optional { "?" } else { "" };
                    symbol(
                        &a.name.text,
                        Some(format!("{ty}{optional}")),
                        SymbolKind::Attribute,
                        a.span,
                        a.name.span,
                        Vec::new(),
                    )
                })
                .collect();
            symbol(
                &e.name.text,
                Some("entity".into()),
                SymbolKind::Entity,
                e.span,
                e.name.span,
                children,
            )
        }
        Item::Pattern(p) => {
            let returns = p
                .returns
                .iter()
                .map(|r| format!("{}{}", r.entity.text, if r.many { "[]" } else { "" }));
            let detail = Some(format!("-> {}", returns.collect::<Vec<_>>().join(", ")));
            symbol(
                &p.name.text,
                detail,
                SymbolKind::Pattern,
                p.span,
                p.name.span,
                Vec::new(),
            )
        }
    }
}

/// Every symbol, flattened, whose name contains `query` (case-insensitive).
pub fn matching(file: &File, query: &str) -> Vec<DocumentSymbol> {
    let query = query.to_lowercase();
    let mut out = flatten(document_symbols(file));
    out.retain(|symbol| matches(&symbol.name, &query));
    out
}

/// Every symbol of a tree, children after their parent, in source order.
pub fn flatten(symbols: Vec<DocumentSymbol>) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    let mut stack = symbols;
    while let Some(mut symbol) = stack.pop() {
        stack.append(&mut symbol.children);
        out.push(symbol);
    }
    out.sort_by_key(|s| s.span.start());
    out
}

/// Whether a symbol named `name` answers a workspace search for `query`
/// (already lowercase): a case-insensitive substring.
pub fn matches(name: &str, query: &str) -> bool {
    name.to_lowercase().contains(query)
}
