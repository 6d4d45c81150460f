//! "Copy code": NumPy or PyTorch that rebuilds the matrix on screen with the current settings.

use yew::prelude::*;

use super::browser;
use super::controls::Segmented;
use crate::schemes::snippet;
use crate::snippets::Library;
use crate::state::Settings;

#[derive(Properties, PartialEq)]
pub struct CodePanelProps {
    pub settings: Settings,
}

#[function_component(CodePanel)]
pub fn code_panel(props: &CodePanelProps) -> Html {
    let library = use_state(|| Library::NumPy);
    let status = use_state(String::new);
    let code = snippet(&props.settings, *library);
    let on_library = {
        let (library, status) = (library.clone(), status.clone());
        Callback::from(move |v: String| {
            library.set(if v == "pytorch" {
                Library::PyTorch
            } else {
                Library::NumPy
            });
            status.set(String::new());
        })
    };
    let on_copy = {
        let (status, code) = (status.clone(), code.clone());
        Callback::from(move |_: MouseEvent| {
            browser::copy_with_status(
                code.clone(),
                status.clone(),
                "Copied to the clipboard.".into(),
                "The clipboard is not available here: select the code and copy it.",
            );
        })
    };
    html! {
        <section class="panel code-panel" aria-labelledby="code-title">
            <header class="panel-head">
                <h2 id="code-title">{ "The same matrix in your own code" }</h2>
                <p class="panel-lead">
                    { "This code rebuilds the matrix above with the current settings; its `matrix` \
                       has the same rows and columns as the chart's CSV. The NumPy version is run \
                       by the app's test suite and checked against the CSV." }
                </p>
            </header>
            <div class="code-tools">
                <Segmented name="code-library" legend="Library"
                    options={vec![("numpy".into(), "NumPy".into()), ("pytorch".into(), "PyTorch".into())]}
                    selected={if *library == Library::NumPy { "numpy" } else { "pytorch" }}
                    on_change={on_library} />
                <button type="button" class="button" onclick={on_copy}>{ "Copy code" }</button>
                <p class="note" role="status" aria-live="polite">{ (*status).clone() }</p>
            </div>
            <pre class="code" id="code-snippet" tabindex="0" aria-label="Code"><code>{ code }</code></pre>
        </section>
    }
}
