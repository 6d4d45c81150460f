// Accessibility: axe-core (WCAG 2.1 A and AA rules) on every view, in light and dark, on a desktop
// and a phone width, and on the Train view's results after a short experiment. Any violation fails
// and is listed with the offending elements.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { useApp, openApp, holdApp } from './lib.mjs';

const app = useApp();
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWS = ['heatmap', 'attention', 'offsets', 'waves', 'rotations', 'norms', 'addition', 'compare', 'patches', 'train', 'lesson', 'quiz'];

async function audit(page) {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () =>
    // eslint-disable-next-line no-undef
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }),
  );
  return result.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

for (const [theme, width] of [['light', 1400], ['dark', 1400], ['light', 390]]) {
  test(`axe finds nothing on any view (${theme}, ${width} px)`, async () => {
    const found = [];
    for (const view of VIEWS) {
      const { page, context } = await openApp(app, `?view=${view}&theme=${theme}`, {
        context: { viewport: { width, height: 900 } },
        ready: (p) => p.waitForSelector('[role=tabpanel] canvas, .quiz-card, #train-start', { timeout: 15000 }),
      });
      await page.waitForTimeout(300);
      for (const v of await audit(page)) found.push(`${view}: ${v}`);
      await context.close();
    }
    assert.deepEqual(found, []);
  });
}

test('axe finds nothing on the Train view\'s results', async () => {
  const found = [];
  for (const theme of ['light', 'dark']) {
    const { page, context } = await openApp(app, `?view=train&theme=${theme}&schemes=none,learned&steps=20&train_len=8&width=16&run=1`, { ready: null });
    await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, { timeout: 60000 });
    await page.locator('#train-learned').waitFor();
    for (const v of await audit(page)) found.push(`${theme}: ${v}`);
    await context.close();
  }
  assert.deepEqual(found, []);
});

test('axe finds nothing on the new notes and the scrolled per-dimension table', async () => {
  const found = [];
  for (const theme of ['light', 'dark']) {
    // A link asking for a run of hours: the note that it did not start.
    const long = `?view=train&theme=${theme}&run=1&layers=4&attn_heads=4&width=128&train_len=64&steps=10000`;
    let { page, context } = await openApp(app, long, { ready: (p) => p.waitForSelector('#train-declined') });
    for (const v of await audit(page)) found.push(`${theme}, declined run: ${v}`);
    await context.close();
    // The RoPE check with every one of 4,096 rows, scrolled half way; a link that leaves q out.
    ({ page, context } = await openApp(app, `?scheme=rope&d_model=4096&length=64&theme=${theme}`, {
      ready: (p) => p.waitForSelector('#rope-check-dims'),
    }));
    await page.getByRole('button', { name: 'Show all 4096 dimensions' }).click();
    await page.locator('#rope-check-dims').evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await page.waitForTimeout(200);
    await page.fill('#rope-check-q', Array.from({ length: 4096 }, (_, i) => String(i + 0.5)).join(','));
    await page.press('#rope-check-q', 'Tab');
    await page.locator('#link-note').waitFor();
    for (const v of await audit(page)) found.push(`${theme}, RoPE check: ${v}`);
    await context.close();
  }
  assert.deepEqual(found, []);
});

test('axe finds nothing on the context-extension results (passkey, Train then Extend)', async () => {
  const found = [];
  for (const theme of ['light', 'dark']) {
    const { page, context } = await openApp(app, `?view=train&theme=${theme}&task=passkey&schemes=causal,rope&steps=20&train_len=6&width=16&tune_steps=3&extend=pi,yarn,drope&run=1`, { ready: null });
    await page.waitForFunction(() => document.querySelector('section.train')?.dataset.phase === 'done', null, { timeout: 90000 });
    await page.locator('#train-needle-map-right[data-draws]').waitFor();
    await page.locator('#train-findings').waitFor();
    for (const v of await audit(page)) found.push(`${theme}: ${v}`);
    await context.close();
  }
  assert.deepEqual(found, []);
});

