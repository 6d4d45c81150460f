// End-to-end tests of the views that show why sinusoids work: offsets, waves, rotations, norms,
// addition versus concatenation. Each chart paints, follows the shared sliders, and exports the
// CSV docs/students.md documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { useApp, openApp, waitForDraws, draws, plotColours, plotHash, slide, withoutChunk, offlineChunk, triedAgain, holdApp } from './lib.mjs';

const app = useApp();

const open = () => openApp(app);

async function tab(page, view, charts) {
  await page.getByRole('tab', { name: view }).click();
  for (const id of charts) await waitForDraws(page, id);
}

/** Moves a shared slider by a few stops and waits until every chart has redrawn. */
async function nudge(page, slider, charts) {
  const before = {};
  for (const id of charts) before[id] = { draws: await draws(page, id), hash: await plotHash(page, id) };
  const value = await page.evaluate((s) => Number(document.querySelector(s).value), slider);
  await slide(page, slider, value + 25);
  for (const id of charts) {
    await waitForDraws(page, id, before[id].draws + 1);
    assert.notEqual(await plotHash(page, id), before[id].hash, `${id} did not change after ${slider}`);
  }
}

/** Clicks the chart's Download CSV and returns its lines. */
async function csvOf(page, chart) {
  const figure = page.locator('figure', { has: page.locator(`#${chart}`) });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    figure.getByRole('button', { name: /CSV/ }).click(),
  ]);
  assert.match(download.suggestedFilename(), /\.csv$/);
  return fs.readFileSync(await download.path(), 'utf8').trim().split('\n');
}

const VIEWS = [
  { tab: 'By distance', charts: ['offsets-chart', 'similarity-heatmap'] },
  { tab: 'Waves & wavelengths', charts: ['waves-picker', 'waves-chart', 'wavelengths-chart'] },
  { tab: 'Rotations', charts: ['rotation-dials'] },
  { tab: 'Norms & scale', charts: ['norms-chart'] },
  { tab: 'Add or concatenate', charts: ['sum-heatmap', 'concat-heatmap'] },
];

