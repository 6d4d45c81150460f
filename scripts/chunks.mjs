// Post-processes wasm-split-cli's output in a build's app/ (run by scripts/build_app.sh):
//
// 1. Packs each chunk's files into one download. The app (the chunk `app`, src/main.rs) needs
//    its own file and every small chunk it shares with the views' chunks: sixteen files, which
//    a host speaking HTTP/1.1 gives six at a time, each after a request's latency. They go into
//    one file, app/pack_app.wasm: a valid wasm module with no code whose custom sections are
//    the files, each named by its file name (served as wasm, so hosts compress it as such). A
//    view's chunk gets app/pack_NAME.wasm with its own file and the small chunks it needs that
//    the app's pack does not hold (the app always runs first). The chunk loader
//    (app/__wasm_split.js) reads the files from the packs instead of fetching them one by one,
//    and the packed files are removed.
// 2. Writes into index.html which files each chunk needs, so that the first paint can start
//    fetching them all at once: the app's, and a view's when the page opens on a view drawn
//    from a chunk (src/early.rs, `preload_chunk`). It also drops the rust link trunk leaves in
//    the page when told to skip its build (index.html: trunk builds only the worker).
//   node scripts/chunks.mjs STAGING_DIR
import fs from 'node:fs';
import path from 'node:path';

const root = process.argv[2];
const dir = path.join(root, 'app');
const loaderPath = path.join(dir, '__wasm_split.js');
let loader = fs.readFileSync(loaderPath, 'utf8');
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

// 1. The packs: for the app, its file and every chunk it needs; for a view's chunk, its file
// and the chunks it needs that are not in the app's pack (a chunk two views share goes into
// both). Each is the wasm header, then one custom section (id 0) per file.
const leb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return Buffer.from(out);
};
const inApp = new Set(chunks.app);
const packs = {};
for (const [name, files] of Object.entries(chunks)) {
  // The chunk's own file last: the files it needs are compiled and run first.
  const [own, ...needed] = files;
  packs[name] = [...needed, own].filter((f) => name === 'app' || !inApp.has(f));
}
// A part drawn only inside a view of another chunk is named after that chunk (`train_held_out`
// inside `train`, src/ui/parts.rs): it always loads after it, so its pack leaves out what that
// chunk's pack holds.
for (const name of Object.keys(packs)) {
  const within = Object.keys(packs).find((o) => o !== 'app' && o !== name && name.startsWith(`${o}_`));
  if (within) packs[name] = packs[name].filter((f) => !packs[within].includes(f));
}
const packedIn = {};
for (const [name, files] of Object.entries(packs)) {
  const parts = [Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])];
  for (const f of files) {
    const id = Buffer.from(f);
    const body = Buffer.concat([leb(id.length), id, fs.readFileSync(path.join(dir, f))]);
    parts.push(Buffer.from([0]), leb(body.length), body);
    (packedIn[f] ??= []).push(`pack_${name}.wasm`);
  }
  fs.writeFileSync(path.join(dir, `pack_${name}.wasm`), Buffer.concat(parts));
}
for (const f of Object.keys(packedIn)) {
  const fetched = `fetch(new URL("./${f}", import.meta.url))`;
  if (!loader.includes(fetched)) throw new Error(`chunks.mjs: the loader does not fetch ${f} as expected`);
  loader = loader.replace(fetched, `fromPack("${f}")`);
  fs.rmSync(path.join(dir, f));
}
// A chunk's load takes its files from the pack of the load that asked for it: each chunk's own
// loader starts the loads of the chunks it needs, and its fetch, in the same task.
loader = loader.replace(
  /export const __wasm_split_load_(\w+) = wrapAsyncCb\((makeLoad\([\s\S]*?, \[[^\]]*\]\))\);/g,
  (_, name, load) => `export const __wasm_split_load_${name} = wrapAsyncCb(inPack("pack_${name}.wasm", ${load}));`,
);
// The loader's reader of the packs (scripts/pack_reader.js): each fetched once, when a file in
// it is first asked for, and every file in it compiled once the whole pack is in.
if (loader.includes('fetch(new URL(')) throw new Error('chunks.mjs: the loader fetches a file no pack holds');
const instantiate = 'WebAssembly.instantiateStreaming(src, imports)';
if (!loader.includes(instantiate)) throw new Error('chunks.mjs: the loader does not instantiate as expected');
loader = loader.replaceAll(instantiate, 'instantiatePacked(src, imports)');
const reader = `const packedIn = ${JSON.stringify(packedIn)};\n` +
  fs.readFileSync(new URL('./pack_reader.js', import.meta.url), 'utf8').replace(/^(\/\/.*\n)+/, '');
const at = loader.indexOf('function makeLoad(');
if (at < 0) throw new Error('chunks.mjs: no makeLoad in app/__wasm_split.js');
fs.writeFileSync(loaderPath, loader.slice(0, at) + reader + loader.slice(at));
for (const name of Object.keys(chunks)) chunks[name] = [...new Set([`pack_${name}.wasm`, ...(name === 'app' ? [] : ['pack_app.wasm'])])];

// 2. The files each chunk needs, for the first paint.
const page = path.join(root, 'index.html');
const html = fs.readFileSync(page, 'utf8')
  .replace(/<script type="application\/json" id="pe-chunks">.*?<\/script>\n?/s, '')
  .replace(/[ \t]*<link data-trunk rel="rust"[^>]*data-trunk-skip[^>]*>\n?/, '');
const tag = `<script type="application/json" id="pe-chunks">${JSON.stringify(chunks)}</script>\n`;
const head = html.indexOf('</head>');
if (head < 0) throw new Error('chunks.mjs: index.html has no </head>');
fs.writeFileSync(page, html.slice(0, head) + tag + html.slice(head));
console.log('chunks:', JSON.stringify(chunks));
