//! A pattern's filter (`where ...`): DynamoDB's FilterExpression, applied to
//! the items the key condition read, before they are returned (AWS, *Query*,
//! "Filter expressions for Query"). Here it is decided, from what each
//! entity can write, whether a filter can keep an entity's items at all,
//! which comparisons can never hold because DynamoDB compares values of
//! different types as unequal, and how the filter is written as a request.
//! The resolver, the cost model, `explain` and `verify` all read it from here.

use serde_json::{Map, Value as Json, json};

use super::model::{AttrType, Entity, EntityId, Model};
use crate::syntax::ast::{Filter, FilterExpr, FilterOp, FilterValue, Literal, Name};
use crate::syntax::{FileSpan, Span};

/// The share of read items a filter without `~N%` is assumed to keep.
pub const DEFAULT_KEEPS: f64 = 0.5;

/// Whether a filter keeps an entity's items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keeps {
    /// No item of the entity passes: the filter removes them all.
    Never,
    /// Some may pass, depending on their values.
    Maybe,
    /// Every item passes.
    Always,
}

impl Keeps {
    fn not(self) -> Keeps {
        match self {
            Keeps::Never => Keeps::Always,
            Keeps::Maybe => Keeps::Maybe,
            Keeps::Always => Keeps::Never,
        }
    }

    fn and(self, other: Keeps) -> Keeps {
        match (self, other) {
            (Keeps::Never, _) | (_, Keeps::Never) => Keeps::Never,
            (Keeps::Always, Keeps::Always) => Keeps::Always,
            _ => Keeps::Maybe,
        }
    }

    fn or(self, other: Keeps) -> Keeps {
        self.not().and(other.not()).not()
    }
}

/// A constant on a filter's right side, typed as DynamoDB stores it.
#[derive(Clone, Debug, PartialEq)]
pub enum Constant {
    S(String),
    N(String),
    Bool(bool),
}

impl Constant {
    fn kind(&self) -> &'static str {
        match self {
            Constant::S(_) => "S",
            Constant::N(_) => "N",
            Constant::Bool(_) => "BOOL",
        }
    }

    /// The constant in DynamoDB JSON: `{"N": "10"}`.
    pub fn json(&self) -> Json {
        match self {
            Constant::S(s) => json!({ "S": s }),
            Constant::N(n) => json!({ "N": n }),
            Constant::Bool(b) => json!({ "BOOL": b }),
        }
    }
}

/// A right side: a constant, or a value the caller passes.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand<'a> {
    Constant(Constant),
    Param(&'a str),
}

/// The first declaration of `attr` among the returned entities.
fn declared<'m>(model: &'m Model, returns: &[EntityId], attr: &str) -> Option<&'m AttrType> {
    model.attribute_among(returns, attr).map(|a| &a.ty)
}

/// What a right side means: a bare word is a value of the attribute's
/// `enum` when it is one (`state = open`), else a value the caller passes.
pub fn operand<'a>(model: &Model, returns: &[EntityId], attr: &str, value: &'a FilterValue) -> Operand<'a> {
    match value {
        FilterValue::Literal(Literal::Str(s)) => Operand::Constant(Constant::S(s.display())),
        FilterValue::Literal(Literal::Number(n, _)) => Operand::Constant(Constant::N(n.clone())),
        FilterValue::Literal(Literal::Bool(b, _)) => Operand::Constant(Constant::Bool(*b)),
        FilterValue::Literal(Literal::Word(w)) | FilterValue::Word(w) => {
            let is_enum_value = returns.iter().any(|&e| {
                matches!(model.entity(e).attribute(attr).map(|a| &a.ty),
                    Some(AttrType::Enum(values)) if values.iter().any(|v| *v == w.text))
            });
            if is_enum_value {
                Operand::Constant(Constant::S(w.text.to_string()))
            } else {
                Operand::Param(&w.text)
            }
        }
    }
}

