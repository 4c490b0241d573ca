// The server lookup: dyno.server.path, then the bundled binary, then PATH.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';

import {
  SERVER_ARGS,
  bundledServerPath,
  expandConfiguredPath,
  fallbackWarning,
  findServer,
  notFoundMessage,
} from '../src/server';

let tmp: string;
let extensionPath: string;

function executable(file: string, mode = 0o755): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n');
  fs.chmodSync(file, mode);
  return file;
}

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dyno-server-'));
  extensionPath = path.join(tmp, 'extension');
  fs.mkdirSync(extensionPath);
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('the server is started as `dyno lsp`', () => {
  assert.deepEqual(SERVER_ARGS, ['lsp']);
});

test('the setting comes first', () => {
  const configured = executable(path.join(tmp, 'custom', 'dyno'));
  executable(bundledServerPath(extensionPath, 'linux'));
  const bin = path.join(tmp, 'bin');
  executable(path.join(bin, 'dyno'));
  const found = findServer({ configured, extensionPath, env: { PATH: bin }, platform: 'linux' });
  assert.equal(found.command, configured);
  assert.equal(found.source, 'setting');
  assert.equal(fallbackWarning(found), undefined);
});

test('then the bundled binary', () => {
  const bundled = executable(bundledServerPath(extensionPath, 'linux'));
  const bin = path.join(tmp, 'bin');
  executable(path.join(bin, 'dyno'));
  const found = findServer({ configured: '', extensionPath, env: { PATH: bin }, platform: 'linux' });
  assert.equal(found.command, bundled);
  assert.equal(found.source, 'bundled');
  assert.equal(bundled, path.join(extensionPath, 'server', 'dyno'));
});

test('a bundled binary that lost its executable bit is repaired', () => {
  const bundled = executable(bundledServerPath(extensionPath, 'linux'), 0o644);
  const found = findServer({ extensionPath, env: { PATH: '' }, platform: 'linux' });
  assert.equal(found.command, bundled);
  assert.equal(fs.statSync(bundled).mode & 0o111, 0o111);
});

test('then dyno on PATH, as an absolute path; non-executables are skipped', () => {
  const first = path.join(tmp, 'first');
  const second = path.join(tmp, 'second');
  executable(path.join(first, 'dyno'), 0o644);
  const wanted = executable(path.join(second, 'dyno'));
  const found = findServer({ extensionPath, env: { PATH: `${first}:${second}` }, platform: 'linux' });
  assert.equal(found.command, wanted);
  assert.equal(found.source, 'path');
});

test('a broken setting falls through, with a warning naming it', () => {
  const bin = path.join(tmp, 'bin');
  const onPath = executable(path.join(bin, 'dyno'));
  const missing = path.join(tmp, 'nowhere', 'dyno');
  const found = findServer({ configured: missing, extensionPath, env: { PATH: bin }, platform: 'linux' });
  assert.equal(found.command, onPath);
  const warning = fallbackWarning(found);
  assert.ok(warning?.includes(missing), warning);
  assert.ok(warning?.includes(onPath), warning);
});

test('when nothing is found the error names all three places', () => {
  const found = findServer({ configured: '', extensionPath, env: { PATH: path.join(tmp, 'empty') }, platform: 'linux' });
  assert.equal(found.command, undefined);
  assert.deepEqual(
    found.candidates.map((c) => c.source),
    ['setting', 'bundled', 'path'],
  );
  const message = notFoundMessage(found);
  assert.match(message, /dyno\.server\.path/);
  assert.ok(message.includes(path.join(extensionPath, 'server', 'dyno')), message);
  assert.match(message, /PATH/);
  assert.match(message, /dyno lsp/);

  const withSetting = findServer({
    configured: '/opt/nope/dyno',
    extensionPath,
    env: { PATH: '' },
    platform: 'linux',
  });
  assert.match(notFoundMessage(withSetting), /\/opt\/nope\/dyno, which does not exist/);
});

test('the setting expands ~ and ${workspaceFolder} and resolves relative paths', () => {
  assert.equal(expandConfiguredPath('~/bin/dyno'), path.join(os.homedir(), 'bin', 'dyno'));
  assert.equal(expandConfiguredPath('${workspaceFolder}/target/debug/dyno', '/ws'), '/ws/target/debug/dyno');
  assert.equal(expandConfiguredPath('target/debug/dyno', '/ws'), '/ws/target/debug/dyno');
  assert.equal(expandConfiguredPath('  /abs/dyno  ', '/ws'), '/abs/dyno');

  const relative = executable(path.join(tmp, 'target', 'debug', 'dyno'));
  const found = findServer({ configured: 'target/debug/dyno', workspaceFolder: tmp, extensionPath, env: {}, platform: 'linux' });
  assert.equal(found.command, relative);
});

test('on Windows: dyno.exe is bundled and PATHEXT is honoured', () => {
  assert.equal(bundledServerPath('/ext', 'win32'), path.join('/ext', 'server', 'dyno.exe'));
  const bin = path.join(tmp, 'bin');
  const cmd = executable(path.join(bin, 'dyno.cmd'), 0o644);
  const found = findServer({ extensionPath, env: { Path: bin, PATHEXT: '.EXE;.CMD' }, platform: 'win32' });
  assert.equal(found.command, cmd);
});
