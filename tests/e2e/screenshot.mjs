// Saves a screenshot of the built app: node screenshot.mjs out.png [width] [height] [query] [selector]
// (with a selector, of that element only).
import { serve, launch, DIST, waitForDraws } from './lib.mjs';

const [out = 'shot.png', width = '1440', height = '1000', query = '', selector = ''] = process.argv.slice(2);
const server = await serve(DIST);
const browser = await launch();
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } });
page.on('console', (m) => console.log(`[${m.type()}] ${m.text()}`));
page.on('pageerror', (e) => console.log(`[pageerror] ${e.message}`));
await page.goto(server.url + query);
// Views without the encoding heatmap (the attention demo, the quiz) are given a moment instead.
await page.waitForSelector('#main');
await page.waitForTimeout(400);
if (await page.$('#encoding-heatmap')) await waitForDraws(page, 'encoding-heatmap');
await page.waitForTimeout(600);
if (selector) await page.locator(selector).first().screenshot({ path: out });
else await page.screenshot({ path: out, fullPage: true });
await browser.close();
await server.close();
console.log(`saved ${out}`);
