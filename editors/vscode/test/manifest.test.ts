// The declarative parts of the extension: package.json contributions, the
// language configuration and the snippets.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { GRAMMAR_PATH, ROOT, tokenize } from './textmate';

const EXT = path.join(ROOT, 'editors', 'vscode');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(EXT, file), 'utf8'));
const pkg = read('package.json');

function version(range: string): number[] {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(range);
  assert.ok(m, `no version in ${range}`);
  return m.slice(1).map(Number);
}
const atLeast = (a: number[], b: number[]) => a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] >= b[2];

test('the language, grammar and snippets are contributed', () => {
  const [language] = pkg.contributes.languages;
  assert.equal(language.id, 'dyno');
  assert.deepEqual(language.extensions, ['.dyno']);
  assert.ok(fs.existsSync(path.join(EXT, language.configuration)));

  const [grammar] = pkg.contributes.grammars;
  assert.equal(grammar.language, 'dyno');
  assert.equal(grammar.scopeName, 'source.dyno');
  const packaged = path.join(EXT, grammar.path);
  assert.ok(fs.existsSync(packaged), `${grammar.path} is missing: run \`npm run sync-grammar\``);
  assert.equal(
    fs.readFileSync(packaged, 'utf8'),
    fs.readFileSync(GRAMMAR_PATH, 'utf8'),
    'the extension’s copy of the grammar is stale: run `npm run sync-grammar`',
  );
  assert.equal(JSON.parse(fs.readFileSync(GRAMMAR_PATH, 'utf8')).scopeName, 'source.dyno');

  const [snippets] = pkg.contributes.snippets;
  assert.equal(snippets.language, 'dyno');
  assert.ok(fs.existsSync(path.join(EXT, snippets.path)));
});

test('settings: dyno.server.path and dyno.trace.server', () => {
  const props = pkg.contributes.configuration.properties;
  assert.equal(props['dyno.server.path'].type, 'string');
  assert.equal(props['dyno.server.path'].default, '');
  assert.deepEqual(props['dyno.trace.server'].enum, ['off', 'messages', 'verbose']);
  assert.equal(props['dyno.trace.server'].default, 'off');
  assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, ['dyno.server.path']);
});

test('settings the server reads: dyno.severity, dyno.defaults, dyno.diffAgainstHead', () => {
  const props = pkg.contributes.configuration.properties;
  assert.deepEqual(props['dyno.severity'].additionalProperties.enum, ['off', 'error', 'warning', 'information', 'hint']);
  assert.deepEqual(props['dyno.severity'].default, {});
  // The size types the server takes (src/check/defaults.rs); any other key
  // is refused by the settings editor rather than ignored by the server.
  const sizes = props['dyno.defaults'].properties.sizes;
  assert.deepEqual(Object.keys(sizes.properties), ['string', 'id', 'int', 'decimal', 'binary', 'list', 'map']);
  assert.equal(sizes.additionalProperties, false);
  assert.equal(props['dyno.defaults'].properties.items.type, 'number');
  assert.equal(props['dyno.diffAgainstHead'].type, 'boolean');
  const source = fs.readFileSync(path.join(EXT, 'src', 'extension.ts'), 'utf8');
  assert.match(source, /configurationSection:\s*'dyno'/);
});

