// Writes into a build's index.html which files each chunk of the site's wasm needs (its own and
// the chunks it shares with others), read from wasm-split-cli's loader (app/__wasm_split.js), so
// that the first paint can start fetching them all at once: the app's chunk, and a view's when
// the page opens on a view drawn from a chunk (src/early.rs, `preload_chunk`). Run by
// scripts/build_app.sh, which also drops the rust link trunk leaves in the page when told to
// skip its build (index.html: trunk builds only the worker).
//   node scripts/chunks.mjs STAGING_DIR
import fs from 'node:fs';
import path from 'node:path';

const root = process.argv[2];
const loader = fs.readFileSync(path.join(root, 'app', '__wasm_split.js'), 'utf8');
const file = (body) => body.match(/"\.\/([\w.-]+\.wasm)"/)?.[1];
const shared = {};
for (const m of loader.matchAll(/const (__chunk_\d+) = makeLoad\(([\s\S]*?), \[\]\);/g)) shared[m[1]] = file(m[2]);
const chunks = {};
for (const m of loader.matchAll(/export const __wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\(([\s\S]*?), \[([^\]]*)\]\)\);/g)) {
  const deps = m[3].split(',').map((d) => d.trim()).filter(Boolean).map((d) => shared[d]);
  chunks[m[1]] = [file(m[2]), ...deps].filter(Boolean);
}
// The first paint asks for the app's files under this name (src/early.rs, APP_CHUNK; src/main.rs).
if (!chunks.app) throw new Error('chunks.mjs: no chunk "app" in app/__wasm_split.js');
const page = path.join(root, 'index.html');
const html = fs.readFileSync(page, 'utf8')
  .replace(/<script type="application\/json" id="pe-chunks">.*?<\/script>\n?/s, '')
  .replace(/[ \t]*<link data-trunk rel="rust"[^>]*data-trunk-skip[^>]*>\n?/, '');
const tag = `<script type="application/json" id="pe-chunks">${JSON.stringify(chunks)}</script>\n`;
const at = html.indexOf('</head>');
if (at < 0) throw new Error('chunks.mjs: index.html has no </head>');
fs.writeFileSync(page, html.slice(0, at) + tag + html.slice(at));
console.log('chunks:', JSON.stringify(chunks));
