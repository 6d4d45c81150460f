//! "Dog bites man" versus "man bites dog": one self-attention head on two sentences, with and
//! without the position encoding, and every step of the computation on screen.

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::app::ViewProps;
use super::chart::Shared;
use super::controls::{Segmented, Toggle};
use super::file_stem;
use super::heatmap::MatrixCard;
use crate::action::Action;
use crate::format::{plain, significant};
use crate::math::alibi::bias;
use crate::math::attention::{
    cosine, match_words, mean_pool, parse_sentence, relation, run, Head, Pass, Positional,
    Relation, DEMO_MAX_WIDTH,
};
use crate::math::matrix::Dense;
use crate::math::rope::Rope;
use crate::math::scheme::Scheme;
use crate::math::sinusoidal::Sinusoidal;
use crate::plot::colormap::{ColorScale, Palette};
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::state::{Settings, View};

/// A cosine similarity of the two sentences' outputs this close to 1 counts as a tie: the head
/// cannot tell them apart.
pub const TIE: f64 = 0.9999995;

/// The width the demo runs at.
pub fn demo_width(d_model: usize) -> usize {
    d_model.min(DEMO_MAX_WIDTH)
}

/// Everything the demo shows, for one set of settings.
pub struct Demo {
    pub width: usize,
    pub head: Head,
    pub passes: [Pass; 2],
    /// Cosine similarity of the two mean-pooled outputs.
    pub summary_cosine: f64,
    pub relation: Relation,
    /// Why the model cannot run on these sentences (a learned table that is too short).
    pub problem: Option<String>,
}

/// Whether the head gets position information (and from which scheme).
fn positional_on(s: &Settings) -> bool {
    s.attention_position && s.scheme != Scheme::None
}

/// What a scheme hands the head for one sentence (owned; see [`Positional`] for the roles).
#[derive(Default)]
struct PositionInputs {
    added: Option<Dense>,
    rope: Option<Rope>,
    bias: Option<Dense>,
}

/// The position information for a sentence of `n` tokens at the demo width, or why there is none.
fn position_inputs(s: &Settings, n: usize, width: usize) -> Result<PositionInputs, String> {
    if !positional_on(s) {
        return Ok(PositionInputs::default());
    }
    let rows = |f: &dyn Fn(usize) -> Result<Vec<f64>, String>| -> Result<Dense, String> {
        let mut data = Vec::with_capacity(n * width);
        for p in 0..n {
            data.extend(f(p)?);
        }
        Ok(Dense::new(n, width, data))
    };
    let square = |f: &dyn Fn(usize, usize) -> f64| {
        Dense::new(n, n, (0..n * n).map(|c| f(c / n, c % n)).collect())
    };
    let added = |m: Dense| PositionInputs {
        added: Some(m),
        ..Default::default()
    };
    let biased = |m: Dense| PositionInputs {
        bias: Some(m),
        ..Default::default()
    };
    Ok(match s.scheme {
        Scheme::Sinusoidal => {
            let e = Sinusoidal::new(s.variant, width, s.base);
            added(rows(&|p| Ok(e.row(p)))?)
        }
        Scheme::Learned => {
            // The table the matrix view shows; the head reads its first `width` columns.
            let table = s.learned();
            if n > s.trained_length {
                return Err(format!(
                    "A sentence has {n} words but the learned table has only {} positions \
                     (the trained length). There is no vector for position {}, so the model \
                     cannot run: BERT fails the same way past 512 tokens (PyTorch raises an IndexError \
                     in the embedding lookup).",
                    s.trained_length, s.trained_length
                ));
            }
            added(rows(&|p| {
                table.row(p).map(|mut r| {
                    r.truncate(width);
                    r
                })
            })?)
        }
        Scheme::Rope => PositionInputs {
            rope: Some(Rope::new(width, s.base, s.rope_pairing, s.rope().scaling)),
            ..Default::default()
        },
        Scheme::Alibi => {
            let (slope, causal) = (s.alibi_slope(), s.causal);
            biased(square(&|i, j| {
                bias(slope, i, j, causal).unwrap_or(f64::NAN)
            }))
        }
        Scheme::T5 => {
            let t5 = s.t5_bias();
            biased(square(&|i, j| t5.at(j as i64 - i as i64)))
        }
        Scheme::None => PositionInputs::default(),
    })
}

