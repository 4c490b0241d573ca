//! Diagnostics shared by every layer: the syntax layer and the checker
//! produce them, the CLI renders them and the language server publishes them.

pub mod github;
pub mod render;
pub mod sarif;

use crate::syntax::{FileId, FileSpan, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Hint => "hint",
        }
    }
}

/// Declares every diagnostic code once: its stable name, severity and title.
/// `docs/diagnostics.md` documents each, and a test checks that it does.
macro_rules! codes {
    ($($variant:ident = $code:literal, $severity:ident, $title:literal;)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($variant,)* }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable code printed to users, e.g. `E002`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// A short title, used as the heading in docs/diagnostics.md.
            pub fn title(self) -> &'static str {
                match self { $(Code::$variant => $title,)* }
            }

            /// Whether the lexer or parser reports it (`E0xx`), as opposed
            /// to the checker.
            pub fn is_syntax(self) -> bool {
                self.as_str().as_bytes().get(1) == Some(&b'0')
            }

            pub fn parse(code: &str) -> Option<Code> {
                match code { $($code => Some(Code::$variant),)* _ => None }
            }
        }
    };
}

codes! {
    UnknownCharacter = "E001", Error, "unknown character";
    UnterminatedString = "E002", Error, "unterminated string";
    UnclosedHole = "E003", Error, "unclosed `{` in a key template";
    UnmatchedBrace = "E004", Error, "unmatched `}` in a key template";
    InvalidHole = "E005", Error, "invalid template hole";
    InvalidEscape = "E006", Error, "invalid escape in a string";
    UnexpectedToken = "E010", Error, "syntax error";
    UnclosedDelimiter = "E011", Error, "unclosed delimiter";
    InvalidNumber = "E012", Error, "invalid number or size";
    UnknownKeyType = "E013", Error, "unknown key attribute type";
    InvalidQuotedName = "E014", Error, "invalid quoted name";
    UnknownHoleAttribute = "E101", Error, "unknown attribute in a key template";
    NotAKeyAttribute = "E102", Error, "template assigned to something that is not a key";
    DuplicateName = "E103", Error, "duplicate name";
    MissingPartitionKey = "E104", Error, "item without a partition key";
    PartialIndexKey = "E105", Error, "index key written only partly";
    UnknownEntity = "E106", Error, "unknown entity";
    UnknownValue = "E107", Error, "unknown value in a pinned query";
    UnknownTableOrIndex = "E108", Error, "unknown table or index";
    UnknownType = "E109", Error, "unknown attribute type";
    NoTable = "E110", Error, "entity without a table";
    InvalidTypeArguments = "E111", Error, "invalid type arguments";
    UnknownPatternAttribute = "E112", Error, "known value that no returned entity has";
    InvalidTable = "E113", Error, "invalid table declaration";
    UnkeyableHole = "E114", Error, "attribute type that cannot be part of a key";
    NumberKeyTemplate = "E115", Error, "template for a number key";
    InvalidName = "E116", Error, "table or index name DynamoDB rejects";
    TtlNotANumber = "E117", Error, "TTL attribute that is not a number";
    MultiAttributeKey = "E118", Error, "key of several attributes DynamoDB rejects";
    KeyAttributeType = "E119", Error, "plain attribute whose type is not its key's";
    TooManyGlobalIndexes = "W101", Warning, "more global indexes than the default quota";
    NoSingleQuery = "E201", Error, "no single Query serves the pattern";
    ExtraEntities = "E202", Error, "key condition also matches undeclared entities";
    UnmatchedValue = "E203", Error, "key condition value that no item can have";
    KeyConditionRule = "E204", Error, "key condition DynamoDB rejects";
    ConsistentGsi = "E205", Error, "strongly consistent read on a global index";
    MissingEntities = "E206", Error, "pinned query that misses declared items";
    MixedTables = "E207", Error, "pattern over several tables";
    TooManyRanges = "E208", Error, "more than one range";
    InvalidFixedValue = "E209", Error, "fixed value outside the attribute's type";
    UnpinnedValue = "E210", Error, "key condition that does not pin a known value";
    ReadOperationRule = "E221", Error, "read operation DynamoDB does not offer";
    GetWithoutKey = "E222", Error, "GetItem without the whole primary key";
    BatchTooLarge = "E223", Error, "BatchGetItem over 100 keys";
    FilterTypeMismatch = "E231", Error, "filter value of another type than its attribute";
    FilterOnKey = "E232", Error, "filter on a key attribute of the Query";
    FilterRemovesDeclared = "E233", Error, "filter that removes every item of a declared entity";
    FilterNotProjected = "E234", Error, "filter on an attribute a global index does not project";
    CoarseBound = "W203", Warning, "date bound on a datetime range";
    IndexNotUnique = "W202", Warning, "single item from an index key that is not unique";
    FilteredEntities = "W231", Warning, "key condition reads undeclared entities that the filter removes";
    LimitBeforeFilter = "W232", Warning, "limit on a filtered pattern";
    Overwrite = "E301", Error, "two items can have the same primary key";
    KeyTooLong = "E302", Error, "key value longer than DynamoDB allows";
    TypeTagPrefix = "W301", Warning, "type tag that is a prefix of another";
    MixedDelimiter = "W302", Warning, "delimiter other than the table's";
    UnsortedSortValue = "W303", Warning, "sort key value that does not sort by value";
    HotPartition = "W304", Warning, "partition key value over a partition's throughput";
    ExpiredItemsRead = "H201", Hint, "pattern that can return expired items";
    ScanReadsAll = "H221", Hint, "Scan: every item of a table or index is read";
    UnusedEntity = "H301", Hint, "entity no pattern returns";
    UnusedIndex = "H302", Hint, "index no pattern uses";
}

/// One way to fix a diagnostic: text edits, each in its file (a fix for a
/// pattern may add an index to a table declared elsewhere). Edits do not
/// overlap; an empty span inserts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, as an editor shows it: "change to `userId`".
    pub title: String,
    pub edits: Vec<(FileSpan, String)>,
}

impl Fix {
    pub fn new(title: impl Into<String>, edits: Vec<(FileSpan, String)>) -> Fix {
        Fix {
            title: title.into(),
            edits,
        }
    }

    /// One replacement.
    pub fn replace(title: impl Into<String>, at: FileSpan, text: impl Into<String>) -> Fix {
        Fix::new(title, vec![(at, text.into())])
    }
}

/// A secondary location that explains a diagnostic ("collides with ...").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    /// Often in another file than the diagnostic.
    pub at: FileSpan,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// The file the diagnostic is in, and where in it.
    pub file: FileId,
    pub span: Span,
    pub message: String,
    /// A short note drawn under the caret.
    pub label: Option<String>,
    pub related: Vec<Related>,
    /// How to fix it, when there is something to say.
    pub help: Option<String>,
    /// Fixes an editor can apply, when the checker knows them exactly.
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    pub fn new(code: Code, at: FileSpan, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.severity(),
            file: at.file,
            span: at.span,
            message: message.into(),
            label: None,
            related: Vec::new(),
            help: None,
            fixes: Vec::new(),
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(label.into());
        self
    }

    pub fn location(&self) -> FileSpan {
        self.file.at(self.span)
    }

    pub fn with_related(mut self, at: FileSpan, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            at,
            message: message.into(),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fixes.push(fix);
        self
    }

    /// Every fix given; `None` (an `Option<Fix>`) adds nothing.
    pub fn with_fixes(mut self, fixes: impl IntoIterator<Item = Fix>) -> Diagnostic {
        self.fixes.extend(fixes);
        self
    }
}
