// Benchmark (not a test): slider input → heatmap repainted, in headless Chromium, on the built
// app; and the gzipped size of what the browser downloads. Prints a Markdown table.
//
//   node bench.mjs            # after `trunk build --release --offline`
//
// One sample: set the d_model slider (an `input` event, as a drag fires), wait for the app's
// `heatmap-drawn` performance mark, then force the canvas to rasterise (a 1-pixel readback).
// Time = (mark − input) + readback. Waiting between the two is not counted.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, DIST, waitForDraws } from './lib.mjs';

const RUNS = Number(process.env.RUNS ?? 15);
const SIZES = (process.env.SIZES ?? '100x128,1024x512,4096x1024')
  .split(',')
  .map((s) => s.split('x').map(Number));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function setField(page, id, value) {
  await page.evaluate(
    ([id, value]) => {
      const el = document.getElementById(id);
      el.value = String(value);
      el.dispatchEvent(new Event('change', { bubbles: true }));
    },
    [id, value],
  );
}

/** One timed slider move; returns milliseconds from input to rasterised pixels. */
function sample(page, sliderValue) {
  return page.evaluate(async (sliderValue) => {
    const canvas = document.getElementById('encoding-heatmap');
    const slider = document.getElementById('d-model-slider');
    const seen = performance.getEntriesByName('heatmap-drawn').length;
    const t0 = performance.now();
    slider.value = String(sliderValue);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    for (let i = 0; i < 2000; i++) {
      const marks = performance.getEntriesByName('heatmap-drawn');
      if (marks.length > seen) {
        const drawn = marks[marks.length - 1].startTime;
        const f0 = performance.now();
        canvas.getContext('2d').getImageData(0, 0, 1, 1);
        return drawn - t0 + (performance.now() - f0);
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    throw new Error('no redraw');
  }, sliderValue);
}

async function measure(browser, url, scale) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: scale });
  await page.goto(url);
  await waitForDraws(page, 'encoding-heatmap');
  const rows = [];
  for (const [length, d] of SIZES) {
    await setField(page, 'length-value', length);
    await setField(page, 'd-model-value', d);
    await page.waitForTimeout(200);
    // Slider positions that land near d on either side, so each sample really changes d_model.
    const pos = await page.evaluate(() => Number(document.getElementById('d-model-slider').value));
    const times = [];
    for (let k = 0; k < RUNS + 2; k++) {
      const t = await sample(page, k % 2 ? pos + 1 : pos - 1);
      if (k >= 2) times.push(t); // the first two warm up
    }
    const shown = await page.evaluate(() => document.getElementById('encoding-heatmap').width);
    rows.push({ length, d, scale, median: median(times), min: Math.min(...times), max: Math.max(...times), canvas: shown });
  }
  await page.close();
  return rows;
}

function sizes() {
  const files = fs.readdirSync(DIST);
  const pick = (ext) => files.filter((f) => f.endsWith(ext)).map((f) => path.join(DIST, f));
  const gz = (fs_) => fs_.reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length, 0);
  const raw = (fs_) => fs_.reduce((n, f) => n + fs.statSync(f).size, 0);
  return ['.wasm', '.js', '.css'].map((ext) => ({ ext, raw: raw(pick(ext)), gzip: gz(pick(ext)) }));
}

const server = await serve(DIST);
const browser = await launch();
const version = browser.version();
const results = [...(await measure(browser, server.url, 1)), ...(await measure(browser, server.url, 2))];
await browser.close();
await server.close();

console.log(`\nSlider input → heatmap repainted (Chromium ${version}, headless, median of ${RUNS})\n`);
console.log('| length × d_model | device pixel ratio | canvas px wide | median ms | min ms | max ms |');
console.log('|---|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.length} × ${r.d} | ${r.scale} | ${r.canvas} | ${r.median.toFixed(1)} | ${r.min.toFixed(1)} | ${r.max.toFixed(1)} |`);
}
const s = sizes();
const total = s.reduce((n, x) => n + x.gzip, 0);
console.log('\nTransfer size (gzip -9)\n');
console.log('| file | bytes | gzipped |');
console.log('|---|---|---|');
for (const x of s) console.log(`| ${x.ext} | ${x.raw} | ${x.gzip} |`);
console.log(`| total | ${s.reduce((n, x) => n + x.raw, 0)} | ${total} (${(total / 1024).toFixed(1)} KB) |`);
