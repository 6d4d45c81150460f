// Benchmarks (not tests): the budgets of docs/benchmarks.md, measured in headless Chromium on the
// built app, printed as Markdown tables.
//
//   node bench.mjs                 # after `trunk build --release --offline`; every section
//   ONLY=repaint node bench.mjs    # one section: repaint, firstpaint, longtasks, sidebyside, size
//   ONLY=longtasks VIEWS=compare,rope/offsets node bench.mjs   # long tasks in some views only
//
// repaint     slider input → chart repainted. One sample: set the d_model slider (an `input`
//             event, as a drag fires), wait until the chart has counted one more draw
//             (`data-draws`, set right after its drawing calls), then force the canvas to
//             rasterise (a 1-pixel readback). Timed inside the page.
// firstpaint  navigation → first heatmap drawn, each run in a fresh browser context (cold cache).
// longtasks   every view and scheme at 65,536 × 4,096 while each slider is dragged, one input per
//             animation frame: the main-thread tasks over 50 ms (PerformanceObserver 'longtask').
// sidebyside  the sinusoidal matrix computed by the app's wasm, by plain JavaScript
//             (Math.sin/Math.cos per cell) in the same page, and by NumPy; the heatmap update
//             against NumPy + matplotlib re-rendering the same heatmap.
// size        the gzipped transfer size of wasm + js + css.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { median, serve, launch, DIST, waitForDraws, setValue } from './lib.mjs';

const RUNS = Number(process.env.RUNS ?? 15);
const ONLY = process.env.ONLY;
const parseSizes = (text) => text.split(',').map((s) => s.split('x').map(Number));
const SCENARIOS = [
  {
    name: 'Encoding heatmap',
    view: 'heatmap',
    chart: 'encoding-heatmap',
    sizes: parseSizes(process.env.SIZES ?? '100x128,1024x512,4096x1024,65536x4096'),
  },
  {
    name: 'Offset curves',
    view: 'offsets',
    chart: 'offsets-chart',
    sizes: parseSizes(process.env.OFFSET_SIZES ?? '100x128,1024x512,4096x1024,65536x4096'),
  },
];
const SIDE_BY_SIDE = parseSizes(process.env.SIDE_SIZES ?? '1024x512,8192x1024');

const ms = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** Types a value into the field with `id` (its `change` event, as an edit fires). */
const setField = (page, id, value) => setValue(page, `#${id}`, value, 'change');

/** One timed slider move; returns milliseconds from input to the chart's rasterised pixels. */
function sample(page, chart, sliderValue) {
  return page.evaluate(async ([chart, sliderValue]) => {
    const canvas = document.getElementById(chart);
    const slider = document.getElementById('d-model-slider');
    const seen = Number(canvas.dataset.draws);
    let drawn = null;
    // Views that compute large results in slices keep showing the last result meanwhile and
    // say what their result is for: wait for the draw of the new one.
    const computed = document.querySelector('[data-computed-d-model]');
    const current = () => !computed
      || computed.dataset.computedDModel === document.getElementById('d-model-value').value;
    // Note the moment the draw count changes, from inside the same task as the drawing.
    const observer = new MutationObserver(() => {
      if (drawn === null && Number(canvas.dataset.draws) > seen && current()) drawn = performance.now();
    });
    observer.observe(canvas, { attributes: true, attributeFilter: ['data-draws'] });
    const t0 = performance.now();
    slider.value = String(sliderValue);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    for (let i = 0; i < 20000 && drawn === null; i++) {
      await new Promise((r) => setTimeout(r, 1));
    }
    observer.disconnect();
    if (drawn === null) throw new Error('no redraw');
    const f0 = performance.now();
    canvas.getContext('2d').getImageData(0, 0, 1, 1);
    return drawn - t0 + (performance.now() - f0);
  }, [chart, sliderValue]);
}

async function measureRepaint(browser, url, scenario, scale) {
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
      const t = await sample(page, scenario.chart, k % 2 ? pos - 1 : pos + (d < 4096 ? 1 : -2));
      if (k >= 2) times.push(t); // the first two warm up
    }
    const shown = await page.evaluate((id) => document.getElementById(id).width, scenario.chart);
    rows.push({ length, d, scale, median: median(times), min: Math.min(...times), max: Math.max(...times), canvas: shown });
  }
  await page.close();
  return rows;
}

