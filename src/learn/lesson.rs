//! The lesson: short steps from "why order matters" to the bugs worth recognising, then from a
//! line of tokens to a grid of image patches, each one a paragraph and a live view that it sets
//! up (view, scheme and sliders) for the student to play with.

use crate::math::sinusoidal::Variant;
use crate::schemes::grid::{GridScheme, GridSettings};
use crate::schemes::Scheme;
use crate::state::{Settings, View};

use Text::{Fixed, Made};

/// A step's paragraph: fixed, or made from the settings on screen when its numbers follow them.
pub enum Text {
    Fixed(&'static str),
    Made(fn(&Settings) -> String),
}

/// One step of the lesson.
pub struct Step {
    pub title: &'static str,
    /// The explanation, one paragraph (see [`Step::text`]).
    pub text: Text,
    /// What to try with the view, one sentence.
    pub try_this: &'static str,
    /// The view shown under the text.
    pub view: View,
    /// The controls "Try this" names, which the phone's strip shows beside the chart (ids of
    /// the strip's sliders or of the scheme's settings); empty: the view's own.
    pub strip: &'static [&'static str],
    /// The settings the step starts from (applied to the defaults).
    setup: fn(&mut Settings),
}

pub const STEPS: &[Step] = &[
    Step {
        title: "Why order matters",
        text: Fixed("Self-attention compares every token with every other token, and nothing in that \
               comparison says where a token stands. Shuffle the words and, unless a causal mask hides \
               later words, each one meets the same neighbours with the same scores, so it leaves \
               the layer with the same output. \
               Here one attention head reads “dog bites man” and “man bites dog” with no \
               position information: the dog is the dog, whoever bites whom."),
        try_this: "Switch position information on in the demo and watch the two sentences come \
                   apart.",
        view: View::Attention,
        strip: &[],
        setup: |s| {
            s.scheme = Scheme::Sinusoidal;
            s.attention_position = false;
        },
    },
    Step {
        title: "The sinusoidal formula",
        text: Fixed("The original Transformer gives position p a vector of d_model numbers and adds it \
               to the token's embedding. Pair i has the frequency ω_i = 1 / 10000^(2i/d_model): \
               column 2i holds sin(p·ω_i) and column 2i + 1 holds cos(p·ω_i). In the heatmap \
               each row is a position and each column a dimension. The left columns change \
               quickly from row to row; the right ones hardly change at all."),
        try_this: "Drag d_model and the length and watch the stripes stretch and multiply.",
        view: View::Matrix,
        strip: &[],
        setup: |s| {
            s.d_model = 64;
            s.length = 100;
        },
    },
    Step {
        title: "Frequencies and wavelengths",
        text: Fixed("Pair i repeats every 2π/ω_i positions. With base 10,000 these wavelengths grow \
               geometrically, from 2π ≈ 6.3 positions for the first pair to \
               2π·10000^((d − 2)/d) for the last: 47,117 positions at d_model 64, approaching \
               2π·10,000 ≈ 62,832 as d_model grows. The fast pairs tell neighbours apart; the slow \
               ones say roughly where in a long text a token is. The base decides how long the \
               slowest waves get."),
        try_this: "Lower the base to 30 and see even the slowest pair repeat within the 200 \
                   positions.",
        view: View::Waves,
        strip: &[],
        setup: |s| {
            s.d_model = 64;
            s.length = 200;
        },
    },
    Step {
        title: "The rotation property",
        text:
            Fixed("Each pair (sin pω, cos pω) is a point on a circle. Moving k positions on turns that \
               point by the angle kω, wherever it started, so PE(p + k) is PE(p) multiplied by \
               rotation matrices that depend on k alone. One fixed linear map can therefore \
               express “k positions further”, which is why the paper chose sines and cosines."),
        try_this: "Change the position p and the offset k: the matrix M_k follows k only.",
        view: View::Rotations,
        strip: &[],
        setup: |s| {
            s.d_model = 16;
            s.length = 64;
        },
    },
    Step {
        title: "Dot product by offset",
        text: Fixed("Because every pair turns by kω, the dot product PE(p)·PE(p + k) equals \
               Σ cos(kω_i): it depends on the offset k and not on where you start, so the \
               measured curves from different anchors land on one line. It is largest at k = 0 \
               and falls with distance, though not steadily: it wobbles, and far enough out it \
               dips below zero, sooner the smaller d_model is."),
        try_this: "Set d_model to 16 and find where the curve first dips below zero; then \
                   switch to comparing bases and see how the base stretches it.",
        view: View::Offsets,
        strip: &["d-model", "offset-series"],
        setup: |s| {
            s.d_model = 64;
            s.length = 256;
        },
    },
    Step {
        title: "Learned positions and their limit",
        text: Fixed("BERT and GPT-2 use no formula: they learn a table with one vector per position \
               (512 rows in BERT, 1024 in GPT-2) together with the rest of the model. The table \
               here is untrained, random as at the start of training. A table has a last row: \
               past the trained length there is no vector to look up, so a longer input has to \
               be truncated or split into pieces."),
        try_this: "Set the length below the trained length of 512 and the missing rows disappear.",
        view: View::Matrix,
        strip: &[],
        setup: |s| {
            s.scheme = Scheme::Learned;
            s.d_model = 64;
            s.length = 600;
            s.trained_length = 512;
        },
    },
    Step {
        title: "RoPE: rotate queries and keys",
        text: Fixed("Rotary embeddings add nothing to the input. They cut each query and key into pairs \
               of dimensions and turn pair i by the angle m·θ_i at position m. The score of \
               positions m and n then depends on m − n alone: the rotation argument of step 4, \
               now inside attention. The original LLaMA uses the base θ = 10,000; LLaMA 3 raised \
               it to 500,000 so the slow pairs turn less over long contexts."),
        try_this: "Set the base to 500000 and see the score fall off more slowly with distance.",
        view: View::Offsets,
        strip: &[],
        setup: |s| {
            s.scheme = Scheme::Rope;
            s.d_model = 128;
            s.length = 512;
        },
    },
    Step {
        title: "ALiBi: a penalty that grows with distance",
        text: Fixed("ALiBi has no position vectors either. Each head subtracts m·(i − j) from the score \
               of query i and key j: a straight-line penalty for distance. With 8 heads the \
               slopes m are 1/2, 1/4, …, 1/256, so some heads keep to their neighbours while \
               others read the whole context. The penalty keeps growing the same way past the \
               training length, which is why ALiBi extrapolates in language modelling. It \
               depends on the distance alone, though: without a decoder's causal mask a word \
               two places before the query and one two places after get the same penalty."),
        try_this: "Step through the heads in the settings and read each colour bar: the \
                   steepest head's penalty reaches −31.5 at distance 63, the gentlest's about \
                   −0.25.",
        view: View::Matrix,
        strip: &["alibi-head"],
        setup: |s| {
            s.scheme = Scheme::Alibi;
            s.length = 64;
        },
    },
    Step {
        title: "T5: buckets of distance",
        text: Fixed("T5 learns one bias per bucket of relative distance and adds it to the score. Short \
               distances get a bucket each; longer ones share buckets that widen logarithmically \
               towards max_distance (128 in T5). With T5's 32 buckets split between the two \
               directions, the last bucket already starts at distance 91 and holds everything \
               beyond. The model knows “near” exactly and “far” only roughly."),
        try_this: "Change the number of buckets and the max distance and watch the bands move.",
        view: View::Matrix,
        strip: &["t5-buckets", "t5-max-distance"],
        setup: |s| {
            s.scheme = Scheme::T5;
            s.length = 256;
        },
    },
    Step {
        title: "Why add instead of concatenate",
        text: Fixed("The paper adds the position vector to the embedding instead of appending it. \
               Adding keeps the width, and so the cost of every later layer, unchanged; the \
               price is that meaning and position share the same dimensions and the model must \
               learn to keep them apart. Concatenating keeps them separate but widens every \
               vector. The paper also multiplies embeddings by √d_model before adding; a common \
               explanation is that this keeps the position signal from drowning the meaning."),
        try_this: "Toggle the √d_model scaling and compare the two inputs.",
        view: View::Addition,
        strip: &["scale-embeddings"],
        setup: |s| s.d_model = 64,
    },
    Step {
        title: "Bugs worth recognising",
        text: Fixed("Tutorials often get the exponent wrong: when the loop variable already steps \
               0, 2, 4, … and the code writes 2·i/d_model again, the frequencies fall twice as \
               fast and many more columns go flat. Libraries also differ on purpose: some put \
               every sine first and every cosine after (the same numbers, columns reordered), \
               and tensor2tensor does that and also spreads the frequencies slightly differently. \
               A trained model \
               only works with the layout it was trained with."),
        try_this: "Switch the variant to paper and watch the frozen columns on the right come \
                   back to life; then try split and t2t, and compare each with the paper's.",
        view: View::Matrix,
        strip: &["variant"],
        setup: |s| {
            s.variant = Variant::TutorialBug;
            s.d_model = 64;
            s.length = 100;
        },
    },
    Step {
        title: "From a line of tokens to a grid of patches",
        text: Made(patches_text),
        try_this: "Switch the 2-D scheme to mixed 2-D RoPE: each head turns its pairs along \
                   its own direction, so the cross tilts to the head's angle and diagonals get \
                   their own frequencies; change the head and watch the cross turn.",
        view: View::Patches,
        strip: &["grid-scheme", "grid-head"],
        setup: |s| {
            s.grid.scheme = GridScheme::SinCos;
            s.grid.rows = 14;
            s.grid.cols = 14;
        },
    },
];

