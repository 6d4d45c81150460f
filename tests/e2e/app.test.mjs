// End-to-end tests of the built app in headless Chromium: what a student does with the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { useApp, openApp, waitForDraws, draws, plotColours, plotHash } from './lib.mjs';

const app = useApp();

/** Opens the app and collects console errors and uncaught exceptions. */
const open = (query = '', viewport = undefined) => openApp(app, query, { context: viewport ? { viewport } : {} });

/** Distinct colours inside the heatmap's plot rectangle (a blank plot has one). */
const canvasColours = (page) => plotColours(page, 'encoding-heatmap');

/** The paper's formula, written independently of the app. */
function paper(pos, dim, d, base) {
  const i = Math.floor(dim / 2);
  const angle = pos / base ** ((2 * i) / d);
  return dim % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
}

async function setField(page, name, value) {
  const field = page.getByRole('textbox', { name: new RegExp(`^${name} value$`) });
  await field.fill(String(value));
  await field.press('Enter');
}

test('the page loads without console errors and paints the heatmap', async () => {
  const { page, errors, context } = await open();
  assert.ok((await canvasColours(page)) > 200, 'the heatmap looks blank');
  await page.waitForTimeout(200);
  assert.deepEqual(errors, []);
  await context.close();
});

test('every control has a visible label and an accessible name', async () => {
  const { page, context } = await open();
  for (const name of ['d_model', 'length', 'base']) {
    await assert.doesNotReject(page.getByRole('slider', { name: new RegExp(`^${name} `) }).waitFor());
    await assert.doesNotReject(page.getByRole('textbox', { name: new RegExp(`^${name} `) }).waitFor());
    assert.ok(await page.locator('label', { hasText: name }).first().isVisible(), `${name} label`);
  }
  assert.ok(await page.getByRole('combobox', { name: /variant/i }).isVisible());
  assert.ok(await page.getByRole('button', { name: /CSV/ }).isVisible());
  assert.ok(await page.getByRole('button', { name: /PNG/ }).isVisible());
  await context.close();
});

test('dragging a slider repaints the heatmap while the pointer is still down', async () => {
  const { page, context } = await open();
  const slider = page.getByRole('slider', { name: /^d_model / });
  const box = await slider.boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.55, y);
  await page.mouse.down();
  const start = await draws(page, 'encoding-heatmap');
  for (let k = 1; k <= 6; k++) {
    await page.mouse.move(box.x + box.width * (0.55 - 0.05 * k), y, { steps: 2 });
    await page.waitForTimeout(30);
  }
  const during = await draws(page, 'encoding-heatmap');
  await page.mouse.up();
  assert.ok(during - start >= 3, `only ${during - start} repaints during the drag`);
  const shown = await page.getByRole('textbox', { name: /^d_model value/ }).inputValue();
  assert.notEqual(shown, '128', 'the number field did not follow the slider');
  await context.close();
});

test('the keyboard moves a slider one value per key, even at the smallest values', async () => {
  const { page, context } = await open();
  await setField(page, 'length', 1);
  await setField(page, 'd_model', 2);
  for (const [name, start] of [['length', 1], ['d_model', 2]]) {
    await page.getByRole('slider', { name: new RegExp(`^${name} `) }).focus();
    for (let k = 1; k <= 5; k++) {
      await page.keyboard.press('ArrowRight');
      const value = Number(await page.getByRole('textbox', { name: new RegExp(`^${name} value`) }).inputValue());
      assert.equal(value, start + k, `${name} after ${k} × ArrowRight`);
    }
  }
  await setField(page, 'length', 100);
  await page.getByRole('slider', { name: /^length / }).focus();
  const before = await draws(page, 'encoding-heatmap');
  for (let k = 0; k < 20; k++) await page.keyboard.press('ArrowRight');
  await waitForDraws(page, 'encoding-heatmap', before + 1);
  const value = Number(await page.getByRole('textbox', { name: /^length value/ }).inputValue());
  assert.ok(value > 100, `length is ${value} after pressing ArrowRight`);
  await context.close();
});

test('hovering a cell shows its position, dimension, value and formula', async () => {
  const { page, context } = await open();
  await setField(page, 'd_model', 16);
  await setField(page, 'length', 20);
  await page.waitForTimeout(100);
  const canvas = page.locator('#encoding-heatmap');
  // Walk across the canvas until the readout names a cell, then check its numbers.
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.5);
  const title = page.locator('.readout-title');
  await title.filter({ hasText: /position \d+, dimension \d+/ }).waitFor();
  const [, pos, dim] = (await title.textContent()).match(/position (\d+), dimension (\d+)/).map(Number);
  const text = await page.locator('.readout').textContent();
  const expected = paper(pos, dim, 16, 10000);
  const shown = Number(text.match(/value(-?[\d.e-]+)/)[1]);
  assert.ok(Math.abs(shown - expected) < 1e-7, `readout ${shown}, formula ${expected}`);
  assert.match(text, /wavelength2π\/ω = /);
  assert.match(text, new RegExp(`PE\\(${pos}, ${dim}\\) = (sin|cos)\\(`));
  await context.close();
});

