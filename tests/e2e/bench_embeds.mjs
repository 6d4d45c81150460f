// Measures embeds inside a course page on a phone: the frame's height and the span from the top
// of the embed's first chart to the bottom of its main control (host-page pixels), at 390 × 844
// and 320 × 640 with touch, for the embed code the app writes. A measurement, not a test:
//   node tests/e2e/bench_embeds.mjs            (DIST=… to measure another build)
//   OPTIONS="Chart only" node tests/e2e/bench_embeds.mjs   (choices of the embed dialog)
import { serve, launch, DIST } from './lib.mjs';
import { PHONES, phone, coursePage, hostServer, embedCode, layout, settle } from './embedhost.mjs';

const CASES = (process.env.CASES ?? 'heatmap,offsets,attention,offsets&scheme=rope,waves,train,rotations,norms,addition,compare,lesson,quiz')
  .split(',');
const OPTIONS = (process.env.OPTIONS ?? '').split(',').filter(Boolean);

const app = await serve(DIST, '/', { compress: true });
const host = await hostServer();
const browser = await launch();
const rows = [];
for (const c of CASES) {
  const [view, ...rest] = c.split('&');
  const query = `?view=${view}${rest.length ? '&' + rest.join('&') : ''}`;
  const code = await embedCode(browser, app.url, query, OPTIONS);
  host.put('/course.html', coursePage(code));
  const row = { embed: `embed=${c}` };
  for (const [w, [width, height]] of Object.entries(PHONES)) {
    const context = await browser.newContext(phone(width, height));
    const page = await context.newPage();
    await page.goto(host.url + '/course.html');
    const frame = page.frameLocator('iframe').first();
    await frame.locator('.embed-main canvas[data-draws], .embed-main .quiz-card, #train-start').first().waitFor({ timeout: 30000 });
    await settle(page);
    const l = await layout(page);
    row[`frame ${w}`] = Math.round(l.frameHeight);
    row[`span ${w}`] = l.span === null ? '—' : Math.round(l.span);
    row[`screen ${w}`] = height;
    await context.close();
  }
  rows.push(row);
  console.error(JSON.stringify(row));
}
console.log(`| embed | frame 390 | span 390 | frame 320 | span 320 |`);
console.log(`|---|---|---|---|---|`);
for (const r of rows) console.log(`| \`${r.embed}\` | ${r['frame 390']} | ${r['span 390']} | ${r['frame 320']} | ${r['span 320']} |`);
await browser.close();
await host.close();
await app.close();
