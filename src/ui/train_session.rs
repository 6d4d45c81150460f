//! The training run as the app holds it, above the Train view: the worker, everything it has
//! reported, and what ends a run (Clear, a new run, or a change of the settings it was started
//! with). Leaving the Train view leaves the run as it is, training or stopped; coming back
//! shows it where it stands.

use std::cell::Cell;
use std::rc::Rc;

use yew::prelude::*;

use super::browser;
use super::trainer::{FromWorker, Trainer};
use crate::action::Action;
use crate::train::figures::Maps;
use crate::train::protocol::{Command, Progress};

/// Everything the worker has told the app.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Board {
    pub progress: Progress,
    /// Attention maps per run, for the example asked for last.
    pub maps: Vec<Option<Maps>>,
    /// The trained learned table: rows, columns, values.
    pub learned: Option<(usize, usize, Vec<f64>)>,
    pub failure: Option<String>,
}

pub enum BoardAction {
    Report(String),
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
            BoardAction::Report(text) => {
                let before = next.progress.settings.clone();
                next.progress.apply(&text);
                // Extending keeps the trained models, and their maps and learned table.
                let base = |m: &str| crate::train::settings::TrainSettings::from_message(m).base();
                if next.progress.settings != before
                    && base(&next.progress.settings) != base(&before)
                {
                    next.maps.clear();
                    next.learned = None;
                }
                next.failure = None;
            }
            BoardAction::Maps(m) => {
                let run = m.run;
                if next.maps.len() <= run {
                    next.maps.resize(run + 1, None);
                }
                next.maps[run] = Some(m);
            }
            BoardAction::Learned(r, c, v) => next.learned = Some((r, c, v)),
            BoardAction::Failed(f) => next.failure = Some(f),
            BoardAction::Clear => next = Board::default(),
        }
        Rc::new(next)
    }
}

/// The app's training run, as the Train view reaches it (a context).
#[derive(Clone)]
pub struct TrainSession {
    pub board: UseReducerHandle<Board>,
    /// Sends a command, starting the worker first if there is none (Pause and Stop never
    /// start one).
    pub send: Callback<Command>,
    /// Ends the worker at once and forgets the run.
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

/// The training run for the settings' experiment (`message`): made once, when the app mounts;
/// the worker starts only when a run does.
#[hook]
fn use_train_session(message: String, on_action: Callback<Action>) -> TrainSession {
    let board = use_reducer(Board::default);
    let trainer = use_mut_ref(|| None::<Trainer>);
    let link_acted = use_memo((), |_| Cell::new(false));

    let on_worker = {
        let board = board.clone();
        Callback::from(move |m: FromWorker| match m {
            FromWorker::Progress(text) => board.dispatch(BoardAction::Report(text)),
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
            FromWorker::Failed(text) => board.dispatch(BoardAction::Failed(text)),
        })
    };

    let send = {
        let (trainer, board, on_worker) = (trainer.clone(), board.clone(), on_worker.clone());
        Callback::from(move |c: Command| {
            let mut slot = trainer.borrow_mut();
            if slot.is_none() {
                if matches!(c, Command::Pause | Command::Stop) {
                    return;
                }
                match Trainer::spawn(on_worker.clone()) {
                    Ok(t) => *slot = Some(t),
                    Err(e) => {
                        board.dispatch(BoardAction::Failed(format!(
                            "Training needs a Web Worker, and {e}."
                        )));
                        return;
                    }
                }
            }
            if let Some(t) = slot.as_ref() {
                t.send(&c);
            }
        })
    };

    let clear = {
        let (trainer, board) = (trainer.clone(), board.clone());
        Callback::from(move |_: ()| {
            // Terminated, not asked to stop: the worker ends as soon as its current slice
            // of work (at most about 40 ms) is over.
            drop(trainer.borrow_mut().take());
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
            let base = |m: &str| crate::train::settings::TrainSettings::from_message(m).base();
            if !p.settings.is_empty()
                && p.settings != *message
                && base(&p.settings) != base(message)
            {
                clear.emit(());
                on_action.emit(Action::SetTrainRun(false));
            }
        });
    }
    // The worker ends with the app.
    {
        let trainer = trainer.clone();
        use_effect_with((), move |_| move || drop(trainer.borrow_mut().take()));
    }

    TrainSession {
        board,
        send,
        clear,
        link_acted,
    }
}
