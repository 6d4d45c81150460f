// A course page on another origin, for the embed tests and measurements: the app is served by
// one server (with or without CORS), the host page by a second one, so the frame is cross-origin
// as it is on a real course site. The embed code comes from the app itself ("Copy embed code").
import http from 'node:http';

export const PHONES = { 390: [390, 844], 320: [320, 640] };

/** A browser context like a phone: touch, device scale 2. */
export const phone = (width, height) => ({ viewport: { width, height }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

const LOREM = [
  'Last week we saw that attention alone cannot tell the order of the words in a sentence. This week we',
  'look at how transformers are told where each token sits, and what each way of telling costs.',
].join(' ');

/** A course page around `code`: a heading, two paragraphs before and six after. */
export function coursePage(code, { title = 'Week 4: word order', dark = false } = {}) {
  const colours = dark ? 'background:#121417;color:#e8e8e8' : 'background:#ffffff;color:#1d2633';
  const para = `<p>${LOREM}</p>`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font:17px/1.6 system-ui,sans-serif;margin:0;padding:16px;${colours}}</style></head>
<body><main><h1>${title}</h1>${para}${para}
${code}
${para.repeat(6)}</main></body></html>`;
}

/** Serves whatever page `pages.get(path)` returns (text/html) on a second origin. */
export async function hostServer() {
  const pages = new Map();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url, 'http://localhost').pathname;
    const page = pages.get(path);
    if (page === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(page);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  // "localhost" rather than 127.0.0.1: another site than the app's, as a real course page is.
  return {
    url: `http://localhost:${port}`,
    put: (path, html) => pages.set(path, html),
    close: () => new Promise((r) => server.close(r)),
  };
}

/**
 * The embed code the app writes for `query`, as a teacher gets it: open the app on a desktop,
 * press "Copy embed code", choose `options` (labels of the dialog's choices, when it has them)
 * and read the text.
 */
export async function embedCode(browser, appUrl, query, options = []) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.goto(appUrl + query);
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  for (const label of options) await page.getByLabel(label, { exact: true }).check();
  const text = await page.locator('#share-text').inputValue();
  await context.close();
  return text;
}

/** Of a chart taller than this, the span counts its first this many pixels. */
export const CHART_TOP = 480;

/**
 * Where the embed's first chart and its main control sit, in host-page pixels (document
 * coordinates), and the frame's height. The main control is the first slider or switch of the
 * view's main settings, or the Train button; null when the view has none. The span runs from the
 * higher of the two tops to the lower of the control's bottom and the bottom of the chart's
 * first CHART_TOP pixels: the height of screen the reader needs to see both.
 */
export async function layout(page, frameSelector = 'iframe') {
  const frameEl = page.locator(frameSelector).first();
  const box = await frameEl.evaluate((f) => {
    const r = f.getBoundingClientRect();
    return { top: r.top + scrollY, height: r.height };
  });
  const frame = await (await frameEl.elementHandle()).contentFrame();
  const inner = await frame.evaluate(() => {
    const rect = (el) => {
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { top: r.top + scrollY, bottom: r.bottom + scrollY, height: r.height };
    };
    const root = document.querySelector('.embed-main');
    const chart = root && [...root.querySelectorAll('canvas[data-draws]')].find((c) => c.getBoundingClientRect().height > 0);
    const control = document.querySelector(
      '.quick-strip input[type=range], .quick-strip input[type=checkbox], #train-start',
    );
    return { chart: rect(chart), control: rect(control), content: document.documentElement.scrollHeight };
  });
  const shift = (r) => r && { top: r.top + box.top, bottom: r.bottom + box.top, height: r.height };
  const chart = shift(inner.chart);
  const control = shift(inner.control);
  const span = chart && control
    ? Math.max(chart.top + Math.min(chart.height, CHART_TOP), control.bottom) - Math.min(chart.top, control.top)
    : null;
  return { frameHeight: box.height, content: inner.content, chart, control, span };
}

/** Waits until the frame's height has stopped changing (the height script has done its work). */
export async function settle(page, frameSelector = 'iframe', ms = 800) {
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const h = await page.locator(frameSelector).first().evaluate((f) => f.getBoundingClientRect().height);
    if (h === last) return h;
    last = h;
    await page.waitForTimeout(ms);
  }
  return last;
}

/**
 * A touch swipe: a finger put down at (x, y) in the page's viewport and moved up by `distance`
 * px in 20 steps, a frame apart, as real touch events through the DevTools protocol.
 */
export async function swipe(page, x, y, distance = 400) {
  const cdp = await page.context().newCDPSession(page);
  const point = (dy) => [{ x, y: y - dy, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(0) });
  for (let i = 1; i <= 20; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point((distance * i) / 20) });
    await page.waitForTimeout(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}
