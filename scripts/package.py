#!/usr/bin/env python3
"""Makes the release artifacts from a release build of the site (trunk build --release
--public-url ./), with nothing but the Python standard library:

  release/site/                       the site as it is published (GitHub Pages)
  release/pe-explorer-site.zip        the same, for any static host, with _headers, .htaccess
                                      and HOSTING.md
  release/pe-explorer.html            one self-contained file: the first paint, the app, the
                                      training worker and the stylesheet inside it
  release/pe-explorer-scorm12.zip     a SCORM 1.2 package: the quiz as a graded exam
  release/pe-explorer-scorm12-lesson.zip  a SCORM 1.2 package: the lesson

Usage: python3 scripts/package.py DIST OUT
       python3 scripts/package.py --scorm pe-explorer.html OUT.zip --mode lesson|exam|view
              [--view "view=offsets&scheme=rope"] [--mastery 80] [--title "…"]

The second form makes a package of another mode from a released pe-explorer.html alone (no
Rust, no build): a teacher's own choice of view or mastery score.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import html
import os
import re
import shutil
import sys
import zipfile
from pathlib import Path
from urllib.parse import parse_qsl

# Files a host serves as they are; the precompressed copies are for our own test server.
SKIP_SUFFIXES = (".gz", ".br")

HEADERS = """\
# Netlify and Cloudflare Pages read this file. Course pages embed panels in sandboxed frames,
# whose requests come from an opaque origin: the app's files must allow any origin.
/*
  Access-Control-Allow-Origin: *
/*.wasm
  Content-Type: application/wasm
"""

HTACCESS = """\
# Apache (most university web spaces): let sandboxed course frames load the app, and serve wasm
# and scripts with their types. Needs mod_headers; without it, use pe-explorer.html instead.
<IfModule mod_headers.c>
  Header set Access-Control-Allow-Origin "*"
</IfModule>
AddType application/wasm .wasm
AddType text/javascript .js .mjs
"""

HOSTING = """\
# Hosting the Positional Encoding Explorer

This folder is the whole site: static files, no server code. Every address in it is relative,
so it works at the root of a host or under any sub-path (`https://example.edu/~you/pe/`).

Course pages embed its panels in sandboxed frames (`<iframe sandbox="allow-scripts">`). Such a
frame loads the app's files with CORS requests, so the host must send
`Access-Control-Allow-Origin: *` with them. If your host cannot, use `pe-explorer.html` (the
single file, from the same release): it needs no header at all.

- **GitHub Pages**: push this folder to a branch Pages publishes (or let the repository's
  workflow `.github/workflows/pages.yml` do it). Pages already sends
  `Access-Control-Allow-Origin: *`. A project site lives under `/<repository>/`, which works
  as it is.
- **Netlify, Cloudflare Pages**: upload the folder; they read `_headers`, which sets the header
  and wasm's type.
- **A university web server (Apache)**: copy the folder; `.htaccess` sets the header where the
  server allows `.htaccess` files with mod_headers. Ask the web team to allow
  `Header set Access-Control-Allow-Origin "*"` for the folder if it does not take effect
  (open a panel in a sandboxed frame: it says so when the header is missing).
- **nginx**: `location /pe/ { add_header Access-Control-Allow-Origin *; }` and `types {
  application/wasm wasm; }`.
- **Under a sub-path**: nothing to do; to build for one with absolute addresses instead, run
  `trunk build --release --public-url /courses/pe/`.
- **Caching**: the worker's files (`worker.js`, `worker_bg.wasm`) carry no content hash; after
  an update, a browser may keep the old worker until its cache expires. Serve them with
  `Cache-Control: no-cache` if your host lets you.
"""

MANIFEST = """\
<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="{ident}" version="1.0"
    xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="{ident}-org">
    <organization identifier="{ident}-org">
      <title>{title}</title>
      <item identifier="{ident}-item" identifierref="{ident}-sco" isvisible="true">
        <title>{title}</title>{mastery_xml}
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="{ident}-sco" type="webcontent" adlcp:scormtype="sco" href="index.html">
      <file href="index.html"/>
    </resource>
  </resources>
</manifest>
"""

MODES = {
    "exam": ("view=quiz&exam=1", "Positional encodings: quiz (exam)"),
    "lesson": ("view=lesson", "Positional encodings: guided lesson"),
    "view": ("view=heatmap", "Positional Encoding Explorer"),
}


def gz64(data: bytes) -> str:
    """Gzip, then base64: the form an asset takes inside the single file."""
    return base64.b64encode(gzip.compress(data, compresslevel=9, mtime=0)).decode("ascii")


def one(pattern: str, text: str, what: str) -> re.Match:
    found = list(re.finditer(pattern, text, flags=re.S))
    if len(found) != 1:
        sys.exit(f"package: expected one {what} in the built index.html, found {len(found)}")
    return found[0]


# The single file's loader: decodes each asset (gzip + base64) with the browser's own
# DecompressionStream, makes the scripts into modules from Blob URLs (their imports of
# wasm-bindgen's snippets rewritten to the snippets' own Blob URLs), and tells the app, through
# window.peExplorerBundle, how to load itself and its worker from those bytes. Nothing is fetched.
LOADER = r"""
(function () {
  var boot = document.getElementById("boot");
  function say(text) {
    if (!boot) return;
    boot.className = "boot boot-failed";
    boot.setAttribute("role", "alert");
    boot.textContent = text;
  }
  if (typeof DecompressionStream !== "function") {
    say("This browser is too old to open the explorer from one file (it needs DecompressionStream: " +
      "Chrome or Edge 80, Firefox 113, Safari 16.4 or later). Open the hosted site instead.");
    return;
  }
  function raw(id) {
    var text = document.getElementById("pe-asset-" + id).textContent;
    var bin = atob(text);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  var cache = {};
  function bytes(id) {
    if (!cache[id]) {
      var stream = new Blob([raw(id)]).stream().pipeThrough(new DecompressionStream("gzip"));
      cache[id] = new Response(stream).arrayBuffer();
    }
    return cache[id];
  }
  function text(id) {
    return bytes(id).then(function (b) { return new TextDecoder().decode(b); });
  }
  function blobUrl(source) {
    return URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  }
  var SNIPPETS = __SNIPPETS__;
  var snippetUrls = null;
  function snippets() {
    if (!snippetUrls) {
      snippetUrls = Promise.all(SNIPPETS.map(function (s) {
        return text(s.id).then(function (src) { return [s.path, blobUrl(src)]; });
      }));
    }
    return snippetUrls;
  }
  // A wasm-bindgen module, its snippet imports pointing at the snippets' Blob URLs.
  function module(id) {
    return Promise.all([text(id), snippets()]).then(function (parts) {
      var src = parts[0];
      parts[1].forEach(function (pair) {
        // Only the import statements: the wasm's imports object names the snippet by its path.
        src = src.split('from "./' + pair[0] + '"').join('from "' + pair[1] + '"');
        src = src.split("from './" + pair[0] + "'").join("from '" + pair[1] + "'");
      });
      return import(blobUrl(src));
    });
  }
  var workerUrl = text("worker-js").then(function (src) {
    return URL.createObjectURL(new Blob([src,
      "\nself.onmessage = function (e) {" +
      " if (e.data && e.data.peExplorerWasm) { self.onmessage = null;" +
      " wasm_bindgen({ module_or_path: e.data.peExplorerWasm }); } };\n"],
      { type: "text/javascript" }));
  });
  var workerWasm = null;
  window.peExplorerBundle = {
    // The app, once its worker's script is ready too (so a link that trains at once finds it).
    loadApp: function () {
      return Promise.all([module("app-js"), bytes("app-wasm"), workerUrl]).then(function (parts) {
        return parts[0].default({ module_or_path: parts[1] }).then(function () { return parts[0]; });
      });
    },
    // A training worker: started at once, given its wasm when the bytes are ready (the page
    // queues its commands until the worker says it is ready).
    worker: function () {
      if (!workerWasm) workerWasm = bytes("worker-wasm");
      var url = window.peExplorerBundle.workerUrl;
      if (!url) throw new Error("the worker's script is not ready yet");
      var w = new Worker(url);
      workerWasm.then(function (b) { w.postMessage({ peExplorerWasm: b }); });
      return w;
    },
    files: __FILES__,
  };
  workerUrl.then(function (url) { window.peExplorerBundle.workerUrl = url; });
  // The first paint; the app's exports become window.wasmBindings once it runs (src/early.rs).
  Promise.all([module("first-js"), bytes("first-wasm")]).then(function (parts) {
    return parts[0].default({ module_or_path: parts[1] });
  }).catch(function (e) {
    say("The explorer could not start from this file (" + (e && e.message || e) + "). " +
      "The file may be damaged: download it again.");
  });
})();
"""


def single_file(dist: Path) -> str:
    """The whole app as one HTML file: the site's stylesheet and worker, the first paint that
    loads the app from the page (src/bin/first.rs) and the app in one module (src/bin/whole.rs),
    both as scripts/build_app.sh --whole builds them into WHOLE_APP; not the site's module and
    its chunks."""
    whole = Path(os.environ.get("WHOLE_APP", "target/whole-app"))
    if not (whole / "pe-explorer_bg.wasm").is_file():
        sys.exit(f"package: {whole} holds no app in one module (scripts/package.sh builds it)")
    page = (dist / "index.html").read_text(encoding="utf-8")
    # The site's module script, its fetch of the module's wasm and its preloads: the single file
    # loads its own copies.
    loader = one(r"<script type=\"module\">\s*import init, \* as bindings from \"\./app/pe-explorer\.js\";.*?</script>", page, "site module loader")
    page = page.replace(loader.group(0), "")
    fetcher = one(r"<script id=\"pe-fetch\"[^>]*>.*?</script>", page, "site wasm fetch")
    page = page.replace(fetcher.group(0), "")
    # The site's module inside the page (scripts/inline_module.mjs), where a release build put it.
    page = re.sub(r"\s*<!-- The site's module, inside the page .*?peExplorerInline\.done\([^)]*\);</script>", "", page, flags=re.S)
    if "peExplorerInline" in page:
        sys.exit("package: the site's module inside index.html was not removed")
    page = re.sub(r"<link rel=\"(modulepreload|preload)\"[^>]*>", "", page)
    # Which files the site's chunks need: the single file has no chunks.
    page = re.sub(r"<script type=\"application/json\" id=\"pe-chunks\">.*?</script>\n?", "", page, flags=re.S)
    css = one(r"<link rel=\"stylesheet\" href=\"\./(style-[0-9a-f]+\.css)\"[^>]*/?>", page, "stylesheet")
    style = (dist / css.group(1)).read_text(encoding="utf-8")
    if "</style" in style.lower():
        sys.exit("package: the stylesheet contains </style>")
    page = page.replace(css.group(0), "<style>\n" + style + "\n</style>")

    assets = {
        "first-js": whole / "first.js",
        "first-wasm": whole / "first_bg.wasm",
        "app-js": whole / "pe-explorer.js",
        "app-wasm": whole / "pe-explorer_bg.wasm",
        "worker-js": dist / "worker.js",
        "worker-wasm": dist / "worker_bg.wasm",
    }
    snippets = []
    for i, path in enumerate(sorted((whole / "snippets").rglob("*.js"))):
        rel = path.relative_to(whole).as_posix()
        snippets.append({"id": f"snippet-{i}", "path": rel})
        assets[f"snippet-{i}"] = path
    files = {}
    for path in sorted((dist / "train").glob("*.py")):
        files[path.relative_to(dist).as_posix()] = path.read_text(encoding="utf-8")

    import json

    def js(value) -> str:
        # JSON in a script: "</" must not close it.
        return json.dumps(value, ensure_ascii=True).replace("</", "<\\/")

    blocks = []
    for name, path in assets.items():
        blocks.append(f'<script type="application/octet-stream" id="pe-asset-{name}">{gz64(path.read_bytes())}</script>')
    loader_js = LOADER.replace("__SNIPPETS__", js(snippets)).replace("__FILES__", js(files))
    body_end = page.rindex("</body>")
    page = (
        page[:body_end]
        + "<!-- The app, its training worker and its files, inside this page (gzip, base64). -->\n"
        + "\n".join(blocks)
        + "\n<script>"
        + loader_js
        + "</script>\n"
        + page[body_end:]
    )
    return page


