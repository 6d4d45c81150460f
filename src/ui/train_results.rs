//! What a training run shows below its curves: held-out accuracy by test length, "dog bites
//! man", the extension, the attention maps, the learned table and the downloads. A part of the
//! Train view drawn from a chunk of its own (`ui::parts`), once a run has started: the view's
//! first screen (`ui::train`) is its settings and empty curves.

use std::rc::Rc;

use yew::prelude::*;

use super::browser;
use super::chart::{CsvExport, Shared};
use super::controls::{Choice, NumberControl};
use super::heatmap::{Heatmap, MatrixCard};
use super::line_chart::LineChart;
use super::train_session::Board;
use crate::action::Action;
use crate::format::{duration, plain, significant};
use crate::main_chart::TRAIN;
use crate::schemes::Scheme;
use crate::train::experiment::{estimate_seconds, heldout_size, Part, Status};
use crate::train::extension::{self as stretch, Finding};
use crate::train::figures::{self, label, Maps};

use crate::train::protocol::{Command, Phase, Progress, RunView};
use crate::train::settings::{Method, TrainScheme, TrainSettings, EXTEND_FACTOR, TUNE_STEPS};
use crate::train::tasks::Task;

fn words(task: Task, tokens: &[u32]) -> Vec<String> {
    tokens.iter().map(|t| task.word(*t).to_string()).collect()
}

pub(crate) fn stem(s: &TrainSettings, what: &str) -> String {
    format!(
        "pe_train_{what}_{}_L{}x{}h_d{}_len{}_seed{}",
        s.task.id(),
        s.layers,
        s.heads,
        s.d_model,
        s.train_len,
        s.seed
    )
}

#[derive(Properties, Clone)]
pub(crate) struct MapsProps {
    pub(crate) board: UseReducerHandle<Board>,
    pub(crate) settings: TrainSettings,
    pub(crate) palette: crate::plot::colormap::Palette,
    pub(crate) examples: Rc<Vec<(String, Vec<u32>)>>,
    pub(crate) chosen: usize,
    pub(crate) on_example: Callback<usize>,
    pub(crate) layer: Option<usize>,
    pub(crate) on_layer: Callback<usize>,
}

impl PartialEq for MapsProps {
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board
            && self.settings == o.settings
            && self.palette == o.palette
            && self.chosen == o.chosen
            && self.layer == o.layer
    }
}

/// What a run shows below its curves: held-out accuracy by test length, "dog bites man", the
/// extension, the attention maps, the learned table and the downloads, from the board's runs
/// (extensions included). A part of its own (`ui::parts`), drawn once a run has started: the
/// view's first screen is its settings and empty curves.
#[derive(Properties, Clone)]
pub struct HeldOutProps {
    pub(crate) maps: MapsProps,
    pub(crate) send: Callback<Command>,
    pub(crate) on_action: Callback<Action>,
}

impl PartialEq for HeldOutProps {
    fn eq(&self, o: &Self) -> bool {
        self.maps == o.maps && Rc::ptr_eq(&self.maps.examples, &o.maps.examples)
    }
}

pub fn held_out(props: HeldOutProps) -> Html {
    html! { <HeldOut ..props /> }
}

