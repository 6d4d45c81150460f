//! Every view names its sources, every source is a real link, and `docs/engineers.md` lists them
//! all (its "Sources" section).

use pe_explorer::schemes::{sources, Registered, Scheme};
use pe_explorer::sources::{Kind, ALL, ROFORMER, VASWANI};
use pe_explorer::state::View;

#[test]
fn every_view_and_scheme_names_papers_and_links() {
    for view in View::ALL {
        for scheme in Scheme::ALL {
            let list = sources(view, View::Matrix, scheme);
            assert!(!list.is_empty(), "{view:?} with {scheme:?} names no source");
            assert!(
                list.iter().any(|s| s.kind == Kind::Paper),
                "{view:?} with {scheme:?}: no paper"
            );
            for (i, s) in list.iter().enumerate() {
                assert!(
                    !list[..i].iter().any(|t| t.url == s.url),
                    "{view:?}: {} twice",
                    s.url
                );
            }
        }
    }
    for scheme in Scheme::ALL {
        assert!(!scheme.def().sources().is_empty());
    }
}

#[test]
fn the_scheme_on_screen_decides() {
    let rope = sources(View::Offsets, View::Matrix, Scheme::Rope);
    assert_eq!(rope[0], &ROFORMER);
    let sinusoidal = sources(View::Matrix, View::Matrix, Scheme::Sinusoidal);
    assert_eq!(sinusoidal[0], &VASWANI);
    // The lesson's sources are those of its step's view.
    assert_eq!(
        sources(View::Lesson, View::Offsets, Scheme::Rope),
        rope,
        "a lesson step showing RoPE by distance"
    );
}

#[test]
fn sources_are_well_formed_and_distinct() {
    let all = ALL;
    for (i, s) in all.iter().enumerate() {
        assert!(s.url.starts_with("https://"), "{}", s.url);
        assert!(!s.url.contains(' ') && !s.url.contains('"'), "{}", s.url);
        assert!(!s.who.is_empty() && !s.title.is_empty());
        assert!(!all[..i].iter().any(|t| t.url == s.url), "{} twice", s.url);
    }
    // Every source any view cites is in the app's list (the one `docs/engineers.md` shows).
    for view in View::ALL {
        for scheme in Scheme::ALL {
            for s in sources(view, view, scheme) {
                assert!(
                    all.iter().any(|a| a.url == s.url),
                    "{} is not in the list",
                    s.url
                );
            }
        }
    }
}

#[test]
fn the_engineers_page_lists_every_source() {
    let page = include_str!("../docs/engineers.md");
    for s in ALL {
        assert!(
            page.contains(s.url),
            "docs/engineers.md does not list {}",
            s.url
        );
    }
}
