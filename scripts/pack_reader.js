// The chunk loader's reader of packed chunks (scripts/chunks.mjs inlines it into
// app/__wasm_split.js, after `const packedIn = { file: [packs holding it] }`). A pack,
// app/pack_NAME.wasm, is a wasm module with no code whose custom sections are a chunk's files,
// each named by its file name. A pack is read whole (`arrayBuffer`: a preloaded response read
// through a stream made Chromium report the preload as failed) and every file in it compiled at
// once, in parallel.
const packs = new Map();
let loading;
// A chunk's load takes its files from its own pack: its loader starts the loads of the chunks
// it needs, and their fetches, in this same call.
function inPack(pack, load) {
    return () => {
        const outer = loading;
        loading = pack;
        try {
            return load();
        } finally {
            loading = outer;
        }
    };
}
function unpack(pack) {
    if (!packs.has(pack)) {
        // The page asks for no preload of it after this (index.html, peExplorerPreload).
        globalThis.peExplorerPreload?.taken?.(pack);
        const files = fetch(new URL(`./${pack}`, import.meta.url)).then(async (response) => {
            if (!response.ok) throw new Error(`${pack}: ${response.status}`);
            const bytes = new Uint8Array(await response.arrayBuffer());
            const files = new Map();
            let at = 8;
            const leb = () => {
                let value = 0, shift = 0, byte;
                do {
                    byte = bytes[at++];
                    value += (byte & 127) * 2 ** shift;
                    shift += 7;
                } while (byte & 128);
                return value;
            };
            // Each section: [0, size, name length, name, the file's bytes].
            while (at < bytes.length) {
                at++;
                const end = leb() + at;
                const length = leb();
                const name = new TextDecoder().decode(bytes.subarray(at, at + length));
                const compiled = WebAssembly.compile(bytes.subarray(at + length, end));
                compiled.catch(() => {});
                files.set(name, compiled);
                at = end;
            }
            return files;
        });
        packs.set(pack, files);
        // Like a chunk's load, a failed download is tried again the next time.
        files.catch(() => packs.delete(pack));
    }
    return packs.get(pack);
}
// The compiled module of a packed file.
async function fromPack(name) {
    const pack = packedIn[name].includes(loading) ? loading : packedIn[name][0];
    const files = await unpack(pack);
    if (!files.has(name)) throw new Error(`${pack} has no ${name}`);
    return files.get(name);
}
async function instantiatePacked(module, imports) {
    module = await module;
    return { module, instance: await WebAssembly.instantiate(module, imports) };
}
