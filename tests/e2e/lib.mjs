// Shared helpers for the end-to-end tests and benchmarks: a static server for the built app and
// a headless Chromium launched through playwright-core (the system browser, never a download).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { before, after } from 'node:test';
import os from 'node:os';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/**
 * Serves `root` on 127.0.0.1 (a free port), optionally under a path prefix such as `/courses/pe/`.
 * With `compress`, as a static host does: a precompressed `.br` or `.gz` beside the file when the
 * browser accepts it, otherwise gzip on the fly for text and wasm. A file sent whole says its
 * length, as a static host's does. With `cors: false`, as a host
 * that sends no Access-Control-Allow-Origin (a sandboxed frame cannot load the app from it).
 * `cache` is the Cache-Control header (`max-age=600`: as GitHub Pages sends).
 */
export async function serve(root, prefix = '/', { compress = false, cors = true, cache = 'no-store' } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let rel = decodeURIComponent(url.pathname);
    if (!rel.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    rel = rel.slice(prefix.length);
    let file = path.join(root, rel);
    if (!file.startsWith(path.resolve(root))) {
      res.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!fs.existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    const headers = {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': cache,
      // As a static host like GitHub Pages does: sandboxed frames (opaque origin) load the app
      // with CORS requests.
      'access-control-allow-origin': '*',
    };
    if (!cors) delete headers['access-control-allow-origin'];
    if (compress) {
      const accept = String(req.headers['accept-encoding'] ?? '');
      headers.vary = 'accept-encoding';
      for (const [enc, ext] of [['br', '.br'], ['gzip', '.gz']]) {
        if (accept.includes(enc) && fs.existsSync(file + ext)) {
          res.writeHead(200, { ...headers, 'content-encoding': enc, 'content-length': fs.statSync(file + ext).size });
          fs.createReadStream(file + ext).pipe(res);
          return;
        }
      }
      if (accept.includes('gzip') && /\.(html|js|mjs|css|wasm|svg|json|py)$/.test(file)) {
        res.writeHead(200, { ...headers, 'content-encoding': 'gzip' });
        fs.createReadStream(file).pipe(zlib.createGzip({ level: 9 })).pipe(res);
        return;
      }
    }
    res.writeHead(200, { ...headers, 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  // Closed at once: a browser that stays open keeps its idle connections, which close() waits for.
  return { url: `http://127.0.0.1:${port}${prefix}`, close: () => new Promise((r) => { server.close(r); server.closeAllConnections(); }) };
}

/** The median of the numbers in `xs` (null and undefined left out; null if none is left). */
export const median = (xs) => {
  const s = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Headless Chromium with the flags that work as root on a machine without internet. */
export async function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/** The built app's directory (set DIST to test another build). */
export const DIST = process.env.DIST ?? path.resolve(import.meta.dirname, '../../dist');

/**
 * For a test file: serves `root` and launches Chromium before its tests, and stops both after.
 * The returned object's `server` and `browser` are set once they have started.
 */
export function useApp(root = DIST) {
  const app = {};
  before(async () => {
    app.server = await serve(root);
    app.browser = await launch();
  });
  after(async () => {
    await app.browser?.close();
    await app.server?.close();
  });
  return app;
}

/**
 * Opens the app at `query` in a fresh context (empty cache, storage of its own), collecting
 * console errors, uncaught exceptions and dialogs (dismissed). `context` adds context options;
 * `ready` waits for what the test needs first (by default the encoding heatmap's first draw;
 * `null` waits for nothing).
 */
export async function openApp(app, query = '', { context = {}, ready = (page) => waitForDraws(page, 'encoding-heatmap') } = {}) {
  const ctx = await app.browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true, ...context });
  const page = await ctx.newPage();
  const errors = [];
  const dialogs = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  await page.goto(app.server.url + query);
  if (ready) await ready(page);
  return { page, errors, dialogs, context: ctx };
}

/** Waits until the app has taken the page over from the first paint (in `page` or a frame). */
export async function appTakenOver(page, timeout = 20000) {
  await page.waitForFunction(() => window.wasmBindings && !document.getElementById('early') && !document.getElementById('boot'), null, { timeout });
}

/** Waits until the heatmap with `id` has been drawn at least `count` times. */
export async function waitForDraws(page, id, count = 1) {
  await page.waitForFunction(
    ([id, count]) => Number(document.getElementById(id)?.dataset.draws ?? 0) >= count,
    [id, count],
    { timeout: 15000 },
  );
}

/** Number of draws so far of the heatmap with `id`. */
export async function draws(page, id) {
  return page.evaluate((id) => Number(document.getElementById(id)?.dataset.draws ?? 0), id);
}

/** Sets the value of the input at `selector` and fires `event` (`input`, as a drag does; `change`, as an edit does). */
export async function setValue(page, selector, value, event = 'input') {
  await page.evaluate(
    ([selector, value, event]) => {
      const el = document.querySelector(selector);
      el.value = String(value);
      el.dispatchEvent(new Event(event, { bubbles: true }));
    },
    [selector, value, event],
  );
}

/** Sets a range input to `value` and fires `input`, as a drag does. */
export async function slide(page, selector, value) {
  await setValue(page, selector, value, 'input');
}

/** Presses a button (the CSV one unless `button` says) of the figure holding `#chart` and returns the lines of the file it downloads. */
export async function figureDownload(page, chart, button = /CSV/) {
  const figure = page.locator('figure', { has: page.locator(`#${chart}`) });
  const [file] = await Promise.all([page.waitForEvent('download'), figure.getByRole('button', { name: button }).click()]);
  return fs.readFileSync(await file.path(), 'utf8').trim().split('\n');
}

/** Counts main-thread tasks over 50 ms from now on (`window.longTasks`). */
export async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((l) => window.longTasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
}

/** The durations of the tasks over 50 ms since [`watchLongTasks`]. */
export const longTasks = (page) => page.evaluate(() => window.longTasks);

/** Clicks `button` in the page and returns the ms until the Train view's phase is `to`. */
export const timeTo = (page, button, to) =>
  page.evaluate(
    ([button, to]) =>
      new Promise((resolve) => {
        const section = document.querySelector('section.train');
        const t0 = performance.now();
        const obs = new MutationObserver(() => {
          if (section.dataset.phase === to) {
            obs.disconnect();
            resolve(performance.now() - t0);
          }
        });
        obs.observe(section, { attributes: true });
        document.getElementById(button).click();
      }),
    [button, to],
  );

/** Clicks the Train view's Clear and returns the ms until its workers are gone (as the DevTools protocol reports it). */
export async function timeClear(page) {
  const closed = Promise.all(page.workers().map((w) => new Promise((resolve) => w.once('close', resolve))));
  const t0 = Date.now();
  await page.evaluate(() => document.getElementById('train-cancel').click());
  await closed;
  return Date.now() - t0;
}

/**
 * Distinct colours inside a chart's plot rectangle (from its `data-plot` attribute, in CSS
 * pixels). The axes, caption and colour bar are outside it, so a blank plot gives one colour.
 */
export async function plotColours(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    const [left, top, width, height] = c.dataset.plot.split(' ').map(Number);
    const k = c.width / c.getBoundingClientRect().width;
    const x = Math.ceil(left * k) + 1;
    const y = Math.ceil(top * k) + 1;
    const w = Math.floor(width * k) - 2;
    const h = Math.floor(height * k) - 2;
    const d = c.getContext('2d').getImageData(x, y, w, h).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  }, id);
}

/** A hash of the pixels inside a chart's plot rectangle. */
export async function plotHash(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    const [left, top, width, height] = c.dataset.plot.split(' ').map(Number);
    const k = c.width / c.getBoundingClientRect().width;
    const d = c.getContext('2d').getImageData(Math.ceil(left * k), Math.ceil(top * k),
      Math.floor(width * k), Math.floor(height * k)).data;
    let h = 2166136261;
    for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i], 16777619);
    return h >>> 0;
  }, id);
}

