// Where a cold load's time goes on Lighthouse's mobile profile (a benchmark, not a test): every
// request's send, first byte and end, from the page's time origin, with the first chart, the
// app module initialised and the whole app ready as bench_mobile.mjs times them; then, over
// RUNS loads, the medians of those marks and of the gaps between them. Read beside
// bench_mobile.mjs's totals to see which part of whole-app-ready is the network and which the
// processor (docs/benchmarks.md, "Where a phone's five seconds go").
//
//   RUNS=3 PAGE='?view=offsets' node tests/e2e/bench_timeline.mjs   (DIST=… another build)
import { serve, launch, DIST } from './lib.mjs';
import { median, mobilePage, watch } from './mobile.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const PAGE = process.env.PAGE ?? '';
const server = await serve(DIST, '/', { compress: true });
const browser = await launch();

const marks = [];
for (let run = 0; run < RUNS; run++) {
  const { context, page, cdp } = await mobilePage(browser);
  const requests = new Map();
  let clock = null; // the protocol's monotonic clock (s) + clock = wall time (s)
  cdp.on('Network.requestWillBeSent', (e) => {
    if (clock === null) clock = e.wallTime - e.timestamp;
    requests.set(e.requestId, { url: e.request.url.replace(server.url, '') || '(page)', sent: e.timestamp });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.first = e.timestamp;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) Object.assign(r, { done: e.timestamp, bytes: e.encodedDataLength });
  });
  await page.addInitScript(watch(false));
  await page.goto(server.url + PAGE, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__appReady || window.__appBare, null, { timeout: 180000, polling: 50 });
  const m = await page.evaluate(() => ({
    origin: performance.timeOrigin,
    chart: window.__firstChart ?? null,
    module: window.__appModule,
    ready: window.__appReady ?? window.__appBare,
  }));
  await context.close();
  const at = (s) => (s === undefined ? null : (s + clock) * 1000 - m.origin);
  const list = [...requests.values()].sort((a, b) => a.sent - b.sent);
  const ms = (x) => (x === null ? '—' : x.toFixed(0)).padStart(6);
  console.log(`run ${run + 1}, ${PAGE || '(default)'}: first chart ${ms(m.chart)} ms, app module ${ms(m.module)} ms, whole app ${ms(m.ready)} ms`);
  console.log('    sent  1st byte   done       KB  file');
  for (const r of list) {
    console.log(`  ${ms(at(r.sent))}  ${ms(at(r.first))}  ${ms(at(r.done))}  ${((r.bytes ?? 0) / 1024).toFixed(1).padStart(7)}  ${r.url}`);
  }
  const app = list.find((r) => r.url.endsWith('app/pe-explorer_bg.wasm'));
  const first = list.find((r) => /first-[0-9a-f]+_bg\.wasm$/.test(r.url));
  marks.push({
    chart: m.chart,
    firstDone: at(first?.done),
    appSent: at(app?.sent),
    appFirst: at(app?.first),
    appDone: at(app?.done),
    module: m.module,
    ready: m.ready,
  });
}
const med = (key) => median(marks.map((x) => x[key]));
const gap = (a, b) => median(marks.map((x) => (x[a] === null || x[b] === null ? null : x[b] - x[a])));
const f = (x) => (x === null ? '—' : x.toFixed(0));
console.log(`\nmedians of ${RUNS}, ${PAGE || '(default)'}`);
console.log('| mark | ms | since the mark before, ms |');
console.log('|---|---|---|');
const rows = [
  ['first chart', 'chart', null],
  ["the first paint's wasm has arrived", 'firstDone', null],
  ["the app's wasm asked for", 'appSent', 'firstDone'],
  ["its first byte", 'appFirst', 'appSent'],
  ['its last byte', 'appDone', 'appFirst'],
  ['the app module initialised', 'module', 'appDone'],
  ['whole app ready', 'ready', 'module'],
];
for (const [label, key, before] of rows) console.log(`| ${label} | ${f(med(key))} | ${before ? f(gap(before, key)) : ''} |`);
await browser.close();
await server.close();
