; Highlights for .dyno schemas (tree-sitter-dyno).

(comment) @comment
(doc_comment) @comment.documentation

[
  "table"
  "entity"
  "pattern"
  "item"
  "query"
] @keyword

[
  "key"
  "index"
  "local"
  "delimiter"
  "ttl"
  "include"
  "in"
  "by"
  "limit"
  "get"
  "batch"
  "scan"
  "segments"
  "where"
  "pad"
  "of"
] @keyword

[
  "all"
  "keys_only"
  "asc"
  "desc"
] @keyword.modifier

[
  "between"
  "and"
  "or"
  "not"
  "begins_with"
  "attribute_exists"
  "attribute_not_exists"
] @keyword.operator

(consistent) @keyword

(key_type) @type.builtin
(type name: (identifier) @type)

(table name: (identifier) @type.definition)
(table name: (string) @type.definition)
(entity name: (identifier) @type.definition)
(entity table: (_) @type)
(returned entity: (identifier) @type)
(pattern name: (identifier) @function)
(pinned_query table: (_) @type)
(pinned_query index: (_) @property)
(index_declaration name: (_) @property)

(attribute name: (_) @variable.member)
(key_template name: (_) @variable.member)
(key_attribute name: (_) @variable.member)
(known name: (_) @variable.parameter)

(string) @string
(escape_sequence) @string.escape
(hole
  "{" @punctuation.special
  name: (identifier) @variable
  "}" @punctuation.special)

; Helix's names for numbers and booleans; other editors fall back to
; @constant.
(number) @constant.numeric
(size_hint) @constant.numeric
(rate_hint) @constant.numeric
(boolean) @constant.builtin.boolean

[
  "="
  "<>"
  "->"
  "?"
  "~"
  "%"
  (comparison_operator)
] @operator

[
  "("
  ")"
  "["
  "]"
] @punctuation.bracket

(table_body ["{" "}"] @punctuation.bracket)
(entity_body ["{" "}"] @punctuation.bracket)
(item_shape ["{" "}"] @punctuation.bracket)

[
  ","
  ":"
  "."
] @punctuation.delimiter
