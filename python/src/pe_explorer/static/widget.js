// The Positional Encoding Explorer in a notebook's output cell (anywidget). The app is the same
// single page as the site's single file (the first paint, the app and the training worker, all
// inside it); this module asks Python for it once per page, over the widget's comm, as one
// binary buffer, and shows it in a sandboxed frame. The frame has no address, so the link query
// is handed to it (window.peExplorerQuery); it answers with every change of state, the main
// chart's numbers and, when asked, its PNG (see src/ui/notebook.rs for the messages).

const HOST = "pe-explorer:host";
const HEIGHT = "pe-explorer:height";
const STATE = "pe-explorer:state";
const NOTICES = "pe-explorer:notices";
const FIGURE = "pe-explorer:figure";
const RESULTS = "pe-explorer:results";
const PNG = "pe-explorer:png";
const SET = "pe-explorer:set";

const SANDBOX = "allow-scripts allow-downloads allow-popups allow-popups-to-escape-sandbox";

/** The app's page, shared by every widget on this page: asked for once, by the first widget
 * that needs it. A request that gets no answer (the kernel restarted, the cell was run again) is
 * forgotten after a while, and the next widget asks again. */
function appPage(model) {
  const version = model.get("_version");
  const cache = (globalThis.__peExplorerApp ??= {});
  if (!cache[version]) {
    const asked = new Promise((resolve, reject) => {
      const onMsg = (msg, buffers) => {
        if (!msg || msg.kind !== "app" || !buffers || !buffers.length) return;
        clearTimeout(timer);
        model.off("msg:custom", onMsg);
        resolve(new TextDecoder().decode(buffers[0]));
      };
      const timer = setTimeout(() => {
        model.off("msg:custom", onMsg);
        delete cache[version];
        reject(new Error("the Python kernel did not send the explorer (is it running?)"));
      }, 30000);
      model.on("msg:custom", onMsg);
      model.send({ kind: "need-app" });
    });
    cache[version] = asked;
  }
  return cache[version];
}

/** Whether the notebook around the widget is dark (JupyterLab, VS Code, marimo, Colab). */
function isDark() {
  const b = document.body;
  const h = document.documentElement;
  if (b && b.dataset.jpThemeLight) return b.dataset.jpThemeLight === "false";
  if (b && (b.classList.contains("vscode-dark") || b.classList.contains("vscode-high-contrast"))) return true;
  if (b && b.classList.contains("vscode-light")) return false;
  if (h.classList.contains("dark") || h.dataset.theme === "dark" || h.getAttribute("theme") === "dark") return true;
  if (h.classList.contains("light") || h.dataset.theme === "light" || h.getAttribute("theme") === "light") return false;
  return matchMedia("(prefers-color-scheme: dark)").matches;
}

