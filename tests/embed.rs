//! The embedding module: what part of a frame is on screen, what a sandbox allows, and the code
//! the embed dialog writes.

use pe_explorer::embed::{
    attribute, embed_code, fixed_height, permission, sandbox_allows, visible, CodeKind, Content,
    Permission, Show, Visible, HEIGHT_MESSAGE, HOST_MESSAGE, HOST_SCRIPT, SANDBOX,
};

#[test]
fn the_visible_part_of_a_frame() {
    // A 2,000 px frame whose top is 300 px down an 844 px screen: its first 544 px show.
    assert_eq!(
        visible(300.0, 844.0, 2000.0),
        Some(Visible {
            top: 0.0,
            bottom: 544.0
        })
    );
    // Scrolled 1,000 px past its top: rows 1,000 to 1,844.
    assert_eq!(
        visible(-1000.0, 844.0, 2000.0),
        Some(Visible {
            top: 1000.0,
            bottom: 1844.0
        })
    );
    // Its last 200 px at the top of the screen.
    let v = visible(-1800.0, 844.0, 2000.0).unwrap();
    assert_eq!((v.top, v.bottom, v.height()), (1800.0, 2000.0, 200.0));
    // Below or above the screen, or nonsense: nothing.
    assert_eq!(visible(900.0, 844.0, 2000.0), None);
    assert_eq!(visible(-2000.0, 844.0, 2000.0), None);
    assert_eq!(visible(f64::NAN, 844.0, 2000.0), None);
    assert_eq!(visible(0.0, f64::INFINITY, 2000.0), None);
    assert_eq!(visible(0.0, 844.0, 0.0), None);
}

#[test]
fn what_a_sandbox_allows() {
    assert!(sandbox_allows(SANDBOX, "allow-downloads"));
    assert!(sandbox_allows(
        "  ALLOW-SCRIPTS\tallow-popups ",
        "allow-popups"
    ));
    assert!(!sandbox_allows("allow-scripts", "allow-downloads"));
    assert!(!sandbox_allows(
        "allow-popups-to-escape-sandbox",
        "allow-popups"
    ));
    let token = "allow-downloads";
    assert_eq!(permission(false, None, token), Permission::Allowed);
    assert_eq!(permission(true, None, token), Permission::Unknown);
    assert_eq!(permission(true, Some(None), token), Permission::Allowed);
    assert_eq!(
        permission(true, Some(Some("allow-scripts")), token),
        Permission::Blocked
    );
    assert_eq!(permission(true, Some(Some("")), token), Permission::Blocked);
    assert_eq!(
        permission(true, Some(Some(SANDBOX)), token),
        Permission::Allowed
    );
}

#[test]
fn the_embed_code_escapes_its_link_and_carries_the_script_once() {
    let src = "https://example.org/pe/?embed=offsets&show=chart&a=\"x\"";
    let sized = embed_code(
        src,
        "Dot <b>product</b>",
        Content::ChartAndControls,
        CodeKind::Sized,
    );
    assert!(sized.contains(
        "src=\"https://example.org/pe/?embed=offsets&amp;show=chart&amp;a=&quot;x&quot;\""
    ));
    assert!(sized.contains("title=\"Dot &lt;b&gt;product&lt;/b&gt;\""));
    assert!(sized.contains(&format!("sandbox=\"{SANDBOX}\"")));
    assert!(sized.contains("height:640px"));
    assert_eq!(sized.matches("<script>").count(), 1);
    assert!(sized.ends_with(&format!("<script>{HOST_SCRIPT}</script>")));
    let fixed = embed_code(src, "t", Content::ChartOnly, CodeKind::Fixed);
    assert!(!fixed.contains("<script"));
    assert!(fixed.contains(&format!("height:{}px", fixed_height(Content::ChartOnly))));
    assert!(fixed.starts_with("<iframe ") && fixed.ends_with("</iframe>"));
}

#[test]
fn the_script_speaks_the_panels_messages() {
    assert!(HOST_SCRIPT.contains(&format!("\"{HEIGHT_MESSAGE}\"")));
    assert!(HOST_SCRIPT.contains(&format!("\"{HOST_MESSAGE}\"")));
    // Nothing in it ends the script element early or needs escaping in HTML.
    assert!(!HOST_SCRIPT.contains("</"));
    assert_eq!(attribute("a&b"), "a&amp;b");
}

#[test]
fn the_three_contents_and_their_links() {
    assert_eq!(Content::ChartOnly.show_controls(), (Show::Chart, false));
    assert_eq!(
        Content::ChartAndControls.show_controls(),
        (Show::Chart, true)
    );
    assert_eq!(Content::WholePanel.show_controls(), (Show::Panel, true));
    for s in Show::ALL {
        assert_eq!(Show::from_id(s.id()), Some(s));
    }
    assert_eq!(Show::from_id("everything"), None);
    assert!(fixed_height(Content::ChartOnly) < fixed_height(Content::WholePanel));
}

#[test]
fn the_example_pages_carry_the_script_the_app_writes() {
    for page in ["course.html", "quarto.qmd"] {
        let text = std::fs::read_to_string(format!("static/examples/{page}")).unwrap();
        assert!(
            text.contains(HOST_SCRIPT),
            "static/examples/{page} holds another script than embed::HOST_SCRIPT"
        );
        assert!(text.contains(SANDBOX), "{page}: the sandbox");
    }
    // The page for sites that strip scripts has none, and MyST's directive takes a bare link.
    let lms = std::fs::read_to_string("static/examples/lms.html").unwrap();
    assert!(!lms.contains("<script"));
    let myst = std::fs::read_to_string("static/examples/jupyter-book.md").unwrap();
    assert!(myst.contains("```{iframe} https://"));
}
