// The quiz's right answers as a student gives them: the option to pick for each choice, and how
// to solve each task with the controls (on a page or inside a frame: both have click, fill,
// press and selectOption). Shared by the quiz's tests and the LMS package's.

export const RIGHT = {
  order: 'Exactly the same vector',
  'fastest-wavelength': '2π ≈ 6.28',
  'sin-and-cos': 'depend only on k',
  'depends-on': 'the offset k only',
  'bert-limit': 'It cannot be encoded',
  gpt2: '1024',
  'rope-where': 'It rotates the query and key',
  'llama-base': '10,000 and 500,000',
  'alibi-slopes': '1/2, 1/4',
  't5-far': 'same bucket',
  'add-or-concat': 'The width d_model',
  'exponent-bug': 'fall twice as fast',
  'patch-cross': 'out to the edges',
  'mrope-row': 'The width (W) section',
};

/** An offset k with Σ cos(k·ωᵢ) < 0 at d_model 64, base 10000: computed here, independently. */
export function negativeOffset() {
  for (let k = 1; k < 5000; k += 1) {
    let sum = 0;
    for (let i = 0; i < 32; i += 1) sum += Math.cos(k * 10000 ** (-(2 * i) / 64));
    if (sum < -1e-9) return k;
  }
  throw new Error('no negative offset');
}

export async function setField(page, id, value) {
  await page.fill(id, String(value));
  await page.press(id, 'Enter');
}

// How to solve each task with the controls a student has.
export const SOLVE = {
  'tell-apart': async (page) => page.click('label[for="attention-position-on"]'),
  'slowest-wavelength': async (page) => setField(page, '#base-value', 100),
  'negative-dot': async (page) => {
    await setField(page, '#d-model-value', 64);
    await page.fill('#quiz-input', String(negativeOffset()));
  },
  'steepest-head': async (page) => setField(page, '#alibi-head-value', 0),
  'reordered-variant': async (page) => page.selectOption('#variant', 'split'),
};

/** How many questions the quiz has: one right answer or way to solve each (learn.test.mjs checks it against the app). */
export const QUESTIONS = Object.keys(RIGHT).length + Object.keys(SOLVE).length;
