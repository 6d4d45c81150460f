// The first paint: before the app has arrived, the small first module draws the view's main
// chart live (every view and embed whose address it knows), its sliders redraw it and keep the
// address in step, and the app then takes over from that state: on a phone with the chart in the
// same place, drawn the same, and the focus on the app's own slider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, waitForDraws, holdApp, holdPack, appTakenOver, serve, DIST } from './lib.mjs';

const app = useApp();
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** Opens `query` with the app (the chunk of the site's module that holds it) held back until
 * `release()` is called; `asked` resolves when the first paint has asked for it. */
async function held(query, context) {
  const opened = await openApp(app, '', { ready: null, context });
  const hold = await holdApp(opened.page);
  await opened.page.goto(app.server.url + query);
  return { ...opened, ...hold };
}

/** The early chart's (or the app's chart's) box, draws and a hash of every pixel. */
const look = (page, selector) =>
  page.evaluate((selector) => {
    const c = document.querySelector(selector);
    const r = c.getBoundingClientRect();
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let h = 2166136261;
    for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i], 16777619);
    return { id: c.id, early: c.dataset.early, top: r.top, left: r.left, width: r.width, height: r.height, draws: Number(c.dataset.draws), hash: h >>> 0 };
  }, selector);

/** The first paint's chart, once drawn (see `look`). */
async function earlyChart(page) {
  await page.waitForSelector('canvas[data-early][data-draws]', { timeout: 20000 });
  return look(page, 'canvas[data-early]');
}

/** Lets the held-back app arrive and checks that it takes over in place: its chart where the
 * early one was (`early`, from `look`), at its size, drawn with the same pixels. */
async function takesOverInPlace(page, release, early) {
  release();
  await page.waitForFunction(() => !document.getElementById('early'), null, { timeout: 30000 });
  await waitForDraws(page, early.early);
  const taken = await look(page, `#${early.early}`);
  for (const k of ['top', 'left', 'width', 'height']) {
    assert.ok(Math.abs(taken[k] - early[k]) <= 1, `${k}: early ${early[k]}, app ${taken[k]}`);
  }
  assert.equal(taken.hash, early.hash, 'the app draws the same pixels as the first paint');
}

test('the first module draws a live heatmap before the app arrives, and the app takes over', async () => {
  const { page, errors, context, release } = await held('?d_model=64', { viewport: { width: 1200, height: 900 } });
  await waitForDraws(page, 'early-encoding-heatmap');
  assert.equal(await page.locator('#encoding-heatmap').count(), 0, 'the app is not there yet');
  // The slider is live: it redraws the chart and writes the address.
  const before = Number(await page.locator('#early-encoding-heatmap').getAttribute('data-draws'));
  await page.locator('#early-length').focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await waitForDraws(page, 'early-encoding-heatmap', before + 5);
  const length = new URL(page.url()).searchParams.get('length');
  assert.ok(Number(length) > 100, `length in the address: ${length}`);
  assert.equal(new URL(page.url()).searchParams.get('d_model'), '64');
  // The app arrives, starts from that address, and the early page is gone; the focus moved to
  // the app's slider of the same setting.
  release();
  await waitForDraws(page, 'encoding-heatmap');
  assert.equal(await page.locator('#early').count(), 0);
  assert.equal(await page.locator('#length-value').inputValue(), length);
  assert.equal(await page.locator('#d-model-value').inputValue(), '64');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'length-slider');
  assert.deepEqual(errors, []);
  await context.close();
});

