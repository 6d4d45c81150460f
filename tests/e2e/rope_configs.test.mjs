// End-to-end tests of RoPE configs as checkpoints ship them (issue 19, parts 1 and 2): the paste
// box reads real configs exactly and lists what it read, refuses everything else with one
// sentence and changes nothing, costs no main-thread task beyond a plain textarea's on a 10 MB
// paste; the four configs of the issue give transformers' frequencies through the page's CSV;
// the cos/sin cache at listed positions matches the NumPy snippet there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { useApp, openApp, waitForDraws, figureDownload, holdApp } from './lib.mjs';

const app = useApp();

const GPT_OSS = '{"head_dim":64,"rope_theta":150000,"rope_scaling":{"rope_type":"yarn","factor":32.0,"beta_fast":32.0,"beta_slow":1.0,"original_max_position_embeddings":4096,"truncate":false}}';
const QWEN_1M = '{"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 1010000, "rope_theta": 10000000.0}';
const ODD_PARTIAL = '{"head_dim": 64, "partial_rotary_factor": 0.4, "rope_theta": 10000.0}';

// ----- transformers' formulas, written again from modeling_rope_utils (not from the app) -----

/** `1 / base ** (arange(0, dim, 2) / dim)`. */
const defaultInv = (base, dim) => {
  const out = [];
  for (let i = 0; i < dim; i += 2) out.push(1 / base ** (i / dim));
  return out;
};

/** `_compute_yarn_parameters` with `truncate`. */
function yarnInv(base, dim, factor, original, betaFast, betaSlow, truncate) {
  const corr = (rot) => (dim * Math.log(original / (rot * 2 * Math.PI))) / (2 * Math.log(base));
  let [low, high] = [corr(betaFast), corr(betaSlow)];
  if (truncate) [low, high] = [Math.floor(low), Math.ceil(high)];
  [low, high] = [Math.max(low, 0), Math.min(high, dim - 1)];
  if (low === high) high += 0.001;
  return defaultInv(base, dim).map((extrapolation, i) => {
    const ramp = Math.min(1, Math.max(0, (i - low) / (high - low)));
    const keep = 1 - ramp;
    return (extrapolation / factor) * (1 - keep) + extrapolation * keep;
  });
}

/** `_compute_longrope_parameters`: the factors as float32, long past the original. */
const longropeInv = (base, dim, factors) => defaultInv(base, dim).map((f, i) => f / Math.fround(factors[i]));

// microsoft/Phi-3.5-mini-instruct config.json: rope_scaling's factors (θ 10,000, head_dim 96,
// original 4,096, max_position_embeddings 131,072).
const PHI_3_5_LONG = [1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115, 1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523, 32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457, 62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688, 64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062];
const PHI_3_5_SHORT = [1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684, 1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788, 1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533, 2.729999542236328, 2.749999523162842, 2.8399994373321533];

// ----- helpers -----

async function openRope(query = '', context = {}) {
  const opened = await openApp(app, `?scheme=rope&view=offsets${query}`, { context, ready: (p) => p.waitForSelector('details.rope-paste') });
  await openPaste(opened.page);
  return opened;
}

/** Opens the paste box if it is closed. */
async function openPaste(page) {
  if (!(await page.locator('details.rope-paste').evaluate((d) => d.open))) await page.locator('details.rope-paste summary').click();
}

/** Pastes `text` into the box and presses Apply; returns the note once it is rewritten. */
async function paste(page, text) {
  await openPaste(page);
  const count = await page.evaluate(() => document.getElementById('rope-config-note')?.dataset.count ?? '0');
  await page.fill('#rope-config', text);
  await page.click('#rope-config-apply');
  await page.waitForFunction((c) => (document.getElementById('rope-config-note')?.dataset.count ?? '0') !== c, count);
  const note = page.locator('#rope-config-note');
  return { text: await note.textContent(), error: (await note.getAttribute('class')).includes('note-error') };
}

