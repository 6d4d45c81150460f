// End-to-end tests of the Image patches view, as a new user tries it: pick a 2-D scheme, move
// the grid and the width with the keyboard and the figure follows, read one patch's map large,
// and download the matrix the view is drawn from. The CSVs are checked against the published
// formulas written out again here (MAE's get_2d_sincos_pos_embed, RoPE-ViT's mixed frequencies).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { useApp, openApp, waitForDraws, draws, plotColours, plotHash, figureDownload, withoutChunk, triedAgain } from './lib.mjs';

const app = useApp();
const open = (query) => openApp(app, query, { ready: (page) => waitForDraws(page, 'patches-chart') });

/** Presses a key on a slider (trusted input) and waits until `chart` has redrawn into something new. */
async function press(page, slider, key, chart) {
  const before = { draws: await draws(page, chart), hash: await plotHash(page, chart) };
  await page.getByRole('slider', { name: slider }).focus();
  await page.keyboard.press(key);
  await waitForDraws(page, chart, before.draws + 1);
  assert.notEqual(await plotHash(page, chart), before.hash, `${chart} did not change after ${key} on ${slider}`);
}

/** MAE's 2-D sin-cos entry, in float64: channels [0, D/2) the column, [D/2, D) the row. */
function mae(d, rows, cols, patch, dim) {
  const [row, col] = [Math.floor(patch / cols), patch % cols];
  const half = d / 2, quarter = d / 4;
  const p = dim < half ? col : row;
  const within = dim % half;
  const omega = 1 / 10000 ** ((within % quarter) / quarter);
  return within < quarter ? Math.sin(p * omega) : Math.cos(p * omega);
}

test('2-D sin-cos: the grid and the width move the figure live, a patch reads large, and the CSV is MAE\'s table', async () => {
  const { page, errors, context } = await open('?view=patches&grid_h=5&grid_w=6&d_model=15');
  assert.ok((await plotColours(page, 'patches-chart')) > 3, 'the similarity figure looks blank');
  await press(page, /^grid rows /, 'ArrowRight', 'patches-chart');
  await page.waitForFunction(() => location.search.includes('grid_h=6'));
  await press(page, /^grid columns /, 'ArrowLeft', 'patches-chart');
  // d_model 15 is used as 12 (whole pairs for both axes); one step up to 16 is a new width.
  assert.match(await page.locator('#patches-title').locator('xpath=../..').textContent(), /d_model 15 is used as 12/);
  await press(page, /^d_model /, 'ArrowRight', 'patches-chart');
  const width = Number(await page.getByRole('textbox', { name: /^d_model value/ }).inputValue());
  const d = Math.max(4, Math.floor(width / 4) * 4);

  // The large map follows the small map under the pointer.
  const heading = page.getByRole('heading', { name: /^Patch \(row/ });
  assert.equal(await heading.textContent(), 'Patch (row 3, column 2), large');
  const box = await page.locator('#patches-chart').boundingBox();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.15);
  await page.waitForFunction(() => !document.body.innerText.includes('Patch (row 3, column 2), large'));
  const reading = await page.locator('.readout-line').first().textContent();
  assert.match(reading, /^Patch \(row \d+, column \d+\) against patch \(row \d+, column \d+\): -?\d/);

  const lines = await figureDownload(page, 'patches-chart');
  assert.equal(lines[0].split(',').length, 1 + d);
  assert.match(lines[0], /^patch,dim_0,dim_1,/);
  assert.equal(lines.length, 1 + 6 * 5, 'one row per patch, row-major');
  let worst = 0;
  for (const line of lines.slice(1)) {
    const [patch, ...values] = line.split(',').map(Number);
    values.forEach((v, dim) => (worst = Math.max(worst, Math.abs(v - mae(d, 6, 5, patch, dim)))));
  }
  // MAE computes in float32: angles up to 5 rad round by about 2·10⁻⁷.
  assert.ok(worst < 1e-5, `largest difference from MAE's formula: ${worst}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('mixed 2-D RoPE: angles are t_x·f_x + t_y·f_y with RoPE-ViT\'s magnitudes at right angles, and a random query reshapes the offset map', async () => {
  const { page, errors, context } = await open('?view=patches&grid=rope_mixed&grid_h=4&grid_w=5&d_model=16&seed=3');
  await waitForDraws(page, 'patch-offsets');
  const lines = await figureDownload(page, 'patches-chart');
  assert.equal(lines[0], 'patch,' + Array.from({ length: 8 }, (_, j) => `pair_${j}`).join(','));
  const angles = lines.slice(1).map((l) => l.split(',').slice(1).map(Number));
  assert.equal(angles.length, 20);
  // Patch 1 is (row 0, column 1): its angles are f_x; patch 5 is (row 1, column 0): f_y.
  const fx = angles[1], fy = angles[5];
  for (let p = 0; p < 20; p++) {
    const [row, col] = [Math.floor(p / 5), p % 5];
    angles[p].forEach((a, j) => assert.ok(Math.abs(a - (col * fx[j] + row * fy[j])) < 1e-5, `patch ${p} pair ${j}`));
  }
  for (let k = 0; k < 4; k++) {
    const mag = 1 / 10 ** ((4 * k) / 16);
    assert.ok(Math.abs(Math.hypot(fx[k], fy[k]) - mag) < 1e-6, `pair ${k}'s magnitude`);
    assert.ok(Math.abs(Math.hypot(fx[k + 4], fy[k + 4]) - mag) < 1e-6, `pair ${k + 4}'s magnitude`);
    assert.ok(Math.abs(fx[k] * fx[k + 4] + fy[k] * fy[k + 4]) < 1e-6, `pairs ${k} and ${k + 4} at right angles`);
  }
  const before = await plotHash(page, 'patch-offsets');
  const n = await draws(page, 'patch-offsets');
  await page.getByText('random q = k (seeded)').click();
  await waitForDraws(page, 'patch-offsets', n + 1);
  assert.notEqual(await plotHash(page, 'patch-offsets'), before);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a bad grid in a link is clamped or refused with a notice, and the view still draws', async () => {
  const { page, errors, context } = await open('?view=patches&grid=nope&grid_h=0&grid_w=999&grid_head=-4');
  const notices = await page.locator('.notices').textContent();
  for (const needle of ['grid=nope', 'grid_h=0', 'grid_w=999', 'grid_head=-4']) {
    assert.ok(notices.includes(needle), `no notice for ${needle}: ${notices}`);
  }
  assert.equal(await page.getByRole('textbox', { name: /^grid rows value/ }).inputValue(), '1');
  assert.equal(await page.getByRole('textbox', { name: /^grid columns value/ }).inputValue(), '64');
  assert.ok((await plotColours(page, 'patches-chart')) > 3);
  assert.deepEqual(errors, []);
  await context.close();
});