async function repaint(browser, url) {
  const out = {};
  for (const scenario of SCENARIOS) {
    const results = [
      ...(await measureRepaint(browser, url, scenario, 1)),
      ...(await measureRepaint(browser, url, scenario, 2)),
    ];
    out[scenario.view] = results;
    console.log(`\n${scenario.name}: slider input → repainted (median of ${RUNS})\n`);
    console.log('| length × d_model | device pixel ratio | canvas px wide | median ms | min ms | max ms |');
    console.log('|---|---|---|---|---|---|');
    for (const r of results) {
      console.log(`| ${r.length} × ${r.d} | ${r.scale} | ${r.canvas} | ${ms(r.median)} | ${ms(r.min)} | ${ms(r.max)} |`);
    }
  }
  return out;
}

async function firstPaint(browser, url) {
  const runs = Math.max(5, Math.min(RUNS, 9));
  const times = [];
  for (let k = 0; k < runs + 1; k++) {
    // A new context has an empty HTTP cache and no compiled-wasm cache: a cold load.
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    await page.goto(url);
    await waitForDraws(page, 'encoding-heatmap');
    const t = await page.evaluate(() => performance.getEntriesByName('heatmap-drawn')[0].startTime);
    if (k > 0) times.push(t);
    await context.close();
  }
  console.log(`\nFirst heatmap painted after navigation, cold cache, localhost (median of ${runs}): `
    + `${ms(median(times))} ms (min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))})`);
}

const LONG_VIEWS = [
  ...['sinusoidal', 'learned', 'rope', 'alibi', 't5', 'kerple', 'fire', 'none'].flatMap((scheme) =>
    ['heatmap', 'offsets', 'attention', 'compare'].map((view) => ({ scheme, view }))),
  ...['waves', 'rotations', 'norms', 'addition'].map((view) => ({ scheme: 'sinusoidal', view })),
].filter(({ scheme, view }) => !process.env.VIEWS || process.env.VIEWS.split(',').some((v) => v === view || v === `${scheme}/${view}`));

async function longTasks(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const rows = [];
  for (const { scheme, view } of LONG_VIEWS) {
    await page.goto(`${url}?scheme=${scheme}&view=${view}&length=65536&d_model=4096`);
    await page.waitForSelector('#d-model-slider');
    await page.waitForTimeout(1500);
    const found = await page.evaluate(async () => {
      const tasks = [];
      const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries().map((e) => e.duration)));
      observer.observe({ type: 'longtask' });
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      const per = {};
      for (const id of ['d-model-slider', 'length-slider', 'base-slider']) {
        const slider = document.getElementById(id);
        if (!slider) continue;
        const start = tasks.length;
        const top = Number(slider.max);
        // Drag down from the top in 12 steps, one input per frame, then back up.
        const path = [...Array(12).keys()].map((k) => Math.round(top * (1 - k / 30)));
        for (const v of [...path, ...path.reverse()]) {
          slider.value = String(v);
          slider.dispatchEvent(new Event('input', { bubbles: true }));
          await frame();
        }
        slider.dispatchEvent(new Event('change', { bubbles: true }));
        await new Promise((r) => setTimeout(r, 1200)); // deferred charts finish
        const mine = tasks.slice(start);
        per[id] = { count: mine.length, longest: mine.length ? Math.max(...mine) : 0 };
      }
      observer.disconnect();
      return per;
    });
    rows.push({ scheme, view, found });
  }
  await page.close();
  console.log('\nMain-thread tasks over 50 ms while dragging each slider at 65,536 × 4,096 (24 inputs, one per frame)\n');
  console.log('| scheme | view | d_model | length | base |');
  console.log('|---|---|---|---|---|');
  const cell = (x) => (x ? (x.count ? `${x.count} (longest ${ms(x.longest)} ms)` : 'none') : '—');
  for (const r of rows) {
    console.log(`| ${r.scheme} | ${r.view} | ${cell(r.found['d-model-slider'])} | ${cell(r.found['length-slider'])} | ${cell(r.found['base-slider'])} |`);
  }
}

