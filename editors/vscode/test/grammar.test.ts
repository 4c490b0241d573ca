// Tokenises every example, every ```dyno block of README.md and docs/*.md, and every
// syntax fixture (broken inputs included) with vscode-textmate, and checks
// what a reader of the file would expect to see highlighted.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';

import { Line, ROOT, scopesAt, shape, tokenize } from './textmate';

const ID = String.raw`[\p{L}_][\p{L}\p{N}_]*`;
const ATTRIBUTE_TYPES = new Set(
  'string id int decimal bool date datetime uuid ulid enum shard binary list map'.split(' '),
);
const KEY_TYPES = new Set(['string', 'number', 'binary']);
const CONTEXTUAL_KEYWORDS = new Set(
  (
    'key index local delimiter item in by asc desc consistent limit query where and between ' +
    'begins_with all keys_only include pad of true false'
  ).split(' '),
);

interface Source {
  name: string;
  text: string;
}

function dynoFiles(dir: string): Source[] {
  const full = path.join(ROOT, dir);
  return fs
    .readdirSync(full)
    .filter((f) => f.endsWith('.dyno'))
    .sort()
    .map((f) => ({ name: `${dir}/${f}`, text: fs.readFileSync(path.join(full, f), 'utf8') }));
}

function docBlocks(file: string): Source[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const blocks: Source[] = [];
  const fence = /^```dyno\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    const line = text.slice(0, m.index).split('\n').length + 1;
    blocks.push({ name: `${file}:${line}`, text: m[1] });
  }
  return blocks;
}

const EXAMPLES = dynoFiles('examples');
const DOC_BLOCKS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)]
  .filter((f) => f.endsWith('.md') && fs.existsSync(path.join(ROOT, f)))
  .sort()
  .flatMap(docBlocks);
const FIXTURES = dynoFiles('tests/fixtures/syntax');

/** Collects every failure of a file so one run shows them all. */
class Failures {
  private list: string[] = [];
  constructor(private name: string) {}
  check(ok: boolean, line: Line, column: number, message: string): void {
    if (!ok) {
      this.list.push(`${this.name}:${line.number}:${column + 1}: ${message}\n    ${line.text}`);
    }
  }
  assertNone(): void {
    assert.equal(this.list.length, 0, `${this.list.length} problem(s):\n${this.list.join('\n')}`);
  }
}

const has = (scopes: string[], prefix: string) => scopes.some((s) => s === prefix || s.startsWith(`${prefix}.`));
const show = (scopes: string[]) => scopes.slice(1).join(' ') || '(no scope)';

/** The scopes a quoted name takes instead of a string's. */
const NAME_SCOPES = ['entity.name.type', 'variable.other.property', 'variable.parameter'];
const isName = (scopes: string[]) => NAME_SCOPES.some((prefix) => has(scopes, prefix));

/** Checks that hold for every file, broken or not. */
function checkStructure(lines: Line[], f: Failures): void {
  for (const line of lines) {
    const { strings, comment, code } = shape(line.text);

    // An item keyword at the start of a line is at the top level: every
    // table, entity or pattern before it was closed (or recovered from).
    const item = /^\s*(table|entity|pattern)(?![\p{L}\p{N}_])/u.exec(code);
    if (item) {
      const at = item[0].length - item[1].length;
      const scopes = scopesAt(line, at);
      const expected = ['source.dyno', `meta.${item[1]}.dyno`, `storage.type.${item[1]}.dyno`];
      f.check(
        JSON.stringify(scopes) === JSON.stringify(expected),
        line,
        at,
        `\`${item[1]}\` should be a top-level item keyword, got ${scopes.join(' ')}`,
      );
    }

    // Comments: `///` (but not `////`) is a doc comment, `//` a comment,
    // to the end of the line.
    if (comment !== undefined) {
      const doc = line.text.startsWith('///', comment) && !line.text.startsWith('////', comment);
      const scope = doc ? 'comment.line.documentation.dyno' : 'comment.line.double-slash.dyno';
      for (const t of line.tokens.filter((t) => t.end > comment)) {
        f.check(t.scopes.includes(scope), line, t.start, `expected ${scope}, got ${show(t.scopes)}`);
      }
    }

    // Strings: quoted, with holes, escapes and the delimiter.
    for (const s of strings) {
      const begin = scopesAt(line, s.start);
      // A quoted name (`"GSI1-PK"`) is a string to the lexer and a name to
      // the grammar, from its opening quote to its closing one.
      if (isName(begin) && !has(begin, 'string.quoted.double')) {
        if (s.closed) {
          const end = scopesAt(line, s.end - 1);
          f.check(isName(end), line, s.end - 1, `expected the quoted name to end here, got ${show(end)}`);
        }
        continue;
      }
      f.check(
        has(begin, 'string.quoted.double') && has(begin, 'punctuation.definition.string.begin'),
        line,
        s.start,
        `expected a string to begin here, got ${show(begin)}`,
      );
      if (s.closed) {
        const end = scopesAt(line, s.end - 1);
        f.check(has(end, 'punctuation.definition.string.end'), line, s.end - 1, `expected the string to end here`);
      }
      const body = line.text.slice(s.start + 1, s.closed ? s.end - 1 : s.end);
      const offset = s.start + 1;
      const parts = new RegExp(String.raw`\\(.)|\{(${ID})\}|(#)`, 'gu');
      for (let m = parts.exec(body); m; m = parts.exec(body)) {
        const at = offset + m.index;
        if (m[1] !== undefined) {
          const scopes = scopesAt(line, at);
          const ok = '"\\{}'.includes(m[1])
            ? scopes.includes('constant.character.escape.dyno')
            : has(scopes, 'invalid.illegal');
          f.check(ok, line, at, `escape \\${m[1]}: got ${show(scopes)}`);
        } else if (m[2] !== undefined) {
          f.check(
            scopesAt(line, at).includes('punctuation.definition.template-expression.begin.dyno'),
            line,
            at,
            'expected the `{` of a hole',
          );
          const name = scopesAt(line, at + 1);
          f.check(name.includes('variable.other.hole.dyno'), line, at + 1, `hole name: got ${show(name)}`);
          f.check(
            scopesAt(line, at + m[0].length - 1).includes('punctuation.definition.template-expression.end.dyno'),
            line,
            at + m[0].length - 1,
            'expected the `}` of a hole',
          );
        } else {
          const scopes = scopesAt(line, at);
          f.check(scopes.includes('constant.character.delimiter.dyno'), line, at, `delimiter: got ${show(scopes)}`);
        }
      }
    }
  }
}

