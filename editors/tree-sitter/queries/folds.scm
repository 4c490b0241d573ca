; Folds: bodies, item shapes, type argument lists and long patterns.

[
  (table_body)
  (entity_body)
  (item_shape)
  (parameters)
  (pattern)
] @fold
