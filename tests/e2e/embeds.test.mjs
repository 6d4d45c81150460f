// Embeds as a course author makes them: the code "Copy embed code" writes, pasted into a course
// page on another origin, opened on a phone (390 × 844 and 320 × 640, touch). The chart and its
// main control share one screen in every embed; a chart-only embed fits one screen; swipes never
// get stuck in a frame, with or without the host script; the settings open where the reader is
// looking; the colours follow the page; and nothing fails silently (no CORS, no WebAssembly, a
// sandbox that blocks downloads or new tabs, buttons that lead to other views).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, DIST } from './lib.mjs';
import { PHONES, phone, coursePage, hostServer, embedCode, layout, settle, swipe } from './embedhost.mjs';
import { STEPS } from './lesson_steps.mjs';

const VIEWS = ['heatmap', 'attention', 'offsets', 'waves', 'rotations', 'norms', 'addition', 'compare', 'patches', 'lesson', 'quiz', 'train'];
const env = {};

before(async () => {
  env.app = await serve(DIST, '/', { compress: true });
  env.host = await hostServer();
  env.browser = await launch();
});
after(async () => {
  await env.browser?.close();
  await env.host?.close();
  await env.app?.close();
});

/** The embed code for `query` with the dialog's `options`, cached per test run. */
const codes = new Map();
async function code(query, options = []) {
  const key = `${query}|${options.join(',')}`;
  if (!codes.has(key)) codes.set(key, await embedCode(env.browser, env.app.url, query, options));
  return codes.get(key);
}

