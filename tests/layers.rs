//! The crate's floors: no file reaches back up to a file that reaches it (no import circle), and
//! each part imports only the floors below it ("Layout" in `docs/architecture.md` draws them).
//! Reads `src/` as text: every `use crate::…`, `crate::…`, `super::…` path (and `pe_explorer::…`
//! in the binaries) is mapped to the file that defines the module it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, as paths relative to the crate root ("src/ui/app.rs").
fn sources(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(root, &p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push(rel);
        }
    }
}

/// "src/a/b.rs" → ["a", "b"]; "src/a/mod.rs" → ["a"]; "src/lib.rs" → [].
fn module_of(file: &str) -> Vec<String> {
    let inner = &file["src/".len()..file.len() - 3];
    let mut parts: Vec<String> = inner.split('/').map(String::from).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The code alone: comments removed and the insides of string and character literals blanked
/// (a path written in a string is not an import).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else if c == '\'' && next == Some('\\') && chars.get(i + 3) == Some(&'\'') {
            out.push_str("' '");
            i += 4;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// "a::{b, c::{d, e}}" → ["a::b", "a::c::d", "a::c::e"].
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.to_string()];
    };
    let close = tree.rfind('}').unwrap_or(tree.len());
    let (head, body) = (&tree[..open], &tree[open + 1..close]);
    let mut items = Vec::new();
    let (mut depth, mut current) = (0, String::new());
    for ch in body.chars() {
        match ch {
            ',' if depth == 0 => items.push(std::mem::take(&mut current)),
            '{' => {
                depth += 1;
                current.push(ch)
            }
            '}' => {
                depth -= 1;
                current.push(ch)
            }
            _ => current.push(ch),
        }
    }
    items.push(current);
    items
        .iter()
        .filter(|i| !i.trim().is_empty())
        .flat_map(|i| expand(&format!("{head}{}", i.trim())))
        .collect()
}

/// Paths that start with `crate`, `super`, `self` or the crate's name, from `use` items and
/// from the code.
fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    // `use` items: the keyword at the start of an item (after `;`, a brace, an attribute, or
    // `pub`/`pub(crate)`), up to its `;`.
    let words: Vec<(usize, &str)> = code
        .match_indices(|c: char| !(c.is_alphanumeric() || c == '_'))
        .scan(0, |start, (at, sep)| {
            let word = (*start, &code[*start..at]);
            *start = at + sep.len();
            Some(word)
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    for (n, (at, word)) in words.iter().enumerate() {
        if *word != "use" {
            continue;
        }
        let before = code[..*at].trim_end();
        let item_start = before.is_empty()
            || before.ends_with([';', '{', '}', ']'])
            || (n > 0 && words[n - 1].1 == "pub" && before.ends_with("pub"))
            || before.ends_with(')') && before.trim_end_matches(|c| c != '(').ends_with("pub(");
        if let (true, Some(end)) = (item_start, code[at + 3..].find(';')) {
            out.extend(expand(&code[at + 3..at + 3 + end]));
        }
    }
    // Paths written in the code: `crate::a::b(…)`, `super::x`.
    for start in ["crate::", "super::", "pe_explorer::"] {
        for (at, _) in code.match_indices(start) {
            let prior = code[..at].chars().last();
            if prior.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            out.push(code[at..end].trim_end_matches(':').to_string());
        }
    }
    out
}

/// Every file and the files it imports.
fn graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    sources(root, &root.join("src"), &mut files);
    let known: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let file_of = |module: &[String]| -> Option<String> {
        (1..=module.len()).rev().find_map(|n| {
            let stem = module[..n].join("/");
            [format!("src/{stem}.rs"), format!("src/{stem}/mod.rs")]
                .into_iter()
                .find(|f| known.contains(f.as_str()))
        })
    };
    let mut edges = BTreeMap::new();
    for f in &files {
        let text = code_only(&std::fs::read_to_string(root.join(f)).unwrap());
        let here = module_of(f);
        let is_bin = f.starts_with("src/bin/") || f == "src/main.rs";
        let mut out = BTreeSet::new();
        for p in paths(&text) {
            let p = p.split(" as ").next().unwrap().trim().to_string();
            let parts: Vec<String> = p.split("::").map(String::from).collect();
            let module: Vec<String> = match parts[0].as_str() {
                "crate" => parts[1..].to_vec(),
                "pe_explorer" if is_bin => parts[1..].to_vec(),
                "super" => {
                    let ups = parts.iter().take_while(|s| *s == "super").count();
                    let mut m = here[..here.len().saturating_sub(ups)].to_vec();
                    m.extend_from_slice(&parts[ups..]);
                    m
                }
                "self" => {
                    let mut m = here.clone();
                    m.extend_from_slice(&parts[1..]);
                    m
                }
                _ => continue,
            };
            if let Some(target) = file_of(&module).filter(|t| t != f) {
                out.insert(target);
            }
        }
        edges.insert(f.clone(), out);
    }
    edges
}

