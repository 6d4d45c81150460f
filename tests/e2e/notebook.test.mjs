// The notebook widget where it runs: the wheel `scripts/package.sh` built, installed in a
// virtual environment with JupyterLab and marimo (scripts/pyenv.sh; the test command installs
// the wheel), a real JupyterLab server on loopback running the example notebook cell by cell in
// Chromium, and `marimo run` on the marimo example. Checked: the widget draws offline; a value
// typed in the widget reaches the Python trait; a trait set in Python redraws the chart;
// figure() equals the CSV the panel downloads; every cell runs without an error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { launch } from './lib.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PYTHON = process.env.PE_PYTHON;
const NOTEBOOK = path.join(ROOT, 'python/examples/positional_encoding.ipynb');
const MARIMO = path.join(ROOT, 'python/examples/positional_encoding_marimo.py');

let browser;
const servers = [];

before(async () => {
  assert.ok(PYTHON && fs.existsSync(PYTHON), 'PE_PYTHON names the notebook environment (scripts/test.sh sets it)');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  for (const s of servers) s.kill('SIGTERM');
});

/** A free port on loopback. */
function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts `args` with the environment's Python and waits until `url` answers. */
async function start(args, url, env = {}) {
  const child = spawn(PYTHON, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  servers.push(child);
  for (let i = 0; i < 240; i++) {
    try {
      const r = await fetch(url);
      if (r.ok) return child;
    } catch {
      // not yet
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${args.join(' ')} did not answer at ${url}:\n${log.slice(-3000)}`);
}

/** A fresh page that records errors and any request off loopback. */
async function openPage() {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  const offline = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['127.0.0.1', 'localhost'].includes(u.hostname) && !['blob:', 'data:', 'about:'].includes(u.protocol)) offline.push(r.url());
  });
  return { page, offline, context };
}

const draws = (frame) => frame.evaluate(() => Math.max(0, ...[...document.querySelectorAll('#main canvas[data-draws]')].map((c) => Number(c.dataset.draws))));

test('JupyterLab: the example notebook runs cell by cell, and the widget moves both ways', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-lab-'));
  // The example, and one cell more: the chart's numbers as CSV, to hold to its Download CSV.
  const nb = JSON.parse(fs.readFileSync(NOTEBOOK, 'utf8'));
  const cell = (id, source) => ({ cell_type: 'code', id, metadata: {}, execution_count: null, outputs: [], source });
  nb.cells.push(
    cell('check-refusal', 'try:\n    offsets.d_model = 5000\nexcept Exception as e:\n    print(type(e).__name__, e)'),
    cell('check-png', 'png = offsets.export_png("chart.png")'),
    cell('check-png-written', 'print("PNG", png.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png.stat().st_size)'),
    cell('check-train', 'train = Explorer(view="train", show="panel", run=True, schemes="none,alibi", steps=30, train_len=8, width=16)\ntrain'),
    cell('check-results', 'r = train.results()\nprint("RESULTS", list(r), r["scheme"].tolist(), r["accuracy"].dtype)'),
    cell('check-back', 'offsets.base = 2000'),
    cell('check-away', 'offsets.view = "waves"'),
    cell('check-return', 'offsets.view = "offsets"'),
    cell('check-link', 'print("LINK", offsets.link)'),
    cell('check-csv', 'print(offsets.figure().to_csv())'),
  );
  fs.writeFileSync(path.join(dir, 'notebook.ipynb'), JSON.stringify(nb));
  const settings = path.join(dir, 'settings/@jupyterlab/apputils-extension');
  fs.mkdirSync(settings, { recursive: true });
  fs.writeFileSync(path.join(settings, 'notification.jupyterlab-settings'), '{"fetchNews": "false", "checkForUpdates": false}');
  // Every cell in the page (JupyterLab attaches only the cells in view by default).
  const tracker = path.join(dir, 'settings/@jupyterlab/notebook-extension');
  fs.mkdirSync(tracker, { recursive: true });
  fs.writeFileSync(path.join(tracker, 'tracker.jupyterlab-settings'), '{"windowingMode": "none"}');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  await start(
    ['-m', 'jupyter', 'lab', '--no-browser', '--allow-root', '--ip=127.0.0.1', `--port=${port}`, '--IdentityProvider.token=',
      '--ServerApp.password=', `--ServerApp.root_dir=${dir}`, '--LabApp.news_url=None',
      '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate'],
    `${base}/api/status`,
    { JUPYTER_CONFIG_DIR: path.join(dir, 'config'), JUPYTER_DATA_DIR: path.join(dir, 'data'), JUPYTER_RUNTIME_DIR: path.join(dir, 'runtime'), JUPYTERLAB_SETTINGS_DIR: path.join(dir, 'settings'), JUPYTERLAB_WORKSPACES_DIR: path.join(dir, 'workspaces') },
  );
  const { page, offline, context } = await openPage();
  const t0 = Date.now();
  await page.goto(`${base}/lab/tree/notebook.ipynb`);
  await page.waitForSelector('.jp-Notebook-ExecutionIndicator[data-status="idle"]', { timeout: 60000 });
  // The whole notebook on the page, and its kernel started.
  await page.waitForFunction((n) => document.querySelectorAll('.jp-Notebook .jp-Cell').length === n, nb.cells.length, { timeout: 60000 });
  await page.waitForFunction(() => /Idle/.test(document.querySelector('.jp-StatusBar-TextItem, .jp-KernelStatus')?.textContent ?? '') || document.querySelector('.jp-Notebook-ExecutionIndicator[data-status="idle"]'), null, { timeout: 60000 });
  const cells = page.locator('.jp-Notebook .jp-Cell');
  const total = await cells.count();
  assert.equal(total, nb.cells.length);
  const text = (i) => cells.nth(i).locator('.jp-InputArea-editor').innerText();
  const output = (i) => cells.nth(i).locator('.jp-OutputArea-output').first().innerText();
  /** Runs cell `i` as a student does (select it, Shift+Enter) and waits for it to finish. */
  const run = async (i) => {
    await cells.nth(i).locator('.jp-InputArea-prompt').click();
    await page.keyboard.press('Shift+Enter');
    await page.waitForFunction((i) => {
      const c = document.querySelectorAll('.jp-Notebook .jp-Cell')[i];
      return !c.classList.contains('jp-CodeCell') || /\[\d+\]/.test(c.querySelector('.jp-InputPrompt')?.textContent ?? '');
    }, i, { timeout: 90000 });
    await page.waitForSelector('.jp-Notebook-ExecutionIndicator[data-status="idle"]');
  };
  let frames = 0;
  const firstCharts = [];
  let firstChart = null;
  let offsets = null;
  for (let i = 0; i < total; i++) {
    const source = await text(i);
    if (source.trim() === 'offsets.base') {
      // A student types a base into the panel; Python has it in the next cell.
      await offsets.fill('#quick-base-value', '2000');
      await offsets.press('#quick-base-value', 'Enter');
      await page.waitForTimeout(800);
    }
    const before = offsets ? await draws(offsets) : 0;
    const started = Date.now();
    await run(i);
    if (source.trim() === 'offsets.base') assert.equal((await output(i)).trim(), '2000.0');
    if (source.trim() === 'offsets.base = 500') {
      // Set in Python: the panel's field and chart follow.
      await offsets.waitForFunction(() => document.getElementById('quick-base-value')?.value === '500', null, { timeout: 20000, polling: 100 });
      await offsets.waitForFunction((n) => Math.max(...[...document.querySelectorAll('#main canvas[data-draws]')].map((c) => Number(c.dataset.draws))) > n, before, { polling: 100 });
      await page.waitForTimeout(1000);
    }
    // Back to a state the frame had before (the slider's 2000): the frame follows again.
    if (source.trim() === 'offsets.base = 2000') {
      await offsets.waitForFunction(() => document.getElementById('quick-base-value')?.value === '2000', null, { timeout: 20000, polling: 100 });
    }
    // Another view, then back to the one the widget started on.
    if (source.trim() === 'offsets.view = "waves"') {
      await offsets.waitForSelector('#waves-chart, #waves-picker', { timeout: 20000, polling: 100 });
    }
    if (source.trim() === 'offsets.view = "offsets"') {
      await offsets.waitForSelector('#offsets-chart', { timeout: 20000, polling: 100 });
      await page.waitForTimeout(1200);
    }
    // A cell that shows a widget: wait for its chart (and its numbers, sent a moment later).
    if (/Explorer\(/.test(source) && !/^from /.test(source.trim())) {
      await page.waitForFunction((n) => document.querySelectorAll('iframe.pe-explorer-frame').length > n, frames, { timeout: 30000 });
      const shown = await page.locator('iframe.pe-explorer-frame').count();
      frames = shown;
      const frame = await (await page.locator('iframe.pe-explorer-frame').nth(shown - 1).elementHandle()).contentFrame();
      if (/view="train"/.test(source)) {
        // Training runs in the widget, in its own worker.
        await frame.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, { timeout: 120000, polling: 100 });
        await page.waitForTimeout(1500);
        continue;
      }
      await frame.waitForSelector('#main canvas[data-draws]:not([data-early])', { timeout: 60000 });
      firstChart ??= Date.now() - t0;
      firstCharts.push(Date.now() - started);
      offsets ??= frame;
      await page.waitForTimeout(1200);
    }
  }
  if (frames !== 4) await page.screenshot({ path: '/tmp/lab-fail.png' });
  assert.equal(frames, 5, 'five panels');
  // Every cell ran without an error or a traceback.
  const failed = await page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]').allInnerTexts();
  assert.deepEqual(failed, []);
  for (const check of ['largest gap, panel vs NumPy: ', 'every head\'s line is −m·distance', 'mean-pooled summaries equal: True']) {
    assert.ok((await page.locator('.jp-OutputArea').allInnerTexts()).some((t) => t.includes(check)), check);
  }
  // The gaps to NumPy are within the CSV's nine significant digits.
  for (const t of await page.locator('.jp-OutputArea', { hasText: 'largest gap' }).allInnerTexts()) {
    assert.ok(Number(t.split(':').pop()) < 1e-6, t);
  }
  const said = (await page.locator('.jp-OutputArea').allInnerTexts()).join('\n');
  // A bad value: the app's own words, as a TraitError.
  assert.match(said, /TraitError d_model=5000: 5000 is above the maximum for d_model \(2 … 4096\); using 4096\./);
  assert.match(said, /PNG True \d{4,}/);
  // w.link: the app's own link for the state (its query, with no site given).
  assert.match(said, /LINK \?view=offsets&d_model=64&base=2000/);
  assert.match(said, /RESULTS \['scheme', 'test_length', 'trained_length', 'accuracy', 'correct', 'counted', 'examples', 'note'\] \['none', 'none', 'none', 'none', 'alibi', 'alibi', 'alibi', 'alibi'\] float64/);
  // JupyterLab's dark theme: every panel follows it.
  // The first panel is scrolled far up by now: Chromium runs no animation frames in an off-screen
  // cross-origin frame, so these waits poll on a timer (the default polls once a frame).
  await page.evaluate(() => { document.body.dataset.jpThemeLight = 'false'; });
  await offsets.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { polling: 100 });
  await page.evaluate(() => { document.body.dataset.jpThemeLight = 'true'; });
  await offsets.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { polling: 100 });
  // figure() is the panel's Download CSV, number for number.
  const csvOut = (await output(total - 1)).trim().split('\n');
  const figureEl = offsets.locator('figure', { has: offsets.locator('#offsets-chart') });
  const [download] = await Promise.all([page.waitForEvent('download'), figureEl.getByRole('button', { name: /CSV/ }).click()]);
  const file = fs.readFileSync(await download.path(), 'utf8').trim().split('\n');
  assert.equal(csvOut[0], file[0], 'the same columns');
  assert.equal(csvOut.length, file.length, 'the same rows');
  for (let r = 1; r < file.length; r++) {
    const a = file[r].split(',').map(Number);
    const b = csvOut[r].split(',').map(Number);
    a.forEach((x, c) => assert.ok(Object.is(x, b[c]) || x === b[c], `row ${r}, column ${c}: ${x} vs ${b[c]}`));
  }
  assert.deepEqual(offline, [], 'nothing fetched beyond the notebook server');
  console.log(`# JupyterLab: first chart ${firstChart} ms after opening the notebook; cell run to chart drawn: ${firstCharts.join(', ')} ms`);
  await context.close();
});

test('marimo: the example app follows the panel, and the panel follows marimo', async () => {
  const port = await freePort();
  await start(['-m', 'marimo', 'run', MARIMO, '--host', '127.0.0.1', '--port', String(port), '--headless', '--no-token'], `http://127.0.0.1:${port}/`);
  const { page, offline, context } = await openPage();
  const t0 = Date.now();
  await page.goto(`http://127.0.0.1:${port}/`);
  const frame = await (await page.waitForSelector('iframe.pe-explorer-frame', { timeout: 60000 })).contentFrame();
  await frame.waitForSelector('#main canvas[data-draws]:not([data-early])', { timeout: 60000 });
  console.log(`# marimo: first chart ${Date.now() - t0} ms after opening the app`);
  await page.waitForFunction(() => document.body.innerText.includes("The panel's base is 10000"), null, { timeout: 20000, polling: 100 });
  // The panel moves: marimo's cell that reads it runs again.
  await frame.fill('#quick-base-value', '500');
  await frame.press('#quick-base-value', 'Enter');
  await page.waitForFunction(() => document.body.innerText.includes("The panel's base is 500 "), null, { timeout: 20000, polling: 100 });
  // marimo's slider moves: the cell that sets the trait runs, and the panel redraws.
  const before = await draws(frame);
  const slider = page.getByRole('slider', { name: /base, set from Python/ });
  await slider.focus();
  await page.keyboard.press('End');
  await frame.waitForFunction(() => document.getElementById('quick-base-value')?.value === '100000', null, { timeout: 20000, polling: 100 });
  await frame.waitForFunction((n) => Math.max(...[...document.querySelectorAll('#main canvas[data-draws]')].map((c) => Number(c.dataset.draws))) > n, before, { polling: 100 });
  assert.deepEqual(offline, []);
  await context.close();
});