/** Opens a course page holding `html` on a phone; returns the page and the frame. */
async function course(html, [width, height] = PHONES[390], { dark = false, name = 'c' } = {}) {
  const path = `/${name}-${Math.random().toString(36).slice(2)}.html`;
  env.host.put(path, coursePage(html, { dark }));
  const context = await env.browser.newContext({ ...phone(width, height), acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(env.host.url + path);
  const frame = page.frameLocator('iframe').first();
  return { page, frame, context, errors };
}

const ready = (frame) =>
  frame.locator('.embed-main canvas[data-draws]:not([data-early]), .embed-main .quiz-card, #train-start').first().waitFor({ timeout: 30000 });

for (const [label, size] of Object.entries(PHONES)) {
  test(`on a ${size.join(' × ')} phone, every embed's chart and main control share one screen`, async () => {
    const seen = [];
    for (const view of VIEWS) {
      const { page, frame, context, errors } = await course(await code(`?view=${view}`, ['Whole panel']), size);
      await ready(frame);
      await settle(page);
      const l = await layout(page);
      seen.push(`${view}: frame ${Math.round(l.frameHeight)}, span ${l.span === null ? '—' : Math.round(l.span)}`);
      if (view === 'quiz') {
        assert.equal(l.chart, null, 'the quiz has no chart to pair');
      } else {
        assert.ok(l.chart && l.control, `${view} at ${label}: chart ${JSON.stringify(l.chart)}, control ${JSON.stringify(l.control)}`);
        assert.ok(l.span <= size[1], `${view} at ${label}: chart and control span ${Math.round(l.span)} px of a ${size[1]} px screen`);
      }
      // The control moves the chart (keys: trusted input).
      const control = frame.locator('.quick-strip input[type=range], .quick-strip input[type=checkbox]').first();
      if (l.chart && (await control.count())) {
        const canvas = frame.locator('[data-main-chart] canvas[data-draws]:not([data-early])').first();
        const before = Number(await canvas.getAttribute('data-draws'));
        await control.focus();
        if ((await control.getAttribute('type')) === 'checkbox') await page.keyboard.press('Space');
        else for (const _ of [1, 2]) await page.keyboard.press('ArrowRight');
        await canvas.evaluate(
          (c, n) => new Promise((resolve, reject) => {
            const t = setTimeout(() => reject(new Error('no redraw')), 10000);
            const check = () => (Number(c.dataset.draws) > n ? (clearTimeout(t), resolve()) : requestAnimationFrame(check));
            check();
          }),
          before,
        ).catch(async (e) => {
          const early = await frame.locator('#early').count();
          assert.fail(`${view} at ${label}: ${e.message} (the first paint's page ${early ? 'was still there' : 'was gone'})`);
        });
        // The keys went on reaching it: the strip kept its focus (moving it beside a chart whose
        // height settled late took the focus away, and the second press went nowhere).
        assert.ok(await control.evaluate((c) => document.activeElement === c), `${view} at ${label}: the control lost its focus`);
      }
      assert.deepEqual(errors, [], view);
      await context.close();
    }
    console.log(`  ${label}: ${seen.join('; ')}`);
  });
}

test('a chart-only embed of every view fits one phone screen, at 390 and at 320', async () => {
  for (const size of Object.values(PHONES)) {
    const heights = [];
    for (const view of VIEWS.filter((v) => v !== 'quiz')) {
      const { page, frame, context } = await course(await code(`?view=${view}`, ['Chart only']), size);
      await ready(frame);
      const height = await settle(page);
      heights.push(`${view} ${Math.round(height)}`);
      assert.ok(height <= size[1], `${view} at ${size[0]} px: a chart-only frame of ${height} px`);
      // Nothing of the panel but its chart (and title): no explanation, no sources, no strip.
      assert.equal(await frame.locator('.quick-strip').count(), 0, `${view}: no controls`);
      assert.ok(await frame.locator('.sources').isHidden(), `${view}: the sources are left out`);
      await context.close();
    }
    console.log(`  chart only at ${size[0]}: ${heights.join(', ')}`);
  }
});

test('the chart-and-controls embed keeps the main controls and opens every setting on request', async () => {
  const { page, frame, context } = await course(await code('?view=offsets&d_model=64', ['Chart and controls']));
  await ready(frame);
  const height = await settle(page);
  assert.ok(height <= 844, `chart and controls in ${height} px`);
  await frame.locator('#quick-length-slider').waitFor();
  assert.ok(await frame.locator('.sources').isHidden());
  // The reader scrolls the button into sight; pressing it must not move the page again.
  await frame.locator('#quick-settings').scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  const before = await page.evaluate(() => scrollY);
  await frame.locator('#quick-settings').tap();
  await frame.locator('#settings-sheet').waitFor({ state: 'visible' });
  assert.equal(await page.evaluate(() => scrollY), before, 'opening the settings does not move the page');
  await frame.locator('#sheet-close').tap();
  await frame.locator('#settings-sheet').waitFor({ state: 'hidden' });
  await context.close();
});

/** An element's top and bottom in its own page's screen coordinates. */
const span = (locator) =>
  locator.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  });

/** The framed sheet's top and bottom on the course page's 844-px screen, and the part of the
 *  frame on that screen it should cover. */
async function sheetOnScreen(page, sheet) {
  const [frame, box] = [await span(page.locator('iframe')), await span(sheet)];
  return {
    top: frame.top + box.top,
    bottom: frame.top + box.bottom,
    want: [Math.max(frame.top, 0), Math.min(frame.bottom, 844)],
  };
}

