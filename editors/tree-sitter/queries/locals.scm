; Scopes and definitions for .dyno schemas: an entity's attributes are
; defined in its body and referenced from its key-template holes.

(source_file) @local.scope
(entity_body) @local.scope

(table name: (identifier) @local.definition)
(entity name: (identifier) @local.definition)
(pattern name: (identifier) @local.definition)
(attribute name: (identifier) @local.definition)

(hole name: (identifier) @local.reference)
(returned entity: (identifier) @local.reference)
(entity table: (identifier) @local.reference)
(pinned_query table: (identifier) @local.reference)