/** Positions of keywords among known values: `a between x and y`, `a begins_with p`, `a = true`. */
function rangeKeywords(code: string): Set<number> {
  const at = new Set<number>();
  const forms = [
    new RegExp(`${ID}\\s+(between)\\s+${ID}\\s+(and)\\s+${ID}`, 'gu'),
    new RegExp(`${ID}\\s+(begins_with)\\s+${ID}`, 'gu'),
    /=\s*(true|false)(?![\p{L}\p{N}_])/gu,
  ];
  for (const form of forms) {
    for (let m = form.exec(code); m; m = form.exec(code)) {
      let from = 0;
      for (const group of m.slice(1)) {
        const i = m[0].indexOf(group, from);
        at.add(m.index + i);
        from = i + group.length;
      }
    }
  }
  return at;
}

/** Checks for files that parse: every token means something. */
function checkValid(lines: Line[], f: Failures): void {
  for (const line of lines) {
    const { code } = shape(line.text);

    for (const t of line.tokens) {
      f.check(!has(t.scopes, 'invalid'), line, t.start, `unexpected ${show(t.scopes)} on ${JSON.stringify(t.text)}`);
      const inner = t.scopes[t.scopes.length - 1];
      if (t.text.trim() && !has(t.scopes, 'comment')) {
        f.check(
          inner !== 'source.dyno' && !inner.startsWith('meta.'),
          line,
          t.start,
          `${JSON.stringify(t.text.trim())} has no scope of its own (${show(t.scopes)})`,
        );
      }
    }

    const words = new RegExp(`(?<![\\p{L}\\p{N}_])${ID}`, 'gu');
    for (let m = words.exec(code); m; m = words.exec(code)) {
      const word = m[0];
      const at = m.index;
      const scopes = scopesAt(line, at);
      const after = code.slice(at + word.length);
      const before = code.slice(0, at);

      if (CONTEXTUAL_KEYWORDS.has(word)) {
        let keyword: boolean;
        if (has(scopes, 'meta.parameters')) {
          // Known values: only the range forms and boolean constants hold keywords.
          keyword = rangeKeywords(code).has(at);
        } else {
          // `key: id` and `item = "..."` (in an entity) name something.
          keyword = !(/^\s*:/.test(after) || (/^\s*=(?!=)/.test(after) && has(scopes, 'meta.entity')));
        }
        if (keyword) {
          f.check(
            ['keyword', 'storage', 'support.function', 'constant.language'].some((p) => has(scopes, p)),
            line,
            at,
            `\`${word}\` should be highlighted as a keyword, got ${show(scopes)}`,
          );
        } else {
          f.check(
            !has(scopes, 'keyword') && !has(scopes, 'storage') && !has(scopes, 'constant.language'),
            line,
            at,
            `\`${word}\` names something here, got ${show(scopes)}`,
          );
        }
      }

      if (/:\s*$/.test(before) && (ATTRIBUTE_TYPES.has(word) || KEY_TYPES.has(word))) {
        f.check(scopes.includes('support.type.primitive.dyno'), line, at, `type \`${word}\`: got ${show(scopes)}`);
      }

      const declared = /(?:^|[^\p{L}\p{N}_])(table|entity|pattern|index)\s+$/u.exec(before);
      if (declared) {
        const expected = {
          table: 'entity.name.type.table.dyno',
          entity: 'entity.name.type.entity.dyno',
          pattern: 'entity.name.function.pattern.dyno',
          index: 'entity.name.type.index.dyno',
        }[declared[1]]!;
        f.check(scopes.includes(expected), line, at, `name after \`${declared[1]}\`: got ${show(scopes)}`);
      }

      if (/^\s*:/.test(after) && /^\s*$/.test(before)) {
        f.check(
          scopes.includes('variable.other.property.attribute.dyno'),
          line,
          at,
          `attribute \`${word}\`: got ${show(scopes)}`,
        );
      }

      if (/^\s*(?:=(?!=)|<|>)/.test(after) && (has(scopes, 'meta.entity') || has(scopes, 'meta.query'))) {
        f.check(scopes.includes('variable.other.property.key.dyno'), line, at, `key \`${word}\`: got ${show(scopes)}`);
      }

      if (/(?:->|,)\s*$/.test(before) && has(scopes, 'meta.pattern') && !has(scopes, 'meta.parameters')) {
        if (!has(scopes, 'meta.query')) {
          f.check(
            scopes.includes('entity.name.type.entity.dyno'),
            line,
            at,
            `returned entity \`${word}\`: got ${show(scopes)}`,
          );
        }
      }
    }

    const sizes = /~\s*([0-9]+(?:\.[0-9]+)?)(B|KB|MB)?/g;
    for (let m = sizes.exec(code); m; m = sizes.exec(code)) {
      const tilde = scopesAt(line, m.index);
      f.check(tilde.includes('keyword.operator.approximately.dyno'), line, m.index, `\`~\`: got ${show(tilde)}`);
      const n = m.index + m[0].indexOf(m[1]);
      f.check(scopesAt(line, n).includes('constant.numeric.decimal.dyno'), line, n, 'expected a number');
      if (m[2]) {
        const u = n + m[1].length;
        f.check(scopesAt(line, u).includes('keyword.other.unit.dyno'), line, u, 'expected a size unit');
      }
    }

    // A rate hint: `~2500/s` (the number and `~` are checked above).
    const rates = /~\s*[0-9]+(?:\.[0-9]+)?\s*(\/)\s*(s)(?![\p{L}\p{N}_])/gu;
    for (let m = rates.exec(code); m; m = rates.exec(code)) {
      const slash = m.index + m[0].lastIndexOf('/');
      const per = scopesAt(line, slash);
      f.check(per.includes('keyword.operator.per.dyno'), line, slash, `\`/\` of a rate: got ${show(per)}`);
      const unit = m.index + m[0].length - 1;
      const s = scopesAt(line, unit);
      f.check(s.includes('keyword.other.unit.dyno'), line, unit, `the unit of a rate: got ${show(s)}`);
    }

    const operators = /->|<=|>=|[<>=?~]/g;
    for (let m = operators.exec(code); m; m = operators.exec(code)) {
      const scopes = scopesAt(line, m.index);
      f.check(has(scopes, 'keyword.operator'), line, m.index, `operator \`${m[0]}\`: got ${show(scopes)}`);
    }
  }
}