test('the CSV download holds the matrix shown, to at least 7 significant digits', async () => {
  const { page, context } = await open();
  await setField(page, 'd_model', 6);
  await setField(page, 'length', 12);
  await setField(page, 'base', 100);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /CSV/ }).click(),
  ]);
  assert.match(download.suggestedFilename(), /\.csv$/);
  const text = fs.readFileSync(await download.path(), 'utf8');
  const lines = text.trim().split('\n');
  assert.equal(lines[0], 'position,dim_0,dim_1,dim_2,dim_3,dim_4,dim_5');
  assert.equal(lines.length, 1 + 12);
  for (const [r, line] of lines.slice(1).entries()) {
    const fields = line.split(',');
    assert.equal(Number(fields[0]), r);
    for (let c = 0; c < 6; c++) {
      const want = paper(r, c, 6, 100);
      assert.ok(Math.abs(Number(fields[c + 1]) - want) < 5e-8, `(${r}, ${c}): ${fields[c + 1]} vs ${want}`);
    }
  }
  await context.close();
});

test('the PNG download is a 2x image of the chart', async () => {
  const { page, context } = await open();
  const css = await page.locator('#encoding-heatmap').boundingBox();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /PNG/ }).click(),
  ]);
  const png = fs.readFileSync(await download.path());
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  assert.ok(Math.abs(width - 2 * css.width) <= 2, `width ${width} for ${css.width} CSS px`);
  assert.ok(Math.abs(height - 2 * css.height) <= 2, `height ${height} for ${css.height} CSS px`);
  await context.close();
});

test('typed values are clamped or refused with a visible message, and the page keeps working', async () => {
  const { page, errors, context } = await open();
  await setField(page, 'length', 1e9);
  await page.getByText(/above the maximum/).waitFor();
  assert.equal(await page.getByRole('textbox', { name: /^length value/ }).inputValue(), '65536');
  await setField(page, 'base', 'ten thousand');
  await page.getByText(/is not a number/).waitFor();
  assert.equal(await page.getByRole('textbox', { name: /^base value/ }).inputValue(), '10000');
  await setField(page, 'd_model', '<img src=x onerror=alert(1)>');
  await page.getByText(/is not a number/).first().waitFor();
  assert.equal(await page.locator('img[src=x]').count(), 0, 'typed text was inserted as HTML');
  assert.ok((await canvasColours(page)) > 20);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the extremes render without errors', async () => {
  const { page, errors, context } = await open();
  const cases = [
    [2, 1, 10],
    [4096, 65536, 100000000],
    [3, 2, 10],
    [1024, 4096, 10000],
  ];
  for (const [d, len, base] of cases) {
    const before = await draws(page, 'encoding-heatmap');
    await setField(page, 'd_model', d);
    await setField(page, 'length', len);
    await setField(page, 'base', base);
    await waitForDraws(page, 'encoding-heatmap', before + 1);
    assert.ok((await canvasColours(page)) >= 2, `(${d}, ${len}, ${base}) is blank`);
  }
  await setField(page, 'length', 300);
  await setField(page, 'd_model', 64);
  for (const variant of ['split', 't2t', 'tutorial-bug', 'paper']) {
    const before = await plotHash(page, 'encoding-heatmap');
    const count = await draws(page, 'encoding-heatmap');
    await page.getByRole('combobox', { name: /variant/i }).selectOption(variant);
    await waitForDraws(page, 'encoding-heatmap', count + 1);
    assert.notEqual(await plotHash(page, 'encoding-heatmap'), before, `${variant} drew the same pixels`);
  }
  await page.waitForTimeout(200);
  assert.deepEqual(errors, []);
  await context.close();
});

test('odd d_model says what happens to the extra column', async () => {
  const { page, context } = await open();
  await setField(page, 'd_model', 7);
  await page.getByText(/no cosine partner/).first().waitFor();
  await page.getByRole('combobox', { name: /variant/i }).selectOption('t2t');
  await page.getByText(/all zeros/).first().waitFor();
  await context.close();
});

test('the page works on a 360 px wide phone', async () => {
  const { page, errors, context } = await open('', { width: 360, height: 740 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  assert.ok((await canvasColours(page)) > 200);
  assert.deepEqual(errors, []);
  await context.close();
});
