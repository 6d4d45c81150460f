//! The "dog bites man" demo as data: one seeded self-attention head on two sentences, with and
//! without position information, and the small matrices of every step. Each scheme hands the
//! head its [`PositionInputs`]; the view only draws what is here.

use std::rc::Rc;

use crate::format::significant;
use crate::math::attention::{
    cosine, mean_pool, parse_sentence, relation, run, Head, Pass, Positional, Relation,
    DEMO_MAX_WIDTH,
};
use crate::math::matrix::Dense;
use crate::plot::colormap::{ColorScale, Palette};
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::schemes::inputs::PositionInputs;
use crate::schemes::{Registered, Scheme};
use crate::state::Settings;

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
pub fn positional_on(s: &Settings) -> bool {
    s.attention_position && s.scheme != Scheme::None
}

/// Everything the demo's head reads: a memo keyed on this recomputes exactly when the demo
/// would change.
#[derive(Clone, Debug, PartialEq)]
pub struct DemoInputs {
    pub width: usize,
    pub scale: f64,
    pub causal: bool,
    pub tokens: [Vec<String>; 2],
    pub positions: [PositionInputs; 2],
    /// Why the model cannot run on these sentences (a learned table that is too short).
    pub problem: Option<String>,
}

/// The demo's inputs for the current settings.
pub fn demo_inputs(s: &Settings) -> DemoInputs {
    let width = demo_width(s.d_model);
    let scale = if s.scale_embeddings {
        (width as f64).sqrt()
    } else {
        1.0
    };
    let tokens: [Vec<String>; 2] =
        [0, 1].map(|i| parse_sentence(&s.sentences[i]).unwrap_or_else(|_| vec!["?".into()]));
    let mut problem = None;
    let positions = [0, 1].map(|i| {
        if !positional_on(s) {
            return PositionInputs::default();
        }
        crate::schemes::attention_inputs(s.scheme, s, tokens[i].len(), width).unwrap_or_else(|e| {
            problem = Some(e);
            PositionInputs::default()
        })
    });
    DemoInputs {
        width,
        scale,
        causal: s.causal,
        tokens,
        positions,
        problem,
    }
}

/// Runs the head on both sentences.
pub fn run_demo(inputs: &DemoInputs) -> Demo {
    let head = Head::seeded(inputs.width);
    let pass = |i: usize| {
        let p = &inputs.positions[i];
        let position = Positional {
            added: p.added.as_ref(),
            rope: p.rope.as_ref(),
            bias: p.bias.as_ref(),
            causal: inputs.causal,
        };
        run(&head, &inputs.tokens[i], inputs.scale, &position)
    };
    let passes = [pass(0), pass(1)];
    let summary_cosine = cosine(
        &mean_pool(&passes[0].outputs),
        &mean_pool(&passes[1].outputs),
    );
    Demo {
        width: inputs.width,
        relation: relation(&inputs.tokens[0], &inputs.tokens[1]),
        head,
        passes,
        summary_cosine,
        problem: inputs.problem.clone(),
    }
}

/// The demo for the current settings.
pub fn demo(s: &Settings) -> Demo {
    run_demo(&demo_inputs(s))
}

pub fn magnitude(m: &Dense) -> f64 {
    m.data.iter().fold(1e-9f64, |a, v| a.max(v.abs()))
}

/// A small heatmap of `m` with token rows and the given columns.
pub fn card(
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

pub fn keys(tokens: &[String]) -> Axis {
    Axis::named("key (attended to)", "key", tokens.to_vec())
}

pub fn dims() -> Axis {
    Axis::indexed("dimension", "dim")
}

/// The sentence that states what the numbers mean.
pub fn verdict(demo: &Demo, s: &Settings) -> String {
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
        (true, true) if s.scheme.def().direction_blind().is_some() && !s.causal => {
            let why = if demo.relation == Relation::Reversed {
                "sentence B is sentence A read backwards, which keeps every distance"
            } else {
                "in these two sentences every pair of words sits at the same distance"
            };
            format!(
                "Still a tie: without a causal mask {} only sees {}, and {why}. Switch to \
                 causal attention and the tie breaks.",
                s.scheme.short(),
                s.scheme.def().direction_blind().unwrap_or_default()
            )
        }
        (true, true) => format!(
            "Almost identical even with {}: at these settings the position signal barely \
             changes the outputs (the cosine rounds to 1 at six digits). {}",
            s.scheme.short(),
            if s.scheme.uses_base() {
                "Try a smaller base or more words."
            } else {
                "Try more words."
            }
        ),
    }
}

/// The small heatmaps of the step-by-step view for sentence `i`.
pub struct StepCards {
    pub embeddings: Rc<HeatmapData>,
    pub input: Rc<HeatmapData>,
    pub q: Rc<HeatmapData>,
    pub k: Rc<HeatmapData>,
    pub v: Rc<HeatmapData>,
    pub bias: Option<Rc<HeatmapData>>,
    pub scores: Rc<HeatmapData>,
    pub weights: Rc<HeatmapData>,
    pub outputs: Rc<HeatmapData>,
    pub weights_qkv: [Rc<HeatmapData>; 3],
}

pub fn step_cards(demo: &Demo, i: usize, p: Palette) -> StepCards {
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