describe('valid sources tokenise cleanly', () => {
  assert.ok(EXAMPLES.length >= 3, 'examples/*.dyno not found');
  assert.ok(DOC_BLOCKS.length >= 10, 'no ```dyno blocks found in README.md and docs/*.md');
  for (const source of [...EXAMPLES, ...DOC_BLOCKS]) {
    test(source.name, async () => {
      const lines = await tokenize(source.text, source.name);
      const f = new Failures(source.name);
      checkStructure(lines, f);
      checkValid(lines, f);
      f.assertNone();
    });
  }
});

// Write shards and rate hints, valid (until an example uses them).
const SHARDS = `table Games {
  key pk, sk
  index gsi1 (gsi1pk, gsi1sk)
}

/// One score submitted to a game's daily leaderboard.
entity Score ~300B ~2500/s {
  gameId: id
  day: date
  userId: id
  points: int(pad 9)
  shard: shard(10)
  bucket: shard(4, of userId)

  pk     = "SCORE#{gameId}#{day}.{shard}"
  sk     = "{points}#{userId}"
  gsi1pk = "PLAYER#{gameId}#{day}.{bucket}"
  gsi1sk = "USER#{userId}"
}

pattern leaderboard(gameId, day) -> Score[] by points desc limit 10 ~200/s
pattern playerScore(gameId, day, userId) -> Score ~50/s // one shard
pattern top(gameId, day) -> Score[] where points > 100 ~10% ~5/s
`;

