// The SCORM 1.2 packages, run as an LMS runs them: a host page makes scorm-again's Scorm12API the
// LMS (window.API, as Moodle's player does) and frames the package's index.html, served from the
// same origin as LMSs serve packages. The student takes the exam in the frame; the test reads
// what the runtime recorded: status, score, one interaction per question, session time, and the
// suspend data a second launch resumes from. Nothing is mocked: the package is the zip
// `scripts/package.py` wrote, and the LMS is scorm-again's own runtime.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch } from './lib.mjs';
import { RIGHT, SOLVE, QUESTIONS } from './quiz_answers.mjs';
import { STEPS } from './lesson_steps.mjs';

const RELEASE = process.env.RELEASE ?? path.resolve(import.meta.dirname, '../../release');
const RUNTIME = path.resolve(import.meta.dirname, 'node_modules/scorm-again/dist/scorm12.min.js');

let root;
let server;
let browser;

/** Unzips `zip` into `dir` with Python's zipfile (no unzip on a fresh machine). */
function unzip(zip, dir) {
  execFileSync('python3', ['-m', 'zipfile', '-e', zip, dir]);
}

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-scorm-'));
  for (const [name, dir] of [['pe-explorer-scorm12.zip', 'exam'], ['pe-explorer-scorm12-lesson.zip', 'lesson']]) {
    const zip = path.join(RELEASE, name);
    assert.ok(fs.existsSync(zip), `${zip} is missing: run bash scripts/package.sh first (the test command does)`);
    unzip(zip, path.join(root, dir));
  }
  fs.copyFileSync(RUNTIME, path.join(root, 'scorm12.min.js'));
  server = await serve(root);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** The manifest's mastery score, read as an LMS reads it when it imports the package. */
function masteryOf(dir) {
  const xml = fs.readFileSync(path.join(root, dir, 'imsmanifest.xml'), 'utf8');
  return xml.match(/<adlcp:masteryscore>([\d.]+)<\/adlcp:masteryscore>/)?.[1] ?? '';
}

/**
 * Opens an LMS page that frames package `dir`: scorm-again's API on window.API, started with
 * `data` (what the LMS kept of an earlier attempt) and counting the calls the package makes.
 */
async function openLms(dir, data = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  const host = `<!DOCTYPE html><html><head><title>LMS</title><link rel="icon" href="data:,"><script src="/scorm12.min.js"></script><script>
    window.API = new Scorm12API({ autocommit: false, logLevel: 5 });
    window.calls = { LMSInitialize: 0, LMSCommit: 0, LMSFinish: 0 };
    for (const name of Object.keys(window.calls)) window.API.on(name, () => { window.calls[name] += 1; });
    window.API.loadFromJSON(${JSON.stringify(data)});
  </script></head><body><iframe name="sco" id="sco" src="/${dir}/index.html" style="width:1350px;height:950px;border:0"></iframe></body></html>`;
  fs.writeFileSync(path.join(root, `host-${dir}.html`), host);
  await page.goto(`${server.url}host-${dir}.html`);
  const frame = () => page.frame({ name: 'sco' });
  await page.waitForFunction(() => window.calls.LMSInitialize === 1);
  return { page, frame, errors, context };
}

/** What the LMS holds now (as the runtime exports it for the LMS's store: write-only values too). */
const cmi = (page) =>
  page.evaluate(() => {
    const c = window.API.renderCMIToJSONObject().cmi;
    const interactions = c.interactions ?? {};
    return {
      status: c.core.lesson_status,
      raw: c.core.score.raw,
      min: c.core.score.min,
      max: c.core.score.max,
      exit: c.core.exit,
      session: c.core.session_time,
      location: c.core.lesson_location,
      suspend: c.suspend_data,
      interactions: Object.keys(interactions)
        .filter((k) => /^\d+$/.test(k))
        .sort((a, b) => a - b)
        .map((k) => interactions[k])
        .map((i) => ({
          id: i.id,
          type: i.type,
          response: i.student_response,
          result: i.result,
          latency: i.latency,
          time: i.time,
        })),
      calls: { ...window.calls },
    };
  });

/** Answers question `n` (already on screen) right, as a student does in the frame. */
async function answer(frame, n) {
  await frame.waitForFunction((n) => document.querySelector('.quiz-card .lesson-count')?.textContent.startsWith(`Question ${n} of`), n, { polling: 100 });
  const id = await frame.locator('.quiz-card').getAttribute('data-question');
  if (SOLVE[id]) {
    await SOLVE[id](frame);
    await frame.click('#quiz-record');
    await frame.locator('#quiz-record', { hasText: 'Record again' }).waitFor();
  } else {
    await frame.locator('.quiz-option label', { hasText: RIGHT[id] }).click();
  }
  await frame.waitForFunction((n) => document.getElementById('quiz-answered')?.textContent.startsWith(`Answered: ${n} of`), n, { polling: 100 });
  return id;
}