pub fn demo(s: &Settings) -> Demo {
    let width = demo_width(s.d_model);
    let head = Head::seeded(width);
    let scale = if s.scale_embeddings {
        (width as f64).sqrt()
    } else {
        1.0
    };
    let tokens: Vec<Vec<String>> = s
        .sentences
        .iter()
        .map(|t| parse_sentence(t).unwrap_or_else(|_| vec!["?".into()]))
        .collect();
    let mut problem = None;
    let mut pass = |t: &[String]| {
        let inputs = position_inputs(s, t.len(), width).unwrap_or_else(|e| {
            problem = Some(e);
            PositionInputs::default()
        });
        let position = Positional {
            added: inputs.added.as_ref(),
            rope: inputs.rope.as_ref(),
            bias: inputs.bias.as_ref(),
            causal: s.causal,
        };
        run(&head, t, scale, &position)
    };
    let passes = [pass(&tokens[0]), pass(&tokens[1])];
    let summary_cosine = cosine(
        &mean_pool(&passes[0].outputs),
        &mean_pool(&passes[1].outputs),
    );
    Demo {
        width,
        relation: relation(&tokens[0], &tokens[1]),
        head,
        passes,
        summary_cosine,
        problem,
    }
}

fn magnitude(m: &Dense) -> f64 {
    m.data.iter().fold(1e-9f64, |a, v| a.max(v.abs()))
}

/// A small heatmap of `m` with token rows and the given columns.
fn card(
    m: &Dense,
    caption: String,
    tokens: &[String],
    columns: Axis,
    palette: Palette,
    range: Option<f64>,
) -> Rc<HeatmapData> {
    Rc::new(HeatmapData {
        matrix: Rc::new(m.clone()),
        x: columns,
        y: Axis::named("token", "token", tokens.to_vec()),
        scale: ColorScale::symmetric(palette, range.unwrap_or_else(|| magnitude(m))),
        colorbar_title: "value".into(),
        caption,
        nouns: ("tokens".into(), "dimensions".into()),
        rule: None,
    })
}

fn keys(tokens: &[String]) -> Axis {
    Axis::named("key (attended to)", "key", tokens.to_vec())
}

fn dims() -> Axis {
    Axis::indexed("dimension", "dim")
}

