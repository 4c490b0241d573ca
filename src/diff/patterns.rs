//! Patterns: the reads deployed code makes. A reader built from the old
//! schema keeps sending the old request, so a pattern whose request changes
//! (another index, key condition, order, consistency) or that now returns
//! many items breaks it; and a new key that the old request matches leaks
//! new items into it. Requests are the checker's (`describe::served`).

use serde_json::Value as Json;

use super::{At, Change, Class, Pairing, Version};
use crate::check::describe::{self, Served};
use crate::check::model::{Model, Pattern, PatternId};
use crate::check::resolve::{Resolution, SortOp};

pub fn compare(old: Version<'_>, new: Version<'_>, pairing: &Pairing, out: &mut Vec<Change>) {
    let (old_model, new_model) = (&old.schema.model, &new.schema.model);
    let mut unmatched_old: Vec<PatternId> = old_model
        .pattern_ids()
        .filter(|(_, p)| new_model.pattern_named(&p.name.text).is_none())
        .map(|(id, _)| id)
        .collect();
    for (new_id, pattern) in new_model.pattern_ids() {
        let subject = format!("pattern `{}`", pattern.name.text);
        let now = describe::served(new.schema, new_id);
        let Some(old_id) = old_model.pattern_named(&pattern.name.text) else {
            // The same request under another name: a rename.
            let renamed = unmatched_old.iter().position(|&o| {
                let before = describe::served(old.schema, o);
                before.is_some() && same_request(before.as_ref(), now.as_ref())
            });
            match renamed {
                Some(at) => {
                    let was = old_model.pattern(unmatched_old.remove(at));
                    out.push(
                        Change::new(
                            Class::Rename,
                            &subject,
                            At::New(pattern.at(pattern.name.span)),
                            format!(
                                "pattern `{}` is renamed `{}` (recognised as a rename: the same request)",
                                was.name.text, pattern.name.text
                            ),
                        )
                        .was(was.at(was.name.span)),
                    );
                }
                None => out.push(Change::new(
                    Class::Safe,
                    &subject,
                    At::New(pattern.at(pattern.name.span)),
                    format!("new pattern `{}`", pattern.name.text),
                )),
            }
            continue;
        };
        let was = old_model.pattern(old_id);
        let before = describe::served(old.schema, old_id);
        let before = before.map(|served| with_renamed_parameters(served, pairing));
        let mut why = request_differences(before.as_ref(), now.as_ref());
        if !returns_many(was) && returns_many(pattern) {
            why.push("it returns many items where it returned one".into());
        }
        let returned_before: Vec<String> = before
            .as_ref()
            .map(|s| renamed_returns(old_model, new_model, pairing, &s.returns))
            .unwrap_or_default();
        if let (Some(_), Some(n)) = (&before, &now)
            && returned_before != n.returns
        {
            why.push(format!(
                "it returns {} where it returned {}",
                n.returns.join(", "),
                returned_before.join(", ")
            ));
        }
        if !why.is_empty() {
            out.push(
                Change::new(
                    Class::BreaksReaders,
                    &subject,
                    At::New(pattern.at(pattern.name.span)),
                    format!(
                        "`{}` changes for its deployed readers: {}",
                        pattern.name.text,
                        why.join("; ")
                    ),
                )
                .was(was.at(was.span))
                .steps(vec![
                    "deploy the readers built from the new schema before (or with) the change".to_string(),
                    "keep the old request working until they are (for example, keep the old index)".to_string(),
                ]),
            );
        }
    }
    for id in unmatched_old {
        let was = old_model.pattern(id);
        out.push(
            Change::new(
                Class::BreaksReaders,
                format!("pattern `{}`", was.name.text),
                At::Old(was.at(was.name.span)),
                format!(
                    "pattern `{}` is removed: code that still makes this read loses its guarantee",
                    was.name.text
                ),
            )
            .steps(vec![
                "remove the read from the application before its key or index goes".to_string(),
            ]),
        );
    }
    super::leaks::compare(old, new, pairing, out);
}

/// The old request with its parameters under the attributes' new names:
/// `{email}` is `{emailAddress}` once the attribute is renamed.
fn with_renamed_parameters(mut served: Served, pairing: &Pairing) -> Served {
    let mut text = served.request.to_string();
    for (old, new) in &pairing.attribute_renames {
        text = text.replace(&format!("{{{old}}}"), &format!("{{{new}}}"));
    }
    served.request = serde_json::from_str(&text).unwrap_or(served.request);
    served
}