/// The sets of files that reach each other through imports (Tarjan), largest first.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for w in &self.edges[v] {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    group.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found.sort_by_key(|g| std::cmp::Reverse(g.len()));
    walk.found
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_file_imports_a_file_that_imports_it() {
    let edges = graph(&root());
    assert!(edges.len() > 50, "only {} files read", edges.len());
    let found = circles(&edges);
    let described: Vec<String> = found
        .iter()
        .map(|group| {
            let inside: BTreeSet<&String> = group.iter().collect();
            let lines: Vec<String> = group
                .iter()
                .map(|f| {
                    let back: Vec<&str> = edges[f]
                        .iter()
                        .filter(|t| inside.contains(t))
                        .map(String::as_str)
                        .collect();
                    format!("  {f} -> {}", back.join(", "))
                })
                .collect();
            format!("a circle of {} files:\n{}", group.len(), lines.join("\n"))
        })
        .collect();
    assert!(found.is_empty(), "{}", described.join("\n"));
}

/// What each part of the crate may import, as "Layout" in `docs/architecture.md` says.
#[test]
fn each_floor_imports_only_the_floors_below() {
    let edges = graph(&root());
    // (files starting with, what their imports must not start with).
    let rules: &[(&str, &[&str])] = &[
        ("src/math/", &["src/"]),
        (
            "src/plot/",
            &[
                "src/schemes/",
                "src/state.rs",
                "src/figures/",
                "src/ui/",
                "src/train/",
            ],
        ),
        (
            "src/schemes/",
            &[
                "src/figures/",
                "src/action.rs",
                "src/url.rs",
                "src/learn/",
                "src/ui/",
            ],
        ),
        (
            "src/state.rs",
            &[
                "src/schemes/mod.rs",
                "src/schemes/def.rs",
                "src/figures/",
                "src/ui/",
            ],
        ),
        (
            "src/figures/",
            &["src/action.rs", "src/url.rs", "src/learn/", "src/ui/"],
        ),
        ("src/learn/", &["src/action.rs", "src/url.rs", "src/ui/"]),
        (
            "src/train/",
            &["src/ui/", "src/action.rs", "src/url.rs", "src/learn/"],
        ),
        // The first paint's charts: no UI, and not the link's whole parser (the first-paint
        // module links what this file reaches, and stays small).
        ("src/main_chart.rs", &["src/ui/", "src/url.rs"]),
        // The first paint itself: the site's main module holds what it reaches, so it reaches
        // no Yew and not the link's parser (the app's chunk brings those).
        ("src/early.rs", &["src/ui/", "src/url.rs", "src/action.rs"]),
    ];
    let mut wrong = Vec::new();
    for (file, targets) in &edges {
        for (floor, banned) in rules {
            if !file.starts_with(floor) {
                continue;
            }
            for t in targets {
                // Inside math, files import each other; nothing else of the crate.
                let own = *floor == "src/math/" && t.starts_with("src/math/");
                if !own && banned.iter().any(|b| t.starts_with(b)) {
                    wrong.push(format!("{file} imports {t}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The check finds a circle when there is one (a crate written to a temporary folder).
#[test]
fn a_circle_is_found() {
    let dir = std::env::temp_dir().join(format!("pe-layers-{}", std::process::id()));
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n");
    write(
        "src/a.rs",
        "use crate::b::{B, other::X};\n// use crate::c;\n",
    );
    write(
        "src/b.rs",
        "pub fn f() { let url = \"https://x//\"; super::c::g(); }\n",
    );
    write("src/c.rs", "use crate::a as first;\n");
    let edges = graph(&dir);
    let found = circles(&edges);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        found,
        vec![vec![
            "src/a.rs".to_string(),
            "src/b.rs".to_string(),
            "src/c.rs".to_string()
        ]],
        "{edges:?}"
    );
}