/** Every sidebar value and the address: what a refusal must leave exactly as it was. */
async function snapshot(page) {
  return page.evaluate(() => ({
    search: location.search,
    fields: [...document.querySelectorAll('.settings input, .settings select')].map((e) => `${e.id}=${e.type === 'checkbox' || e.type === 'radio' ? e.checked : e.value}`),
  }));
}


/** The pairs chart's CSV as [pair, theta_scaled]. */
async function scaledThetas(page) {
  await waitForDraws(page, 'rope-pairs-chart');
  const lines = await figureDownload(page, 'rope-pairs-chart');
  assert.equal(lines[0].split(',')[4], 'theta_scaled');
  return lines.slice(1).map((l) => Number(l.split(',')[4]));
}

function agree(label, got, want) {
  assert.equal(got.length, want.length, `${label}: pairs`);
  got.forEach((g, i) => assert.ok(Math.abs(g - want[i]) <= 1e-6 * Math.abs(want[i]), `${label}: pair ${i}: app ${g}, transformers ${want[i]}`));
}

// ----- tests -----

test('a paste that names nothing, or names it wrongly, is refused in one sentence and changes nothing', async () => {
  const { page, errors, context } = await openRope('&d_model=64&base=500000&extension=llama3&factor=8&trained=8192&length=2000');
  const start = await snapshot(page);
  const cases = [
    ['{}', /Nothing here sets RoPE/],
    ['{"model_type":"bert","vocab_size":30522}', /Nothing here sets RoPE/],
    ['{"rope_theta":"500000","rope_scaling":{"type":"linear","factor":"4"}}', /rope_theta is the text “500000”, not a number/],
    ['{"rope_scaling":{"type":"linear","factor":"4"}}', /factor is the text “4”, not a number/],
    ['{"rope_theta": NaN}', /rope_theta is NaN, not a finite number/],
    ['{"rope_theta": 10000, "rope_scaling": {"type": "yarn", "factor": Infinity}}', /factor is Infinity, not a finite number/],
    ['{"rope_scaling": {"rope_type": 3, "factor": 2}}', /rope_type must be a name/],
    ['{"rope_theta": 10000, "rope_scaling": "yarn"}', /rope_scaling must be an object/],
    ['{"rope_scaling": {"rope_type": "yarn", "original_max_position_embeddings": 4096}}', /yarn needs a factor/],
    ['{"rope_scaling": {"rope_type": "llama3", "low_freq_factor": 1, "high_freq_factor": 4}}', /llama3 needs a factor/],
    ['{"head_dim": 96, "rope_scaling": {"type": "longrope", "factor": 4}}', /longrope needs short_factor and long_factor/],
    ['{"rope_scaling": {"type": "mrope"}}', /rope_type “mrope” is not one the app computes/],
    ['{"rope_scaling": {', /not valid JSON/],
    ['<script>alert(1)</script>', /not valid JSON/],
  ];
  for (const [text, sentence] of cases) {
    const note = await paste(page, text);
    assert.ok(note.error, `${text}: ${note.text}`);
    assert.match(note.text, sentence, text);
    assert.match(note.text, /[.]$/, 'a sentence');
    assert.ok(!note.text.includes('Loaded'), text);
    assert.deepEqual(await snapshot(page), start, `${text} changed a setting`);
  }
  // A byte-order mark before the JSON is skipped.
  const bom = await paste(page, '\uFEFF{"rope_theta": 1000000.0}');
  assert.ok(!bom.error, bom.text);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('base') === '1000000');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an applied paste lists what it read and where from, and every value it clamped, old and new', async () => {
  const { page, errors, context } = await openRope();
  const qwen = await paste(page, QWEN_1M);
  assert.ok(!qwen.error, qwen.text);
  for (const part of ['θ 10,000,000 (rope_theta)', 'head_dim 128 = hidden_size 3584 / num_attention_heads 28', 'trained length 1,010,000 (max_position_embeddings)', 'plain RoPE']) {
    assert.ok(qwen.text.includes(part), `${part} not in: ${qwen.text}`);
  }
  assert.match(qwen.text, /length 1,010,000 .*65,536/);
  await page.waitForFunction(() => {
    const q = new URL(location.href).searchParams;
    return q.get('base') === '10000000' && q.get('trained') === '1010000';
  });
  assert.equal(await page.locator('#d-model-value').inputValue(), '128');
  // An absurd factor is clamped, and the note says from what to what.
  const huge = await paste(page, '{"rope_scaling": {"type": "linear", "factor": 1e308}}');
  assert.ok(!huge.error, huge.text);
  assert.match(huge.text, /1e308 is above the maximum for scale factor s \(1 … 1024\); using 1024/);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('factor') === '1024');
  // A bare rope_scaling object leaves θ and d_model as they were.
  assert.match(page.url(), /base=10000000/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the four configs of the issue give the frequencies transformers gives, through the CSV', async () => {
  const { page, errors, context } = await openRope();
  // Qwen2.5-1M: θ 10⁷ over 128.
  await paste(page, QWEN_1M);
  agree('Qwen2.5-1M', await scaledThetas(page), defaultInv(1e7, 128));
  // gpt-oss: YaRN ×32 without truncation; the sidebar shows the setting.
  await paste(page, GPT_OSS);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('truncate') === '0');
  assert.equal(await page.locator('#rope-truncate').isChecked(), false);
  agree('gpt-oss', await scaledThetas(page), yarnInv(150000, 64, 32, 4096, 32, 1, false));
  // Phi-3.5-mini, its published short and long factors (long: the view is past 4,096).
  await page.selectOption('#rope-preset', 'phi-3.5-mini');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('extension') === 'longrope');
  assert.match(await page.locator('#rope-config-note').textContent(), /Phi-3\.5/);
  const thetas = await scaledThetas(page);
  agree('Phi-3.5 long', thetas, longropeInv(10000, 96, PHI_3_5_LONG));
  assert.match(await page.locator('#rope-pairs-summary').textContent(), /long_factor/);
  // The link holds the factors: reloading gives the same numbers.
  await page.reload();
  await page.waitForSelector('#rope-pairs-chart');
  assert.deepEqual(await scaledThetas(page), thetas);
  // Short factors at or below the original length.
  await page.fill('#length-value', '4096');
  await page.press('#length-value', 'Enter');
  await page.waitForFunction(() => /short_factor/.test(document.getElementById('rope-pairs-summary').textContent));
  agree('Phi-3.5 short', await scaledThetas(page), longropeInv(10000, 96, PHI_3_5_SHORT));
  // The odd partial width: 13 frequencies over 25; sidebar and check panel both say 26.
  await paste(page, ODD_PARTIAL);
  agree('partial 0.4 of 64', await scaledThetas(page), defaultInv(10000, 25));
  assert.match(await page.locator('.settings').textContent(), /26 of 64 dimensions rotated/);
  assert.match(await page.locator('.rope-check').textContent(), /26 of 64 dimensions rotated/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the cos/sin cache at listed positions, past the view length, matches the NumPy snippet there', async () => {
  const { page, errors, context } = await openRope();
  await paste(page, GPT_OSS);
  await page.click('#tab-heatmap');
  await waitForDraws(page, 'rope-heatmap');
  const positions = [0, 1, 4095, 131071];
  await page.fill('#rope-cache-positions', positions.join(','));
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('#rope-cache-download')]);
  const lines = fs.readFileSync(await file.path(), 'utf8').trim().split('\n');
  assert.equal(lines.length, 1 + positions.length);
  assert.equal(lines[0].split(',').length, 1 + 2 * 64);
  const rows = lines.slice(1).map((l) => l.split(',').map(Number));
  assert.deepEqual(rows.map((r) => r[0]), positions);
  // The NumPy snippet, with its positions set to the listed ones.
  const code = await page.locator('#code-snippet').textContent();
  assert.match(code, /^positions = /m);
  const edited = code.replace(/^positions = .*$/m, `positions = np.array([${positions.join(', ')}], dtype=np.float64)`)
    .replace(/^d_model, length = (\d+), \d+$/m, `d_model, length = $1, ${positions.at(-1) + 1}`);
  const script = path.join(os.tmpdir(), `pe-cache-${process.pid}.py`);
  fs.writeFileSync(script, `${edited}\nimport sys\nnp.savetxt(sys.stdout, np.asarray(matrix, dtype=np.float64), delimiter=",", fmt="%.12g")\n`);
  const numpy = execFileSync('python3', [script], { encoding: 'utf8' }).trim().split('\n').map((l) => l.split(',').map(Number));
  assert.equal(numpy.length, positions.length);
  rows.forEach((row, r) => row.slice(1).forEach((v, c) => {
    assert.ok(Math.abs(v - numpy[r][c]) <= 1e-7, `position ${positions[r]}, column ${c}: app ${v}, numpy ${numpy[r][c]}`);
  }));
  // A bad list is refused next to the field.
  await page.fill('#rope-cache-positions', '0, x');
  await page.click('#rope-cache-download');
  await page.locator('#rope-cache-note.note-error').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

