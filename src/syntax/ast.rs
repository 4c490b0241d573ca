//! The syntax tree. Every node carries its byte span and every name its own
//! span. The tree may be partial: the parser keeps what it could read around
//! errors, so every consumer must accept missing pieces.

use smol_str::SmolStr;

use super::Span;

/// A name as written. Its text is a `SmolStr`: a name up to 23 bytes (nearly
/// every one) lives inline, and a copy of a longer one shares it, so the
/// tree and the model that copies names from it allocate nothing per name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: SmolStr,
    pub span: Span,
}

impl Name {
    pub fn new(text: impl AsRef<str>, span: Span) -> Name {
        Name {
            text: SmolStr::new(text),
            span,
        }
    }
}

/// The `///` lines directly above a node, joined with newlines, without the
/// slashes and one leading space.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Docs {
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceFile {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Table(Table),
    Entity(Entity),
    Pattern(Pattern),
}

impl Item {
    pub fn span(&self) -> Span {
        match self {
            Item::Table(t) => t.span,
            Item::Entity(e) => e.span,
            Item::Pattern(p) => p.span,
        }
    }

    pub fn name(&self) -> &Name {
        match self {
            Item::Table(t) => &t.name,
            Item::Entity(e) => &e.name,
            Item::Pattern(p) => &p.name,
        }
    }

    pub fn keyword(&self) -> &'static str {
        match self {
            Item::Table(_) => "table",
            Item::Entity(_) => "entity",
            Item::Pattern(_) => "pattern",
        }
    }
}

// ---------- tables ----------

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub span: Span,
    pub docs: Option<Box<Docs>>,
    pub name: Name,
    pub keys: Vec<KeyDecl>,
    pub indexes: Vec<IndexDecl>,
    pub delimiters: Vec<DelimiterDecl>,
    /// `ttl expiresAt`: more than one is reported by the checker.
    pub ttls: Vec<TtlDecl>,
}

/// `key pk, sk`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyDecl {
    pub span: Span,
    pub partition: KeyPart,
    pub sort: Option<KeyPart>,
}

impl KeyDecl {
    /// Every key attribute named, partition first.
    pub fn attrs(&self) -> impl Iterator<Item = &KeyAttr> {
        KeyPart::both(&self.partition, &self.sort)
    }
}

/// One side of a key: `pk`, or a list `[tenantId, region]` (a GSI key
/// composed of several attributes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyPart {
    /// At least one.
    pub attrs: Vec<KeyAttr>,
    /// The brackets, when written as a list (even of one attribute).
    pub list: Option<Span>,
}

impl KeyPart {
    pub fn single(attr: KeyAttr) -> KeyPart {
        KeyPart {
            attrs: vec![attr],
            list: None,
        }
    }

    pub fn first(&self) -> &KeyAttr {
        &self.attrs[0]
    }

