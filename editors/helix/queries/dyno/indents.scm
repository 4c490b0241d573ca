; Indentation: members of a table, entity or item shape are indented one
; level; the closing brace goes back.

[
  (table_body)
  (entity_body)
  (item_shape)
  (parameters)
  (type_arguments)
  (key_list)
] @indent

[
  "}"
  ")"
  "]"
] @outdent
