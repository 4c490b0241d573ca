//! Inference from sample values: an attribute's type from the values the
//! sample items hold, a key's template from the shape of its values.
//! Whatever the samples leave open comes back as a TODO.

use serde_json::Value as Json;

/// One sample value, by its DynamoDB type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sample<'a> {
    S(&'a str),
    N(&'a str),
    Bool,
    Binary,
    List,
    Map,
    /// `SS`, `NS` or `BS`: dyno has no set type.
    Set(&'a str),
    Null,
}

impl<'a> Sample<'a> {
    /// The text the value has in a key (strings and numbers only).
    pub fn text(self) -> Option<&'a str> {
        match self {
            Sample::S(s) | Sample::N(s) => Some(s),
            _ => None,
        }
    }

    fn letter(self) -> &'a str {
        match self {
            Sample::S(_) => "S",
            Sample::N(_) => "N",
            Sample::Bool => "BOOL",
            Sample::Binary => "B",
            Sample::List => "L",
            Sample::Map => "M",
            Sample::Set(letter) => letter,
            Sample::Null => "NULL",
        }
    }
}

/// A value as DynamoDB JSON writes it (`{"S": "x"}`, `{"N": "1"}`), or as
/// plain JSON (`"x"`, `1`), which some models hold.
pub fn sample(value: &Json) -> Sample<'_> {
    if let Json::Object(map) = value
        && map.len() == 1
        && let Some((letter, inner)) = map.iter().next()
    {
        match (letter.as_str(), inner) {
            ("S", Json::String(s)) => return Sample::S(s),
            ("N", Json::String(s)) => return Sample::N(s),
            ("BOOL", _) => return Sample::Bool,
            ("B", _) => return Sample::Binary,
            ("L", _) => return Sample::List,
            ("M", _) => return Sample::Map,
            ("NULL", _) => return Sample::Null,
            ("SS", _) => return Sample::Set("SS"),
            ("NS", _) => return Sample::Set("NS"),
            ("BS", _) => return Sample::Set("BS"),
            _ => {}
        }
    }
    match value {
        Json::String(s) => Sample::S(s),
        Json::Number(_) => Sample::N(""),
        Json::Bool(_) => Sample::Bool,
        Json::Array(_) => Sample::List,
        Json::Object(_) => Sample::Map,
        Json::Null => Sample::Null,
    }
}

/// A type as written, and what the samples could not settle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inferred {
    pub ty: String,
    pub todo: Option<String>,
}

impl Inferred {
    fn sure(ty: &str) -> Inferred {
        Inferred {
            ty: ty.to_string(),
            todo: None,
        }
    }

    fn unsure(ty: &str, todo: String) -> Inferred {
        Inferred {
            ty: ty.to_string(),
            todo: Some(todo),
        }
    }
}

/// The most enum values a small set of sample words may have. (One value
/// repeated is a constant, which an enum of one would promise forever.)
const ENUM_MAX_VALUES: usize = 4;

/// An attribute's type from its sample values, or from the DynamoDB type
/// letter the model declares when there are none. `Err` is why it has no
/// dyno type (a set).
pub fn attribute_type(samples: &[Sample], declared: Option<&str>) -> Result<Inferred, String> {
    let samples: Vec<Sample> = samples.iter().copied().filter(|s| *s != Sample::Null).collect();
    let Some(first) = samples.first() else {
        return declared_type(declared);
    };
    let mut letters: Vec<&str> = samples.iter().map(|s| s.letter()).collect();
    letters.dedup();
    if letters.len() > 1 {
        return Ok(Inferred::unsure(
            "string",
            format!("the samples hold values of types {}; pick one", letters.join(", ")),
        ));
    }
    match first {
        Sample::S(_) => {
            let texts: Vec<&str> = samples.iter().filter_map(|s| s.text()).collect();
            Ok(string_type(&texts))
        }
        Sample::N(_) => {
            let whole = samples
                .iter()
                .filter_map(|s| s.text())
                .all(|n| !n.is_empty() && n.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit()));
            Ok(Inferred::sure(if whole { "int" } else { "decimal" }))
        }
        Sample::Bool => Ok(Inferred::sure("bool")),
        Sample::Binary => Ok(Inferred::sure("binary")),
        Sample::List => Ok(Inferred::sure("list")),
        Sample::Map => Ok(Inferred::sure("map")),
        Sample::Set(letter) => Err(format!("a set ({letter}); dyno has no set type")),
        Sample::Null => declared_type(declared),
    }
}