/** The longest main-thread task (ms) while `action` runs and the page settles; 0 if none ≥ 50 ms. */
async function longestTask(page, action) {
  await page.evaluate(() => {
    window.__longtasks = [];
    window.__observer?.disconnect();
    window.__observer = new PerformanceObserver((list) => window.__longtasks.push(...list.getEntries().map((e) => e.duration)));
    window.__observer.observe({ type: 'longtask' });
  });
  await action();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 400)))));
  return page.evaluate(() => Math.max(0, ...window.__longtasks));
}

test('a 10 MB paste and typing after it cost no task beyond what a plain textarea costs', async () => {
  const { page, errors, context } = await openRope('', { permissions: ['clipboard-read', 'clipboard-write'] });
  // A plain textarea of the same size and settings, in the same page.
  await page.evaluate(() => {
    const box = document.getElementById('rope-config');
    const plain = document.createElement('textarea');
    plain.id = 'plain-textarea';
    plain.rows = box.rows;
    plain.spellcheck = false;
    plain.className = box.className;
    plain.style.width = `${box.getBoundingClientRect().width}px`;
    document.body.prepend(plain);
  });
  const big = `{"a": "${'x'.repeat(10 * 1024 * 1024)}"}`;
  await page.evaluate((text) => navigator.clipboard.writeText(text), big);
  const held = (id) => page.evaluate((id) => document.getElementById(id).value.length, id);
  const pasteInto = (id) => async () => {
    await page.focus(`#${id}`);
    await page.keyboard.press('Control+V');
  };
  const key = (id) => async () => {
    await page.focus(`#${id}`);
    await page.keyboard.type('a');
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const start = await snapshot(page);
  // One box holds the text at a time: the plain one first, then (emptied) the app's.
  const measured = { plainPaste: await longestTask(page, pasteInto('plain-textarea')), plainKeys: [], appKeys: [] };
  assert.equal(await held('plain-textarea'), big.length, 'the plain textarea took the paste');
  for (let i = 0; i < 3; i++) measured.plainKeys.push(await longestTask(page, key('plain-textarea')));
  await page.evaluate(() => {
    document.getElementById('plain-textarea').value = '';
  });
  measured.appPaste = await longestTask(page, pasteInto('rope-config'));
  for (let i = 0; i < 3; i++) measured.appKeys.push(await longestTask(page, key('rope-config')));
  // Refused before it reached the box (or wasm), in one sentence.
  const note = () => page.locator('#rope-config-note').textContent({ timeout: 2000 }).catch(() => '');
  const refused = await note();
  measured.appHolds = await held('rope-config');
  measured.apply = await longestTask(page, () => page.click('#rope-config-apply'));
  // Text that arrives another way (typed by a tool, dropped) stops at the box's limit, and
  // Apply refuses the cut text without reading it.
  await page.fill('#rope-config', '');
  measured.plainInsert = await longestTask(page, async () => {
    await page.focus('#plain-textarea');
    await page.keyboard.insertText(big);
  });
  await page.evaluate(() => {
    document.getElementById('plain-textarea').value = '';
  });
  measured.appInsert = await longestTask(page, async () => {
    await page.focus('#rope-config');
    await page.keyboard.insertText(big);
  });
  measured.appInsertHolds = await held('rope-config');
  measured.applyFull = await longestTask(page, () => page.click('#rope-config-apply'));
  const full = await note();
  console.log(`longest main-thread task, ms: ${JSON.stringify(measured)}`);
  assert.match(refused, /That paste is 10,485,7\d\d characters, longer than 256 KB/);
  assert.ok(measured.appHolds < 10, `the box holds ${measured.appHolds} characters`);
  assert.match(full, /The box is full \(262,144 characters\).*longer than 256 KB/);
  assert.deepEqual(await snapshot(page), start, 'nothing changed');
  assert.ok(measured.appPaste <= measured.plainPaste + 50, `paste: ${measured.appPaste} vs ${measured.plainPaste}`);
  assert.ok(median(measured.appKeys) <= median(measured.plainKeys) + 50, `typing: ${measured.appKeys} vs ${measured.plainKeys}`);
  assert.ok(measured.appInsert <= measured.plainInsert + 50, `insert: ${measured.appInsert} vs ${measured.plainInsert}`);
  for (const k of ['apply', 'applyFull']) assert.ok(measured[k] <= 50, `${k}: ${measured[k]}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('axe finds nothing on the RoPE views with a longrope preset, a refused paste and YaRN\'s truncate', async () => {
  const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const found = [];
  for (const theme of ['light', 'dark']) {
    for (const [query, setUp] of [
      ['&view=offsets', async (page) => {
        await page.selectOption('#rope-preset', 'phi-3.5-mini');
        await paste(page, '{"rope_theta": NaN}');
      }],
      ['&view=heatmap&extension=yarn&truncate=0', async (page) => {
        await page.fill('#rope-cache-positions', '0, x');
        await page.click('#rope-cache-download');
        await page.locator('#rope-cache-note.note-error').waitFor();
      }],
    ]) {
      const { page, context } = await openRope(`&theme=${theme}${query}`);
      await setUp(page);
      await page.addScriptTag({ content: AXE });
      const result = await page.evaluate(async () =>
        // eslint-disable-next-line no-undef
        axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }),
      );
      for (const v of result.violations) found.push(`${theme}${query}: ${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
      await context.close();
    }
  }
  assert.deepEqual(found, []);
});

test('θ 10⁸ and a trained length of 1,048,576 open as linked: the first paint draws them, the app keeps them', async () => {
  const { page, errors, context } = await openApp(app, '', { ready: null });
  const { release } = await holdApp(page);
  await page.goto(`${app.server.url}?base=100000000&d_model=64`);
  await waitForDraws(page, 'early-encoding-heatmap');
  release();
  await waitForDraws(page, 'encoding-heatmap');
  assert.equal(await page.locator('#base-value').inputValue(), '100000000');
  assert.equal(await page.locator('.notices').count(), 0, 'no notice: the value is in range');
  // A learned table of 1,048,576 rows by 4,096 and RoPE at that original length draw at once.
  for (const query of ['?scheme=learned&trained=1048576&d_model=4096&length=65536', '?scheme=rope&view=offsets&trained=1048576&base=100000000&extension=yarn&factor=1024']) {
    await page.goto(app.server.url + query);
    await page.waitForSelector('[role=tabpanel] canvas');
    await page.waitForFunction(() => [...document.querySelectorAll('[role=tabpanel] canvas.chart-canvas')].every((c) => Number(c.dataset.draws ?? 0) >= 1), null, { timeout: 30000 });
    assert.equal(await page.locator('.notices').count(), 0, query);
    assert.equal(await page.locator('#trained-length-value').inputValue(), '1048576');
  }
  assert.deepEqual(errors, []);
  await context.close();
});
