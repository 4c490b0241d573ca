// The packaged extension in a real VS Code. code-server (npm) ships VS
// Code's workbench and extension host; the .vsix is installed into it with
// `code-server --install-extension`, a folder with a .dyno file is opened in
// Debian's chromium (headless, puppeteer-core), and the test waits for what a
// user sees: an error squiggle and its entry in the Problems panel, a hover,
// and the cursor on the definition after F12. The server is the one bundled
// in the per-platform .vsix: `dyno` is not on the PATH code-server gets.
//
// Environment (tests/editors_vscode.rs sets it):
//   DYNO_VSIX          the per-platform .vsix to install
//   DYNO_CODE_SERVER_NODE  a Node 24 binary (code-server refuses others)
//   DYNO_CHROMIUM      chromium, default /usr/bin/chromium
//   DYNO_CODE_SERVER_DIR   code-server's package, default ./node_modules/code-server

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import puppeteer from 'puppeteer-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const vsix = process.env.DYNO_VSIX;
const node = process.env.DYNO_CODE_SERVER_NODE;
const chromium = process.env.DYNO_CHROMIUM || '/usr/bin/chromium';
const codeServer = path.resolve(process.env.DYNO_CODE_SERVER_DIR || path.join(here, 'node_modules', 'code-server'));
const entry = path.join(codeServer, 'out', 'node', 'entry.js');

assert.ok(vsix && fs.existsSync(vsix), `DYNO_VSIX (${vsix}) is not a file`);
assert.ok(node && fs.existsSync(node), `DYNO_CODE_SERVER_NODE (${node}) is not a Node 24 binary`);
assert.ok(fs.existsSync(entry), `${entry} is missing: run \`npm ci\` in editors/vscode/test-code-server with Node 24`);

// Line numbers below are 1-based, as VS Code's status bar shows them.
const SCHEMA = `table Shop {
  key pk, sk
}

/// A person who buys things.
entity Customer {
  customerId: id
  name: string

  pk = "CUSTOMER#{customerId}"
  sk = "CUSTOMER#{customerId}"
}

entity Order {
  orderId: id
  customerId: id

  pk = "CUSTOMER#{customerId}"
  sk = "ORDER#{missingField}"
}

/// One customer.
pattern getCustomer(customerId) -> Customer
`;
const HOVER_AT = { line: 23, column: 38 }; // inside `Customer` after `->`
const HOLE = { line: 10, column: 22 }; // inside `{customerId}` of Customer's pk
const FIELD_LINE = 7; // customerId: id

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'dyno-code-server-'));
const dirs = {
  extensions: path.join(scratch, 'extensions'),
  data: path.join(scratch, 'data'),
  workspace: path.join(scratch, 'workspace'),
  config: path.join(scratch, 'config'),
  chrome: path.join(scratch, 'chrome'),
};
let server;
let serverLog = '';
let browser;
let page;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** code-server's environment: Node 24 first on PATH, no dyno, no user config. */
function environment() {
  return {
    HOME: scratch,
    PATH: [path.dirname(node), '/usr/local/bin', '/usr/bin', '/bin'].join(path.delimiter),
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: path.join(scratch, 'xdg-data'),
    XDG_CACHE_HOME: path.join(scratch, 'xdg-cache'),
    LANG: 'C.UTF-8',
  };
}

const common = ['--extensions-dir', dirs.extensions, '--user-data-dir', dirs.data, '--disable-telemetry'];

