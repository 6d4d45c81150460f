// End-to-end tests that no link or click can wedge the Train view or a long table: a link never
// starts a run estimated at over a minute, Stop and Clear answer at once even at the largest
// settings, never more than one run's workers are alive, the run outlives a visit to another tab, a
// diverged run says so, notices show control characters, the RoPE check's table at d_model
// 4,096 costs no long task, and a link the app writes reopens to the same state or says what
// it leaves out. Durations are printed; bounds are generous (the machine is shared).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, openApp, waitForDraws, watchLongTasks, longTasks, timeTo, timeClear, workersFor } from './lib.mjs';

const app = useApp();
const LARGEST = '&layers=4&attn_heads=4&width=128&train_len=64&steps=10000';
const phase = (page) => page.evaluate(() => document.querySelector('section.train')?.dataset.phase);
const status = (page) => page.locator('.train-status').textContent();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const openTrain = (query, options = {}) =>
  openApp(app, `?view=train${query}`, { ready: (page) => page.waitForSelector('#train-start'), ...options });

/** Samples the number of live workers every 25 ms while `body` runs; returns the most seen. */
async function peakWorkers(page, body) {
  let peak = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, page.workers().length);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  await body();
  running = false;
  await sampler;
  return Math.max(peak, page.workers().length);
}

