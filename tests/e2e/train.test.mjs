// End-to-end tests of the Train view: experiments run in a Web Worker (also inside a sandboxed
// frame), the results table, curves, maps and learned table appear, the same seed gives the
// same curves bit for bit, an exported model reproduces the page's accuracy in NumPy, hostile
// values are refused or clamped, and rapid starts and stops leave no worker behind (two workers
// train side by side on two cores: parallel.test.mjs checks they give the serial numbers). The
// largest settings, links that ask for long runs, and leaving the view: wedge.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { useApp, openApp, workersFor, workersSoon, holdPack, waitForDraws } from './lib.mjs';

const app = useApp();
const SCRIPT = path.resolve(import.meta.dirname, '../../static/train/pe_model.py');
// A small experiment that still has every part: four schemes, 60 steps, length 8.
const SMALL = '&schemes=none,sinusoidal,learned,rope&steps=60&train_len=8&width=16';

const openTrain = (query, options = {}) =>
  openApp(app, `?view=train${query}`, { ready: (page) => page.waitForSelector('#train-start'), ...options });

const phaseDone = (page, timeout = 120000) =>
  page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, { timeout });

/** Waits until the experiment is done and its results (a part from a chunk of its own) are drawn. */
async function done(page, timeout = 120000) {
  await phaseDone(page, timeout);
  await page.waitForFunction(() => !document.querySelector('section.train .lazy-part'), null, { timeout: 30000 });
}

/** Which packs hold each packed file: the table scripts/chunks.mjs writes into the chunk loader. */
async function packedIn() {
  const loader = await (await fetch(`${app.server.url}app/__wasm_split.js`)).text();
  return JSON.parse(loader.match(/const packedIn = (\{.*?\});/)[1]);
}

/** Opens the Train view with `query`, presses Train and waits until the experiment is done. */
async function trained(query) {
  const opened = await openTrain(query);
  await opened.page.click('#train-start');
  await done(opened.page);
  return opened;
}

async function download(page, locator) {
  const [dl] = await Promise.all([page.waitForEvent('download'), locator.click()]);
  const file = path.join(os.tmpdir(), `pe-e2e-${process.pid}-${dl.suggestedFilename()}`);
  await dl.saveAs(file);
  return file;
}

const curvesCsv = async (page) => {
  const file = await download(page, page.locator('figure:has(#train-loss)').getByRole('button', { name: /Download CSV/ }));
  const text = fs.readFileSync(file, 'utf8');
  fs.rmSync(file);
  return text;
};

