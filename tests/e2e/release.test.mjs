// The release artifacts as a teacher without Rust uses them: the single file opened from disk
// and framed in a sandbox on a host that sends no CORS headers (every view draws, a model
// trains), the site zip unpacked onto a plain static server under a sub-path (its embeds work),
// and the workflow that publishes them, checked with actionlint. They are the files
// `scripts/package.py` wrote into release/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { serve, launch, appTakenOver } from './lib.mjs';

const RELEASE = process.env.RELEASE ?? path.resolve(import.meta.dirname, '../../release');
const SINGLE = path.join(RELEASE, 'pe-explorer.html');
const WORKFLOW = path.resolve(import.meta.dirname, '../../.github/workflows/pages.yml');

// Every view's id, and what shows it is working.
const VIEWS = ['heatmap', 'attention', 'offsets', 'waves', 'rotations', 'norms', 'addition', 'compare', 'patches', 'lesson', 'quiz', 'train'];
// A small experiment that finishes in seconds.
const TRAIN = 'run=1&schemes=none,alibi&steps=30&train_len=8&width=16';

let browser;
before(async () => {
  assert.ok(fs.existsSync(SINGLE), `${SINGLE} is missing: run bash scripts/package.sh first (the test command does)`);
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Waits until the app has taken over and `view`'s page shows what it should. */
async function viewReady(frame, view) {
  await appTakenOver(frame);
  if (view === 'quiz') return frame.waitForSelector('.quiz-card');
  if (view === 'train') return frame.waitForSelector('section.train');
  return frame.waitForFunction(() => [...document.querySelectorAll('#main canvas[data-draws]')].some((c) => Number(c.dataset.draws) >= 1), null, { timeout: 20000, polling: 100 });
}

/** A page that records every request that is not for the page's own file, a blob or data. */
async function openPage(viewport = { width: 1400, height: 1000 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A host page without an icon makes the browser ask the server root for one: not the app's.
  page.on('console', (m) => m.type() === 'error' && !m.location().url?.endsWith('/favicon.ico') && errors.push(m.text()));
  page.on('request', (r) => requests.push(r.url()));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  return { page, errors, requests, context };
}

test('the workflow that publishes the site and attaches the artifacts passes actionlint', async () => {
  const { createLinter } = createRequire(import.meta.url)('actionlint');
  const lint = await createLinter();
  const text = fs.readFileSync(WORKFLOW, 'utf8');
  assert.deepEqual(lint(text, WORKFLOW), []);
  // It builds with the same script a maintainer runs.
  assert.match(text, /run: bash scripts\/package\.sh/);
});

test('the single file opened from disk: every view draws and a model trains, with no request beyond the file', async () => {
  const { page, errors, requests, context } = await openPage();
  const file = 'file://' + SINGLE;
  for (const view of VIEWS) {
    await page.goto(`${file}?view=${view}`);
    await viewReady(page, view);
    const params = new URL(page.url()).searchParams;
    assert.equal(params.has('lesson') ? 'lesson' : params.get('view') ?? 'heatmap', view);
  }
  await page.goto(`${file}?view=train&${TRAIN}`);
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, { timeout: 120000 });
  const rows = await page.locator('#train-table tbody tr').count();
  assert.ok(rows >= 2, `${rows} result rows`);
  // The script's download link carries the script itself.
  const href = await page.locator('#train-script').getAttribute('href');
  assert.match(href, /^data:text\/plain;charset=utf-8,/);
  assert.match(decodeURIComponent(href.slice(href.indexOf(',') + 1)), /safetensors/);
  const foreign = requests.filter((u) => !u.startsWith('file://') && !u.startsWith('blob:') && !u.startsWith('data:'));
  assert.deepEqual(foreign, []);
  const files = new Set(requests.filter((u) => u.startsWith('file://')).map((u) => u.split('?')[0]));
  assert.deepEqual([...files], [file], 'only the file itself is read');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the single file in a sandboxed frame on a host without CORS headers draws and trains', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-single-'));
  fs.copyFileSync(SINGLE, path.join(dir, 'pe-explorer.html'));
  const files = await serve(dir, '/', { cors: false });
  const courseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-course-'));
  fs.writeFileSync(path.join(courseDir, 'index.html'), '<!DOCTYPE html><title>Course</title><link rel="icon" href="data:,">');
  const course = await serve(courseDir);
  const { page, errors, requests, context } = await openPage({ width: 390, height: 844 });
  // Also when an assertion fails: an open server would keep this file's run from ending.
  t.after(async () => {
    await context.close();
    await files.close();
    await course.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(courseDir, { recursive: true, force: true });
  });
  const sandbox = 'allow-scripts';
  await page.goto(course.url);
  await page.setContent(`<!DOCTYPE html><html><body>
    <iframe name="chart" sandbox="${sandbox}" style="width:380px;height:700px;border:0"
      src="${files.url}pe-explorer.html?embed=offsets&show=chart"></iframe>
    <iframe name="train" sandbox="${sandbox}" style="width:380px;height:900px;border:0"
      src="${files.url}pe-explorer.html?embed=train&${TRAIN}"></iframe></body></html>`);
  const chart = page.frame({ name: 'chart' });
  await chart.waitForSelector('.embed-main canvas[data-draws]:not([data-early])', { timeout: 20000 });
  const train = page.frame({ name: 'train' });
  await train.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, { timeout: 120000, polling: 100 });
  // The frames fetched nothing but the file: no CORS request could fail.
  const fromHost = requests.filter((u) => u.startsWith(files.url)).map((u) => new URL(u).pathname);
  assert.deepEqual([...new Set(fromHost)], ['/pe-explorer.html']);
  assert.deepEqual(errors, []);
});

