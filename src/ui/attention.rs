//! "Dog bites man" versus "man bites dog": one self-attention head on two sentences, with and
//! without the position encoding, and every step of the computation on screen.

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::chart::Shared;
use super::controls::{Segmented, Toggle};
use super::file_stem;
use super::heatmap::MatrixCard;
use super::props::ViewProps;
use crate::action::Action;
use crate::figures::attention::{
    card, demo_inputs, dims, keys, magnitude, positional_on, run_demo, step_cards, verdict, Demo,
    TIE,
};
use crate::format::significant;
use crate::math::attention::{match_words, parse_sentence, Relation, DEMO_MAX_WIDTH};
use crate::plot::heatmap::HeatmapData;
use crate::schemes::{Registered, Scheme};
use crate::state::{Settings, View};
/// Height of a small heatmap with `rows` rows.
fn height(rows: usize) -> f64 {
    crate::main_chart::attention_card_height(rows)
}

fn stem(s: &Settings, what: &str) -> String {
    let position = if s.attention_position {
        "pe_on"
    } else {
        "pe_off"
    };
    file_stem(s, &format!("attention_{what}_{position}"))
}

#[function_component(AttentionView)]
pub fn attention_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    // Keyed on what the head reads, so a change that does not reach it does not rerun it.
    let demo = use_memo(demo_inputs(s), run_demo);
    let palette = s.palette;
    let [a, b] = &demo.passes;
    let matches = match_words(a, b);
    let on_action = props.on_action.clone();
    let on_position = {
        let cb = on_action.clone();
        Callback::from(move |v: String| cb.emit(Action::SetAttentionPosition(v == "on")))
    };
    let on_causal = {
        let cb = on_action.clone();
        Callback::from(move |v: String| cb.emit(Action::SetCausal(v == "causal")))
    };
    let on_scale = {
        let cb = on_action.clone();
        Callback::from(move |v: bool| cb.emit(Action::SetScaleEmbeddings(v)))
    };
    let on_trace = {
        let cb = on_action.clone();
        Callback::from(move |v: String| cb.emit(Action::SetTrace(usize::from(v == "b"))))
    };
    let width_note = if s.d_model > DEMO_MAX_WIDTH {
        format!(
            "d_model is {}; to stay readable the demo runs one head at width {} (embeddings, \
             encoding and weights all at width {}, with the current base and variant).",
            s.d_model, demo.width, demo.width
        )
    } else {
        format!("The head runs at width d_model = {}.", demo.width)
    };
    let longest = a.tokens.len().max(b.tokens.len());
    let on_a_line = s.scheme.space() == crate::schemes::Space::Line;
    let beyond = positional_on(s) && on_a_line && s.scheme.uses_base() && longest > s.length;
    let verdict = verdict(&demo, s);
    // The four large cards, built once per demo and palette (see `step_cards`).
    let top_cards = use_memo((Shared::new(demo.clone()), palette), |(demo, palette)| {
        let names = ["A", "B"];
        let range = magnitude(&demo.passes[0].outputs).max(magnitude(&demo.passes[1].outputs));
        let pass = |i: usize| &demo.passes[i];
        let weights = |i: usize| {
            card(
                &pass(i).weights,
                format!("Attention weights, sentence {} (rows: queries)", names[i]),
                &pass(i).tokens,
                keys(&pass(i).tokens),
                *palette,
                Some(1.0),
            )
        };
        let outputs = |i: usize| {
            card(
                &pass(i).outputs,
                format!("Outputs, sentence {}", names[i]),
                &pass(i).tokens,
                dims(),
                *palette,
                Some(range),
            )
        };
        [weights(0), weights(1), outputs(0), outputs(1)]
    });
    // Sentence A's and B's cards side by side: `top_cards[first]` and the next, with ids
    // `{id}-a` and `{id}-b` and files `{file}_a` and `{file}_b`.
    let twin = |id: &str, file: &str, first: usize, descriptions: [&'static str; 2]| {
        let card = |i: usize, side: &str, rows: usize| {
            html! {
                <MatrixCard id={format!("{id}-{side}")} data={Shared::new(top_cards[first + i].clone())}
                    description={descriptions[i]}
                    file_stem={stem(s, &format!("{file}_{side}"))} height={height(rows)} />
            }
        };
        // A pair read together: a compact embed shows both (see `embedded::place_main_chart`).
        html! {
            <div class="twin twin-2 twin-pair">
                { card(0, "a", a.tokens.len()) }
                { card(1, "b", b.tokens.len()) }
            </div>
        }
    };

    html! {
        <section class="panel" aria-labelledby="attention-title">
            <header class="panel-head">
                <h2 id="attention-title">{ "Dog bites man, man bites dog" }</h2>
                <p class="panel-lead">
                    { "Two sentences with the same words in a different order. Self-attention \
                       compares every word with every other word by content alone, so unless the \
                       input says where each word is, swapping words only swaps the outputs: the \
                       head cannot tell who bit whom." }
                </p>
            </header>
            <div class="view-controls">
                <SentenceField index={0} label="Sentence A" value={s.sentences[0].clone()} on_action={on_action.clone()} />
                <SentenceField index={1} label="Sentence B" value={s.sentences[1].clone()} on_action={on_action.clone()} />
                <Segmented name="attention-position" legend="Position information"
                    options={vec![("off".into(), "off".into()),
                                  ("on".into(), format!("on ({})", s.scheme.id()).into())]}
                    selected={if s.attention_position { "on" } else { "off" }} on_change={on_position} />
                <Segmented name="attention-mask" legend="Attention"
                    options={vec![("bidirectional".into(), "every word sees every word".into()),
                                  ("causal".into(), "causal: only earlier words".into())]}
                    selected={if s.causal { "causal" } else { "bidirectional" }} on_change={on_causal} />
                <Toggle id="scale-embeddings-attn" label="Scale embeddings by √d_model"
                    checked={s.scale_embeddings} on_change={on_scale} />
                <p class="note note-info">{ width_note }</p>
                if s.attention_position {
                    <p class="note note-info">{ format!("{}: {}", s.scheme.label(), s.scheme.entry()) }</p>
                }
                if beyond {
                    <p class="note note-info">
                        { format!("The longest sentence has {longest} words but length is {}: the \
                            {} formula still gives positions {} and beyond (it is defined for \
                            every position), so the demo uses them. A learned table would have no \
                            rows there.", s.length, s.scheme.id(), s.length) }
                    </p>
                }
            </div>

            if let Some(problem) = &demo.problem {
                <div class="verdict verdict-error" role="alert">
                    <p class="verdict-number">
                        <span class="verdict-label">{ "cosine similarity of the two sentence summaries" }</span>
                        <span id="summary-cosine" class="verdict-value">{ "—" }</span>
                    </p>
                    <p>{ format!("Error: {problem}{} The matrices below are computed without position.",
                        if on_a_line { " Raise the trained length, or shorten the sentences." } else { "" }) }</p>
                </div>
            } else {
                <div class={classes!("verdict", if demo.summary_cosine >= TIE && demo.relation != Relation::DifferentWords { "verdict-tie" } else { "verdict-apart" })}
                    role="status" aria-live="polite">
                    <p class="verdict-number">
                        <span class="verdict-label">{ "cosine similarity of the two sentence summaries" }</span>
                        <span id="summary-cosine" class="verdict-value">{ format!("{:.6}", demo.summary_cosine) }</span>
                    </p>
                    <p>{ verdict }</p>
                </div>
            }
            <p class="train-link">
                { "This head is untrained: its weights are seeded, not learned. Does a trained model \
                   without position fail the same way, and what does a causal mask change? " }
                <button type="button" class="button button-small" id="attention-train"
                    onclick={to_train(&props.on_action)}>
                    { "Train small models and see →" }
                </button>
            </p>

            { twin("attention", "weights", 0, [
                "Attention weights of sentence A: row i shows how much token i attends to each token.",
                "Attention weights of sentence B.",
            ]) }

            <div class="panel-body">
                <table class="numbers words">
                    <caption>{ "Each word's output in both sentences" }</caption>
                    <thead><tr>
                        <th scope="col">{ "word" }</th><th scope="col">{ "position in A" }</th>
                        <th scope="col">{ "position in B" }</th><th scope="col">{ "largest difference" }</th>
                    </tr></thead>
                    <tbody>
                        { for matches.iter().map(|m| html! {
                            <tr>
                                <th scope="row">{ m.word.clone() }</th>
                                <td>{ m.position_a }</td>
                                <td>{ m.position_b }</td>
                                <td>{ if m.max_difference == 0.0 { "0 (identical)".to_string() } else { significant(m.max_difference, 3) } }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                <div class="explain">
                    <p>
                        { "The summary is the mean of a sentence's output vectors: a description \
                           that ignores order, like a bag of words. Without position (and with \
                           every word seeing every word) it is the same for both sentences, to the \
                           last digit." }
                    </p>
                    <p>
                        { s.scheme.def().attention_switch_text() }
                    </p>
                    if demo.relation == Relation::DifferentWords {
                        <p class="note-inline">
                            { "These two sentences do not contain the same words, so they differ \
                               with or without position; the words they share are compared above." }
                        </p>
                    }
                </div>
            </div>

            { twin("outputs", "outputs", 2, [
                "Output vectors of sentence A, one row per token.",
                "Output vectors of sentence B, one row per token.",
            ]) }

            <Steps settings={s.clone()} demo={Shared::new(demo.clone())} on_trace={on_trace} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct SentenceProps {
    index: usize,
    label: AttrValue,
    value: String,
    on_action: Callback<Action>,
}

/// A sentence input: words are checked (at most 16) and a refused edit says why.
#[function_component(SentenceField)]
fn sentence_field(props: &SentenceProps) -> Html {
    let problem = use_state(|| None::<String>);
    let id = format!("sentence-{}", if props.index == 0 { "a" } else { "b" });
    let note_id = format!("{id}-note");
    let on_change = {
        let (problem, cb, index, current) = (
            problem.clone(),
            props.on_action.clone(),
            props.index,
            props.value.clone(),
        );
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            match parse_sentence(&input.value()) {
                Ok(words) => {
                    problem.set(None);
                    cb.emit(Action::SetSentence(index, words.join(" ")));
                }
                Err(message) => {
                    input.set_value(&current);
                    problem.set(Some(format!("{message} The sentence is unchanged.")));
                }
            }
        })
    };
    html! {
        <div class="list-field sentence-field">
            <label for={id.clone()} class="control-label">{ props.label.clone() }</label>
            <input id={id} class="control-list" type="text" autocomplete="off" spellcheck="false"
                value={props.value.clone()} onchange={on_change} aria-describedby={note_id.clone()} />
            <p id={note_id} class={if problem.is_some() { "note note-error" } else { "note" }}
                role="status" aria-live="polite">{ (*problem).clone().unwrap_or_default() }</p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct StepsProps {
    settings: Settings,
    demo: Shared<Demo>,
    on_trace: Callback<String>,
}

/// The layer step by step for one sentence: embeddings, + position, Q, K, V, scores, weights,
/// outputs — and the weight matrices.
#[function_component(Steps)]
fn steps(props: &StepsProps) -> Html {
    let s = &props.settings;
    let demo = &props.demo;
    let i = s.trace.min(1);
    let pass = &demo.passes[i];
    let name = ["A", "B"][i];
    let t = &pass.tokens;
    let p = s.palette;
    let n = t.len();
    let rope = positional_on(s) && s.scheme == Scheme::Rope;
    let scale_text = if s.scale_embeddings {
        format!(" × √{} (scaled)", demo.width)
    } else {
        String::new()
    };
    let step = |id: &str, title: &str, text: String, data: Rc<HeatmapData>, rows: usize| {
        html! {
            <li class="step">
                <h4>{ title.to_string() }</h4>
                <p class="muted small">{ text }</p>
                <MatrixCard id={format!("step-{id}")} data={Shared::new(data)}
                    description={format!("{title} for sentence {name}.")}
                    file_stem={stem(s, &format!("{id}_{}", name.to_lowercase()))}
                    height={height(rows)} />
            </li>
        }
    };
    // Built once per demo, palette and sentence: a new Rc would redraw every card on every
    // render, and a slider drag renders this view many times.
    let cards = use_memo((props.demo.clone(), p, i), |(demo, p, i)| {
        step_cards(demo, *i, *p)
    });
    html! {
        <div class="steps-section">
            <h3 class="section-title">{ "Follow one number through the layer" }</h3>
            <div class="view-controls">
                <Segmented name="trace" legend="Sentence"
                    options={vec![("a".into(), format!("A: {}", s.sentences[0]).into()),
                                  ("b".into(), format!("B: {}", s.sentences[1]).into())]}
                    selected={if i == 0 { "a" } else { "b" }} on_change={props.on_trace.clone()} />
            </div>
            <ol class="steps">
                { step("embeddings", "1. Token embeddings",
                    format!("Each word's vector, derived from the word itself{scale_text}."),
                    cards.embeddings.clone(), n) }
                { step("input", "2. + position",
                    if positional_on(s) {
                        s.scheme.def().attention_input_text(s, n)
                    } else {
                        "Position information is off: the input is the embeddings unchanged.".into()
                    },
                    cards.input.clone(), n) }
                { step("q", if rope { "3. Queries Q = X·W_Q, rotated" } else { "3. Queries Q = X·W_Q" },
                    if rope { "What each token is looking for, then turned by m·θ at position m (RoPE).".into() } else { "What each token is looking for.".into() },
                    cards.q.clone(), n) }
                { step("k", if rope { "3. Keys K = X·W_K, rotated" } else { "3. Keys K = X·W_K" },
                    if rope { "What each token offers, turned by its position like the queries.".into() } else { "What each token offers to the others.".into() },
                    cards.k.clone(), n) }
                { step("v", "3. Values V = X·W_V", "What each token passes on when attended to.".into(),
                    cards.v.clone(), n) }
                if let Some(bias) = &cards.bias {
                    { step("bias", "4. The position bias",
                        format!("What {} adds to each score: query i (row), key j (column).", s.scheme.short()),
                        bias.clone(), n) }
                }
                { step("scores", if pass.bias.is_some() { "4. Scores Q·Kᵀ/√d_k + bias" } else { "4. Scores Q·Kᵀ/√d_k" },
                    format!("How well query i matches key j, divided by √{} so the numbers stay moderate{}.",
                        demo.width, if s.causal { "; keys after the query are masked" } else { "" }),
                    cards.scores.clone(), n) }
                { step("weights", "5. softmax, row by row",
                    "Each row becomes weights that are positive and add up to 1.".into(),
                    cards.weights.clone(), n) }
                { step("outputs", "6. Outputs = weights · V",
                    "Each token's output is the weighted mean of all values.".into(),
                    cards.outputs.clone(), n) }
            </ol>
            <details class="weights">
                <summary>{ format!("The head's weights W_Q, W_K, W_V ({0} × {0}, fixed seeds)", demo.width) }</summary>
                <p class="muted small">
                    { "Entries drawn from N(0, 1/width) by a seeded generator: the same on every \
                       machine and reload. They are not trained; any fixed weights show the effect." }
                </p>
                <div class="twin twin-3">
                    { for cards.weights_qkv.iter().zip([("W_Q", "wq"), ("W_K", "wk"), ("W_V", "wv")]).map(|(data, (label, id))| html! {
                        <MatrixCard id={format!("weights-{id}")} data={Shared::new(data.clone())}
                            description={format!("The weight matrix {label}.")}
                            file_stem={stem(s, id)} height={300.0} />
                    }) }
                </div>
            </details>
        </div>
    }
}

/// Opens the Train view on "who did what to whom", the trained version of this demo.
pub fn to_train(on_action: &Callback<Action>) -> Callback<MouseEvent> {
    let cb = on_action.clone();
    Callback::from(move |_: MouseEvent| {
        cb.emit(Action::SetTrain("task", "agent".into()));
        cb.emit(Action::SetView(View::Train));
    })
}