/// Whether `ty` can hold `constant` under `op`: `false` when DynamoDB,
/// comparing by type, would never find them equal (or ordered), or the
/// constant is no value of the enum.
fn can_hold(ty: &AttrType, constant: &Constant, prefix: bool) -> bool {
    if ty.stored_kind() != constant.kind() {
        return false;
    }
    match (ty, constant) {
        (AttrType::Enum(values), Constant::S(text)) if prefix => values.iter().any(|v| v.starts_with(text.as_str())),
        (AttrType::Enum(values), Constant::S(text)) => values.contains(text),
        _ => true,
    }
}

/// Whether the filter keeps items of `entity`, from what it writes: an
/// attribute it never declares is missing from every item (a comparison
/// with it is false, `attribute_not_exists` true); a required one is on
/// every item; a constant of another type or outside its enum never
/// compares equal. `<>` and ordered comparisons with a missing or mistyped
/// attribute are left undecided.
pub fn keeps(model: &Model, returns: &[EntityId], entity: &Entity, table_keys: &[&str], expr: &FilterExpr) -> Keeps {
    let atom = |attr: &Name| -> Option<&AttrType> { entity.attribute(&attr.text).map(|a| &a.ty) };
    // A key attribute of the table is written by the keys, whatever the entity declares.
    let unknown = |attr: &Name| entity.attribute(&attr.text).is_none() && table_keys.contains(&attr.text.as_str());
    match expr {
        FilterExpr::Exists { attr, exists, .. } => {
            let present = match entity.attribute(&attr.text) {
                _ if unknown(attr) => Keeps::Maybe,
                None => Keeps::Never,
                Some(a) if a.optional => Keeps::Maybe,
                Some(_) => Keeps::Always,
            };
            if *exists { present } else { present.not() }
        }
        FilterExpr::Compare { attr, op, value, .. } => {
            if unknown(attr) {
                return Keeps::Maybe;
            }
            match (atom(attr), operand(model, returns, &attr.text, value)) {
                (None, _) if *op == FilterOp::Ne => Keeps::Maybe,
                (None, _) => Keeps::Never,
                (Some(ty), Operand::Constant(c)) if *op == FilterOp::Eq && !can_hold(ty, &c, false) => Keeps::Never,
                (Some(ty), Operand::Constant(c)) if *op != FilterOp::Ne && ty.stored_kind() != c.kind() => Keeps::Never,
                _ => Keeps::Maybe,
            }
        }
        FilterExpr::In { attr, values, .. } => {
            if unknown(attr) {
                return Keeps::Maybe;
            }
            let Some(ty) = atom(attr) else { return Keeps::Never };
            let any = values.iter().any(|v| match operand(model, returns, &attr.text, v) {
                Operand::Constant(c) => can_hold(ty, &c, false),
                Operand::Param(_) => true,
            });
            if any { Keeps::Maybe } else { Keeps::Never }
        }
        FilterExpr::BeginsWith { attr, value, .. } => {
            if unknown(attr) {
                return Keeps::Maybe;
            }
            match (atom(attr), operand(model, returns, &attr.text, value)) {
                (None, _) => Keeps::Never,
                (Some(ty), _) if ty.stored_kind() != "S" => Keeps::Never,
                (Some(ty), Operand::Constant(c)) if !can_hold(ty, &c, true) => Keeps::Never,
                _ => Keeps::Maybe,
            }
        }
        FilterExpr::And(a, b) => {
            keeps(model, returns, entity, table_keys, a).and(keeps(model, returns, entity, table_keys, b))
        }
        FilterExpr::Or(a, b) => {
            keeps(model, returns, entity, table_keys, a).or(keeps(model, returns, entity, table_keys, b))
        }
        FilterExpr::Not { inner, .. } => keeps(model, returns, entity, table_keys, inner).not(),
        FilterExpr::Group { inner, .. } => keeps(model, returns, entity, table_keys, inner),
    }
}

