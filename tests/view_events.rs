//! Two Yews on one page (the shell and a view module) mark events with the same property names,
//! so the loader in `src/bin/first.rs` (`isolate`) marks every event from inside a module's host
//! as no root's before the shell's Yew sees it. It does so for the event types in its `EVENTS`
//! list. A handler of a type missing from the list would run the shell's handler for a click
//! meant for the module's (the M-RoPE "sin" radio once set the base to 10). This test reads the
//! views' sources as text and holds the list to every `on…` handler they attach.

use std::collections::BTreeSet;
use std::path::Path;

/// The event types `EVENTS` names in `src/bin/first.rs`.
fn isolated(root: &Path) -> BTreeSet<String> {
    let first = std::fs::read_to_string(root.join("src/bin/first.rs")).unwrap();
    let start = first
        .find("const EVENTS = [")
        .expect("first.rs declares EVENTS");
    let list = &first[start..];
    let list = &list[list.find('[').unwrap() + 1..list.find(']').unwrap()];
    list.split(',')
        .map(|t| t.trim().trim_matches('\'').to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Every event type a handler attribute names in `src` (`onclick={…}`, `{onclick}`), with the
/// file it is in.
fn handlers(dir: &Path, out: &mut BTreeSet<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            handlers(&path, out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let bytes = text.as_bytes();
        for (i, _) in text.match_indices("on") {
            // A whole word: not "button", not "json".
            if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
                continue;
            }
            let name: String = text[i + 2..]
                .chars()
                .take_while(char::is_ascii_lowercase)
                .collect();
            let after = &text[i + 2 + name.len()..];
            let attribute = after.starts_with("={");
            let shorthand = i > 0 && bytes[i - 1] == b'{' && after.starts_with('}');
            if !name.is_empty() && (attribute || shorthand) {
                out.insert((name, path.display().to_string()));
            }
        }
    }
}

#[test]
fn every_handler_the_views_attach_is_isolated_between_the_shell_and_a_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let events = isolated(root);
    assert!(events.contains("click") && events.contains("pointermove"));
    let mut used = BTreeSet::new();
    handlers(&root.join("src/ui"), &mut used);
    assert!(
        used.iter().any(|(name, _)| name == "click"),
        "the scan found the views' handlers"
    );
    let missing: Vec<_> = used
        .iter()
        .filter(|(name, _)| !events.contains(name))
        .collect();
    assert!(
        missing.is_empty(),
        "handlers not in EVENTS (src/bin/first.rs): {missing:?}"
    );
}
