// End-to-end tests of training in parallel workers: the same small experiments trained in one
// worker (navigator.hardwareConcurrency forced to 1) and in two give the same curves CSV and
// the same tables, character for character, the passkey's extension step included; two workers
// are used (and only from Train on); a sandboxed frame trains in two Blob workers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { useApp, waitForDraws } from './lib.mjs';

const app = useApp();
const AGENT = '&schemes=none,sinusoidal,learned,rope&steps=60&train_len=8&width=16';
const PASSKEY = '&task=passkey&schemes=causal,rope&steps=40&train_len=8&width=16&tune_steps=4';

/** A page whose browser reports `cores` cores, at `query`; console errors collected. */
async function open(cores, query) {
  const context = await app.browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  await context.addInitScript((n) => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n, configurable: true });
  }, cores);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${app.server.url}${query}`);
  return { page, errors, context };
}

const done = (page, timeout = 120000) =>
  page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, { timeout });

async function curvesCsv(page) {
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('figure:has(#train-loss)').getByRole('button', { name: /Download CSV/ }).click(),
  ]);
  return fs.readFileSync(await dl.path(), 'utf8');
}

const tables = (page, ids) =>
  page.evaluate((ids) => ids.map((id) => document.getElementById(id)?.innerText ?? `(no #${id})`), ids);

/** Trains `query` (then extends it when `extend`) on `cores` cores: the results and the most workers seen. */
async function train(cores, query, extend) {
  const { page, errors, context } = await open(cores, `?view=train${query}`);
  await page.waitForSelector('#train-start');
  assert.equal(page.workers().length, 0, 'no worker before Train');
  let peak = 0;
  const sample = setInterval(() => (peak = Math.max(peak, page.workers().length)), 20);
  await page.click('#train-start');
  await done(page);
  if (extend) {
    await page.click('#train-extend');
    await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase !== 'done');
    await done(page);
  }
  clearInterval(sample);
  const ids = extend ? ['train-table', 'train-zero', 'train-tuned'] : ['train-table'];
  const out = { csv: await curvesCsv(page), tables: await tables(page, ids), peak, status: await page.locator('.train-status').textContent() };
  assert.deepEqual(errors, []);
  await context.close();
  return out;
}

for (const [name, query, extend] of [
  ['agent', AGENT, false],
  ['passkey, Train then Extend', PASSKEY, true],
]) {
  test(`${name}: two workers give the serial run's curves and tables`, async () => {
    const serial = await train(1, query, extend);
    const parallel = await train(2, query, extend);
    assert.equal(serial.peak, 1, 'one worker on one core');
    assert.equal(parallel.peak, 2, 'two workers on two cores');
    assert.ok(serial.csv.split('\n').length > 10);
    assert.equal(parallel.csv, serial.csv);
    assert.deepEqual(parallel.tables, serial.tables);
    for (const t of serial.tables) assert.doesNotMatch(t, /^\(no #/);
  });
}

test('inside a sandboxed iframe two Blob workers train a linked experiment', async () => {
  const { page, errors, context } = await open(2, '');
  // The outer page starts as the app, fully loaded (a request of a half-loaded app would be cut
  // off by the new content), as the one-worker test does.
  await waitForDraws(page, 'encoding-heatmap');
  await page.setContent(`<!DOCTYPE html><html><body>
    <iframe id="f" sandbox="allow-scripts" style="width:1100px;height:1400px;border:0"
      src="${app.server.url}?embed=train&run=1&schemes=none,alibi&steps=30&train_len=8&width=16"></iframe>
    </body></html>`);
  const frame = page.frameLocator('#f');
  await frame.locator('section.train[data-phase="done"]').waitFor({ timeout: 120000 });
  assert.equal(await frame.locator('#train-table tbody td').count(), 8);
  assert.deepEqual(errors, []);
  await context.close();
});