#[function_component(HeldOut)]
fn held_out_view(props: &HeldOutProps) -> Html {
    let maps = &props.maps;
    let s = &maps.settings;
    let all = &maps.board.progress;
    let trained = stretch::trained_only(all);
    let p = &trained;
    let palette = maps.palette;
    // Keyed on the measured cells alone: the table is redrawn when a test ends, not at each step.
    let cells: Vec<RunView> = p
        .runs
        .iter()
        .map(|r| RunView {
            status: r.status,
            cells: r.cells.clone(),
            ..RunView::new(r.scheme)
        })
        .collect();
    let table = use_memo((cells, s.clone(), palette), move |(r, s, pal)| {
        let runs = Progress {
            runs: r.clone(),
            ..Progress::default()
        };
        figures::results_heatmap(&runs, s, *pal)
    });
    let table_csv: CsvExport = {
        let (p, s, name) = (p.clone(), s.clone(), stem(s, "heldout"));
        Callback::from(move |_| Ok((format!("{name}.csv"), figures::results_csv(&p, &s))))
    };
    let done = p.phase == Phase::Done;
    html! {
        <>
            <h3 class="section-title" id="train-results-title">{ "Held-out accuracy by test length" }</h3>
            <p class="explain">
                { format!("Each cell: the share of held-out answers the trained model gets right, on {} \
                    new {} of exactly that length (chance: {} %). Trained on lengths up to {}; the \
                    longer columns test extrapolation. A learned table has no row for a position it was \
                    not trained with, so past length {} that model cannot run at all.",
                    crate::format::group_thousands(heldout_size(s.task) as u64),
                    if s.task == Task::Agent { "sentences" } else { "sequences" },
                    significant(100.0 * s.task.chance(), 3), s.train_len, s.train_len) }
            </p>
            { accuracy_table("train-table", "train-results-title", "scheme", &p.runs.iter().collect::<Vec<_>>(), s) }
            <Heatmap id="train-table-chart" data={Shared::new(table)}
                description="Heatmap of held-out accuracy, schemes by test length; grey cells have no number."
                file_stem={stem(s, "heldout")} csv={Some(table_csv)} show_value={true}
                aspect={0.0} min_height={220.0} max_height={220.0} />
            { for figures::below_chance_notes(p, s).into_iter().map(|t| html! {
                <p class="explain train-below-chance">{ t }</p>
            }) }

            if s.task == Task::Agent && done {
                <DogAndMan runs={p.runs.clone()} />
            }
            <Extension progress={all.clone()} settings={s.clone()} palette={palette}
                send={props.send.clone()} on_action={props.on_action.clone()} />
            if done {
                <AttentionMaps ..maps.clone() />
                <LearnedTable board={maps.board.clone()} settings={s.clone()} palette={palette} />
                <Downloads runs={all.runs.clone()} send={props.send.clone()} />
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct DogProps {
    runs: Vec<RunView>,
}

/// The two sentences through every trained model, with a CSV of the same rows.
#[function_component(DogAndMan)]
fn dog_and_man_table(props: &DogProps) -> Html {
    let rows = figures::dog_and_man_rows(&props.runs);
    let csv = {
        let runs = props.runs.clone();
        Callback::from(move |_: MouseEvent| {
            let _ = browser::save_text(
                "pe_train_dog_bites_man.csv",
                "text/csv",
                &figures::dog_and_man_csv(&runs),
            );
        })
    };
    let cell = |a: &Option<(String, f64)>| {
        a.as_ref()
            .map(|(w, p)| format!("{w} ({} %)", significant(100.0 * p, 3)))
            .unwrap_or_else(|| "—".into())
    };
    html! {
        <>
            <h3 class="section-title" id="train-dog-title">{ "Dog bites man, through each trained model" }</h3>
            <div class="table-scroll"><table class="numbers train-table train-dog" aria-labelledby="train-dog-title" id="train-dog">
                <thead><tr>
                    <th scope="col">{ "scheme" }</th>
                    <th scope="col">{ "“the dog bites the man ?”" }</th>
                    <th scope="col">{ "“the man bites the dog ?”" }</th>
                    <th scope="col">{ "verdict" }</th>
                </tr></thead>
                <tbody>
                    { for rows.iter().map(|r| html! {
                        <tr>
                            <th scope="row">{ label(r.scheme) }</th>
                            <td>{ cell(&r.answers[0]) }</td>
                            <td>{ cell(&r.answers[1]) }</td>
                            <td>{ r.verdict }</td>
                        </tr>
                    }) }
                </tbody>
            </table></div>
            <button type="button" class="button button-small" onclick={csv}>{ "Download CSV" }</button>
        </>
    }
}

/// The trained attention of one example, one small heatmap per head, for every scheme.
#[function_component(AttentionMaps)]
fn attention_maps(props: &MapsProps) -> Html {
    let s = &props.settings;
    let layer = props.layer.unwrap_or(s.layers - 1).min(s.layers - 1);
    let options: Vec<(AttrValue, AttrValue)> = props
        .examples
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            (
                AttrValue::from(i.to_string()),
                AttrValue::from(name.clone()),
            )
        })
        .collect();
    let on_example = {
        let cb = props.on_example.clone();
        Callback::from(move |v: String| cb.emit(v.parse().unwrap_or(0)))
    };
    let on_layer = {
        let cb = props.on_layer.clone();
        Callback::from(move |v: String| cb.emit(v.parse::<usize>().unwrap_or(1).saturating_sub(1)))
    };
    let tokens = props
        .examples
        .get(props.chosen)
        .map(|e| e.1.clone())
        .unwrap_or_default();
    let shown = Rc::new(words(s.task, &tokens));
    html! {
        <>
            <h3 class="section-title">{ "What each trained model attends to" }</h3>
            <div class="view-controls">
                <Choice id="train-example" label="Example" options={options}
                    selected={AttrValue::from(props.chosen.to_string())} on_change={on_example} />
                <Choice id="train-layer" label="Layer"
                    options={(1..=s.layers).map(|l| (AttrValue::from(l.to_string()), AttrValue::from(format!("layer {l} of {}", s.layers)))).collect::<Vec<_>>()}
                    selected={AttrValue::from((layer + 1).to_string())} on_change={on_layer} />
            </div>
            <p class="explain">{ format!("“{}”. Rows are queries, columns the keys they attend to; each row sums to 1.", shown.join(" ")) }</p>
            <div class="train-maps">
                { for props.board.progress.runs.iter().enumerate().filter(|(_, r)| r.scheme.extended.is_none()).map(|(i, r)| {
                    let maps = props.board.maps.get(i).cloned().flatten().filter(|m| m.tokens == tokens);
                    html! {
                        <div class="train-map-card">
                            <h4>{ label(r.scheme) }</h4>
                            { match maps {
                                None if matches!(r.status, Status::Diverged { .. }) => html! { <p class="muted">{ "diverged: no trained model" }</p> },
                                None => html! { <p class="muted">{ "…" }</p> },
                                Some(m) => {
                                    let last = m.predictions.last().map(|(t, pr)| format!("answer at the last position: {} ({} %)",
                                        s.task.word(*t), significant(100.0 * pr, 3))).unwrap_or_default();
                                    html! {
                                        <>
                                            <p class="small">{ last }</p>
                                            <div class="train-heads">
                                                { for (0..m.heads).map(|head| html! {
                                                    <HeadMap maps={m.clone()} scheme={r.scheme} {layer} {head}
                                                        words={shown.clone()} palette={props.palette}
                                                        file_stem={stem(s, &format!("attention_{}_l{}h{}", r.scheme.id(), layer + 1, head + 1))} />
                                                }) }
                                            </div>
                                        </>
                                    }
                                }
                            } }
                        </div>
                    }
                }) }
            </div>
        </>
    }
}

#[derive(Properties, PartialEq)]
struct HeadMapProps {
    maps: Rc<Maps>,
    scheme: TrainScheme,
    layer: usize,
    head: usize,
    words: Rc<Vec<String>>,
    palette: crate::plot::colormap::Palette,
    file_stem: AttrValue,
}

/// One head's attention map. Its heatmap is made once per maps and layer, so that the maps of
/// another model arriving do not redraw it.
#[function_component(HeadMap)]
fn head_map(props: &HeadMapProps) -> Html {
    let (scheme, layer, head) = (props.scheme, props.layer, props.head);
    let data = use_memo(
        (
            props.maps.clone(),
            layer,
            head,
            props.words.clone(),
            props.palette,
        ),
        move |(m, layer, head, words, palette)| {
            let caption = format!("{}, layer {}, head {}", label(scheme), layer + 1, head + 1);
            m.heatmap(*layer, *head, words, *palette, caption)
        },
    );
    html! {
        <MatrixCard id={format!("train-map-{}-{head}", scheme.id())}
            data={Shared::new(data)}
            description={format!("Attention weights of head {} in layer {} of the model trained with {}.", head + 1, layer + 1, label(scheme))}
            file_stem={props.file_stem.clone()}
            height={190.0} />
    }
}

#[derive(Properties)]
struct TableProps {
    board: UseReducerHandle<Board>,
    settings: TrainSettings,
    palette: crate::plot::colormap::Palette,
}

impl PartialEq for TableProps {
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board && self.settings == o.settings && self.palette == o.palette
    }
}