async function waitFor(what, check, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await check();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what} (last: ${last})\n--- code-server log ---\n${serverLog.slice(-4000)}`);
}

/**
 * Does `action`, then waits for `check`, doing `action` again every 5 s while
 * `check` finds nothing. A key press can reach the workbench while focus is
 * still moving (after Go to Line, or under load) and be lost; the user would
 * press it again.
 */
async function pressUntil(what, action, check, timeout = 60_000) {
  let doneAt = 0;
  return waitFor(
    what,
    async () => {
      if (Date.now() - doneAt > 5_000) {
        await action();
        doneAt = Date.now();
      }
      return check();
    },
    timeout,
  );
}

/** The status bar's cursor position, as [line, column]. */
async function cursor() {
  const text = await page.$eval('[id="status.editor.selection"]', (e) => e.textContent ?? '');
  const m = /Ln (\d+), Col (\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

async function goTo(line, column) {
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyG');
  await page.keyboard.up('Control');
  await page.waitForSelector('.quick-input-widget input', { visible: true });
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press('Enter');
  await waitFor(`the cursor at ${line}:${column}`, async () => {
    const at = await cursor();
    return at && at[0] === line && at[1] === column;
  });
}

/** VS Code's "Show or Focus Hover" (Ctrl+K Ctrl+I) at the cursor. */
async function showHover() {
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyK');
  await page.keyboard.press('KeyI');
  await page.keyboard.up('Control');
}

before(async () => {
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dirs.workspace, 'shop.dyno'), SCHEMA);
  fs.mkdirSync(path.join(dirs.data, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(dirs.data, 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.enableExperiments': false,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.disableAIFeatures': true,
      'security.workspace.trust.enabled': false,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'update.mode': 'none',
      'telemetry.telemetryLevel': 'off',
      'editor.hover.delay': 100,
      // F12 jumps to the first definition instead of opening a peek.
      'editor.gotoLocation.multipleDefinitions': 'goto',
    }),
  );

  const install = spawnSync(node, [entry, ...common, '--install-extension', path.resolve(vsix)], {
    env: environment(),
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(install.status, 0, `--install-extension failed:\n${install.stdout}\n${install.stderr}`);
  const installed = fs.readdirSync(dirs.extensions).find((d) => d.startsWith('dyno.dyno-'));
  assert.ok(installed, `no dyno extension in ${dirs.extensions}: ${install.stdout}`);
  const bundled = path.join(dirs.extensions, installed, 'server', 'dyno');
  assert.ok(fs.existsSync(bundled), `the installed extension has no ${bundled}`);
  fs.accessSync(bundled, fs.constants.X_OK);

  const port = await freePort();
  server = spawn(
    node,
    [entry, ...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-update-check',
      '--disable-workspace-trust', '--disable-getting-started-override', '--ignore-last-opened',
      '--config', path.join(dirs.config, 'config.yaml'), dirs.workspace],
    { env: environment(), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  server.stdout.on('data', (d) => (serverLog += d));
  server.stderr.on('data', (d) => (serverLog += d));
  await waitFor('code-server to listen', async () => {
    const r = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    return r?.ok;
  });

  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: dirs.chrome,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--window-size=1400,900'],
    defaultViewport: { width: 1400, height: 900 },
  });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(dirs.workspace)}`, { waitUntil: 'load' });
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });

  // Open shop.dyno from the Explorer.
  const row = await waitFor('shop.dyno in the Explorer', () =>
    page.$('.explorer-folders-view .monaco-list-row[aria-label^="shop.dyno"]'),
  );
  await row.click();
  await waitFor('shop.dyno in an editor', () =>
    page.$eval('.monaco-editor .view-lines', (e) => (e.textContent ?? '').replace(/\s/g, ' ').includes('entity Customer')),
  );
});

after(async () => {
  if (process.env.DYNO_CODE_SERVER_SCREENSHOT && page) {
    await page.screenshot({ path: process.env.DYNO_CODE_SERVER_SCREENSHOT }).catch(() => {});
  }
  await browser?.close().catch(() => {});
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {}
  }
  fs.rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
});

test('diagnostics: a squiggle in the editor and the error in the Problems panel', async () => {
  await waitFor('an error squiggle', () => page.$('.monaco-editor .squiggly-error'));
  const problems = await pressUntil(
    'the Problems panel to list the error',
    async () => {
      if (await page.$('.markers-panel .monaco-list-row')) return; // open already: the shortcut would close it
      await page.keyboard.down('Control');
      await page.keyboard.down('Shift');
      await page.keyboard.press('KeyM');
      await page.keyboard.up('Shift');
      await page.keyboard.up('Control');
    },
    () => page.$$eval('.markers-panel .monaco-list-row', (rows) => rows.map((r) => r.textContent ?? '').join('\n')),
  );
  assert.match(problems, /missingField/, problems);
  // The source and code, as the Problems panel shows them: `dyno(E101)`.
  assert.match(problems, /dyno\(?E101/, `the source should be dyno: ${problems}`);
});

test('hover: the entity and its doc comment', async () => {
  await page.click('.monaco-editor .view-lines');
  await goTo(HOVER_AT.line, HOVER_AT.column);
  const hover = await pressUntil('a hover naming Customer', showHover, async () => {
    const text = await page.$$eval('.monaco-hover .hover-contents, .monaco-hover-content', (els) =>
      els.map((e) => e.textContent ?? '').join('\n').trim(),
    );
    if (/Customer/.test(text)) return text;
    throw new Error(`the hover shows "${text}"`); // kept as the last state if this times out
  });
  assert.match(hover, /A person who buys things/, hover);
  await page.keyboard.press('Escape');
});

test('go to definition: F12 on a key-template hole moves the cursor to the attribute', async () => {
  await page.click('.monaco-editor .view-lines');
  await goTo(HOLE.line, HOLE.column);
  const at = await pressUntil(
    'the cursor to move to the definition',
    async () => {
      const c = await cursor();
      if (!(c && c[0] === FIELD_LINE)) await page.keyboard.press('F12');
    },
    async () => {
      const c = await cursor();
      return c && c[0] === FIELD_LINE ? c : undefined;
    },
  );
  assert.equal(at[0], FIELD_LINE);
});