test('the settings sheet opens over the part of the frame the reader sees, and Escape closes it', async () => {
  const { page, frame, context } = await course(await code('?view=waves', ['Whole panel']));
  await ready(frame);
  await settle(page);
  // Scroll the course page so that the strip is in the middle of the screen.
  const strip = await layout(page);
  await page.evaluate((y) => scrollTo(0, y - 420), strip.control.top);
  await page.waitForTimeout(400);
  const scrolled = await page.evaluate(() => scrollY);
  await frame.locator('#quick-settings').tap();
  const sheet = frame.locator('#settings-sheet');
  await sheet.waitFor({ state: 'visible' });
  await page.waitForTimeout(300);
  // In the course page's screen coordinates the sheet covers the part of the frame the reader
  // sees (here from the frame's top, lower on the screen, to the bottom of the screen).
  const { top, bottom, want } = await sheetOnScreen(page, sheet);
  assert.ok(Math.abs(top - want[0]) <= 1 && Math.abs(bottom - want[1]) <= 1, `sheet at ${top}…${bottom}, screen part of the frame ${want}`);
  assert.equal(await page.evaluate(() => scrollY), scrolled, 'the page did not jump');
  await frame.locator('#sheet-close').waitFor();
  assert.equal(await frame.locator(':focus').getAttribute('id'), 'sheet-close');
  await page.keyboard.press('Escape');
  await sheet.waitFor({ state: 'hidden' });
  assert.equal(await frame.locator(':focus').getAttribute('id'), 'quick-settings');
  await context.close();
});

test('in a fixed-height frame (no host script) the settings sheet covers the part on the screen too', async () => {
  // A site that strips scripts: the frame finds where it is on the screen by itself.
  const { page, frame, context } = await course(await code('?view=waves', ['Whole panel', 'Frame only, fixed height (for sites that strip scripts)']));
  await ready(frame);
  await settle(page);
  // The frame's top 150 px down the screen: its bottom is below the screen.
  const frameTop = await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().top + scrollY);
  await page.evaluate((y) => scrollTo(0, y - 150), frameTop);
  await page.waitForTimeout(400);
  const frameBox = await span(page.locator('iframe'));
  assert.ok(frameBox.bottom > 844, `the frame (${frameBox.top}…${frameBox.bottom}) is all on the screen: nothing to test`);
  const control = await frame.locator('#quick-settings').boundingBox();
  assert.ok(control.y + control.height < 844, `the strip's settings button at ${control.y}: off the screen`);
  await frame.locator('#quick-settings').tap();
  const sheet = frame.locator('#settings-sheet');
  await sheet.waitFor({ state: 'visible' });
  await page.waitForTimeout(300);
  const { top, bottom, want } = await sheetOnScreen(page, sheet);
  assert.ok(Math.abs(top - want[0]) <= 10 && Math.abs(bottom - want[1]) <= 10, `sheet at ${top}…${bottom}, screen part of the frame ${want}`);
  await page.keyboard.press('Escape');
  await sheet.waitFor({ state: 'hidden' });
  await context.close();
});

/** Swipes up inside the frame `times` times; returns how far the course page scrolled. */
async function swipeInFrame(page, times = 1) {
  const box = await page.locator('iframe').boundingBox();
  const start = await page.evaluate(() => scrollY);
  for (let i = 0; i < times; i++) {
    // A point inside the frame, on the screen.
    const b = await page.locator('iframe').boundingBox();
    const y = Math.min(Math.max(b.y + 150, 150), 700);
    await swipe(page, box.x + box.width / 2, y, 300);
    await page.waitForTimeout(250);
  }
  return (await page.evaluate(() => scrollY)) - start;
}

test('no scroll trap: a swipe inside the frame scrolls the course page, with the script or without', async () => {
  // With the script the frame is as tall as the panel: nothing inside it scrolls.
  const sized = await course(await code('?view=offsets', ['Whole panel']));
  await ready(sized.frame);
  await settle(sized.page);
  await sized.page.evaluate(() => scrollTo(0, 150));
  const withScript = await swipeInFrame(sized.page, 3);
  assert.ok(withScript > 600, `with the script, three swipes moved the page ${withScript} px`);
  await sized.context.close();
  // Without it (a site that strips scripts) the frame keeps its fixed height; on a touch screen
  // the page still moves at the first swipe, and the panel scrolls with its own buttons.
  const fixed = await course(await code('?view=offsets', ['Whole panel', 'Frame only, fixed height (for sites that strip scripts)']));
  await ready(fixed.frame);
  await fixed.frame.locator('#page-down').waitFor({ timeout: 5000 });
  await fixed.page.evaluate(() => scrollTo(0, 150));
  const moved = await swipeInFrame(fixed.page, 3);
  assert.ok(moved > 600, `without the script, three swipes moved the page ${moved} px`);
  const inner = () => fixed.frame.locator('html').evaluate(() => scrollY);
  assert.equal(await inner(), 0, 'the swipe did not scroll the panel');
  await fixed.frame.locator('#page-down').tap();
  await fixed.page.waitForTimeout(700);
  assert.ok((await inner()) > 200, 'the panel scrolls with its own button');
  await fixed.context.close();
});

