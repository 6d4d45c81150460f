//! "Copy code": NumPy or PyTorch that rebuilds the matrix on screen with the current settings,
//! and the section every view's code is shown in ([`CodeSection`]: title, lead, the code and a
//! copy button).

use yew::prelude::*;

use super::browser;
use super::controls::Segmented;
use crate::schemes::snippet;
use crate::snippets::Library;
use crate::state::Settings;

#[derive(Properties, PartialEq)]
pub struct CodeSectionProps {
    pub title: AttrValue,
    pub lead: AttrValue,
    pub code: AttrValue,
    /// Controls shown before the copy button (a library switch).
    #[prop_or_default]
    pub children: Html,
}

/// A panel with code to copy: its title and lead, the tools, the copy button and its status,
/// and the code (`#code-snippet`, which the tests run).
#[function_component(CodeSection)]
pub fn code_section(props: &CodeSectionProps) -> Html {
    let status = use_state(String::new);
    // A new snippet clears the last copy's status.
    {
        let status = status.clone();
        use_effect_with(props.code.clone(), move |_| status.set(String::new()));
    }
    let on_copy = {
        let (status, code) = (status.clone(), props.code.to_string());
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
                <h2 id="code-title">{ props.title.clone() }</h2>
                <p class="panel-lead">{ props.lead.clone() }</p>
            </header>
            <div class="code-tools">
                { props.children.clone() }
                <button type="button" class="button" onclick={on_copy}>{ "Copy code" }</button>
                <p class="note" role="status" aria-live="polite">{ (*status).clone() }</p>
            </div>
            <pre class="code" id="code-snippet" tabindex="0" aria-label="Code"><code>{ props.code.clone() }</code></pre>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct CodePanelProps {
    pub settings: Settings,
}

/// The NumPy/PyTorch switch of a code panel (`name`: its radio group), setting `library`.
pub fn library_switch(name: &'static str, library: &UseStateHandle<Library>) -> Html {
    let on_change = {
        let library = library.clone();
        Callback::from(move |v: String| {
            library.set(if v == "pytorch" {
                Library::PyTorch
            } else {
                Library::NumPy
            });
        })
    };
    html! {
        <Segmented {name} legend="Library"
            options={vec![("numpy".into(), "NumPy".into()), ("pytorch".into(), "PyTorch".into())]}
            selected={if **library == Library::NumPy { "numpy" } else { "pytorch" }}
            {on_change} />
    }
}

#[function_component(CodePanel)]
pub fn code_panel(props: &CodePanelProps) -> Html {
    let library = use_state(|| Library::NumPy);
    let code = snippet(&props.settings, *library);
    html! {
        <CodeSection title="The same matrix in your own code" code={code}
            lead="This code rebuilds the matrix above with the current settings; its `matrix` \
                  has the same rows and columns as the chart's CSV. The NumPy version is run \
                  by the app's test suite and checked against the CSV.">
            { library_switch("code-library", &library) }
        </CodeSection>
    }
}