fn declared_type(declared: Option<&str>) -> Result<Inferred, String> {
    Ok(match declared {
        Some("S") => Inferred::sure("string"),
        Some("N") => Inferred::unsure(
            "decimal",
            "a Number without sample values: `int` if it is always whole".into(),
        ),
        Some("BOOL") => Inferred::sure("bool"),
        Some("B") => Inferred::sure("binary"),
        Some("L") => Inferred::sure("list"),
        Some("M") => Inferred::sure("map"),
        Some(letter @ ("SS" | "NS" | "BS")) => return Err(format!("a set ({letter}); dyno has no set type")),
        Some(other) => Inferred::unsure("string", format!("unknown type `{other}` in the model")),
        None => Inferred::unsure("string", "no type and no sample values".into()),
    })
}

/// The type of String values: a date, a datetime, a uuid or ulid, an enum
/// of a few repeated words (letters, `_` and `-`: a digit makes a value
/// look like an id or a version), else `string`.
fn string_type(values: &[&str]) -> Inferred {
    match shape_of(values) {
        Shape::Date => return Inferred::sure("date"),
        Shape::Datetime => return Inferred::sure("datetime"),
        // No zone: text order is time order within the one zone they share.
        Shape::LocalDatetime => return Inferred::sure("datetime(local)"),
        Shape::Uuid => return Inferred::sure("uuid"),
        Shape::Ulid => return Inferred::sure("ulid"),
        Shape::Padded(_) | Shape::Word | Shape::Text => {}
    }
    let mut distinct: Vec<&str> = values.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let words = distinct.iter().all(|v| {
        v.len() <= 32
            && v.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && v.chars().all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
    });
    if words && (2..=ENUM_MAX_VALUES).contains(&distinct.len()) && values.len() > distinct.len() {
        let list: Vec<_> = distinct
            .iter()
            .map(|v| crate::syntax::names::written(v).into_owned())
            .collect();
        return Inferred::unsure(
            &format!("enum({})", list.join(", ")),
            format!(
                "an enum of the {} values seen in {} samples: add the values they lack, or make it `string`",
                distinct.len(),
                values.len()
            ),
        );
    }
    Inferred::sure("string")
}

/// What every one of a set of text values looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `2024-01-31`
    Date,
    /// `2024-01-31T10:00:00Z`, `2024-01-31T10:00:00.123Z`
    Datetime,
    /// `2024-01-31T10:00:00`: no time zone
    LocalDatetime,
    Uuid,
    Ulid,
    /// Digits of one length, some with a leading zero.
    Padded(usize),
    /// Non-empty, with no digit: a type tag such as `USER` or `METADATA`.
    Word,
    Text,
}