/// The trained learned table beside the sinusoidal one, each with its similarity matrix.
#[function_component(LearnedTable)]
fn learned_table(props: &TableProps) -> Html {
    let s = &props.settings;
    // Made once per trained table: the board changes at every report, the table does not.
    let made = use_memo(
        (props.board.learned.clone(), s.clone(), props.palette),
        |(learned, s, pal)| {
            let (rows, cols, values) = learned.as_ref()?;
            let (rows, cols, pal) = (*rows, *cols, *pal);
            let sin = figures::sinusoidal_table(s);
            let sim_l = figures::similarity(values, rows, cols);
            let sim_s = figures::similarity(&sin, s.train_len, s.d_model);
            let contrast = (
                figures::neighbour_contrast(&sim_l, rows),
                figures::neighbour_contrast(&sim_s, s.train_len),
            );
            let cards = [
                ("train-learned", figures::table_heatmap(values, rows, cols, pal, format!("Learned position table after {} steps", s.steps)), "Heatmap of the trained learned position table, positions by dimensions."),
                ("train-sinusoidal", figures::table_heatmap(&sin, s.train_len, s.d_model, pal, "Sinusoidal table, same size".into()), "Heatmap of the sinusoidal encoding table of the same size."),
                ("train-learned-sim", figures::similarity_heatmap(&sim_l, rows, pal, "Learned: cosine similarity of positions".into()), "Heatmap of the cosine similarity between every two positions of the trained learned table."),
                ("train-sinusoidal-sim", figures::similarity_heatmap(&sim_s, s.train_len, pal, "Sinusoidal: cosine similarity of positions".into()), "Heatmap of the cosine similarity between every two positions of the sinusoidal table."),
            ]
            .map(|(id, data, what)| (id, Shared::new(Rc::new(data)), what));
            Some((rows, cols, contrast, cards))
        },
    );
    let Some((rows, cols, (cl, cs), cards)) = made.as_ref() else {
        return html! {};
    };
    html! {
        <>
            <h3 class="section-title">{ "What the learned table learned" }</h3>
            <p class="explain">
                { format!("Left: the {rows} × {cols} position table after training (it started as N(0, 0.02²) \
                    noise). Right: the sinusoidal table of the same size. Below each: how alike every two \
                    positions' vectors are. Neighbouring positions minus far-apart ones, in mean cosine \
                    similarity: learned {}, sinusoidal {} (near 0 means no structure).",
                    significant(*cl, 2), significant(*cs, 2)) }
            </p>
            <div class="twin twin-2">
                { for cards.iter().map(|(id, data, what)| html! {
                    <MatrixCard id={*id} data={data.clone()} description={*what}
                        file_stem={stem(s, id)} height={240.0} />
                }) }
            </div>
        </>
    }
}

