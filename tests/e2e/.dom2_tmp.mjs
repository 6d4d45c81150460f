import { serve, launch } from './lib.mjs';
const server = await serve(process.env.DIST, '/');
const browser = await launch();
const page = await (await browser.newContext({ viewport: { width: Number(process.env.W ?? 1400), height: Number(process.env.H ?? 1000) } })).newPage();
await page.goto(server.url + process.argv[2]);
await page.waitForFunction(() => window.wasmBindings?.wasm_memory_bytes && !document.getElementById('early'));
await page.waitForTimeout(800);
console.log(await page.evaluate(() => {
  const out = [];
  const walk = (el, d) => { if (d > 7) return; if (getComputedStyle(el).display === "none") return; const r = el.getBoundingClientRect(); out.push(`${'  '.repeat(d)}${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${String(el.className).trim().replace(/\s+/g, '.')} [${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}] ${[...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent.trim()).join(' ').slice(0, 50)}`); for (const c of el.children) walk(c, d + 1); };
  walk(document.body, 0); return out.join('\n');
}));
await browser.close(); await server.close();
