// First chart on screen, this app against the lightest peer, side by side in one run (a
// benchmark, not a test). Each app is served by a static server that compresses as hosts do (a
// precompressed .br/.gz beside a file when there is one, gzip otherwise). Every load is cold (a
// fresh browser context). Two conditions:
//   desktop  no throttling
//   mobile   Lighthouse's mobile profile through the DevTools protocol: 150 ms round trip
//            (562.5 ms request latency as Lighthouse's devtools throttling sets it), 1.6 Mbit/s down
//            (× 0.9), 750 kbit/s up (× 0.9), CPU 4× slower; a 390 × 844 touch screen.
// "First chart" is the moment the chart's first drawing is in the page, taken by an observer
// installed before any of the page's scripts: for this app the encoding heatmap's first draw
// (its `data-draws` counter), for the peer its first wave (an SVG path with a long `d`); then
// one animation frame, so it has been painted.
//
//   PEER_DIST=/path/to/peer/dist RUNS=5 node bench_mobile.mjs
//
// The peer: shelvia-w/positional-encoding-visualizer at be36640c275a4b25b36d7b25a466b7b553d07608,
// built with `npm ci && npx vite build --base=/` (see the README).
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, DIST } from './lib.mjs';

const RUNS = Number(process.env.RUNS ?? 5);
const PEER = process.env.PEER_DIST;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const WATCH = `(() => {
  const done = () => {
    if (document.querySelector('#encoding-heatmap[data-draws]') && !window.__appSeen) {
      window.__appSeen = true;
      requestAnimationFrame(() => { window.__appReady = performance.now(); });
    }
    if (window.__chartSeen) return true;
    const ours = document.querySelector('#encoding-heatmap[data-draws], #early-heatmap[data-draws]');
    const peer = [...document.querySelectorAll('svg path')].some((p) => (p.getAttribute('d') || '').length > 200);
    if (ours || peer) {
      window.__chartSeen = true;
      requestAnimationFrame(() => { window.__firstChart = performance.now(); });
      return true;
    }
    return false;
  };
  new MutationObserver(() => done())
    .observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-draws', 'd'] });
})();`;

const server = await serve(DIST, '/', { compress: true });
const peer = PEER ? await serve(PEER, '/', { compress: true }) : null;
const browser = await launch();

async function load(url, mobile) {
  const context = await browser.newContext(mobile
    ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
    : { viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (mobile) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 562.5,
      downloadThroughput: (1638.4 * 0.9 * 1024) / 8,
      uploadThroughput: (750 * 0.9 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  const sizes = new Map();
  const urls = new Map();
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response.url));
  cdp.on('Network.loadingFinished', (e) => sizes.set(urls.get(e.requestId) ?? e.requestId, e.encodedDataLength));
  await page.addInitScript(WATCH);
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__firstChart, null, { timeout: 120000, polling: 50 });
  const ms = await page.evaluate(() => window.__firstChart);
  // This app: also until the whole app has taken over (its own heatmap drawn).
  const ours = await page.evaluate(() => !!document.querySelector('#early, #encoding-heatmap'));
  let app = null;
  if (ours) {
    await page.waitForFunction(() => window.__appReady, null, { timeout: 120000, polling: 50 });
    app = await page.evaluate(() => window.__appReady);
  }
  await page.waitForTimeout(mobile ? 1500 : 300);
  await context.close();
  return { ms, app, sizes };
}

const rows = [];
for (const mobile of [false, true]) {
  const results = { ours: [], peer: [], app: [] };
  let files = {};
  for (let r = 0; r < RUNS; r++) {
    const a = await load(server.url, mobile);
    results.ours.push(a.ms);
    results.app.push(a.app);
    files.ours = a.sizes;
    if (peer) {
      const b = await load(peer.url, mobile);
      results.peer.push(b.ms);
      files.peer = b.sizes;
    }
  }
  rows.push({ mobile, results, files });
}

console.log('\n### First chart on screen (median of ' + RUNS + ' cold loads, one run, same machine)\n');
console.log('| condition | this app ms | peer ms | this app ÷ peer | runs (app) | runs (peer) | whole app ready ms |');
console.log('|---|---|---|---|---|---|---|');
for (const { mobile, results } of rows) {
  const a = median(results.ours);
  const b = results.peer.length ? median(results.peer) : NaN;
  console.log(`| ${mobile ? 'mobile profile' : 'desktop'} | ${a.toFixed(0)} | ${Number.isNaN(b) ? '—' : b.toFixed(0)} | ${Number.isNaN(b) ? '—' : (a / b).toFixed(2)} | ${results.ours.map((x) => x.toFixed(0)).join(', ')} | ${results.peer.map((x) => x.toFixed(0)).join(', ')} | ${median(results.app).toFixed(0)} |`);
}
for (const [who, label] of [['ours', 'this app'], ['peer', 'peer']]) {
  const sizes = rows[1].files[who];
  if (!sizes) continue;
  console.log(`\n**Transfer, ${label}** (bytes over the wire, compressed, mobile run):\n`);
  let total = 0;
  for (const [url, bytes] of sizes) {
    total += bytes;
    console.log(`- ${String(url).replace(/^https?:\/\/[^/]+/, '')}: ${bytes.toLocaleString('en')} B`);
  }
  console.log(`- total: ${total.toLocaleString('en')} B`);
}
await browser.close();
await server.close();
await peer?.close();
