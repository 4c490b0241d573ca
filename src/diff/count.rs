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

/// The items of `table` whose keys the old item shape wrote.
async fn count_one(
    client: &Client,
    table: &str,
    max_items: u64,
    old: &Model,
    affected: &Affected,
) -> Result<Count, String> {
    let entity = old.entity(affected.entity);
    let Some(shape) = entity.items.get(affected.shape) else {
        return Ok(Count {
            items: 0,
            complete: true,
        });
    };
    let keys: Vec<&KeyValue> = shape.keys.iter().filter(|k| !k.implicit).collect();
    let mut names = HashMap::new();
    let mut values = HashMap::new();
    let mut conditions = Vec::new();
    for (n, key) in keys.iter().enumerate() {
        names.insert(format!("#k{n}"), key.attr.clone());
        let prefix = key.template.literal_prefix();
        if prefix.is_empty() {
            conditions.push(format!("attribute_exists(#k{n})"));
        } else {
            values.insert(format!(":k{n}"), AttributeValue::S(prefix));
            conditions.push(format!("begins_with(#k{n}, :k{n})"));
        }
    }
    if conditions.is_empty() {
        return Ok(Count {
            items: 0,
            complete: true,
        });
    }
    let projection: Vec<String> = (0..keys.len()).map(|n| format!("#k{n}")).collect();
    let mut start = None;
    let mut items = 0;
    loop {
        let output = client
            .scan()
            .table_name(table)
            .filter_expression(conditions.join(" AND "))
            .projection_expression(projection.join(", "))
            .set_expression_attribute_names(Some(names.clone()))
            .set_expression_attribute_values((!values.is_empty()).then(|| values.clone()))
            .set_exclusive_start_key(start.take())
            .send()
            .await
            .map_err(|e| {
                format!(
                    "counting `{}` items in `{table}`: {}",
                    entity.name.text,
                    DisplayErrorContext(e)
                )
            })?;
        for item in output.items() {
            let matches = keys.iter().all(|key| match item.get(&key.attr) {
                Some(AttributeValue::S(text)) => key.template.lang.can_equal(text),
                _ => false,
            });
            if matches {
                items += 1;
                if items >= max_items {
                    return Ok(Count { items, complete: false });
                }
            }
        }
        start = output.last_evaluated_key;
        if start.is_none() {
            return Ok(Count { items, complete: true });
        }
    }
}
