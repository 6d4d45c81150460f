// Screenshots of the first paint (the app held back) and of the app once it has taken over, for
// looking at them: node early_shots.mjs OUTDIR W H 'query' ['query' …]
import { serve, launch, DIST, holdApp } from './lib.mjs';

const [out, w, h, ...queries] = process.argv.slice(2);
const server = await serve(DIST, '/');
const browser = await launch();
for (const q of queries) {
  const context = await browser.newContext({ viewport: { width: Number(w), height: Number(h) }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const { release } = await holdApp(page);
  await page.goto(server.url + q);
  const name = (q || 'default').replace(/[^a-z0-9]+/gi, '_');
  try {
    await page.waitForSelector('canvas[data-early][data-draws]', { timeout: 15000 });
    const early = await page.evaluate(() => {
      const c = document.querySelector('canvas[data-early]');
      const r = c.getBoundingClientRect();
      return { id: c.dataset.early, top: r.top, left: r.left, width: r.width, height: r.height };
    });
    await page.screenshot({ path: `${out}/${name}_early.png` });
    release();
    await page.waitForFunction(() => !document.getElementById('early'), null, { timeout: 30000 });
    await page.waitForFunction((id) => document.querySelector(`#${id}[data-draws]`), early.id, { timeout: 30000 });
    const app = await page.evaluate((id) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return { top: r.top, left: r.left, width: r.width, height: r.height };
    }, early.id);
    await page.screenshot({ path: `${out}/${name}_app.png` });
    console.log(q, JSON.stringify({ early, app }), errors.join(' | '));
  } catch (e) {
    release();
    console.log(q, 'NO EARLY CHART', String(e).slice(0, 100), errors.join(' | '));
  }
  await context.close();
}
await browser.close();
await server.close();
