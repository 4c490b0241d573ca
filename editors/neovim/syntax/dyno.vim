" Vim syntax file
" Language:   dyno — DynamoDB single-table schemas (*.dyno)
" Grammar:    grammar/dyno.ebnf in the dyno repository
"
" Highlighting without tree-sitter. The language server adds diagnostics,
" hover and the rest; this file only colours the text.
"
" Only `table`, `entity` and `pattern` are reserved. Every other keyword is
" contextual, so a word followed by `:` or `=` is a name (`key: id`,
" `item = "..."`), never a keyword.

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpoptions
set cpoptions&vim

syntax case match
syntax iskeyword @,48-57,_,192-255

" An identifier: a letter or `_`, then letters, digits and `_` (any non-ASCII
" character counts as a letter here).
let s:id = '\%(\a\|_\|[^\x00-\x7f]\)\%(\w\|[^\x00-\x7f]\)*'
" Not followed by `:` or `=` (which would make the word a name).
let s:kw = '\>\%(\s*[:=]\)\@!'

" ---------------------------------------------------------------- errors
" Characters that start no token. (Defined first: everything else wins.)
syntax match dynoError "[$@!^&*;'|\\`#]"

" ------------------------------------------------------------- operators
syntax match dynoOperator "->\|<=\|>=\|<>\|[<>=?~%]"

" --------------------------------------------------------------- numbers
syntax match dynoNumber "\<\d\+\%(\.\d\+\)\=\%(B\|KB\|MB\)\=\>"
" A rate hint, `~2500/s`: the `/` (never `//`, a comment) and its unit.
syntax match dynoOperator "\%(\d\s*\)\@<=/\%(/\)\@!"

" ------------------------------------------------------ contextual words
execute 'syntax match dynoKeyword "\<\%(key\|delimiter\|ttl\|item\|by\|limit\|pad\|all\|keys_only\|include\)' . s:kw . '"'
execute 'syntax match dynoKeyword "\<index' . s:kw . '" nextgroup=dynoIndexName skipwhite skipnl'
execute 'syntax match dynoKeyword "\<in' . s:kw . '" nextgroup=dynoTypeName skipwhite skipnl'
execute 'syntax match dynoModifier "\<\%(local\|asc\|desc\|consistent\)' . s:kw . '"'
" Reads other than a Query; `scan` may name the index it reads.
execute 'syntax match dynoOperation "\<\%(get\|batch\|segments\)' . s:kw . '"'
execute 'syntax match dynoOperation "\<scan' . s:kw . '" nextgroup=dynoScanIndex skipwhite'
execute 'syntax match dynoScanIndex "\<\%(\%(by\|consistent\|limit\|get\|batch\|scan\|segments\|where\)' . s:kw . '\)\@!' . s:id . '" contained'
execute 'syntax match dynoQueryKeyword "\<where' . s:kw . '"'
execute 'syntax match dynoQueryKeyword "\<query' . s:kw . '" nextgroup=dynoTypeName skipwhite skipnl'
execute 'syntax match dynoOperatorWord "\<\%(and\|or\|not\|between\|begins_with\)' . s:kw . '"'
syntax match dynoFunction "\<\%(begins_with\|attribute_exists\|attribute_not_exists\)\ze\s*("
execute 'syntax match dynoBoolean "\<\%(true\|false\)' . s:kw . '"'

" Types, after the `:` of an attribute or a key attribute.
syntax match dynoType "\%(:\s*\)\@<=\<\%(string\|id\|int\|decimal\|bool\|date\|datetime\|epoch\|uuid\|ulid\|enum\|shard\|binary\|list\|map\|number\)\>"
" `shard(4, of userId)`: `of` before a name, after `(` or `,` (alone it is an
" enum word), then the attribute the shard is computed from.
execute 'syntax match dynoKeyword +\%([(,]\s*\)\@<=\<of\>\ze\s\+\%(' . s:id . '\|"\)+ nextgroup=dynoShardSource skipwhite'
execute 'syntax match dynoShardSource "' . s:id . '" contained'

