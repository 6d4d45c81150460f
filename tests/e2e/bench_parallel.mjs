// Benchmark (not a test): the default agent, copy and passkey experiments trained in one worker
// (navigator.hardwareConcurrency reported as 1) and in parallel workers (as many as the machine
// has, at most four), side by side in one run: Train clicked with Playwright's mouse until the
// page says done (passkey: Train, then Extend with the default methods, both clicks counted,
// not the wait between them), median of RUNS; main-thread tasks over 50 ms while training, and
// the CPU time of the page's own thread (from a trace), which the workers share the cores with.
//
//   node bench_parallel.mjs          # after `trunk build --release --offline`
//   RUNS=1 ONLY=agent node bench_parallel.mjs
import os from 'node:os';
import { median, serve, launch, DIST, watchLongTasks } from './lib.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const CORES = os.availableParallelism?.() ?? os.cpus().length;
const ONLY = process.env.ONLY;

/** Seconds of CPU the page's main thread spent in tasks, from a trace (`tdur`: thread time). */
function mainThreadCpu(trace) {
  const events = trace.traceEvents ?? trace;
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && main.has(`${e.pid}:${e.tid}`));
  return tasks.reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1e6;
}

const server = await serve(DIST);
const browser = await launch();

const waitDone = (page) =>
  page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, {
    timeout: 900000,
    polling: 50,
  });

/** Seconds from each click to done, summed; the most workers seen; the long tasks. */
async function once(task, cores) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.addInitScript((n) => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n, configurable: true });
  }, cores);
  const page = await context.newPage();
  await page.goto(`${server.url}?view=train&task=${task}`);
  await page.waitForSelector('#train-start');
  await watchLongTasks(page);
  await browser.startTracing(page, { categories: ['disabled-by-default-devtools.timeline'] });
  let peak = 0;
  const sample = setInterval(() => (peak = Math.max(peak, page.workers().length)), 100);
  let seconds = 0;
  for (const button of task === 'passkey' ? ['#train-start', '#train-extend'] : ['#train-start']) {
    const t0 = Date.now();
    await page.locator(button).click();
    if (button === '#train-extend') {
      await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase !== 'done', null, { polling: 20 });
    }
    await waitDone(page);
    seconds += (Date.now() - t0) / 1000;
  }
  clearInterval(sample);
  const long = await page.evaluate(() => window.longTasks);
  const busy = mainThreadCpu(JSON.parse(await browser.stopTracing()));
  await context.close();
  return { seconds, peak, long, busy };
}

const rows = [];
for (const task of ['agent', 'copy', 'passkey'].filter((t) => !ONLY || ONLY.split(',').includes(t))) {
  const serial = [];
  const parallel = [];
  const long = { serial: [], parallel: [] };
  const busy = [];
  let workers = 0;
  // Alternated, so that a slower moment of the machine falls on both.
  for (let r = 0; r < RUNS; r++) {
    const a = await once(task, 1);
    serial.push(a.seconds);
    long.serial.push(...a.long);
    const b = await once(task, CORES);
    parallel.push(b.seconds);
    long.parallel.push(...b.long);
    busy.push(b.busy / b.seconds);
    workers = Math.max(workers, b.peak);
    console.error(`${task} run ${r + 1}: serial ${a.seconds.toFixed(1)} s (${a.peak} worker), parallel ${b.seconds.toFixed(1)} s (${b.peak} workers, page's thread busy ${b.busy.toFixed(1)} s)`);
  }
  rows.push({ task, serial, parallel, workers, long, busy });
}

console.log(`\n### Click to done, serial vs parallel (${CORES} cores, median of ${RUNS})\n`);
console.log('| experiment | serial s (runs) | parallel s (runs) | workers | parallel ÷ serial | main-thread tasks > 50 ms (serial / parallel) | page thread CPU, share of the parallel run |');
console.log('|---|---|---|---|---|---|---|');
for (const { task, serial, parallel, workers, long, busy } of rows) {
  const f = (xs) => `${median(xs).toFixed(1)} (${xs.map((x) => x.toFixed(1)).join(', ')})`;
  const l = (xs) => (xs.length ? `${xs.length} (median ${Math.round(median(xs))}, longest ${Math.round(Math.max(...xs))} ms)` : '0');
  console.log(
    `| ${task}${task === 'passkey' ? ' (Train + Extend)' : ''} | ${f(serial)} | ${f(parallel)} | ${workers} | ${(median(parallel) / median(serial)).toFixed(2)} | ${l(long.serial)} / ${l(long.parallel)} | ${(100 * median(busy)).toFixed(0)} % |`,
  );
}

await browser.close();
await server.close();
