// Benchmark (not a test): slider input → chart repainted, in headless Chromium, on the built
// app; and the gzipped size of what the browser downloads. Prints Markdown tables.
//
//   node bench.mjs            # after `trunk build --release --offline`
//
// One sample: set the d_model slider (an `input` event, as a drag fires), wait until the chart
// under test has counted one more draw (`data-draws`, set right after its drawing calls), then
// force the canvas to rasterise (a 1-pixel readback). Time = from the input event to the end of
// the readback, taken inside the page; the polling loop only adds its own ≤ 1 ms granularity.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, DIST, waitForDraws } from './lib.mjs';

const RUNS = Number(process.env.RUNS ?? 15);
const parseSizes = (text) => text.split(',').map((s) => s.split('x').map(Number));
const SCENARIOS = [
  {
    name: 'Encoding heatmap',
    view: 'heatmap',
    chart: 'encoding-heatmap',
    sizes: parseSizes(process.env.SIZES ?? '100x128,1024x512,4096x1024'),
  },
  {
    name: 'Offset curves',
    view: 'offsets',
    chart: 'offsets-chart',
    sizes: parseSizes(process.env.OFFSET_SIZES ?? '100x128,1024x512,4096x1024'),
  },
];

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

/** One timed slider move; returns milliseconds from input to the chart's rasterised pixels. */
function sample(page, chart, sliderValue) {
  return page.evaluate(async ([chart, sliderValue]) => {
    const canvas = document.getElementById(chart);
    const slider = document.getElementById('d-model-slider');
    const seen = Number(canvas.dataset.draws);
    let drawn = null;
    // Note the moment the draw count changes, from inside the same task as the drawing.
    const observer = new MutationObserver(() => {
      if (drawn === null && Number(canvas.dataset.draws) > seen) drawn = performance.now();
    });
    observer.observe(canvas, { attributes: true, attributeFilter: ['data-draws'] });
    const t0 = performance.now();
    slider.value = String(sliderValue);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    for (let i = 0; i < 4000 && drawn === null; i++) {
      await new Promise((r) => setTimeout(r, 1));
    }
    observer.disconnect();
    if (drawn === null) throw new Error('no redraw');
    const f0 = performance.now();
    canvas.getContext('2d').getImageData(0, 0, 1, 1);
    return drawn - t0 + (performance.now() - f0);
  }, [chart, sliderValue]);
}

async function measure(browser, url, scenario, scale) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: scale });
  await page.goto(url);
  await waitForDraws(page, 'encoding-heatmap');
  await page.click(`#tab-${scenario.view}`);
  await waitForDraws(page, scenario.chart);
  const rows = [];
  for (const [length, d] of scenario.sizes) {
    await setField(page, 'length-value', length);
    await setField(page, 'd-model-value', d);
    await page.waitForTimeout(300);
    // Slider positions next to d on either side, so each sample really changes d_model.
    const pos = await page.evaluate(() => Number(document.getElementById('d-model-slider').value));
    const times = [];
    for (let k = 0; k < RUNS + 2; k++) {
      const t = await sample(page, scenario.chart, k % 2 ? pos + 1 : pos - 1);
      if (k >= 2) times.push(t); // the first two warm up
    }
    const shown = await page.evaluate((id) => document.getElementById(id).width, scenario.chart);
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
const only = process.env.ONLY;
for (const scenario of SCENARIOS.filter((s) => !only || s.view === only)) {
  const results = [
    ...(await measure(browser, server.url, scenario, 1)),
    ...(await measure(browser, server.url, scenario, 2)),
  ];
  console.log(`\n${scenario.name}: slider input → repainted (Chromium ${version}, headless, median of ${RUNS})\n`);
  console.log('| length × d_model | device pixel ratio | canvas px wide | median ms | min ms | max ms |');
  console.log('|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(`| ${r.length} × ${r.d} | ${r.scale} | ${r.canvas} | ${r.median.toFixed(1)} | ${r.min.toFixed(1)} | ${r.max.toFixed(1)} |`);
  }
}
await browser.close();
await server.close();
const s = sizes();
const total = s.reduce((n, x) => n + x.gzip, 0);
console.log('\nTransfer size (gzip -9)\n');
console.log('| file | bytes | gzipped |');
console.log('|---|---|---|');
for (const x of s) console.log(`| ${x.ext} | ${x.raw} | ${x.gzip} |`);
console.log(`| total | ${s.reduce((n, x) => n + x.raw, 0)} | ${total} (${(total / 1024).toFixed(1)} KB) |`);