test('a small experiment trains in a worker and shows every result', async () => {
  const { page, errors, context } = await openTrain(SMALL);
  assert.equal(page.workers().length, 0, 'no worker before Train is pressed');
  await page.click('#train-start');
  await page.waitForFunction(() => /Training: step \d+ of 60/.test(document.querySelector('.train-status')?.textContent ?? ''));
  // One worker per core here, at most one per scheme.
  assert.equal(await workersSoon(page, workersFor(4)), workersFor(4));
  await done(page);
  // The table: every scheme × 4 test lengths, 1,000 held-out sentences per measured cell; the
  // learned table has no embedding past its length.
  const rows = await page.locator('#train-table tbody tr').allTextContents();
  assert.equal(rows.length, 4);
  const cells = await page.locator('#train-table tbody td').allTextContents();
  assert.equal(cells.length, 16);
  for (const c of cells) assert.ok(/1,000 sentences/.test(c) || /no embedding exists/.test(c), c);
  const learned = await page.locator('#train-table tbody tr:has-text("learned") td').allTextContents();
  assert.match(learned[0], /%/);
  for (const c of learned.slice(1)) assert.match(c, /no embedding exists/);
  // Without position the model answers both sentences of each held-out pair alike: it can get
  // at most one of the two right, however long it trains.
  const none = await page.locator('#train-table tbody tr:has-text("none") td').first().textContent();
  assert.ok(Number(none.match(/^([\d.]+) %/)[1]) <= 50, `a model without position beat chance: ${none}`);
  // Curves drawn, the dog/man table, attention maps for every scheme, the learned table.
  for (const id of ['train-loss', 'train-accuracy', 'train-table-chart']) {
    assert.ok(Number(await page.locator(`#${id}`).getAttribute('data-draws')) >= 1, id);
  }
  assert.equal(await page.locator('#train-dog tbody tr').count(), 4);
  assert.match(await page.locator('#train-dog tbody tr:has-text("none")').textContent(), /cannot tell them apart/);
  await page.locator('#train-map-rope-0').waitFor();
  await page.locator('#train-learned').waitFor();
  // Another example redraws the maps.
  await page.locator('#train-example').selectOption('1');
  await page.waitForFunction(() => /man bites the dog/.test(document.querySelector('.train-maps')?.previousElementSibling?.textContent ?? ''));
  // The link re-runs the experiment.
  assert.match(page.url(), /view=train/);
  assert.match(page.url(), /steps=60/);
  assert.match(page.url(), /run=1/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a run's results come from a chunk of their own: held back, the view and its curves draw and a run trains; then the results appear", async (t) => {
  const context = await app.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const thrown = [];
  page.on('pageerror', (e) => thrown.push(e.message));
  const held = await holdPack(page, 'train_held_out');
  await page.goto(app.server.url + `?view=train${SMALL}`);
  await page.waitForSelector('#train-start');
  await waitForDraws(page, 'train-loss');
  // The app took over from the first paint without the results' chunk.
  await page.waitForFunction(() => !document.getElementById('early'));
  await page.click('#train-start');
  await phaseDone(page);
  await Promise.race([held.asked, new Promise((_, fail) => setTimeout(() => fail(new Error("the results' pack was never asked for")), 30000))]);
  // The curves filled in (drawn again since the empty ones) while the results could not come.
  assert.ok(Number(await page.locator('#train-loss').getAttribute('data-draws')) >= 2);
  assert.equal(await page.locator('#train-table').count(), 0);
  held.release();
  await page.locator('#train-table').waitFor();
  await page.locator('.train-maps').waitFor();
  assert.deepEqual(thrown, []);
  // Drawn only inside Train, the results' pack holds none of the files Train's pack brought.
  const packs = Object.entries(await packedIn());
  const [train, results] = ['pack_train.wasm', 'pack_train_held_out.wasm'].map((pack) => packs.filter(([, p]) => p.includes(pack)).map(([f]) => f));
  assert.ok(train.length > 0 && results.length > 0, `${train} | ${results}`);
  assert.deepEqual(results.filter((f) => train.includes(f)), []);
});

test('an exported model reproduces the held-out accuracy shown, in NumPy', async () => {
  const { page, errors, context } = await trained(`${SMALL}&schemes=rope&task=copy`);
  const shown = await page.locator('#train-table tbody td').allTextContents();
  const file = await download(page, page.locator('#train-export-rope'));
  assert.match(path.basename(file), /pe-train-copy-rope-seed1\.safetensors$/);
  const out = execFileSync('python3', [SCRIPT, file], { encoding: 'utf8' });
  fs.rmSync(file);
  console.log(out);
  const lines = out.split('\n').filter((l) => l.startsWith('length'));
  assert.equal(lines.length, 4, out);
  for (const [i, line] of lines.entries()) {
    const [, correct, counted, page] = line.match(/: (\d+)\/(\d+) = .*the page: (\d+)\//);
    assert.ok(Math.abs(Number(correct) - Number(page)) <= 2, line);
    const pct = (100 * Number(correct)) / Number(counted);
    const onPage = Number(shown[i].match(/([\d.]+) %/)[1]);
    assert.ok(Math.abs(pct - onPage) < 0.25, `${line} vs the page's ${shown[i]}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the same seed gives the same curves bit for bit; another seed does not', async () => {
  const { page, errors, context } = await trained('&schemes=sinusoidal,t5&steps=30&train_len=8&width=16');
  const first = await curvesCsv(page);
  await page.click('#train-start');
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'training');
  await done(page);
  assert.equal(await curvesCsv(page), first);
  // Another seed: the settings change clears the results; train again.
  await page.locator('#train-seed-value').fill('2');
  await page.locator('#train-seed-value').press('Enter');
  await page.click('#train-start');
  await done(page);
  assert.notEqual(await curvesCsv(page), first);
  assert.ok(first.split('\n').length > 60, first.slice(0, 200));
  assert.deepEqual(errors, []);
  await context.close();
});

test('stop, resume, and a change of setting mid-run stops the run cleanly', async () => {
  const { page, errors, context } = await openTrain('&schemes=rope&steps=3000&train_len=8&width=16');
  await page.click('#train-start');
  await page.waitForFunction(() => /step [1-9]\d* of 3000/.test(document.querySelector('.train-status')?.textContent ?? ''));
  await page.click('#train-stop');
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'paused');
  const stopped = await page.locator('.train-status').textContent();
  await page.waitForTimeout(600);
  assert.equal(await page.locator('.train-status').textContent(), stopped, 'nothing moves while stopped');
  await page.click('#train-resume');
  await page.waitForFunction((s) => document.querySelector('.train-status')?.textContent !== s, stopped);
  // A new learning rate while training: the run stops and the results go.
  await page.locator('#train-lr-value').fill('0.001');
  await page.locator('#train-lr-value').press('Enter');
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'idle');
  assert.equal(await page.locator('#train-table').count(), 0);
  assert.equal(await page.locator('#train-start').textContent(), 'Train');
  assert.doesNotMatch(page.url(), /run=1/, 'the link no longer re-runs the stopped experiment');
  assert.ok(page.workers().length <= 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a huge learning rate says "diverged" and draws no NaN', async () => {
  const { page, errors, context } = await trained('&schemes=sinusoidal,rope&steps=200&train_len=8&width=16&lr=10');
  const cells = await page.locator('#train-table tbody td').allTextContents();
  for (const c of cells) {
    assert.ok(!/NaN/.test(c), c);
  }
  assert.ok(cells.some((c) => /diverged at step \d+/.test(c)), cells.join(' | '));
  const csv = await curvesCsv(page);
  for (const line of csv.trim().split('\n').slice(1)) assert.ok(!/,NaN,/.test(line) && !/inf/i.test(line.split(',')[2]), line);
  assert.deepEqual(errors, []);
  await context.close();
});

test('hostile values in the link are clamped or refused, visibly, and training still works', async () => {
  const { page, errors, context } = await openTrain('&steps=0&lr=NaN&width=-5&layers=1e300&train_len=1e9&train_seed=-3&schemes=%3Cscript%3E');
  const notices = await page.locator('.notices').textContent();
  for (const needle of ['steps=0', 'lr=NaN', 'width=-5', 'layers=1e300', 'train_len=1e9', 'schemes=<script>']) {
    assert.ok(notices.includes(needle), `${needle} in ${notices}`);
  }
  assert.equal(await page.locator('#train-steps-value').inputValue(), '10');
  assert.equal(await page.locator('#train-layers-value').inputValue(), '4');
  assert.equal(await page.locator('#train-lr-value').inputValue(), '0.003');
  // Typed garbage is refused with a message; the value stays.
  await page.locator('#train-steps-value').fill('lots');
  await page.locator('#train-steps-value').press('Enter');
  await page.locator('#train-steps-note').getByText(/not a number/).waitFor();
  assert.equal(await page.locator('#train-steps-value').inputValue(), '10');
  assert.deepEqual(errors, []);
  await context.close();
});

test('fifty quick starts, stops and changes leave at most one run\'s workers, no error, bounded memory', async () => {
  const { page, errors, context } = await openTrain('&schemes=none,rope&steps=500&train_len=8&width=16');
  const pool = workersFor(2);
  let peak = 0;
  const t0 = Date.now();
  for (let i = 0; i < 50; i++) {
    await page.click('#train-start');
    if (i % 3 === 0) await page.locator('#train-seed-value').fill(String(i)), await page.locator('#train-seed-value').press('Enter');
    else if (i % 3 === 1 && (await page.locator('#train-stop').count())) await page.click('#train-stop');
    else if (await page.locator('#train-cancel').count()) await page.click('#train-cancel');
    // A terminated worker leaves Playwright's list when its close event arrives, a moment
    // later: give it up to two seconds before counting it as still running.
    let n = page.workers().length;
    for (let t = 0; n > pool && t < 40; t++) {
      await page.waitForTimeout(50);
      n = page.workers().length;
    }
    peak = Math.max(peak, n);
  }
  console.log(`50 cycles in ${Date.now() - t0} ms`);
  await page.waitForTimeout(500);
  assert.ok(peak <= pool, `${peak} workers at once`);
  assert.ok(page.workers().length <= pool);
  const heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
  assert.ok(heap < 64 << 20, `JS heap ${heap} bytes`);
  // It still trains.
  await page.click('#train-start');
  await page.waitForFunction(() => /step [1-9]/.test(document.querySelector('.train-status')?.textContent ?? ''));
  // Leaving the view keeps the run and its workers; Clear, back in the view, ends them.
  await page.getByRole('tab', { name: 'Position matrix' }).click();
  await page.waitForTimeout(300);
  assert.equal(page.workers().length, pool, 'the run goes on while the view is closed');
  await page.getByRole('tab', { name: 'Train it yourself' }).click();
  await page.click('#train-cancel');
  await page.waitForTimeout(300);
  assert.equal(page.workers().length, 0, 'Clear ends the workers');
  assert.deepEqual(errors, []);
  await context.close();
});

test('inside a sandboxed iframe a linked experiment runs (a worker made from a Blob)', async () => {
  // The outer page starts as the app, fully loaded (the app clears its page when it mounts).
  const { page, errors, context } = await openApp(app, '');
  await page.setContent(`<!DOCTYPE html><html><body>
    <iframe id="f" sandbox="allow-scripts" style="width:1100px;height:1400px;border:0"
      src="${app.server.url}?embed=train&run=1&schemes=none,alibi&steps=30&train_len=8&width=16"></iframe>
    </body></html>`);
  const frame = page.frameLocator('#f');
  await frame.locator('section.train[data-phase="done"]').waitFor({ timeout: 120000 });
  const cells = await frame.locator('#train-table tbody td').allTextContents();
  assert.equal(cells.length, 8);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Stop or Clear pressed the instant after Train (before the workers have the run) stops or clears it', async () => {
  for (const [button, phase] of [['train-stop', 'paused'], ['train-cancel', 'idle']]) {
    const { page, errors, context } = await openTrain(SMALL);
    // Both clicks in one task of the page: the view is in its training shape at once, while
    // the run is still on its way to the workers.
    const there = await page.evaluate(async (id) => {
      document.getElementById('train-start').click();
      for (let i = 0; i < 5; i++) await Promise.resolve();
      const b = document.getElementById(id);
      b?.click();
      return !!b;
    }, button);
    assert.ok(there, `${button} is there as soon as Train is pressed`);
    await page.waitForFunction((p) => document.querySelector('section.train').dataset.phase === p, phase);
    // And stays so: no run starts behind the student's back.
    await page.waitForTimeout(1500);
    assert.equal(await page.evaluate(() => document.querySelector('section.train').dataset.phase), phase);
    if (phase === 'paused') assert.match(await page.locator('.train-status').textContent(), /Stopped at step \d+ of 60/);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