for (const view of VIEWS) {
  test(`${view.tab}: every chart paints and follows the d_model and base sliders`, async () => {
    const { page, errors, context } = await open();
    await tab(page, view.tab, view.charts);
    for (const id of view.charts) {
      assert.ok((await plotColours(page, id)) > 3, `${id} looks blank`);
    }
    await nudge(page, '#d-model-slider', view.charts);
    await nudge(page, '#base-slider', view.charts);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('offset chart: anchors coincide with the closed form, and the CSV has every offset', async () => {
  const { page, context } = await open();
  await tab(page, 'By distance', ['offsets-chart']);
  const gap = await page.locator('.callout').first().textContent();
  const value = Number(gap.match(/points: ([\d.e+-]+)\./)[1]);
  assert.ok(value < 1e-9, `largest gap ${value}`);
  const lines = await csvOf(page, 'offsets-chart');
  assert.equal(lines[0], 'offset,anchor_0,anchor_25,anchor_50,closed_form');
  assert.equal(lines.length, 1 + 199, 'one row per offset from −99 to 99');
  for (const line of lines.slice(1)) {
    const [k, a0, a25, a50, closed] = line.split(',');
    for (const a of [a0, a25, a50]) {
      if (a !== 'NaN') assert.ok(Math.abs(Number(a) - Number(closed)) < 1e-9, `offset ${k}: ${a} vs ${closed}`);
    }
  }
  // Anchors are editable; out-of-range ones are clamped with a note.
  await page.getByLabel('Anchor positions p').fill('3, 500');
  await page.getByLabel('Anchor positions p').press('Enter');
  await page.getByText(/above the maximum/).waitFor();
  assert.equal(await page.getByLabel('Anchor positions p').inputValue(), '3, 99');
  const edited = await csvOf(page, 'offsets-chart');
  assert.equal(edited[0], 'offset,anchor_3,anchor_99,closed_form');
  // The bases mode overlays one closed form per base.
  await page.getByText('bases', { exact: true }).click();
  const bases = await csvOf(page, 'offsets-chart');
  assert.equal(bases[0], 'offset,base_100,base_10000,base_1000000');
  const sim = await csvOf(page, 'similarity-heatmap');
  assert.equal(sim.length, 1 + 100);
  assert.equal(sim[0].split(',').length, 1 + 100);
  await context.close();
});

test('waves: clicking a heatmap column adds that dimension, and the CSVs are documented', async () => {
  const { page, context } = await open();
  await tab(page, 'Waves & wavelengths', ['waves-picker', 'waves-chart']);
  const field = page.getByLabel('Dimensions');
  assert.equal(await field.inputValue(), '0, 1, 32, 64');
  const picker = page.locator('#waves-picker');
  const [left, top, width, height] = (await picker.getAttribute('data-plot')).split(' ').map(Number);
  // Column 100 of 128 sits at 100.5/128 of the plot's width.
  await picker.click({ position: { x: left + (width * 100.5) / 128, y: top + height / 2 } });
  await page.waitForFunction(() => document.getElementById('dims').value.includes('100'));
  const waves = await csvOf(page, 'waves-chart');
  assert.equal(waves[0], 'position,dim_0,dim_1,dim_32,dim_64,dim_100');
  assert.equal(waves.length, 1 + 100);
  const lambdas = await csvOf(page, 'wavelengths-chart');
  assert.equal(lambdas[0], 'pair,omega,wavelength');
  assert.equal(lambdas.length, 1 + 64);
  const [, omega, wavelength] = lambdas[1].split(',').map(Number);
  assert.ok(Math.abs(omega - 1) < 1e-12 && Math.abs(wavelength - 2 * Math.PI) < 1e-7);
  await context.close();
});

test('rotations: the check is at rounding level, and adjacent columns break it for split', async () => {
  const { page, context } = await open();
  await tab(page, 'Rotations', ['rotation-dials']);
  const number = async () => Number((await page.locator('.callout').textContent()).match(/= ([\d.e+-]+)$/)[1]);
  assert.ok((await number()) < 1e-12);
  await page.getByRole('combobox', { name: /variant/i }).selectOption('split');
  await page.getByText('adjacent columns (2i, 2i+1)').click();
  // Wait until the check's number is the one for split + adjacent (well above rounding).
  await page.waitForFunction(() => {
    const m = document.querySelector('.callout').textContent.match(/= ([\d.e+-]+)$/);
    return m && Number(m[1]) > 0.1;
  });
  assert.ok((await number()) > 0.1, 'reading adjacent columns of the split layout should fail');
  await page.getByText(/The identity fails here/).waitFor();
  const lines = await csvOf(page, 'rotation-dials');
  assert.equal(lines[0], 'pair,first_col,second_col,omega,first_at_p,second_at_p,first_rotated,second_rotated,first_at_p_plus_k,second_at_p_plus_k,error');
  assert.equal(lines.length, 1 + 64);
  // Clicking a dial shows that pair's matrix.
  const before = await page.locator('.readout-title').first().textContent();
  const dials = page.locator('#rotation-dials');
  const box = await dials.boundingBox();
  await dials.click({ position: { x: box.width * 0.3, y: 120 } });
  await page.waitForFunction((b) => document.querySelector('.readout-title').textContent !== b, before);
  await context.close();
});

test('norms and addition: the numbers beside the charts follow d_model', async () => {
  const { page, context } = await open();
  await tab(page, 'Norms & scale', ['norms-chart']);
  const pe = async () => Number((await page.locator('table.numbers tr').nth(2).locator('td').textContent()).trim());
  assert.ok(Math.abs((await pe()) - 8) < 1e-3, 'the encoding has length √(128/2) = 8');
  const norms = await csvOf(page, 'norms-chart');
  assert.equal(norms[0], 'position,pe_norm,word_plus_pe_norm,scaled_word_plus_pe_norm');
  assert.equal(norms.length, 1 + 100);
  await tab(page, 'Add or concatenate', ['sum-heatmap', 'concat-heatmap']);
  const cost = await page.locator('table.cost').textContent();
  assert.match(cost, /16,512/, 'a 128 × 128 layer with biases has 16,512 parameters');
  assert.match(cost, /32,896/, 'with twice the input width it has 32,896');
  const sum = await csvOf(page, 'sum-heatmap');
  assert.equal(sum.length, 1 + 8);
  assert.equal(sum[0].split(',').length, 1 + 128);
  const concat = await csvOf(page, 'concat-heatmap');
  assert.equal(concat[0].split(',').length, 1 + 256);
  await context.close();
});

test('rotation sliders follow the length', async () => {
  const { page, context } = await open();
  await tab(page, 'Rotations', ['rotation-dials']);
  assert.equal(await page.locator('#position-slider').getAttribute('max'), '99');
  await page.locator('#length-value').fill('1000');
  await page.locator('#length-value').press('Enter');
  await page.waitForFunction(() => document.getElementById('position-value') !== null);
  const slider = page.locator('#position-slider');
  await slider.focus();
  await page.keyboard.press('End');
  assert.equal(await page.locator('#position-value').inputValue(), '999');
  await context.close();
});

test("a page that opens on a view whose chunk does not come says so in the view, not as the page's failure, and Try again draws it", async () => {
  const { context, page, thrown, online } = await offlineChunk(app, 'offsets');
  // Whether the page ever says it could not start (its note goes when the app takes over).
  await page.addInitScript(() => {
    new MutationObserver(() => {
      window.__bootFailed ??= document.querySelector('.boot-failed')?.textContent;
    }).observe(document, { childList: true, subtree: true, attributes: true });
  });
  // The app's pack held: the page's own early ask for the view's pack (a preload) fails first.
  const { release, asked } = await holdApp(page);
  const preloaded = page.waitForRequest(/\/app\/pack_offsets\.wasm$/);
  await page.goto(app.server.url + '?view=offsets', { waitUntil: 'commit' });
  await asked;
  await preloaded;
  release();
  await triedAgain(page, online, 'offsets-chart');
  // The app works, and the page never said it could not start.
  assert.equal(await page.evaluate(() => window.__bootFailed), undefined, "the page's failure note");
  await page.getByRole('tab', { name: 'Waves & wavelengths' }).click();
  await waitForDraws(page, 'waves-chart');
  assert.deepEqual(thrown, [], 'uncaught errors or unhandled rejections on the page');
  await context.close();
});

test('a view comes from a chunk of the app fetched on first use: offline it says so, and Try again draws the view', async () => {
  // The chunk of the By distance view does not arrive.
  const { context, page, thrown, online } = await withoutChunk(app, 'offsets');
  const fetched = [];
  page.on('request', (r) => { if (/\/app\/pack_/.test(r.url())) fetched.push(r.url().replace(/.*\/app\//, '')); });
  await page.getByRole('tab', { name: 'By distance' }).click();
  // Back online: Try again fetches the chunk and the view draws; another view's chunk draws too.
  await triedAgain(page, online, 'offsets-chart');
  await tab(page, 'Waves & wavelengths', ['waves-chart']);
  await page.getByRole('tab', { name: 'Position matrix' }).click();
  await waitForDraws(page, 'encoding-heatmap');
  assert.ok(fetched.includes('pack_offsets.wasm'), `the chunk was fetched: ${fetched}`);
  assert.deepEqual(thrown, [], 'uncaught errors or unhandled rejections on the page');
  await context.close();
});
