// End-to-end checks of small mends: canvas captions wrap and axes keep several ticks on a 390-px
// phone (set SHOTS=dir to keep the screenshots), RoPE's bound in its own chart and in the CSV,
// Compare's default partner, lesson step 11's suggestion, and the current step's contrast
// under the pointer in both themes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useApp, openApp, waitForDraws, figureDownload, appTakenOver } from './lib.mjs';
import { swipe } from './embedhost.mjs';
import { STEPS } from './lesson_steps.mjs';

const app = useApp();

/** Opens `query` on a phone once the app has taken over (and chart `id`, if given, is drawn). */
const onPhone = (query, id) =>
  openApp(app, query, {
    context: phone,
    ready: async (p) => {
      if (id) await waitForDraws(p, id);
      await appTakenOver(p);
    },
  });

/** A finger put down at (x, y) and moved by (dx, dy) in 10 steps (no move: a tap), as real touch
 * events through the DevTools protocol. */
async function drag(page, x, y, dx, dy) {
  const cdp = await page.context().newCDPSession(page);
  const at = (f) => [{ x: x + dx * f, y: y + dy * f, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
  if (dx || dy) {
    for (let i = 1; i <= 10; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i / 10) });
      await page.waitForTimeout(16);
    }
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
  await page.waitForTimeout(200);
}
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** A chart's caption lines and x tick labels as drawn, with each line's width in the chart font. */
async function drawnText(page, id) {
  return page.evaluate(([id, font]) => {
    const c = document.getElementById(id);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `13px ${font}`;
    const lines = c.dataset.caption.split('\n');
    return {
      width: c.getBoundingClientRect().width,
      lines,
      widths: lines.map((l) => ctx.measureText(l).width),
      ticks: c.dataset.xTicks.split('|'),
    };
  }, [id, FONT]);
}

/** Whether the canvas's right-most `edge` CSS pixels of its top `rows` CSS pixels are blank. */
async function rightEdgeBlank(page, id, rows, edge = 6) {
  return page.evaluate(([id, rows, edge]) => {
    const c = document.getElementById(id);
    const k = c.width / c.getBoundingClientRect().width;
    const d = c.getContext('2d').getImageData(c.width - Math.ceil(edge * k), 0, Math.ceil(edge * k), Math.floor(rows * k)).data;
    const first = d.slice(0, 4).join();
    for (let i = 0; i < d.length; i += 4) if (d.slice(i, i + 4).join() !== first) return false;
    return true;
  }, [id, rows, edge]);
}

async function shot(page, name) {
  if (!process.env.SHOTS) return;
  fs.mkdirSync(process.env.SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(process.env.SHOTS, name), fullPage: true });
}