/// Height of a small heatmap with `rows` rows.
fn height(rows: usize) -> f64 {
    (112.0 + 26.0 * rows as f64).min(520.0)
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
    let demo = {
        let settings = s.clone();
        // Everything `demo` reads (d_model also picks the learned table's columns).
        let key = (
            (
                s.sentences.clone(),
                s.attention_position,
                s.scale_embeddings,
                s.causal,
            ),
            (
                s.scheme,
                s.variant,
                // The learned table's columns depend on d_model itself; the rest only on the
                // demo width, so dragging a wide d_model does not recompute the demo.
                if s.scheme == Scheme::Learned {
                    s.d_model
                } else {
                    demo_width(s.d_model)
                },
                s.base.to_bits(),
            ),
            (
                s.trained_length,
                s.learned_seed,
                s.rope_pairing,
                s.extension,
            ),
            (s.rope_factor.to_bits(), s.alibi_heads, s.alibi_head, s.t5),
        );
        use_memo(key, move |_| demo(&settings))
    };
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
    let beyond = positional_on(s)
        && matches!(s.scheme, Scheme::Sinusoidal | Scheme::Rope)
        && longest > s.length;
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
                    <p>{ format!("Error: {problem} Raise the trained length, or shorten the sentences. \
                        The matrices below are computed without position.") }</p>
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

            <div class="twin twin-2">
                <MatrixCard id="attention-a" data={Shared::new(top_cards[0].clone())}
                    description="Attention weights of sentence A: row i shows how much token i attends to each token."
                    file_stem={stem(s, "weights_a")} height={height(a.tokens.len())} />
                <MatrixCard id="attention-b" data={Shared::new(top_cards[1].clone())}
                    description="Attention weights of sentence B."
                    file_stem={stem(s, "weights_b")} height={height(b.tokens.len())} />
            </div>

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
                        { switch_on_text(s.scheme) }
                    </p>
                    if demo.relation == Relation::DifferentWords {
                        <p class="note-inline">
                            { "These two sentences do not contain the same words, so they differ \
                               with or without position; the words they share are compared above." }
                        </p>
                    }
                </div>
            </div>

            <div class="twin twin-2">
                <MatrixCard id="outputs-a" data={Shared::new(top_cards[2].clone())}
                    description="Output vectors of sentence A, one row per token."
                    file_stem={stem(s, "outputs_a")} height={height(a.tokens.len())} />
                <MatrixCard id="outputs-b" data={Shared::new(top_cards[3].clone())}
                    description="Output vectors of sentence B, one row per token."
                    file_stem={stem(s, "outputs_b")} height={height(b.tokens.len())} />
            </div>

            <Steps settings={s.clone()} demo={Shared::new(demo.clone())} on_trace={on_trace} />
        </section>
    }
}

/// The sentence that states what the numbers mean.
/// What switching the position information on changes, in the chosen scheme's terms.
fn switch_on_text(scheme: Scheme) -> &'static str {
    match scheme {
        Scheme::Sinusoidal | Scheme::Learned => {
            "Switch the position information on: each word's vector now carries its position, \
             the scores change, the outputs change, and the summaries move apart."
        }
        Scheme::Rope => {
            "Switch the position information on: queries and keys are rotated by their \
             positions, so each score now depends on how far apart two words are and in which \
             direction; the outputs change and the summaries move apart."
        }
        Scheme::Alibi | Scheme::T5 => {
            "Switch the position information on: the word vectors stay as they are, but every \
             score gets a bias that depends on where the key is relative to the query; the \
             weights change, the outputs change, and the summaries move apart."
        }
        Scheme::None => {
            "The scheme \"none\" has no position information to switch on: choose a scheme in \
             the settings to see the sentences come apart."
        }
    }
}