    /// The attributes of a partition side and an optional sort side.
    fn both<'a>(partition: &'a KeyPart, sort: &'a Option<KeyPart>) -> impl Iterator<Item = &'a KeyAttr> {
        partition.attrs.iter().chain(sort.iter().flat_map(|s| &s.attrs))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyAttr {
    pub name: Name,
    /// `None` when not written: a string key.
    pub ty: Option<(KeyType, Span)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyType {
    String,
    Number,
    Binary,
}

impl KeyType {
    pub fn from_word(word: &str) -> Option<KeyType> {
        match word {
            "string" => Some(KeyType::String),
            "number" => Some(KeyType::Number),
            "binary" => Some(KeyType::Binary),
            _ => None,
        }
    }
}

/// `[local] index gsi1 (gsi1pk, gsi1sk) [projection]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexDecl {
    pub span: Span,
    pub docs: Option<Box<Docs>>,
    pub local: bool,
    pub name: Name,
    pub partition: KeyPart,
    pub sort: Option<KeyPart>,
    pub projection: Projection,
}

impl IndexDecl {
    /// Every key attribute named, partition first.
    pub fn attrs(&self) -> impl Iterator<Item = &KeyAttr> {
        KeyPart::both(&self.partition, &self.sort)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Projection {
    /// Not written: all attributes.
    #[default]
    Default,
    All(Span),
    KeysOnly(Span),
    Include(Span, Vec<Name>),
}

/// `ttl expiresAt`: the attribute DynamoDB's Time to Live reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TtlDecl {
    pub span: Span,
    pub attribute: Name,
}

/// `delimiter "#"`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DelimiterDecl {
    pub span: Span,
    pub value: StringLit,
}

// ---------- entities ----------

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entity {
    pub span: Span,
    pub docs: Option<Box<Docs>>,
    pub name: Name,
    /// `in Table`
    pub table: Option<Name>,
    /// `~2KB`: the typical item size.
    pub size: Option<SizeHint>,
    /// `~2000/s`: how many items of this entity are written per second.
    pub rate: Option<RateHint>,
    pub attributes: Vec<Attribute>,
    /// Key templates written directly in the entity body (one item).
    pub keys: Vec<KeyTemplate>,
    /// `item { ... }` shapes (several items, e.g. an adjacency list).
    pub items: Vec<ItemShape>,
}

/// `userId: id`, `role: enum(admin, member)?`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    pub span: Span,
    pub docs: Option<Box<Docs>>,
    pub name: Name,
    pub ty: TypeRef,
    pub optional: bool,
}

/// A type as written: `int(pad 6)`, `enum(a, b)`, `string(~1500)`. The
/// checker gives it meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeRef {
    pub span: Span,
    pub name: Name,
    pub args: Vec<TypeArg>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeArg {
    /// `pad 6`
    Pad { span: Span, width: u32 },
    /// `~1500`, `~2KB`
    Size(SizeHint),
    /// a bare word: an enum value
    Word(Name),
    /// a quoted enum value
    Str(StringLit),
    /// a whole number: `shard(10)`
    Count { span: Span, value: u64 },
    /// `of userId`: the attribute a calculated shard is computed from
    Of(Name),
}

impl TypeArg {
    pub fn span(&self) -> Span {
        match self {
            TypeArg::Pad { span, .. } | TypeArg::Count { span, .. } => *span,
            TypeArg::Size(hint) => hint.span,
            TypeArg::Word(word) | TypeArg::Of(word) => word.span,
            TypeArg::Str(s) => s.span,
        }
    }
}

/// `pk = "USER#{userId}"`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyTemplate {
    pub span: Span,
    pub docs: Option<Box<Docs>>,
    pub key: Name,
    pub template: StringLit,
}

/// `item { pk = "..."  sk = "..." }`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemShape {
    pub span: Span,
    pub keys: Vec<KeyTemplate>,
}

/// `~2KB`, `~200`: an estimate. Without a unit it is a plain count (items,
/// or bytes for sizes).
#[derive(Clone, Debug, PartialEq)]
pub struct SizeHint {
    pub span: Span,
    pub amount: f64,
    pub unit: SizeUnit,
}

impl Eq for SizeHint {}

/// `~2000/s`: an estimate of requests per second (writes of an entity,
/// reads of a pattern).
#[derive(Clone, Debug, PartialEq)]
pub struct RateHint {
    pub span: Span,
    pub per_second: f64,
    /// The number as written (`2000`, `2.5`).
    pub text: String,
}

impl Eq for RateHint {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeUnit {
    None,
    Bytes,
    KiloBytes,
    MegaBytes,
}

impl SizeHint {
    /// The hint in bytes (KB = 1024 bytes, as DynamoDB counts).
    pub fn bytes(&self) -> f64 {
        match self.unit {
            SizeUnit::None | SizeUnit::Bytes => self.amount,
            SizeUnit::KiloBytes => self.amount * 1024.0,
            SizeUnit::MegaBytes => self.amount * 1024.0 * 1024.0,
        }
    }
}

// ---------- strings and templates ----------

/// A string literal split into literal text and `{hole}`s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StringLit {
    /// Quotes included.
    pub span: Span,
    pub segments: Vec<Segment>,
}

impl StringLit {
    /// The text with escapes resolved and holes written as `{name}`.
    pub fn display(&self) -> String {
        let mut out = String::new();
        for segment in &self.segments {
            match segment {
                Segment::Literal { text, .. } => out.push_str(text),
                Segment::Hole { name, .. } => {
                    out.push('{');
                    out.push_str(&name.text);
                    out.push('}');
                }
            }
        }
        out
    }

    /// The value when the string has no holes.
    pub fn constant(&self) -> Option<String> {
        let mut out = String::new();
        for segment in &self.segments {
            match segment {
                Segment::Literal { text, .. } => out.push_str(text),
                Segment::Hole { .. } => return None,
            }
        }
        Some(out)
    }