/** A CSV's rows of cells (quoted cells may hold commas, quotes and line breaks). */
function csvRows(text) {
  const rows = [];
  let row = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += c;
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** A CSV as columns for Python: numbers as float64 buffers, text as lists. */
function csvColumns(text) {
  const [header, ...body] = csvRows(text.trim());
  const columns = [];
  const buffers = [];
  header.forEach((name, i) => {
    const cells = body.map((r) => (i < r.length ? r[i] : ""));
    const numbers = cells.map((c) => (c.trim() === "NaN" ? NaN : c.trim() === "" ? NaN : Number(c)));
    const numeric = cells.every((c, j) => c.trim() === "NaN" || (c.trim() !== "" && !Number.isNaN(numbers[j])));
    if (numeric) {
      columns.push({ name, kind: "f8" });
      buffers.push(new Float64Array(numbers).buffer);
    } else {
      columns.push({ name, kind: "str", values: cells });
    }
  });
  return { columns, buffers };
}

function render({ model, el }) {
  const frame = document.createElement("iframe");
  frame.className = "pe-explorer-frame";
  frame.setAttribute("sandbox", SANDBOX);
  frame.setAttribute("title", "Positional Encoding Explorer");
  frame.style.height = "420px";
  const note = document.createElement("p");
  note.className = "pe-explorer-note";
  note.setAttribute("role", "status");
  note.textContent = "Loading the Positional Encoding Explorer…";
  el.append(note, frame);

  // The query the frame has now (the one it sent last, or the one last sent to it): a change of
  // the model to anything else is sent to it.
  let inFrame = model.get("_query");
  // The frame's newest state, sent to the kernel once an animation frame.
  let latest = null;
  let syncing = false;
  // PNG requests made before the frame's app could answer them.
  let ready = false;
  const queued = [];

  const post = (message) => frame.contentWindow && frame.contentWindow.postMessage(message, "*");
  const tellHost = () => {
    const r = frame.getBoundingClientRect();
    post({ type: HOST, dark: isDark(), sandbox: SANDBOX, top: r.top, viewport: innerHeight });
  };

  const onMessage = (e) => {
    if (e.source !== frame.contentWindow || !e.data || typeof e.data.type !== "string") return;
    const d = e.data;
    switch (d.type) {
      case HEIGHT:
        if (Number.isFinite(d.height) && d.height > 0) frame.style.height = `${Math.ceil(d.height)}px`;
        note.textContent = "";
        note.hidden = true;
        tellHost();
        break;
      case STATE:
        if (!ready) {
          ready = true;
          queued.splice(0).forEach(post);
        }
        if (typeof d.query === "string") inFrame = d.query;
        // A drag sends a state per step: the kernel hears the newest once a frame.
        latest = d;
        if (!syncing) {
          syncing = true;
          requestAnimationFrame(() => {
            syncing = false;
            if (typeof latest.query === "string" && latest.query !== model.get("_query")) model.set("_query", latest.query);
            if (typeof latest.link === "string") model.set("_link", latest.link);
            model.save_changes();
          });
        }
        break;
      case NOTICES:
        model.send({ kind: "notices", query: String(d.query), notices: (d.notices || []).map(String) });
        break;
      case FIGURE:
        if (typeof d.csv === "string") {
          const { columns, buffers } = csvColumns(d.csv);
          model.send({ kind: "figure", query: String(d.query), view: String(d.view), name: String(d.name), columns }, undefined, buffers);
        } else {
          model.send({ kind: "figure", query: String(d.query), view: String(d.view), problem: String(d.problem || "no numbers") });
        }
        break;
      case RESULTS:
        if (typeof d.csv === "string") {
          const { columns, buffers } = csvColumns(d.csv);
          model.send({ kind: "results", name: String(d.name), columns }, undefined, buffers);
        }
        break;
      case PNG: {
        const id = d.id;
        if (typeof d.data === "string" && d.data.startsWith("data:image/png;base64,")) {
          const bin = atob(d.data.slice(22));
          const bytes = new Uint8Array(bin.length);
          for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
          model.send({ kind: "png", id, name: String(d.name) }, undefined, [bytes.buffer]);
        } else {
          model.send({ kind: "png", id, problem: String(d.problem || "no picture") });
        }
        break;
      }
    }
  };
  addEventListener("message", onMessage);

  const onQuery = () => {
    const q = model.get("_query");
    if (q !== inFrame) {
      inFrame = q;
      post({ type: SET, query: q });
    }
  };
  model.on("change:_query", onQuery);
  const onCustom = (msg) => {
    if (msg && msg.kind === "png") {
      const ask = { type: PNG, id: msg.id };
      if (ready) post(ask);
      else queued.push(ask);
    }
  };
  model.on("msg:custom", onCustom);

  // The notebook's theme and the reader's scrolling, as a host page's script reports them.
  const themeWatch = new MutationObserver(tellHost);
  themeWatch.observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light", "class"] });
  themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ["class", "data-theme", "theme"] });
  let pending = false;
  const onScroll = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      tellHost();
    });
  };
  addEventListener("scroll", onScroll, true);
  addEventListener("resize", onScroll);
  frame.addEventListener("load", tellHost);

  // A value inside an inline script: "<" escaped, so no text can close the script.
  const js = (v) => JSON.stringify(v).replace(/</g, "\\u003c");
  appPage(model).then(
    (page) => {
      const start =
        "<script>window.peExplorerWidget = true;" +
        `window.peExplorerQuery = ${js(model.get("_query"))};` +
        `window.peExplorerSite = ${js(model.get("_site"))};</scr` +
        "ipt>";
      frame.srcdoc = page.replace("<head>", () => `<head>${start}`);
    },
    (e) => {
      note.textContent = `The explorer could not start: ${e.message}. Run the cell again.`;
    },
  );

  return () => {
    removeEventListener("message", onMessage);
    removeEventListener("scroll", onScroll, true);
    removeEventListener("resize", onScroll);
    themeWatch.disconnect();
    model.off("change:_query", onQuery);
    model.off("msg:custom", onCustom);
  };
}

export default { render };