/// The image patches step's paragraph, with the grid and the width on screen.
fn patches_text(s: &Settings) -> String {
    let (rows, cols) = (s.grid.rows, s.grid.cols);
    let width = GridSettings::width(s.d_model);
    let half = width / 2;
    let positions = if cols == 1 { "position" } else { "positions" };
    format!(
        "A vision transformer cuts an image into a grid of patches, {rows} × {cols} here, and \
         reads them row by row as one line of tokens. Numbered along that line, the patch just \
         below another is {cols} {positions} away, while the last patch of a row and the first \
         of the next, at opposite edges of the image, sit side by side. 2-D schemes give each \
         patch its row and its column instead. MAE's 2-D sin-cos spends half of each vector on \
         each: of its {width} numbers, {half} encode the column and {half} the row, so the \
         similarity of two patches is the mean of a column term and a row term. A patch in the \
         same row matches on a whole half, and so does one in the same column: look at the \
         small maps, each a cross through its patch."
    )
}

impl Step {
    /// The paragraph, with the numbers of the settings `s` on screen where it has any.
    pub fn text(&self, s: &Settings) -> String {
        match self.text {
            Fixed(text) => text.to_string(),
            Made(make) => make(s),
        }
    }
}

/// The step numbered `n` (1-based, clamped to the steps there are).
pub fn step(n: usize) -> &'static Step {
    &STEPS[clamp(n) - 1]
}

/// `n` inside 1 ..= the number of steps.
pub fn clamp(n: usize) -> usize {
    n.clamp(1, STEPS.len())
}

/// The settings step `n` starts from: the defaults with the step's changes (see
/// [`Settings::fresh`] for what is kept).
pub fn preset(n: usize, current: &Settings) -> Settings {
    let n = clamp(n);
    let mut s = current.fresh();
    (step(n).setup)(&mut s);
    s.view = View::Lesson;
    s.lesson = n;
    s
}

/// The encoding heatmap's “Try it” line: two changes from the settings on screen, never one
/// that is already made (lesson step 11 opens on the tutorial bug, so it suggests the paper).
pub fn matrix_try_it(base: f64, variant: Variant) -> String {
    let base_change = if base > crate::limit::BASE.min {
        "drag base down to 10 and the slow columns on the right start to wave"
    } else {
        "drag base up to 10000 and the columns on the right slow down until they look constant"
    };
    let variant_change = if variant == Variant::TutorialBug {
        "switch the variant to paper and watch the frozen half of the columns wave again"
    } else {
        "switch the variant to tutorial-bug and watch half of them freeze"
    };
    format!("Try it: {base_change}; {variant_change}.")
}
