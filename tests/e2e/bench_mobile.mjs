// First chart and whole app on screen, every view and embed of this app against the lightest peer,
// side by side in one run (a benchmark, not a test). Each app is served by a static server that
// compresses as hosts do (a precompressed .br/.gz beside a file when there is one, gzip otherwise).
// Every load is cold (a fresh browser context). Conditions:
//   mobile   Lighthouse's mobile profile through the DevTools protocol: 150 ms round trip
//            (562.5 ms request latency as Lighthouse's devtools throttling sets it), 1.6 Mbit/s down
//            (× 0.9), 750 kbit/s up (× 0.9), CPU 4× slower; a 390 × 844 touch screen.
//   desktop  no throttling, 1400 × 1000 (only with DESKTOP=1)
// Times are from the page's time origin, taken by an observer installed before any of the page's
// scripts:
//   first chart      this app: the first `canvas[data-draws]` anywhere in the page (the app's
//                    charts count their draws in `data-draws`, src/ui/chart.rs, and so do the
//                    first paint's early canvases, ids `early…`, src/early.rs); the
//                    peer: its first wave (an SVG path with a long `d`). Then one animation frame,
//                    so it has been painted.
//   whole app ready  this app: the app has started (`window.wasmBindings` set to bindings with
//                    `wasm_memory_bytes`: the site's module sets it once its app chunk has run;
//                    older builds' first-paint module set its own first), no `#early` remains and some
//                    `canvas[data-draws]` is in the page; then one animation frame. The peer is
//                    one bundle rendered in one go: its whole app is ready with its first chart.
//   KB until chart   the encoded bytes (headers and compressed bodies, the DevTools protocol's
//                    encodedDataLength) of the responses finished before the first chart.
// A page that draws no `canvas[data-draws]` without the user acting is reported as "no chart"
// (its whole-app time is then without the canvas condition, marked *).
// Each round loads the peer once (its one page), then every page of this app; medians of RUNS.
//
//   PEER_DIST=/path/to/peer/dist RUNS=5 node tests/e2e/bench_mobile.mjs
//   PAGES='?view=waves,?embed=heatmap' DESKTOP=1 …   (a comma-separated list; '' is the default
//                                                      page; DIST=… measures another build)
//
// The peer: shelvia-w/positional-encoding-visualizer at be36640c275a4b25b36d7b25a466b7b553d07608,
// built with `npm ci && npx vite build --base=/` (see docs/benchmarks.md).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { median, serve, launch, DIST } from './lib.mjs';
import { benchPage, NO_CHART_AFTER, recordRequests, watch, wholeApp } from './mobile.mjs';

const RUNS = Number(process.env.RUNS ?? 5);
const PEER = process.env.PEER_DIST;
const DEFAULT_PAGES = [
  '',
  '?view=offsets',
  '?view=attention',
  '?view=waves',
  '?view=rotations',
  '?view=norms',
  '?view=addition',
  '?view=compare',
  '?view=train',
  '?lesson=3',
  '?view=quiz',
  '?scheme=rope&view=heatmap',
  '?scheme=rope&view=offsets',
  '?scheme=alibi&view=heatmap',
  '?scheme=t5&view=offsets',
  '?embed=heatmap',
  '?embed=offsets',
  '?embed=attention',
  '?embed=train',
  '?embed=waves',
  '?embed=offsets&scheme=rope',
];
const PAGES = process.env.PAGES === undefined
  ? DEFAULT_PAGES
  : process.env.PAGES.split(',').map((p) => p.trim().replace(/^''$/, ''));
const CONDITIONS = process.env.DESKTOP === '1' ? [true, false] : [true];

const server = await serve(DIST, '/', { compress: true });
const peer = PEER ? await serve(PEER, '/', { compress: true }) : null;
const browser = await launch();

async function load(url, mobile, isPeer) {
  const { context, page, cdp } = await benchPage(browser, { mobile });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const requests = recordRequests(cdp);
  await page.addInitScript(watch(isPeer));
  await page.goto(url, { waitUntil: 'commit' });
  let ms = null;
  let app = null;
  let bare = false;
  let origin;
  if (isPeer) {
    await page.waitForFunction(() => window.__firstChart, null, { timeout: 120000, polling: 50 });
    [ms, origin] = await page.evaluate(() => [window.__firstChart, performance.timeOrigin]);
    app = ms;
  } else {
    const marks = await wholeApp(page);
    ({ origin, bare } = marks);
    ms = bare ? null : marks.chart;
    app = marks.ready;
  }
  // The responses finished before the first chart.
  let bytes = null;
  let requestCount = null;
  if (ms !== null) {
    const before = requests.list().filter((r) => r.done !== undefined && requests.at(r.done, origin) <= ms);
    bytes = before.reduce((s, r) => s + r.bytes, 0);
    requestCount = before.length;
  }
  await context.close();
  if (errors.length) console.error(`${url}: page errors: ${errors.join(' | ')}`);
  return { ms, app, bytes, requests: requestCount, bare };
}

