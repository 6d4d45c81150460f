// Several embeds on one course page, on Lighthouse's mobile profile (a benchmark, not a test):
// when each frame's first chart and whole app come. Two cases, each a cold load of the course
// page (a fresh browser context):
//   together   three compact embeds (heatmap, offsets, waves; `show=chart`) on the first screen,
//              loading at once; times from the course page's start.
//   one later  the heatmap embed alone; once its app is whole, the offsets embed is added to
//              the page, then the waves embed: each timed from its insertion, as a lazy frame
//              that loads when the reader scrolls to it.
// The app is served as bench_mobile.mjs serves it (precompressed Brotli), with the cache header
// GitHub Pages sends, `Cache-Control: max-age=600` (CACHE=no-store for a host that lets nothing
// be kept). The course page is another
// site; Chromium runs its frames in the page's process here (site isolation off), so that the
// DevTools protocol's throttling, set on the page, covers them. First chart and whole app as
// bench_mobile.mjs times them, inside each frame.
//
// Each frame's address carries its settings in the query, or, for a build named with a trailing
// `#`, after `#` as the embed dialog writes them since 2026-11-29 (src/ui/browser.rs,
// frame_link): then every frame loads the same page.
//
//   RUNS=3 node tests/e2e/bench_course.mjs DIST_A ['DIST_B#' …]   (builds side by side)
import { serve, launch, median } from './lib.mjs';
import { benchPage, watch } from './mobile.mjs';
import { hostServer } from './embedhost.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const CACHE = process.env.CACHE ?? 'max-age=600';
const BUILDS = process.argv.slice(2).map((a) => ({ name: a, dir: a.replace(/#$/, ''), mark: a.endsWith('#') ? '#' : '?' }));
if (!BUILDS.length) throw new Error('bench_course.mjs: name one build directory or more');
const VIEWS = ['heatmap', 'offsets', 'waves'];
const HEIGHT = 270; // three frames fit on a 844 px screen
const browser = await launch(['--disable-site-isolation-trials', '--disable-features=IsolateOrigins,site-per-process']);
const host = await hostServer();
const servers = [];
for (const b of BUILDS) servers.push({ ...b, ...(await serve(b.dir, '/', { compress: true, cache: CACHE })) });

const frame = (src) => `<iframe src="${src}" title="embed" loading="lazy" style="width:100%;height:${HEIGHT}px;border:0"></iframe>`;
const page = (frames) => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Course</title></head>
<body style="margin:0">${frames.join('')}<p>${'Text of the course. '.repeat(200)}</p></body></html>`;
const src = (server, view) => `${server.url}${server.mark}embed=${view}&show=chart`;

/** Each frame's marks (absolute ms), in the page's frame order. */
const marks = (p) => Promise.all(p.frames().slice(1).map((f) => f.evaluate(() => ({
  origin: performance.timeOrigin,
  src: location.search + location.hash + (window.peExplorerQuery ?? ""),
  chart: window.__firstChart ?? null,
  ready: window.__appReady ?? null,
})).catch(() => null)));

/** Waits until the frame whose address has `view` is whole; its first chart and whole app. */
async function whole(p, view, since) {
  for (let i = 0; i < 900; i++) {
    const m = (await marks(p)).find((x) => x && x.src.includes(`embed=${view}&`) && x.ready);
    if (m) return [m.origin + m.chart - since, m.origin + m.ready - since];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`bench_course.mjs: the ${view} embed did not become whole`);
}

const rows = new Map();
const add = (key, values) => rows.set(key, [...(rows.get(key) ?? []), values]);
for (let run = 1; run <= RUNS; run++) {
  for (const server of servers) {
    for (const together of [true, false]) {
      host.put('/course.html', page(together ? VIEWS.map((v) => frame(src(server, v))) : [frame(src(server, VIEWS[0]))]));
      const { context, page: p } = await benchPage(browser);
      await p.addInitScript(watch(false));
      await p.goto(host.url + '/course.html', { waitUntil: 'commit' });
      const start = await p.evaluate(() => performance.timeOrigin);
      const got = [await whole(p, VIEWS[0], start)];
      for (const view of VIEWS.slice(1)) {
        if (together) {
          got.push(await whole(p, view, start));
        } else {
          const added = await p.evaluate((s) => {
            document.body.insertAdjacentHTML('afterbegin', s);
            return performance.timeOrigin + performance.now();
          }, frame(src(server, view)));
          got.push(await whole(p, view, added));
        }
      }
      await context.close();
      const key = `${server.name}|${together ? 'together' : 'one later'}`;
      add(key, got);
      console.error(`[${run}/${RUNS}] ${key}: ${got.map(([c, r]) => `${Math.round(c)}/${Math.round(r)}`).join('  ')}`);
    }
  }
}
console.log(`\n### Three embeds on a course page, mobile profile, Cache-Control: ${CACHE}; median of ${RUNS}`);
console.log('first chart / whole app, ms: together from the page\'s start; one later from its insertion\n');
console.log(`| build | case | ${VIEWS.join(' | ')} |`);
console.log(`|---|---|${VIEWS.map(() => '---').join('|')}|`);
for (const [key, runs] of rows) {
  const [dist, kind] = key.split('|');
  const cells = VIEWS.map((_, j) => [0, 1].map((k) => Math.round(median(runs.map((r) => r[j][k])))).join(' / '));
  console.log(`| ${dist} | ${kind} | ${cells.join(' | ')} |`);
}
await browser.close();
await host.close();
for (const s of servers) await s.close();
