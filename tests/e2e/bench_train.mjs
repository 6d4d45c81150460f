// Benchmark of the Train view (not a test): the worker's size, its training step against
// PyTorch's on the same machine, and how long the default experiments take in the page, with
// the main thread's long tasks counted while they run. Prints Markdown tables.
//
//   node bench_train.mjs            # after `trunk build --release --offline`
//   TRAIN_RUNS=3 STEPS=300 node bench_train.mjs
//
// step       the default model (who did what to whom, sinusoidal, 2 layers × 2 heads,
//            d_model 32, batches of 16): `steps` optimiser steps timed one by one inside the
//            worker (performance.now around forward + backward + AdamW), median, on batches drawn
//            as training draws them (lengths 4–12) and on batches of 12 tokens each; the same
//            model, batches and optimiser in PyTorch (scripts/bench_torch.py), one thread and
//            all threads. Skipped for PyTorch when it is not installed (`pip install torch`).
// experiment the default experiment of each task (all seven schemes, 400 steps, 1,000 held-out
//            examples × 4 lengths), Train pressed with Playwright's mouse, until the page says
//            done; PerformanceObserver 'longtask' on the page meanwhile.
// size       gzip -9 of the worker's files (fetched only when the Train view starts a worker).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { median, serve, launch, DIST, watchLongTasks } from './lib.mjs';

const RUNS = Number(process.env.TRAIN_RUNS ?? 2);
const STEPS = Number(process.env.STEPS ?? 200);
const DEFAULTS =
  'task=agent&schemes=sinusoidal&layers=2&attn_heads=2&width=32&train_len=12&steps=400&lr=0.003' +
  '&train_seed=1&base=10000&variant=paper&rope_pairing=rotate-half&buckets=32&max_distance=128';

const server = await serve(DIST);
const browser = await launch();

async function workerStep(fixed) {
  const page = await browser.newPage();
  await page.goto(server.url + '?view=heatmap');
  const times = await page.evaluate(
    ([steps, fixed, settings]) =>
      new Promise((resolve, reject) => {
        const w = new Worker('worker_loader.js');
        w.onerror = (e) => reject(new Error(e.message));
        w.onmessage = (e) => {
          if (e.data.kind === 'ready') w.postMessage(`bench\n${steps}\n${fixed ?? '-'}\n${settings}`);
          if (e.data.kind === 'bench') {
            w.terminate();
            resolve(e.data.text.split(',').map(Number));
          }
        };
      }),
    [STEPS, fixed, DEFAULTS],
  );
  await page.close();
  return median(times);
}

console.log('\n### Training step: the app\'s worker against PyTorch (same machine, same model)\n');
const ours = { drawn: [], fixed12: [] };
for (let r = 0; r < 3; r++) {
  ours.drawn.push(await workerStep(null));
  ours.fixed12.push(await workerStep(12));
}
let torch = null;
try {
  torch = JSON.parse(execFileSync('python3', [path.resolve(import.meta.dirname, '../../scripts/bench_torch.py'), String(STEPS)], { encoding: 'utf8' }));
} catch (e) {
  console.log(`(PyTorch not measured: ${String(e.message).split('\n')[0]})\n`);
}
console.log('| batches | app, wasm worker ms/step | PyTorch 1 thread ms/step | PyTorch all threads ms/step | PyTorch 1 thread ÷ app |');
console.log('|---|---|---|---|---|');
for (const [label, key] of [['lengths 4–12 (as trained)', 'drawn'], ['12 tokens each', 'fixed12']]) {
  const app = median(ours[key]);
  const t = torch?.[key];
  const f = (x) => (x === undefined ? '—' : x.toFixed(2));
  console.log(`| ${label} | ${f(app)} | ${f(t?.one_thread_ms)} | ${f(t?.all_threads_ms)} | ${t ? (t.one_thread_ms / app).toFixed(1) + '×' : '—'} |`);
}
if (torch) console.log(`\nPyTorch ${torch.torch}, ${torch.threads_default} threads by default; app: median of 3 × ${STEPS} steps.`);

console.log('\n### The default experiment of each task, in the page\n');
console.log('| task | median s to done | runs | long tasks (> 50 ms) on the page while training |');
console.log('|---|---|---|---|');
for (const task of ['agent', 'copy', 'first']) {
  const times = [];
  let longTasks = 0;
  for (let r = 0; r < RUNS; r++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    await page.goto(`${server.url}?view=train&task=${task}`);
    await page.waitForSelector('#train-start');
    await watchLongTasks(page);
    const t0 = Date.now();
    await page.locator('#train-start').click();
    await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, { timeout: 300000 });
    times.push((Date.now() - t0) / 1000);
    longTasks += await page.evaluate(() => window.longTasks.length);
    await context.close();
  }
  console.log(`| ${task} | ${median(times).toFixed(1)} | ${times.map((t) => t.toFixed(1)).join(', ')} | ${longTasks} |`);
}

console.log('\n### Worker size (fetched only when the Train view starts training)\n');
let total = 0;
for (const f of ['worker_bg.wasm', 'worker.js', 'worker_loader.js']) {
  const bytes = fs.readFileSync(path.join(DIST, f));
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  total += gz;
  console.log(`- ${f}: ${bytes.length.toLocaleString('en')} B, gzip -9 ${gz.toLocaleString('en')} B`);
}
console.log(`- total gzipped: ${total.toLocaleString('en')} B`);

await browser.close();
await server.close();
