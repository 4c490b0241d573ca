// The Mermaid diagrams of `dyno doc` (each item collection) parse and render
// in mermaid itself: for every example schema, every ```mermaid block of
// its model document is given to mermaid (the npm package, loaded into
// Debian's chromium, headless, through puppeteer-core) to parse and render
// to SVG; the SVG must show each node's label as the document wrote it.
//
// Environment: DYNO_BIN (the dyno binary), DYNO_CHROMIUM (the browser).
// Run by `cargo test --test browser_doc -- --include-ignored`.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import puppeteer from 'puppeteer-core';

const root = resolve(import.meta.dirname, '..', '..');
const dyno = process.env.DYNO_BIN;
const chromium = process.env.DYNO_CHROMIUM;

let browser;
let page;

before(async () => {
  assert.ok(dyno, 'DYNO_BIN: the dyno binary to test');
  assert.ok(chromium, 'DYNO_CHROMIUM: the chromium to run (e.g. /usr/bin/chromium)');
  browser = await puppeteer.launch({
    executablePath: chromium,
    args: ['--no-sandbox', '--headless=new', '--disable-gpu'],
  });
  page = await browser.newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ path: join(import.meta.dirname, 'node_modules/mermaid/dist/mermaid.min.js') });
  await page.evaluate(() => window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' }));
});

after(async () => {
  await browser?.close();
});

/** Every schema under examples/ and examples/real/. */
function examples() {
  const out = [];
  for (const dir of ['examples', 'examples/real']) {
    for (const name of readdirSync(join(root, dir)).sort()) {
      if (name.endsWith('.dyno')) out.push(join(root, dir, name));
    }
  }
  return out;
}

/** The ```mermaid blocks of a Markdown document. */
function mermaidBlocks(markdown) {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** `n1["User: sk = USER#35;#123;userId#125;"]` → `User: sk = USER#{userId}`. */
function labels(block) {
  const entities = { '#35;': '#', '#123;': '{', '#125;': '}', '#quot;': '"' };
  return [...block.matchAll(/\["([^"]*)"\]/g)].map((m) =>
    m[1].replace(/#35;|#123;|#125;|#quot;/g, (e) => entities[e]),
  );
}

test('every example document has Mermaid blocks that parse and render', async () => {
  let rendered = 0;
  let labelled = 0;
  for (const schema of examples()) {
    const markdown = execFileSync(dyno, ['doc', schema], { encoding: 'utf8' });
    // A schema whose partitions each hold one entity draws no diagram.
    const blocks = mermaidBlocks(markdown);
    for (const [i, block] of blocks.entries()) {
      const result = await page.evaluate(
        async (text, id) => {
          try {
            await window.mermaid.parse(text);
            const { svg } = await window.mermaid.render(id, text);
            const holder = document.createElement('div');
            holder.innerHTML = svg;
            return { ok: true, text: holder.textContent };
          } catch (error) {
            return { ok: false, error: String(error?.message ?? error) };
          }
        },
        block,
        `diagram${rendered}`,
      );
      assert.ok(result.ok, `${schema} block ${i + 1} does not parse:\n${block}\n${result.error}`);
      const shown = result.text.replace(/\s+/g, ' ');
      for (const label of labels(block)) {
        assert.ok(shown.includes(label.replace(/\s+/g, ' ')), `${schema} block ${i + 1}: label ${label} not rendered in ${shown}`);
        labelled += 1;
      }
      rendered += 1;
    }
  }
  assert.ok(rendered >= 10 && labelled >= 30, `only ${rendered} diagrams, ${labelled} labels`);
});

test('a broken block is caught: the check can fail', async () => {
  const result = await page.evaluate(async () => {
    try {
      await window.mermaid.parse('flowchart LR\n  pk --> n1["unclosed');
      return 'parsed';
    } catch {
      return 'rejected';
    }
  });
  assert.equal(result, 'rejected');
});