    pub fn holes(&self) -> impl Iterator<Item = &Name> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Hole { name, .. } => Some(name),
            Segment::Literal { .. } => None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    /// Literal text (escapes resolved); the span covers the source bytes.
    Literal { text: SmolStr, span: Span },
    /// `{name}`: the span covers the braces, the name has its own.
    Hole { name: Name, span: Span },
}

impl Segment {
    pub fn span(&self) -> Span {
        match self {
            Segment::Literal { span, .. } | Segment::Hole { span, .. } => *span,
        }
    }
}

// ---------- patterns ----------

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub span: Span,
    pub docs: Option<Box<Docs>>,
    pub name: Name,
    pub known: Vec<Known>,
    pub returns: Vec<Returned>,
    pub modifiers: Vec<Modifier>,
    /// `= query ...`: the pinned Query.
    pub query: Option<Query>,
}

/// One value the caller knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    pub span: Span,
    pub attr: Name,
    pub kind: KnownKind,
    /// `at <= until: date`: the type of the caller's bound, when it is not
    /// the attribute's.
    pub bound_type: Option<Name>,
}

impl Known {
    /// The names the caller supplies for it: the attribute's own for an
    /// equality, the bounds' for a range, none for a fixed value.
    pub fn caller_names(&self) -> Vec<&str> {
        match &self.kind {
            KnownKind::Equal => vec![&self.attr.text],
            KnownKind::Fixed(_) => Vec::new(),
            KnownKind::Compare(_, bound) | KnownKind::BeginsWith(bound) => vec![&bound.text],
            KnownKind::Between(lo, hi) => vec![&lo.text, &hi.text],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnownKind {
    /// `tenantId`: the attribute by equality, under its own name.
    Equal,
    /// `status = "open"`
    Fixed(Literal),
    /// `at >= since`
    Compare(CompareOp, Name),
    /// `at between from and to`
    Between(Name, Name),
    /// `name begins_with prefix`
    BeginsWith(Name),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CompareOp {
    pub fn as_str(self) -> &'static str {
        match self {
            CompareOp::Eq => "=",
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
            CompareOp::Gt => ">",
            CompareOp::Ge => ">=",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    Str(StringLit),
    Number(String, Span),
    Bool(bool, Span),
    /// A bare word (an enum value).
    Word(Name),
}

impl Literal {
    pub fn span(&self) -> Span {
        match self {
            Literal::Str(s) => s.span,
            Literal::Number(_, span) | Literal::Bool(_, span) => *span,
            Literal::Word(name) => name.span,
        }
    }
}

/// `User`, `User[]`, `User[] ~200`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Returned {
    pub span: Span,
    pub entity: Name,
    pub many: bool,
    /// `~200`: the expected number of items.
    pub count: Option<SizeHint>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Modifier {
    /// `by at desc`
    OrderBy { span: Span, attr: Name, descending: bool },
    /// `consistent`
    Consistent(Span),
    /// `limit 10`
    Limit { span: Span, count: u64 },
    /// `get`, `batch get`, `scan`, `scan gsi1`: the read operation, when it
    /// is not a Query.
    Operation { span: Span, operation: Operation },
    /// `segments 4`: a parallel Scan's `TotalSegments`.
    Segments { span: Span, count: u64 },
    /// `where state = "open" ~20%`: a FilterExpression.
    Where(Filter),
    /// `~500/s`: how often the application makes this read.
    Rate(RateHint),
}

/// A read that is not a Query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operation {
    /// `get`: GetItem, the whole primary key known.
    Get,
    /// `batch get`: BatchGetItem, one whole primary key per item.
    BatchGet,
    /// `scan` (the table) or `scan gsi1` (an index).
    Scan(Option<Name>),
}

impl Modifier {
    pub fn span(&self) -> Span {
        match self {
            Modifier::OrderBy { span, .. }
            | Modifier::Consistent(span)
            | Modifier::Limit { span, .. }
            | Modifier::Operation { span, .. }
            | Modifier::Segments { span, .. } => *span,
            Modifier::Where(filter) => filter.span,
            Modifier::Rate(rate) => rate.span,
        }
    }
}

/// `where total >= minTotal and status in ("PAID", "SHIPPED") ~20%`: a
/// condition DynamoDB applies to the items the key condition read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    pub span: Span,
    pub expr: FilterExpr,
    /// `~20%`: the share of read items the filter keeps.
    pub keeps: Option<Share>,
}

/// `20%`, as a fraction (0.2).
#[derive(Clone, Debug, PartialEq)]
pub struct Share {
    pub span: Span,
    pub fraction: f64,
    /// The percentage as written (`20`, `2.5`).
    pub text: String,
}

impl Eq for Share {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FilterExpr {
    /// `total >= minTotal`, `state <> "closed"`
    Compare {
        span: Span,
        attr: Name,
        op: FilterOp,
        value: FilterValue,
    },
    /// `status in ("PAID", "SHIPPED")`
    In {
        span: Span,
        attr: Name,
        values: Vec<FilterValue>,
    },
    /// `begins_with(name, "A")`
    BeginsWith {
        span: Span,
        attr: Name,
        value: FilterValue,
    },
    /// `attribute_exists(a)` (`exists`), `attribute_not_exists(a)`
    Exists {
        span: Span,
        attr: Name,
        exists: bool,
    },
    And(Box<FilterExpr>, Box<FilterExpr>),
    Or(Box<FilterExpr>, Box<FilterExpr>),
    Not {
        span: Span,
        inner: Box<FilterExpr>,
    },
    /// `( ... )`, kept so that the printer writes it back.
    Group {
        span: Span,
        inner: Box<FilterExpr>,
    },
}

impl FilterExpr {
    pub fn span(&self) -> Span {
        match self {
            FilterExpr::Compare { span, .. }
            | FilterExpr::In { span, .. }
            | FilterExpr::BeginsWith { span, .. }
            | FilterExpr::Exists { span, .. }
            | FilterExpr::Not { span, .. }
            | FilterExpr::Group { span, .. } => *span,
            FilterExpr::And(a, b) | FilterExpr::Or(a, b) => a.span().cover(b.span()),
        }
    }

    /// Every attribute name the expression tests, in source order.
    pub fn attributes(&self) -> Vec<&Name> {
        let mut out = Vec::new();
        self.visit(&mut |e| match e {
            FilterExpr::Compare { attr, .. }
            | FilterExpr::In { attr, .. }
            | FilterExpr::BeginsWith { attr, .. }
            | FilterExpr::Exists { attr, .. } => out.push(attr),
            _ => {}
        });
        out
    }

    /// Every value on a right side, in source order.
    pub fn values(&self) -> Vec<(&Name, &FilterValue)> {
        let mut out = Vec::new();
        self.visit(&mut |e| match e {
            FilterExpr::Compare { attr, value, .. } | FilterExpr::BeginsWith { attr, value, .. } => {
                out.push((attr, value))
            }
            FilterExpr::In { attr, values, .. } => out.extend(values.iter().map(|v| (attr, v))),
            _ => {}
        });
        out
    }

    /// Calls `f` on this node and every node below it, parents first.
    pub fn visit<'a>(&'a self, f: &mut impl FnMut(&'a FilterExpr)) {
        f(self);
        match self {
            FilterExpr::And(a, b) | FilterExpr::Or(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            FilterExpr::Not { inner, .. } | FilterExpr::Group { inner, .. } => inner.visit(f),
            _ => {}
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FilterOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl FilterOp {
    pub fn as_str(self) -> &'static str {
        match self {
            FilterOp::Eq => "=",
            FilterOp::Ne => "<>",
            FilterOp::Lt => "<",
            FilterOp::Le => "<=",
            FilterOp::Gt => ">",
            FilterOp::Ge => ">=",
        }
    }
}

/// The right side of a filter comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FilterValue {
    /// A string, number, `true` or `false`.
    Literal(Literal),
    /// A bare word: a value of the attribute's `enum` when it is one, else
    /// a value the caller passes (`minTotal`).
    Word(Name),
}

impl FilterValue {
    pub fn span(&self) -> Span {
        match self {
            FilterValue::Literal(literal) => literal.span(),
            FilterValue::Word(name) => name.span,
        }
    }
}

/// `query Billing.gsi1 where gsi1pk = "..." and begins_with(gsi1sk, "...")`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    pub span: Span,
    pub table: Name,
    pub index: Option<Name>,
    pub conditions: Vec<Condition>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub span: Span,
    pub key: Name,
    pub kind: ConditionKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConditionKind {
    Compare(CompareOp, Operand),
    Between(Operand, Operand),
    BeginsWith(Operand),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A template: literal text and holes naming known values.
    Str(StringLit),
    Number(String, Span),
    /// A known value by name.
    Param(Name),
}

impl Operand {
    pub fn span(&self) -> Span {
        match self {
            Operand::Str(s) => s.span,
            Operand::Number(_, span) => *span,
            Operand::Param(name) => name.span,
        }
    }
}
