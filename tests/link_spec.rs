//! What the notebook package (`python/`) knows of the link is the link's own: `spec.json` is
//! what `link_spec::json()` reads off the parser now, and what it reads is right for keys whose
//! limits are known here.

use pe_explorer::limit::{BASE, D_MODEL};
use pe_explorer::link_spec::{keys, Kind, WIDGET_KEYS};
use pe_explorer::schemes::Scheme;

const FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/python/src/pe_explorer/spec.json"
);

/// `link_spec::json` against the committed file.
#[test]
fn the_python_package_has_the_links_spec_as_it_is_now() {
    let file = std::fs::read_to_string(FILE).expect("python/src/pe_explorer/spec.json");
    assert!(
        file == pe_explorer::link_spec::json(),
        "python/src/pe_explorer/spec.json is out of date: run \
         `cargo run --example link_spec > python/src/pe_explorer/spec.json`"
    );
}

/// `link_spec::keys` reads each kind off the parser: the limits of `limit::D_MODEL` and
/// `limit::BASE`, the schemes of the registry, flags, lists, and ranges that depend on others.
#[test]
fn every_key_is_read_as_the_parser_takes_it() {
    let all = keys();
    let get = |k: &str| all.iter().find(|(key, _, _)| key == k).unwrap().clone();
    for (key, limit) in [("d_model", D_MODEL), ("base", BASE)] {
        match get(key).2 {
            Kind::Number {
                min,
                max,
                integer,
                list,
                dependent,
                ..
            } => {
                assert_eq!((min, max), (limit.min, limit.max), "{key}");
                assert_eq!(integer, limit.integer, "{key}");
                assert!(!list && !dependent, "{key}");
            }
            k => panic!("{key}: {k:?}"),
        }
    }
    let ids: Vec<String> = Scheme::ALL.iter().map(|s| s.id().to_string()).collect();
    assert_eq!(get("scheme").2, Kind::Choice(ids));
    assert_eq!(get("normalised").2, Kind::Flag);
    assert!(matches!(
        get("anchors").2,
        Kind::Number {
            list: true,
            dependent: true,
            ..
        }
    ));
    assert!(matches!(
        get("head").2,
        Kind::Number {
            dependent: true,
            ..
        }
    ));
    assert_eq!(get("a").2, Kind::Text);
    assert_eq!(get("d_model").1.as_deref(), Some("128"));
    // Every key a link reads is there, but the widget's own.
    let n = pe_explorer::url::keys()
        .filter(|k| !WIDGET_KEYS.contains(k))
        .count();
    assert_eq!(all.len(), n);
}
