//! Every value a user can type is clamped or refused with a message, never stored out of range.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::action::Action;
use pe_explorer::state::{nearest_stop, Settings, BASE, D_MODEL, LENGTH};
use std::rc::Rc;
use yew::Reducible;

#[test]
fn values_inside_the_range_pass_unchanged() {
    let a = D_MODEL.parse("128").unwrap();
    assert_eq!(a.value, 128.0);
    assert!(a.note.is_none());
    assert_eq!(BASE.parse("10,000").unwrap().value, 10_000.0);
    assert_eq!(BASE.parse(" 5e5 ").unwrap().value, 500_000.0);
}

#[test]
fn out_of_range_values_are_clamped_with_a_note() {
    let a = D_MODEL.parse("5000").unwrap();
    assert_eq!(a.value, 4096.0);
    let note = a.note.unwrap();
    assert!(
        note.contains("above the maximum") && note.contains("4096"),
        "{note}"
    );
    let b = LENGTH.parse("-5").unwrap();
    assert_eq!(b.value, 1.0);
    assert!(b.note.unwrap().contains("below the minimum"));
    let c = BASE.parse("1e12").unwrap();
    assert_eq!(c.value, 100_000_000.0);
}

#[test]
fn fractions_are_rounded_for_whole_number_settings() {
    let a = D_MODEL.parse("12.6").unwrap();
    assert_eq!(a.value, 13.0);
    assert!(a.note.unwrap().contains("rounded"));
    assert_eq!(BASE.parse("12.5").unwrap().value, 12.5);
}

#[test]
fn text_that_is_not_a_number_is_refused() {
    for text in ["abc", "", "  ", "NaN", "inf", "1,5", "<script>", "12abc"] {
        let err = D_MODEL.parse(text).unwrap_err();
        assert!(err.contains("d_model"), "{text}: {err}");
    }
}

#[test]
fn sliders_are_logarithmic_and_land_on_showable_values() {
    assert_eq!(BASE.from_slider(0.0), 10.0);
    assert_eq!(BASE.from_slider(1.0), 100_000_000.0);
    // Midway on a log scale from 10 to 10⁸ is 10^4.5 = 31,622.8, shown with three digits.
    assert_eq!(BASE.from_slider(0.5), 31_600.0);
    assert!((BASE.to_slider(10_000.0) - 3.0 / 7.0).abs() < 1e-12);
    for t in [0.0, 0.123, 0.5, 0.77, 1.0] {
        let d = D_MODEL.from_slider(t);
        assert_eq!(d, d.round());
        assert!((2.0..=4096.0).contains(&d));
    }
    assert_eq!(LENGTH.from_slider(f64::NAN), 1.0);
}

#[test]
fn the_reducer_never_stores_an_out_of_range_value() {
    let s = Rc::new(Settings::default());
    let s = s.reduce(Action::SetDModel(1e9));
    assert_eq!(s.d_model, 4096);
    let s = s.reduce(Action::SetLength(f64::NAN));
    assert_eq!(s.length, 1);
    let s = s.reduce(Action::SetBase(-3.0));
    assert_eq!(s.base, 10.0);
    let same = s.clone().reduce(Action::SetBase(10.0));
    assert!(
        Rc::ptr_eq(&s, &same),
        "an unchanged setting keeps the same state"
    );
}

#[test]
fn every_slider_stop_is_a_different_value() {
    for limit in [D_MODEL, LENGTH, BASE] {
        let stops = limit.stops();
        assert_eq!(stops[0], limit.min);
        assert_eq!(*stops.last().unwrap(), limit.max);
        assert!(
            stops.windows(2).all(|w| w[0] < w[1]),
            "{} stops repeat",
            limit.name
        );
        // Small whole numbers are all reachable one arrow press at a time.
        if limit.integer {
            let first: Vec<f64> = stops.iter().take(20).cloned().collect();
            let expected: Vec<f64> = (0..20).map(|k| limit.min + k as f64).collect();
            assert_eq!(first, expected, "{}", limit.name);
        }
    }
    let stops = D_MODEL.stops();
    assert_eq!(stops[nearest_stop(&stops, 2.0)], 2.0);
    assert_eq!(stops[nearest_stop(&stops, 4096.0)], 4096.0);
    assert_eq!(stops[nearest_stop(&stops, 1e9)], 4096.0);
    let i = nearest_stop(&stops, 3001.0);
    assert!((stops[i] - 3001.0).abs() <= (stops[i + 1] - stops[i]).max(stops[i] - stops[i - 1]));
}

#[test]
fn numbers_too_large_for_f64_are_clamped_not_refused() {
    let a = LENGTH.parse("1e400").unwrap();
    assert_eq!(a.value, 65_536.0);
    assert!(a.note.unwrap().contains("above the maximum"));
    assert_eq!(LENGTH.parse("-1e400").unwrap().value, 1.0);
}

#[test]
fn lists_are_parsed_clamped_and_capped() {
    use pe_explorer::state::{parse_list, Limit};
    let limit = Limit::linear("position", 0.0, 99.0);
    let a = parse_list("0, 25 50;99", limit, 5).unwrap();
    assert_eq!(a.value, vec![0.0, 25.0, 50.0, 99.0]);
    assert!(a.note.is_none());
    let b = parse_list("1, 500, 1, 2, 3, 4, 5", limit, 5).unwrap();
    assert_eq!(
        b.value,
        vec![1.0, 99.0, 2.0, 3.0],
        "clamped, duplicates dropped, five read"
    );
    let note = b.note.unwrap();
    assert!(
        note.contains("first 5") && note.contains("above the maximum"),
        "{note}"
    );
    assert!(parse_list("", limit, 5).is_err());
    assert!(parse_list("3, x", limit, 5)
        .unwrap_err()
        .contains("not a number"));
}

#[test]
fn view_settings_follow_the_length_and_width() {
    let s = Rc::new(Settings::default());
    // Anchors clamp into the sequence and never repeat.
    let s = s.reduce(Action::SetAnchors(vec![100, 5, 200, 5]));
    assert_eq!(s.anchors(), vec![99, 5]);
    let s = s.reduce(Action::SetLength(50.0));
    assert_eq!(s.anchors(), vec![49, 5]);
    // Rotation position and offset stay inside the length; stepping wraps.
    let s = s
        .reduce(Action::SetPosition(49.0))
        .reduce(Action::StepPosition(1));
    assert_eq!(s.position, 0);
    let s = s
        .reduce(Action::SetOffset(40.0))
        .reduce(Action::SetLength(10.0));
    assert_eq!((s.position, s.offset), (0, 9));
    // Toggling a dimension adds it, toggling again removes it.
    let s = Rc::new(Settings::default());
    assert_eq!(s.dims(), vec![0, 1, 32, 64]);
    let s = s.reduce(Action::ToggleDim(7));
    assert_eq!(s.dims(), vec![0, 1, 32, 64, 7]);
    let s = s.reduce(Action::ToggleDim(7));
    assert_eq!(s.dims(), vec![0, 1, 32, 64]);
    // In the split layout the default pair is column 0 with its partner half the width away.
    let split = Rc::new(Settings::default()).reduce(Action::SetVariant(
        pe_explorer::math::sinusoidal::Variant::Split,
    ));
    assert_eq!(split.dims()[..2], [0, 64]);
    // A sentence the checker refuses leaves the old one in place.
    let t = Rc::new(Settings::default()).reduce(Action::SetSentence(0, String::new()));
    assert_eq!(t.sentences[0], "dog bites man");
}
