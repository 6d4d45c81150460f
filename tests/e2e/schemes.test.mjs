// End-to-end tests of the schemes beyond sinusoidal: each renders in each view, the attention
// demo puts each in its own place, and the numbers the issue names appear on screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, waitForDraws, plotColours, figureDownload, offlineChunk } from './lib.mjs';

const app = useApp();

const open = () => openApp(app);

const TABS = ['heatmap', 'attention', 'offsets', 'compare'];

// Every scheme the app lists (Scheme::ALL, as the sidebar's menu offers it).
const schemesOf = (page) => page.locator('#scheme option').evaluateAll((os) => os.map((o) => o.value));

async function field(page, id, value) {
  await page.locator(`#${id}`).fill(String(value));
  await page.locator(`#${id}`).press('Enter');
}

// The schemes of image patches and video (the link ids issue 32 names): drawn by the Image
// patches view, not on a line of tokens.
const PATCH_SCHEMES = ['vit_sincos', 'vit_learned', 'rope_axial', 'rope_mixed', 'mrope'];

test('every scheme renders in every view without errors', async () => {
  const { page, errors, context } = await open();
  const schemes = await schemesOf(page);
  assert.ok(schemes.length >= 8 && schemes.includes('kerple') && schemes.includes('fire'), schemes.join());
  for (const id of PATCH_SCHEMES) assert.ok(schemes.includes(id), `${id} is not in the menu`);
  for (const scheme of schemes.filter((s) => !PATCH_SCHEMES.includes(s))) {
    await page.selectOption('#scheme', scheme);
    for (const tab of TABS) {
      await page.click(`#tab-${tab}`);
      await page.waitForTimeout(250);
      const charts = await page.locator('[role=tabpanel] canvas.chart-canvas').evaluateAll((cs) => cs.map((c) => c.id));
      if (scheme === 'none' && (tab === 'heatmap' || tab === 'offsets')) {
        await page.getByText('No position information').first().waitFor();
        continue;
      }
      assert.ok(charts.length > 0, `${scheme}/${tab}: no chart`);
      for (const id of charts.slice(0, 3)) {
        await waitForDraws(page, id);
        if (scheme === 'none' && tab === 'compare' && id.endsWith('-a')) continue; // all zeros
        assert.ok((await plotColours(page, id)) >= 2, `${scheme}/${tab}: ${id} is blank`);
      }
      // Every view says where the scheme enters the model.
      if (tab !== 'attention' && scheme !== 'none') {
        const text = await page.locator('[role=tabpanel]').textContent();
        assert.match(text, /Where it enters the model|Added to|Rotates|Nowhere/, `${scheme}/${tab}`);
      }
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a scheme of image patches picked in the settings opens the Image patches view; the tabs of a line say where it is drawn', async () => {
  const { page, errors, context } = await open();
  const selected = (tab) => page.locator(`#tab-${tab}`).getAttribute('aria-selected');
  const link = () => new URL(page.url()).searchParams;
  // Picked on the matrix tab, axial RoPE opens the Image patches view, on its own scheme.
  await page.selectOption('#scheme', 'rope_axial');
  await page.waitForFunction(() => document.getElementById('tab-patches').getAttribute('aria-selected') === 'true');
  assert.equal(await page.locator('#grid-scheme').inputValue(), 'rope_axial');
  assert.equal(link().get('scheme'), 'rope_axial');
  assert.equal(link().get('view'), 'patches');
  await waitForDraws(page, 'patches-chart');
  // The view's own choice of 2-D scheme is the app's scheme too.
  await page.selectOption('#grid-scheme', 'rope_mixed');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('scheme') === 'rope_mixed');
  // The matrix tab says where the scheme is drawn, and its button goes there.
  await page.click('#tab-heatmap');
  assert.equal(await page.locator('#scheme').inputValue(), 'rope_mixed');
  await page.getByText(/mixed RoPE numbers patches by their row and column/).waitFor();
  await page.getByRole('button', { name: 'Open Image patches' }).click();
  await page.waitForFunction(() => document.getElementById('tab-patches').getAttribute('aria-selected') === 'true');
  // The demo's sentences are a line of words: it says so instead of running.
  await page.click('#tab-attention');
  await page.getByText(/This scheme places image patches, not the demo's words/).waitFor();
  await page.getByText('on (rope_mixed)').click();
  await page.getByText(/numbers image patches by their row and column, and the demo's sentences/).first().waitFor();
  assert.equal((await page.locator('#summary-cosine').textContent()).trim(), '—');
  // The compare view draws a line: its partners are the schemes of a line, and column a points away.
  await page.click('#tab-compare');
  const partners = await page.locator('#compare-with option').evaluateAll((os) => os.map((o) => o.value));
  for (const id of PATCH_SCHEMES) assert.ok(!partners.includes(id), `${id} offered as a partner`);
  assert.ok(partners.includes('rope') && partners.includes('none'), partners.join());
  await page.getByRole('button', { name: 'Open Image patches' }).waitFor();
  await waitForDraws(page, 'compare-curve-b');
  // M-RoPE, picked on the "By distance" tab: the patches view points to its own section.
  await page.click('#tab-offsets');
  await page.selectOption('#scheme', 'mrope');
  await page.waitForFunction(() => document.getElementById('tab-patches').getAttribute('aria-selected') === 'true');
  await page.getByRole('button', { name: 'Go to M-RoPE' }).click();
  await page.locator('#mrope-title').waitFor();
  // A scheme of a line picked in the Image patches view's settings opens the matrix, drawn.
  await page.selectOption('#scheme', 'rope');
  await page.locator('[role=tabpanel] canvas.chart-canvas').first().waitFor();
  assert.equal(await selected('heatmap'), 'true');
  assert.equal(await page.getByRole('button', { name: 'Open Image patches' }).count(), 0);
  // An old link's 2-D scheme keeps working, and a link to a scheme of patches opens it.
  await page.goto(`${app.server.url}?view=patches&grid=vit_learned`);
  await page.locator('#grid-scheme').waitFor();
  assert.equal(await page.locator('#grid-scheme').inputValue(), 'vit_learned');
  assert.deepEqual(errors, []);
  await context.close();
});

test('switching schemes updates the attention demo, each in its own place', async () => {
  const { page, context } = await open();
  await page.click('#tab-attention');
  await page.getByText('on (sinusoidal)').click();
  const cosine = async () => (await page.locator('#summary-cosine').textContent()).trim();
  const sinusoidal = await cosine();
  assert.notEqual(sinusoidal, '1.000000');
  const seen = new Map([['sinusoidal', sinusoidal]]);
  for (const scheme of ['learned', 'rope', 't5']) {
    await page.selectOption('#scheme', scheme);
    await page.waitForFunction((prev) => document.getElementById('summary-cosine').textContent.trim() !== prev, seen.get([...seen.keys()].pop()));
    const c = await cosine();
    assert.ok(Number(c) < 0.9999995, `${scheme}: ${c}`);
    seen.set(scheme, c);
  }
  // RoPE rotates q and k: the step-by-step says so.
  await page.selectOption('#scheme', 'rope');
  await page.getByText('3. Queries Q = X·W_Q, rotated').waitFor();
  // ALiBi without a causal mask only sees |i − j|: a sentence and its reversal still tie.
  await page.selectOption('#scheme', 'alibi');
  await page.waitForFunction(() => document.getElementById('summary-cosine').textContent.trim() === '1.000000');
  await page.getByText(/read backwards, which keeps every distance/).waitFor();
  await page.getByText('4. The position bias').waitFor();
  await page.getByText('causal: only earlier words').click();
  await page.waitForFunction(() => Number(document.getElementById('summary-cosine').textContent) < 0.9999995);
  // No scheme at all: a tie again (bidirectional).
  await page.getByText('every word sees every word').click();
  await page.selectOption('#scheme', 'none');
  await page.waitForFunction(() => document.getElementById('summary-cosine').textContent.trim() === '1.000000');
  // A learned table shorter than the sentence: the model cannot run.
  await page.selectOption('#scheme', 'learned');
  await field(page, 'trained-length-value', 2);
  await page.getByText(/has only 2 positions/).waitFor();
  assert.equal(await cosine(), '—');
  await context.close();
});

test('KERPLE and FIRE: their numbers on screen and in the CSV, their sentences in the demo', async () => {
  const { page, errors, context } = await openApp(app, '?scheme=kerple&length=64', { ready: (p) => waitForDraws(p, 'kerple-heatmap') });
  // r1 = 1, r2 = 0.5: distance 1 costs ln 1.5, distance 10 ln 6, distance 100 ln 51.
  await page.getByText(/distance 1 costs 0\.4055, distance 10 costs 1\.792, distance 100 costs 3\.932/).waitFor();
  await field(page, 'kerple-r1-value', 2);
  await page.getByText(/distance 1 costs 0\.8109/).waitFor();
  assert.equal(new URL(page.url()).searchParams.get('r1'), '2');
  await page.click('#tab-offsets');
  await waitForDraws(page, 'kerple-distance-chart');
  const rows = await figureDownload(page, 'kerple-distance-chart');
  assert.equal(rows[0], 'distance,head_0');
  const [d, b] = rows[5].split(',').map(Number);
  assert.equal(d, 4);
  assert.ok(Math.abs(b + 2 * Math.log(1 + 0.5 * 4)) < 1e-8, rows[5]);
  // Without a mask KERPLE sees only |i − j|: the reversed sentence ties, and the demo says why.
  await page.click('#tab-attention');
  await page.getByText(/^on \(/).click();
  await page.waitForFunction(() => document.getElementById('summary-cosine').textContent.trim() === '1.000000');
  await page.getByText(/without a causal mask KERPLE only sees the distance \|i − j\|/).waitFor();
  await page.getByText('causal: only earlier words').click();
  await page.waitForFunction(() => Number(document.getElementById('summary-cosine').textContent) < 0.9999995);
  // FIRE: the network's input stays below 1 at any length, and the snippet carries its weights.
  await page.selectOption('#scheme', 'fire');
  await page.click('#tab-heatmap');
  await waitForDraws(page, 'fire-heatmap');
  await page.getByText(/ψ\(x\) = ln\(0\.1·x \+ 1\), L = 512/).waitFor();
  const code = await page.locator('#code-snippet').textContent();
  assert.match(code, /W1 = np\.array\(\[\[/);
  assert.match(code, /c, L, eps, length, heads, head = 0\.1, 512\.0, 1e-6, 64, 4, 0/);
  // Without a mask and below its threshold FIRE too sees only |i − j|; past it (L = 1) the
  // query's own position enters and the tie breaks.
  await page.click('#tab-attention');
  await page.getByText('every word sees every word').click();
  await page.waitForFunction(() => document.getElementById('summary-cosine').textContent.trim() === '1.000000');
  await page.getByText(/without a causal mask FIRE only sees the distance \|i − j\| \(below its threshold L/).waitFor();
  await field(page, 'fire-threshold-value', 1);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('fire_L') === '1');
  await page.waitForFunction(() => Number(document.getElementById('summary-cosine').textContent) < 0.9999995);
  assert.deepEqual(errors, []);
  await context.close();
});

test('ALiBi slopes and T5 buckets are the reference values', async () => {
  const { page, context } = await open();
  await page.selectOption('#scheme', 'alibi');
  await page.getByText(/0\.500, 0\.250, 0\.125, 0\.0625, 0\.0312, 0\.0156, 0\.00781, 0\.00391/).waitFor();
  await field(page, 'alibi-heads-value', 12);
  await page.getByText(/0\.00391, 0\.707, 0\.354, 0\.177, 0\.0884/).waitFor();
  await page.selectOption('#scheme', 't5');
  await page.click('#tab-offsets');
  await waitForDraws(page, 't5-distance-chart');
  await field(page, 'length-value', 200);
  const rows = await figureDownload(page, 't5-distance-chart');
  assert.equal(rows[0], 'relative_position,bucket,bias');
  const bucket = new Map(rows.slice(1).map((r) => r.split(',').map(Number)).map(([r, b]) => [r, b]));
  for (const [r, b] of [[7, 23], [8, 24], [90, 30], [91, 31], [-91, 15]]) assert.equal(bucket.get(r), b, `r = ${r}`);
  await context.close();
});

test('RoPE: the LLaMA 3 base is one click away and extension changes the curves', async () => {
  const { page, context } = await open();
  await page.selectOption('#scheme', 'rope');
  await page.getByRole('button', { name: /500,000/ }).click();
  assert.equal(await page.locator('#base-value').inputValue(), '500000');
  await page.click('#tab-offsets');
  await waitForDraws(page, 'rope-distance-chart');
  await page.getByText(/moving both positions together changes the score by at most/).waitFor();
  const before = await page.locator('#rope-distance-chart').getAttribute('aria-label');
  await page.getByText('NTK-aware base').click();
  await page.waitForFunction((b) => document.getElementById('rope-distance-chart').getAttribute('aria-label') !== b, before);
  assert.match(await page.locator('#rope-distance-chart').getAttribute('aria-label'), /NTK-aware base ×4/);
  await context.close();
});

test('RoPE: a published configuration loads in one click, a pasted one too, and bad JSON says why', async () => {
  const { page, errors, context } = await openApp(app, '?view=offsets&scheme=rope', { ready: (p) => p.waitForSelector('#rope-preset') });
  await page.selectOption('#rope-preset', 'llama-3.1-8b');
  await page.waitForFunction(() => /extension=llama3/.test(location.search));
  for (const p of ['base=500000', 'trained=8192', 'factor=8']) assert.match(page.url(), new RegExp(p));
  await page.locator('#rope-config-note').getByText(/Loaded Llama 3\.1 8B/).waitFor();
  // The pairs chart says what the method did: left alone, interpolated, ramped.
  const summary = await page.locator('#rope-pairs-summary').textContent();
  assert.match(summary, /left alone/);
  assert.match(summary, /interpolated/);
  assert.match(summary, /ramped/);
  await page.locator('details.rope-paste summary').click();
  await page.fill('#rope-config', '{"head_dim": 64, "rope_theta": 10000, "rope_scaling": {"type": "yarn", "factor": 16, "original_max_position_embeddings": 4096}}');
  await page.click('#rope-config-apply');
  await page.waitForFunction(() => /extension=yarn/.test(location.search) && /d_model=64/.test(location.search));
  assert.match(await page.locator('#rope-pairs-summary').textContent(), /attention factor 1\.27/);
  for (const bad of ['{"rope_scaling": {', '<script>alert(1)</script>', '{"rope_scaling": {"type": "longrope"}}', '[' .repeat(5000)]) {
    await page.fill('#rope-config', bad);
    await page.click('#rope-config-apply');
    await page.locator('#rope-config-note.note-error').waitFor();
  }
  assert.match(page.url(), /extension=yarn/, 'a refused paste changes nothing');
  assert.deepEqual(errors, []);
  await context.close();
});

test('RoPE: check your own numbers with a typed q and k, in the link; a bad vector says why', async () => {
  const { page, errors, context } = await openApp(app, '?scheme=rope&d_model=4&length=10', { ready: (p) => waitForDraws(p, 'rope-heatmap') });
  const typeVector = async (id, text) => {
    await page.fill(`#${id}`, text);
    await page.press(`#${id}`, 'Tab');
  };
  await typeVector('rope-check-q', '1, 1, 0, 0');
  await typeVector('rope-check-k', '[1 1 0 0]');
  for (const [id, v] of [['rope-check-m-value', '3'], ['rope-check-n-value', '1']]) {
    await page.fill(`#${id}`, v);
    await page.press(`#${id}`, 'Enter');
  }
  await page.waitForFunction(() => {
    const q = new URL(location.href).searchParams;
    return q.get('qv') === '1,1,0,0' && q.get('kv') === '1,1,0,0' && q.get('m') === '3' && q.get('n') === '1';
  });
  // d = 4, base 10,000: θ = 1 and 0.01. Rotate-half: cos 2 + cos 0.02; adjacent pairs: 2·cos 2.
  // The check is a part of its own (src/ui/parts.rs): after a reload it fills in once the matrix is drawn.
  const row = async (n) => {
    const tr = page.locator('#rope-check-scores tbody tr').nth(n);
    await tr.waitFor();
    return (await tr.locator('td').allTextContents()).map(Number);
  };
  const [half, adjacent] = await row(0);
  assert.ok(Math.abs(half - (Math.cos(2) + Math.cos(0.02))) < 1e-8, `rotate-half ${half}`);
  assert.ok(Math.abs(adjacent - 2 * Math.cos(2)) < 1e-8, `adjacent ${adjacent}`);
  assert.deepEqual(await row(1), [half, adjacent], 'the score at (m − n, 0) is the same');
  // A refused vector says why next to the field and changes nothing.
  await typeVector('rope-check-q', '1, nan, 0, 0');
  await page.locator('#rope-check-q ~ p.note-error').waitFor();
  assert.equal(new URL(page.url()).searchParams.get('qv'), '1,1,0,0');
  // The link carries the check: reload and read the same scores.
  await page.reload();
  await waitForDraws(page, 'rope-heatmap');
  assert.deepEqual(await row(0), [half, adjacent]);
  // The RoPE table's CSV is the cos and sin cache: position, 4 cos, 4 sin.
  const lines = await figureDownload(page, 'rope-heatmap');
  assert.equal(lines[0], 'position,cos_0,cos_1,cos_2,cos_3,sin_0,sin_1,sin_2,sin_3');
  const one = lines[2].split(',').map(Number);
  assert.ok(Math.abs(one[1] - Math.cos(1)) < 1e-8 && Math.abs(one[5] - Math.sin(1)) < 1e-8, lines[2]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('RoPE: the check of your own numbers comes after the view, from a chunk of its own; offline, the matrix is drawn and the check says so in its place, and Try again draws it', async (t) => {
  const { context, page, thrown, online } = await offlineChunk(app, 'rope_extras');
  t.after(() => context.close());
  await page.goto(app.server.url + '?scheme=rope&view=heatmap');
  await waitForDraws(page, 'rope-heatmap');
  // The app took over from the first paint without the part.
  await page.waitForFunction(() => !document.getElementById('early'));
  const note = page.locator('section[aria-labelledby="rope-title"] .view-failed');
  await note.waitFor();
  assert.match(await note.textContent(), /This part of the view could not be loaded right now\. Check the connection and try again/);
  assert.equal(await page.locator('#rope-check-q').count(), 0);
  // The rest of the app works meanwhile: a slider still moves the matrix.
  const before = await page.locator('#rope-heatmap').getAttribute('data-draws');
  await page.locator('#d-model-slider').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((n) => Number(document.getElementById('rope-heatmap').dataset.draws) > n, Number(before));
  online();
  await note.getByRole('button', { name: 'Try again' }).click();
  await page.locator('#rope-check-q').waitFor();
  await page.locator('#rope-cache-positions').waitFor();
  await note.waitFor({ state: 'detached' });
  assert.deepEqual(thrown, []);
});

test("t2t: fairseq's padding_idx shifts the positions, in the matrix and the link", async () => {
  const { page, errors, context } = await openApp(app, '?variant=t2t&d_model=4&length=5');
  await page.check('#padding-idx-on');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('padding_idx') === '1');
  const first = (await figureDownload(page, 'encoding-heatmap'))[1].split(',').slice(1).map(Number);
  // Token 0 reads table row padding_idx + 1 = 2: sin and cos of 2·ω with ω = 1 and 10⁻⁴.
  const expected = [Math.sin(2), Math.sin(2e-4), Math.cos(2), Math.cos(2e-4)];
  first.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < 1e-8, `dim ${i}: ${v}`));
  assert.match(await page.locator('#code-snippet').textContent(), /padding_idx = 1/);
  assert.deepEqual(errors, []);
  await context.close();
});