test('the client id matches the trace setting, and the server runs as `dyno lsp` over stdio', () => {
  const source = fs.readFileSync(path.join(EXT, 'src', 'extension.ts'), 'utf8');
  assert.match(source, /new LanguageClient\(\s*'dyno'/);
  assert.doesNotMatch(source, /transport\s*:/, 'an explicit stdio transport would append --stdio');
  for (const command of pkg.contributes.commands) {
    assert.ok(source.includes(`'${command.command}'`), `${command.command} is not registered`);
  }
});

test('engines.vscode is new enough for the client library and the API types', () => {
  const engine = version(pkg.engines.vscode);
  const client = JSON.parse(
    fs.readFileSync(path.join(EXT, 'node_modules', 'vscode-languageclient', 'package.json'), 'utf8'),
  );
  assert.ok(atLeast(engine, version(client.engines.vscode)), `vscode-languageclient needs ${client.engines.vscode}`);
  const types = JSON.parse(fs.readFileSync(path.join(EXT, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8'));
  assert.ok(atLeast(engine, version(types.version)), `@types/vscode ${types.version} is newer than the engine`);
});

test('semantic token scopes cover every token type the server emits', () => {
  const standard = new Set(
    (
      'namespace type class enum interface struct typeParameter parameter variable property enumMember ' +
      'event function method macro keyword modifier comment string number regexp operator decorator'
    ).split(' '),
  );
  const [mapping] = pkg.contributes.semanticTokenScopes;
  assert.equal(mapping.language, 'dyno');
  for (const [selector, scopes] of Object.entries<string[]>(mapping.scopes)) {
    assert.ok(standard.has(selector.split('.')[0]), `${selector}: not a standard semantic token type`);
    assert.ok(scopes.length > 0 && scopes.every((s) => s.endsWith('.dyno')), `${selector}: ${scopes}`);
  }
  // The server's legend (src/lsp/handlers/semantic_tokens.rs): each type it
  // can send has a mapping, so themes without semantic colours agree with
  // the grammar.
  const handler = path.join(ROOT, 'src', 'lsp', 'handlers', 'semantic_tokens.rs');
  if (fs.existsSync(handler)) {
    const source = fs.readFileSync(handler, 'utf8');
    const sent = [...source.matchAll(/SemanticTokenType::([A-Z_]+)/g)].map((m) =>
      m[1].toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
    );
    assert.ok(sent.length > 0, `no SemanticTokenType in ${handler}`);
    for (const type of sent) {
      assert.ok(type in mapping.scopes, `the server sends \`${type}\` tokens: map it in semanticTokenScopes`);
    }
  }
});

test('language configuration: comments, brackets, auto-closing (also inside strings), folding', () => {
  const config = read('language-configuration.json');
  assert.equal(config.comments.lineComment, '//');
  assert.deepEqual(
    config.brackets.map((b: string[]) => b.join('')),
    ['{}', '()', '[]'],
  );
  const pairs = new Map<string, { close: string; notIn?: string[] }>(
    config.autoClosingPairs.map((p: { open: string }) => [p.open, p]),
  );
  for (const [open, close] of [['{', '}'], ['(', ')'], ['[', ']'], ['"', '"']]) {
    assert.equal(pairs.get(open)?.close, close);
  }
  // `{` closes inside strings, for key-template holes ("USER#{userId}")...
  assert.ok(!(pairs.get('{')!.notIn ?? []).includes('string'));
  // ...and VS Code only auto-closes before one of these characters, so the
  // closing quote of the string must be one of them.
  assert.ok(config.autoCloseBefore.includes('"'));
  assert.ok(new RegExp(config.folding.markers.start).test('// region patterns'));
  assert.ok(new RegExp(config.folding.markers.end).test('// endregion'));

  const word = new RegExp(`^(?:${config.wordPattern})$`);
  for (const w of ['tenantId', 'gsi1pk', '_internal', 'Café', '2KB']) {
    assert.ok(word.test(w), w);
  }
  assert.ok(!word.test('USER#'));

  const indent = new RegExp(config.indentationRules.increaseIndentPattern);
  assert.ok(indent.test('entity User {'));
  assert.ok(indent.test('  item {'));
  assert.ok(!indent.test('  pk = "USER#{userId}"'));
  assert.ok(!indent.test('  item { pk = "A#{a}"  sk = "B" }'));
  assert.ok(new RegExp(config.indentationRules.decreaseIndentPattern).test('}'));
  assert.ok(new RegExp(config.onEnterRules[0].beforeText).test('/// A doc comment.'));
});

/** Fills a snippet body with its placeholders' defaults (first choice). */
function expand(body: string): string {
  const defaults = new Map<string, string>();
  const placeholder = /\$\{(\d+):([^${}]*)\}/g;
  const choice = /\$\{(\d+)\|([^|]*)\|\}/g;
  for (let m = placeholder.exec(body); m; m = placeholder.exec(body)) {
    if (!defaults.has(m[1])) defaults.set(m[1], m[2]);
  }
  for (let m = choice.exec(body); m; m = choice.exec(body)) {
    defaults.set(m[1], m[2].split(',')[0]);
  }
  return body
    .replace(placeholder, (_, _n, d) => d)
    .replace(choice, (_, _n, c) => c.split(',')[0])
    .replace(/\$\{(\d+)\}|\$(\d+)/g, (_, a, b) => defaults.get(a ?? b) ?? '')
    .replace(/\t/g, '  ');
}

test('every snippet expands to text the grammar reads without errors', async () => {
  const snippets = read('snippets/dyno.json');
  for (const prefix of ['table', 'entity', 'pattern']) {
    assert.ok(
      Object.values<{ prefix: string }>(snippets).some((s) => s.prefix === prefix),
      `no \`${prefix}\` snippet`,
    );
  }
  for (const [name, snippet] of Object.entries<{ prefix: string; body: string[] }>(snippets)) {
    let text = expand(snippet.body.join('\n'));
    assert.doesNotMatch(text, /\$/, `${name}: unexpanded ${text}`);
    if (/^(local )?index/.test(text)) text = `table T {\n  key pk, sk\n  ${text}\n}`;
    if (/^item/.test(text)) text = `entity E {\n  id: id\n  ${text}\n}`;
    const lines = await tokenize(text, `snippet ${name}`);
    for (const line of lines) {
      for (const t of line.tokens) {
        assert.ok(!t.scopes.some((s) => s.startsWith('invalid')), `${name}: ${t.text} is ${t.scopes.join(' ')}`);
      }
    }
  }
});

test('the manifest has what vsce and Open VSX need, and packaging goes through scripts/package.mjs', () => {
  // Open VSX takes the same .vsix (universal or per-platform): the namespace
  // is `publisher`, the extension `name`; both must be plain identifiers.
  assert.match(pkg.name, /^[a-z0-9][a-z0-9-]*$/);
  assert.match(pkg.publisher, /^[a-z0-9][a-z0-9-]*$/i);
  assert.match(pkg.version, /^\d+\.\d+\.\d+$/);
  assert.ok(pkg.displayName && pkg.description, 'displayName and description are shown by both marketplaces');
  assert.match(pkg.engines.vscode, /^\^\d+\.\d+\.\d+$/);
  assert.equal(pkg.main, './dist/extension.js');
  assert.equal(pkg.scripts.package, 'node scripts/package.mjs');
  assert.equal(pkg.scripts['package:universal'], 'node scripts/package.mjs --universal');
  // server/ is packaged only when package.mjs has just put a binary there.
  const ignore = fs.readFileSync(path.join(EXT, '.vscodeignore'), 'utf8');
  assert.match(ignore, /^!server\/dyno$/m);
  assert.match(ignore, /^!server\/dyno\.exe$/m);
});
