// What the mobile benchmarks share: Lighthouse's mobile profile and the observer that times a
// page's first chart and its whole app (bench_mobile.mjs says what each time means).

/** A new context and page with its DevTools session. `mobile` (the default): a 390 × 844 touch
 *  screen under Lighthouse's mobile profile, 562.5 ms request latency (a 150 ms round trip as
 *  its devtools throttling sets it), 1.6 Mbit/s down and 750 kbit/s up (each × 0.9), CPU 4×
 *  slower; otherwise an unthrottled 1400 × 1000 desktop. */
export async function benchPage(browser, { mobile = true } = {}) {
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
  return { context, page, cdp };
}

/** Every request of the page as the DevTools protocol reports it: its address, and its send,
 *  first byte and end on the protocol's monotonic clock (s), with its encoded bytes (headers and
 *  compressed body). `at(t, origin)` turns such a time into ms from the page's time origin (the
 *  first request's wallTime ties the two clocks). */
export function recordRequests(cdp) {
  const requests = new Map();
  let clock = null;
  cdp.on('Network.requestWillBeSent', (e) => {
    if (clock === null) clock = e.wallTime - e.timestamp;
    requests.set(e.requestId, { url: e.request.url, sent: e.timestamp });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.first = e.timestamp;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) Object.assign(r, { done: e.timestamp, bytes: e.encodedDataLength });
  });
  return {
    list: () => [...requests.values()].sort((a, b) => a.sent - b.sent),
    at: (t, origin) => (t === undefined || clock === null ? null : (t + clock) * 1000 - origin),
  };
}

// After the app module has initialised, how long a page may take to draw its first canvas before
// it counts as drawing none without the user acting.
export const NO_CHART_AFTER = 8000;

/** Waits for this app's page (with `watch(false)` installed) to be whole: its marks, ms from the
 *  time origin. A page that draws no canvas within NO_CHART_AFTER of the app module's start is
 *  `bare`: its whole app is then the module's start with `#early` gone (then one frame). */
export async function wholeApp(page) {
  await page.waitForFunction(() => window.__appModule, null, { timeout: 180000, polling: 100 });
  try {
    await page.waitForFunction(() => window.__appReady, null, { timeout: NO_CHART_AFTER, polling: 50 });
  } catch {
    await page.waitForFunction(() => window.__appBare, null, { timeout: 10000, polling: 50 }).catch(() => {});
  }
  return page.evaluate(() => ({
    origin: performance.timeOrigin,
    chart: window.__firstChart ?? null,
    module: window.__appModule,
    ready: window.__appReady ?? window.__appBare ?? window.__appModule,
    bare: !window.__appReady,
  }));
}

// `peer` picks what counts as the first chart.
export const watch = (peer) => `(() => {
  const PEER = ${peer};
  const frame = (key) => requestAnimationFrame(() => { window[key] = performance.now(); });
  const check = () => {
    if (!window.__chartSeen) {
      const chart = PEER
        ? [...document.querySelectorAll('svg path')].some((p) => (p.getAttribute('d') || '').length > 200)
        : document.querySelector('canvas[data-draws]');
      if (chart) {
        window.__chartSeen = true;
        frame('__firstChart');
      }
    }
    if (!PEER && !window.__appSeen && window.__appModule && !document.getElementById('early')) {
      if (document.querySelector('canvas[data-draws]')) {
        window.__appSeen = true;
        frame('__appReady');
      } else if (!window.__appBareSeen) {
        // The app is here but has drawn no canvas (yet): kept for a page that never draws one.
        window.__appBareSeen = true;
        frame('__appBare');
      }
    }
  };
  // The site's module sets wasmBindings to its exports once its app chunk has run (builds before
  // 2026-11-28 evening: to the first-paint module's bindings first, which lack these exports).
  let bindings;
  Object.defineProperty(window, 'wasmBindings', {
    configurable: true,
    get: () => bindings,
    set: (m) => {
      bindings = m;
      if (m && typeof m.wasm_memory_bytes === 'function' && !window.__appModule) {
        window.__appModule = performance.now();
        check();
      }
    },
  });
  new MutationObserver(check)
    .observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-draws', 'd', 'id'] });
})();`;