fn returns_many(pattern: &Pattern) -> bool {
    pattern.returns.len() > 1 || pattern.returns.iter().any(|r| r.many)
}

fn renamed_returns(old: &Model, new: &Model, pairing: &Pairing, names: &[String]) -> Vec<String> {
    names
        .iter()
        .map(|name| {
            old.entity_named(name)
                .and_then(|o| pairing.new_of(o))
                .map_or(name.clone(), |n| new.entity(n).name.text.to_string())
        })
        .collect()
}

fn same_request(a: Option<&Served>, b: Option<&Served>) -> bool {
    a.map(|s| &s.request) == b.map(|s| &s.request)
}

/// What differs between two requests, in words.
fn request_differences(before: Option<&Served>, now: Option<&Served>) -> Vec<String> {
    let (before, now) = match (before, now) {
        (None, _) => return Vec::new(),
        (Some(_), None) => return vec!["no single request serves it any more".into()],
        (Some(b), Some(n)) => (b, n),
    };
    let mut why = Vec::new();
    if before.read != now.read {
        why.push(format!("a {} where it was a {}", now.read.name(), before.read.name()));
    }
    let field = |served: &Served, name: &str| -> Json { served.request.get(name).cloned().unwrap_or(Json::Null) };
    let shown = |v: &Json| -> String {
        match v {
            Json::Null => "none".to_string(),
            Json::String(s) => format!("`{s}`"),
            other => format!("`{other}`"),
        }
    };
    let fields = [
        ("TableName", "table"),
        ("IndexName", "index"),
        ("KeyConditionExpression", "key condition"),
        ("ExpressionAttributeNames", "key name"),
        ("ExpressionAttributeValues", "key value"),
        ("FilterExpression", "filter"),
        ("ScanIndexForward", "order (ScanIndexForward)"),
        ("ConsistentRead", "consistency"),
        ("Limit", "limit"),
    ];
    for (name, words) in fields {
        let (x, y) = (field(before, name), field(now, name));
        if x == y {
            continue;
        }
        match (x.as_object(), y.as_object()) {
            // Names and values: only the placeholders that differ.
            (Some(a), Some(b)) => {
                let mut keys: Vec<&String> = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))).collect();
                keys.dedup();
                for key in keys {
                    let (v, w) = (a.get(key).map(typed), b.get(key).map(typed));
                    if v != w {
                        let show = |v: Option<&Json>| v.map_or("none".to_string(), shown);
                        why.push(format!("{words} `{key}` {} → {}", show(v), show(w)));
                    }
                }
            }
            _ => why.push(format!("{words} {} → {}", shown(&x), shown(&y))),
        }
    }
    if why.is_empty() && before.request != now.request {
        why.push("the request changes".into());
    }
    why
}

/// A DynamoDB JSON value's content (`{"S": "USER#"}` → `"USER#"`).
fn typed(value: &Json) -> &Json {
    match value.as_object() {
        Some(o) if o.len() == 1 => o.values().next().unwrap_or(value),
        _ => value,
    }
}

/// `pk = TENANT#{tenantId} AND begins_with(sk, USER#)`.
pub(super) fn condition(resolution: &Resolution) -> String {
    let mut out = format!("partition `{}`", resolution.partition);
    match &resolution.sort {
        Some(SortOp::BeginsWith(v)) => out.push_str(&format!(", begins_with `{v}`")),
        Some(SortOp::Eq(v)) => out.push_str(&format!(", sort key `{v}`")),
        Some(SortOp::Between(lo, hi)) => out.push_str(&format!(", sort key between `{lo}` and `{hi}`")),
        Some(SortOp::Lt(v)) => out.push_str(&format!(", sort key < `{v}`")),
        Some(SortOp::Le(v)) => out.push_str(&format!(", sort key <= `{v}`")),
        Some(SortOp::Gt(v)) => out.push_str(&format!(", sort key > `{v}`")),
        Some(SortOp::Ge(v)) => out.push_str(&format!(", sort key >= `{v}`")),
        None => {}
    }
    out
}
