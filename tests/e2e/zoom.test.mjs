// End-to-end tests of zooming and panning a heatmap at the largest sizes: ctrl + wheel, drag,
// pinch, keys and buttons, down to single cells whose readout is the exact value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, waitForDraws, draws } from './lib.mjs';

const app = useApp();

const open = (query, options = {}) => openApp(app, query, { context: options });

/** The window drawn: [rowStart, rowEnd, colStart, colEnd]. */
async function view(page, id = 'encoding-heatmap') {
  const text = await page.locator(`#${id}`).getAttribute('data-view');
  return text.split(/[-,]/).map(Number);
}

/** A point inside the plot at fractions (fx, fy) of its width and height, in page pixels. */
async function plotPoint(page, fx, fy, id = 'encoding-heatmap') {
  const canvas = page.locator(`#${id}`);
  const box = await canvas.boundingBox();
  const [left, top, width, height] = (await canvas.getAttribute('data-plot')).split(' ').map(Number);
  return { x: box.x + left + fx * width, y: box.y + top + fy * height };
}

const readout = (page) => page.locator('.readout-title').textContent();

test('ctrl + wheel zooms around the pointer; a plain wheel still scrolls the page', async () => {
  const { page, errors, context } = await open('?d_model=4096&length=65536');
  assert.deepEqual(await view(page), [0, 65536, 0, 4096]);
  const at = await plotPoint(page, 0.3, 0.6);
  await page.mouse.move(at.x, at.y);
  const before = await readout(page);
  const [, row, col] = before.match(/position (\d+), dimension (\d+)/).map(Number);
  const n = await draws(page, 'encoding-heatmap');
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -400);
  await page.keyboard.up('Control');
  await waitForDraws(page, 'encoding-heatmap', n + 1);
  const [r0, r1, c0, c1] = await view(page);
  assert.ok(r1 - r0 < 65536 / 2 && c1 - c0 < 4096 / 2, `zoomed in: ${[r0, r1, c0, c1]}`);
  // The cell under the pointer stays under it (to within a pixel's worth of rows).
  await page.mouse.move(at.x + 1, at.y);
  await page.mouse.move(at.x, at.y);
  const [, row2, col2] = (await readout(page)).match(/position (\d+), dimension (\d+)/).map(Number);
  assert.ok(Math.abs(row2 - row) <= (r1 - r0) / 100, `row ${row} → ${row2}`);
  assert.ok(Math.abs(col2 - col) <= (c1 - c0) / 100, `column ${col} → ${col2}`);
  assert.match(await page.locator('.chart-zoom-status').first().textContent(), /Showing positions [\d,]+–[\d,]+ of 65,536/);
  // Without ctrl the wheel scrolls the page and leaves the chart alone.
  const scrolled = await page.evaluate(() => scrollY);
  await page.mouse.wheel(0, 300);
  await page.waitForFunction((y) => scrollY > y, scrolled);
  assert.deepEqual(await view(page), [r0, r1, c0, c1]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('keys zoom down to single cells with exact values; drag pans; reset shows everything', async () => {
  const { page, errors, context } = await open('?d_model=4096&length=65536');
  const canvas = page.locator('#encoding-heatmap');
  await canvas.focus();
  await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 5; i++) await page.keyboard.press('PageDown');
  for (let i = 0; i < 30; i++) await page.keyboard.press('Shift+ArrowRight');
  for (let i = 0; i < 14; i++) await page.keyboard.press('+');
  await page.waitForFunction(() => {
    const v = document.getElementById('encoding-heatmap').dataset.view.split(/[-,]/).map(Number);
    return v[1] - v[0] < 40 && v[3] - v[2] < 40;
  });
  const [r0, r1, c0, c1] = await view(page);
  // Cells are now many pixels wide: the note about averaging is gone, the cursor is in view.
  const [, row, col] = (await readout(page)).match(/position (\d+), dimension (\d+)/).map(Number);
  assert.ok(row >= r0 && row < r1 && col >= c0 && col < c1, `cursor ${row},${col} in ${[r0, r1, c0, c1]}`);
  const value = Number(await page.locator('.readout-list dd').first().textContent());
  const i = Math.floor(col / 2);
  const angle = row / Math.pow(10000, (2 * i) / 4096);
  const want = col % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
  assert.ok(Math.abs(value - want) < 1e-6, `PE(${row}, ${col}) = ${value}, want ${want}`);
  // Moving past the edge of the window pans it along.
  for (let k = 0; k < r1 - r0 + 3; k++) await page.keyboard.press('ArrowDown');
  const [s0] = await view(page);
  assert.ok(s0 > r0, 'the window followed the cursor down');
  // Dragging moves the content with the pointer: dragging up shows later positions.
  const [d0, , e0] = await view(page);
  const from = await plotPoint(page, 0.5, 0.7);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x - 120, from.y - 150, { steps: 6 });
  await page.mouse.up();
  const [d1, , e1] = await view(page);
  assert.ok(d1 > d0 && e1 > e0, `panned from ${d0},${e0} to ${d1},${e1}`);
  await page.getByRole('button', { name: 'Reset zoom: show everything' }).first().click();
  await page.waitForFunction(() => document.getElementById('encoding-heatmap').dataset.view === '0-65536,0-4096');
  assert.equal(await page.getByRole('button', { name: 'Zoom out' }).first().isDisabled(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a two-finger pinch zooms in on a touch screen, and the buttons zoom too', async () => {
  const { page, errors, context } = await open('?d_model=1024&length=8192', { hasTouch: true });
  const cdp = await context.newCDPSession(page);
  const c = await plotPoint(page, 0.5, 0.5);
  const touch = (type, spread) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [
        { x: c.x - spread, y: c.y, id: 1 },
        { x: c.x + spread, y: c.y, id: 2 },
      ],
    });
  await touch('touchStart', 20);
  for (const spread of [40, 60, 80, 100]) await touch('touchMove', spread);
  await touch('touchEnd', 0);
  await page.waitForFunction(() => {
    const v = document.getElementById('encoding-heatmap').dataset.view.split(/[-,]/).map(Number);
    return v[1] - v[0] < 8192 / 3;
  });
  const [r0, r1] = await view(page);
  // Spreading the fingers 5× apart zooms about 5× around the point between them.
  assert.ok(Math.abs((r1 - r0) - 8192 / 5) < 8192 / 20, `rows ${r0}–${r1}`);
  assert.ok(Math.abs((r0 + r1) / 2 - 4096) < 8192 / 20, 'centred where the fingers were');
  await page.getByRole('button', { name: 'Zoom out' }).first().click();
  await page.waitForFunction((len) => {
    const v = document.getElementById('encoding-heatmap').dataset.view.split(/[-,]/).map(Number);
    return v[1] - v[0] > len;
  }, r1 - r0);
  assert.deepEqual(errors, []);
  await context.close();
});
