// dyno view's page in a real browser: Debian's chromium, headless, driven by
// puppeteer-core (which downloads no browser). The page is written by the
// dyno binary under test; the items a pattern should highlight are worked
// out here, independently of dyno's matching: the sample items (`dyno
// sample`) run through the concrete KeyConditionExpression the page shows,
// by the small evaluator below.
//
// Environment: DYNO_BIN (the dyno binary), DYNO_CHROMIUM (the browser),
// DYNO_VIEW_ARTIFACTS (optional: where the screenshots are kept).
// Run by `cargo test --test browser_view -- --include-ignored`.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const root = resolve(import.meta.dirname, '..', '..');
const dyno = process.env.DYNO_BIN;
const chromium = process.env.DYNO_CHROMIUM;
const schema = join(root, 'examples', 'billing.dyno');

let browser;
let page;
let items; // every sample item, DynamoDB JSON, by table name
let scratch;

before(async () => {
  assert.ok(dyno, 'DYNO_BIN: the dyno binary to test');
  assert.ok(chromium, 'DYNO_CHROMIUM: the chromium to run (e.g. /usr/bin/chromium)');
  scratch = mkdtempSync(join(tmpdir(), 'dyno-view-browser-'));
  const html = join(scratch, 'billing.html');
  execFileSync(dyno, ['view', schema, '--out', html]);
  items = sampleItems(execFileSync(dyno, ['sample', schema], { encoding: 'utf8' }));
  browser = await puppeteer.launch({
    executablePath: chromium,
    args: ['--no-sandbox', '--headless=new', '--disable-gpu'],
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  await page.goto(pathToFileURL(html).href);
});

after(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** `dyno sample`'s BatchWriteItem lines → { table: [item, ...] }. */
function sampleItems(text) {
  const out = {};
  for (const line of text.split('\n').filter(Boolean)) {
    for (const [table, puts] of Object.entries(JSON.parse(line).RequestItems)) {
      (out[table] ??= []).push(...puts.map((p) => p.PutRequest.Item));
    }
  }
  return out;
}

/** A DynamoDB JSON value's text, and whether it is a number. */
function scalar(value) {
  if ('S' in value) return { text: value.S, number: false };
  if ('N' in value) return { text: value.N, number: true };
  throw new Error(`not a key value: ${JSON.stringify(value)}`);
}

/** a <=> b as DynamoDB orders key values: numbers numerically, strings by code unit (ASCII here). */
function compare(a, b) {
  if (a.number) return Math.sign(Number(a.text) - Number(b.text));
  return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
}

/**
 * Whether a Query request's KeyConditionExpression selects an item: the
 * forms DynamoDB allows (`=`, `<`, `<=`, `>`, `>=`, `BETWEEN`, `begins_with`)
 * joined by AND. `keys` are the index's key attributes: an item without one
 * of them is not in the index (a sparse index).
 */
function selects(request, keys, item) {
  if (!keys.every((k) => k in item)) return false;
  const names = request.ExpressionAttributeNames;
  const values = request.ExpressionAttributeValues;
  const value = (placeholder) => scalar(values[placeholder]);
  const attr = (placeholder) => (item[names[placeholder]] ? scalar(item[names[placeholder]]) : null);
  const clauses = request.KeyConditionExpression.split(/ AND (?=#|begins_with)/);
  return clauses.every((clause) => {
    let m;
    if ((m = clause.match(/^begins_with\((#\w+), (:\w+)\)$/))) {
      const a = attr(m[1]);
      return a !== null && a.text.startsWith(value(m[2]).text);
    }
    if ((m = clause.match(/^(#\w+) BETWEEN (:\w+) AND (:\w+)$/))) {
      const a = attr(m[1]);
      return a !== null && compare(a, value(m[2])) >= 0 && compare(a, value(m[3])) <= 0;
    }
    if ((m = clause.match(/^(#\w+) (=|<|<=|>|>=) (:\w+)$/))) {
      const a = attr(m[1]);
      if (a === null) return false;
      const c = compare(a, value(m[3]));
      return { '=': c === 0, '<': c < 0, '<=': c <= 0, '>': c > 0, '>=': c >= 0 }[m[2]];
    }
    throw new Error(`a key condition this test cannot read: ${clause}`);
  });
}

/** The page's embedded data: per pattern, its grid, marked rows and requests. */
async function pageData() {
  return page.$eval('#dyno-data', (el) => JSON.parse(el.textContent));
}

/** Picks a pattern by its name, as a user does: the select's change event. */
async function pick(name) {
  const data = await pageData();
  const index = data.patterns.findIndex((p) => p.name === name);
  assert.notEqual(index, -1, `no pattern ${name}`);
  await page.select('#pick', String(index));
  return data.patterns[index];
}

test('the grids show partitions, decoded keys and the prefix registry', async () => {
  const partitions = await page.$$eval('#g0 tbody', (bodies) => bodies.length);
  assert.ok(partitions > 1, `partitions in the base table: ${partitions}`);
  const entities = await page.$$eval('#g0 .ent', (chips) => [...new Set(chips.map((c) => c.textContent))].sort());
  assert.deepEqual(entities, ['AuditEvent', 'Invoice', 'Tenant', 'User']);
  const literals = await page.$$eval('#g0 td.sk .lit', (spans) => new Set(spans.map((s) => s.textContent)).size);
  assert.ok(literals >= 4, 'EVENT#, INVOICE#, META, USER# tags');
  const hole = await page.$eval('#g0 th.pk .hole', (el) => el.title);
  assert.equal(hole, 'tenantId');
  const registry = await page.$$eval('.legend code', (codes) => codes.map((c) => c.textContent));
  assert.ok(registry.includes('USER#{userId}') && registry.includes('STATUS#{status}'), registry.join(', '));
});

for (const name of ['listUsers', 'auditSince', 'openInvoicesDue']) {
  test(`${name}: the highlighted items are the ones its Query returns`, async () => {
    const pattern = await pick(name);
    const grid = pattern.grid;
    // The index's key attributes, from the grid's header (before Entity).
    const keys = await page.$$eval(`#${grid} thead th`, (ths) =>
      ths.map((th) => th.textContent).slice(0, ths.findIndex((th) => th.textContent === 'Entity')),
    );
    const table = pattern.requests[0].TableName;
    const baseKeys = await page.$$eval('#g0 thead th', (ths) =>
      ths.map((th) => th.textContent).slice(0, ths.findIndex((th) => th.textContent === 'Entity')),
    );
    const expected = items[table]
      .filter((item) => pattern.requests.some((request) => selects(request, keys, item)))
      .map((item) => JSON.stringify(baseKeys.map((k) => scalar(item[k]).text)))
      .sort();
    const highlighted = await page.$$eval(`#${grid} tr.ret`, (rows) => rows.map((r) => r.dataset.key).sort());
    const rows = await page.$$eval(`#${grid} tbody tr`, (rows) => rows.length);
    assert.ok(expected.length > 0, 'the Query returns something');
    assert.ok(expected.length < rows, 'and not every item');
    assert.deepEqual(highlighted, expected);
    // No filter: what the key condition reads is what comes back.
    assert.equal(await page.$$eval(`#${grid} tr.read`, (r) => r.length), expected.length);
    // Only this pattern's panel shows, with the condition it ran.
    const panels = await page.$$eval('.panel:not([hidden])', (ps) => ps.map((p) => p.id));
    assert.equal(panels.length, 1);
    const shown = await page.$eval(`#${panels[0]}`, (p) => p.textContent);
    assert.ok(shown.includes(name), shown);
  });
}

test('the picker works from the keyboard and marks nothing for (none)', async () => {
  await page.select('#pick', '');
  assert.equal(await page.$$eval('tr.ret, tr.read', (r) => r.length), 0);
  await page.focus('#pick');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.$eval('#pick', (s) => s.value), '0');
  assert.equal(await page.$eval('#p0', (p) => p.hidden), false);
  assert.ok((await page.$$eval('tr.ret', (r) => r.length)) > 0);
  const outline = await page.$eval('#pick', (s) => getComputedStyle(s).outlineStyle);
  assert.notEqual(outline, 'none', 'focus is visible');
});

test('dark and light themes differ, and the screenshot is not blank', async () => {
  const background = () => page.$eval('body', (b) => getComputedStyle(b).backgroundColor);
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  const light = await background();
  const lightShot = await page.screenshot();
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  const dark = await background();
  const darkShot = await page.screenshot();
  assert.notEqual(light, dark);
  for (const [theme, shot] of [['light', lightShot], ['dark', darkShot]]) {
    const { width, height, colours } = pngStats(shot);
    assert.equal(width, 1400);
    assert.equal(height, 1000);
    assert.ok(colours > 50, `${theme}: only ${colours} colours`);
    if (process.env.DYNO_VIEW_ARTIFACTS) {
      mkdirSync(process.env.DYNO_VIEW_ARTIFACTS, { recursive: true });
      writeFileSync(join(process.env.DYNO_VIEW_ARTIFACTS, `view-${theme}.png`), shot);
    }
  }
});

/**
 * A PNG's size and how many distinct colours its pixels have: the chunks
 * read, the image data inflated and unfiltered (8-bit RGB or RGBA).
 */
function pngStats(buffer) {
  const png = Buffer.from(buffer);
  assert.equal(png.toString('latin1', 1, 4), 'PNG');
  let offset = 8;
  let width, height, channels;
  const data = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      assert.equal(body[8], 8, 'bit depth 8');
      channels = { 2: 3, 6: 4 }[body[9]];
      assert.ok(channels, `colour type ${body[9]}`);
    } else if (type === 'IDAT') {
      data.push(body);
    }
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const previous = Buffer.alloc(stride);
  const line = Buffer.alloc(stride);
  const colours = new Set();
  for (let y = 0; y < height; y++) {
    const start = y * (stride + 1);
    const filter = raw[start];
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? line[x - channels] : 0;
      const b = previous[x];
      const c = x >= channels ? previous[x - channels] : 0;
      const value = raw[start + 1 + x];
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      line[x] = (value + predictor) & 0xff;
    }
    for (let x = 0; x < stride; x += channels * 7) {
      colours.add(line.readUIntBE(x, 3));
    }
    line.copy(previous);
  }
  return { width, height, colours: colours.size };
}
