//! Embedding one panel in another page (a course page, a notebook, an LMS): what the frame
//! shows, the messages it exchanges with the page around it, what that page's sandbox lets it
//! do, and the code a teacher pastes. Pure: no browser; `ui/app.rs` and `ui/host.rs` use it.
//!
//! The frame posts its content height ([`HEIGHT_MESSAGE`]); the host script the embed code
//! carries sets the frame's height from it and answers with [`HOST_MESSAGE`]: where the frame
//! is on the reader's screen, whether the page around it is dark, and the frame's `sandbox`.
//! Without the script (a site that strips scripts) the frame keeps the fixed height the code
//! gives it, and the panel scrolls inside it without trapping the page (see `ui/app.rs`).

/// Type of the message an embedded panel sends its parent page with its height.
pub const HEIGHT_MESSAGE: &str = "pe-explorer:height";

/// Type of the message the host script sends back to a panel.
pub const HOST_MESSAGE: &str = "pe-explorer:host";

/// How much of the panel an embed shows (`show=` in the link).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Show {
    /// The whole panel: charts, explanations, code.
    #[default]
    Panel,
    /// The view's main chart (with its main controls unless `controls=none`).
    Chart,
}

impl Show {
    pub const ALL: [Show; 2] = [Show::Panel, Show::Chart];

    pub fn id(self) -> &'static str {
        match self {
            Show::Panel => "panel",
            Show::Chart => "chart",
        }
    }

    pub fn from_id(id: &str) -> Option<Show> {
        Show::ALL.into_iter().find(|s| s.id() == id.trim())
    }
}

/// The three things the embed dialog offers to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// The main chart alone.
    ChartOnly,
    /// The main chart with its main controls (and every setting behind one button).
    ChartAndControls,
    /// The whole panel with every setting.
    WholePanel,
}

impl Content {
    pub const ALL: [Content; 3] = [
        Content::ChartOnly,
        Content::ChartAndControls,
        Content::WholePanel,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Content::ChartOnly => "Chart only",
            Content::ChartAndControls => "Chart and controls",
            Content::WholePanel => "Whole panel",
        }
    }

    /// `show` and whether the controls are shown.
    pub fn show_controls(self) -> (Show, bool) {
        match self {
            Content::ChartOnly => (Show::Chart, false),
            Content::ChartAndControls => (Show::Chart, true),
            Content::WholePanel => (Show::Panel, true),
        }
    }
}

/// Which code the embed dialog writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeKind {
    /// The frame and a small script that sizes it to the panel and tells the panel where the
    /// reader is looking and the page's colours.
    Sized,
    /// The frame alone at a fixed height, for sites that strip scripts.
    Fixed,
}

impl CodeKind {
    pub const ALL: [CodeKind; 2] = [CodeKind::Sized, CodeKind::Fixed];

    pub fn label(self) -> &'static str {
        match self {
            CodeKind::Sized => "Frame and script (sizes itself)",
            CodeKind::Fixed => "Frame only, fixed height (for sites that strip scripts)",
        }
    }
}

/// What the sandbox of the copied code allows: scripts (needed), downloads (CSV, PNG), and
/// new tabs ("Open in the explorer") that are not themselves sandboxed.
pub const SANDBOX: &str =
    "allow-scripts allow-downloads allow-popups allow-popups-to-escape-sandbox";

/// The height a fixed-height frame gets, in CSS pixels: enough for the chart of any view on a
/// phone (the chart alone), with its controls, or a first screen of the whole panel.
pub fn fixed_height(content: Content) -> u32 {
    match content {
        Content::ChartOnly => 520,
        Content::ChartAndControls => 640,
        Content::WholePanel => 720,
    }
}

