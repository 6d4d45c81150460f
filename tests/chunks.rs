//! The app's lazy views (`ui::lazy`): the first paint, which has no Yew, reads which
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
fn the_matrix_every_page_opens_on_by_default_stays_in_the_shell() {
    assert_eq!(View::Matrix.chunk(), None);
    assert_eq!(pe_explorer::state::Settings::default().view, View::Matrix);
}