/// A comparison that DynamoDB evaluates without error but can never be
/// what was meant: a value of another type than the attribute (`"10"` for
/// an `int`), which DynamoDB never finds equal or ordered.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// The value.
    pub span: Span,
    pub attr: String,
    pub entity: EntityId,
    /// The attribute's declaration.
    pub declared: FileSpan,
    pub message: String,
}

/// Every value of another type than its attribute in a returned entity.
pub fn mismatches(model: &Model, returns: &[EntityId], filter: &Filter) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let mut check = |attr: &Name, value: &FilterValue, begins_with: bool| {
        let constant = match operand(model, returns, &attr.text, value) {
            Operand::Constant(constant) => Some(constant),
            // A caller's value takes the attribute's type, but `begins_with`
            // is only for strings whatever its value.
            Operand::Param(_) if begins_with => None,
            Operand::Param(_) => return,
        };
        for &e in returns {
            let entity = model.entity(e);
            let Some(attribute) = entity.attribute(&attr.text) else {
                continue;
            };
            let ty = &attribute.ty;
            let problem = if begins_with && ty.stored_kind() != "S" {
                Some(format!(
                    "`begins_with` tests strings, and `{}` is declared `{}`",
                    attr.text,
                    ty.name()
                ))
            } else if let Some(constant) = constant.as_ref().filter(|c| ty.stored_kind() != c.kind()) {
                Some(format!(
                    "`{}` is declared `{}`, stored as {}, and this value is {}: DynamoDB compares values of different types as unequal, so the comparison never holds as meant",
                    attr.text,
                    ty.name(),
                    kind_name(ty.stored_kind()),
                    kind_name(constant.kind())
                ))
            } else {
                constant
                    .as_ref()
                    .filter(|c| !can_hold(ty, c, begins_with))
                    .map(|c| format!("`{}` can never be `{}`", attr.text, constant_text(c)))
            };
            if let Some(message) = problem {
                out.push(Mismatch {
                    span: value.span(),
                    attr: attr.text.to_string(),
                    entity: e,
                    declared: entity.at(attribute.span),
                    message,
                });
                return;
            }
        }
    };
    filter.expr.visit(&mut |e| match e {
        FilterExpr::Compare { attr, value, .. } => check(attr, value, false),
        FilterExpr::BeginsWith { attr, value, .. } => check(attr, value, true),
        FilterExpr::In { attr, values, .. } => values.iter().for_each(|v| check(attr, v, false)),
        _ => {}
    });
    out
}

fn kind_name(kind: &str) -> &'static str {
    match kind {
        "N" => "a number",
        "BOOL" => "a boolean",
        "B" => "binary",
        "L" => "a list",
        "M" => "a map",
        _ => "a string",
    }
}

fn constant_text(constant: &Constant) -> String {
    match constant {
        Constant::S(s) | Constant::N(s) => s.clone(),
        Constant::Bool(b) => b.to_string(),
    }
}

/// The share of read items the filter keeps: its `~N%`, else [`DEFAULT_KEEPS`].
pub fn share(filter: &Filter) -> f64 {
    filter.keeps.as_ref().map_or(DEFAULT_KEEPS, |k| k.fraction)
}

/// A filter as request parameters: the FilterExpression with every name a
/// `#fN` placeholder (so reserved words and names like `State#Date` need no
/// care) and every value a `:fN` placeholder; a caller's value is written
/// `{name}` in the attribute's type, as key values are.
#[derive(Clone, Debug, PartialEq)]
pub struct Expression {
    pub text: String,
    pub names: Map<String, Json>,
    pub values: Map<String, Json>,
}

pub fn expression(model: &Model, returns: &[EntityId], filter: &Filter) -> Expression {
    let mut writer = Writer {
        model,
        returns,
        names: Map::new(),
        values: Map::new(),
    };
    let text = writer.expr(&filter.expr);
    Expression {
        text,
        names: writer.names,
        values: writer.values,
    }
}