test('on a 390-px phone, captions wrap whole and a length-50 axis has several ticks', async () => {
  const { page, errors, context } = await openApp(app, '?view=offsets&scheme=rope&length=50', { context: phone, ready: null });
  for (const id of ['rope-distance-chart', 'rope-bound-chart']) {
    await waitForDraws(page, id);
    const t = await drawnText(page, id);
    assert.ok(t.lines.length >= 2, `${id}: the caption wraps at this width: ${t.lines}`);
    assert.match(t.lines.join(' · '), /θ base 10000(\D|$)/, `${id}: ${t.lines}`);
    for (const [i, w] of t.widths.entries()) assert.ok(w <= t.width - 8, `${id}: line "${t.lines[i]}" is ${w} px in ${t.width}`);
    assert.ok(t.ticks.length >= 4, `${id}: x ticks ${t.ticks}`);
    assert.deepEqual(t.ticks.slice(0, 3), ['0', '10', '20'], id);
    // Nothing is drawn into the right edge of the caption rows: no text runs off the canvas.
    assert.ok(await rightEdgeBlank(page, id, 18 * t.lines.length + 6), `${id}: text reaches the right edge`);
  }
  await shot(page, 'rope-distance-390.png');
  // The rotations dials' long caption wraps too (its header has room for two lines here).
  await page.goto(`${app.server.url}?view=rotations`);
  await waitForDraws(page, 'rotation-dials');
  await shot(page, 'rotations-390.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('RoPE by distance: the bound has its own chart, words that say what it bounds, and CSV columns', async () => {
  const { page, errors, context } = await openApp(app, '?view=offsets&scheme=rope&d_model=128&length=100', { ready: null });
  await waitForDraws(page, 'rope-bound-chart');
  const text = await page.locator('#rope-bound-text').textContent();
  assert.match(text, /relative bound with no unit: 32\.5 at distance 0/);
  assert.match(text, /the bound is 4160 at distance 0, where the score is 128/);
  assert.doesNotMatch(await page.locator('main').textContent(), /caps the magnitude/);
  const rows = await figureDownload(page, 'rope-distance-chart');
  assert.equal(rows[0], 'distance,ones_score,random_mean,relative_bound,ones_bound,random_bound');
  assert.equal(rows.length, 101);
  for (const row of rows.slice(1)) {
    const [, ones, random, relative, onesBound, randomBound] = row.split(',').map(Number);
    assert.ok(Number.isFinite(relative) && relative > 0, row);
    assert.ok(Math.abs(ones) <= onesBound && Math.abs(random) <= randomBound, `a bound below its score: ${row}`);
  }
  const [, , , rel0, bound0] = rows[1].split(',').map(Number);
  assert.equal(rel0, 32.5);
  assert.equal(bound0, 4160);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Compare never sets a scheme beside itself by default, and old links keep their partner', async () => {
  const { page, errors, context } = await openApp(app, '?view=compare&scheme=rope', { ready: null });
  await page.waitForSelector('.compare-column h3');
  assert.equal(await page.locator('#compare-with').inputValue(), 'sinusoidal');
  const headings = async () => page.locator('.compare-column h3').allTextContents();
  assert.deepEqual((await headings()).map((h) => h.split(' ')[0]), ['RoPE', 'Sinusoidal']);
  assert.equal(new URL(page.url()).searchParams.get('with'), null, 'the default is not written');
  await page.selectOption('#compare-with', 'alibi');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('with') === 'alibi');
  assert.deepEqual((await headings()).map((h) => h.split(' ')[0]), ['RoPE', 'ALiBi']);
  // The sinusoidal sidebar still gets RoPE beside it.
  await page.goto(`${app.server.url}?view=compare`);
  await page.waitForSelector('.compare-column h3');
  assert.equal(await page.locator('#compare-with').inputValue(), 'rope');
  // A link that asked for RoPE beside RoPE keeps it.
  await page.goto(`${app.server.url}?view=compare&scheme=rope&with=rope`);
  await page.waitForSelector('.compare-column h3');
  assert.equal(await page.locator('#compare-with').inputValue(), 'rope');
  assert.deepEqual(errors, []);
  await context.close();
});

