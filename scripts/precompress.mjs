// Writes a Brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every text and wasm file
// of a build, for static hosts that serve precompressed files (nginx gzip_static/brotli_static,
// Netlify, Cloudflare Pages, the benchmark's server). Run by scripts/build_app.sh on release builds.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = process.argv[2];
const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]);
for (const file of walk(root).filter((f) => /\.(wasm|js|css|html|py)$/.test(f))) {
  const data = fs.readFileSync(file);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  }));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
}
