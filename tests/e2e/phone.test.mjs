// Phones (390 × 844 and 320 × 640, touch): for every view and every embedded panel, the chart is
// on the first screen, the strip's main slider moves it while both are in sight, nothing scrolls
// sideways; the settings sheet opens, changes a value and closes, by touch and by keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, appTakenOver } from './lib.mjs';

const app = useApp();
const VIEWS = ['heatmap', 'attention', 'offsets', 'waves', 'rotations', 'norms', 'addition', 'compare', 'patches', 'lesson', 'quiz', 'train'];
const SIZES = [[390, 844], [320, 640]];
const phone = (width, height) => ({ viewport: { width, height }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

/** What a phone user sees first: the chart's box, the strip's top, the page's widths. */
const firstScreen = (page) =>
  page.evaluate(() => {
    const root = document.querySelector('[role=tabpanel], .embed-main');
    const canvas = [...root.querySelectorAll('canvas[data-draws]:not([data-early])')][0];
    const strip = document.querySelector('.quick-strip');
    const r = canvas?.getBoundingClientRect();
    return {
      canvas: r ? { top: r.top, bottom: r.bottom, id: canvas.id } : null,
      stripTop: strip ? strip.getBoundingClientRect().top : innerHeight,
      height: innerHeight,
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      train: document.querySelector('#train-start')?.getBoundingClientRect().top ?? null,
      quiz: document.querySelector('.quiz-card')?.getBoundingClientRect().top ?? null,
    };
  });

async function check(page, what, [width, height]) {
  await page.waitForSelector('[role=tabpanel] canvas, .embed-main canvas, .quiz-card, #train-start');
  await page.waitForTimeout(250);
  const s = await firstScreen(page);
  const where = `${what} at ${width} × ${height}`;
  assert.equal(s.scrollWidth, s.clientWidth, `${where}: the page scrolls sideways`);
  if (s.canvas) {
    // At least 100 px of the chart in sight above the strip, from its top.
    assert.ok(s.canvas.top >= 0 && s.canvas.top + 100 <= s.stripTop, `${where}: chart at ${s.canvas.top}, strip at ${s.stripTop}`);
  } else if (s.train !== null) {
    assert.ok(s.train < s.stripTop, `${where}: the Train button is below the first screen`);
  } else {
    assert.ok(s.quiz !== null && s.quiz < s.height, `${where}: nothing to look at on the first screen`);
  }
  // The strip's first slider (or switch) moves the chart, with both in sight (keys: trusted input).
  const slider = page.locator('.quick-strip input[type=range], .quick-strip input[type=checkbox]').first();
  if (s.canvas && (await slider.count())) {
    const id = s.canvas.id;
    const before = Number(await page.locator(`#${id}`).getAttribute('data-draws'));
    await slider.focus();
    if ((await slider.getAttribute('type')) === 'checkbox') await page.keyboard.press('Space');
    else for (const _ of [1, 2]) await page.keyboard.press('ArrowRight');
    await page
      .waitForFunction(([id, n]) => Number(document.getElementById(id)?.dataset.draws) > n, [id, before], { timeout: 10000 })
      .catch(() => assert.fail(`${where}: moving the strip's slider did not redraw #${id}`));
    const after = await firstScreen(page);
    const box = await slider.boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= after.height, `${where}: the slider left the screen`);
    assert.ok(after.canvas.top >= 0 && after.canvas.top < after.stripTop, `${where}: the chart left the screen`);
  }
}

for (const size of SIZES) {
  test(`every view and every embed shows its chart first on a ${size.join(' × ')} phone`, async () => {
    const { page, errors, context } = await openApp(app, '', { context: phone(...size), ready: null });
    for (const view of VIEWS) {
      await page.goto(`${app.server.url}?view=${view}`);
      await check(page, `view=${view}`, size);
      await page.goto(`${app.server.url}?embed=${view}`);
      await check(page, `embed=${view}`, size);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the settings sheet opens, changes a value and closes, by touch and by keyboard', async () => {
  const { page, errors, context } = await openApp(app, '', { context: phone(390, 844) });
  assert.ok(await page.locator('#settings-sheet').isHidden(), 'the sheet starts closed');
  // Touch.
  await page.locator('#quick-settings').tap();
  await page.locator('#settings-sheet').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#quick-settings').getAttribute('aria-expanded'), 'true');
  await page.locator('#variant').selectOption('split');
  await page.locator('#sheet-close').tap();
  await page.locator('#settings-sheet').waitFor({ state: 'hidden' });
  assert.match(page.url(), /variant=split/);
  // Keyboard: Enter opens and puts focus in the sheet; Escape closes and gives focus back.
  await page.locator('#quick-settings').focus();
  await page.keyboard.press('Enter');
  await page.locator('#settings-sheet').waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.activeElement?.id === 'sheet-close');
  await page.locator('#base-value').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('500');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await page.locator('#settings-sheet').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => document.activeElement?.id === 'quick-settings');
  assert.match(page.url(), /base=500/);
  // Desktop is unchanged: no strip, the sidebar always there.
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.waitForFunction(() => !document.querySelector('.quick-strip'));
  assert.ok(await page.locator('#settings-sheet').isVisible());
  assert.deepEqual(errors, []);
  await context.close();
});

test('a pinch still zooms a heatmap on a phone', async () => {
  const { page, errors, context } = await openApp(app, '?length=4000&d_model=1024', { context: phone(390, 844) });
  const canvas = page.locator('#encoding-heatmap');
  const box = await canvas.boundingBox();
  const [left, top, width, height] = (await canvas.getAttribute('data-plot')).split(' ').map(Number);
  const c = { x: box.x + left + width / 2, y: box.y + top + height / 2 };
  const cdp = await context.newCDPSession(page);
  const touch = (type, spread) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x: c.x - spread, y: c.y, id: 1 }, { x: c.x + spread, y: c.y, id: 2 }],
    });
  await touch('touchStart', 20);
  for (let s = 25; s <= 80; s += 5) await touch('touchMove', s);
  await touch('touchEnd', 0);
  await page.waitForFunction(() => document.getElementById('encoding-heatmap').dataset.view !== '0-4000,0-1024');
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone, the controls a lesson step or quiz task names are in the strip beside the chart', async () => {
  const cases = [
    // [link, the strip's control the text names, how it is moved]
    ['?view=lesson&lesson=5', '#quick-d-model-slider', 'slider'],
    ['?view=lesson&lesson=8', '#quick-alibi-head-slider', 'slider'],
    ['?view=lesson&lesson=9', '#quick-t5-buckets-slider', 'slider'],
    ['?view=lesson&lesson=11', '#quick-variant', 'select'],
    ['?view=quiz&question=4', '#quick-base-slider', 'slider'],
    ['?view=quiz&question=13', '#quick-alibi-head-slider', 'slider'],
    ['?view=quiz&question=16', '#quick-variant', 'select'],
    // "Switch to comparing bases", "Toggle the √d_model scaling", "Switch the 2-D scheme …
    // change the head", "Set d_model to 64", and the attention demo's position switch.
    ['?view=lesson&lesson=5', '#quick-offset-series', 'select'],
    ['?view=lesson&lesson=10', '#quick-scale-embeddings', 'checkbox'],
    ['?view=lesson&lesson=12', '#quick-grid-scheme', 'select'],
    ['?view=quiz&question=7', '#quick-d-model-slider', 'slider'],
    ['?view=quiz&question=2', '#quick-position', 'checkbox'],
  ];
  for (const [query, control, kind] of cases) {
    const { page, errors, context } = await openApp(app, query, { context: phone(390, 844), ready: (p) => p.waitForSelector('.quick-strip') });
    const strip = page.locator('.quick-strip');
    await strip.locator(control).waitFor({ timeout: 15000 });
    const before = new URL(page.url()).search;
    if (kind === 'slider') {
      const [value, max] = await strip.locator(control).evaluate((e) => [e.value, e.max]);
      await strip.locator(control).focus();
      await page.keyboard.press(value === max ? 'ArrowLeft' : 'ArrowRight');
    } else if (kind === 'checkbox') {
      await strip.locator(control).focus();
      await page.keyboard.press('Space');
    } else {
      const options = await strip.locator(`${control} option`).evaluateAll((o) => o.map((x) => x.value));
      const current = await strip.locator(control).inputValue();
      await strip.locator(control).selectOption(options.find((v) => v !== current));
    }
    // The setting moved (the link follows every setting), and nothing broke.
    await page.waitForFunction((b) => location.search !== b, before, { timeout: 10000 });
    assert.deepEqual(errors, [], query);
    await context.close();
  }
  // Step 12: the mixed scheme brings its head slider into the strip ("change the head").
  const { page, errors, context } = await openApp(app, '?view=lesson&lesson=12', { context: phone(390, 844), ready: (p) => p.waitForSelector('.quick-strip') });
  await page.locator('.quick-strip #quick-grid-scheme').selectOption('rope_mixed');
  await page.locator('.quick-strip #quick-grid-head-slider').waitFor({ timeout: 10000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a 320 px phone, the tables wrap between words and never break one mid-letter', async () => {
  for (const query of ['?view=attention', '?view=lesson&lesson=1', '?view=norms']) {
    const { page, errors, context } = await openApp(app, query, { context: phone(320, 640), ready: (p) => p.waitForSelector('table.numbers') });
    const broken = await page.evaluate(() => {
      const out = [];
      for (const cell of document.querySelectorAll('table.numbers th, table.numbers td')) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          for (const m of n.data.matchAll(/\S+/g)) {
            const r = document.createRange();
            r.setStart(n, m.index);
            r.setEnd(n, m.index + m[0].length);
            // A word on two lines has two boxes.
            const rows = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
            if (rows.size > 1) out.push(m[0]);
          }
        }
      }
      return out;
    });
    assert.deepEqual(broken, [], `${query}: words broken across lines`);
    const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.equal(sw, cw, `${query}: the page scrolls sideways`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('on a phone, a long caption or legend makes a line chart taller, never its plot shorter', async () => {
  const { page, errors, context } = await openApp(app, '', { context: phone(390, 844), ready: null });
  for (const query of ['view=offsets', 'view=waves', 'lesson=3&base=30', 'view=offsets&scheme=rope', 'view=compare']) {
    await page.goto(`${app.server.url}?${query}`);
    await page.waitForSelector('canvas[aria-roledescription="line chart"][data-plot]');
    await page.waitForTimeout(300);
    const charts = await page.$$eval('canvas[aria-roledescription="line chart"][data-plot]', (cs) =>
      cs.map((c) => ({
        id: c.id,
        plot: Number(c.dataset.plot.split(' ')[3]),
        caption: c.dataset.caption.split('\n').length,
        css: c.getBoundingClientRect().height,
        backing: c.height / devicePixelRatio,
      })),
    );
    assert.ok(charts.length > 0, `${query}: no line chart`);
    for (const c of charts) {
      // 240 px asked for, less two header lines and the x axis: a plot of at least 150 px.
      assert.ok(c.plot >= 150, `${query}: #${c.id}'s plot is ${c.plot} px tall (caption ${c.caption} lines)`);
      // The canvas is shown at the height it was drawn at: not stretched.
      assert.ok(Math.abs(c.css - c.backing) <= 1, `${query}: #${c.id} drawn ${c.backing} px tall, shown ${c.css} px`);
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone, a data table wider than the screen keeps its caption and row names in view', async () => {
  const { page, errors, context } = await openApp(app, '', { context: phone(390, 844), ready: null });
  await page.goto(`${app.server.url}?view=lesson&lesson=9`);
  await page.getByRole('button', { name: /Data table/ }).first().tap();
  const box = page.locator('.data-table').first();
  await box.waitFor();
  await box.evaluate((e) => { e.scrollIntoView(); e.scrollLeft = 200; });
  await page.waitForTimeout(100);
  const seen = await box.evaluate((e) => {
    const outer = e.getBoundingClientRect();
    const caption = e.querySelector('caption').getBoundingClientRect();
    const row = e.querySelector('tbody th[scope=row]').getBoundingClientRect();
    const cells = [...e.querySelectorAll('tbody td')].map((td) => td.textContent);
    return { outer: [outer.left, outer.right], caption: [caption.left, caption.right], row: [row.left, row.height], scrolled: e.scrollLeft, cells };
  });
  assert.ok(seen.scrolled > 0, 'the table does not scroll sideways: nothing to test');
  // The caption wraps inside the visible box and stays there while the numbers scroll.
  assert.ok(seen.caption[0] >= seen.outer[0] - 1 && seen.caption[1] <= seen.outer[1] + 1, `caption ${seen.caption} outside ${seen.outer}`);
  // The row's name ("query 0") stays at the left edge, on one line.
  assert.ok(Math.abs(seen.row[0] - seen.outer[0]) <= 2, `row name at ${seen.row[0]}, box at ${seen.outer[0]}`);
  assert.ok(seen.row[1] < 40, `row name ${seen.row[1]} px tall: on two lines`);
  // T5's buckets are whole numbers, written as such (not "17.00" beside "0").
  assert.ok(seen.cells.every((c) => /^\d+$/.test(c)), `cells ${seen.cells.slice(0, 8)}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone, the header tools past the edge fade out instead of looking cut off', async () => {
  // The app's header: the first paint's stays beside it until the view's chunk has drawn.
  const { page, errors, context } = await openApp(app, '?view=offsets', { context: phone(390, 844), ready: appTakenOver });
  const row = await page.locator('.header-tools').evaluate((e) => {
    const band = getComputedStyle(e, '::after');
    return { more: e.scrollWidth > e.clientWidth, position: band.position, image: band.backgroundImage, width: parseFloat(band.width) };
  });
  assert.ok(row.more, 'the tools fit: nothing to test');
  // A band that stays at the row's right edge, fading to the header's colour.
  assert.equal(row.position, 'sticky');
  assert.match(row.image, /linear-gradient/);
  assert.ok(row.width >= 20, `band ${row.width} px wide`);
  assert.deepEqual(errors, []);
  await context.close();
});