/// Text for an HTML attribute value in double quotes.
pub fn attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// The script the sized code carries. Once per page however many panels are pasted: it sizes
/// each frame that posts its height, and tells it (at most once a frame while the page
/// scrolls) where it is on the screen, whether the page behind it is dark (the first opaque
/// background above the frame, else the page's colour scheme), and its sandbox.
pub const HOST_SCRIPT: &str = concat!(
    "(function(){if(window.peExplorerHost)return;window.peExplorerHost=1;var F=[],q=0;",
    "function dark(f){for(var n=f.parentElement;n;n=n.parentElement){",
    "var c=getComputedStyle(n).backgroundColor.match(/[\\d.]+/g);",
    "if(c&&(c.length<4||c[3]>0.5))return 0.2126*c[0]+0.7152*c[1]+0.0722*c[2]<128}",
    "return /dark/.test(getComputedStyle(document.documentElement).colorScheme)&&",
    "matchMedia(\"(prefers-color-scheme: dark)\").matches}",
    "function send(f){if(!f.contentWindow)return;var r=f.getBoundingClientRect();",
    "f.contentWindow.postMessage({type:\"pe-explorer:host\",top:r.top,viewport:innerHeight,",
    "dark:dark(f),sandbox:f.getAttribute(\"sandbox\")},\"*\")}",
    "function all(){q=0;F.forEach(send)}function soon(){if(!q)q=requestAnimationFrame(all)}",
    "addEventListener(\"message\",function(e){var d=e.data;",
    "if(!d||d.type!==\"pe-explorer:height\"||typeof d.height!==\"number\")return;",
    "document.querySelectorAll(\"iframe\").forEach(function(f){if(f.contentWindow===e.source){",
    "f.style.height=Math.ceil(d.height)+\"px\";if(F.indexOf(f)<0)F.push(f);send(f)}})});",
    "addEventListener(\"scroll\",soon,{capture:true,passive:true});addEventListener(\"resize\",soon);",
    "var m=matchMedia(\"(prefers-color-scheme: dark)\");if(m.addEventListener)m.addEventListener(\"change\",soon);",
    "var o=new MutationObserver(soon);o.observe(document.documentElement,{attributes:true});",
    "if(document.body)o.observe(document.body,{attributes:true})})();"
);

/// The code a teacher pastes: the frame (`src` is the panel's link, `title` its accessible
/// name) and, for [`CodeKind::Sized`], the host script.
pub fn embed_code(src: &str, title: &str, content: Content, kind: CodeKind) -> String {
    let height = match kind {
        // Where the script runs it sets the height at once; this is what shows before.
        CodeKind::Sized => fixed_height(content),
        CodeKind::Fixed => fixed_height(content),
    };
    let frame = format!(
        "<iframe src=\"{}\" title=\"{}\" style=\"width:100%;height:{height}px;border:0\" \
         loading=\"lazy\" allow=\"clipboard-write\" sandbox=\"{SANDBOX}\"></iframe>",
        attribute(src),
        attribute(title),
    );
    match kind {
        CodeKind::Sized => format!("{frame}\n<script>{HOST_SCRIPT}</script>"),
        CodeKind::Fixed => frame,
    }
}

/// The part of the frame the reader can see, in the frame's own CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Visible {
    pub top: f64,
    pub bottom: f64,
}

impl Visible {
    pub fn height(&self) -> f64 {
        self.bottom - self.top
    }
}

/// Which part of a frame `frame_height` tall is on screen, when its top is `frame_top` pixels
/// below the top of a screen `viewport` pixels high (negative: scrolled above it). `None` when
/// none of it is, or when the numbers are not numbers.
pub fn visible(frame_top: f64, viewport: f64, frame_height: f64) -> Option<Visible> {
    if !(frame_top.is_finite() && viewport.is_finite() && frame_height.is_finite()) {
        return None;
    }
    if viewport <= 0.0 || frame_height <= 0.0 {
        return None;
    }
    let top = (-frame_top).clamp(0.0, frame_height);
    let bottom = (viewport - frame_top).clamp(0.0, frame_height);
    (bottom > top).then_some(Visible { top, bottom })
}

/// Whether a browser feature the panel needs is allowed in its frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Permission {
    Allowed,
    Blocked,
    /// In a frame whose sandbox the panel cannot see (no host script): try, and offer the way
    /// out in case it was blocked.
    Unknown,
}

/// Whether a sandbox attribute's value holds `token` (`allow-downloads`, `allow-popups`).
pub fn sandbox_allows(sandbox: &str, token: &str) -> bool {
    sandbox
        .split_ascii_whitespace()
        .any(|t| t.eq_ignore_ascii_case(token))
}

/// What the panel may do: not framed, anything; framed, what the host script says the
/// frame's sandbox holds (`Some(None)`: no sandbox attribute), or unknown without the script.
pub fn permission(framed: bool, sandbox: Option<Option<&str>>, token: &str) -> Permission {
    match (framed, sandbox) {
        (false, _) | (true, Some(None)) => Permission::Allowed,
        (true, Some(Some(s))) if sandbox_allows(s, token) => Permission::Allowed,
        (true, Some(Some(_))) => Permission::Blocked,
        (true, None) => Permission::Unknown,
    }
}
