// Where a cold load's time goes on Lighthouse's mobile profile (a benchmark, not a test): every
// request's send, first byte and end, from the page's time origin, with the first chart, the
// app module initialised and the whole app ready as bench_mobile.mjs times them; then, over
// RUNS loads, the medians of those marks and of the gaps between them. Read beside
// bench_mobile.mjs's totals to see which part of whole-app-ready is the network and which the
// processor (docs/benchmarks.md, "Where a phone's five seconds go").
//
//   RUNS=3 PAGE='?view=offsets' node tests/e2e/bench_timeline.mjs   (DIST=… another build)
import { median, serve, launch, DIST } from './lib.mjs';
import { benchPage, recordRequests, watch, wholeApp } from './mobile.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const PAGE = process.env.PAGE ?? '';
const server = await serve(DIST, '/', { compress: true });
const browser = await launch();

const marks = [];
for (let run = 0; run < RUNS; run++) {
  const { context, page, cdp } = await benchPage(browser);
  const requests = recordRequests(cdp);
  await page.addInitScript(watch(false));
  await page.goto(server.url + PAGE, { waitUntil: 'commit' });
  const m = await wholeApp(page);
  await context.close();
  const at = (t) => requests.at(t, m.origin);
  const list = requests.list().map((r) => ({ ...r, url: r.url.replace(server.url, '') || '(page)' }));
  const ms = (x) => (x === null ? '—' : x.toFixed(0)).padStart(6);
  console.log(`run ${run + 1}, ${PAGE || '(default)'}: first chart ${ms(m.chart)} ms, app module ${ms(m.module)} ms, whole app ${ms(m.ready)} ms${m.bare ? ' (no chart)' : ''}`);
  console.log('    sent  1st byte   done       KB  file');
  for (const r of list) {
    console.log(`  ${ms(at(r.sent))}  ${ms(at(r.first))}  ${ms(at(r.done))}  ${((r.bytes ?? 0) / 1024).toFixed(1).padStart(7)}  ${r.url}`);
  }
  // The site's module is the first paint, and the app its chunk `app` (with the small chunks it
  // shares, packed into one file since 2026-11-28, late); builds before 2026-11-28 loaded a
  // first-paint module (first-*) and then the app's.
  const merged = list.some((r) => /app\/(split|pack)_app\.wasm$/.test(r.url));
  // Since 2026-11-29 a release build carries the main module's wasm inside the page.
  const first = list.find((r) => (merged ? r.url.endsWith('app/pe-explorer_bg.wasm') : /first-[0-9a-f]+_bg\.wasm$/.test(r.url)))
    ?? list.find((r) => r.url === '(page)' || r.url.startsWith('?'));
  const app = list.filter((r) => (merged ? /app\/(split_app|pack_app|chunk_\d+)\.wasm$/.test(r.url) && at(r.sent) <= m.module : r.url.endsWith('app/pe-explorer_bg.wasm')));
  const edge = (key, pick) => (app.length ? at(pick(...app.map((r) => r[key] ?? NaN))) : null);
  marks.push({
    chart: m.chart,
    firstDone: at(first?.done),
    appSent: edge('sent', Math.min),
    appFirst: edge('first', Math.min),
    appDone: edge('done', Math.max),
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
  ["the first paint's wasm has arrived (in the page, where it carries it)", 'firstDone', null],
  ["the app's wasm asked for (its chunks, in a merged build)", 'appSent', 'firstDone'],
  ["its first byte", 'appFirst', 'appSent'],
  ['its last byte', 'appDone', 'appFirst'],
  ['the app module initialised', 'module', 'appDone'],
  ['whole app ready', 'ready', 'module'],
];
for (const [label, key, before] of rows) console.log(`| ${label} | ${f(med(key))} | ${before ? f(gap(before, key)) : ''} |`);
await browser.close();
await server.close();