#[derive(Properties, PartialEq)]
struct DownloadProps {
    runs: Vec<RunView>,
    send: Callback<Command>,
}

/// Each trained model as a file, and the script that runs it.
#[function_component(Downloads)]
fn downloads(props: &DownloadProps) -> Html {
    html! {
        <>
            <h3 class="section-title">{ "Take the models with you" }</h3>
            <p class="explain">
                { "Each model downloads as a .safetensors file: its weights, the fixed tables its scheme \
                   uses, the held-out sets and the accuracies shown above. The script loads one with \
                   NumPy (or PyTorch: add --torch) and reproduces those accuracies: " }
                <code>{ "python3 pe_model.py model.safetensors" }</code>
            </p>
            <div class="train-downloads">
                { for props.runs.iter().enumerate().filter(|(_, r)| r.status == Status::Done).map(|(i, r)| {
                    let send = props.send.clone();
                    html! {
                        <button type="button" class="button button-small" id={format!("train-export-{}", r.scheme.id())}
                            onclick={Callback::from(move |_| send.emit(Command::Export { run: i }))}>
                            { format!("Model: {}", label(r.scheme)) }
                        </button>
                    }
                }) }
                <a class="button button-small" href={browser::file_address("train/pe_model.py")} download="pe_model.py" id="train-script">
                    { "Script: pe_model.py" }
                </a>
            </div>
        </>
    }
}

#[derive(Properties, PartialEq)]
struct ExtensionProps {
    /// Every run of the experiment, the extensions among them.
    progress: Progress,
    settings: TrainSettings,
    palette: crate::plot::colormap::Palette,
    send: Callback<Command>,
    on_action: Callback<Action>,
}

