// Benchmark (not a test): a key press on a slider to the frame that shows the redrawn chart, for
// the app's main charts beside a floor page in the same run: a bare range input whose `input`
// handler fills a canvas of the same size at once (nothing can be faster). Trusted input
// (Playwright's keyboard). Per press: from the keydown event's time stamp to the time stamp of the
// first animation frame that runs after the chart's draw (`data-draws` changes inside the drawing
// task), read by performance.now() inside that frame's callback (the frame's own time stamp can
// fall before the key's), i.e. the frame that presents it. Medians of RUNS presses; the ratio and the difference
// against the floor say how many frames the app adds.
//
//   node bench_latency.mjs            # after `trunk build --release --offline`
//   RUNS=40 SIZES=100x128,1024x512,65536x4096 node bench_latency.mjs
import { median, serve, launch, DIST, waitForDraws } from './lib.mjs';

const RUNS = Number(process.env.RUNS ?? 30);
const SIZES = (process.env.SIZES ?? '100x128,1024x512,65536x4096').split(',').map((s) => s.split('x').map(Number));

const FLOOR = `<!doctype html><meta charset="utf-8"><title>floor</title>
<label for="s">value</label><input id="s" type="range" min="0" max="1000" value="500">
<canvas id="c" width="1200" height="600" style="width:600px;height:300px"></canvas>
<script>
  const c = document.getElementById('c'), g = c.getContext('2d');
  c.dataset.draws = '0';
  document.getElementById('s').addEventListener('input', (e) => {
    const v = Number(e.target.value);
    g.fillStyle = 'hsl(' + (v % 360) + ', 60%, 50%)';
    g.fillRect(0, 0, 1200, 600);
    c.dataset.draws = String(Number(c.dataset.draws) + 1);
  });
</script>`;


/** Installs the probe: keydown time stamps and the frame after each draw of `canvasId`. */
const probe = (page, canvasId) =>
  page.evaluate((id) => {
    window.__lat = { keys: [], frames: [] };
    addEventListener('keydown', (e) => window.__lat.keys.push(e.timeStamp), true);
    const c = document.getElementById(id);
    new MutationObserver(() => requestAnimationFrame(() => window.__lat.frames.push(performance.now()))).observe(c, {
      attributes: true,
      attributeFilter: ['data-draws'],
    });
  }, canvasId);

/** Presses `key` RUNS times on the focused slider; returns the key-to-frame times. */
async function presses(page, sliderSel, keys) {
  await page.locator(sliderSel).focus();
  const out = [];
  for (let i = 0; i < RUNS; i++) {
    const key = keys[i % keys.length];
    const before = await page.evaluate(() => window.__lat.frames.length);
    await page.keyboard.press(key);
    await page.waitForFunction((n) => window.__lat.frames.length > n, before, { timeout: 10000 });
    const [k, f] = await page.evaluate(() => [window.__lat.keys.at(-1), window.__lat.frames.at(-1)]);
    out.push(f - k);
    await page.waitForTimeout(60);
  }
  return out;
}

const server = await serve(DIST);
const browser = await launch();
const rows = [];
for (const [length, d] of SIZES) {
  // The floor, then the app's heatmap, at the same moment of the run.
  const floor = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await floor.setContent(FLOOR);
  await probe(floor, 'c');
  const f = median(await presses(floor, '#s', ['ArrowRight', 'ArrowLeft']));
  await floor.close();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${server.url}?view=heatmap&length=${length}&d_model=${d}`);
  await waitForDraws(page, 'encoding-heatmap');
  await page.waitForTimeout(500);
  await probe(page, 'encoding-heatmap');
  // Base: a slider every scheme's heatmap redraws for, moved back and forth.
  const ours = median(await presses(page, '#base-slider', ['ArrowRight', 'ArrowLeft']));
  await page.close();
  rows.push({ size: `${length} × ${d}`, floor: f, ours, ratio: ours / f, more: ours - f });
  console.error(JSON.stringify(rows.at(-1)));
}
console.log('| length × d_model | floor (ms) | ours (ms) | ours / floor | ours − floor (ms) |');
console.log('|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.size} | ${r.floor.toFixed(1)} | ${r.ours.toFixed(1)} | ${r.ratio.toFixed(2)} | ${r.more.toFixed(1)} |`);
}
await browser.close();
await server.close();