const label = (p) => (p === '' ? '(default)' : p);
const rows = [];
for (const mobile of CONDITIONS) {
  const results = { peer: [] };
  for (const p of PAGES) results[p] = [];
  for (let r = 0; r < RUNS; r++) {
    if (peer) {
      const b = await load(peer.url, mobile, true);
      results.peer.push(b);
      console.error(`[${mobile ? 'mobile' : 'desktop'} ${r + 1}/${RUNS}] peer: chart ${b.ms.toFixed(0)} ms, ${b.bytes} B`);
    }
    for (const p of PAGES) {
      const a = await load(server.url + p, mobile, false);
      results[p].push(a);
      console.error(`[${mobile ? 'mobile' : 'desktop'} ${r + 1}/${RUNS}] ${label(p)}: chart ${a.ms?.toFixed(0) ?? '—'} ms, app ${a.app?.toFixed(0)} ms${a.bare ? ' (no chart)' : ''}, ${a.bytes ?? '—'} B`);
    }
  }
  rows.push({ mobile, results });
}

const fmt = (x) => (x === null ? '—' : x.toFixed(0));
const kb = (x) => (x === null ? '—' : (x / 1024).toFixed(1));
const noChart = new Set();
for (const { mobile, results } of rows) {
  const pm = median(results.peer.map((x) => x.ms));
  const pa = median(results.peer.map((x) => x.app));
  const ratio = (a, b) => (a === null || b === null ? '—' : (a / b).toFixed(2));
  console.log(`\n### ${mobile ? 'Mobile profile (Lighthouse)' : 'Desktop'}: median of ${RUNS} cold loads, one run, same machine\n`);
  console.log('| page | first chart ms | ÷ peer | whole app ready ms | ÷ peer | KB until first chart |');
  console.log('|---|---|---|---|---|---|');
  if (peer) {
    console.log(`| peer (its one page) | ${fmt(pm)} | 1.00 | ${fmt(pa)} | 1.00 | ${kb(median(results.peer.map((x) => x.bytes)))} |`);
  }
  for (const p of PAGES) {
    const xs = results[p];
    const charted = xs.filter((x) => !x.bare);
    const m = median(charted.map((x) => x.ms));
    const bare = charted.length < xs.length;
    if (bare) noChart.add(label(p));
    // The whole-app time of a page that drew no canvas in some load: the app without the canvas.
    const a = median(xs.map((x) => x.app));
    const chartCell = charted.length ? fmt(m) + (bare ? ` (no chart in ${xs.length - charted.length} of ${xs.length})` : '') : 'no chart';
    console.log(`| \`${label(p)}\` | ${chartCell} | ${charted.length ? ratio(m, pm) : '—'} | ${fmt(a)}${bare ? ' *' : ''} | ${ratio(a, pa)} | ${kb(median(charted.map((x) => x.bytes)))} |`);
  }
}
if (noChart.size) {
  console.log(`\n\\* No \`canvas[data-draws]\` within ${NO_CHART_AFTER / 1000} s of the app module's start, without the user acting: ${[...noChart].map((p) => `\`${p}\``).join(', ')}. Its whole-app time is the app module's start with \`#early\` gone, then one frame.`);
}