pub fn shape_of(values: &[&str]) -> Shape {
    let all = |f: fn(&str) -> bool| !values.is_empty() && values.iter().all(|v| f(v));
    if all(is_date) {
        Shape::Date
    } else if all(|v| is_datetime(v) == Some(true)) {
        Shape::Datetime
    } else if all(|v| is_datetime(v).is_some()) {
        Shape::LocalDatetime
    } else if all(is_uuid) {
        Shape::Uuid
    } else if all(is_ulid) {
        Shape::Ulid
    } else if all(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        && values.iter().all(|v| v.len() == values[0].len())
        && values.iter().any(|v| v.len() > 1 && v.starts_with('0'))
    {
        Shape::Padded(values[0].len())
    } else if all(|v| !v.is_empty() && !v.bytes().any(|b| b.is_ascii_digit())) {
        Shape::Word
    } else {
        Shape::Text
    }
}

/// The type of a hole whose values have `shape` and never contain the
/// delimiter: `id` unless the values say more.
pub fn hole_type(shape: Shape, values: &[&str]) -> Inferred {
    match shape {
        Shape::Date => Inferred::sure("date"),
        Shape::Datetime => Inferred::sure("datetime"),
        Shape::LocalDatetime => Inferred::sure("datetime(local)"),
        Shape::Uuid => Inferred::sure("uuid"),
        Shape::Ulid => Inferred::sure("ulid"),
        Shape::Padded(width) => Inferred::sure(&format!("int(pad {width})")),
        Shape::Word | Shape::Text if values.iter().any(|v| v.is_empty()) => Inferred::sure("string"),
        Shape::Word | Shape::Text => Inferred::sure("id"),
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    // ASCII first: the slices below are at byte offsets.
    b.len() == 10
        && b.is_ascii()
        && b[4] == b'-'
        && b[7] == b'-'
        && digits(&s[..4])
        && digits(&s[5..7])
        && digits(&s[8..])
}

/// `Some(true)` for a UTC datetime as dyno writes it, `Some(false)` for one
/// without the `Z`, `None` for anything else.
fn is_datetime(s: &str) -> Option<bool> {
    if s.len() < 19 || !s.as_bytes()[..19].is_ascii() {
        return None;
    }
    let (date, time) = (&s[..10], &s[10..19]);
    let t = time.as_bytes();
    let time_ok = t[0] == b'T'
        && t[3] == b':'
        && t[6] == b':'
        && digits(&time[1..3])
        && digits(&time[4..6])
        && digits(&time[7..9]);
    if !is_date(date) || !time_ok {
        return None;
    }
    let rest = &s[19..];
    let (fraction, zone) = match rest.strip_prefix('.') {
        Some(r) => {
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            (n > 0, &r[n..])
        }
        None => (true, rest),
    };
    match zone {
        _ if !fraction => None,
        "Z" => Some(true),
        "" => Some(false),
        _ => None,
    }
}

fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                *c == b'-'
            } else {
                c.is_ascii_hexdigit()
            }
        })
}

fn is_ulid(s: &str) -> bool {
    s.len() == 26
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b.is_ascii_uppercase() && !b"ILOU".contains(&b)))
        && s.bytes().any(|b| b.is_ascii_uppercase())
}

/// A piece of a key's values: text every value has there, or a column of
/// values that differ (or look like data), one per sample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Literal(String),
    Column(Vec<String>),
}

/// The values of one key, split at the delimiter into literal segments
/// and columns. `uneven` when the values have different numbers of
/// segments: then the key is a literal first segment (when all share one)
/// and one column with the rest.
pub fn key_segments(values: &[&str], delimiter: &str) -> (Vec<Segment>, bool) {
    let split: Vec<Vec<&str>> = values.iter().map(|v| v.split(delimiter).collect()).collect();
    let count = split.first().map_or(0, Vec::len);
    if split.iter().all(|s| s.len() == count) {
        let mut segments = Vec::new();
        for n in 0..count {
            if n > 0 {
                segments.push(Segment::Literal(delimiter.to_string()));
            }
            let column: Vec<&str> = split.iter().map(|s| s[n]).collect();
            let same = column.iter().all(|v| *v == column[0]);
            if same && (column[0].is_empty() || shape_of(&column[..1]) == Shape::Word) {
                segments.push(Segment::Literal(column[0].to_string()));
            } else {
                segments.push(Segment::Column(column.iter().map(|v| v.to_string()).collect()));
            }
        }
        return (merge_literals(segments), false);
    }
    let first = split[0][0];
    let tag = split.iter().all(|s| s[0] == first) && shape_of(&[first]) == Shape::Word;
    let segments = if tag {
        let prefix = format!("{first}{delimiter}");
        vec![
            Segment::Literal(prefix.clone()),
            Segment::Column(
                values
                    .iter()
                    .map(|v| v[prefix.len().min(v.len())..].to_string())
                    .collect(),
            ),
        ]
    } else {
        vec![Segment::Column(values.iter().map(|v| v.to_string()).collect())]
    };
    (segments, true)
}