test('write shards and rate hints tokenise cleanly', async () => {
  const lines = await tokenize(SHARDS, 'shards');
  const f = new Failures('shards');
  checkStructure(lines, f);
  checkValid(lines, f);
  f.assertNone();
});

interface Expected {
  code: string;
  line: number;
  /** UTF-16 column, 0-based. */
  column: number;
  length: number;
}

/** The lexical errors that the checker reports for a fixture (its .expected file). */
function expectedErrors(fixture: Source, lines: Line[]): Expected[] {
  const file = path.join(ROOT, fixture.name.replace(/\.dyno$/, '.expected'));
  if (!fs.existsSync(file)) {
    return [];
  }
  const out: Expected[] = [];
  const rows = fs.readFileSync(file, 'utf8').split('\n');
  rows.forEach((row, i) => {
    const header = /^(?:error|warning)\[(E\d+)\]/.exec(row);
    const at = /^\s*--> .*:(\d+):(\d+)$/.exec(rows[i + 1] ?? '');
    if (!header || !at) {
      return;
    }
    const lineNo = Number(at[1]);
    const carets = rows
      .slice(i + 2, i + 6)
      .map((r) => /^\s*\|\s*(\^+)/.exec(r))
      .find((r) => r);
    const text = lines[lineNo - 1]?.text ?? '';
    const column = Array.from(text).slice(0, Number(at[2]) - 1).join('').length;
    out.push({ code: header[1], line: lineNo, column, length: carets ? carets[1].length : 1 });
  });
  return out;
}

const LEXICAL_SCOPES: Record<string, string> = {
  E001: 'invalid.illegal.character.dyno',
  E003: 'invalid.illegal.unclosed-hole.dyno',
  E004: 'invalid.illegal.unmatched-brace.dyno',
  E005: 'invalid.illegal.hole.dyno',
  E006: 'invalid.illegal.unknown-escape.dyno',
};

describe('syntax fixtures (broken inputs) tokenise and recover', () => {
  assert.ok(FIXTURES.length >= 10, 'tests/fixtures/syntax/*.dyno not found');
  for (const source of FIXTURES) {
    test(source.name, async () => {
      const lines = await tokenize(source.text, source.name);
      const f = new Failures(source.name);
      checkStructure(lines, f);

      // The grammar flags exactly what the lexer reports: every lexical
      // error has an invalid.illegal token, and every invalid.illegal token
      // lies inside a reported error.
      const errors = expectedErrors(source, lines);
      for (const e of errors.filter((e) => LEXICAL_SCOPES[e.code])) {
        const line = lines[e.line - 1];
        const scopes = scopesAt(line, e.column);
        f.check(scopes.includes(LEXICAL_SCOPES[e.code]), line, e.column, `${e.code}: got ${show(scopes)}`);
      }
      for (const line of lines) {
        for (const t of line.tokens.filter((t) => has(t.scopes, 'invalid'))) {
          const covered = errors.some(
            (e) => e.line === line.number && e.column <= t.start && t.start < e.column + e.length,
          );
          f.check(covered, line, t.start, `${show(t.scopes)} where the checker reports no error`);
        }
      }
      f.assertNone();
    });
  }
});

test('a file with every lexical error is flagged where the lexer flags it', async () => {
  const lines = await tokenize(
    ['entity E {', '  a: id $', '  pk = "A#{a"', '  sk = "A}B"', '  x = "{}"', '  y = "\\q"', '}'].join('\n'),
  );
  assert.ok(scopesAt(lines[1], 8).includes('invalid.illegal.character.dyno'));
  assert.ok(scopesAt(lines[2], 10).includes('invalid.illegal.unclosed-hole.dyno'));
  assert.ok(scopesAt(lines[3], 9).includes('invalid.illegal.unmatched-brace.dyno'));
  assert.ok(scopesAt(lines[4], 7).includes('invalid.illegal.hole.dyno'));
  assert.ok(scopesAt(lines[5], 7).includes('invalid.illegal.unknown-escape.dyno'));
});
