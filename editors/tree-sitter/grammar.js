/**
 * tree-sitter grammar for .dyno schemas (DynamoDB single-table designs).
 *
 * Written from grammar/dyno.ebnf, the normative grammar. Hard keywords are
 * `table`, `entity` and `pattern`; every other keyword is contextual: the
 * `word` rule makes a keyword a keyword only where the grammar expects one,
 * so an attribute may be called `key`, `limit` or `index`.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const commaSep1 = (rule) => seq(rule, repeat(seq(',', rule)));
// A parenthesised list as the dyno parser reads it: possibly empty, with an
// optional trailing comma.
const parenList = (rule) => seq('(', optional(seq(commaSep1(rule), optional(','))), ')');

module.exports = grammar({
  name: 'dyno',

  extras: ($) => [/[ \t\r\n\f]/, $.comment, $.doc_comment],

  word: ($) => $.identifier,

  rules: {
    source_file: ($) => repeat($._item),

    _item: ($) => choice($.table, $.entity, $.pattern),

    // ---------- lexical ----------

    identifier: (_) => /[\p{L}_][\p{L}\p{N}_]*/,

    // Digits, an optional fraction and an optional unit (2KB, 300B).
    number: (_) => /[0-9]+(\.[0-9]+)?([A-Za-z_][A-Za-z0-9_]*)?/,

    string: ($) =>
      seq(
        '"',
        repeat(choice($.string_content, $.escape_sequence, $.hole)),
        token.immediate('"'),
      ),
    string_content: (_) => token.immediate(prec(1, /[^"\\{}\r\n]+/)),
    escape_sequence: (_) => token.immediate(/\\[^\r\n]/),
    // A key-template hole: "USER#{userId}".
    hole: ($) =>
      seq(
        alias(token.immediate('{'), '{'),
        optional(field('name', alias(token.immediate(/[^{}"\\\r\n]+/), $.identifier))),
        alias(token.immediate('}'), '}'),
      ),

    // `/// ...` documents what follows; `//` and `////` are plain comments.
    doc_comment: (_) => token(/\/\/\/([^\/\r\n][^\r\n]*)?/),
    comment: (_) => token(/\/\/([^\/\r\n][^\r\n]*)?|\/\/\/\/[^\r\n]*/),

    // A table, index, key or attribute name: bare or quoted.
    _name: ($) => choice($.identifier, $.string),

    // ---------- tables ----------

    table: ($) =>
      seq(
        'table',
        field('name', $._name),
        field('body', $.table_body),
      ),
    table_body: ($) => seq('{', repeat($._table_member), '}'),

    _table_member: ($) =>
      choice(
        $.key_declaration,
        $.index_declaration,
        $.delimiter_declaration,
        $.ttl_declaration,
      ),

    key_declaration: ($) =>
      seq(
        'key',
        field('partition', $._key_part),
        optional(seq(',', field('sort', $._key_part))),
      ),

    _key_part: ($) => choice($.key_attribute, $.key_list),
    // Several attributes composing one key of a GSI: [tenantId, region].
    key_list: ($) =>
      seq('[', commaSep1($.key_attribute), optional(','), ']'),
    key_attribute: ($) =>
      seq(
        field('name', $._name),
        optional(seq(':', field('type', $.key_type))),
      ),
    key_type: (_) => choice('string', 'number', 'binary'),

    index_declaration: ($) =>
      seq(
        optional(field('local', 'local')),
        'index',
        field('name', $._name),
        '(',
        field('partition', $._key_part),
        optional(seq(',', field('sort', $._key_part))),
        ')',
        optional(field('projection', $.projection)),
      ),
    projection: ($) =>
      choice(
        'all',
        'keys_only',
        seq('include', parenList(field('attribute', $._name))),
      ),

    delimiter_declaration: ($) => seq('delimiter', field('value', $.string)),
    ttl_declaration: ($) => seq('ttl', field('attribute', $._name)),

    // ---------- entities ----------

    entity: ($) =>
      seq(
        'entity',
        field('name', $.identifier),
        optional(seq('in', field('table', $._name))),
        optional(field('size', $.size_hint)),
        optional(field('rate', $.rate_hint)),
        field('body', $.entity_body),
      ),
    entity_body: ($) =>
      seq('{', repeat(choice($.attribute, $.key_template, $.item_shape)), '}'),

    // `item` is a keyword only before `{`: an attribute may be called item.
    _member_name: ($) => choice($._name, alias('item', $.identifier)),

    attribute: ($) =>
      seq(
        field('name', $._member_name),
        ':',
        field('type', $.type),
        optional(field('optional', '?')),
      ),

    type: ($) =>
      seq(field('name', $.identifier), optional(field('arguments', $.type_arguments))),
    type_arguments: ($) => parenList($._type_argument),
    _type_argument: ($) =>
      choice(
        $.pad_argument,
        $.of_argument,
        $.size_hint,
        $.number,
        $.identifier,
        // `of` and `pad` are keywords only before what they take.
        alias('of', $.identifier),
        alias('pad', $.identifier),
        $.string,
      ),
    pad_argument: ($) => seq('pad', field('width', $.number)),
    of_argument: ($) => seq('of', field('attribute', $._name)),

    key_template: ($) =>
      seq(field('name', $._member_name), '=', field('template', $.string)),

    item_shape: ($) => seq('item', '{', repeat($.key_template), '}'),

    size_hint: ($) => seq('~', $.number),
    // ~2500/s: one token, so that `E[] ~20` and a rate hint after it need
    // no second token of look-ahead.
    rate_hint: (_) =>
      token(seq('~', /[ \t]*/, /[0-9]+(\.[0-9]+)?/, /[ \t]*/, '/', /[ \t]*/, /[A-Za-z_][A-Za-z0-9_]*/)),

    // ---------- access patterns ----------

    pattern: ($) =>
      seq(
        'pattern',
        field('name', $.identifier),
        field('parameters', $.parameters),
        '->',
        commaSep1(field('returns', $.returned)),
        repeat($._modifier),
        optional(field('query', $.pinned_query)),
      ),

    parameters: ($) => parenList($.known),

    // What the caller knows: equality, a fixed value, or a range.
    known: ($) =>
      seq(
        field('name', $._name),
        optional(
          choice(
            seq('=', field('value', $._literal)),
            seq(
              choice(
                seq(field('operator', $.comparison_operator), field('value', $.identifier)),
                seq('between', field('low', $.identifier), 'and', field('high', $.identifier)),
                seq(field('operator', 'begins_with'), field('value', $.identifier)),
              ),
              optional(seq(':', field('type', $.identifier))),
            ),
          ),
        ),
      ),

    returned: ($) =>
      seq(
        field('entity', $.identifier),
        optional(field('many', $.many)),
        optional(seq('~', field('count', $.number))),
      ),

    // `E[]`: many items of the entity.
    many: (_) => seq('[', ']'),

    _modifier: ($) =>
      choice(
        $.order_by,
        $.consistent,
        $.limit,
        $.get,
        $.batch_get,
        $.scan,
        $.segments,
        $.rate_hint,
        $.filter,
      ),
    order_by: ($) =>
      seq('by', field('attribute', $._name), optional(field('direction', choice('asc', 'desc')))),
    consistent: (_) => 'consistent',
    limit: ($) => seq('limit', $.number),
    get: (_) => 'get',
    batch_get: (_) => seq('batch', 'get'),
    // After `scan`, a modifier word is that modifier: quote such an index.
    scan: ($) => prec.right(seq('scan', optional(field('index', $._name)))),
    segments: ($) => seq('segments', $.number),

    filter: ($) =>
      seq(
        'where',
        field('condition', $._filter_expression),
        optional(seq('~', field('kept', $.number), '%')),
      ),
    _filter_expression: ($) =>
      choice(
        $.filter_or,
        $.filter_and,
        $.filter_not,
        $.filter_group,
        $.filter_call,
        $.filter_in,
        $.filter_comparison,
      ),
    filter_or: ($) =>
      prec.left(1, seq(field('left', $._filter_expression), 'or', field('right', $._filter_expression))),
    filter_and: ($) =>
      prec.left(2, seq(field('left', $._filter_expression), 'and', field('right', $._filter_expression))),
    filter_not: ($) => prec(3, seq('not', field('operand', $._filter_expression))),
    filter_group: ($) => seq('(', $._filter_expression, ')'),
    filter_call: ($) =>
      choice(
        seq(
          field('function', 'begins_with'),
          '(',
          field('attribute', $._name),
          ',',
          field('value', $._filter_value),
          ')',
        ),
        seq(
          field('function', choice('attribute_exists', 'attribute_not_exists')),
          '(',
          field('attribute', $._name),
          ')',
        ),
      ),
    filter_in: ($) =>
      seq(
        field('attribute', $._name),
        'in',
        '(',
        commaSep1(field('value', $._filter_value)),
        ')',
      ),
    filter_comparison: ($) =>
      seq(
        field('attribute', $._name),
        field('operator', choice('=', '<>', $.comparison_operator)),
        field('value', $._filter_value),
      ),
    _filter_value: ($) => $._literal,

    _literal: ($) => choice($.string, $.number, $.boolean, $.identifier),
    boolean: (_) => choice('true', 'false'),
    comparison_operator: (_) => choice('<', '<=', '>', '>='),

    // ---------- pinned queries ----------

    pinned_query: ($) =>
      seq(
        '=',
        'query',
        field('table', $._name),
        optional(seq('.', field('index', $._name))),
        'where',
        field('condition', $.condition),
        repeat(seq('and', field('condition', $.condition))),
      ),
    condition: ($) =>
      choice(
        seq(
          field('attribute', $._name),
          field('operator', choice('=', $.comparison_operator)),
          field('value', $._operand),
        ),
        seq(
          field('attribute', $._name),
          'between',
          field('low', $._operand),
          'and',
          field('high', $._operand),
        ),
        seq(
          field('function', 'begins_with'),
          '(',
          field('attribute', $._name),
          ',',
          field('value', $._operand),
          ')',
        ),
      ),
    _operand: ($) => choice($.string, $.number, $.identifier),
  },
});
