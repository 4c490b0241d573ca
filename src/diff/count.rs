//! `dyno diff --endpoint`: how many existing items each change affects,
//! counted on a live table (feature `verify`: the AWS SDK). Read-only: a
//! Scan per affected item shape, filtered on the old templates' literal
//! prefixes and projected to the key attributes, each returned key then
//! checked against the old template's exact language; it stops at
//! `max_items` matches.

use std::collections::HashMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::DisplayErrorContext;
use aws_sdk_dynamodb::types::AttributeValue;

use super::render::Count;
use super::{Affected, Change};
use crate::check::model::{KeyValue, Model};
use crate::verify::dynamo;

/// A count per change (`None` for a change that affects no existing item),
/// each item shape counted once however many changes name it. `table`
/// overrides the schema's table name.
pub async fn count_all(
    endpoint: &str,
    table: Option<&str>,
    max_items: u64,
    old: &Model,
    changes: &[Change],
) -> Result<Vec<Option<Count>>, String> {
    let client = dynamo::client(endpoint).await;
    let mut done: HashMap<(usize, usize, String), Count> = HashMap::new();
    let mut out = Vec::new();
    for change in changes {
        let Some(affected) = &change.affected else {
            out.push(None);
            continue;
        };
        let name = table.unwrap_or(&affected.table).to_string();
        let key = (affected.entity.index(), affected.shape, name.clone());
        let count = match done.get(&key) {
            Some(count) => *count,
            None => {
                let count = count_one(&client, &name, max_items, old, affected).await?;
                done.insert(key, count);
                count
            }
        };
        out.push(Some(count));
    }
    Ok(out)
}

/// The items of `table` whose keys the old item shape wrote: one Query
/// when the old partition key is a constant (`pk = "SETTINGS"`), else a
/// Scan; both filtered on the old literal prefixes, then each key checked
/// against the old template's exact language.
async fn count_one(
    client: &Client,
    table: &str,
    max_items: u64,
    old: &Model,
    affected: &Affected,
) -> Result<Count, String> {
    let entity = old.entity(affected.entity);
    let nothing = Count {
        items: 0,
        complete: true,
        query: false,
    };
    let Some(shape) = entity.items.get(affected.shape) else {
        return Ok(nothing);
    };
    let keys: Vec<&KeyValue> = shape.keys.iter().filter(|k| !k.implicit).collect();
    if keys.is_empty() {
        return Ok(nothing);
    }
    let partition = entity
        .table
        .and_then(|t| old.table(t).base())
        .map(|base| base.pk.name.clone());
    let mut names = HashMap::new();
    let mut values = HashMap::new();
    let (mut key_condition, mut filter) = (Vec::new(), Vec::new());
    for (n, key) in keys.iter().enumerate() {
        names.insert(format!("#k{n}"), key.attr.to_string());
        let prefix = key.template.literal_prefix();
        let constant = key.template.holes().next().is_none();
        if constant && partition.as_deref() == Some(key.attr.as_str()) {
            values.insert(format!(":k{n}"), AttributeValue::S(prefix));
            key_condition.push(format!("#k{n} = :k{n}"));
        } else if prefix.is_empty() {
            filter.push(format!("attribute_exists(#k{n})"));
        } else {
            values.insert(format!(":k{n}"), AttributeValue::S(prefix));
            filter.push(format!("begins_with(#k{n}, :k{n})"));
        }
    }
    let read = Read {
        table,
        key_condition: (!key_condition.is_empty()).then(|| key_condition.join(" AND ")),
        filter: (!filter.is_empty()).then(|| filter.join(" AND ")),
        projection: (0..keys.len()).map(|n| format!("#k{n}")).collect::<Vec<_>>().join(", "),
        names,
        values,
    };
    let query = read.key_condition.is_some();
    let mut start = None;
    let mut items = 0;
    loop {
        let (page, next) = read
            .page(client, start.take())
            .await
            .map_err(|e| format!("counting `{}` items in `{table}`: {e}", entity.name.text))?;
        for item in &page {
            let matches = keys.iter().all(|key| match item.get(key.attr.as_str()) {
                Some(AttributeValue::S(text)) => key.template.lang.can_equal(text),
                _ => false,
            });
            if matches {
                items += 1;
                if items >= max_items {
                    return Ok(Count {
                        items,
                        complete: false,
                        query,
                    });
                }
            }
        }
        start = next;
        if start.is_none() {
            return Ok(Count {
                items,
                complete: true,
                query,
            });
        }
    }
}

type Item = HashMap<String, AttributeValue>;

/// One counting read: a Query when there is a key condition, else a Scan.
struct Read<'a> {
    table: &'a str,
    key_condition: Option<String>,
    filter: Option<String>,
    projection: String,
    names: HashMap<String, String>,
    values: HashMap<String, AttributeValue>,
}

impl Read<'_> {
    /// One page from `start`: its items and where the next one starts.
    async fn page(&self, client: &Client, start: Option<Item>) -> Result<(Vec<Item>, Option<Item>), String> {
        let values = (!self.values.is_empty()).then(|| self.values.clone());
        match &self.key_condition {
            Some(condition) => {
                let output = client
                    .query()
                    .table_name(self.table)
                    .key_condition_expression(condition)
                    .set_filter_expression(self.filter.clone())
                    .projection_expression(&self.projection)
                    .set_expression_attribute_names(Some(self.names.clone()))
                    .set_expression_attribute_values(values)
                    .set_exclusive_start_key(start)
                    .send()
                    .await
                    .map_err(|e| DisplayErrorContext(e).to_string())?;
                Ok((output.items.unwrap_or_default(), output.last_evaluated_key))
            }
            None => {
                let output = client
                    .scan()
                    .table_name(self.table)
                    .set_filter_expression(self.filter.clone())
                    .projection_expression(&self.projection)
                    .set_expression_attribute_names(Some(self.names.clone()))
                    .set_expression_attribute_values(values)
                    .set_exclusive_start_key(start)
                    .send()
                    .await
                    .map_err(|e| DisplayErrorContext(e).to_string())?;
                Ok((output.items.unwrap_or_default(), output.last_evaluated_key))
            }
        }
    }
}
