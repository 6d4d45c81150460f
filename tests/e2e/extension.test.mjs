// End-to-end tests of context extension in the Train view: a student picks the passkey task,
// trains, presses Extend, and every method's zero-shot and fine-tuned tables, fine-tuning curves,
// needle-in-a-haystack maps and the claims checked against the run appear, with numbers from the
// run; the same inside a sandboxed frame, from a link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, longTasks, watchLongTasks, draws } from './lib.mjs';

const app = useApp();
// Small enough for CI, large enough to learn: two schemes, 200 steps at length 8, width 16, 6
// fine-tuning steps.
const SMALL = '&task=passkey&schemes=causal,rope&steps=200&lr=0.02&train_len=8&width=16&tune_steps=6';
const METHODS = ['extrapolate', 'pi', 'ntk', 'dynamic', 'yarn', 'llama3', 'longrope', 'drope'];

// Done, with the run's results drawn (a part from a chunk of its own, src/ui/parts.rs).
const done = async (page, timeout = 180000) => {
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, { timeout });
  await page.waitForFunction(() => !document.querySelector('section.train .lazy-part'), null, { timeout: 30000 });
};

const rowCells = (page, table, run) =>
  page.locator(`#${table} tbody tr[data-run="${run}"] td .train-acc`).allTextContents();

