// End-to-end tests of the lesson and the quiz: walk every lesson step (each sets the view it
// promises), answer every question (one wrongly first), check the feedback and the score, reload
// and find the progress kept, and run both inside a sandboxed frame that may not save.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp } from './lib.mjs';
import { RIGHT, SOLVE, QUESTIONS, negativeOffset, setField } from './quiz_answers.mjs';
import { STEPS } from './lesson_steps.mjs';

const app = useApp();

const open = (query = '') => openApp(app, query, { ready: (page) => page.waitForSelector('#main') });

async function expectStep(page, n) {
  const step = STEPS[n - 1];
  await page.waitForFunction((t) => document.getElementById('lesson-title')?.textContent === t, step.title);
  assert.equal(await page.locator('.lesson-view').getAttribute('data-view'), step.view, `step ${n} view`);
  assert.equal(await page.locator('.lesson-view').getAttribute('data-step'), String(n));
  if (step.scheme) assert.equal(await page.locator('#scheme').inputValue(), step.scheme, `step ${n} scheme`);
  for (const key of ['d_model', 'length']) {
    if (step[key]) {
      const id = key === 'd_model' ? '#d-model-value' : '#length-value';
      assert.equal(await page.locator(id).inputValue(), step[key], `step ${n} ${key}`);
    }
  }
  if (step.variant) assert.equal(await page.locator('#variant').inputValue(), step.variant);
  if (step.grid) assert.equal(await page.locator('#grid-scheme').inputValue(), step.grid, `step ${n} 2-D scheme`);
  assert.match(await page.locator('.lesson-count').textContent(), new RegExp(`step ${n} of ${STEPS.length}`));
  assert.equal(await page.locator('.lesson-step[aria-current="step"]').textContent(), String(n));
  // Every step is a link.
  assert.ok(new URL(page.url()).searchParams.get('lesson') === String(n), page.url());
  // The step's own view is really there (its panel, with content).
  assert.ok(await page.locator('.lesson-view .panel').count() >= 1, `step ${n} shows a view`);
}

test('the lesson walks from the first step to the quiz, each step setting its view', async () => {
  const { page, errors, context } = await open('?lesson=1');
  assert.equal(await page.locator('#lesson-back').getAttribute('aria-disabled'), 'true');
  await page.click('#lesson-back', { force: true }); // playwright waits for aria-disabled buttons otherwise
  await expectStep(page, 1);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'lesson-back', 'focus stays on Back');
  for (let n = 1; n <= STEPS.length; n += 1) {
    await expectStep(page, n);
    if (n < STEPS.length) await page.click('#lesson-next');
  }
  // Back, then forward again by the step list.
  await page.click('#lesson-back');
  await expectStep(page, STEPS.length - 1);
  await page.click('.lesson-step[aria-label^="Step 2:"]');
  await expectStep(page, 2);
  // The student plays with the sliders; "Reset this step" puts the step's settings back.
  await page.fill('#d-model-value', '200');
  await page.press('#d-model-value', 'Enter');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('d_model') === '200');
  await page.click('#lesson-reset');
  await page.waitForFunction(() => document.getElementById('d-model-value').value === '64');
  // A changed step is a link too: reloading keeps the change on top of the step.
  await page.selectOption('#scheme', 'rope');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('scheme') === 'rope');
  await page.reload();
  await page.waitForSelector('#lesson-title');
  assert.equal(await page.locator('#scheme').inputValue(), 'rope');
  assert.equal(await page.locator('#lesson-title').textContent(), STEPS[1].title);
  // The last step leads to the quiz.
  await page.goto(`${app.server.url}?lesson=${STEPS.length}`);
  await page.click('#lesson-quiz');
  await page.waitForSelector('#quiz-title');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a lesson link opens its step, also embedded, and a bad step number says so', async () => {
  const { page, errors, context } = await open('?embed=lesson&lesson=7');
  await expectStep(page, 7);
  assert.equal(await page.locator('.site-header').count(), 0, 'no page chrome when embedded');
  await page.click('#lesson-next');
  await expectStep(page, 8);
  assert.equal(new URL(page.url()).searchParams.get('embed'), 'lesson');
  await page.goto(`${app.server.url}?lesson=42`);
  await expectStep(page, STEPS.length);
  assert.match(await page.locator('.notices').textContent(), /lesson=42/);
  assert.deepEqual(errors, []);
  await context.close();
});

