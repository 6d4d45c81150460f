// The first paint: before the app has arrived, the small first module has drawn the live
// heatmap, its sliders redraw it and keep the address in step, and the app then takes over from
// that state. Other addresses wait for the app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, waitForDraws } from './lib.mjs';

const app = useApp();

test('the first module draws a live heatmap before the app arrives, and the app takes over', async () => {
  let release;
  const held = new Promise((r) => (release = r));
  const { page, errors, context } = await openApp(app, '?d_model=64', { ready: null, context: { viewport: { width: 1200, height: 900 } } });
  // (openApp navigated already: hold the app's module on a second load.)
  await page.route('**/app/pe-explorer.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(app.server.url + '?d_model=64');
  await waitForDraws(page, 'early-heatmap');
  assert.equal(await page.locator('#encoding-heatmap').count(), 0, 'the app is not there yet');
  // The slider is live: it redraws the chart and writes the address.
  const before = Number(await page.locator('#early-heatmap').getAttribute('data-draws'));
  await page.locator('#early-length').focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await waitForDraws(page, 'early-heatmap', before + 5);
  const length = new URL(page.url()).searchParams.get('length');
  assert.ok(Number(length) > 100, `length in the address: ${length}`);
  assert.equal(new URL(page.url()).searchParams.get('d_model'), '64');
  // The app arrives, starts from that address, and the early page is gone.
  release();
  await waitForDraws(page, 'encoding-heatmap');
  assert.equal(await page.locator('#early').count(), 0);
  assert.equal(await page.locator('#length-value').inputValue(), length);
  assert.equal(await page.locator('#d-model-value').inputValue(), '64');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an address for another view draws nothing early and opens that view', async () => {
  const { page, errors, context } = await openApp(app, '?view=offsets&d_model=32', { ready: (p) => waitForDraws(p, 'offsets-chart') });
  assert.equal(await page.locator('#early, #early-heatmap').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
