//! The "Sources" block under every view: the papers and the reference code behind what the view
//! shows, for the scheme on screen (the list itself is `crate::sources`).

use yew::prelude::*;

use crate::schemes::sources;
use crate::schemes::Scheme;
use crate::sources::Kind;
use crate::state::View;

#[derive(Properties, PartialEq)]
pub struct SourcesProps {
    pub view: View,
    /// The lesson's step (its view's sources are the lesson's).
    pub lesson: usize,
    pub scheme: Scheme,
}

#[function_component(SourcesBlock)]
pub fn sources_block(props: &SourcesProps) -> Html {
    let step_view = crate::learn::lesson::step(props.lesson).view;
    let list = sources(props.view, step_view, props.scheme);
    if list.is_empty() {
        return html! {};
    }
    html! {
        <section class="sources" aria-labelledby="sources-title">
            <h3 class="sources-title" id="sources-title">{ "Sources" }</h3>
            <ul class="sources-list">
                { for list.iter().map(|s| html! {
                    <li>
                        { format!("{}, ", s.who) }
                        <a href={s.url} target="_blank" rel="noopener">{ s.title }</a>
                        if s.kind == Kind::Code {
                            <span class="sources-kind">{ " (code)" }</span>
                        }
                    </li>
                }) }
            </ul>
        </section>
    }
}
