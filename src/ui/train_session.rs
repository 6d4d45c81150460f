//! The training run as the app holds it, above the Train view: the workers (one per core, up
//! to four, each training its part of the runs), everything they have reported, merged into
//! one picture, and what ends a run (Clear, a new run, or a change of the settings it was
//! started with). Leaving the Train view leaves the run as it is, training or stopped; coming
//! back shows it where it stands.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::Float32Array;

use yew::prelude::*;

use super::browser;
use super::trainer::{FromWorker, Trainer};
use crate::action::Action;
use crate::train::experiment::{worker_count, Part};
use crate::train::figures::Maps;
use crate::train::protocol::{merge, Command, Phase, Progress, RunView};
use crate::train::settings::TrainSettings;

/// Everything the workers have told the app.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Board {
    /// The experiment as one run of it (what the view reads): the parts merged.
    pub progress: Progress,
    /// What each worker has reported on its part.
    pub parts: Vec<Progress>,
    /// Attention maps per run, for the example asked for last (shared: a report does not copy
    /// them, and a map's card sees that its own maps are unchanged).
    pub maps: Vec<Option<Rc<Maps>>>,
    /// The trained learned table: rows, columns, values.
    pub learned: Option<(usize, usize, Vec<f64>)>,
    pub failure: Option<String>,
}

pub enum BoardAction {
    /// Reports from the workers, in the order they came: (worker `part` of `count`, text).
    Reports(Vec<(usize, usize, String)>),
    /// A new experiment sent to the workers: its empty runs, training, until they report (the
    /// view takes its training shape in the click's task, not in the first report's, when the
    /// workers starting up share the cores with the page).
    Starting(TrainSettings),
    Maps(Maps),
    Learned(usize, usize, Vec<f64>),
    Failed(String),
    Clear,
}

impl Reducible for Board {
    type Action = BoardAction;

    fn reduce(self: Rc<Self>, action: BoardAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            BoardAction::Reports(reports) => {
                let before = next.progress.settings.clone();
                // Merged once for the lot: the newest report's experiment is the one shown.
                let mut newest = None;
                for (part, count, text) in reports {
                    if next.parts.len() != count {
                        next.parts = vec![Progress::default(); count];
                    }
                    if let Some(p) = next.parts.get_mut(part) {
                        p.apply(&text);
                        newest = Some(p.settings.clone());
                    }
                }
                let Some(settings) = newest else {
                    return self;
                };
                next.progress = merge(&next.parts, &settings);
                // Extending keeps the trained models, and their maps and learned table.
                if !TrainSettings::same_training(&next.progress.settings, &before) {
                    next.maps.clear();
                    next.learned = None;
                }
                next.failure = None;
            }
            BoardAction::Starting(s) => {
                next = Board {
                    progress: Progress {
                        settings: s.to_message(),
                        phase: Phase::Training,
                        // Every run the workers will report, extensions a link asks for too.
                        runs: s.runs().into_iter().map(RunView::new).collect(),
                        ..Progress::default()
                    },
                    ..Board::default()
                };
            }
            BoardAction::Maps(m) => {
                let run = m.run;
                if next.maps.len() <= run {
                    next.maps.resize(run + 1, None);
                }
                next.maps[run] = Some(Rc::new(m));
            }
            BoardAction::Learned(r, c, v) => next.learned = Some((r, c, v)),
            BoardAction::Failed(f) => {
                // A run that failed before any worker reported (no worker could start) is
                // no run: the view goes back to its controls, with the reason.
                if next.parts.is_empty() {
                    next.progress = Progress::default();
                }
                next.failure = Some(f);
            }
            BoardAction::Clear => next = Board::default(),
        }
        Rc::new(next)
    }
}

/// The app's training run, as the Train view reaches it (a context).
#[derive(Clone)]
pub struct TrainSession {
    pub board: UseReducerHandle<Board>,
    /// Sends a command to the workers that hold what it is about, starting them first if there
    /// are none (only Start, Extend and Bench start them): Start and Extend to each with its
    /// part, Maps, Tensor and Export to the run's owner, the rest to all.
    pub send: Callback<Command>,
    /// Ends the workers at once and forgets the run.
    pub clear: Callback<()>,
    /// Whether a link's `run=1` has been acted on (it starts a run once per page, at most).
    pub link_acted: Rc<Cell<bool>>,
}

impl PartialEq for TrainSession {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
    }
}

#[derive(Properties, PartialEq)]
pub struct TrainHostProps {
    /// The experiment the settings describe, as the worker's message.
    pub message: AttrValue,
    pub on_action: Callback<Action>,
    pub children: Html,
}

/// Holds the training run for everything inside it (the app's pages): its reports re-render
/// only what reads the run (the Train view), not the pages around it.
#[function_component(TrainHost)]
pub fn train_host(props: &TrainHostProps) -> Html {
    let session = use_train_session(props.message.to_string(), props.on_action.clone());
    html! {
        <ContextProvider<TrainSession> context={session}>
            { props.children.clone() }
        </ContextProvider<TrainSession>>
    }
}

