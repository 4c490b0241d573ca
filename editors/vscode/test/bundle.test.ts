// Loads the bundled extension (dist/extension.js, what the .vsix ships) with
// a stand-in for the `vscode` module, and activates it where no server can
// be found: the bundle must load, register its commands, and show an error
// that names every place it looked.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

import { ROOT } from './textmate';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Module = require('node:module');

const BUNDLE = path.join(ROOT, 'editors', 'vscode', 'dist', 'extension.js');

/** Anything the client library touches at load time: callable, constructible, endless. */
function anything(): unknown {
  const target = function () {};
  return new Proxy(target, {
    get: (_t, key) => (key === Symbol.toPrimitive ? () => '' : key === 'then' ? undefined : anything()),
    apply: () => anything(),
    construct: () => anything() as object,
  });
}

test('the bundle loads and reports a missing server naming all three places', async (t) => {
  assert.ok(fs.existsSync(BUNDLE), `${BUNDLE} is missing: run \`npm run bundle\``);
  const errors: string[] = [];
  const commands: string[] = [];
  const disposable = { dispose() {} };
  const vscode = new Proxy(
    {
      window: {
        createOutputChannel: () => ({ appendLine() {}, append() {}, show() {}, dispose() {} }),
        showErrorMessage: async (message: string) => {
          errors.push(message);
          return undefined;
        },
        showWarningMessage: async () => undefined,
      },
      commands: {
        registerCommand: (id: string) => {
          commands.push(id);
          return disposable;
        },
        executeCommand: async () => undefined,
      },
      workspace: {
        getConfiguration: () => ({ get: () => undefined }),
        onDidChangeConfiguration: () => disposable,
        workspaceFolders: undefined,
      },
    } as Record<string | symbol, unknown>,
    { get: (target, key) => (key in target ? target[key] : anything()) },
  );

  const originalLoad = Module._load;
  Module._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode : originalLoad.call(this, request, ...rest);
  };
  const originalPath = process.env.PATH;
  const extensionPath = fs.mkdtempSync(path.join(os.tmpdir(), 'dyno-ext-'));
  t.after(() => {
    Module._load = originalLoad;
    process.env.PATH = originalPath;
    fs.rmSync(extensionPath, { recursive: true, force: true });
  });

  const extension = require(BUNDLE);
  assert.equal(typeof extension.activate, 'function');
  assert.equal(typeof extension.deactivate, 'function');

  process.env.PATH = path.join(extensionPath, 'no-such-dir');
  await extension.activate({ subscriptions: [], extensionPath });
  assert.deepEqual(commands.sort(), ['dyno.restartServer', 'dyno.showOutput']);
  assert.equal(errors.length, 1, `expected one error, got ${JSON.stringify(errors)}`);
  assert.match(errors[0], /dyno\.server\.path/);
  assert.ok(errors[0].includes(path.join(extensionPath, 'server', 'dyno')), errors[0]);
  assert.match(errors[0], /not on PATH/);
  await extension.deactivate();
});