// The addresses a course page links to (issue 22's list), on a phone.
for (const query of ['?embed=offsets', '?embed=attention', '?embed=train', '?scheme=rope&view=offsets', '?lesson=3', '?scheme=alibi', '?view=norms&d_model=32']) {
  test(`on a phone, ${query} paints its chart first, live, and the app takes over in place`, async () => {
    const { page, errors, context, release } = await held(query, PHONE);
    let early = await earlyChart(page);
    assert.equal(await page.evaluate(() => typeof window.wasmBindings?.wasm_memory_bytes), 'undefined', 'the app is not there yet');
    assert.ok(early.top >= 0 && early.top < 844 - 100, `the chart is on the first screen: ${JSON.stringify(early)}`);
    // Its first slider (by keyboard, as a trusted input) moves it before the app is there.
    const slider = page.locator('#early input[type=range]').first();
    let moved = null;
    if (await slider.count()) {
      await slider.focus();
      for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
      await page.waitForFunction((n) => Number(document.querySelector('canvas[data-early]').dataset.draws) >= n, early.draws + 2);
      moved = { id: await slider.getAttribute('id'), value: await page.locator('#early .control-value').first().inputValue() };
      early = await look(page, 'canvas[data-early]');
    }
    // No jump: the app's chart is where the early one was, at its size, drawn the same.
    await takesOverInPlace(page, release, early);
    if (moved) {
      const id = moved.id.replace(/^early-/, '');
      assert.equal(await page.evaluate(() => document.activeElement?.id), `quick-${id}-slider`, 'the focus stays on the slider');
      assert.equal(await page.locator(`#quick-${id}-value`).inputValue(), moved.value, 'the value moved before the app arrived is kept');
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// Where the first paint lays out what the app draws above and beside the chart, the app's chart
// takes over where the early one was, at its size:
// - on a wide screen, the Position matrix tab of every kind of scheme (the page most visitors
//   open first), the distance tab of every kind but the sinusoidal (whose controls sit above the
//   chart) and the norms: the first paint draws the app's panel head and the chart's figure;
// - a compact embed (show=chart, the embed dialog's "chart and its controls" and "chart alone"),
//   in the frame sizes a course page gives it: the title, the chart and the strip (above a tall
//   chart, as the app places it).
const IN_PLACE = [
  ['on a wide screen', { viewport: { width: 1400, height: 1000 } }, ['', '?scheme=learned', '?scheme=rope',
    '?scheme=t5', '?scheme=alibi', '?scheme=fire&palette=grey', '?scheme=learned&view=offsets',
    '?scheme=rope&view=offsets', '?scheme=t5&view=offsets', '?scheme=kerple&view=offsets', '?view=norms']],
  ['in an 800 px frame', { viewport: { width: 800, height: 500 } }, ['?embed=heatmap&show=chart',
    '?embed=offsets&show=chart', '?embed=waves&show=chart', '?embed=rotations&show=chart', '?embed=compare&show=chart',
    '?embed=patches&show=chart', '?embed=train&show=chart', '?embed=heatmap&show=chart&controls=none&scheme=rope',
    '?embed=heatmap&controls=none']],
  ['in a phone-sized frame', PHONE, ['?embed=rotations&show=chart', '?embed=offsets&show=chart&controls=none']],
];
for (const [where, context, queries] of IN_PLACE) {
  for (const query of queries) {
    test(`${where}, ${query || 'the default page'} draws early and hands its chart over in place`, async () => {
      const { page, errors, release } = await held(query, context);
      const early = await earlyChart(page);
      assert.ok(early.top < context.viewport.height - 100, `the chart starts on the first screen: ${early.top}`);
      await takesOverInPlace(page, release, early);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}

test('an address the first paint does not know draws nothing early and opens that view', async () => {
  for (const [query, id] of [['?view=offsets&anchors=1,2', 'offsets-chart'], ['?view=quiz', null]]) {
    const { page, errors, context, release, asked } = await held(query, { viewport: { width: 1200, height: 900 } });
    // The first paint has run (it asks for the app as it starts) and left the loading note.
    await asked;
    assert.equal(await page.locator('#early').count(), 0, query);
    assert.equal(await page.locator('#boot').count(), 1, query);
    release();
    if (id) await waitForDraws(page, id);
    else await page.waitForSelector('.quiz-card', { timeout: 20000 });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('on a phone, before the app arrives, a vertical swipe on a first-paint slider leaves its value; a sideways drag sets it', async () => {
  const { page, errors, context, release } = await held('?view=offsets&length=60', PHONE);
  await waitForDraws(page, 'early-offsets-chart');
  const slider = page.locator('#early-length');
  const box = await slider.boundingBox();
  const cdp = await context.newCDPSession(page);
  const move = async (x, y, dx, dy) => {
    const at = (f) => [{ x: x + dx * f, y: y + dy * f, id: 1 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (let i = 1; i <= 10; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i / 10) });
      await page.waitForTimeout(16);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForTimeout(200);
  };
  const length = () => new URL(page.url()).searchParams.get('length');
  // A swipe up, starting on the track right of the thumb: the value stays 60.
  await move(box.x + box.width * 0.6, box.y + box.height / 2, 0, -300);
  assert.equal(length(), '60', 'the swipe moved the slider');
  // A sideways drag along the slider moves it.
  await page.evaluate(() => scrollTo(0, 0));
  const again = await slider.boundingBox();
  await move(again.x + again.width * 0.2, again.y + again.height / 2, again.width * 0.3, 0);
  assert.ok(Number(length()) > 60, `dragged to ${length()}`);
  await cdp.detach();
  release();
  await waitForDraws(page, 'offsets-chart');
  assert.deepEqual(errors, []);
  await context.close();
});

test("on a slow line the app's files are asked for while the module's wasm arrives, once, and the view's after them", async (t) => {
  // Lighthouse's mobile line (as bench_mobile.mjs sets it), with the processor at full speed.
  const context = await app.browser.newContext(PHONE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 562.5,
    downloadThroughput: (1638.4 * 0.9 * 1024) / 8,
    uploadThroughput: (750 * 0.9 * 1024) / 8,
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const seen = [];
  // When the app's pack and the view's were asked for, and the app's first and last bytes came.
  const at = {};
  const now = () => performance.now();
  page.on('request', (r) => {
    if (r.url().endsWith('/app/pack_app.wasm')) seen.push('the app asked for');
    if (/\/app\/pack_\w+\.wasm$/.test(r.url())) (at[r.url().replace(/.*\/app\/pack_|\.wasm$/g, '')] ??= []).push(now());
  });
  page.on('response', (r) => {
    if (r.url().endsWith('/app/pack_app.wasm')) at.appFirst = now();
    if (r.url().endsWith('/app/pack_offsets.wasm')) at.viewFirst ??= now();
  });
  page.on('requestfinished', (r) => r.url().endsWith('/app/pack_app.wasm') && (at.appLast = now()));
  // The module's wasm comes inside the page in a release build (scripts/inline_module.mjs),
  // otherwise as its own file.
  page.on('requestfinished', (r) => {
    if (r.url().endsWith('/app/pe-explorer_bg.wasm')) seen.push("the module's wasm in, as a file");
    else if (r.resourceType() === 'document') seen.push("the module's wasm in, in the page");
  });
  // Compressed as hosts send it (the page's estimates count Brotli bytes).
  const server = await serve(DIST, '/', { compress: true });
  // Also when an assertion fails: an open server would keep this file's run from ending.
  t.after(async () => {
    await context.close();
    await server.close();
  });
  await page.goto(server.url + '?view=offsets');
  await appTakenOver(page, 60000);
  await waitForDraws(page, 'offsets-chart');
  const inline = await page.evaluate(() => document.getElementById('pe-fetch').hasAttribute('data-inline'));
  const how = inline ? 'in the page' : 'as a file';
  // Asked for by the page before the first paint could (it runs once the module is in), and
  // fetched once: the first paint's own ask is the same request. A page that carries the
  // module fetches no file of it (without it, the page itself comes in first).
  assert.deepEqual(
    inline ? seen : seen.filter((e) => e !== "the module's wasm in, in the page"),
    ['the app asked for', `the module's wasm in, ${how}`],
  );
  // The view's pack is asked for once, and its first bytes come as the app's last do, not
  // beside them from the start: the app's pack then ends first, and the app starts while the
  // view's arrives. (Where the page knows the app's size and the line's speed: a release
  // build.) The page asks when the app's bytes are due at the browser's estimate of the line,
  // which Chromium blurs by up to a tenth; asked beside the app's, they come halfway through.
  assert.equal(at.offsets?.length, 1, `the view's pack asked for ${at.offsets?.length} times`);
  if (inline) {
    const span = at.appLast - at.appFirst;
    assert.ok(
      at.viewFirst > at.appFirst + 0.75 * span,
      `the view's pack asked for ${(at.offsets[0] - at.appFirst).toFixed(0)} ms and first in ${(at.viewFirst - at.appFirst).toFixed(0)} ms after the app's first byte, of ${span.toFixed(0)}`,
    );
  }
  assert.deepEqual(errors, []);
});

/** Delays the pack `name` (app/pack_NAME.wasm) by `ms` in `page`. */
const slowPack = (page, name, ms) => page.route(`**/app/pack_${name}.wasm`, async (route) => {
  await new Promise((r) => setTimeout(r, ms));
  await route.continue();
});

/** The packs `page` has fetched: each file, when it was asked for and when its last byte came,
 * on the page's clock (its resource timing). */
const packsFetched = (page) => page.evaluate(() => performance.getEntriesByType('resource')
  .filter((e) => /\/app\/pack_\w+\.wasm$/.test(e.name))
  .map((e) => ({ file: e.name.replace(/.*\/app\//, ''), start: e.startTime, end: e.responseEnd })));

/** Until `page` has fetched the pack `name`. */
const untilFetched = (page, name, timeout = 15000) => page.waitForFunction(
  (file) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(`/app/${file}`)),
  `pack_${name}.wasm`, { timeout, polling: 50 },
);

test("a page that opens on a view from a chunk fetches no other view's chunk until that view is drawn", async () => {
  const { page, context, errors } = await openApp(app, '', { ready: null });
  // The view's pack takes a while: the page is idle meanwhile.
  await slowPack(page, 'offsets', 1500);
  // When the app took the page over (the first paint's page gone), on the page's clock.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.getElementById('early') || !window.wasmBindings) return;
      window.__over = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(app.server.url + '?view=offsets');
  await appTakenOver(page);
  await waitForDraws(page, 'offsets-chart');
  const over = await page.evaluate(() => window.__over);
  const before = (await packsFetched(page)).filter((p) => p.start < over).map((p) => p.file);
  assert.deepEqual([...new Set(before)].sort(), ['pack_app.wasm', 'pack_offsets.wasm'], 'asked for before the view was drawn');
  // Then, with the page idle, the other views' packs come, so that their tabs open at once.
  await untilFetched(page, 'waves');
  assert.deepEqual(errors, []);
  await context.close();
});

test("a tab opened while the page fetches the other views' chunks has the line to itself until its own is in", async () => {
  const { page, context, errors } = await openApp(app, '', { ready: null });
  // The walk over every chunk begins with the attention demo's: held until the test lets it go.
  const walk = await holdPack(page, 'attention');
  // The opened view's pack takes a while.
  await slowPack(page, 'patches', 1000);
  await page.goto(app.server.url);
  await appTakenOver(page);
  await waitForDraws(page, 'encoding-heatmap');
  await walk.asked;
  const asked = page.waitForRequest(/\/app\/pack_patches\.wasm$/);
  await page.locator('#tab-patches').click();
  await asked;
  // The chunk on its way comes in, and the walk asks for no other until the view's is in.
  walk.release();
  await page.locator('#panel-patches canvas[data-draws]').first().waitFor({ timeout: 20000 });
  // Then it goes on to the last chunk.
  await untilFetched(page, 'train', 20000);
  const packs = await packsFetched(page);
  const patches = packs.find((p) => p.file === 'pack_patches.wasm');
  const meanwhile = packs.filter((p) => p.start > 0 && p.start < patches.end && !['pack_app.wasm', 'pack_attention.wasm', 'pack_patches.wasm'].includes(p.file));
  assert.deepEqual(meanwhile.map((p) => p.file), [], "asked for while the opened view's chunk was on its way");
  assert.deepEqual(errors, []);
  await context.close();
});

/** Opens `?view=offsets` with the page's text passed through `alter` on its way (as a host, or
 * a dropped connection, might change it); `alter` returns the new text, or null when the page
 * does not carry the module's wasm. Waits for the app's chart; returns the page, how many times
 * the module's file was fetched, and whether the page was altered. */
async function alteredPage(alter) {
  const { page, errors, context } = await openApp(app, '', { ready: null });
  let files = 0;
  page.on('request', (r) => r.url().endsWith('/app/pe-explorer_bg.wasm') && files++);
  let altered = false;
  await page.route((url) => url.pathname === new URL(app.server.url).pathname, async (route) => {
    const response = await route.fetch();
    const text = await response.text();
    const body = alter(text);
    altered = body !== null;
    await route.fulfill({ response, body: body ?? text });
  });
  await page.goto(app.server.url + '?view=offsets');
  await appTakenOver(page);
  await waitForDraws(page, 'offsets-chart');
  return { page, errors, context, files: () => files, altered };
}

const SECOND_HALF = '<script type="application/octet-stream" id="pe-wasm-1">';

test("the module's wasm comes inside the page, and a page changed on its way loads the module's file instead", async () => {
  // As a host that rewrites HTML might: one character of the module's text in the page changed.
  const { page, errors, context, files, altered } = await alteredPage((text) => {
    const at = text.indexOf(SECOND_HALF) + SECOND_HALF.length;
    return at > SECOND_HALF.length ? text.slice(0, at) + (text[at] === 'a' ? 'b' : 'a') + text.slice(at + 1) : null;
  });
  // A release build carries the module in the page (scripts/inline_module.mjs).
  assert.ok(altered, "the page carries the module's wasm");
  assert.equal(files(), 1, "the module's file was fetched once");
  assert.equal(await page.locator('#pe-wasm-0, #pe-wasm-1').count(), 0, 'the text is dropped once read');
  assert.deepEqual(errors, []);
  await context.close();
});

test("a page cut short before the module's end loads the module's file instead", async () => {
  // The connection drops, or a host drops the page's end: the scripts after the module's text
  // never run, and the page falls back to the file once it is parsed.
  const { errors, context, files, altered } = await alteredPage((text) => {
    const at = text.indexOf(SECOND_HALF);
    return at > 0 ? text.slice(0, at + 1000) : null;
  });
  assert.ok(altered, "the page carries the module's wasm");
  assert.equal(files(), 1, "the module's file was fetched once");
  assert.deepEqual(errors, []);
  await context.close();
});
