// Post-processes a build's index.html (run by scripts/build_app.sh after scripts/chunks.mjs):
//
// 1. Module preloads for every script the site's module imports (app/__wasm_split.js, the
//    snippets wasm-bindgen writes). The page asks for them with the module's own script, not one
//    request's latency after it.
// 2. With --inline (release builds): the main module's wasm (the first paint, with the loader
//    of the app's chunks) inside the page, so that a phone waits for one request's latency
//    before its bytes, not two (docs/architecture.md, "View chunks"). The bytes are written as
//    text a browser reads back unchanged: byte b as the character U+00b, but for the three
//    bytes an HTML parser would not hand back as written (NUL, CR, and "<", which could close
//    the element), which become U+0100 + b. A character's code modulo 256 is then the byte.
//    As UTF-8 the text is 23 % longer than the bytes (NUL is common in wasm, and takes two),
//    and 2.7 % longer after Brotli (157 KB against 152.9 KB for the wasm; base64 would be
//    195 KB). It is written in two
//    halves with a call between them (peExplorerInline.half: a browser that gives no estimate
//    of the line's speed asks for the app's files then; otherwise the page asks when its own
//    Brotli size and its scripts' and stylesheet's, in data-inline, say); after them,
//    peExplorerInline.done checks the length and a checksum (FNV-1a), and fetches the file
//    (kept in app/) if the text was changed on its way. data-app says how many Brotli bytes
//    the app's pack has: a view's pack is asked for when they are due in.
//   node scripts/inline_module.mjs STAGING_DIR [--inline]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = process.argv[2];
const inline = process.argv.includes('--inline');
const pagePath = path.join(root, 'index.html');
let page = fs.readFileSync(pagePath, 'utf8');
const once = (text, what) => {
  const at = page.indexOf(text);
  if (at < 0 || page.indexOf(text, at + 1) >= 0) throw new Error(`inline_module.mjs: index.html has not exactly one ${what}`);
  return at;
};

// 1. The module's static imports, each preloaded beside it.
const glue = fs.readFileSync(path.join(root, 'app', 'pe-explorer.js'), 'utf8');
const imports = [...new Set([...glue.matchAll(/^import .* from ['"]\.\/([^'"]+)['"];?$/gm)].map((m) => m[1]))];
if (!imports.includes('__wasm_split.js')) throw new Error('inline_module.mjs: the module does not import __wasm_split.js');
const preload = '<link rel="modulepreload" href="app/pe-explorer.js" />';
const at = once(preload, 'module preload');
page = page.slice(0, at + preload.length)
  + imports.map((f) => `\n    <link rel="modulepreload" href="app/${f}" />`).join('')
  + page.slice(at + preload.length);

// 2. The module's wasm in the page.
if (inline) {
  const wasm = fs.readFileSync(path.join(root, 'app', 'pe-explorer_bg.wasm'));
  const text = (bytes) => {
    let out = '';
    for (let i = 0; i < bytes.length; i += 8192) {
      const codes = Array.from(bytes.subarray(i, i + 8192), (b) => (b === 0 || b === 13 || b === 60 ? 256 + b : b));
      out += String.fromCharCode(...codes);
    }
    return out;
  };
  // The checksum index.html computes: 32-bit FNV-1a over the bytes.
  let sum = 2166136261;
  for (const b of wasm) sum = Math.imul(sum ^ b, 16777619) >>> 0;
  const half = wasm.length >> 1;
  const brotli = (t) => zlib.brotliCompressSync(Buffer.from(t), {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;
  const tag = '<script id="pe-fetch">';
  const start = once(tag, 'wasm loader');
  // The app's pack's Brotli bytes: a view's pack is asked for when they are due in.
  const app = brotli(fs.readFileSync(path.join(root, 'app', 'pack_app.wasm')));
  page = page.slice(0, start) + `<script id="pe-fetch" data-inline="PAGE_BYTES" data-app="${app}">` + page.slice(start + tag.length);
  const end = page.lastIndexOf('</body>');
  page = page.slice(0, end)
    + '  <!-- The site\'s module, inside the page (scripts/inline_module.mjs). -->\n'
    + `  <script type="application/octet-stream" id="pe-wasm-0">${text(wasm.subarray(0, half))}</script>\n`
    + '  <script>peExplorerInline.half();</script>\n'
    + `  <script type="application/octet-stream" id="pe-wasm-1">${text(wasm.subarray(half))}</script>\n`
    + `  <script>peExplorerInline.done(${wasm.length}, ${sum});</script>\n  `
    + page.slice(end);
  // What comes down the line with the page, as Brotli carries it: the page, and the scripts
  // and stylesheet it asks for at once. From it the page estimates when its last byte comes.
  // Trunk writes the stylesheet's address under the site's public URL (`./`, `/` or
  // `/courses/pe/`), at the top of the build; the module preloads are this script's, in app/.
  const file = (href, kind) => path.join(root, kind === 'stylesheet' ? path.basename(href) : href);
  const withPage = [...page.matchAll(/<link rel="(modulepreload|stylesheet)" href="([^"]+)"/g)]
    .map((m) => brotli(fs.readFileSync(file(m[2], m[1]))));
  if (withPage.length < 3) throw new Error('inline_module.mjs: the page asks for fewer scripts and stylesheets than expected');
  page = page.replace('PAGE_BYTES', String(withPage.reduce((a, b) => a + b, brotli(page))));
}
fs.writeFileSync(pagePath, page);