def zip_dir(folder: Path, out: Path, top: str | None) -> None:
    out.unlink(missing_ok=True)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                rel = path.relative_to(folder).as_posix()
                info = zipfile.ZipInfo(f"{top}/{rel}" if top else rel, date_time=(2026, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, path.read_bytes())


def launch_script(query: str) -> str:
    """Opens the package's own page on its mode, once: the LMS launches index.html bare."""
    import json

    q = json.dumps("?" + query).replace("</", "<\\/")
    return (
        "<script>\n"
        "      // A SCORM package: the LMS opens index.html; the app opens in the mode the teacher chose.\n"
        "      (function () {\n"
        "        if (/[?&]lms=/.test(location.search)) return;\n"
        f"        try {{ history.replaceState(null, \"\", location.pathname + {q} + location.hash); }} catch (e) {{}}\n"
        "      })();\n"
        "    </script>\n    "
    )


def scorm_package(single: str, out: Path, mode: str, view: str | None, mastery: float | None, title: str | None) -> None:
    query, default_title = MODES[mode]
    if mode == "view" and view:
        keys = [k for k, _ in parse_qsl(view.lstrip("?"), keep_blank_values=True)]
        if "lms" in keys or "mastery" in keys:
            sys.exit("package: --view is a view's link query, without lms or mastery")
        query = view.lstrip("?")
    query += "&lms=scorm12"
    if mode == "exam" and mastery is not None:
        if not 0 <= mastery <= 100:
            sys.exit("package: --mastery is a score from 0 to 100")
        query += f"&mastery={mastery:g}"
    head = single.index("<head>") + len("<head>")
    page = single[:head] + "\n    " + launch_script(query) + single[head:]
    ident = "pe-explorer-" + mode
    mastery_xml = (
        f"\n        <adlcp:masteryscore>{mastery:g}</adlcp:masteryscore>"
        if mode == "exam" and mastery is not None
        else ""
    )
    manifest = MANIFEST.format(ident=ident, title=html.escape(title or default_title), mastery_xml=mastery_xml)
    out.unlink(missing_ok=True)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data in [("imsmanifest.xml", manifest), ("index.html", page)]:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data.encode("utf-8"))


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] == "--scorm":
        p = argparse.ArgumentParser(prog="package.py --scorm")
        p.add_argument("single", type=Path)
        p.add_argument("out", type=Path)
        p.add_argument("--mode", choices=sorted(MODES), default="exam")
        p.add_argument("--view", help="the view's link query, e.g. 'view=offsets&scheme=rope'")
        p.add_argument("--mastery", type=float, default=80.0)
        p.add_argument("--title")
        a = p.parse_args(args[1:])
        scorm_package(a.single.read_text(encoding="utf-8"), a.out, a.mode, a.view, a.mastery, a.title)
        print(f"package: {a.out} ({a.out.stat().st_size:,} bytes)")
        return
    if len(args) != 2:
        sys.exit(__doc__)
    dist, out = Path(args[0]), Path(args[1])
    if not (dist / "index.html").exists():
        sys.exit(f"package: {dist}/index.html is missing: build first (bash scripts/package.sh does)")
    out.mkdir(parents=True, exist_ok=True)

    site = out / "site"
    shutil.rmtree(site, ignore_errors=True)
    shutil.copytree(dist, site, ignore=lambda d, names: [n for n in names if n.endswith(SKIP_SUFFIXES)])
    (site / "_headers").write_text(HEADERS, encoding="utf-8")
    (site / ".htaccess").write_text(HTACCESS, encoding="utf-8")
    (site / "HOSTING.md").write_text(HOSTING, encoding="utf-8")
    zip_dir(site, out / "pe-explorer-site.zip", "pe-explorer")

    single = single_file(dist)
    (out / "pe-explorer.html").write_text(single, encoding="utf-8")
    scorm_package(single, out / "pe-explorer-scorm12.zip", "exam", None, 80.0, None)
    scorm_package(single, out / "pe-explorer-scorm12-lesson.zip", "lesson", None, None, None)
    for name in ["pe-explorer-site.zip", "pe-explorer.html", "pe-explorer-scorm12.zip", "pe-explorer-scorm12-lesson.zip"]:
        size = (out / name).stat().st_size
        print(f"package: {out / name} ({size:,} bytes, {size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