// Each part's sizes from the build (the precompressed copies beside them, or computed).
function sizes(files) {
  let raw = 0, gz = 0, br = 0;
  for (const f of files) {
    const data = fs.readFileSync(f);
    raw += data.length;
    gz += fs.existsSync(f + '.gz') ? fs.statSync(f + '.gz').size : zlib.gzipSync(data, { level: 9 }).length;
    br += fs.existsSync(f + '.br') ? fs.statSync(f + '.br').size
      : zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { raw, gz, br };
}
const inDir = (dir, re) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => re.test(f)).map((f) => path.join(dir, f)) : []);
// Builds before 2026-11-28 drew Image patches and Train from view modules of their own (views/).
const viewModules = inDir(path.join(DIST, 'views'), /\.js$/).map((f) => path.basename(f, '.js'));
// The chunks (src/main.rs, src/ui/lazy.rs): each split's own file, and the small chunks splits share.
const chunks = inDir(path.join(DIST, 'app'), /^split_.*\.wasm$/).map((f) => path.basename(f, '.wasm'));
// Builds before 2026-11-28 (evening) loaded a first-paint module of their own (first-*); the site's
// module (app/pe-explorer*) is now the first paint, with the app its chunk `split_app`.
const firstModule = inDir(DIST, /^first-.*(_bg\.wasm|\.js)$/);
// Since 2026-11-29 a release build's page carries the first paint's wasm (scripts/inline_module.mjs):
// the page's row then holds it, and the module's row is the file kept as its fallback.
const inlined = fs.existsSync(path.join(DIST, 'index.html')) && fs.readFileSync(path.join(DIST, 'index.html'), 'utf8').includes('id="pe-wasm-0"');
const modules = [
  [inlined ? "the page (`index.html`), with the first paint's wasm inside" : 'the page (`index.html`)', [path.join(DIST, 'index.html')]],
  ...(firstModule.length ? [['first-paint module (`first-*_bg.wasm` + `first-*.js`)', firstModule]] : []),
  [firstModule.length ? 'app module, the shell (`app/pe-explorer*` + its chunk loader)' : inlined ? "the site's module as files (`app/pe-explorer*` + its chunk loader; the wasm only if the page's copy fails its check)" : "the site's module, the first paint (`app/pe-explorer*` + its chunk loader)",
    inDir(path.join(DIST, 'app'), /^(pe-explorer(_bg\.wasm|\.js)|__wasm_split\.js)$/)],
  // Since 2026-11-28 (late) each chunk's files are packed into one (scripts/chunks.mjs).
  ...inDir(path.join(DIST, 'app'), /^pack_.*\.wasm$/).map((f) => [`the chunk's files, packed (\`app/${path.basename(f)}\`)`, [f]]),
  ...chunks.map((c) => [`the chunk \`app/${c}.wasm\``, [path.join(DIST, 'app', c + '.wasm')]]),
  ['small chunks the chunks share (`app/chunk_*.wasm`)', inDir(path.join(DIST, 'app'), /^chunk_.*\.wasm$/)],
  ...viewModules.map((m) => [`view module \`views/${m}\``, inDir(path.join(DIST, 'views'), new RegExp(`^${m}(_bg\\.wasm|\\.js)$`))]),
];
console.log(`\n**Module sizes** (${DIST}):\n`);
console.log('| module | raw KB | gzip -9 KB | Brotli KB |');
console.log('|---|---|---|---|');
for (const [name, files] of modules) {
  if (!files.length) {
    console.log(`| ${name} | — | — | — |`);
    continue;
  }
  const s = sizes(files);
  console.log(`| ${name} | ${kb(s.raw)} | ${kb(s.gz)} | ${kb(s.br)} |`);
}

// A lazy view opened for the first time after the app is ready, on the mobile profile:
// the default page loads cold; once the whole app is ready (and, in the second column, after
// WAIT_MS more, when the idle page has fetched the chunks), Playwright's mouse clicks the
// view's tab; the time is from the click to the view's first chart drawn (the Train view draws
// none before Train is pressed: its Train button), then one frame. OPENS=0 skips it.
// Each with its chunk's name (src/ui/lazy.rs; app/split_NAME.wasm, packed into app/pack_NAME.wasm
// since 2026-11-28, late).
const OPENS = {
  patches: ['#tab-patches', '#panel-patches canvas[data-draws]', 'patches'],
  train: ['#tab-train', '#panel-train #train-start', 'train'],
  offsets: ['#tab-offsets', '#panel-offsets canvas[data-draws]', fs.existsSync(path.join(DIST, 'app', 'pack_offsets.wasm')) ? 'offsets' : 'views'],
  lesson: ['#tab-lesson', '#panel-lesson canvas[data-draws]', 'learn'],
};
const WAIT_MS = Number(process.env.WAIT_MS ?? 10000);
async function open(tab, drawn, wait) {
  const { context, page } = await benchPage(browser);
  await page.addInitScript(watch(false));
  await page.goto(server.url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__appReady, null, { timeout: 180000, polling: 50 });
  if (wait) await page.waitForTimeout(wait);
  await page.locator(tab).scrollIntoViewIfNeeded();
  const box = await page.locator(tab).boundingBox();
  const clicked = await page.evaluate(() => performance.now());
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForSelector(drawn, { timeout: 120000 });
  const ms = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(performance.now())))) - clicked;
  await context.close();
  return ms;
}
if (process.env.OPENS !== '0') {
  console.log(`\n**A lazy view opened after load** (mobile profile, median of ${RUNS}; click to the view's first chart, then one frame):\n`);
  console.log(`| view | opened at once, ms | opened ${WAIT_MS / 1000} s later, ms |`);
  console.log('|---|---|---|');
  for (const [name, [tab, drawn, chunk]] of Object.entries(OPENS)) {
    if (!['split', 'pack'].some((kind) => fs.existsSync(path.join(DIST, 'app', `${kind}_${chunk}.wasm`)))) continue;
    const now = [], later = [];
    for (let r = 0; r < RUNS; r++) {
      now.push(await open(tab, drawn, 0));
      later.push(await open(tab, drawn, WAIT_MS));
      console.error(`[open ${r + 1}/${RUNS}] ${name}: at once ${now.at(-1).toFixed(0)} ms, later ${later.at(-1).toFixed(0)} ms`);
    }
    console.log(`| ${name} | ${fmt(median(now))} | ${fmt(median(later))} |`);
  }
}
await browser.close();
await server.close();
await peer?.close();