test('lesson step 11 suggests what is not already on screen', async () => {
  const { page, errors, context } = await openApp(app, '?lesson=11', { ready: null });
  await page.waitForSelector('#matrix-try-it');
  assert.equal(await page.locator('#variant').inputValue(), 'tutorial-bug');
  const hint = await page.locator('#matrix-try-it').textContent();
  assert.doesNotMatch(hint, /to tutorial-bug/);
  assert.match(hint, /to paper/);
  assert.match(await page.locator('.lesson-try').textContent(), /to paper/);
  // After switching, the hint moves on with the state.
  await page.selectOption('#variant', 'paper');
  await page.locator('#matrix-try-it', { hasText: 'to tutorial-bug' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

/** WCAG contrast of two `rgb(…)` colours. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

test('the current step number keeps its contrast under the pointer, in both themes', async () => {
  for (const theme of ['light', 'dark']) {
    const { page, errors, context } = await openApp(app, `?lesson=3&theme=${theme}`, { ready: null });
    const here = page.locator('.lesson-step[aria-current="step"]');
    await here.waitFor();
    const colours = () => here.evaluate((el) => {
      const s = getComputedStyle(el);
      return [s.color, s.backgroundColor];
    });
    const [restText, restBack] = await colours();
    await here.hover();
    await page.waitForTimeout(100);
    const [hoverText, hoverBack] = await colours();
    assert.ok(contrast(restText, restBack) >= 4.5, `${theme} at rest: ${restText} on ${restBack}`);
    assert.ok(contrast(hoverText, hoverBack) >= 4.5, `${theme} under the pointer: ${hoverText} on ${hoverBack}`);
    assert.notEqual(hoverBack, restBack, `${theme}: hovering shows`);
    // Another step under the pointer is readable too.
    const other = page.locator('.lesson-step:not([aria-current])').first();
    await other.hover();
    const [t, b] = await other.evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
    assert.ok(contrast(t, b) >= 4.5, `${theme} other step: ${t} on ${b}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the Waves embeds and their first paint show the waves, with the column picker under them', async () => {
  for (const query of ['?embed=waves&show=chart', '?embed=waves&show=chart&controls=none', '?embed=waves']) {
    const { page, errors, context } = await openApp(app, query, { ready: (p) => waitForDraws(p, 'waves-chart') });
    // The compact embed's one chart is the waves' line chart.
    const main = await page.locator('[data-main-chart]').first().evaluate((f) => f.querySelector('canvas')?.id);
    assert.equal(main, 'waves-chart', query);
    if (!query.includes('show=chart')) {
      const [waves, picker] = await Promise.all(['#waves-chart', '#waves-picker'].map((s) => page.locator(s).boundingBox()));
      assert.ok(picker.y > waves.y, `${query}: the picker sits under the waves`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('on a phone, a vertical swipe that starts on a strip slider scrolls the page and leaves the value; a tap and a sideways drag still set it', async () => {
  const { page, errors, context } = await onPhone('?view=offsets&length=60', 'offsets-chart');
  const slider = page.locator('#quick-length-slider');
  const box = await slider.boundingBox();
  const y = box.y + box.height / 2;
  // A swipe up, starting on the track right of the thumb.
  await swipe(page, box.x + box.width * 0.6, y, 300);
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#quick-length-value').inputValue(), '60');
  assert.ok(await page.evaluate(() => scrollY) > 100, 'the page scrolled');
  await page.evaluate(() => scrollTo(0, 0));
  await page.waitForTimeout(200);
  const again = await slider.boundingBox();
  // A sideways drag moves it.
  await drag(page, again.x + again.width * 0.2, again.y + again.height / 2, again.width * 0.3, 0);
  const dragged = Number(await page.locator('#quick-length-value').inputValue());
  assert.ok(dragged > 60, `dragged to ${dragged}`);
  // A tap sets it where it lands.
  await drag(page, again.x + again.width * 0.05, again.y + again.height / 2, 0, 0);
  assert.ok(Number(await page.locator('#quick-length-value').inputValue()) < dragged);
  assert.deepEqual(errors, []);
  await context.close();
});

test('ALiBi: the head cards share one colour scale and say that heads count from 0; the far text speaks of distances on the chart', async () => {
  const { page, errors, context } = await openApp(app, '?scheme=alibi&length=64', { ready: (p) => waitForDraws(p, 'alibi-head-7') });
  // The shallowest head is drawn pale next to the steepest (the same value → the same colour).
  const centre = (id) => page.evaluate((id) => {
    const c = document.getElementById(id);
    const plot = c.dataset.plot.split(' ').map(Number);
    const r = window.devicePixelRatio;
    // The bottom-left corner of the plot: the largest distance (63 back).
    const px = c.getContext('2d').getImageData(Math.floor((plot[0] + 2) * r), Math.floor((plot[1] + plot[3] - 2) * r), 1, 1).data;
    return [px[0], px[1], px[2]];
  }, id);
  const [steep, shallow] = [await centre('alibi-head-0'), await centre('alibi-head-7')];
  const spread = (c) => Math.max(...c) - Math.min(...c);
  assert.ok(spread(steep) > spread(shallow) + 60, `head 0 ${steep} vs head 7 ${shallow}`);
  assert.match(await page.locator('.panel').first().innerText(), /Heads are numbered from 0/);
  await page.goto(app.server.url + '?view=offsets&scheme=alibi');
  await waitForDraws(page, 'alibi-distance-chart').catch(() => {});
  const text = await page.locator('main').innerText();
  assert.match(text, /This chart ends at distance 99, inside the trained length \(512\)/);
  assert.doesNotMatch(text, /at distance 1,024 the steepest head subtracts/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a compact attention embed shows both sentences, so the dog/man contrast is there', async () => {
  for (const query of ['?embed=attention&show=chart', '?embed=attention&show=chart&controls=none']) {
    const { page, errors, context } = await openApp(app, query, { ready: (p) => waitForDraws(p, 'attention-b') });
    for (const id of ['attention-a', 'attention-b']) {
      const box = await page.locator(`#${id}`).boundingBox();
      assert.ok(box && box.height > 50, `${query}: ${id} is shown`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('on a phone, a tap on a line chart reads it, and the reading stays when the finger lifts', async () => {
  const { page, errors, context } = await onPhone('?view=offsets&d_model=64', 'offsets-chart');
  const chart = page.locator('#offsets-chart');
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  const plot = (await chart.getAttribute('data-plot')).split(' ').map(Number);
  await drag(page, box.x + plot[0] + plot[2] * 0.75, box.y + plot[1] + plot[3] / 2, 0, 0);
  await page.waitForTimeout(300);
  const title = await page.locator('.readout-title').first().textContent();
  assert.match(title, /offset k = \d+/, title);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone the lesson reads in order: each step\'s chart, then its text and Back/Next, then the rest of the view', async () => {
  const { page, errors, context } = await onPhone('?lesson=1');
  for (let step = 1; step <= STEPS.length; step++) {
    await page.goto(app.server.url + `?lesson=${step}`);
    await appTakenOver(page);
    const y = await page.evaluate(() => {
      const top = (e) => e.getBoundingClientRect().top + scrollY;
      const canvas = document.querySelector('.lesson-view canvas:not(.chart-overlay)');
      const explain = document.querySelector('.lesson-view .explain, .lesson-view .readout');
      return {
        text: top(document.querySelector('.lesson-text')),
        nav: top(document.querySelector('.lesson-nav')),
        chart: canvas.getBoundingClientRect().bottom + scrollY,
        rest: explain ? top(explain) : Infinity,
      };
    });
    assert.ok(y.text > y.chart, `step ${step}: the text (${y.text}) under the chart (${y.chart})`);
    assert.ok(y.text - y.chart < 1000, `step ${step}: the text ${Math.round(y.text - y.chart)} px below the chart`);
    assert.ok(y.nav > y.text && y.nav < y.rest, `step ${step}: Back/Next after the text and before the rest of the view`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone the zoom buttons are 44 px targets, and the header shows it scrolls', async () => {
  const { page, errors, context } = await onPhone('');
  const sizes = await page.locator('.chart-zoom button').evaluateAll((b) => b.map((x) => x.getBoundingClientRect()).map((r) => [r.width, r.height]));
  assert.ok(sizes.length >= 2);
  for (const [w, h] of sizes) assert.ok(w >= 44 && h >= 44, `${w} × ${h}`);
  const tools = await page.locator('.header-tools').evaluate((t) => ({ scroll: t.scrollWidth > t.clientWidth, bar: getComputedStyle(t).scrollbarWidth }));
  assert.ok(!tools.scroll || tools.bar !== 'none', JSON.stringify(tools));
  assert.deepEqual(errors, []);
  await context.close();
});