test('the colours follow the course page, or the choice in the dialog', async () => {
  const theme = (frame) => frame.locator('html').evaluate((h) => h.dataset.theme);
  const dark = await course(await code('?view=waves', ['Chart only']), PHONES[390], { dark: true });
  await ready(dark.frame);
  await dark.page.waitForFunction(() => document.querySelector('iframe').getBoundingClientRect().height < 700);
  await expectTheme(dark.frame, 'dark');
  await dark.context.close();
  const light = await course(await code('?view=waves', ['Chart only']), PHONES[390], { dark: false });
  await ready(light.frame);
  await settle(light.page);
  assert.equal(await theme(light.frame), 'light');
  await light.context.close();
  const chosen = await course(await code('?view=waves', ['Chart only', 'Dark']), PHONES[390], { dark: false });
  await ready(chosen.frame);
  await expectTheme(chosen.frame, 'dark');
  await chosen.context.close();
});

async function expectTheme(frame, want) {
  for (let i = 0; i < 50; i++) {
    if ((await frame.locator('html').evaluate((h) => h.dataset.theme)) === want) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`the frame's theme never became ${want}`);
}

test('a host without CORS headers and a browser without WebAssembly each get a sentence naming the fix', async (t) => {
  const bare = await serve(DIST, '/', { cors: false });
  // Also when an assertion fails: an open server would keep this file's run from ending.
  t.after(() => bare.close());
  const src = `${bare.url}?embed=heatmap`;
  const { page, frame, context } = await course(
    `<iframe src="${src}" title="no CORS" style="width:100%;height:400px;border:0" sandbox="allow-scripts"></iframe>`,
  );
  await frame.locator('#boot.boot-failed').waitFor({ timeout: 15000 });
  assert.match(await frame.locator('#boot').textContent(), /Access-Control-Allow-Origin: \*/);
  // And the way round it: the same explorer on its own page, on the same host.
  const away = new URL(await frame.locator('#boot a').getAttribute('href'));
  assert.equal(away.origin, new URL(bare.url).origin);
  assert.equal(away.searchParams.get('view'), 'heatmap');
  assert.equal(away.searchParams.get('embed'), null);
  await context.close();
  // A browser without WebAssembly (as iOS's Lockdown Mode leaves Safari): the global is gone
  // before any of the page's scripts run.
  const bareContext = await env.browser.newContext();
  await bareContext.addInitScript(() => delete window.WebAssembly);
  const p = await bareContext.newPage();
  await p.goto(env.app.url + '?embed=heatmap');
  await p.locator('#boot.boot-failed').waitFor({ timeout: 10000 });
  assert.match(await p.locator('#boot').textContent(), /does not run WebAssembly/);
  await bareContext.close();
});

/** The sized embed code with a stricter sandbox, as a cautious LMS writes it. */
const strict = (html, sandbox = 'allow-scripts') => html.replace(/sandbox="[^"]*"/, `sandbox="${sandbox}"`);

