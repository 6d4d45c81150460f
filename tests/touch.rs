//! `touch::TouchGuard`: a finger on a slider sets it by a tap or a drag along it, never by a
//! swipe that scrolls the page (issue 29 #10: a swipe had moved length 60 → 1,493).
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::touch::{TouchGuard, TOUCH_SLOP};

#[test]
fn a_vertical_swipe_never_sets_the_slider() {
    let mut g = TouchGuard::default();
    g.down(100.0, 500.0);
    // The browser moves the thumb where the finger landed: held back.
    assert_eq!(g.slide(40), None);
    // Up the page: a scroll.
    assert_eq!(g.moved(102.0, 500.0 - TOUCH_SLOP - 1.0), None);
    assert_eq!(g.slide(41), None);
    assert_eq!(g.moved(104.0, 300.0), None);
    assert_eq!(g.up(), None);
    // The next input without a finger (a key, a mouse) applies at once.
    assert_eq!(g.slide(7), Some(7));
}

#[test]
fn a_drag_along_the_slider_applies_what_it_held_then_follows() {
    let mut g = TouchGuard::default();
    g.down(100.0, 500.0);
    assert_eq!(g.slide(12), None);
    // Within the slop nothing is decided.
    assert_eq!(g.moved(100.0 + TOUCH_SLOP, 500.0), None);
    // Sideways past it: the held stop, once.
    assert_eq!(g.moved(100.0 + TOUCH_SLOP + 1.0, 502.0), Some(12));
    assert_eq!(g.moved(150.0, 540.0), None);
    assert_eq!(g.slide(20), Some(20));
    assert_eq!(g.up(), None);
}

#[test]
fn a_tap_sets_the_slider_where_it_lands_and_a_cancel_leaves_it() {
    let mut g = TouchGuard::default();
    g.down(100.0, 500.0);
    assert_eq!(g.slide(3), None);
    assert_eq!(g.up(), Some(3));
    // The browser took the touch for a scroll: nothing applies.
    g.down(100.0, 500.0);
    assert_eq!(g.slide(9), None);
    g.cancel();
    assert_eq!(g.up(), None);
    // A diagonal exactly at 45° counts as along the slider.
    g.down(0.0, 0.0);
    assert_eq!(g.slide(5), None);
    assert_eq!(g.moved(20.0, 20.0), Some(5));
}