test('M-RoPE: a text–image–video–text sequence\'s ids, where transformers 5.24 and the reference code part, and Qwen3-VL\'s interleaved bands', async () => {
  const { page, errors, context } = await open('?view=patches&grid_h=2&grid_w=2&frames=3&mrope_rule=transformers');
  await page.locator('#mrope-ids').scrollIntoViewIfNeeded();
  const ids = async () => (await figureDownload(page, 'mrope-ids')).slice(1).map((l) => l.split(','));
  // 2 text tokens, an image of 2 × 2 merged tokens, 3 frames of 2 × 2, 2 text tokens.
  let rows = await ids();
  assert.equal(rows.length, 2 + 4 + 12 + 2);
  const kinds = rows.map((r) => r[1]).join(' ');
  assert.match(kinds, /^text text (image ){4}(video ){12}text text$/);
  const videoT = rows.filter((r) => r[1] === 'video').map((r) => Number(r[2]));
  const closing = rows.slice(-2).map((r) => Number(r[2]));
  // Text after a block starts where transformers 5.24 moved the running position: before the
  // video's last time id, which the panel says.
  assert.ok(closing[0] <= Math.max(...videoT), `closing text at ${closing[0]}, video up to ${Math.max(...videoT)}`);
  assert.match(await page.locator('section[aria-labelledby=mrope-title]').textContent(), /reuses time ids the video holds/);
  await page.getByText('the reference code', { exact: true }).click();
  await page.waitForFunction(() => location.search.includes('mrope_rule') === false);
  rows = await ids();
  const all = rows.slice(0, -2).flatMap((r) => r.slice(2).map(Number));
  assert.equal(Number(rows.at(-2)[2]), Math.max(...all) + 1, 'the reference starts past every id before it');
  // Qwen3-VL interleaves the sections: T, H, W, T, H, W, …
  await page.getByLabel('Model', { exact: true }).selectOption('qwen3_vl');
  await page.waitForFunction(() => location.search.includes('mrope=qwen3_vl'));
  const bands = await page.locator('.mrope-bands li').allTextContents();
  assert.equal(bands.length, 64);
  assert.equal(bands.slice(0, 6).join(''), 'THWTHW');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the NumPy code under the view rebuilds each scheme\'s CSV, with or without the CLS row, as MAE and RoPE-ViT compute it', async () => {
  const cases = [
    '?view=patches&grid_h=5&grid_w=7&d_model=24&base=100&grid_cls=1',
    '?view=patches&grid=rope_axial&grid_h=9&grid_w=6&d_model=32',
    '?view=patches&grid=rope_mixed&grid_h=6&grid_w=8&d_model=16&seed=11&grid_head=3&grid_cls=1',
    '?view=patches&grid=vit_learned&grid_h=7&grid_w=9&grid_trained=4&d_model=12&seed=5&grid_cls=1',
    '?view=patches&grid=vit_learned&grid_h=7&grid_w=9&grid_trained=4&d_model=12&seed=5&interpolate=0',
  ];
  const file = path.join(os.tmpdir(), `pe-patch-snippet-${process.pid}.py`);
  for (const query of cases) {
    const { page, errors, context } = await open(query);
    const lines = await figureDownload(page, 'patches-chart');
    // With the CLS token, its row comes first (MAE's cls_token=True), then the patches.
    assert.equal(lines[1].split(',')[0], query.includes('grid_cls=1') ? 'cls' : '0', query);
    const csv = lines.slice(1).map((l) => l.split(',').slice(1).map(Number));
    const code = await page.locator('#code-snippet').textContent();
    fs.writeFileSync(file, `${code}\nimport sys\nnp.savetxt(sys.stdout, np.asarray(matrix, dtype=np.float64), delimiter=",", fmt="%.12g")\n`);
    const numpy = execFileSync('python3', [file], { encoding: 'utf8' }).trim().split('\n').map((l) => l.split(',').map(Number));
    assert.equal(numpy.length, csv.length, `${query}: rows`);
    let worst = 0;
    csv.forEach((row, r) => {
      assert.equal(numpy[r].length, row.length, `${query}: columns`);
      row.forEach((a, c) => {
        const b = numpy[r][c];
        if (Number.isNaN(a) || Number.isNaN(b)) assert.ok(Number.isNaN(a) && Number.isNaN(b), `${query} (${r}, ${c}): ${a} vs ${b}`);
        else worst = Math.max(worst, Math.abs(a - b));
      });
    });
    console.log(`  ${query}: largest difference ${worst.toExponential(1)}`);
    assert.ok(worst <= 1e-6, `${query}: largest difference ${worst}`);
    // The PyTorch version is one switch away, on the same settings (scripts/check_torch.py runs
    // it where PyTorch is installed).
    await page.getByText('PyTorch', { exact: true }).click();
    await page.waitForFunction(() => document.getElementById('code-snippet').textContent.startsWith('import torch'));
    const torchCode = await page.locator('#code-snippet').textContent();
    assert.match(torchCode, /^matrix = /m, query);
    if (query.includes('vit_learned') && !query.includes('interpolate=0')) assert.match(torchCode, /F\.interpolate\(table, size=\(rows, cols\), mode="bicubic", align_corners=False\)/);
    assert.deepEqual(errors, []);
    await context.close();
  }
  fs.rmSync(file, { force: true });
});

test('M-RoPE: a pasted Qwen2-VL config.json sets the T/H/W split and the ids; a bad paste is refused out loud', async () => {
  const { page, errors, context } = await open('?view=patches&mrope=qwen3_vl&grid_h=3&grid_w=3&frames=0');
  const config = JSON.stringify({
    architectures: ['Qwen2VLForConditionalGeneration'], model_type: 'qwen2_vl', hidden_size: 3584,
    num_attention_heads: 28, rope_theta: 1000000.0, rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] },
    vision_config: { spatial_merge_size: 2 },
  });
  await page.getByText('Paste a Qwen2-VL, Qwen2.5-VL or Qwen3-VL config.json').click();
  const box = page.locator('#mrope-config');
  await box.fill('{"rope_scaling": {"mrope_section": [16, 24]}}');
  await page.locator('.mrope-paste').getByRole('button', { name: 'Apply' }).click();
  assert.match(await page.locator('#mrope-config-note').textContent(), /three whole numbers.*Nothing was changed/);
  assert.equal((await page.locator('.mrope-bands li').allTextContents()).slice(0, 3).join(''), 'THW', 'still Qwen3-VL');
  await box.fill(config);
  await page.locator('.mrope-paste').getByRole('button', { name: 'Apply' }).click();
  assert.match(await page.locator('#mrope-config-note').textContent(), /Read qwen2_vl: head_dim 128, θ = 1000000, mrope_section \[16, 24, 24\] in blocks/);
  const bands = (await page.locator('.mrope-bands li').allTextContents()).join('');
  assert.equal(bands, 'T'.repeat(16) + 'H'.repeat(24) + 'W'.repeat(24));
  // Text, a 3 × 3-token image, text: t = h = w for text; the image starts at 2; text after at 5.
  const rows = (await figureDownload(page, 'mrope-ids')).slice(1).map((l) => l.split(','));
  assert.deepEqual(rows.map((r) => r[2]).join(' '), '0 1 ' + '2 '.repeat(9) + '5 6');
  // The pasted config is kept in the link: opened again, the page reads it back.
  await page.waitForFunction(() => new URL(location.href).searchParams.get('mrope_config') === 'qwen2_vl,128,1000000,16,24,24,chunked,2');
  await page.goto(page.url());
  await waitForDraws(page, 'mrope-ids');
  assert.match(await page.locator('#mrope-config-note').textContent(), /Read qwen2_vl: head_dim 128.*kept in the link/);
  assert.equal((await page.locator('.mrope-bands li').allTextContents()).join(''), bands);
  // Picking a model from the list replaces it; a bad link value is refused out loud.
  await page.selectOption('#mrope-model', 'qwen2_5_vl');
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('mrope_config'));
  await page.goto(page.url().replace(/\?.*/, '?view=patches&mrope_config=qwen2_vl,128,1000000,16,24,25,chunked,2'));
  await page.getByText(/mrope_config=.*sums to 65, but head_dim 128 has 64 frequency pairs\. Kept the model list\./).first().waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('resolution: axial RoPE at 1×, 2× and 4× its trained grid, interpolated and extrapolated, is the formula with positions scaled or kept', async () => {
  const { page, errors, context } = await open('?view=patches&grid=rope_axial&grid_trained=4&d_model=16');
  await waitForDraws(page, 'patch-resolution');
  // Axial RoPE, D = 16: 4 pairs per axis at 1/100^(4k/16); a query and key of ones score the
  // mean over all 8 pairs of cos(angle difference).
  const f = [0, 1, 2, 3].map((k) => 1 / 100 ** ((4 * k) / 16));
  const score = (dx, dy) => f.reduce((s, w) => s + Math.cos(dx * w) + Math.cos(dy * w), 0) / 8;
  const lines = await figureDownload(page, 'patch-resolution');
  assert.equal(lines[0], 'resize,side,row,column,similarity');
  const rows = lines.slice(1).map((l) => l.split(','));
  assert.equal(rows.length, 2 * (16 + 64 + 256), 'every patch of the 4, 8 and 16 grids, both ways');
  let worst = 0;
  for (const [how, side, row, col, v] of rows) {
    const n = Number(side);
    // Interpolated: from the grid's centre, positions scaled by 4 / side (EVA-02). Extrapolated:
    // from the trained grid's centre, positions as they are (RoPE-ViT).
    const [from, scale] = how === 'interpolated' || n === 4 ? [Math.floor(n / 2), 4 / n] : [2, 1];
    const want = score((Number(col) - from) * scale, (Number(row) - from) * scale);
    worst = Math.max(worst, Math.abs(Number(v) - want));
  }
  assert.ok(worst < 1e-6, `largest difference from the formula: ${worst}`);
  // The sentence's numbers are the CSV's: the right-hand neighbour at 4× interpolated and 1×.
  const said = await page.locator('.resolution .panel-side').textContent();
  const at = (how, side, r, c) => Number(rows.find((x) => x[0] === how && Number(x[1]) === side && Number(x[2]) === r && Number(x[3]) === c)[4]);
  assert.ok(said.includes(`scores ${at('interpolated', 16, 8, 9).toPrecision(3)} against ${at('interpolated', 4, 2, 3).toPrecision(3)}`), said);
  // Hovering a map reads its own patch, and the trained side moves the figure with the keyboard.
  const box = await page.locator('#patch-resolution').boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.75);
  await page.waitForFunction(() => /^\d+ × \d+ grid, (interpolated|extrapolated): patch/.test(document.querySelector('.resolution .readout-line')?.textContent ?? ''));
  await press(page, /^trained grid side /, 'ArrowRight', 'patch-resolution');
  await page.waitForFunction(() => location.search.includes('grid_trained=5'));
  assert.match(await page.locator('.resolution .panel-side').textContent(), /20 × 20 grid maps onto the trained 5 × 5/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone, the resolution figure far down is computed after the view has drawn, and is whole once near', async () => {
  // Its maps, on grids up to 4× the trained one, are this view's longest computation: the view
  // is drawn and the first paint gives way without them; they come when the section nears the
  // screen or the page is idle.
  const context = await app.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    // No idle moment comes: the section must come because it nears the screen.
    window.requestIdleCallback = () => 0;
    // In the order the page changed, even within one task: the section's arrival, and whether
    // it was already there when the first paint's page went.
    window.__order = [];
    new MutationObserver((records) => {
      for (const r of records) {
        if ([...r.addedNodes].some((n) => n.nodeType === 1 && (n.matches('.resolution') || n.querySelector('.resolution')))) window.__order.push('resolution');
        if ([...r.removedNodes].some((n) => n.id === 'early')) window.__order.push('handed over');
      }
    }).observe(document, { subtree: true, childList: true });
  });
  await page.goto(app.server.url + '?view=patches');
  await waitForDraws(page, 'patches-chart');
  await page.waitForFunction(() => !document.getElementById('early'));
  // Its place, held far down: as tall as the section will be, so that nothing moves when it comes.
  const held = await page.locator('.later').evaluate((e) => e.getBoundingClientRect().height);
  assert.equal(await page.locator('.resolution').count(), 0, 'computed before it came near');
  await page.locator('.later').scrollIntoViewIfNeeded();
  await waitForDraws(page, 'patch-resolution');
  assert.deepEqual(await page.evaluate(() => window.__order), ['handed over', 'resolution']);
  const real = await page.locator('.resolution').evaluate((e) => e.getBoundingClientRect().height);
  assert.ok(Math.abs(held / real - 1) < 0.15, `its place was ${held} px, the section ${real} px`);
  assert.match(await page.locator('.resolution .panel-side').textContent(), /56 × 56 grid maps onto the trained 14 × 14/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('M-RoPE: the sin table turns each token by its own id, and a cell reads its angle, cos and sin', async () => {
  const { page, errors, context } = await open('?view=patches&grid_h=4&grid_w=4&frames=0');
  await waitForDraws(page, 'mrope-cos');
  const [before, drawn] = [await plotHash(page, 'mrope-cos'), await draws(page, 'mrope-cos')];
  await page.getByRole('radio', { name: 'sin', exact: true }).check();
  await waitForDraws(page, 'mrope-cos', drawn + 1);
  assert.notEqual(await plotHash(page, 'mrope-cos'), before, 'the sin table looks like the cos table');
  // Keyboard: focus the table and step to a cell; its readout is that token's ids and angle.
  await page.locator('#mrope-cos').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const line = page.locator('.readout-line', { hasText: /^Token \d+/ });
  await line.waitFor();
  const m = (await line.textContent()).match(/^Token (\d+) \((\w+), t = (\d+), h = (\d+), w = (\d+)\), frequency (\d+) \(([THW])\): angle (\S+) rad, cos (\S+), sin (\S+)\./);
  assert.ok(m, await line.textContent());
  const [angle, cos, sin] = [Number(m[8]), Number(m[9]), Number(m[10])];
  // Qwen2-VL: frequency j turns at 10⁶^(−2j/128), by the id of its section's axis.
  const j = Number(m[6]);
  const id = { T: Number(m[3]), H: Number(m[4]), W: Number(m[5]) }[m[7]];
  assert.ok(Math.abs(angle - id * 1e6 ** (-2 * j / 128)) < 1e-5 * Math.max(1, angle), `${angle} vs id ${id}, j ${j}`);
  assert.ok(Math.abs(cos - Math.cos(angle)) < 1e-5 && Math.abs(sin - Math.sin(angle)) < 1e-5);
  // The table's CSV is the sin table shown: one row per token, one column per frequency.
  const lines = await figureDownload(page, 'mrope-cos');
  assert.match(lines[0], /^token,j_0 T,j_1 T,/);
  assert.equal(lines[0].split(',').length, 1 + 64);
  const cell = Number(lines[1 + Number(m[1])].split(',')[1 + j]);
  assert.ok(Math.abs(cell - sin) < 1e-5, `CSV ${cell} vs readout ${sin}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('offline, a view whose chunk cannot be fetched says so and draws when tried again; nothing throws', async () => {
  const { context, page, thrown, online } = await withoutChunk(app, 'patches');
  await page.click('#tab-patches');
  // Back online: Try again fetches the chunk and the view draws.
  await triedAgain(page, online, 'patches-chart');
  // And the rest of the app answers as before.
  await page.click('#tab-heatmap');
  await waitForDraws(page, 'encoding-heatmap');
  assert.deepEqual(thrown, [], 'uncaught errors or unhandled rejections on the page');
  await context.close();
});
