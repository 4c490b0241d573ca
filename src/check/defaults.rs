//! The estimates the cost model uses where a schema gives no hint: how many
//! items an `E[]` return counts without `~N`, and the value size of each
//! type whose size its format does not fix (`docs/language.md`, "Defaults
//! without hints"). A team whose strings are longer than 64 bytes, or whose
//! collections hold hundreds of items, sets its own (the editor setting
//! `dyno.defaults`, a schema folder's `dyno.json`) instead of writing a
//! hint on every attribute.

use std::hash::{Hash, Hasher};

/// The defaults, in bytes and items.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Defaults {
    /// Items counted for an `E[]` return without `~N`.
    pub items: f64,
    pub string: f64,
    pub id: f64,
    pub int: f64,
    pub decimal: f64,
    pub binary: f64,
    pub list: f64,
    pub map: f64,
}

impl Default for Defaults {
    fn default() -> Defaults {
        Defaults {
            items: 10.0,
            string: 64.0,
            id: 16.0,
            // About six digits: 3 + 1 bytes.
            int: 4.0,
            decimal: 8.0,
            binary: 256.0,
            list: 128.0,
            map: 256.0,
        }
    }
}

impl Eq for Defaults {}

impl Hash for Defaults {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for value in self.values() {
            value.to_bits().hash(state);
        }
    }
}

/// The size types a setting may name, in the order of [`Defaults::values`].
const SIZES: [&str; 7] = ["string", "id", "int", "decimal", "binary", "list", "map"];

impl Defaults {
    fn values(&self) -> [f64; 8] {
        [
            self.items,
            self.string,
            self.id,
            self.int,
            self.decimal,
            self.binary,
            self.list,
            self.map,
        ]
    }

    fn size_mut(&mut self, ty: &str) -> Option<&mut f64> {
        Some(match ty {
            "string" => &mut self.string,
            "id" => &mut self.id,
            "int" => &mut self.int,
            "decimal" => &mut self.decimal,
            "binary" => &mut self.binary,
            "list" => &mut self.list,
            "map" => &mut self.map,
            _ => return None,
        })
    }

    /// Reads `{"items": 50, "sizes": {"string": 200, "map": "2KB"}}` over
    /// `self`: what the object leaves out keeps its value. Returns what could
    /// not be read, each as `key: why`, so the caller can say so.
    pub fn read(mut self, value: &serde_json::Value) -> (Defaults, Vec<String>) {
        let mut unread = Vec::new();
        let Some(object) = value.as_object() else {
            unread.push(format!("{value}: not an object"));
            return (self, unread);
        };
        for (key, value) in object {
            match key.as_str() {
                "items" => match value.as_f64().filter(|n| n.is_finite() && *n >= 0.0) {
                    Some(n) => self.items = n,
                    None => unread.push(format!("items: {value} is not a count")),
                },
                "sizes" => {
                    let Some(sizes) = value.as_object() else {
                        unread.push(format!("sizes: {value} is not an object"));
                        continue;
                    };
                    for (ty, size) in sizes {
                        match (self.size_mut(ty), bytes(size)) {
                            (Some(slot), Some(bytes)) => *slot = bytes,
                            (None, _) => unread.push(format!(
                                "sizes.{ty}: not a type with a default size ({})",
                                SIZES.join(", ")
                            )),
                            (_, None) => unread.push(format!("sizes.{ty}: {size} is not a size (`200`, `\"2KB\"`)")),
                        }
                    }
                }
                _ => unread.push(format!("{key}: unknown (items, sizes)")),
            }
        }
        (self, unread)
    }
}

/// A size as a number of bytes or a string with a unit (`"300B"`,
/// `"1.5KB"`, `"1MB"`, as a `~` hint writes it; 1 KB = 1024 bytes).
fn bytes(value: &serde_json::Value) -> Option<f64> {
    let bytes = match value {
        serde_json::Value::Number(n) => n.as_f64()?,
        serde_json::Value::String(text) => {
            let text = text.trim().trim_start_matches('~');
            let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
                Some(at) => text.split_at(at),
                None => (text, "B"),
            };
            let scale = match unit.trim() {
                "B" => 1.0,
                "KB" => 1024.0,
                "MB" => 1024.0 * 1024.0,
                _ => return None,
            };
            number.trim().parse::<f64>().ok()? * scale
        }
        _ => return None,
    };
    (bytes.is_finite() && bytes >= 0.0).then_some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_counts_and_sizes_over_the_defaults() {
        let (read, unread) = Defaults::default().read(&json!({"items": 50, "sizes": {"string": 200, "map": "2KB"}}));
        assert!(unread.is_empty(), "{unread:?}");
        assert_eq!(read.items, 50.0);
        assert_eq!(read.string, 200.0);
        assert_eq!(read.map, 2048.0);
        assert_eq!(read.id, Defaults::default().id);
    }

    #[test]
    fn what_cannot_be_read_is_named_and_left_as_it_was() {
        let (read, unread) = Defaults::default().read(&json!({
            "items": -1,
            "sizes": {"bool": 4, "string": "lots", "id": "~1.5KB"},
            "volume": 3
        }));
        assert_eq!(read.items, 10.0);
        assert_eq!(read.string, 64.0);
        assert_eq!(read.id, 1536.0);
        assert_eq!(unread.len(), 4, "{unread:?}");
        assert!(unread.iter().any(|u| u.starts_with("sizes.bool")), "{unread:?}");
        assert!(unread.iter().any(|u| u.starts_with("volume")), "{unread:?}");
    }
}