test('the site zip, unpacked under a sub-path of a plain static server: the app and its embeds work', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-site-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  execFileSync('python3', ['-m', 'zipfile', '-e', path.join(RELEASE, 'pe-explorer-site.zip'), dir]);
  const site = path.join(dir, 'pe-explorer');
  for (const f of ['index.html', '_headers', '.htaccess', 'HOSTING.md', 'worker.js', 'app/pe-explorer_bg.wasm']) {
    assert.ok(fs.existsSync(path.join(site, f)), `${f} in the zip`);
  }
  assert.match(fs.readFileSync(path.join(site, '_headers'), 'utf8'), /Access-Control-Allow-Origin: \*/);
  assert.equal(fs.readdirSync(site, { recursive: true }).filter((f) => /\.(gz|br)$/.test(f)).length, 0, 'no precompressed copies');
  const sub = await serve(site, '/courses/pe/');
  const { page, errors, context } = await openPage({ width: 1200, height: 900 });
  t.after(async () => {
    await context.close();
    await sub.close();
  });
  await page.goto(sub.url + '?d_model=16');
  await viewReady(page, 'heatmap');
  assert.equal(await page.locator('#d-model-value').inputValue(), '16');
  await page.goto(sub.url + 'examples/course.html');
  // Every panel loads, and the page's script makes each frame as tall as its panel.
  const frames = page.locator('iframe');
  const count = await frames.count();
  assert.ok(count >= 4, `${count} panels`);
  for (let i = 0; i < count; i++) {
    const frame = await (await frames.nth(i).elementHandle()).contentFrame();
    await frame.waitForSelector('.embed-main canvas[data-draws]:not([data-early])', { timeout: 20000 });
  }
  await page.waitForTimeout(3500);
  for (let i = 0; i < count; i++) {
    const handle = await frames.nth(i).elementHandle();
    const inner = await (await handle.contentFrame()).evaluate(() => document.querySelector('.embed').scrollHeight);
    const outer = await handle.evaluate((f) => f.getBoundingClientRect().height);
    assert.ok(Math.abs(inner - outer) <= 2, `panel ${i}: frame ${outer} px for a panel of ${inner} px`);
  }
  assert.deepEqual(errors, []);
});
