//! The shell's lazy views (`ui::lazy`): the first-paint module, which has no Yew, reads which
//! chunk a view needs from `View::chunk` to start fetching it beside the app; the chunks
//! themselves are declared in `ui::lazy`'s list. The two must say the same, or a page that opens
//! on a lazy view fetches the wrong file and waits for the right one behind the app.

use pe_explorer::state::View;
use pe_explorer::ui::lazy;

#[test]
fn view_chunk_names_the_chunk_ui_lazy_draws_the_view_from() {
    for view in View::ALL {
        let listed = lazy::CHUNKS
            .iter()
            .find(|(v, _)| *v == view)
            .map(|(_, c)| *c);
        assert_eq!(view.chunk(), listed, "{view:?}");
        assert_eq!(lazy::holds(view), view.chunk().is_some(), "{view:?}");
    }
}

#[test]
fn a_view_is_drawn_by_one_of_the_shell_a_chunk_or_a_module() {
    // The matrix, every page's first view, stays in the shell.
    assert_eq!(View::Matrix.chunk(), None);
    assert_eq!(View::Matrix.module(), None);
    for view in View::ALL {
        assert!(
            !(view.chunk().is_some() && view.module().is_some()),
            "{view:?} is both a chunk's and a module's"
        );
    }
}
