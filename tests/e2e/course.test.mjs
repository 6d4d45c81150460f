// End-to-end tests of what teachers and course pages rely on: state in the address, bad links,
// embedding (sandboxed, sized by message), exports and generated code, no
// requests elsewhere, and the keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { useApp, openApp, waitForDraws, draws, slide, figureDownload } from './lib.mjs';


const app = useApp();

const open = (query = '', options = {}) => openApp(app, query, { context: options, ready: null });

const value = (page, id) => page.locator(`#${id}`).inputValue();

test('a link restores its state, moving a slider updates the address, reload keeps it', async () => {
  const { page, errors, context } = await open('?view=offsets&scheme=sinusoidal&variant=split&d_model=48&length=120&base=500&anchors=2,40&normalised=1');
  await waitForDraws(page, 'offsets-chart');
  assert.equal(await value(page, 'd-model-value'), '48');
  assert.equal(await value(page, 'length-value'), '120');
  assert.equal(await value(page, 'base-value'), '500');
  assert.equal(await page.locator('#variant').inputValue(), 'split');
  assert.equal(await page.locator('#tab-offsets').getAttribute('aria-selected'), 'true');
  assert.equal(await value(page, 'anchors'), '2, 40');
  assert.ok(await page.locator('#normalised').isChecked());
  const position = Number(await page.locator('#d-model-slider').inputValue());
  await slide(page, '#d-model-slider', position + 30);
  await page.waitForFunction(() => !location.search.includes('d_model=48'));
  const moved = await value(page, 'd-model-value');
  assert.match(page.url(), new RegExp(`d_model=${moved}(&|$)`));
  await page.reload();
  await waitForDraws(page, 'offsets-chart');
  assert.equal(await value(page, 'd-model-value'), moved);
  assert.equal(await page.locator('#variant').inputValue(), 'split');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a bad link still loads, with a notice naming what changed, and nothing is injected', async () => {
  const { page, errors, dialogs, context } = await open('?d_model=-5&length=1e12&base=NaN&view=%3Cscript%3Ealert(1)%3C/script%3E&zzz=%3Cimg%20src=x%20onerror=alert(2)%3E');
  await waitForDraws(page, 'encoding-heatmap');
  const notices = await page.locator('.notices').textContent();
  for (const needle of ['d_model=-5', 'length=1e12', 'base=NaN', 'view=<script>', 'zzz']) {
    assert.ok(notices.includes(needle), `notice missing ${needle}: ${notices}`);
  }
  assert.equal(await value(page, 'd-model-value'), '2');
  assert.equal(await value(page, 'length-value'), '65536');
  assert.equal(await value(page, 'base-value'), '10000');
  assert.equal(await page.locator('img[src=x], .notices script').count(), 0);
  assert.deepEqual(dialogs, []);
  // The page still works: the address is cleaned and sliders still draw.
  await page.waitForFunction(() => !location.search.includes('script'));
  const n = await draws(page, 'encoding-heatmap');
  await slide(page, '#d-model-slider', 200);
  await waitForDraws(page, 'encoding-heatmap', n + 1);
  await page.getByRole('button', { name: 'Dismiss' }).click();
  assert.equal(await page.locator('.notices').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('embed mode shows one panel without page chrome; controls=none hides the settings', async () => {
  const { page, context } = await open('?embed=offsets&d_model=32&length=80');
  await waitForDraws(page, 'offsets-chart');
  assert.equal(await page.locator('.site-header, [role=tablist], .sidebar, .site-footer').count(), 0);
  assert.equal(await page.locator('.embed-controls').count(), 1);
  assert.equal(await page.locator('section.panel h2').first().textContent(), 'Dot product by offset');
  const width = await page.locator('.embed').evaluate((e) => e.getBoundingClientRect().width);
  assert.ok(width > 1300, `the panel fills the frame (${width} px)`);
  await page.goto(app.server.url + '?embed=attention&controls=none');
  await waitForDraws(page, 'attention-a');
  assert.equal(await page.locator('.embed-controls, .settings').count(), 0);
  assert.match(await page.locator('.embed-footer a').getAttribute('href'), /^http:\/\/127\.0\.0\.1:\d+\/\?view=attention$/);
  await context.close();
});

test('inside a sandboxed iframe the panel renders and posts its height', async () => {
  // The outer page starts as the app, fully loaded (the app clears its page when it mounts).
  const { page, errors, context } = await openApp(app, '');
  await page.setContent(`<!DOCTYPE html><html><body>
    <iframe id="f" sandbox="allow-scripts" style="width:900px;height:300px;border:0"
      src="${app.server.url}?embed=heatmap&d_model=32&length=40"></iframe>
    <script>
      window.heights = [];
      addEventListener("message", (e) => {
        if (e.data && e.data.type === "pe-explorer:height") {
          window.heights.push(e.data);
          document.getElementById("f").style.height = e.data.height + "px";
        }
      });
    </script></body></html>`);
  await page
    .waitForFunction(() => window.heights.length > 0 && window.heights.at(-1).height > 500, null, { timeout: 30000 })
    .catch(async (e) => {
      const heights = await page.evaluate(() => JSON.stringify(window.heights));
      throw new Error(`${e.message}; heights posted: ${heights}; errors: ${errors.join(' | ')}`);
    });
  const last = await page.evaluate(() => window.heights.at(-1));
  assert.equal(last.view, 'heatmap');
  const frame = page.frameLocator('#f');
  await frame.locator('#encoding-heatmap').waitFor();
  const drawn = await frame.locator('#encoding-heatmap').getAttribute('data-draws');
  assert.ok(Number(drawn) >= 1, 'the heatmap drew inside the sandbox');
  // Changing a setting that changes the height posts a new height.
  const before = await page.evaluate(() => window.heights.length);
  await frame.locator('#scheme').selectOption('alibi');
  await page.waitForFunction((n) => window.heights.length > n, before);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Downloads the position-matrix CSV and runs the NumPy snippet; both must agree. */
async function compareSnippet(page, chart, label) {
  const csv = (await figureDownload(page, chart)).slice(1)
    .map((line) => line.split(',').slice(1).map(Number));
  const code = await page.locator('#code-snippet').textContent();
  const file = path.join(os.tmpdir(), `pe-snippet-${process.pid}.py`);
  fs.writeFileSync(file, `${code}\nimport sys\nnp.savetxt(sys.stdout, np.asarray(matrix, dtype=np.float64), delimiter=",", fmt="%.12g")\n`);
  const out = execFileSync('python3', [file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const numpy = out.trim().split('\n').map((line) => line.split(',').map(Number));
  assert.equal(numpy.length, csv.length, `${label}: rows`);
  for (let r = 0; r < csv.length; r++) {
    assert.equal(numpy[r].length, csv[r].length, `${label}: columns of row ${r}`);
    for (let c = 0; c < csv[r].length; c++) {
      const [a, b] = [csv[r][c], numpy[r][c]];
      if (Number.isNaN(a) || Number.isNaN(b)) {
        assert.ok(Number.isNaN(a) && Number.isNaN(b), `${label} (${r}, ${c}): ${a} vs ${b}`);
      } else {
        assert.ok(Math.abs(a - b) <= 1e-7 * Math.max(1, Math.abs(b)), `${label} (${r}, ${c}): app ${a}, numpy ${b}`);
      }
    }
  }
}

test('the generated NumPy code reproduces the CSV for every scheme', async () => {
  const cases = [
    ['?d_model=9&length=30&base=100', 'encoding-heatmap', 'paper, odd width'],
    ['?variant=split&d_model=9&length=20', 'encoding-heatmap', 'split'],
    ['?variant=t2t&d_model=7&length=20&base=50', 'encoding-heatmap', 't2t, odd width'],
    ['?variant=tutorial-bug&d_model=12&length=25', 'encoding-heatmap', 'tutorial-bug'],
    ['?scheme=learned&d_model=16&length=20&trained=12&seed=7', 'learned-heatmap', 'learned'],
    ['?scheme=rope&d_model=11&length=30&rope_pairing=adjacent&extension=pi&factor=4', 'rope-heatmap', 'rope, PI'],
    ['?scheme=rope&d_model=16&length=30&extension=ntk&factor=8', 'rope-heatmap', 'rope, NTK'],
    ['?scheme=rope&d_model=32&length=40&base=500000&trained=16&extension=llama3&factor=8', 'rope-heatmap', 'rope, llama3'],
    ['?scheme=rope&d_model=32&length=40&trained=16&extension=yarn&factor=16', 'rope-heatmap', 'rope, YaRN'],
    ['?scheme=rope&d_model=32&length=40&trained=16&extension=dynamic&factor=2', 'rope-heatmap', 'rope, dynamic NTK past the original'],
    ['?scheme=rope&d_model=20&length=30&rotary=0.4', 'rope-heatmap', 'rope, partial rotary 0.4'],
    ['?scheme=alibi&length=24&heads=12&head=10', 'alibi-heatmap', 'alibi'],
    ['?scheme=kerple&length=30&r1=1.5&r2=0.25', 'kerple-heatmap', 'kerple'],
    ['?scheme=fire&length=40&fire_L=8&fire_heads=3&fire_head=2&seed=5', 'fire-heatmap', 'fire, past its threshold'],
    ['?scheme=t5&length=200&buckets=32&max_distance=128', 't5-buckets', 't5'],
    ['?scheme=t5&length=150&bidirectional=0&buckets=16&max_distance=64', 't5-buckets', 't5 causal'],
    ['?scheme=t5&length=40&buckets=32&max_distance=6', 't5-buckets', 't5, max_distance below max_exact'],
  ];
  const { page, context } = await open();
  for (const [query, chart, label] of cases) {
    await page.goto(app.server.url + query);
    await waitForDraws(page, chart);
    await compareSnippet(page, chart, label);
  }
  await context.close();
});

test('no request leaves the app during a full session, and it keeps working offline', async () => {
  const { page, errors, context } = await open();
  const foreign = [];
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(app.server.url) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  await waitForDraws(page, 'encoding-heatmap');
  for (const scheme of ['sinusoidal', 'rope', 'alibi']) {
    await page.selectOption('#scheme', scheme);
    for (const tab of await page.locator('[role=tab]').all()) {
      await tab.click();
      await page.waitForTimeout(120);
    }
  }
  const failed = [];
  page.on('requestfailed', (r) => failed.push(r.url()));
  await context.setOffline(true);
  await page.locator('#tab-heatmap').click();
  await page.selectOption('#scheme', 't5');
  await page.locator('#length-value').fill('300');
  await page.locator('#length-value').press('Enter');
  await waitForDraws(page, 't5-buckets');
  assert.deepEqual(foreign, []);
  assert.deepEqual(failed, [], 'nothing is fetched once the app has loaded');
  assert.deepEqual(errors, []);
  await context.close();
});

test('dark mode follows the system and the toggle; every chart has a data table on request', async () => {
  const { page, context } = await open('', { colorScheme: 'dark' });
  await waitForDraws(page, 'encoding-heatmap');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await background();
  await page.getByRole('button', { name: 'Light', exact: true }).click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  assert.notEqual(await background(), dark);
  assert.match(page.url(), /theme=light/);
  await page.getByRole('button', { name: /Data table of Sinusoidal PE/ }).click();
  const table = page.locator('.data-table table');
  await table.waitFor();
  assert.match(await table.locator('caption').textContent(), /first 40 of 100 rows and 12 of 128 columns/);
  assert.equal(await table.locator('tbody tr').count(), 40);
  assert.equal(await table.locator('tbody tr').first().locator('td').first().textContent(), '0');
  await context.close();
});

test('the keyboard reaches and operates every kind of control', async () => {
  const { page, context } = await open('?d_model=32&length=40');
  await waitForDraws(page, 'encoding-heatmap');
  // Tab through the page and collect what gets focus.
  const seen = new Set();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const a = document.activeElement;
      return a.id || a.getAttribute('aria-label') || a.textContent.trim().slice(0, 30);
    });
    seen.add(id);
  }
  for (const id of ['scheme', 'd-model-value', 'd-model-slider', 'length-slider', 'base-value', 'variant', 'palette', 'tab-heatmap', 'encoding-heatmap']) {
    assert.ok(seen.has(id), `Tab never reached #${id}; reached ${[...seen].join(' | ')}`);
  }
  // A slider with arrow keys.
  await page.locator('#length-slider').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await value(page, 'length-value'), '41');
  // A select with the keyboard.
  await page.locator('#variant').focus();
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.getElementById('variant').value === 'split');
  // Tabs with arrow keys.
  await page.locator('#tab-heatmap').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.activeElement.id === 'tab-attention');
  assert.equal(await page.locator('#tab-attention').getAttribute('aria-selected'), 'true');
  // A button with Enter, a toggle with Space.
  await page.getByText('on (sinusoidal)').focus().catch(() => {});
  await page.locator('#attention-position-on').focus();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.getElementById('summary-cosine').textContent.trim() !== '1.000000');
  // A chart with arrow keys: the readout follows.
  await page.locator('#tab-heatmap').click();
  await waitForDraws(page, 'encoding-heatmap');
  await page.locator('#encoding-heatmap').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await page.locator('.readout-title', { hasText: 'position 1, dimension 1' }).waitFor();
  // Focus is visible.
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none');
  await context.close();
});