test('axe finds nothing on the quiz in exam mode, before and after submitting', async () => {
  const found = [];
  for (const [theme, width] of [['light', 1400], ['dark', 1400], ['light', 390]]) {
    const { page, context } = await openApp(app, `?view=quiz&exam=1&theme=${theme}`, {
      context: { viewport: { width, height: 900 } },
      ready: (p) => p.waitForSelector('.quiz-card'),
    });
    await page.locator('.quiz-option label').first().click();
    await page.locator('#quiz-answered', { hasText: 'Answered: 1 of' }).waitFor();
    for (const v of await audit(page)) found.push(`${theme} ${width} before: ${v}`);
    await page.click('#quiz-submit');
    for (const v of await audit(page)) found.push(`${theme} ${width} confirming: ${v}`);
    await page.click('#quiz-submit-yes');
    await page.waitForSelector('#quiz-summary');
    for (const v of await audit(page)) found.push(`${theme} ${width} after: ${v}`);
    await context.close();
  }
  assert.deepEqual(found, []);
});

test('axe finds nothing on the compact embeds (chart and controls, chart only)', async () => {
  const found = [];
  for (const [theme, width] of [['light', 1400], ['light', 390], ['dark', 390]]) {
    for (const view of VIEWS) {
      for (const extra of ['&show=chart', '&show=chart&controls=none']) {
        const { page, context } = await openApp(app, `?embed=${view}${extra}&theme=${theme}`, {
          context: { viewport: { width, height: 900 } },
          ready: (p) => p.waitForSelector('.embed-main canvas, .quiz-card, #train-start', { timeout: 15000 }),
        });
        await page.waitForTimeout(300);
        for (const v of await audit(page)) found.push(`${view}${extra} (${theme}, ${width}): ${v}`);
        await context.close();
      }
    }
  }
  assert.deepEqual(found, []);
});

test('axe finds nothing on the embed dialog, and in a frame with its sheet or a way-out notice open', async () => {
  const found = [];
  for (const theme of ['light', 'dark']) {
    const { page, context } = await openApp(app, `?view=offsets&theme=${theme}`, { ready: (p) => p.waitForSelector('#offsets-chart') });
    await page.getByRole('button', { name: 'Copy embed code' }).click();
    await page.locator('#share-text').waitFor();
    for (const v of await audit(page)) found.push(`dialog (${theme}): ${v}`);
    await context.close();
  }
  // A course page on another origin, the copied code with a strict sandbox, on a phone.
  const { hostServer, coursePage, embedCode, phone } = await import('./embedhost.mjs');
  const host = await hostServer();
  const code = (await embedCode(app.browser, app.server.url, '?view=waves', ['Whole panel'])).replace(/sandbox="[^"]*"/, 'sandbox="allow-scripts"');
  host.put('/a.html', coursePage(code));
  const context = await app.browser.newContext(phone(390, 844));
  const page = await context.newPage();
  await page.goto(host.url + '/a.html');
  const handle = await page.locator('iframe').elementHandle();
  const frame = await handle.contentFrame();
  await frame.waitForSelector('.embed-main canvas[data-draws]:not([data-early])');
  await page.waitForTimeout(1500);
  const auditFrame = async (what) => {
    await frame.addScriptTag({ content: AXE });
    const result = await frame.evaluate(async () =>
      // eslint-disable-next-line no-undef
      axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }),
    );
    for (const v of result.violations) found.push(`${what}: ${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  };
  await auditFrame('framed panel');
  await frame.locator('#quick-settings').tap();
  await frame.locator('#settings-sheet').waitFor({ state: 'visible' });
  await auditFrame('framed sheet');
  await frame.locator('#sheet-close').tap();
  await frame.getByRole('button', { name: /^Download CSV of/ }).first().tap();
  await frame.locator('.way-out').waitFor();
  await auditFrame('way-out notice');
  await context.close();
  await host.close();
  assert.deepEqual(found, []);
});

test('axe finds nothing on the first paint, before the app has arrived', async () => {
  const found = [];
  for (const [query, width] of [
    ['?theme=light', 1400], ['?view=offsets&theme=dark', 1400], ['?view=rotations', 1400], ['?view=compare&theme=dark', 390],
    ['?embed=attention', 390], ['?embed=train&theme=dark', 390], ['?lesson=3', 390], ['?scheme=alibi&view=offsets', 390],
  ]) {
    const { page, context } = await openApp(app, '', { ready: null, context: { viewport: { width, height: 900 } } });
    await holdApp(page); // the app never arrives
    await page.goto(app.server.url + query);
    await page.waitForSelector('canvas[data-early][data-draws]', { timeout: 15000 });
    for (const v of await audit(page)) found.push(`${query} at ${width}: ${v}`);
    await context.close();
  }
  assert.deepEqual(found, []);
});