/** Pages and images in a PDF Chromium wrote (its page and image objects are plain text). */
export function pdfFacts(buffer) {
  const text = buffer.toString('latin1');
  return {
    pages: (text.match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length,
    images: (text.match(/\/Subtype\s*\/Image/g) ?? []).length,
  };
}

/** How many workers the Train view starts here for an experiment of `runs` runs: one per core, at most four, no more than the runs. */
export const workersFor = (runs) => Math.max(1, Math.min(os.availableParallelism(), 4, runs));

/**
 * The page's workers once `expected` of them are in Playwright's list, or after two seconds:
 * a worker the page has started joins the list when the browser reports it, a moment later
 * (the status line can say "Training" first).
 */
export async function workersSoon(page, expected) {
  for (let t = 0; page.workers().length < expected && t < 40; t++) await page.waitForTimeout(50);
  return page.workers().length;
}

/**
 * Holds the pack `name` back in `page` (app/pack_NAME.wasm: a chunk's files, packed by
 * scripts/chunks.mjs) until `release()`; `asked` resolves when the page has asked for it.
 */
export async function holdPack(page, name) {
  let release, ask;
  const held = new Promise((r) => (release = r));
  const asked = new Promise((r) => (ask = r));
  await page.route(`**/app/pack_${name}.wasm`, async (route) => {
    ask();
    await held;
    await route.continue();
  });
  return { release, asked };
}

/**
 * Holds the app back in `page` (the chunk of the site's module that holds it, src/main.rs): the
 * first paint runs alone until `release()`; `asked` resolves when it has asked for the app.
 */
export const holdApp = (page) => holdPack(page, 'app');

/**
 * A new page of `app`, not yet opened, on which the chunk `name` (src/ui/lazy.rs; its files are
 * packed into app/pack_NAME.wasm by scripts/chunks.mjs) does not arrive, as offline, until
 * `online()`; `thrown` collects uncaught errors.
 */
export async function offlineChunk(app, name) {
  const context = await app.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const thrown = [];
  page.on('pageerror', (e) => thrown.push(e.message));
  // The prefetch when the page is idle fails too.
  let offline = true;
  await context.route(`**/app/pack_${name}.wasm`, (route) => (offline ? route.abort('internetdisconnected') : route.continue()));
  return { context, page, thrown, online: () => { offline = false; } };
}

/** The page of {@link offlineChunk}, opened on the matrix. */
export async function withoutChunk(app, name) {
  const offline = await offlineChunk(app, name);
  await offline.page.goto(app.server.url + '?view=heatmap');
  await waitForDraws(offline.page, 'encoding-heatmap');
  return offline;
}

/** The failure note of a view whose chunk did not arrive, then Try again once `online()` drew `chart`. */
export async function triedAgain(page, online, chart) {
  const note = page.locator('.view-failed');
  await note.waitFor();
  assert.match(await note.textContent(), /This view could not be loaded .*Check the connection and try again/);
  online();
  await page.getByRole('button', { name: 'Try again' }).click();
  await waitForDraws(page, chart);
  await note.waitFor({ state: 'detached' });
}
