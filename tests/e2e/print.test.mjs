// Print: every view, every lesson step and an embedded panel print on one A4 page, with the main
// chart's canvas on it (as an image) and the sources and the link in the text. Chromium's own PDF
// output (page.pdf()), read back for its pages and images.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, pdfFacts } from './lib.mjs';
import { STEPS } from './lesson_steps.mjs';

const app = useApp();
const VIEWS = ['heatmap', 'attention', 'offsets', 'waves', 'rotations', 'norms', 'addition', 'compare', 'patches', 'train', 'quiz'];

async function printed(query) {
  const { page, context } = await openApp(app, query, {
    context: { viewport: { width: 1200, height: 900 } },
    ready: (p) => p.waitForSelector('[role=tabpanel] canvas[data-draws]:not([data-early]), .embed-main canvas[data-draws]:not([data-early]), .quiz-card', { timeout: 20000 }),
  });
  await page.waitForTimeout(500);
  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  await page.emulateMedia({ media: 'print' });
  const text = await page.evaluate(() => document.body.innerText);
  await context.close();
  return { ...pdfFacts(pdf), text };
}

test('every view prints on one page, with its chart as an image, its sources and its link', async () => {
  const counts = [];
  for (const view of VIEWS) {
    for (const scheme of view === 'offsets' || view === 'heatmap' ? ['sinusoidal', 'rope'] : ['sinusoidal']) {
      const query = `?view=${view}&scheme=${scheme}`;
      const { pages, images, text } = await printed(query);
      counts.push(`${view}/${scheme}: ${pages}`);
      assert.equal(pages, 1, `${query} printed on ${pages} pages`);
      if (view !== 'quiz') assert.ok(images >= 1, `${query}: no chart in the PDF`);
      assert.match(text, /Sources/i, `${query}: the sources`);
      assert.match(text, /Live at http:\/\/127\.0\.0\.1:\d+\//, `${query}: the link`);
      assert.doesNotMatch(text, /Download CSV|Copy embed code/, `${query}: no buttons`);
    }
  }
  console.log(`  pages: ${counts.join(', ')}`);
});

test('every lesson step prints on one page, its text above its chart', async () => {
  for (let step = 1; step <= STEPS.length; step++) {
    const { pages, images, text } = await printed(`?lesson=${step}`);
    assert.equal(pages, 1, `lesson step ${step} printed on ${pages} pages`);
    assert.ok(images >= 1, `lesson step ${step}: no chart`);
    assert.match(text, /Try this:/, `lesson step ${step}: its text`);
    assert.doesNotMatch(text, /Next →|Reset this step/, `lesson step ${step}: no buttons`);
  }
});

test('an embedded panel prints on one page too', async () => {
  for (const query of ['?embed=offsets', '?embed=attention', '?embed=heatmap&show=chart']) {
    const { pages, images } = await printed(query);
    assert.equal(pages, 1, `${query}: ${pages} pages`);
    assert.ok(images >= 1, `${query}: no chart`);
  }
});

test('printed from a phone, a chart keeps the width it was drawn at instead of stretching to the paper', async () => {
  const { page, errors, context } = await openApp(app, '?view=offsets', {
    context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
    ready: (p) => p.waitForSelector('#offsets-chart[data-draws]'),
  });
  await page.emulateMedia({ media: 'print' });
  await page.waitForTimeout(300);
  // The paper's width, as a print lays the page out (read in the same task: no redraw follows,
  // as none does while the browser prints).
  const { drawn, ...shown } = await page.locator('#offsets-chart').evaluate((c) => {
    const drawn = c.getBoundingClientRect().width;
    document.body.style.width = '700px';
    const r = c.getBoundingClientRect();
    return { drawn, width: r.width, height: r.height, aspect: c.width / c.height };
  });
  assert.ok(drawn < 500, `drawn ${drawn} px wide: not a phone's width`);
  // Narrower than the paper, as wide as on the phone, and not distorted.
  assert.ok(Math.abs(shown.width - drawn) <= 1, `drawn ${drawn} px wide, printed ${shown.width} px`);
  assert.ok(Math.abs(shown.width / shown.height - shown.aspect) < 0.02, `printed ${shown.width} × ${shown.height}, drawn at aspect ${shown.aspect}`);
  assert.deepEqual(errors, []);
  await context.close();
});
