// Load and pick times of a large DynoTable page in chromium, for
// docs/view.md (not a test: numbers vary by machine, nothing is asserted).
//
//   DYNO_CHROMIUM=/usr/bin/chromium node perf.mjs PAGE.html [PATTERN ...]
//
// Prints the time to load the page (navigation to the load event), and for
// each pattern (default: every one) the time from picking it to the next
// frame, classes toggled and the page laid out again.

import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import puppeteer from 'puppeteer-core';

const [file, ...names] = process.argv.slice(2);
if (!file || !process.env.DYNO_CHROMIUM) {
  console.error('usage: DYNO_CHROMIUM=/usr/bin/chromium node perf.mjs PAGE.html [PATTERN ...]');
  process.exit(2);
}
const browser = await puppeteer.launch({
  executablePath: process.env.DYNO_CHROMIUM,
  args: ['--no-sandbox', '--headless=new', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  const started = performance.now();
  await page.goto(pathToFileURL(resolve(file)).href, { waitUntil: 'load', timeout: 120_000 });
  const loaded = performance.now() - started;
  const rows = await page.$$eval('tbody tr', (r) => r.length);
  console.log(`load: ${loaded.toFixed(0)} ms for ${rows} rows`);
  const patterns = await page.$eval('#dyno-data', (el) => JSON.parse(el.textContent).patterns);
  for (const [index, pattern] of patterns.entries()) {
    if (names.length && !names.includes(pattern.name)) continue;
    const ms = await page.evaluate(async (value) => {
      const pick = document.getElementById('pick');
      const t0 = performance.now();
      pick.value = value;
      pick.dispatchEvent(new Event('change'));
      document.body.offsetHeight; // layout now, inside the measurement
      await new Promise((done) => requestAnimationFrame(() => done()));
      return performance.now() - t0;
    }, String(index));
    console.log(`pick ${pattern.name}: ${ms.toFixed(1)} ms (${pattern.returns.length} rows returned)`);
  }
} finally {
  await browser.close();
}