async function sideBySide(browser, url, repaintRows) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(url);
  await waitForDraws(page, 'encoding-heatmap');
  const runs = Math.max(5, Math.min(RUNS, 9));
  const browserTimes = await page.evaluate(([sizes, runs]) => {
    // A straightforward JavaScript version, as a teacher would write it.
    function js(length, d, base) {
      const pe = new Float64Array(length * d);
      for (let p = 0; p < length; p++) {
        for (let i = 0; i < d; i += 2) {
          const angle = p / Math.pow(base, i / d);
          pe[p * d + i] = Math.sin(angle);
          if (i + 1 < d) pe[p * d + i + 1] = Math.cos(angle);
        }
      }
      let sum = 0;
      for (let k = 0; k < pe.length; k++) sum += pe[k];
      return sum;
    }
    const wasm = (length, d, base) => window.wasmBindings.bench_sinusoidal(length, d, base);
    const time = (f, length, d) => {
      f(length, d, 10000);
      const ts = [];
      let check = 0;
      for (let k = 0; k < runs; k++) {
        const t0 = performance.now();
        check = f(length, d, 10000);
        ts.push(performance.now() - t0);
      }
      ts.sort((a, b) => a - b);
      return { ms: ts[ts.length >> 1], check };
    };
    return sizes.map(([length, d]) => ({ length, d, wasm: time(wasm, length, d), js: time(js, length, d) }));
  }, [SIDE_BY_SIDE, runs]);
  // The app's heatmap update at the same sizes (slider → repainted, device pixel ratio 1).
  const appUpdate = {};
  for (const [length, d] of SIDE_BY_SIDE) {
    const found = repaintRows?.find((r) => r.length === length && r.d === d && r.scale === 1);
    if (found) {
      appUpdate[`${length}x${d}`] = found.median;
    } else {
      const [row] = await measureRepaint(browser, url, { ...SCENARIOS[0], sizes: [[length, d]] }, 1);
      appUpdate[`${length}x${d}`] = row.median;
    }
  }
  await page.close();
  const script = path.resolve(import.meta.dirname, '../../scripts/bench_numpy.py');
  const sizesArg = SIDE_BY_SIDE.map(([l, d]) => `${l}x${d}`).join(',');
  const numpy = JSON.parse(execFileSync('python3', [script, sizesArg, String(runs)], { encoding: 'utf8' }));
  console.log(`\nSide by side (median of ${runs}; NumPy ${numpy.numpy}, matplotlib ${numpy.matplotlib})\n`);
  console.log('| task | length × d_model | app (wasm) ms | JavaScript ms | NumPy ms | JS ÷ app | NumPy ÷ app |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of browserTimes) {
    const key = `${r.length}x${r.d}`;
    const np = numpy.compute[key];
    // The sums agree (f32 cells in the app, f64 in JS): the same matrix was computed.
    if (Math.abs(r.wasm.check - r.js.check) > 1e-3 * r.length * r.d) throw new Error(`checksums differ at ${key}`);
    console.log(`| compute the whole matrix | ${r.length} × ${r.d} | ${ms(r.wasm.ms)} | ${ms(r.js.ms)} | ${ms(np)} | ${(r.js.ms / r.wasm.ms).toFixed(1)}× | ${(np / r.wasm.ms).toFixed(1)}× |`);
  }
  for (const [length, d] of SIDE_BY_SIDE) {
    const key = `${length}x${d}`;
    const app = appUpdate[key];
    const np = numpy.heatmap[key];
    console.log(`| heatmap update (slider → pixels; NumPy + matplotlib) | ${length} × ${d} | ${ms(app)} | — | ${ms(np)} | — | ${(np / app).toFixed(1)}× |`);
  }
}

function size() {
  // The page loads the site's module (app/pe-explorer*, its chunk loader and snippet, with the
  // stylesheet): the first paint, which draws the default chart and fetches the app, a chunk of
  // the same wasm (app/*.wasm, with the views' chunks); the training worker comes only with the
  // Train view.
  const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]);
  const files = walk(DIST).filter((f) => /\.(wasm|js|css|html)$/.test(f) && !f.includes('/examples/'));
  const group = (f) => (/\/app\/\w+\.wasm$/.test(f) && !f.endsWith('_bg.wasm') ? 'app' : /worker/.test(f) ? 'worker' : 'first paint');
  const rows = files.map((f) => ({
    file: path.relative(DIST, f),
    group: group(f),
    raw: fs.statSync(f).size,
    gzip: zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length,
  }));
  console.log('\nTransfer size (gzip -9)\n');
  console.log('| part | file | bytes | gzipped |');
  console.log('|---|---|---|---|');
  for (const r of rows.sort((a, b) => a.group.localeCompare(b.group))) console.log(`| ${r.group} | ${r.file} | ${r.raw} | ${r.gzip} |`);
  for (const g of ['first paint', 'app', 'worker']) {
    const t = rows.filter((r) => r.group === g).reduce((n, r) => n + r.gzip, 0);
    console.log(`| ${g}, total | | | ${t} (${(t / 1024).toFixed(1)} KiB) |`);
  }
}

const server = await serve(DIST);
const browser = await launch();
console.log(`Chromium ${browser.version()}, headless, ${process.platform} ${process.arch}`);
const wants = (name) => !ONLY || ONLY.split(',').includes(name);
let repaintRows;
if (wants('repaint')) repaintRows = (await repaint(browser, server.url)).heatmap;
if (wants('firstpaint')) await firstPaint(browser, server.url);
if (wants('longtasks')) await longTasks(browser, server.url);
if (wants('sidebyside')) await sideBySide(browser, server.url, repaintRows);
await browser.close();
await server.close();
if (wants('size')) size();