// The right option of each multiple-choice question (a distinctive part of its text).
async function score(page) {
  const text = await page.locator('#quiz-score').textContent();
  return Number(text.match(/Score: (\d+) of (\d+)/)[1]);
}

async function feedback(page) {
  await page.waitForSelector('#quiz-feedback');
  return page.locator('#quiz-feedback').textContent();
}

test('the quiz: every question answered right (one wrong first), feedback, score, progress kept', async () => {
  const { page, errors, context } = await open('?view=quiz');
  const total = await page.locator('.quiz-map li').count();
  assert.equal(total, QUESTIONS, 'quiz_answers.mjs answers every question');
  assert.equal(await score(page), 0);

  // One wrong answer first: the feedback says so, explains, and links to the view.
  const first = await page.locator('.quiz-card').getAttribute('data-question');
  assert.equal(first, 'order');
  await page.locator('.quiz-option label', { hasText: 'Different vectors' }).click();
  await page.click('#quiz-check');
  assert.match(await feedback(page), /^Not yet\..*The answer: “Exactly the same vector”/);
  assert.equal(await score(page), 0);
  const see = new URL(await page.locator('.quiz-see').getAttribute('href'));
  assert.equal(see.searchParams.get('view'), 'attention');
  assert.match(await page.locator('.quiz-map li:first-child button').getAttribute('aria-label'), /answered wrongly/);

  // A task checked against the settings as they start is not yet solved.
  let tasks = 0;
  for (let n = 1; n <= total; n += 1) {
    if (n > 1) await page.click('#quiz-next');
    await page.waitForFunction((n) => document.querySelector('.quiz-card .lesson-count')?.textContent.startsWith(`Question ${n} of`), n);
    const id = await page.locator('.quiz-card').getAttribute('data-question');
    if (SOLVE[id]) {
      tasks += 1;
      if (id !== 'negative-dot') {
        await page.click('#quiz-check');
        assert.match(await feedback(page), /^Not yet\./, `${id} is not solved by its starting point`);
      }
      await SOLVE[id](page);
      await page.click('#quiz-check');
    } else {
      assert.ok(RIGHT[id], `an answer for ${id}`);
      await page.locator('.quiz-option label', { hasText: RIGHT[id] }).click();
      await page.click('#quiz-check');
    }
    const said = await feedback(page);
    assert.match(said, /^Correct\./, `${id}: ${said}`);
    if (SOLVE[id] && id !== 'reordered-variant') assert.match(said, /Measured/, `${id} reports what it measured`);
  }
  assert.ok(tasks >= 4);
  assert.equal(await score(page), total);

  // Reload: the progress is still there.
  await page.reload();
  await page.waitForSelector('#quiz-score');
  assert.equal(await score(page), total);
  const labels = await page.locator('.quiz-map button').evaluateAll((b) => b.map((x) => x.getAttribute('aria-label')));
  assert.ok(labels.every((l) => l.endsWith('answered correctly')), labels.join('; '));
  // Start over clears it.
  await page.click('#quiz-start-over');
  await page.click('#quiz-start-over-no');
  assert.equal(await score(page), total, 'cancelling keeps the answers');
  await page.click('#quiz-start-over');
  await page.click('#quiz-start-over-yes');
  assert.equal(await score(page), 0);
  await page.reload();
  await page.waitForSelector('#quiz-score');
  assert.equal(await score(page), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('in a sandboxed frame that may not save, the quiz still works and says progress is not kept', async () => {
  const { page, errors, context } = await open();
  await page.setContent(`<!DOCTYPE html><html><body>
    <iframe id="f" sandbox="allow-scripts" style="width:1100px;height:900px;border:0"
      src="${app.server.url}?embed=quiz"></iframe></body></html>`);
  const frame = page.frameLocator('#f');
  await frame.locator('#quiz-no-storage').waitFor();
  await frame.locator('.quiz-option label', { hasText: RIGHT.order }).click();
  await frame.locator('#quiz-check').click();
  await frame.locator('#quiz-feedback').waitFor();
  assert.match(await frame.locator('#quiz-feedback').textContent(), /^Correct\./);
  assert.match(await frame.locator('#quiz-score').textContent(), /Score: 1 of/);
  // The lesson works in the same frame.
  await page.setContent(`<!DOCTYPE html><html><body>
    <iframe id="g" sandbox="allow-scripts" style="width:1100px;height:900px;border:0"
      src="${app.server.url}?embed=lesson&lesson=4"></iframe></body></html>`);
  const lesson = page.frameLocator('#g');
  await lesson.locator('#lesson-title').waitFor();
  assert.equal(await lesson.locator('#lesson-title').textContent(), STEPS[3].title);
  await lesson.locator('#lesson-next').click();
  await lesson.locator('#lesson-title', { hasText: STEPS[4].title }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('question 7 takes the negative offsets its chart shows', async () => {
  const { page, errors, context } = await open('?view=quiz&question=7');
  assert.equal(await page.locator('.quiz-card').getAttribute('data-question'), 'negative-dot');
  await setField(page, '#d-model-value', 64);
  for (const typed of [`−${negativeOffset()}`, `-${negativeOffset()}`]) {
    await page.fill('#quiz-input', typed);
    await page.click('#quiz-check');
    const said = await feedback(page);
    assert.match(said, /^Correct\. Measured: .*PE\(p − \d+\)/, `${typed}: ${said}`);
  }
  await page.fill('#quiz-input', '−725');
  await page.click('#quiz-check');
  assert.match(await feedback(page), /Measured: .*PE\(p − 725\)/);
  await page.fill('#quiz-input', '5000');
  await page.click('#quiz-check');
  assert.match(await feedback(page), /from −1,023 to 1,023/);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Text on the page that would reveal whether an answer is right. */
async function revealing(page) {
  return page.evaluate(() => {
    const text = document.body.innerText;
    return {
      feedback: document.querySelectorAll('#quiz-feedback, .quiz-see, .quiz-step-right, .quiz-step-wrong').length,
      words: ['Correct.', 'Not yet.', 'Wrong.', 'The answer:', 'Measured:', 'Score:'].filter((w) => text.includes(w)),
    };
  });
}

test('exam mode: answers recorded, nothing revealed until submitted, then the score and a summary to copy', async () => {
  const { page, errors, context } = await open('?view=quiz&exam=1');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.server.url).origin });
  assert.equal(await page.locator('#quiz-title').textContent(), 'Quiz · exam');
  const total = await page.locator('.quiz-map li').count();
  assert.equal(await page.locator('#quiz-answered').textContent(), `Answered: 0 of ${total}`);
  assert.equal(await page.locator('#quiz-start-over').count(), 0, 'no start over in an exam');

  // What the student does: most right, one changed from wrong to right, one wrong, two left out.
  const LEAVE = new Set(['t5-far', 'reordered-variant']);
  let right = 0;
  let answered = 0;
  let previous = null;
  for (let n = 1; n <= total; n += 1) {
    if (n > 1) await page.click('#quiz-next');
    await page.waitForFunction((n) => document.querySelector('.quiz-card .lesson-count')?.textContent.startsWith(`Question ${n} of`), n);
    const id = await page.locator('.quiz-card').getAttribute('data-question');
    // Every question starts from its own settings: nothing of the ALiBi task carries on.
    if (previous === 'steepest-head') assert.equal(await page.locator('#scheme').inputValue(), 'sinusoidal', `${id} after the ALiBi task`);
    previous = id;
    if (LEAVE.has(id)) continue;
    if (SOLVE[id]) {
      if (id === 'negative-dot') {
        await setField(page, '#d-model-value', 64);
        await page.fill('#quiz-input', `−${negativeOffset()}`);
      } else {
        await SOLVE[id](page);
      }
      await page.click('#quiz-record');
      await page.locator('#quiz-record', { hasText: 'Record again' }).waitFor();
      right += 1;
    } else if (id === 'gpt2') {
      await page.locator('.quiz-option label', { hasText: '2048' }).click();
    } else {
      if (id === 'order') {
        await page.locator('.quiz-option label', { hasText: 'Different vectors' }).click();
        await page.locator('#quiz-recorded', { hasText: 'Your answer is recorded' }).waitFor();
      }
      await page.locator('.quiz-option label', { hasText: RIGHT[id] }).click();
      right += 1;
    }
    answered += 1;
    await page.waitForFunction((a) => document.getElementById('quiz-answered')?.textContent.startsWith(`Answered: ${a} of`), answered);
    assert.deepEqual(await revealing(page), { feedback: 0, words: [] }, `${id} revealed something before submission`);
  }
  const labels = await page.locator('.quiz-map button').evaluateAll((b) => b.map((x) => x.getAttribute('aria-label')));
  assert.equal(labels.filter((l) => l.endsWith(', answered')).length, answered, labels.join('; '));
  assert.equal(labels.filter((l) => l.endsWith('not answered')).length, total - answered);

  // A reload keeps the answers and the clock (this tab's session).
  await page.reload();
  await page.waitForSelector('#quiz-answered');
  assert.equal(await page.locator('#quiz-answered').textContent(), `Answered: ${answered} of ${total}`);

  // Going back to the first question shows the answer recorded last, still unchecked.
  await page.click('.quiz-map li:first-child button');
  await page.waitForFunction(() => document.querySelector('.quiz-card')?.dataset.question === 'order');
  const checked = await page.locator('.quiz-option input:checked + label').textContent();
  assert.equal(checked, 'Exactly the same vector');
  assert.deepEqual(await revealing(page), { feedback: 0, words: [] });

  // Submit: it says what is missing and asks first.
  await page.click('#quiz-submit');
  assert.match(await page.locator('.quiz-confirm').textContent(), new RegExp(`${total - answered} of ${total} questions have no answer`));
  await page.click('#quiz-submit-no');
  assert.deepEqual(await revealing(page), { feedback: 0, words: [] });
  await page.click('#quiz-submit');
  await page.click('#quiz-submit-yes');
  await page.waitForSelector('#quiz-score');
  assert.match(await page.locator('#quiz-score').textContent(), new RegExp(`^Score: ${right} of ${total} · submitted after \\d`));
  // Now the verdicts, the right answers and the reasons are shown.
  assert.match(await feedback(page), /^Correct\./);
  assert.equal(await page.locator('.quiz-option input:disabled').count(), 4, 'answers cannot change');
  await page.click(`.quiz-map li:nth-child(9) button`);
  await page.waitForFunction(() => document.querySelector('.quiz-card')?.dataset.question === 'gpt2');
  assert.match(await feedback(page), /^Wrong\. The answer: “1024”\./);
  const mapped = await page.locator('.quiz-map button').evaluateAll((b) => b.map((x) => x.getAttribute('aria-label')));
  assert.equal(mapped.filter((l) => l.endsWith('answered correctly')).length, right);

  // The summary: score, every answer, time, version and link, copied as plain text.
  const summary = await page.locator('#quiz-summary').inputValue();
  assert.match(summary, new RegExp(`Score: ${right} of ${total}`));
  assert.match(summary, /Quiz version: [0-9a-f]{8} \(\d+ questions\)/);
  assert.match(summary, /Link: http:\/\/127\.0\.0\.1:\d+\/\?view=quiz&exam=1/);
  assert.match(summary, /Started: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  assert.match(summary, /Time taken: \d+ (s|min)/);
  assert.match(summary, /\d+\. gpt2 · wrong: “2048” \(right: “1024”\)/);
  assert.match(summary, /\d+\. order · right: “Exactly the same vector”/);
  assert.match(summary, /\d+\. t5-far · not answered/);
  assert.match(summary, /\d+\. negative-dot · right \(task\): typed “−\d+”\. Measured:/);
  assert.equal(summary.split('\n').filter((l) => / · (right|wrong|not answered)/.test(l)).length, total);
  await page.click('#quiz-copy-summary');
  await page.locator('#quiz-copy-status', { hasText: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), summary);
  // Submitted stays submitted after a reload.
  await page.reload();
  await page.waitForSelector('#quiz-score');
  assert.match(await page.locator('#quiz-score').textContent(), new RegExp(`^Score: ${right} of`));
  assert.equal(await page.locator('#quiz-submit').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('exam mode embedded in a sandboxed frame works without storage', async () => {
  const { page, errors, context } = await open();
  await page.setContent(`<!DOCTYPE html><html><body>
    <iframe id="f" sandbox="allow-scripts" style="width:1100px;height:900px;border:0"
      src="${app.server.url}?embed=quiz&exam=1"></iframe></body></html>`);
  const frame = page.frameLocator('#f');
  await frame.locator('#quiz-no-storage').waitFor();
  await frame.locator('.quiz-option label', { hasText: RIGHT.order }).click();
  await frame.locator('#quiz-answered', { hasText: 'Answered: 1 of' }).waitFor();
  assert.equal(await frame.locator('#quiz-feedback').count(), 0);
  await frame.locator('#quiz-submit').click();
  await frame.locator('#quiz-submit-yes').click();
  await frame.locator('#quiz-score', { hasText: 'Score: 1 of' }).waitFor();
  assert.match(await frame.locator('#quiz-summary').inputValue(), /Link: .*exam=1/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the exam keeps no verdict, stays submitted when its record is edited, says when practice was opened, and a teacher can recheck a summary', async () => {
  const { page, errors, context } = await open('?view=quiz&exam=1');
  await page.waitForSelector('#quiz-answered');
  // A task answered: what the tab keeps holds the settings, and no verdict or measurement.
  await page.click('.quiz-map li:nth-child(2) button');
  await page.waitForFunction(() => document.querySelector('.quiz-card')?.dataset.question === 'tell-apart');
  await SOLVE['tell-apart'](page);
  await page.click('#quiz-record');
  await page.locator('#quiz-record', { hasText: 'Record again' }).waitFor();
  const kept = await page.evaluate(() => sessionStorage.getItem('pe-explorer.quiz.exam.v1'));
  assert.match(kept, /tell-apart\ttask\t/);
  assert.doesNotMatch(kept, /Measured|correct|right/);
  // The practice quiz, opened in the same tab during the exam, is noted.
  await page.goto(app.server.url + '?view=quiz');
  await page.waitForSelector('#quiz-score');
  await page.goto(app.server.url + '?view=quiz&exam=1');
  await page.waitForSelector('#quiz-submit');
  await page.click('#quiz-submit');
  await page.click('#quiz-submit-yes');
  await page.waitForSelector('#quiz-score');
  const summary = await page.locator('#quiz-summary').inputValue();
  assert.match(summary, /The practice quiz, which checks answers, was opened in this tab during the exam: \d{4}-/);
  // Un-submitting the exam's record by hand does not reopen it.
  await page.evaluate(() => {
    const key = 'pe-explorer.quiz.exam.v1';
    sessionStorage.setItem(key, sessionStorage.getItem(key).replace(/submitted [0-9.]+/, 'submitted -'));
  });
  await page.reload();
  await page.waitForSelector('#quiz-score');
  assert.equal(await page.locator('#quiz-submit').count(), 0);
  // A teacher rechecks the summary: as written, then with the score edited.
  await page.locator('.quiz-check summary').click();
  await page.fill('#quiz-check-text', summary);
  assert.match(await page.locator('#quiz-check-result').textContent(), /^Its lines are those the app wrote with digest [0-9a-f]{8}/);
  await page.fill('#quiz-check-text', summary.replace(/Score: (\d+) of/, (_, n) => `Score: ${Number(n) + 5} of`));
  assert.match(await page.locator('#quiz-check-result').textContent(), /changed after the app wrote it/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the way from a quiz in a course page to the whole app follows the system theme, not the host', async () => {
  // theme=host means "follow the page around the frame"; a new tab has none (issue 29 #17).
  const { page, errors, context } = await openApp(app, '?embed=quiz&theme=host', { ready: (p) => p.waitForSelector('.quiz-card') });
  await page.locator('.quiz-option label', { hasText: 'Different vectors' }).click();
  await page.click('#quiz-check');
  const see = new URL(await page.locator('.quiz-see').getAttribute('href'));
  assert.equal(see.searchParams.get('view'), 'attention');
  assert.equal(see.searchParams.get('theme'), null, see.search);
  assert.deepEqual(errors, []);
  await context.close();
});