fn merge_literals(segments: Vec<Segment>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for segment in segments {
        if let (Some(Segment::Literal(last)), Segment::Literal(text)) = (out.last_mut(), &segment) {
            last.push_str(text);
        } else {
            out.push(segment);
        }
    }
    out.retain(|s| !matches!(s, Segment::Literal(t) if t.is_empty()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(values: &[&str]) -> Inferred {
        let samples: Vec<Sample> = values.iter().map(|v| Sample::S(v)).collect();
        attribute_type(&samples, None).unwrap()
    }

    #[test]
    fn string_values_give_their_type() {
        assert_eq!(ty(&["2024-01-31", "2023-12-01"]).ty, "date");
        assert_eq!(ty(&["2024-01-31T10:00:00Z", "2024-01-31T10:00:00.5Z"]).ty, "datetime");
        let local = ty(&["2024-01-31T10:00:00", "2024-02-01T08:30:00.25"]);
        assert_eq!((local.ty.as_str(), local.todo), ("datetime(local)", None));
        assert_eq!(ty(&["0b6f4d2e-6a1c-4a7e-9d43-1a2b3c4d5e6f"]).ty, "uuid");
        assert_eq!(ty(&["01ARZ3NDEKTSV4RRFFQ69G5FAV"]).ty, "ulid");
        assert_eq!(ty(&["open", "paid", "open"]).ty, "enum(open, paid)");
        assert_eq!(ty(&["open", "paid"]).ty, "string");
        assert_eq!(ty(&["in-use", "on", "in-use"]).ty, "enum(\"in-use\", on)");
        assert_eq!(ty(&["same", "same"]).ty, "string");
    }

    #[test]
    fn numbers_mixed_and_missing_samples() {
        let n = |v| Sample::N(v);
        assert_eq!(attribute_type(&[n("1"), n("-20")], None).unwrap().ty, "int");
        assert_eq!(attribute_type(&[n("1.5")], None).unwrap().ty, "decimal");
        assert!(attribute_type(&[n("1"), Sample::S("x")], None).unwrap().todo.is_some());
        assert!(attribute_type(&[Sample::Set("SS")], None).is_err());
        assert_eq!(attribute_type(&[], Some("BOOL")).unwrap().ty, "bool");
    }

    #[test]
    fn keys_split_into_tags_and_columns() {
        let (segments, uneven) = key_segments(&["USER#u_3001", "USER#u_3002"], "#");
        assert!(!uneven);
        assert_eq!(
            segments,
            vec![
                Segment::Literal("USER#".into()),
                Segment::Column(vec!["u_3001".into(), "u_3002".into()])
            ]
        );
        assert_eq!(
            key_segments(&["METADATA", "METADATA"], "#").0,
            vec![Segment::Literal("METADATA".into())]
        );
        let (segments, uneven) = key_segments(&["c#a#b", "c#d"], "#");
        assert!(uneven);
        assert_eq!(segments[0], Segment::Literal("c#".into()));
    }

    #[test]
    fn text_that_is_not_ascii_is_never_sliced_inside_a_character() {
        for text in [
            "2024-0é-31",
            "2024-01-31Té:00:00Z",
            "é024-01-31T10:00:00",
            "ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ",
        ] {
            let shape = shape_of(&[text]);
            assert!(
                !matches!(shape, Shape::Date | Shape::Datetime | Shape::LocalDatetime),
                "{text}: {shape:?}"
            );
        }
    }

    #[test]
    fn hole_types() {
        assert_eq!(hole_type(shape_of(&["000042", "000107"]), &[]).ty, "int(pad 6)");
        assert_eq!(hole_type(shape_of(&["12345"]), &[]).ty, "id");
    }
}
