; Zed only: the outline panel and symbol search.

(table
  "table" @context
  name: (_) @name) @item

(index_declaration
  "index" @context
  name: (_) @name) @item

(entity
  "entity" @context
  name: (identifier) @name) @item

(attribute
  name: (_) @name) @item

(pattern
  "pattern" @context
  name: (identifier) @name) @item

(doc_comment) @annotation