test('a sandbox that blocks downloads and new tabs says so, with the data and the link to copy', async () => {
  const { page, frame, context } = await course(strict(await code('?view=waves&d_model=16&length=20', ['Whole panel'])), PHONES[390]);
  await ready(frame);
  await settle(page);
  // The host script tells the panel the sandbox: the CSV is offered to copy, not downloaded.
  await frame.getByRole('button', { name: /^Download CSV of/ }).first().tap();
  const box = frame.locator('.way-out');
  await box.waitFor();
  assert.match(await box.textContent(), /does not let the panel save files/);
  assert.match(await box.locator('textarea').inputValue(), /^position,dim_/);
  const screenTop = await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().top);
  const at = await box.evaluate((b) => b.getBoundingClientRect().top);
  assert.ok(screenTop + at >= 0 && screenTop + at < 844, 'the notice is on the reader\'s screen');
  await page.keyboard.press('Escape');
  await box.waitFor({ state: 'detached' });
  // The PNG: the image to save by hand.
  await frame.getByRole('button', { name: /^Download PNG of/ }).first().tap();
  await frame.locator('.way-out img[src^="data:image/png"]').waitFor();
  // The file's long name wraps inside the notice.
  const spill = await box.evaluate((b) => {
    const right = b.getBoundingClientRect().right;
    return [...b.querySelectorAll('p, img, textarea')]
      .filter((e) => e.getBoundingClientRect().right > right + 1 || e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.textContent.slice(0, 60));
  });
  assert.deepEqual(spill, [], 'text runs out of the notice');
  await frame.getByRole('button', { name: 'Close' }).tap();
  // "Open in the explorer": the link to copy.
  await frame.getByRole('link', { name: 'Open in the Positional Encoding Explorer' }).tap();
  await box.waitFor();
  assert.match(await box.textContent(), /does not let the panel open a new tab/);
  assert.match(await box.locator('textarea').inputValue(), /\?view=waves&d_model=16&length=20/);
  assert.equal(context.pages().length, 1, 'no tab was opened');
  await context.close();
});

test('a view drawn from a chunk of the app saves as the app does: the sandbox way out is offered there too', async () => {
  const { frame, context } = await course(strict(await code('?view=patches', ['Whole panel'])));
  await ready(frame);
  const module = frame.locator('#main');
  const csv = module.getByRole('button', { name: /^Download CSV of/ }).first();
  await csv.waitFor();
  await csv.click();
  const box = frame.locator('.way-out');
  await box.waitFor();
  assert.match(await box.textContent(), /does not let the panel save files, so \S+\.csv was not downloaded/);
  await box.getByRole('button', { name: 'Copy the data' }).waitFor();
  await frame.getByRole('button', { name: 'Close' }).click();
  await box.waitFor({ state: 'detached' });
  await module.getByRole('button', { name: /^Download PNG of/ }).first().click();
  await frame.locator('.way-out img[src^="data:image/png"]').waitFor();
  await context.close();
});

test('without the host script a download is tried and the way out offered in case it was blocked', async () => {
  const plain = (await code('?view=norms', ['Whole panel', 'Frame only, fixed height (for sites that strip scripts)']));
  const { page, frame, context } = await course(strict(plain));
  await ready(frame);
  await frame.getByRole('button', { name: /^Download CSV of/ }).first().tap();
  const box = frame.locator('.way-out');
  await box.waitFor();
  assert.match(await box.textContent(), /If .*\.csv did not download/);
  await context.close();
});

