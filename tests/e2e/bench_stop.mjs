// Benchmark of the Train view at its largest settings (not a test): how long Stop takes to
// pause and Clear to end the worker, how long the page's main thread is busy meanwhile, and how
// the time the page estimates for an experiment compares with the time it takes. Prints
// Markdown tables.
//
//   node bench_stop.mjs                 # after `trunk build --release --offline`
//   ONLY=latency node bench_stop.mjs    # or ONLY=estimate
//   DIST=/path/to/other/dist node bench_stop.mjs   # another build (ONLY=latency works on any)
//
// latency   4 layers, 4 heads, d_model 128, training length 64, all seven schemes, 10,000 steps:
//           Train, then 10 × (wait 0.3–1.2 s, Stop: time until the view says paused; Resume),
//           then 10 × (Train, wait 0.3–1.2 s, Clear: time until the worker is gone, as the
//           DevTools protocol reports it to Playwright).
// estimate  whole experiments run by a worker started in the page (no view), from the smallest
//           to large settings: the worker's own training time against the estimate, and the
//           two constants of the estimate (work per second, seconds per step) fitted to them.
import { median, serve, launch, DIST, watchLongTasks, longTasks, timeTo, timeClear } from './lib.mjs';

const ONLY = process.env.ONLY ?? '';
const LARGEST = 'layers=4&attn_heads=4&width=128&train_len=64&steps=10000';
const wait = (ms) => new Promise((r) => setTimeout(r, ms));

const server = await serve(DIST);
const browser = await launch();

async function latency() {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${server.url}?view=train&${LARGEST}`);
  await page.waitForSelector('#train-start');
  await watchLongTasks(page);
  await page.click('#train-start');
  await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'training', null, { timeout: 60000 });
  const stops = [];
  for (let i = 0; i < 10; i++) {
    await wait(300 + Math.random() * 900);
    stops.push(await timeTo(page, 'train-stop', 'paused'));
    await timeTo(page, 'train-resume', 'training');
  }
  const clears = [];
  let peak = 0;
  for (let i = 0; i < 10; i++) {
    if (!(await page.locator('#train-cancel').count())) {
      await page.click('#train-start');
      await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'training', null, { timeout: 60000 });
    }
    await wait(300 + Math.random() * 900);
    clears.push(await timeClear(page));
    peak = Math.max(peak, page.workers().length);
  }
  const tasks = await longTasks(page);
  await context.close();
  const row = (what, xs) =>
    console.log(`| ${what} | ${median(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} | ${xs.length} |`);
  console.log('\n### Stop and Clear at the largest settings (all seven schemes)\n');
  console.log('| action | median ms | min ms | max ms | tries |');
  console.log('|---|---|---|---|---|');
  row('Stop → the view says paused', stops);
  row('Clear → the worker is gone', clears);
  console.log(`\nMain-thread tasks over 50 ms meanwhile: ${tasks.length}` +
    (tasks.length ? ` (longest ${Math.max(...tasks).toFixed(0)} ms)` : '') + '.');
}

// Runs a whole experiment in a worker of its own, as the view does, and returns the worker's
// training time in seconds (pauses none) and the view's estimate.
async function experiment(page, settings) {
  return page.evaluate(
    (settings) =>
      new Promise((resolve, reject) => {
        const w = new Worker('worker_loader.js');
        w.onerror = (e) => reject(new Error(e.message));
        w.onmessage = (e) => {
          if (e.data.kind === 'ready') w.postMessage(`start\n${settings}`);
          if (e.data.kind === 'progress') {
            const [head] = e.data.text.split('\n');
            const f = head.split(' ');
            if (f[1] === 'done') {
              w.terminate();
              resolve({ seconds: Number(f[2]) / 1000, work: Number(f[4]) });
            }
          }
        };
      }),
    settings,
  );
}

async function estimate() {
  const page = await browser.newPage();
  await page.goto(`${server.url}?view=heatmap`);
  const cases = [
    'task=agent',
    'task=copy&steps=1000',
    'task=first&schemes=rope,t5&layers=4&attn_heads=4&width=128&train_len=16&steps=60',
    'task=agent&schemes=sinusoidal,alibi&layers=3&attn_heads=2&width=64&train_len=32&steps=150',
    'task=copy&schemes=learned,rope&layers=1&attn_heads=1&width=16&train_len=64&steps=2000',
    `task=agent&schemes=t5&${LARGEST.replace('steps=10000', 'steps=40').replace('train_len=64', 'train_len=32')}`,
  ];
  const rows = [];
  for (const c of cases) {
    // The page's own estimate: the text under the Train button.
    await page.goto(`${server.url}?view=train&${c}`);
    await page.waitForSelector('#train-estimate');
    const shown = (await page.locator('#train-estimate').textContent()).match(/Estimated time: about ([^(]+) \(/)[1];
    const steps = Number((c.match(/steps=(\d+)/) ?? [0, 400])[1]);
    const schemes = (c.match(/schemes=([^&]+)/)?.[1].split(',').length) ?? 7;
    const r = await experiment(page, c);
    rows.push({ c, shown, steps: steps * schemes, ...r });
    console.error(`${c}: ${r.seconds.toFixed(1)} s, work ${r.work.toExponential(3)}, shown ${shown}`);
  }
  // Least squares for seconds = work / rate + steps · overhead.
  let [a, b, c2, d, e] = [0, 0, 0, 0, 0];
  for (const r of rows) {
    a += r.work * r.work;
    b += r.work * r.steps;
    c2 += r.steps * r.steps;
    d += r.work * r.seconds;
    e += r.steps * r.seconds;
  }
  const det = a * c2 - b * b;
  const inv = (d * c2 - b * e) / det;
  const overhead = (a * e - b * d) / det;
  console.log('\n### Estimated against measured (whole experiments, worker time)\n');
  console.log('| settings (besides the defaults) | estimate shown | measured | work units |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.c} | about ${r.shown} | ${r.seconds.toFixed(1)} s | ${r.work.toExponential(2)} |`);
  console.log(`\nFitted: ${(1 / inv).toExponential(3)} work units per second, ${(overhead * 1000).toFixed(3)} ms per step of a scheme.`);
  await page.close();
}

if (!ONLY || ONLY === 'latency') await latency();
if (!ONLY || ONLY === 'estimate') await estimate();
await browser.close();
await server.close();