fn verdict(demo: &Demo, s: &Settings) -> String {
    let tie = demo.summary_cosine >= TIE;
    let on = positional_on(s);
    let gap = significant(1.0 - demo.summary_cosine, 3);
    match demo.relation {
        Relation::DifferentWords => {
            return "The sentences contain different words, so their summaries differ for that \
                    reason alone."
                .into()
        }
        Relation::Identical => {
            return "The two sentences are the same, word for word, so everything below is \
                    identical. Change the order of the words in one of them."
                .into()
        }
        Relation::Reversed | Relation::Reordered => {}
    }
    let mask = if s.causal {
        " The causal mask on its own already separates them; switch it off to see what the \
         encoding does by itself."
    } else {
        ""
    };
    match (on, tie) {
        (false, true) => "Identical: without position information every word gets exactly the \
            same output in both sentences, so the order-free summaries are equal. The model \
            cannot tell the two sentences apart."
            .into(),
        (false, false) if s.causal => format!(
            "Different even without position information (1 − cosine = {gap}): with the causal \
             mask each word sees only the words before it, and that alone leaks the order."
        ),
        (false, false) => format!("Different (1 − cosine = {gap})."),
        (true, false) => format!(
            "Different: with {} the same words get different outputs and the summaries are no \
             longer equal (1 − cosine = {gap}). Order now matters.{mask}",
            s.scheme.short()
        ),
        (true, true) if s.scheme == Scheme::Alibi && !s.causal => {
            if demo.relation == Relation::Reversed {
                "Still a tie: without a causal mask ALiBi only sees the distance |i − j|, and \
                 sentence B is sentence A read backwards, which keeps every distance. Switch to \
                 causal attention and the tie breaks."
                    .into()
            } else {
                "Still a tie: without a causal mask ALiBi only sees the distance |i − j|, and \
                 in these two sentences every pair of words sits at the same distance. Switch to \
                 causal attention and the tie breaks."
                    .into()
            }
        }
        (true, true) => format!(
            "Almost identical even with {}: at these settings the position signal barely \
             changes the outputs (the cosine rounds to 1 at six digits). Try a smaller base or \
             more words.",
            s.scheme.short()
        ),
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

/// The small heatmaps of the step-by-step view for sentence `i`.
struct StepCards {
    embeddings: Rc<HeatmapData>,
    input: Rc<HeatmapData>,
    q: Rc<HeatmapData>,
    k: Rc<HeatmapData>,
    v: Rc<HeatmapData>,
    bias: Option<Rc<HeatmapData>>,
    scores: Rc<HeatmapData>,
    weights: Rc<HeatmapData>,
    outputs: Rc<HeatmapData>,
    weights_qkv: [Rc<HeatmapData>; 3],
}

fn step_cards(demo: &Demo, i: usize, p: Palette) -> StepCards {
    let pass = &demo.passes[i];
    let name = ["A", "B"][i];
    let t = &pass.tokens;
    let vectors = magnitude(&pass.input).max(magnitude(&pass.embeddings));
    let w = |m: &Dense, label: &str| {
        Rc::new(HeatmapData {
            matrix: Rc::new(m.clone()),
            x: Axis::indexed("output dimension", "out"),
            y: Axis::indexed("input dimension", "in"),
            scale: ColorScale::symmetric(p, magnitude(m)),
            colorbar_title: "weight".into(),
            caption: format!("{label} ({0} × {0}), seeded", demo.width),
            nouns: ("rows".into(), "columns".into()),
            rule: None,
        })
    };
    let vector = |m: &Dense, what: &str, range: Option<f64>| {
        card(m, format!("{what}, sentence {name}"), t, dims(), p, range)
    };
    let square = |m: &Dense, what: &str, range: Option<f64>| {
        card(m, format!("{what}, sentence {name}"), t, keys(t), p, range)
    };
    StepCards {
        embeddings: vector(&pass.embeddings, "Embeddings", Some(vectors)),
        input: vector(&pass.input, "Input", Some(vectors)),
        q: vector(&pass.q, "Q", None),
        k: vector(&pass.k, "K", None),
        v: vector(&pass.v, "V", None),
        bias: pass.bias.as_ref().map(|b| square(b, "Bias", None)),
        scores: square(&pass.scores, "Scores", None),
        weights: square(&pass.weights, "Weights", Some(1.0)),
        outputs: vector(&pass.outputs, "Outputs", None),
        weights_qkv: [
            w(&demo.head.w_q, "W_Q"),
            w(&demo.head.w_k, "W_K"),
            w(&demo.head.w_v, "W_V"),
        ],
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
                    match (positional_on(s), s.scheme) {
                        (true, Scheme::Sinusoidal) => format!("The sinusoidal encoding of positions 0 … {} added ({}, base {}).",
                            n - 1, s.variant.id(), plain(s.base)),
                        (true, Scheme::Learned) => format!("Rows 0 … {} of the learned table added.", n - 1),
                        (true, scheme) => format!("{} adds nothing here: it enters later, inside attention.", scheme.id()),
                        (false, _) => "Position information is off: the input is the embeddings unchanged.".into(),
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
                        format!("What {} adds to each score: query i (row), key j (column).", s.scheme.id()),
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