test('buttons that lead to another view open the whole app in a new tab, or give the link', async () => {
  const cases = [
    ['?view=attention', 'Train small models and see →', /view=train/],
    ['?lesson=1', 'Train it yourself →', /view=train/],
    [`?lesson=${STEPS.length}`, 'Take the quiz →', /view=quiz/],
    [`?lesson=${STEPS.length}`, 'Train it yourself →', /view=train/],
  ];
  for (const [query, name, target] of cases) {
    // The copied code allows new tabs: the app opens there.
    const open = await course(await code(query, ['Whole panel']));
    await ready(open.frame);
    const [tab] = await Promise.all([
      open.context.waitForEvent('page'),
      open.frame.getByRole('button', { name, exact: true }).click(),
    ]);
    await tab.waitForLoadState();
    assert.match(tab.url(), target, `${query} → ${name}`);
    assert.doesNotMatch(tab.url(), /embed=/, 'the whole app, not another embed');
    await open.context.close();
    // A sandbox without popups: the link, to copy.
    const blocked = await course(strict(await code(query, ['Whole panel'])));
    await ready(blocked.frame);
    await blocked.frame.getByRole('button', { name, exact: true }).click();
    const box = blocked.frame.locator('.way-out');
    await box.waitFor();
    assert.match(await box.locator('textarea').inputValue(), target);
    await blocked.context.close();
  }
});

test('the embed dialog: its choices rewrite the code, Escape and a click outside close it', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.goto(env.app.url + '?view=waves&d_model=32');
  const text = page.locator('#share-text');
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  await page.waitForFunction(() => document.activeElement?.id === 'share-text');
  assert.match(await text.inputValue(), /#embed=waves&amp;show=chart&amp;d_model=32&amp;theme=host"/);
  assert.match(await text.inputValue(), /<script>\(function\(\)\{if\(window\.peExplorerHost\)/);
  await page.getByLabel('Chart only', { exact: true }).check();
  await page.getByLabel('Light', { exact: true }).check();
  await page.getByLabel(/^Frame only, fixed height/).check();
  const code = await text.inputValue();
  assert.match(code, /#embed=waves&amp;show=chart&amp;controls=none&amp;d_model=32&amp;theme=light"/);
  assert.match(code, /height:520px/);
  assert.doesNotMatch(code, /<script/);
  // Escape closes it and gives focus back to the button that opened it.
  await text.focus();
  await page.keyboard.press('Escape');
  await page.locator('.share-box').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.activeElement?.id === 'share-embed');
  // A press outside closes it too; the link dialog works the same.
  await page.getByRole('button', { name: 'Copy link' }).click();
  assert.match(await text.inputValue(), /\?view=waves&d_model=32$/);
  await page.locator('h1').click();
  await page.locator('.share-box').waitFor({ state: 'detached' });
  // Close, with the button.
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.locator('#share-close').click();
  await page.locator('.share-box').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.activeElement?.id === 'share-link');
  await context.close();
});

test("two embeds on one course page load the same page: their settings are after '#', and each opens with its own", async () => {
  // The dialog writes the settings after "#" (src/ui/browser.rs, frame_link), so that every
  // embed of a site asks for the same page, which carries the first module: a browser's cache
  // keeps it once for all of them. The page moves them into its query as it starts.
  const a = await code('?view=offsets&d_model=32', ['Chart only']);
  const b = await code('?view=waves&d_model=48', ['Chart only']);
  const src = (c) => c.match(/<iframe src="([^"]*)"/)[1].replaceAll('&amp;', '&');
  for (const c of [a, b]) {
    assert.equal(src(c).split('#')[0], env.app.url, 'the same page for every embed');
    assert.doesNotMatch(src(c), /\?/, 'no query to tell the pages apart');
  }
  const { page, context, errors } = await course(`${a}\n${b}`);
  const frames = page.frames().slice(1);
  assert.equal(frames.length, 2);
  for (const [frame, view, d] of [[frames[0], 'offsets', '32'], [frames[1], 'waves', '48']]) {
    await frame.locator(`[data-main-chart] canvas[data-draws]:not([data-early])`).first().waitFor({ timeout: 30000 });
    const seen = await frame.evaluate(() => ({ search: location.search, hash: location.hash }));
    assert.match(seen.search, new RegExp(`^\\?embed=${view}&show=chart&controls=none&d_model=${d}`), `${view}: its settings in its query`);
    assert.equal(seen.hash, '', `${view}: nothing left after '#'`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
