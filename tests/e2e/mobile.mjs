// What the mobile benchmarks share: Lighthouse's mobile profile and the observer that times a
// page's first chart and its whole app (bench_mobile.mjs says what each time means).

/** A new phone-sized context whose page runs under Lighthouse's mobile profile: 562.5 ms request
 *  latency (a 150 ms round trip as its devtools throttling sets it), 1.6 Mbit/s down and
 *  750 kbit/s up (each × 0.9), CPU 4× slower. Returns the page and its DevTools session. */
export async function mobilePage(browser) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await throttle(cdp);
  return { context, page, cdp };
}

export async function throttle(cdp) {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 562.5,
    downloadThroughput: (1638.4 * 0.9 * 1024) / 8,
    uploadThroughput: (750 * 0.9 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

export const median = (xs) => {
  const s = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

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
  // index.html sets wasmBindings to the first-paint module's bindings; the first-paint module
  // sets it to the app module's once that has initialised (the app's exports, as the tests use).
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