test('a link never starts, unasked, a run estimated at over a minute: it shows the estimate and a Train button', async () => {
  const huge = '&run=1&layers=1e308&attn_heads=1e308&width=1e308&train_len=1e308&steps=1e308&lr=1e308';
  const { page, errors, context } = await openTrain(huge);
  await page.locator('#train-declined').waitFor();
  const declined = await page.locator('#train-declined').textContent();
  const hours = declined.match(/about (\d+) h/);
  console.log(`declined: ${declined}`);
  assert.ok(hours && Number(hours[1]) >= 1, declined);
  assert.match(await page.locator('#train-estimate').textContent(), /Estimated time: about \d+ h( \d+ min)? \(/);
  assert.equal(await page.locator('#train-start').textContent(), 'Train');
  await page.waitForTimeout(1500);
  assert.equal(page.workers().length, 0, 'no worker started');
  assert.equal(await phase(page), 'idle');
  // Pressed, it runs (and Stop pauses it); the note goes.
  await page.click('#train-start');
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'training');
  assert.equal(await page.locator('#train-declined').count(), 0);
  assert.match(await status(page), /about \d+ h( \d+ min)? left|Training: step 0/);
  await page.click('#train-cancel');
  // A link under a minute still starts at once.
  await page.goto(`${app.server.url}?view=train&run=1&schemes=none,rope&steps=40&train_len=8&width=16`);
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, { timeout: 60000 });
  assert.match(await status(page), /^Done · .* · took (under a second|\d+ s)$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('at the largest settings Stop pauses and Clear ends the worker at once, and the page stays free', async () => {
  const { page, errors, context } = await openTrain(LARGEST);
  await page.click('#train-start');
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'training', null, { timeout: 30000 });
  // From here on (the first report lays out the results once, before this).
  await page.waitForTimeout(500);
  await watchLongTasks(page);
  const stops = [];
  for (let i = 0; i < 6; i++) {
    await page.waitForTimeout(400 + 150 * i);
    stops.push(await timeTo(page, 'train-stop', 'paused'));
    // Nothing moves while stopped.
    const stopped = await status(page);
    await page.waitForTimeout(300);
    assert.equal(await status(page), stopped);
    await timeTo(page, 'train-resume', 'training');
  }
  const duringStops = await longTasks(page);
  const clears = [];
  for (let i = 0; i < 4; i++) {
    if (i > 0) {
      await page.click('#train-start');
      await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'training', null, { timeout: 30000 });
    }
    await page.waitForTimeout(500 + 200 * i);
    clears.push(await timeClear(page));
    assert.equal(page.workers().length, 0);
  }
  const tasks = await longTasks(page);
  console.log(`Stop → paused: ${stops.map((t) => t.toFixed(0)).join(', ')} ms (median ${median(stops).toFixed(0)})`);
  console.log(`Clear → worker gone: ${clears.join(', ')} ms (median ${median(clears)})`);
  // Train lays out the results anew each time (one task of 50–110 ms here, more under load).
  console.log(`main-thread tasks over 50 ms while training and stopping: ${duringStops.length ? duringStops.map((t) => t.toFixed(0)).join(', ') : 'none'}; ` +
    `with three more Train presses: ${tasks.length ? tasks.map((t) => t.toFixed(0)).join(', ') : 'none'}`);
  // Before time slicing: 1.9–3.8 s to pause, 2.0 s to end (the browser's own limit).
  assert.ok(median(stops) < 100 && Math.max(...stops) < 250, `Stop took ${stops.join(', ')} ms`);
  assert.ok(median(clears) < 150 && Math.max(...clears) < 300, `Clear took ${clears.join(', ')} ms`);
  assert.ok(duringStops.every((t) => t < 100), `long tasks: ${duringStops.join(', ')}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Train and Clear every half second, Train again, and quick tab switching never leave two runs\' workers', async () => {
  const { page, errors, context } = await openTrain(LARGEST);
  const peak = await peakWorkers(page, async () => {
    for (let i = 0; i < 8; i++) {
      await page.click('#train-start');
      await page.waitForTimeout(500);
      await page.click('#train-cancel');
      await page.waitForTimeout(500);
    }
    // A new run ("Train again", offered once stopped): the same worker takes it.
    await page.click('#train-start');
    await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'training', null, { timeout: 30000 });
    for (let i = 0; i < 4; i++) {
      await page.waitForTimeout(300);
      await page.click('#train-stop');
      await page.click('#train-start');
      await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'training', null, { timeout: 30000 });
    }
    // Quick tab switches keep the one run.
    for (let i = 0; i < 12; i++) {
      await page.getByRole('tab', { name: i % 2 ? 'Train it yourself' : 'Position matrix' }).click();
      await page.waitForTimeout(120);
    }
  });
  console.log(`most workers alive at once: ${peak}`);
  // One run's workers (all nine schemes: one per core, at most four).
  assert.ok(peak <= workersFor(9), `${peak} workers at once`);
  await page.getByRole('tab', { name: 'Train it yourself' }).click();
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'training');
  assert.equal(page.workers().length, workersFor(9));
  assert.deepEqual(errors, []);
  await context.close();
});

test('leaving the Train tab keeps the run, training or stopped, with its curves', async () => {
  const { page, errors, context } = await openTrain('&schemes=none,rope&steps=3000&train_len=8&width=16');
  await page.click('#train-start');
  await page.waitForFunction(() => /step ([3-9]\d|\d{3,}) of 3000/.test(document.querySelector('.train-status')?.textContent ?? ''));
  const stepOf = (text) => Number(text.match(/step (\d+) of/)[1]);
  const before = stepOf(await status(page));
  await page.getByRole('tab', { name: 'Position matrix' }).click();
  await waitForDraws(page, 'encoding-heatmap');
  await page.waitForTimeout(1000);
  assert.equal(page.workers().length, workersFor(2), 'the workers go on while away');
  await page.getByRole('tab', { name: 'Train it yourself' }).click();
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'training');
  const after = stepOf(await status(page));
  assert.ok(after > before, `step ${before} before leaving, ${after} after coming back`);
  // The curves are the run's from its first step.
  assert.ok(Number(await page.locator('#train-loss').getAttribute('data-draws')) >= 1);
  // Stopped, it stays stopped at the same step across a visit.
  await page.click('#train-stop');
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'paused');
  const stopped = await status(page);
  await page.getByRole('tab', { name: 'Waves & wavelengths' }).click();
  await page.waitForTimeout(500);
  await page.getByRole('tab', { name: 'Train it yourself' }).click();
  await page.locator('#train-resume').waitFor();
  assert.equal(await status(page), stopped);
  await page.click('#train-resume');
  await page.waitForFunction((s) => document.querySelector('.train-status')?.textContent !== s && /step/.test(document.querySelector('.train-status')?.textContent), stopped);
  // A change of a setting elsewhere (the sidebar's base) still ends the run.
  await page.getByRole('tab', { name: 'Position matrix' }).click();
  await page.locator('#base-value').fill('500');
  await page.locator('#base-value').press('Enter');
  await page.waitForFunction(() => !/run=1/.test(location.search));
  await page.waitForTimeout(300);
  assert.equal(page.workers().length, 0, 'the run ended with the change');
  await page.getByRole('tab', { name: 'Train it yourself' }).click();
  assert.equal(await phase(page), 'idle');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a run that diverged says "diverged" and the step in its status line, never "Done"', async () => {
  const { page, errors, context } = await openTrain('&schemes=sinusoidal,rope&steps=200&train_len=8&width=16&lr=10');
  await page.click('#train-start');
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, { timeout: 60000 });
  const text = await status(page);
  console.log(`status: ${text}`);
  assert.match(text, /^Diverged: sinusoidal at step \d+, RoPE at step \d+/);
  assert.doesNotMatch(text, /Done/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('notices show control characters from the link escaped', async () => {
  const { page, errors, context } = await openTrain('&task=agent%00&steps=4%1B0');
  const notices = await page.locator('.notices').textContent();
  assert.ok(notices.includes('task=agent\\u0000'), notices);
  assert.ok(notices.includes('steps=4\\u001b0'), notices);
  assert.deepEqual(errors, []);
  await context.close();
});

test('RoPE check at d_model 4,096: "Show all" and each m step cost no long task; the CSV keeps every row', async () => {
  const { page, errors, context } = await openApp(app, '?scheme=rope&d_model=4096&length=64', { ready: (p) => waitForDraws(p, 'rope-heatmap') });
  await watchLongTasks(page);
  const show = page.getByRole('button', { name: 'Show all 4096 dimensions' });
  await show.click();
  await page.locator('#rope-check-dims caption', { hasText: 'all 4096' }).waitFor();
  const table = page.locator('#rope-check-dims table');
  assert.equal(await table.getAttribute('aria-rowcount'), '4098');
  const drawn = await page.locator('#rope-check-dims tbody tr[aria-rowindex]').count();
  assert.ok(drawn < 100, `${drawn} rows drawn`);
  // Each step of m, by keyboard on its slider.
  const m = page.locator('#rope-check-m-slider');
  for (let i = 0; i < 6; i++) {
    await m.press('ArrowRight');
    await page.waitForFunction((v) => new URL(location.href).searchParams.get('m') === String(v), 6 + i);
  }
  // Scrolled to the end, the last dimension is there with its number.
  await page.locator('#rope-check-dims').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.locator('#rope-check-dims tbody tr[aria-rowindex="4098"] th', { hasText: '4095' }).waitFor();
  const tasks = await longTasks(page);
  console.log(`long tasks during Show all, 6 m steps and a scroll: ${tasks.length ? tasks.map((t) => t.toFixed(0)).join(', ') : 'none'}`);
  // Drawing every row was one task of 1.5 s, and each step of m after it 135–500 ms; drawing
  // only the rows in view (checked above) makes none over 50 ms on an idle machine (printed
  // here, and in docs/engineers.md). The test asserts what a student would feel, and what a busy CI
  // machine cannot push a sliced table to: no task as long as a quarter of a second.
  assert.ok(tasks.every((t) => t < 250), `tasks of ${tasks.join(', ')} ms`);
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the per-dimension table (CSV)' }).click(),
  ]);
  const file = path.join(os.tmpdir(), `pe-e2e-${process.pid}-dims.csv`);
  await dl.saveAs(file);
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  fs.rmSync(file);
  assert.equal(lines.length, 4097);
  assert.match(lines[4096], /^4095,/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a typed q of 4,096 numbers: the link says it leaves q out, and reopens to the same state otherwise', async () => {
  const { page, errors, context } = await openApp(app, '?scheme=rope&d_model=4096&length=64', { ready: (p) => waitForDraws(p, 'rope-heatmap') });
  const q = Array.from({ length: 4096 }, (_, i) => (Math.sin(i * 0.731) * 1234.5678).toFixed(6)).join(', ');
  await page.fill('#rope-check-q', q);
  await page.press('#rope-check-q', 'Tab');
  await page.fill('#rope-check-k', '1.5, -2, 3.25');
  await page.press('#rope-check-k', 'Tab');
  await page.fill('#rope-check-m-value', '7');
  await page.press('#rope-check-m-value', 'Enter');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('m') === '7');
  const note = await page.locator('#link-note').textContent();
  assert.match(note, /Not in this link: the typed query q/);
  const address = page.url();
  assert.ok(address.length < 4300, `${address.length} characters`);
  assert.equal(new URL(address).searchParams.get('qv'), null);
  assert.equal(new URL(address).searchParams.get('kv'), '1.5,-2,3.25');
  // "Copy link" shows the same link and the same note.
  await page.getByRole('button', { name: 'Copy link' }).click();
  assert.equal(await page.locator('#share-text').inputValue(), address);
  const scores = async () => page.locator('#rope-check-scores tbody tr').first().locator('td').allTextContents();
  // Reopened: the same state but the seeded q (and no notice: nothing was cut).
  const page2 = await context.newPage();
  await page2.goto(address);
  await waitForDraws(page2, 'rope-heatmap');
  assert.equal(await page2.locator('.notices').count(), 0);
  assert.equal(page2.url(), address);
  assert.equal(await page2.locator('#rope-check-k').inputValue(), '1.5, -2, 3.25');
  assert.equal(await page2.locator('#rope-check-m-value').inputValue(), '7');
  assert.match(await page2.locator('#rope-check-q ~ .control-hint').textContent(), /seeded/);
  // Seeded q on the first page too: the scores agree.
  await page.getByRole('button', { name: 'Use a seeded pair' }).click();
  await page.fill('#rope-check-k', '1.5, -2, 3.25');
  await page.press('#rope-check-k', 'Tab');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('kv') === '1.5,-2,3.25');
  assert.deepEqual(await scores(), await page2.locator('#rope-check-scores tbody tr').first().locator('td').allTextContents());
  assert.equal(await page.locator('#link-note').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
