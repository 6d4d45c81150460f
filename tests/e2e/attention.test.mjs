// End-to-end tests of the "dog bites man" demo: without position the two sentences tie, with the
// sinusoidal encoding they come apart, and editing a sentence updates every matrix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, waitForDraws, draws, plotHash, figureDownload, appTakenOver } from './lib.mjs';

const app = useApp();

async function openDemo() {
  const opened = await openApp(app);
  await opened.page.getByRole('tab', { name: 'Dog bites man' }).click();
  for (const id of ['attention-a', 'attention-b', 'outputs-a', 'outputs-b']) await waitForDraws(opened.page, id);
  return opened;
}

const cosine = async (page) => Number(await page.locator('#summary-cosine').textContent());

test('both sentences render and, without position, tie exactly', async () => {
  const { page, errors, context } = await openDemo();
  assert.equal(await page.locator('#sentence-a').inputValue(), 'dog bites man');
  assert.equal(await page.locator('#sentence-b').inputValue(), 'man bites dog');
  assert.equal(await page.locator('#summary-cosine').textContent(), '1.000000');
  const rows = await page.locator('table.words tbody tr').allTextContents();
  assert.equal(rows.length, 3);
  for (const row of rows) assert.match(row, /0 \(identical\)/);
  // The attention matrices are labelled by tokens: rows of B are A's in another order.
  const labels = await page.locator('#attention-b').getAttribute('aria-label');
  assert.match(labels, /Attention weights, sentence B/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('switching the position encoding on pulls the sentences apart and redraws the matrices', async () => {
  const { page, context } = await openDemo();
  const before = { a: await plotHash(page, 'attention-a'), n: await draws(page, 'attention-a') };
  await page.getByText('on (sinusoidal)').click();
  await waitForDraws(page, 'attention-a', before.n + 1);
  const on = await cosine(page);
  assert.ok(on < 0.9999995, `with positions the summaries still tie: ${on}`);
  assert.notEqual(await plotHash(page, 'attention-a'), before.a);
  const diffs = await page.locator('table.words tbody td:last-child').allTextContents();
  assert.ok(diffs.some((d) => !d.includes('identical')), `outputs still identical: ${diffs}`);
  await page.getByText(/Different: with sinusoidal the same words get different outputs/).waitFor();
  // The √d_model toggle changes the numbers again.
  await page.getByLabel('Scale embeddings by √d_model').first().uncheck();
  await page.waitForFunction((v) => Number(document.getElementById('summary-cosine').textContent) !== v, on);
  // Off again: back to a tie.
  await page.getByText('off', { exact: true }).click();
  await page.waitForFunction(() => document.getElementById('summary-cosine').textContent === '1.000000');
  await context.close();
});

test('editing a sentence updates the matrices; too many words are refused with a message', async () => {
  const { page, context } = await openDemo();
  const n = await draws(page, 'attention-a');
  await page.locator('#sentence-a').fill('the cat sat on the mat');
  await page.locator('#sentence-a').press('Enter');
  await waitForDraws(page, 'attention-a', n + 1);
  assert.match(await page.locator('#attention-a').getAttribute('aria-label'), /sentence A/);
  const plot = (await page.locator('#attention-a').getAttribute('data-plot')).split(' ').map(Number);
  assert.ok(plot[3] > 0);
  await page.getByText(/do not contain the same words/).waitFor();
  // A reordering of the new sentence ties again.
  await page.locator('#sentence-b').fill('the mat sat on the cat');
  await page.locator('#sentence-b').press('Enter');
  await page.waitForFunction(() => document.getElementById('summary-cosine').textContent === '1.000000');
  const words = Array.from({ length: 17 }, (_, i) => `w${i}`).join(' ');
  await page.locator('#sentence-a').fill(words);
  await page.locator('#sentence-a').press('Enter');
  await page.getByText(/That is 17 words; the demo takes at most 16/).waitFor();
  assert.equal(await page.locator('#sentence-a').inputValue(), 'the cat sat on the mat');
  // Markup typed into a sentence stays text.
  await page.locator('#sentence-a').fill('<b>bold</b> dog');
  await page.locator('#sentence-a').press('Enter');
  await page.waitForTimeout(200);
  assert.equal(await page.locator('.view-controls b').count(), 0);
  await context.close();
});

test('the step-by-step view follows either sentence and exports labelled CSVs', async () => {
  const { page, context } = await openDemo();
  for (const id of ['step-embeddings', 'step-input', 'step-q', 'step-k', 'step-v', 'step-scores', 'step-weights', 'step-outputs']) {
    await waitForDraws(page, id);
  }
  const lines = await figureDownload(page, 'step-weights');
  assert.equal(lines[0], 'token,key_dog,key_bites,key_man');
  assert.equal(lines.length, 4);
  for (const line of lines.slice(1)) {
    const sum = line.split(',').slice(1).map(Number).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-7, `a softmax row adds up to ${sum}`);
  }
  const n = await draws(page, 'step-input');
  await page.getByText('B: man bites dog').click();
  await waitForDraws(page, 'step-input', n + 1);
  assert.match(await page.locator('#step-input').getAttribute('aria-label'), /Input, sentence B/);
  await context.close();
});

test('the demo works at every slider extreme and says what a short length means', async () => {
  const { page, errors, context } = await openDemo();
  await page.getByText('on (sinusoidal)').click();
  for (const [d, len] of [[2, 1], [4096, 1], [3, 2], [64, 65536]]) {
    await page.locator('#d-model-value').fill(String(d));
    await page.locator('#d-model-value').press('Enter');
    await page.locator('#length-value').fill(String(len));
    await page.locator('#length-value').press('Enter');
    await page.waitForTimeout(150);
    const c = await cosine(page);
    assert.ok(Number.isFinite(c) && c <= 1, `d=${d} length=${len}: cosine ${c}`);
  }
  await page.locator('#length-value').fill('2');
  await page.locator('#length-value').press('Enter');
  await page.getByText(/the sinusoidal formula still gives positions 2 and beyond/).waitFor();
  await page.locator('#d-model-value').fill('4096');
  await page.locator('#d-model-value').press('Enter');
  await page.getByText(/d_model is 4096; to stay readable the demo runs one head at width 64/).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

/** The demo's charts: each one's id, its top from the page's top, whether it is drawn, and
 * whether it is shown (not in a closed <details>: the weight matrices). */
const charts = (page) =>
  page.evaluate(() => [...document.querySelectorAll('#panel-attention canvas[id]')].map((c) => ({
    id: c.id,
    shown: !c.closest('details:not([open])'),
    top: c.getBoundingClientRect().top + scrollY,
    drawn: Number(c.dataset.draws ?? 0) > 0,
  })));

test('the demo draws its charts far down the page when the page is idle, without scrolling', async () => {
  const { page, errors, context } = await openApp(app, '?view=attention', { ready: appTakenOver });
  const all = await charts(page);
  assert.ok(all.length >= 15, `${all.length} charts`);
  for (const { id } of all) await waitForDraws(page, id);
  assert.equal(await page.evaluate(() => scrollY), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a page that is never idle, a chart far down is drawn as it comes near, and every chart before the page prints', async () => {
  const context = await app.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  // No idle moment ever comes.
  await context.addInitScript(() => { window.requestIdleCallback = () => 1; });
  const page = await context.newPage();
  await page.goto(app.server.url + '?view=attention');
  await appTakenOver(page);
  await waitForDraws(page, 'attention-a');
  await page.waitForTimeout(300);
  const screen = await page.evaluate(() => innerHeight);
  const before = await charts(page);
  const far = before.filter((c) => c.shown && c.top > 2 * screen);
  assert.ok(far.length >= 5, `charts far down: ${far.length}`);
  // In sight, drawn at once; far down, not yet.
  assert.ok(before.filter((c) => c.top + 100 < screen).every((c) => c.drawn), JSON.stringify(before));
  assert.ok(far.every((c) => !c.drawn), JSON.stringify(far));
  // Scrolled near: drawn.
  const last = far[far.length - 1].id;
  await page.locator(`#${last}`).scrollIntoViewIfNeeded();
  await waitForDraws(page, last);
  // Printed: every chart is on paper, the weight matrices' in their closed <details> too.
  assert.ok(before.some((c) => !c.shown), 'a chart in a closed <details>');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  await page.waitForFunction(() => [...document.querySelectorAll('#panel-attention canvas[id]')].every((c) => Number(c.dataset.draws ?? 0) > 0), null, { timeout: 5000 });
  await context.close();
});