/// Shortest time between two updates of the view while the workers train. Each update redraws
/// the curves and the table (about 10 ms of the page's thread); at a worker's pace (a report every
/// 100 ms each) the page took a fifth of a core from the two workers of a 2-core machine.
const PACE_MS: f64 = 200.0;
/// Reports that arrive within a frame of each other are merged.
const FRAME_MS: f64 = 16.0;

/// The training run for the settings' experiment (`message`): made once, when the app mounts;
/// the worker starts only when a run does.
#[hook]
fn use_train_session(message: String, on_action: Callback<Action>) -> TrainSession {
    let board = use_reducer(Board::default);
    let trainers = use_mut_ref(Vec::<Trainer>::new);
    // The trained RoPE run's weights, from the worker that trained it: the base settings'
    // message, its index, whether it diverged, its params.
    let rope = use_mut_ref(|| None::<(String, usize, bool, Float32Array)>);
    let link_acted = use_memo((), |_| Cell::new(false));

    // Reports gathered, so that the view is merged and drawn once however many workers report:
    // a frame after the first of them, and while the run trains at most once a PACE_MS.
    let queued = use_mut_ref(Vec::<(usize, usize, String)>::new);
    let drawn_at = use_mut_ref(|| f64::NEG_INFINITY);
    let on_worker = {
        let (board, rope, queued) = (board.clone(), rope.clone(), queued.clone());
        Callback::from(
            move |(part, count, m): (usize, usize, FromWorker)| match m {
                FromWorker::Progress(text) => {
                    // A run that ends, pauses or starts shows at once; steps wait their turn.
                    let training = text.split(' ').nth(1) == Some("training");
                    let first = {
                        let mut q = queued.borrow_mut();
                        q.push((part, count, text));
                        q.len() == 1
                    };
                    if first || !training {
                        let wait = if training {
                            PACE_MS - (browser::now() - *drawn_at.borrow())
                        } else {
                            0.0
                        };
                        let (board, queued, drawn_at) =
                            (board.clone(), queued.clone(), drawn_at.clone());
                        browser::after(wait.max(FRAME_MS), move || {
                            let reports = std::mem::take(&mut *queued.borrow_mut());
                            if !reports.is_empty() {
                                *drawn_at.borrow_mut() = browser::now();
                                board.dispatch(BoardAction::Reports(reports));
                            }
                        });
                    }
                }
                FromWorker::Maps(text, w) => {
                    if let Some(maps) = Maps::parse(&text, w) {
                        board.dispatch(BoardAction::Maps(maps));
                    }
                }
                FromWorker::Tensor(text, values) => {
                    let mut l = text.lines().skip(2);
                    let dims: Vec<usize> = l
                        .next()
                        .unwrap_or("")
                        .split(',')
                        .filter_map(|d| d.parse().ok())
                        .collect();
                    if let [r, c] = dims[..] {
                        if values.len() == r * c {
                            let v = values.iter().map(|&x| x as f64).collect();
                            board.dispatch(BoardAction::Learned(r, c, v));
                        }
                    }
                }
                FromWorker::Export(name, bytes) => {
                    if let Err(e) = browser::save_bytes(&name, "application/octet-stream", &bytes) {
                        board.dispatch(BoardAction::Failed(format!("The download failed: {e}.")));
                    }
                }
                FromWorker::Rope(text, params) => {
                    let mut l = text.lines();
                    let index = l.next().and_then(|i| i.parse().ok());
                    let diverged = l.next() == Some("diverged");
                    if let (Some(index), Some(base)) = (index, l.next()) {
                        *rope.borrow_mut() = Some((base.to_string(), index, diverged, params));
                    }
                }
                FromWorker::Failed(text) => {
                    // What the workers said before it failed, first: a report arriving after the
                    // failure would clear it.
                    let reports = std::mem::take(&mut *queued.borrow_mut());
                    if !reports.is_empty() {
                        board.dispatch(BoardAction::Reports(reports));
                    }
                    board.dispatch(BoardAction::Failed(text))
                }
            },
        )
    };

    // The experiment last sent to the workers, as they deal it: Maps, Tensor and Export go to a
    // run's owner under that deal (right after Extend no worker has reported on it yet).
    let dealt = use_mut_ref(String::new);
    let deliver = {
        let (trainers, board, rope, on_worker, queued, dealt) = (
            trainers.clone(),
            board.clone(),
            rope.clone(),
            on_worker.clone(),
            queued.clone(),
            dealt.clone(),
        );
        Rc::new(move |c: Command| {
            let mut pool = trainers.borrow_mut();
            // A new experiment gets as many workers as it can use; an extension keeps the
            // workers (and the parts) that trained its models.
            let wanted = match &c {
                Command::Start(s, _) => Some(workers_for(s)),
                Command::Extend(s, _) if pool.is_empty() => Some(workers_for(s)),
                Command::Bench { .. } if pool.is_empty() => Some(1),
                _ => None,
            };
            if let Some(n) = wanted.filter(|&n| n != pool.len()) {
                pool.clear();
                // The old workers' reports still waiting for their frame belong to no run now.
                queued.borrow_mut().clear();
                *rope.borrow_mut() = None;
                for k in 0..n {
                    match Trainer::spawn(on_worker.reform(move |m| (k, n, m))) {
                        Ok(t) => pool.push(t),
                        Err(e) => {
                            pool.clear();
                            board.dispatch(BoardAction::Failed(format!(
                                "Training needs a Web Worker, and {e}."
                            )));
                            return;
                        }
                    }
                }
            }
            let n = pool.len();
            if let Command::Start(s, _) | Command::Extend(s, _) = &c {
                *dealt.borrow_mut() = s.to_message();
            }
            match c {
                Command::Start(s, _) => {
                    for (k, t) in pool.iter().enumerate() {
                        t.send(&Command::Start(s.clone(), Part::new(k, n)));
                    }
                }
                Command::Extend(s, _) => {
                    let base = s.base().to_message();
                    let rope = rope.borrow();
                    let weights = rope.as_ref().filter(|r| r.0 == base);
                    for (k, t) in pool.iter().enumerate() {
                        let command = Command::Extend(s.clone(), Part::new(k, n));
                        match weights {
                            Some((_, index, diverged, params))
                                if Part::owner(&s, n, *index) != k =>
                            {
                                t.send_with(&command, Some((params, *diverged)))
                            }
                            _ => t.send(&command),
                        }
                    }
                }
                Command::Maps { run, .. }
                | Command::Tensor { run, .. }
                | Command::Export { run } => {
                    // The run's owner, as the workers dealt the experiment last sent to them.
                    let s = TrainSettings::from_message(&dealt.borrow());
                    if let Some(t) = pool.get(Part::owner(&s, n, run)) {
                        t.send(&c);
                    }
                }
                Command::Bench { .. } => {
                    if let Some(t) = pool.first() {
                        t.send(&c);
                    }
                }
                Command::Pause | Command::Resume | Command::Stop => {
                    for t in pool.iter() {
                        t.send(&c);
                    }
                }
            }
        })
    };
    // A Start not yet delivered (it waits a task; see below).
    let pending = use_mut_ref(|| None::<Command>);
    let send = {
        let (deliver, board, pending) = (deliver.clone(), board.clone(), pending.clone());
        Callback::from(move |c: Command| match c {
            // The view takes its training shape at once, in the click's task, and the workers
            // start in a task of their own after it: started first, their start-up (each
            // compiles its module) took the cores from that render, which then ran long.
            Command::Start(ref s, _) => {
                board.dispatch(BoardAction::Starting(s.clone()));
                let first = pending.borrow_mut().replace(c).is_none();
                if first {
                    let (deliver, pending) = (deliver.clone(), pending.clone());
                    browser::after(0.0, move || {
                        // Unless it went out already, or the run was cleared meanwhile.
                        let start = pending.borrow_mut().take();
                        if let Some(start) = start {
                            deliver(start);
                        }
                    });
                }
            }
            // Anything else after the Start it follows (a Pause pressed at once pauses the
            // run that Start began).
            c => {
                let start = pending.borrow_mut().take();
                if let Some(start) = start {
                    deliver(start);
                }
                deliver(c)
            }
        })
    };

    let clear = {
        let (trainers, rope, board, queued, pending) = (
            trainers.clone(),
            rope.clone(),
            board.clone(),
            queued.clone(),
            pending.clone(),
        );
        Callback::from(move |_: ()| {
            // A Start not yet delivered is cleared with the run.
            pending.borrow_mut().take();
            // Terminated, not asked to stop: each worker ends as soon as its current slice
            // of work (at most about 40 ms) is over. Reports still waiting for their frame go
            // too: delivered after Clear, they had brought the ended run back as training.
            trainers.borrow_mut().clear();
            queued.borrow_mut().clear();
            *rope.borrow_mut() = None;
            board.dispatch(BoardAction::Clear);
        })
    };

    // A change of settings ends a run that belongs to the old ones (its results would no
    // longer match what the controls say), wherever the student is, and the link no longer
    // re-runs anything.
    {
        let (clear, board) = (clear.clone(), board.clone());
        use_effect_with(message, move |message| {
            let p = &board.progress;
            // The extension's own values (methods, factor, fine-tuning steps) keep the trained
            // models: Extend stretches them again.
            if !p.settings.is_empty() && !TrainSettings::same_training(&p.settings, message) {
                clear.emit(());
                on_action.emit(Action::SetTrainRun(false));
            }
        });
    }
    // The workers end with the app (and a Start not yet delivered never starts them).
    {
        let (trainers, pending) = (trainers.clone(), pending.clone());
        use_effect_with((), move |_| {
            move || {
                pending.borrow_mut().take();
                trainers.borrow_mut().clear();
            }
        });
    }

    TrainSession {
        board,
        send,
        clear,
        link_acted,
    }
}

/// How many workers train `s`: one per core the browser reports, at most four, no more than
/// the experiment's runs.
fn workers_for(s: &TrainSettings) -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    let cores = if cores.is_finite() && cores >= 1.0 {
        cores as usize
    } else {
        1
    };
    worker_count(cores, s.runs().len())
}