struct Writer<'m> {
    model: &'m Model,
    returns: &'m [EntityId],
    names: Map<String, Json>,
    values: Map<String, Json>,
}

impl Writer<'_> {
    /// One placeholder per attribute, however often it is tested.
    fn name(&mut self, attr: &Name) -> String {
        let found = self.names.iter().find(|(_, v)| v.as_str() == Some(attr.text.as_str()));
        if let Some((key, _)) = found {
            return key.clone();
        }
        let key = format!("#f{}", self.names.len());
        self.names.insert(key.clone(), json!(attr.text));
        key
    }

    fn value(&mut self, attr: &Name, value: &FilterValue) -> String {
        let key = format!(":f{}", self.values.len());
        let json = match operand(self.model, self.returns, &attr.text, value) {
            Operand::Constant(c) => c.json(),
            Operand::Param(p) => {
                let kind = declared(self.model, self.returns, &attr.text).map_or("S", AttrType::stored_kind);
                json!({ kind: format!("{{{p}}}") })
            }
        };
        self.values.insert(key.clone(), json);
        key
    }

    fn expr(&mut self, expr: &FilterExpr) -> String {
        match expr {
            FilterExpr::Compare { attr, op, value, .. } => {
                let name = self.name(attr);
                format!("{name} {} {}", op.as_str(), self.value(attr, value))
            }
            FilterExpr::In { attr, values, .. } => {
                let name = self.name(attr);
                let list: Vec<String> = values.iter().map(|v| self.value(attr, v)).collect();
                format!("{name} IN ({})", list.join(", "))
            }
            FilterExpr::BeginsWith { attr, value, .. } => {
                let name = self.name(attr);
                format!("begins_with({name}, {})", self.value(attr, value))
            }
            FilterExpr::Exists { attr, exists, .. } => {
                let function = if *exists {
                    "attribute_exists"
                } else {
                    "attribute_not_exists"
                };
                format!("{function}({})", self.name(attr))
            }
            FilterExpr::And(a, b) => {
                let a = self.expr(a);
                format!("{a} AND {}", self.expr(b))
            }
            FilterExpr::Or(a, b) => {
                let a = self.expr(a);
                format!("{a} OR {}", self.expr(b))
            }
            FilterExpr::Not { inner, .. } => format!("NOT {}", self.expr(inner)),
            FilterExpr::Group { inner, .. } => format!("({})", self.expr(inner)),
        }
    }
}

/// Whether the filter keeps only items whose `ttl` attribute is after a
/// time the caller passes (`expiresAt > now`), so that items DynamoDB has
/// not yet deleted after they expired are not returned. The test must hold
/// for every kept item: a conjunct of the filter, on its own or in an `or`
/// whose other sides only keep items without the attribute (which never
/// expire).
pub fn excludes_expired(filter: &Filter, ttl: &str) -> bool {
    fn after_now(expr: &FilterExpr, ttl: &str) -> bool {
        match expr {
            FilterExpr::Compare {
                attr,
                op: FilterOp::Gt | FilterOp::Ge,
                value: FilterValue::Word(_),
                ..
            } => attr.text == ttl,
            FilterExpr::Exists {
                attr, exists: false, ..
            } => attr.text == ttl,
            FilterExpr::Or(a, b) => after_now(a, ttl) && after_now(b, ttl),
            FilterExpr::Group { inner, .. } => after_now(inner, ttl),
            _ => false,
        }
    }
    fn any_conjunct(expr: &FilterExpr, ttl: &str) -> bool {
        match expr {
            FilterExpr::And(a, b) => any_conjunct(a, ttl) || any_conjunct(b, ttl),
            FilterExpr::Group { inner, .. } => any_conjunct(inner, ttl),
            // `attribute_not_exists` alone keeps no expiring item at all: fine too.
            other => after_now(other, ttl),
        }
    }
    any_conjunct(&filter.expr, ttl)
}