" ----------------------------------------------------------------- names
execute 'syntax match dynoTypeName "' . s:id . '" contained'
execute 'syntax match dynoPatternName "' . s:id . '" contained'
execute 'syntax match dynoIndexName "' . s:id . '" contained'
" `Table.index` in a pinned query.
execute 'syntax match dynoIndexName "\%(\.\s*\)\@<=' . s:id . '"'

" Attribute names (before `:`), key names (before `=` in an entity, an item
" or a pinned query's condition).
execute 'syntax match dynoAttribute "\<' . s:id . '\ze\s*:"'
execute 'syntax match dynoKeyName +\%(^\s*\|{\s*\|"\s\+\|\<\%(where\|and\|or\|not\)\s\+\|(\s*\)\@<=\<' . s:id . '\ze\s*\%(=\%(=\)\@!\|<\|>\|,\s*"\|\<between\>\)+'

" The entities a pattern returns: from `->` to its modifiers, `=` or a comment.
syntax region dynoReturns matchgroup=dynoOperator start="->" end="\ze\<\%(by\|consistent\|limit\|get\|batch\|scan\|segments\|where\)\>" end="\ze=" end="\ze//" end="$" oneline contains=dynoReturnEntity,dynoNumber,dynoOperator,dynoRateUnit
execute 'syntax match dynoReturnEntity "' . s:id . '" contained'
" The unit of a rate hint, `~2500/s`; after dynoReturnEntity, so that the `s`
" of `-> Score ~50/s` is a unit, not an entity.
syntax match dynoRateUnit "\%(\d\s*/\s*\)\@<=s\>"

" Reserved words, with the name that follows them.
syntax keyword dynoItemKeyword table entity nextgroup=dynoTypeName skipwhite skipnl
syntax keyword dynoPatternKeyword pattern nextgroup=dynoPatternName skipwhite skipnl

" --------------------------------------------------------------- strings
syntax region dynoString start=+"+ skip=+\\\\\|\\"+ end=+"+ end=+$+ oneline contains=dynoBadEscape,dynoEscape,dynoBadHole,dynoHole,dynoUnclosedHole,dynoDelimiter
syntax match dynoBadEscape +\\.+ contained
syntax match dynoEscape +\\["\\{}]+ contained
syntax match dynoUnclosedHole +[{}]+ contained
syntax match dynoBadHole +{[^{}"]*}+ contained
execute 'syntax match dynoHole +{' . s:id . '}+ contained contains=dynoHoleBrace'
syntax match dynoHoleBrace +[{}]+ contained
syntax match dynoDelimiter +#+ contained

" -------------------------------------------------------------- comments
syntax keyword dynoTodo contained TODO FIXME XXX NOTE
syntax match dynoComment "//.*$" contains=dynoTodo,@Spell
" `///` documents the next item or member; `////` is a plain comment.
syntax match dynoDocComment "///\%(/\)\@!.*$" contains=dynoTodo,@Spell

syntax sync minlines=20

highlight default link dynoComment Comment
highlight default link dynoDocComment SpecialComment
highlight default link dynoTodo Todo
highlight default link dynoItemKeyword Structure
highlight default link dynoPatternKeyword Structure
highlight default link dynoKeyword Keyword
highlight default link dynoModifier StorageClass
highlight default link dynoOperation Statement
highlight default link dynoScanIndex Identifier
highlight default link dynoQueryKeyword Statement
highlight default link dynoOperatorWord Keyword
highlight default link dynoFunction Function
highlight default link dynoBoolean Boolean
highlight default link dynoType Type
highlight default link dynoTypeName Type
highlight default link dynoReturnEntity Type
highlight default link dynoPatternName Function
highlight default link dynoIndexName Identifier
highlight default link dynoAttribute Identifier
highlight default link dynoKeyName Identifier
highlight default link dynoString String
highlight default link dynoEscape SpecialChar
highlight default link dynoHole Identifier
highlight default link dynoHoleBrace Special
highlight default link dynoDelimiter Special
highlight default link dynoBadEscape Error
highlight default link dynoBadHole Error
highlight default link dynoUnclosedHole Error
highlight default link dynoNumber Number
highlight default link dynoRateUnit Number
highlight default link dynoShardSource Identifier
highlight default link dynoOperator Operator
highlight default link dynoError Error

let b:current_syntax = 'dyno'

let &cpoptions = s:cpo_save
unlet s:cpo_save