/// A table of held-out accuracy by test length, one row per run (`first`: the rows' heading),
/// each cell with its count; an extension's row links to the RoPE view that draws its
/// frequencies.
fn accuracy_table(
    id: &str,
    title: &str,
    first: &str,
    runs: &[&RunView],
    s: &TrainSettings,
) -> Html {
    let headings = figures::length_headings(s);
    html! {
        <div class="table-scroll">
            <table class="numbers train-table" id={id.to_string()} aria-labelledby={title.to_string()}>
                <thead>
                    <tr>
                        <th scope="col">{ first.to_string() }</th>
                        { for headings.iter().enumerate().map(|(i, h)| html! {
                            <th scope="col" class={(i == 0).then_some("train-trained")}>{ h.clone() }</th>
                        }) }
                    </tr>
                </thead>
                <tbody>
                    { for runs.iter().map(|r| {
                        let link = r.scheme.extended.and_then(|e| stretch::rope_link(s, e.method));
                        html! {
                            <tr data-run={r.scheme.id()}>
                                <th scope="row">
                                    { label(r.scheme) }
                                    if let Some(href) = link {
                                        <>{ " " }<a class="small" href={href}
                                            aria-label={format!("{}: its frequencies in the RoPE view", label(r.scheme))}>
                                            { "frequencies" }</a></>
                                    }
                                </th>
                                { for r.cells.iter().enumerate().map(|(i, c)| html! {
                                    <td class={classes!((i == 0).then_some("train-trained"))}
                                        data-length={c.length.to_string()}>
                                        <span class="train-acc">{ figures::cell_text(r, c) }</span>
                                        if c.missing.is_none() && !matches!(r.status, Status::Diverged { .. }) {
                                            <span class="train-count">{ figures::cell_count(s, c) }</span>
                                        }
                                    </td>
                                }) }
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// Why a paper's claim may not show on a toy model, for a claim the run does not bear out.
fn why_not(s: &TrainSettings) -> String {
    format!(
        "The papers measure models of billions of parameters with thousands of positions and \
         64 or more frequency pairs per head; this model has {} pairs per head, was trained at \
         length {} for {} steps, and one seed decides its weights, so a method's advantage can \
         vanish or turn round here. Try another seed or more fine-tuning steps.",
        s.d_model / s.heads.max(1) / 2,
        s.train_len,
        s.steps
    )
}

/// Context extension: each method the RoPE views know, applied to the trained RoPE model,
/// tested as it is and after a short fine-tune, beside the schemes trained without RoPE.
#[function_component(Extension)]
fn extension(props: &ExtensionProps) -> Html {
    let s = &props.settings;
    let p = &props.progress;
    let chosen: Vec<Method> = if s.extend.is_empty() && s.rope_config.is_empty() {
        Method::ALL.to_vec()
    } else {
        s.extend.clone()
    };
    let has_rope = s.schemes.contains(&TrainScheme::of(Scheme::Rope));
    let rope_done = p
        .runs
        .iter()
        .any(|r| r.scheme == TrainScheme::of(Scheme::Rope) && r.status == Status::Done);
    let finished = p.phase == Phase::Done;
    let zero = stretch::extension_runs(p, false);
    let tuned = stretch::extension_runs(p, true);
    // Redrawn when a fine-tuning curve grows, not on every report.
    let curves: Vec<(TrainScheme, usize)> = p
        .runs
        .iter()
        .filter(|r| r.scheme.extended.is_some())
        .map(|r| (r.scheme, r.curve.len()))
        .collect();
    let chart = {
        let p = p.clone();
        use_memo((curves, s.clone()), move |(_, s)| {
            stretch::tune_chart(&p, s)
        })
    };
    let cursor = use_state(|| None::<f64>);
    let needle_left = use_state(|| None::<usize>);
    let pasted = use_state(|| s.rope_config.clone());
    let paste_error = use_state(|| None::<String>);
    let needle_right = use_state(|| None::<usize>);

    let toggle = |m: Method| {
        let (cb, chosen) = (props.on_action.clone(), chosen.clone());
        Callback::from(move |_: Event| {
            let mut next = chosen.clone();
            if let Some(i) = next.iter().position(|x| *x == m) {
                if next.len() > 1 {
                    next.remove(i);
                }
            } else {
                next.push(m);
            }
            let ids: Vec<&str> = Method::ALL
                .into_iter()
                .filter(|x| next.contains(x))
                .map(Method::id)
                .collect();
            cb.emit(Action::SetTrain("extend", ids.join(",")));
        })
    };
    let set = |key: &'static str| {
        let cb = props.on_action.clone();
        Callback::from(move |v: f64| cb.emit(Action::SetTrain(key, plain(v))))
    };
    let extend = {
        let (send, cb, settings, chosen) = (
            props.send.clone(),
            props.on_action.clone(),
            s.clone(),
            chosen.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let ids: Vec<&str> = chosen.iter().map(|m| m.id()).collect();
            let settings = TrainSettings {
                extend: chosen.clone(),
                ..settings.clone()
            };
            cb.emit(Action::SetTrain("extend", ids.join(",")));
            send.emit(Command::Extend(settings, Part::WHOLE));
            cb.emit(Action::SetTrainRun(true));
        })
    };
    let on_paste = {
        let pasted = pasted.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                pasted.set(t.value());
            }
        })
    };
    let apply_config = {
        let (cb, pasted, error) = (props.on_action.clone(), pasted.clone(), paste_error.clone());
        Callback::from(move |_: MouseEvent| {
            match crate::train::settings::read_rope_config(&pasted) {
                Ok(text) => {
                    error.set(None);
                    cb.emit(Action::SetTrain("rope_config", text));
                }
                Err(e) => error.set(Some(e)),
            }
        })
    };
    let config_read = use_memo(s.rope_config.clone(), |text| {
        (!text.is_empty())
            .then(|| crate::rope_config::RopeConfig::from_json(text).ok())
            .flatten()
            .map(|c| c.read.join("; "))
    });
    let csv = {
        let (p, s) = (p.clone(), s.clone());
        let name = stem(&s, "extension");
        Callback::from(move |_: MouseEvent| {
            let _ = browser::save_text(
                &format!("{name}.csv"),
                "text/csv",
                &stretch::extension_csv(&p, &s),
            );
        })
    };
    let findings = stretch::findings(p, s);
    let summary = stretch::summary(p, s);
    let baselines = stretch::baselines(p);
    let rope_run = p
        .runs
        .iter()
        .find(|r| r.scheme == TrainScheme::of(Scheme::Rope));
    // On the right by default: the model best at the longest length after fine-tuning (or, before
    // it, zero-shot).
    let default_right = {
        let best = |runs: &[&RunView]| {
            runs.iter()
                .filter_map(|r| {
                    r.cells
                        .last()
                        .and_then(|c| c.accuracy())
                        .map(|a| (r.scheme, a))
                })
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|x| x.0)
        };
        let pick = best(&tuned).or_else(|| best(&zero));
        rope_run
            .into_iter()
            .chain(zero.iter().copied())
            .chain(tuned.iter().copied())
            .position(|r| Some(r.scheme) == pick)
            .unwrap_or(1)
    };
    let needles: Vec<&RunView> = rope_run
        .into_iter()
        .chain(zero.iter().copied())
        .chain(tuned.iter().copied())
        .collect();
    let head = s.d_model / s.heads.max(1);
    let method_count = chosen.len() + usize::from(!s.rope_config.is_empty());
    // Worked out per settings, not per report: the estimate walks every run's cost.
    let extend_estimate = *use_memo((s.clone(), chosen.clone()), |(s, chosen)| {
        let with = TrainSettings {
            extend: chosen.clone(),
            ..s.clone()
        };
        estimate_seconds(&with) - estimate_seconds(&s.base())
    });

    html! {
        <section class="train-extension" aria-labelledby="train-extend-title">
            <h3 class="section-title" id="train-extend-title">{ "Stretch the trained RoPE model past its length" }</h3>
            <p class="explain">
                { format!("Every long-context checkpoint ships a rope_scaling: a rule that changes RoPE's \
                    angles so that a model trained at one length runs at a longer one. Here each rule the \
                    RoPE views draw is applied to the RoPE model trained above (same code, heads of width \
                    {head}, θ = {}), with the training length {} as the original and factor s = {}: first \
                    as it is (zero-shot), then after {} fine-tuning steps at length {} on the same batches \
                    for every method. DroPE instead removes RoPE and recalibrates at length {}, as its \
                    paper does. The schemes trained without RoPE are the baselines.",
                    plain(s.base), s.train_len, plain(s.factor), s.tune_steps, s.tune_len(), s.train_len) }
            </p>
            if !has_rope {
                <p class="note note-info" id="train-extend-norope">{ "Add RoPE to the schemes to compare the extension methods: they stretch the trained RoPE model." }</p>
            } else {
                <div class="train-setup">
                    <fieldset class="train-schemes">
                        <legend class="control-label">{ "Methods" }</legend>
                        { for Method::ALL.into_iter().map(|m| {
                            let id = format!("train-extend-{}", m.id());
                            html! {
                                <label class="toggle" for={id.clone()}>
                                    <input id={id} type="checkbox" checked={chosen.contains(&m)} onchange={toggle(m)} />
                                    <span>{ m.short() }<span class="muted small">{ format!(" · {}", m.source()) }</span></span>
                                </label>
                            }
                        }) }
                    </fieldset>
                    <div class="train-controls train-numbers">
                        <NumberControl id="train-extend-factor" limit={EXTEND_FACTOR} value={s.factor} on_change={set("extend_factor")}
                            hint="The factor s of every method; the fine-tune runs at s × the training length (at most 8×)." />
                        <NumberControl id="train-tune-steps" limit={TUNE_STEPS} value={s.tune_steps as f64} on_change={set("tune_steps")}
                            hint="Fine-tuning steps per method, 16 sequences each, at a third of the learning rate (0: zero-shot only)." />
                    </div>
                </div>
                <div class="train-config">
                    <label class="control-label" for="train-extend-config">{ "Your config.json (optional)" }</label>
                    <textarea id="train-extend-config" rows="3" spellcheck="false" class="rope-config-text" autocomplete="off"
                        aria-describedby="train-extend-config-hint"
                        placeholder={r#"{"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}}"#}
                        value={(*pasted).clone()} oninput={on_paste} />
                    <p class="control-hint" id="train-extend-config-hint">
                        { "Paste a checkpoint's config.json, or its rope_scaling alone: it is read as the RoPE view's paste box reads it, and its method and numbers are applied to the trained model as one more row. The trained model's θ, head width and training length stand in for the config's." }
                    </p>
                    <button type="button" class="button button-small" id="train-extend-config-apply" onclick={apply_config}>{ "Use this config" }</button>
                    if let Some(e) = &*paste_error {
                        <p class="note note-error" role="alert" id="train-extend-config-error">{ e.clone() }</p>
                    } else if let Some(read) = &*config_read {
                        <p class="note note-info" role="status" id="train-extend-config-read">{ format!("Applied as “your config”: {read}.") }</p>
                    }
                </div>
                <div class="train-actions">
                    <button type="button" class="button button-primary" id="train-extend"
                        disabled={!(finished && rope_done)} onclick={extend}>
                        { if zero.is_empty() { "Extend" } else { "Extend again" } }
                    </button>
                    <p class="muted small" id="train-extend-estimate">{ format!("Estimated time: {} for {} {} (measured on an idle 2-core laptop; a busy machine or a phone can take two or three times as long).",
                        if extend_estimate < 1.0 { "under a second".to_string() } else { format!("about {}", duration(extend_estimate)) },
                        method_count, if method_count == 1 { "method" } else { "methods" }) }</p>
                    if !(finished && rope_done) {
                        <p class="muted small" id="train-extend-hint">{ "Train first: the methods stretch the RoPE model once it is trained (or choose them before pressing Train, and the extension runs after training)." }</p>
                    }
                </div>
            }
            if !zero.is_empty() {
                <>
                    if let Some(text) = summary {
                        <p class="explain" id="train-extend-summary">{ text }</p>
                    }
                    <h4 id="train-zero-title">{ "Zero-shot: the method applied, no fine-tuning" }</h4>
                    { accuracy_table("train-zero", "train-zero-title", "model", &baselines.iter().copied().chain(zero.iter().copied()).collect::<Vec<_>>(), s) }
                    if !tuned.is_empty() {
                        <>
                            <h4 id="train-tuned-title">{ format!("After {} fine-tuning steps at length {}", s.tune_steps, s.tune_len()) }</h4>
                            { accuracy_table("train-tuned", "train-tuned-title", "model", &tuned, s) }
                            <LineChart id="train-tune-curve" data={Shared::new(chart)}
                                description="Line chart of each method's held-out accuracy at the fine-tuning length against the fine-tuning step."
                                file_stem={stem(s, "finetune")} cursor={*cursor} whole_x={true}
                                on_x={{ let c = cursor.clone(); Callback::from(move |v| c.set(v)) }}
                                show_values={true} aspect={TRAIN.aspect} min_height={TRAIN.min} max_height={TRAIN.max} />
                        </>
                    }
                    if !findings.is_empty() {
                        <>
                            <h4>{ "The papers' claims, on this run" }</h4>
                            <ul class="train-findings" id="train-findings">
                                { for findings.iter().map(|f: &Finding| html! {
                                    <li data-holds={match f.holds { Some(true) => "yes", Some(false) => "no", None => "unclear" }}>
                                        <strong>{ match f.holds { Some(true) => "Reproduced here. ", Some(false) => "Not reproduced here. ", None => "Not decided by this run. " } }</strong>
                                        { f.claim }{ " " }{ f.here.clone() }
                                        if f.holds == Some(false) {
                                            <>{ " " }<span class="muted">{ why_not(s) }</span></>
                                        }
                                    </li>
                                }) }
                            </ul>
                            <p class="muted small">{ "“Better” means by more than twice the standard error of the difference; one seed stands behind every number here." }</p>
                        </>
                    }
                    if s.task.depths() > 1 {
                        <>
                            <h4>{ "Needle in a haystack: accuracy by depth and length" }</h4>
                            <p class="explain">{ "Rows: where the key sits in the filler (0 %: at the start, 100 %: just before the question). Columns: the test length. Pick any two models to set side by side: the trained RoPE model, each method as it is, and each method fine-tuned." }</p>
                            if let Some(n) = needles.first().and_then(|r| r.cells.first()).and_then(|c| c.depths.first()).map(|d| d.1).filter(|n| *n > 0) {
                                <p class="explain" id="train-needle-noise">{ needle_noise(n, s.task.chance()) }</p>
                            }
                            <div class="twin twin-2 train-needles">
                                { for [(0usize, &needle_left), (1, &needle_right)].into_iter().map(|(side, state)| {
                                    let i = (**state).unwrap_or(if side == 0 { 0 } else { default_right }).min(needles.len().saturating_sub(1));
                                    let on_change = {
                                        let state = (*state).clone();
                                        Callback::from(move |v: String| state.set(v.parse().ok()))
                                    };
                                    html! {
                                        <div class="train-needle">
                                            <Choice id={if side == 0 { "train-needle-left" } else { "train-needle-right" }}
                                                label={if side == 0 { "Model (left)" } else { "Model (right)" }}
                                                options={needles.iter().enumerate().map(|(k, r)| (AttrValue::from(k.to_string()), AttrValue::from(label(r.scheme)))).collect::<Vec<_>>()}
                                                selected={AttrValue::from(i.to_string())} on_change={on_change} />
                                            if let Some(r) = needles.get(i) {
                                                <NeedleCard scheme={r.scheme} cells={r.cells.clone()}
                                                    diverged={matches!(r.status, Status::Diverged { .. })}
                                                    settings={s.clone()} palette={props.palette}
                                                    side={if side == 0 { "left" } else { "right" }} />
                                            }
                                        </div>
                                    }
                                }) }
                            </div>
                        </>
                    }
                    <button type="button" class="button button-small" id="train-extend-csv" onclick={csv}>{ "Download CSV (every cell and depth)" }</button>
                </>
            }
        </section>
    }
}

/// What one needle cell's count of answers means for reading it: its sampling noise (two
/// standard errors) at 50 % and at chance.
fn needle_noise(answers: usize, chance: f64) -> String {
    let two_se = |p: f64| 200.0 * figures::standard_error(p, answers);
    format!(
        "Each cell counts {answers} answers, so chance alone moves a cell by up to about ±{} \
         points at 50 % (±{} near the {} % chance) from one seed to another: read the pattern \
         across cells, not one cell. The middle colour is chance.",
        significant(two_se(0.5), 2),
        significant(two_se(chance), 2),
        significant(100.0 * chance, 2)
    )
}

#[derive(Properties, PartialEq)]
struct NeedleProps {
    scheme: TrainScheme,
    cells: Vec<crate::train::experiment::Cell>,
    diverged: bool,
    settings: TrainSettings,
    palette: crate::plot::colormap::Palette,
    /// Which of the two maps ("left", "right"): its element ids.
    side: AttrValue,
}

/// One model's needle-in-a-haystack map, redrawn only when its own cells change.
#[function_component(NeedleCard)]
fn needle_card(props: &NeedleProps) -> Html {
    let data = use_memo(
        (
            props.scheme,
            props.cells.clone(),
            props.diverged,
            props.settings.clone(),
            props.palette,
        ),
        |(scheme, cells, diverged, s, palette)| {
            let mut run = RunView::new(*scheme);
            run.cells = cells.clone();
            run.status = if *diverged {
                Status::Diverged { step: 0 }
            } else {
                Status::Done
            };
            stretch::needle_heatmap(&run, s, *palette).map(Rc::new)
        },
    );
    let Some(d) = (*data).clone() else {
        return html! {};
    };
    let s = &props.settings;
    html! {
        <MatrixCard id={format!("train-needle-map-{}", props.side)}
            data={Shared::new(d)}
            description={format!("Heatmap of passkey accuracy by the key's depth and the test length, for {}.", label(props.scheme))}
            file_stem={stem(s, &format!("needle_{}", props.scheme.id().replace('+', "_")))}
            height={300.0} />
    }
}
