// Randomised abuse: hundreds of random slider, field, selector, scheme, tab, toggle, zoom and
// key changes, extremes and garbage included. Nothing may log an error or panic, the page must
// still respond at the end, and memory must stop growing once the first steps have touched the
// large sizes. STEPS and SEED override the defaults; a failure prints the seed and the steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, waitForDraws, draws } from './lib.mjs';

const STEPS = Number(process.env.STEPS ?? 500);
const SEED = Number(process.env.SEED ?? 20261122);

const app = useApp();

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GARBAGE = [
  '', ' ', '-1', '0', '1e308', '-1e308', '1e400', 'NaN', 'Infinity', '-0', '0x10', '3.7', '65537',
  '99999999999999999999', 'abc', '<img src=x onerror=alert(1)>', '"><script>alert(1)</script>',
  '١٢٣', '😀', '1,2,3', '0, 5, 65535, 99999', '-3, x, 7', 'a'.repeat(5000), '1'.repeat(400),
  'dog bites man', 'the the the the the the the the the the the the the the the the the',
];

/** Lists what can be operated right now, as [kind, selector-index] pairs. */
function controls(page) {
  return page.evaluate(() => {
    const all = [...document.querySelectorAll('input, select, button, canvas[tabindex], [role=tab]')];
    window.__abuse = all;
    return all.map((el, i) => {
      const kind = el.tagName === 'CANVAS' ? 'canvas'
        : el.getAttribute('role') === 'tab' ? 'tab'
        : el.tagName === 'SELECT' ? 'select'
        : el.tagName === 'BUTTON' ? 'button'
        : el.type;
      const label = el.id || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30);
      return { i, kind, label, disabled: el.disabled === true };
    }).filter((c) => !c.disabled && !/Download|Copy/.test(c.label));
  });
}

/** One random action on control `c`, with random values from `rand`. */
async function act(page, c, rand) {
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const r = rand();
  const garbage = pick(GARBAGE);
  const key = pick(['+', '-', '0', 'ArrowDown', 'ArrowRight', 'PageDown', 'End', 'Home', 'Escape']);
  const wheel = (rand() - 0.5) * 2000;
  const description = `${c.kind} ${c.label}`;
  await page.evaluate(([i, kind, r, garbage, key, wheel]) => {
    const el = window.__abuse[i];
    if (!el || !el.isConnected) return;
    const fire = (type) => el.dispatchEvent(new Event(type, { bubbles: true }));
    switch (kind) {
      case 'range': {
        const [min, max] = [Number(el.min), Number(el.max)];
        // Extremes a third of the time, anywhere otherwise.
        el.value = String(r < 0.17 ? min : r < 0.34 ? max : Math.round(min + (max - min) * r));
        fire('input');
        fire('change');
        break;
      }
      case 'text':
      case 'number':
      case 'search': {
        el.value = r < 0.5 ? garbage : String(Math.round((r - 0.5) * 2 * 70000));
        fire('input');
        fire('change');
        el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
        break;
      }
      case 'select': {
        const options = [...el.options];
        el.value = options[Math.floor(r * options.length)]?.value ?? '';
        fire('change');
        break;
      }
      case 'canvas': {
        el.focus();
        if (r < 0.3) {
          el.dispatchEvent(new WheelEvent('wheel', { deltaY: wheel, ctrlKey: true, bubbles: true, cancelable: true, clientX: 10, clientY: 10 }));
        } else {
          el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
        }
        break;
      }
      default:
        el.click();
    }
  }, [c.i, c.kind, r, garbage, key, wheel]);
  return description;
}

async function memory(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const wasm = await page.evaluate(() => window.wasmBindings.wasm_memory_bytes());
  return { js: usedSize, wasm };
}

const mb = (b) => (b / 1048576).toFixed(1);

test(`${STEPS} random interactions: no error, still responsive, memory bounded`, { timeout: 1_200_000 }, async () => {
  const { page, errors, dialogs, context } = await openApp(app);
  // A dialog (an alert from injected text) counts as an error here.
  const problems = () => [...errors, ...dialogs.map((d) => `dialog: ${d}`)];
  const cdp = await context.newCDPSession(page);
  const rand = generator(SEED);
  const samples = [{ step: 0, ...(await memory(page, cdp)) }];
  const log = [];
  for (let step = 1; step <= STEPS; step++) {
    const list = await controls(page);
    const c = list[Math.floor(rand() * list.length)];
    log.push(await act(page, c, rand));
    // Mostly rapid fire, as a drag is; now and then let deferred work finish.
    await page.waitForTimeout(step % 20 === 0 ? 400 : 15);
    assert.deepEqual(problems(), [], `seed ${SEED}, after step ${step}: ${log.slice(-5).join(' | ')}`);
    if (step === 100 || step === Math.round(STEPS * 0.6) || step === STEPS) {
      await page.waitForTimeout(500);
      samples.push({ step, ...(await memory(page, cdp)) });
    }
  }
  // Still alive: put back a small state and check the heatmap draws and reads a cell.
  await page.goto(app.server.url + '?d_model=64&length=50');
  await waitForDraws(page, 'encoding-heatmap');
  const n = await draws(page, 'encoding-heatmap');
  await page.locator('#d-model-value').fill('32');
  await page.locator('#d-model-value').press('Enter');
  await waitForDraws(page, 'encoding-heatmap', n + 1);
  assert.equal(await page.locator('#d-model-value').inputValue(), '32');
  console.log(`memory after steps (seed ${SEED}):`);
  for (const s of samples) console.log(`  step ${s.step}: JS heap ${mb(s.js)} MiB, wasm memory ${mb(s.wasm)} MiB`);
  // After the first 100 steps memory may still reach a new peak size once, but not keep
  // growing: a leak of even a few kilobytes per step would show over 400 steps.
  const at100 = samples.find((s) => s.step === 100);
  const last = samples.at(-1);
  assert.ok(last.js <= at100.js * 1.5 + 4 * 1048576, `JS heap grew from ${mb(at100.js)} to ${mb(last.js)} MiB`);
  assert.ok(last.wasm <= at100.wasm * 2 + 64 * 1048576, `wasm memory grew from ${mb(at100.wasm)} to ${mb(last.wasm)} MiB`);
  assert.deepEqual(problems(), []);
  await context.close();
});
