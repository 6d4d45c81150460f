//! The first paint: what it reads from an address is what the app reads from it, and every view
//! it draws early has a main chart with the id the view gives its first canvas.

use pe_explorer::main_chart::{early, main_chart, panel_lead, shown_view};
use pe_explorer::schemes::{Scheme, Space};
use pe_explorer::state::View;
use pe_explorer::url;

/// Addresses a student or a teacher's link opens: every view, embedded or not, every scheme,
/// lesson steps, quiz questions and the sliders' values.
fn addresses() -> Vec<String> {
    let mut out = vec![String::new(), "?".into()];
    for v in View::ALL {
        out.push(format!("?view={}", v.id()));
        out.push(format!("?embed={}", v.id()));
        out.push(format!("?embed={}&show=chart", v.id()));
        out.push(format!(
            "?embed={}&show=chart&controls=none&d_model=32",
            v.id()
        ));
        out.push(format!("?embed={}&controls=none&show=panel", v.id()));
        for s in Scheme::ALL {
            out.push(format!("?view={}&scheme={}", v.id(), s.id()));
            out.push(format!("?embed={}&scheme={}&length=64", v.id(), s.id()));
        }
    }
    for n in 1..=pe_explorer::learn::lesson::STEPS.len() {
        out.push(format!("?view=lesson&lesson={n}"));
        out.push(format!("?embed=lesson&lesson={n}&d_model=64"));
    }
    for n in 1..=pe_explorer::learn::quiz::QUESTIONS.len() {
        out.push(format!("?view=quiz&question={n}"));
        out.push(format!("?view=quiz&question={n}&length=32&scheme=rope"));
    }
    for q in [
        "?d_model=64&length=256&base=500&variant=interleaved&palette=viridis&theme=dark",
        "?length=1024&d_model=512&view=offsets",
        "?base=10&scheme=rope&view=heatmap",
        "?theme=light&view=waves&base=100",
        "?view=rotations&d_model=16",
        "?view=lesson",
    ] {
        out.push(q.into());
    }
    out
}

#[test]
fn the_first_paint_reads_an_address_as_the_app_does() {
    let mut read = 0;
    for q in addresses() {
        let parsed = url::parse(&q);
        let Some(e) = early(&q) else {
            // The first paint leaves only what the app would change or say something about, and
            // the quiz (its first screen is a question's text).
            let quiz = parsed.settings.view == View::Quiz;
            assert!(!parsed.notices.is_empty() || quiz, "{q}: left to the app");
            continue;
        };
        read += 1;
        assert!(
            parsed.notices.is_empty(),
            "{q}: read early, but the app says {:?}",
            parsed.notices
        );
        assert_eq!(e.settings, parsed.settings, "{q}");
        assert_eq!(e.embed, parsed.embed.as_ref().map(|x| x.view), "{q}");
        if let Some(embed) = parsed.embed {
            assert_eq!(
                e.show_chart,
                embed.show == pe_explorer::embed::Show::Chart,
                "{q}"
            );
            assert_eq!(e.controls, embed.controls, "{q}");
        }
    }
    assert!(read > 150, "only {read} addresses read early");
}

#[test]
fn addresses_the_first_paint_does_not_know_wait_for_the_app() {
    for q in [
        "?unknown=1",
        "?d_model=100000",
        "?length=abc",
        "?scheme=nope",
        "?view=heatmap&view=offsets",
        "?embed=offsets&controls=some",
        "?embed=offsets&show=all",
        "?view=offsets&show=chart",
        "?anchors=1,2,3",
        "?view=heatmap&embed=offsets",
        "?lesson=99&view=lesson",
        "?d_model=%36%34",
    ] {
        assert_eq!(early(q), None, "{q}");
    }
}