/// The edits that add `condition` to a pattern's filter, as a conjunct:
/// a new `where` at `end` (where the returns and modifiers end) when there
/// is none, else `and condition` after the expression, which is
/// parenthesised first when it is an `or` (that `and` binds tighter).
pub fn add_conjunct(filter: Option<&Filter>, end: usize, condition: &str) -> Vec<(Span, String)> {
    match filter {
        None => vec![(Span::empty(end), format!(" where {condition}"))],
        Some(filter) => {
            let span = filter.expr.span();
            if matches!(filter.expr, FilterExpr::Or(..)) {
                vec![
                    (Span::empty(span.start()), "(".to_string()),
                    (Span::empty(span.end()), format!(") and {condition}")),
                ]
            } else {
                vec![(Span::empty(span.end()), format!(" and {condition}"))]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::analyze;

    const SCHEMA: &str = r##"
table T {
  key pk, sk
}

entity Customer {
  customerId: id
  name: string
  pk = "C#{customerId}"
  sk = "#PROFILE"
}

entity Ticket {
  customerId: id
  ticketId: ulid
  state: enum(open, closed)
  note: string?
  pk = "C#{customerId}"
  sk = "#{ticketId}"
}
"##;

    /// What the filter of `pattern p(customerId) -> Ticket[] where FILTER`
    /// does to `Customer` and to `Ticket` items.
    fn keeps_of(filter: &str) -> (Keeps, Keeps) {
        let text = format!("{SCHEMA}\npattern p(customerId) -> Ticket[] where {filter}\n");
        let analysis = analyze(&text);
        let model = &analysis.schema.model;
        let pattern = &model.patterns[0];
        let expr = &pattern.filter.as_ref().expect("a filter").expr;
        let returns: Vec<EntityId> = pattern.returns.iter().filter_map(|r| r.entity).collect();
        let keys = ["pk", "sk"];
        let of = |name: &str| {
            keeps(
                model,
                &returns,
                model.entity(model.entity_named(name).unwrap()),
                &keys,
                expr,
            )
        };
        (of("Customer"), of("Ticket"))
    }

    #[test]
    fn a_comparison_with_a_missing_attribute_removes_the_item_except_not_equal() {
        assert_eq!(keeps_of("state = open"), (Keeps::Never, Keeps::Maybe));
        assert_eq!(keeps_of("state >= x"), (Keeps::Never, Keeps::Maybe));
        // DynamoDB (and dynalite, moto) keep an item without the attribute for `<>`.
        assert_eq!(keeps_of("state <> closed").0, Keeps::Maybe);
        assert_eq!(keeps_of("not (state = open)").0, Keeps::Always);
    }

    #[test]
    fn existence_follows_what_each_entity_declares() {
        assert_eq!(keeps_of("attribute_exists(state)"), (Keeps::Never, Keeps::Always));
        assert_eq!(keeps_of("attribute_exists(note)"), (Keeps::Never, Keeps::Maybe));
        assert_eq!(keeps_of("attribute_not_exists(state)"), (Keeps::Always, Keeps::Never));
        // A key attribute is on every item, whatever the entity declares.
        assert_eq!(keeps_of("attribute_exists(pk)").0, Keeps::Maybe);
    }

    #[test]
    fn and_or_combine_as_three_valued_logic() {
        assert_eq!(keeps_of("state = open or attribute_not_exists(state)").0, Keeps::Always);
        assert_eq!(keeps_of("state = open or note = x").0, Keeps::Never);
        assert_eq!(keeps_of("state = open and note = x").1, Keeps::Maybe);
        // A constant outside the enum removes even the declared entity's items.
        assert_eq!(keeps_of("state in (\"gone\", \"lost\")").1, Keeps::Never);
    }
}