test('passkey: Train, then Extend shows every method zero-shot and fine-tuned, from the run', async () => {
  const { page, errors, context } = await openApp(app, `?view=train${SMALL}`, {
    ready: (p) => p.waitForSelector('#train-start'),
  });
  await page.click('#train-start');
  await done(page);
  const trained = (await page.locator('.train-status').textContent()).match(/took (.+)$/)[1];
  // Before Extend: the button is on, and no extension row is in the main table.
  assert.equal(await page.locator('#train-extend').isEnabled(), true);
  assert.equal(await page.locator('#train-table tbody tr').count(), 2);
  const ropeRow = await page.locator('#train-table tbody tr').nth(1).locator('.train-acc').allTextContents();

  await watchLongTasks(page);
  await page.click('#train-extend');
  await page.waitForFunction(() => /Fine-tuning|Testing/.test(document.querySelector('.train-status')?.textContent ?? ''));
  await done(page);
  // Extend's time is its own; the training it continued from is said apart, as it was shown.
  assert.match(await page.locator('.train-status').textContent(), new RegExp(`took .+, after ${trained} of training$`));
  // The trained models stayed: the main table is the same.
  assert.equal(await page.locator('#train-table tbody tr').count(), 2);
  assert.deepEqual(await page.locator('#train-table tbody tr').nth(1).locator('.train-acc').allTextContents(), ropeRow);

  // Zero-shot: the causal baseline and the eight methods; tuned: eight rows; 4 lengths each.
  const zeroRuns = await page.locator('#train-zero tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.run));
  assert.deepEqual(zeroRuns, ['causal', ...METHODS.map((m) => `rope+${m}`)]);
  const tunedRuns = await page.locator('#train-tuned tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.run));
  assert.deepEqual(tunedRuns, METHODS.map((m) => `rope+${m}+ft`));
  for (const run of zeroRuns) {
    const cells = await rowCells(page, 'train-zero', run);
    assert.equal(cells.length, 4, run);
    for (const c of cells) assert.match(c, /^\d+(\.\d+)? %$/, `${run}: ${c}`);
  }
  // Plain extrapolation is the trained RoPE model unchanged: its row is the RoPE row.
  assert.deepEqual(await rowCells(page, 'train-zero', 'rope+extrapolate'), ropeRow);
  // The causal baseline's row is the main table's.
  assert.deepEqual(
    await rowCells(page, 'train-zero', 'causal'),
    await page.locator('#train-table tbody tr').nth(0).locator('.train-acc').allTextContents(),
  );

  // Two needle maps side by side; each picks any of the 17 models (RoPE, 8 zero-shot, 8 tuned)
  // and redraws. The fine-tuning curves are drawn.
  await page.waitForSelector('#train-needle-map-left[data-draws]');
  await page.waitForSelector('#train-needle-map-right[data-draws]');
  const options = await page.locator('#train-needle-right option').allTextContents();
  assert.equal(options.length, 17);
  assert.equal(options[0], 'RoPE');
  const before = await draws(page, 'train-needle-map-right');
  await page.selectOption('#train-needle-right', { label: 'DroPE, recalibrated' });
  await page.waitForFunction(([id, n]) => Number(document.getElementById(id)?.dataset.draws) > n, ['train-needle-map-right', before]);
  await page.waitForSelector('#train-tune-curve[data-draws]');
  // Each method's row links to the RoPE view with the same head width, θ and factor.
  const href = await page.locator('#train-zero tr[data-run="rope+yarn"] a').getAttribute('href');
  assert.match(href, /scheme=rope/);
  assert.match(href, /extension=yarn/);
  assert.match(href, /d_model=8\b/);
  assert.match(href, /factor=4\b/);
  // Claims checked on the run: each says reproduced, not reproduced, or undecided.
  const findings = await page.locator('#train-findings li').count();
  assert.ok(findings >= 3, `findings: ${findings}`);
  const summary = await page.locator('#train-extend-summary').textContent();
  assert.match(summary, /With no fine-tuning, at length 64: (best .+ \(\d|every method scores \d)/);
  // The link carries the extension.
  assert.match(page.url(), /extend=/);
  const tasks = (await longTasks(page)).filter((t) => t > 50);

  // A pasted config is one more method, read as the RoPE view's paste box reads it: Llama 3.1's
  // rope_scaling at factor 4 runs exactly as the llama3 row does. A config without one is refused.
  await page.fill('#train-extend-config', '{"rope_theta": 500000.0}');
  await page.click('#train-extend-config-apply');
  await page.locator('#train-extend-config-error').waitFor();
  await page.fill('#train-extend-config', '{"rope_scaling": {"factor": 4.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,\n "original_max_position_embeddings": 8192, "rope_type": "llama3"}}');
  await page.click('#train-extend-config-apply');
  await page.locator('#train-extend-config-read').waitFor();
  await page.click('#train-extend');
  await page.waitForFunction(() => document.querySelector('#train-zero tr[data-run="rope+config"]'));
  await done(page);
  assert.deepEqual(await rowCells(page, 'train-zero', 'rope+config'), await rowCells(page, 'train-zero', 'rope+llama3'));
  assert.deepEqual(await rowCells(page, 'train-tuned', 'rope+config+ft'), await rowCells(page, 'train-tuned', 'rope+llama3+ft'));
  assert.match(page.url(), /rope_config=/);
  assert.deepEqual(errors, []);
  console.log(`long main-thread tasks over 50 ms while extending: ${JSON.stringify(tasks)}`);
  await context.close();
});

test('inside a sandboxed iframe a linked passkey experiment trains and extends', async () => {
  const { page, errors, context } = await openApp(app, '');
  await page.setContent(`<!DOCTYPE html><html><body>
    <iframe id="f" sandbox="allow-scripts" style="width:1100px;height:1400px;border:0"
      src="${app.server.url}?embed=train&run=1${SMALL}&schemes=rope&extend=pi,yarn,drope&tune_steps=4"></iframe>
    </body></html>`);
  const frame = page.frameLocator('#f');
  await frame.locator('section.train[data-phase="done"]').waitFor({ timeout: 180000 });
  await frame.locator('#train-tuned tbody tr').first().waitFor();
  const runs = await frame.locator('#train-zero tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.run));
  assert.deepEqual(runs, ['rope+pi', 'rope+yarn', 'rope+drope']);
  assert.equal(await frame.locator('#train-tuned tbody tr').count(), 3);
  assert.deepEqual(errors, []);
  await context.close();
});