const TIMESPAN = /^\d{2,4}:\d\d:\d\d(\.\d{1,2})?$/;

test(`the exam package: half done, left, resumed where it was, submitted; the LMS records a pass with ${QUESTIONS} interactions`, async () => {
  const mastery = masteryOf('exam');
  assert.equal(mastery, '80');
  const data = { core: { student_id: 's1', student_name: 'Student, A' }, student_data: { mastery_score: mastery } };
  const first = await openLms('exam', data);
  let frame = first.frame();
  await frame.waitForSelector('#quiz-answered');
  assert.equal(await frame.locator('#quiz-title').textContent(), 'Quiz · exam');
  assert.match(await frame.locator('#quiz-lms').textContent(), /keeps each answer as you record it/);
  const total = await frame.locator('.quiz-map li').count();
  assert.equal(total, QUESTIONS);
  let now = await cmi(first.page);
  assert.equal(now.status, 'incomplete', 'the attempt is under way from the launch');

  // Half the exam, then the student leaves (the LMS removes the frame).
  const HALF = 8;
  for (let n = 1; n <= HALF; n += 1) {
    if (n > 1) await frame.click('#quiz-next');
    await answer(frame, n);
  }
  now = await cmi(first.page);
  assert.ok(now.calls.LMSCommit >= HALF, `a commit at each answer: ${now.calls.LMSCommit} for ${HALF}`);
  assert.equal(now.calls.LMSFinish, 0);
  assert.equal(now.interactions.length, 0, 'nothing is checked before submission');
  assert.doesNotMatch(now.suspend, /correct|wrong|Measured/, 'no verdict kept');
  assert.ok(now.suspend.length > 0 && now.suspend.length <= 4096, `${now.suspend.length} characters`);
  await first.page.evaluate(() => document.getElementById('sco').remove());
  await first.page.waitForFunction(() => window.calls.LMSFinish === 1);
  now = await cmi(first.page);
  assert.equal(now.calls.LMSFinish, 1, 'LMSFinish once');
  assert.equal(now.exit, 'suspend');
  assert.match(now.session, TIMESPAN);
  assert.equal(now.status, 'incomplete');
  assert.deepEqual(first.errors, []);
  await first.context.close();

  // A second launch with what the LMS kept: the same answers, on the question left.
  const second = await openLms('exam', {
    ...data,
    core: { ...data.core, entry: 'resume', lesson_status: now.status, lesson_location: now.location },
    suspend_data: now.suspend,
  });
  frame = second.frame();
  await frame.waitForFunction(([n, of]) => document.getElementById('quiz-answered')?.textContent === `Answered: ${n} of ${of}`, [HALF, QUESTIONS], { polling: 100 });
  await frame.waitForFunction((n) => document.querySelector('.quiz-card .lesson-count')?.textContent.startsWith(`Question ${n} of`), HALF, { polling: 100 });
  for (let n = HALF + 1; n <= total; n += 1) {
    await frame.click('#quiz-next');
    await answer(frame, n);
  }
  await frame.click('#quiz-submit');
  await frame.click('#quiz-submit-yes');
  await frame.waitForSelector('#quiz-score');
  assert.match(await frame.locator('#quiz-score').textContent(), new RegExp(`^Score: ${QUESTIONS} of ${QUESTIONS}`));
  now = await cmi(second.page);
  assert.equal(now.status, 'passed');
  assert.deepEqual([now.raw, now.min, now.max], ['100', '0', '100']);
  assert.equal(now.interactions.length, QUESTIONS);
  for (const [i, x] of now.interactions.entries()) {
    assert.match(x.id, new RegExp(`^q${String(i + 1).padStart(2, '0')}-[a-z0-9-]+$`));
    assert.ok(['choice', 'numeric', 'performance'].includes(x.type), x.type);
    assert.equal(x.result, 'correct', `${x.id}: ${x.response}`);
    assert.ok(x.response.length > 0 && x.response.length <= 255, `${x.id}: ${x.response}`);
    assert.match(x.latency, TIMESPAN);
    assert.match(x.time, /^\d\d:\d\d:\d\d$/);
  }
  assert.equal(now.interactions.find((x) => x.id.endsWith('gpt2')).response, 'b');
  assert.match(now.interactions.find((x) => x.id.endsWith('negative-dot')).response, /^\d+$/);
  assert.match(await frame.locator('#quiz-lms').textContent(), /score and each answer are in your course's gradebook/);
  // Leaving now ends the session normally.
  await second.page.evaluate(() => document.getElementById('sco').remove());
  await second.page.waitForFunction(() => window.calls.LMSFinish === 1);
  now = await cmi(second.page);
  assert.equal(now.exit, '');
  assert.match(now.session, TIMESPAN);
  assert.deepEqual(second.errors, []);
  await second.context.close();
});

test('the exam package: an LMS that refuses the interactions still gets the score, and the student hears what it refused', async () => {
  const { page, frame, errors, context } = await openLms('exam', { student_data: { mastery_score: '80' } });
  await frame().waitForSelector('#quiz-answered');
  // An LMS without cmi.interactions (optional in SCORM 1.2): error 401, not implemented.
  await page.evaluate(() => {
    const set = window.API.LMSSetValue.bind(window.API);
    const last = window.API.LMSGetLastError.bind(window.API);
    let refused = false;
    window.API.LMSSetValue = (k, v) => {
      refused = k.startsWith('cmi.interactions.');
      return refused ? 'false' : set(k, v);
    };
    window.API.LMSGetLastError = () => (refused ? '401' : last());
  });
  await answer(frame(), 1);
  await frame().click('#quiz-submit');
  await frame().click('#quiz-submit-yes');
  await frame().waitForSelector('#quiz-score');
  const now = await cmi(page);
  assert.equal(now.raw, String(Math.round(100 / QUESTIONS)));
  assert.equal(now.status, 'failed');
  assert.equal(now.interactions.length, 0);
  assert.match(await frame().locator('#quiz-lms-problem').textContent(), /^The LMS refused cmi\.interactions\.0\.id = “q01-order” \(error 401: Not implemented error\)\. The data model element .* optional for an LMS to implement\. It refused \d+ more values as well\./);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the exam package: a reload inside the LMS ends the session, and the student is told to reopen it', async () => {
  const { page, frame, errors, context } = await openLms('exam', { student_data: { mastery_score: '80' } });
  await frame().waitForSelector('#quiz-answered');
  await answer(frame(), 1);
  await frame().evaluate(() => location.reload());
  await page.waitForFunction(() => window.calls.LMSFinish === 1);
  const ended = frame().locator('#quiz-lms-ended');
  await ended.waitFor();
  assert.match(await ended.textContent(), /session with your course has ended/);
  assert.equal(await ended.getAttribute('role'), 'alert');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the exam package: what the LMS refuses is said to the student, and a later save clears it', async () => {
  const { page, frame, errors, context } = await openLms('exam', { student_data: { mastery_score: '80' } });
  await frame().waitForSelector('#quiz-answered');
  // The LMS's store fails (as a server that is down makes it): LMSCommit says false, error 101.
  await page.evaluate(() => {
    window.refuse = true;
    const commit = window.API.LMSCommit.bind(window.API);
    window.API.LMSCommit = (arg) => (window.refuse ? 'false' : commit(arg));
    const last = window.API.LMSGetLastError.bind(window.API);
    window.API.LMSGetLastError = () => (window.refuse ? '101' : last());
  });
  await answer(frame(), 1);
  const alert = frame().locator('#quiz-lms-problem');
  await alert.waitFor();
  assert.equal(await alert.getAttribute('role'), 'alert');
  assert.match(await alert.textContent(), /The LMS refused to save \(LMSCommit\) \(error 101: General Exception\)/);
  await page.evaluate(() => {
    window.refuse = false;
  });
  await frame().locator('.quiz-option label', { hasText: 'Different vectors' }).click();
  await alert.waitFor({ state: 'detached' });
  assert.match((await cmi(page)).suspend, /^pe1;exam;/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the lesson package: completed once every step was seen, resumed on the step left', async () => {
  const { page, frame, errors, context } = await openLms('lesson');
  await frame().waitForSelector('#lesson-lms');
  const total = STEPS.length;
  for (let n = 1; n < 6; n += 1) {
    await frame().waitForFunction((n) => document.getElementById('lesson-count')?.textContent.includes(`step ${n} of`), n, { polling: 100 });
    await frame().click('#lesson-next');
  }
  await frame().locator('#lesson-lms', { hasText: `6 of ${total}` }).waitFor();
  let now = await cmi(page);
  assert.equal(now.status, 'incomplete');
  assert.equal(now.location, '6');
  await page.evaluate(() => document.getElementById('sco').remove());
  await page.waitForFunction(() => window.calls.LMSFinish === 1);
  now = await cmi(page);
  assert.equal(now.exit, 'suspend');
  await context.close();

  const back = await openLms('lesson', { core: { entry: 'resume', lesson_status: 'incomplete' }, suspend_data: now.suspend });
  const f = back.frame();
  await f.waitForFunction(() => document.getElementById('lesson-count')?.textContent.includes('step 6 of'), null, { polling: 100 });
  for (let n = 6; n < total; n += 1) await f.click('#lesson-next');
  await f.locator('#lesson-lms', { hasText: `${total} of ${total}` }).waitFor();
  assert.equal((await cmi(back.page)).status, 'completed');
  assert.deepEqual([...errors, ...back.errors], []);
  await back.context.close();
});