#[test]
fn every_view_a_link_opens_has_its_main_chart_or_says_it_has_none() {
    // Views whose first chart is drawn before the app arrives, per scheme where they have one.
    for v in [View::Matrix, View::Offsets] {
        for s in Scheme::ALL {
            let e = early(&format!("?view={}&scheme={}", v.id(), s.id())).unwrap();
            let chart = main_chart(&e.settings);
            // No scheme, and the schemes of image patches (drawn by the Image patches view),
            // have no chart on a line of tokens.
            let drawn = s != Scheme::None && s.space() == Space::Line;
            assert_eq!(chart.is_some(), drawn, "{} {}", v.id(), s.id());
        }
    }
    for v in [
        View::Waves,
        View::Norms,
        View::Attention,
        View::Rotations,
        View::Addition,
        View::Compare,
        View::Train,
    ] {
        let e = early(&format!("?view={}", v.id())).unwrap();
        let c = main_chart(&e.settings).unwrap_or_else(|| panic!("{}", v.id()));
        assert!(!c.id.is_empty() && !c.title.is_empty());
    }
    // A lesson step draws its own view's chart.
    for n in 1..=pe_explorer::learn::lesson::STEPS.len() {
        let e = early(&format!("?view=lesson&lesson={n}")).unwrap();
        let view = shown_view(&e.settings);
        assert_eq!(view, pe_explorer::learn::lesson::step(n).view);
        if let Some(c) = main_chart(&e.settings) {
            assert!(c.height(390.0) >= 170.0, "step {n}");
        }
    }
}

#[test]
fn the_first_paints_sliders_set_what_the_apps_strip_sets_under_the_links_keys() {
    use pe_explorer::main_chart::{early_knobs, main_controls};
    use std::rc::Rc;
    use yew::Reducible;
    let mut tried = 0;
    for q in [
        "?view=heatmap",
        "?view=offsets",
        "?view=waves",
        "?view=norms",
        "?view=rotations",
        "?view=addition",
        "?view=compare&scheme=rope",
        "?scheme=alibi",
        "?lesson=3",
        "?embed=offsets&length=300",
    ] {
        let e = early(q).unwrap();
        let controls = main_controls(&e.settings);
        let knobs = early_knobs(&e.settings);
        assert_eq!(
            knobs.len(),
            controls.len(),
            "{q}: every strip slider is live early"
        );
        for (k, (id, limit, value, action)) in knobs.iter().zip(controls) {
            assert_eq!(
                (k.id, k.limit.name, k.value),
                (id, limit.name, value),
                "{q}"
            );
            for v in [-5.0, 0.0, 1.0, 7.0, 33.0, 250.0, 1e12] {
                let mut early_set = e.settings.clone();
                k.apply(&mut early_set, v);
                let app_set = Rc::new(e.settings.clone()).reduce(action(v));
                assert_eq!(early_set, *app_set, "{q}: {id} = {v}");
                tried += 1;
            }
            // The key the first paint writes is the one the app reads.
            let mut moved = e.settings.clone();
            k.apply(&mut moved, 7.0);
            let link = format!("{q}&{}=7", k.key);
            assert_eq!(url::parse(&link).settings, moved, "{link}");
        }
    }
    assert!(tried > 100);
}

/// The leads the app's panels and the first paint share (`main_chart::panel_lead`, commit of
/// 2026-11-29): every panel that shows one has one, so neither draws an empty paragraph. The
/// norms view plots the sinusoidal norms whatever the scheme, and says why under each; the
/// matrix and distance views have one under every scheme with a chart on a line of tokens (the
/// sinusoidal distance view's lead is its own, under its controls); the first paint lays out
/// the head where it draws one.
#[test]
fn every_panel_that_shows_a_lead_has_one() {
    for s in Scheme::ALL {
        let e = early(&format!("?view=norms&scheme={}", s.id())).unwrap();
        assert!(
            panel_lead(View::Norms, &e.settings).is_some(),
            "norms {}",
            s.id()
        );
        let drawn = s != Scheme::None && s.space() == Space::Line;
        for v in [View::Matrix, View::Offsets] {
            let e = early(&format!("?view={}&scheme={}", v.id(), s.id())).unwrap();
            let own = v == View::Offsets && s == Scheme::Sinusoidal;
            let lead = panel_lead(v, &e.settings);
            assert_eq!(lead.is_some(), drawn && !own, "{} {}", v.id(), s.id());
            let head = main_chart(&e.settings).and_then(|c| c.head);
            assert_eq!(head.map(|h| h.0), lead, "{} {}", v.id(), s.id());
        }
    }
}
