//! Multimodal RoPE (M-RoPE) of Qwen2-VL (Wang et al., arXiv 2409.12191), Qwen2.5-VL and
//! Qwen3-VL: every token carries three position ids (t, h, w), and each frequency of a head
//! takes its angle from one of them. This module owns the two things that decide those angles:
//!
//! - which axis each frequency index follows ([`Mrope::axis_of`]): the chunked layout of
//!   Qwen2-VL and Qwen2.5-VL, as Hugging Face transformers' `apply_multimodal_rotary_pos_emb`
//!   splits cos/sin by `mrope_section * 2`, and the interleaved layout of Qwen3-VL, as
//!   `Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope` writes H and W into every third slot;
//! - the (t, h, w) ids of a mixed sequence of text, images and videos ([`position_ids`]), as
//!   `Qwen2VLForConditionalGeneration.get_rope_index` (transformers 4.45–4.5x) assigns them, with
//!   Qwen2.5-VL's time rule (`Qwen2_5_VLForConditionalGeneration.get_rope_index`) and the advance
//!   rule measured with transformers 5.24 as two independent choices ([`Time`], [`Advance`]).
//!
//! Frequencies are paired rotate-half style (dimension j with j + head_dim/2), with
//! inv_freq_j = 1/θ^(2j/head_dim) as transformers' default RoPE computes it. Every constructor
//! that takes numbers a user typed checks them and refuses with a plain sentence.

/// Largest number of tokens [`position_ids`] lays out: a teaching view draws every token, and a
/// limit keeps a mistyped grid from asking for gigabytes.
pub const MAX_TOKENS: usize = 1 << 16;

/// Largest position id [`position_ids`] hands out: 2^53, below which every integer is exact in
/// the f64 the angles are computed in.
pub const MAX_POSITION: i64 = 1 << 53;

/// Widest head [`Mrope::new`] accepts. Published models use 128; the limit only keeps
/// [`Mrope::angles`] from allocating without bound.
pub const MAX_HEAD_DIM: usize = 1 << 12;

/// θ when a model does not set `rope_theta` (transformers' RoPE default).
pub const DEFAULT_THETA: f64 = 10_000.0;

/// `mrope_section` of Qwen2-VL and Qwen2.5-VL (head_dim 128), chunked layout.
pub const QWEN2_VL_SECTION: [usize; 3] = [16, 24, 24];

/// `mrope_section` of Qwen3-VL (head_dim 128), interleaved layout.
pub const QWEN3_VL_SECTION: [usize; 3] = [24, 20, 20];

/// One of the three position axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// Time: the frame of a video; for text, the ordinary position.
    T,
    /// Height: the row of a patch in the merged grid.
    H,
    /// Width: the column of a patch in the merged grid.
    W,
}

impl Axis {
    /// The three axes in the order of `mrope_section`.
    pub const ALL: [Axis; 3] = [Axis::T, Axis::H, Axis::W];

    /// 0, 1 or 2: the axis's place in `mrope_section` and in a (t, h, w) triple.
    pub fn index(self) -> usize {
        match self {
            Axis::T => 0,
            Axis::H => 1,
            Axis::W => 2,
        }
    }

    /// "T", "H" or "W".
    pub fn letter(self) -> &'static str {
        match self {
            Axis::T => "T",
            Axis::H => "H",
            Axis::W => "W",
        }
    }
}

/// How frequency indices are shared out between the axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// Qwen2-VL, Qwen2.5-VL: three contiguous bands, T first (the highest frequencies), then H,
    /// then W (the lowest).
    #[default]
    Chunked,
    /// Qwen3-VL: H and W take every third index (from 1 and from 2) until their counts are
    /// met; T keeps the rest, so every axis sees both high and low frequencies.
    Interleaved,
}

impl Layout {
    /// A short name for links and labels.
    pub fn id(self) -> &'static str {
        match self {
            Layout::Chunked => "chunked",
            Layout::Interleaved => "interleaved",
        }
    }
}

/// An M-RoPE head: its width, θ, `mrope_section` and layout, checked on construction.
#[derive(Clone, Debug, PartialEq)]
pub struct Mrope {
    head_dim: usize,
    theta: f64,
    section: [usize; 3],
    layout: Layout,
}

impl Mrope {
    /// Checks the settings: head_dim even and positive, θ finite and above 1, the section summing
    /// to head_dim/2, and (interleaved) each of H and W fitting its every-third slots.
    pub fn new(
        head_dim: usize,
        theta: f64,
        section: [usize; 3],
        layout: Layout,
    ) -> Result<Mrope, String> {
        if head_dim == 0 {
            return Err("head_dim must be at least 2; got 0.".to_string());
        }
        if head_dim % 2 != 0 {
            return Err(format!(
                "head_dim {head_dim} is odd; rotate-half pairs dimension j with j + head_dim/2, \
                 so head_dim must be even."
            ));
        }
        if head_dim > MAX_HEAD_DIM {
            return Err(format!(
                "head_dim {head_dim} is wider than {MAX_HEAD_DIM}, the widest this view draws."
            ));
        }
        // θ ≤ 1 would make the frequencies grow (or stay equal) with the index: not RoPE.
        if !theta.is_finite() || theta <= 1.0 {
            return Err(format!(
                "rope_theta {theta} must be a finite number greater than 1."
            ));
        }
        let half = head_dim / 2;
        // Summed in u128 so that absurd entries cannot overflow before they are refused.
        let sum: u128 = section.iter().map(|&s| s as u128).sum();
        if sum != half as u128 {
            return Err(format!(
                "mrope_section [{}, {}, {}] sums to {sum}, but head_dim {head_dim} has {half} \
                 frequency pairs.",
                section[0], section[1], section[2]
            ));
        }
        if layout == Layout::Interleaved {
            // transformers writes H into `slice(1, 3*s_h, 3)` and W into `slice(2, 3*s_w, 3)`.
            // A slice past the end is silently cut short, so H or W would get fewer frequencies
            // than the section names (and T more). The last H slot, 3·s_h − 2, and the last W
            // slot, 3·s_w − 1, must therefore be below half: 3·s_h ≤ half + 1, 3·s_w ≤ half.
            // [24, 20, 20] with 64 pairs: 60 ≤ 65 and 60 ≤ 64.
            let [_, s_h, s_w] = section;
            if 3 * s_h > half + 1 || 3 * s_w > half {
                return Err(format!(
                    "mrope_section [{}, {s_h}, {s_w}] does not fit the interleaved layout of \
                     head_dim {head_dim} ({half} frequency pairs): H takes every third index \
                     from 1 and W every third from 2, so they need 3 × {s_h} ≤ {} and \
                     3 × {s_w} ≤ {half}.",
                    section[0],
                    half + 1
                ));
            }
        }
        Ok(Mrope {
            head_dim,
            theta,
            section,
            layout,
        })
    }

    /// The head width.
    pub fn head_dim(&self) -> usize {
        self.head_dim
    }

    /// θ (`rope_theta`).
    pub fn theta(&self) -> f64 {
        self.theta
    }

    /// `mrope_section` as [T, H, W] counts of frequency indices.
    pub fn section(&self) -> [usize; 3] {
        self.section
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The number of frequency indices, head_dim/2.
    pub fn pair_count(&self) -> usize {
        self.head_dim / 2
    }

    /// inv_freq_j = 1/θ^(2j/head_dim), as `1.0 / base ** (arange(0, dim, 2) / dim)`.
    pub fn inv_freq(&self, j: usize) -> f64 {
        1.0 / self.theta.powf((2 * j) as f64 / self.head_dim as f64)
    }

    /// The axis frequency index j takes its angle from. A dimension index (head_dim/2 or more)
    /// is folded onto its pair's frequency index, since rotate-half turns dimension j + head_dim/2
    /// with dimension j; so colouring the whole head by this function colours both halves alike.
    pub fn axis_of(&self, j: usize) -> Axis {
        let j = j % self.pair_count();
        let [s_t, s_h, s_w] = self.section;
        match self.layout {
            Layout::Chunked => {
                if j < s_t {
                    Axis::T
                } else if j < s_t + s_h {
                    Axis::H
                } else {
                    Axis::W
                }
            }
            Layout::Interleaved => {
                if j % 3 == 1 && j < 3 * s_h {
                    Axis::H
                } else if j % 3 == 2 && j < 3 * s_w {
                    Axis::W
                } else {
                    Axis::T
                }
            }
        }
    }

    /// The axis of every frequency index, 0..head_dim/2.
    pub fn axes(&self) -> Vec<Axis> {
        (0..self.pair_count()).map(|j| self.axis_of(j)).collect()
    }

    /// The head_dim/2 rotation angles of a token: angle_j = pos[axis_of(j)] · inv_freq_j.
    pub fn angles(&self, id: &TokenId) -> Vec<f64> {
        let pos = [id.t, id.h, id.w];
        (0..self.pair_count())
            .map(|j| pos[self.axis_of(j).index()] as f64 * self.inv_freq(j))
            .collect()
    }
}

/// A piece of a mixed sequence, with vision sizes in patches before merging (`grid_thw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A run of this many text tokens.
    Text(usize),
    /// An image of h × w patches.
    Image { h: usize, w: usize },
    /// A video of `frames` temporal patches (`grid_t`), each h × w patches.
    Video { frames: usize, h: usize, w: usize },
}

impl Segment {
    /// What kind of tokens the segment becomes.
    pub fn kind(&self) -> Kind {
        match self {
            Segment::Text(_) => Kind::Text,
            Segment::Image { .. } => Kind::Image,
            Segment::Video { .. } => Kind::Video,
        }
    }
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A text token.
    Text,
    /// A merged image patch.
    Image,
    /// A merged video patch.
    Video,
}

impl Kind {
    /// "text", "image" or "video", as the CSV writes it.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Text => "text",
            Kind::Image => "image",
            Kind::Video => "video",
        }
    }
}

/// One token's place in the sequence and its three position ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TokenId {
    /// The token's index in the whole sequence.
    pub index: usize,
    /// Text, image or video.
    pub kind: Kind,
    /// The index of the segment it came from.
    pub segment: usize,
    /// Time id.
    pub t: i64,
    /// Height id.
    pub h: i64,
    /// Width id.
    pub w: i64,
}

/// How a video frame's time id grows with the frame index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Time {
    /// Qwen2-VL: the frame index itself.
    Frame,
    /// Qwen2.5-VL: ⌊frame · second_per_grid_t · tokens_per_second⌋, so that one step of t is
    /// a fixed stretch of real time whatever the sampling rate. Images keep t index 0. Some
    /// transformers releases first cast second_per_grid_t to the integer dtype of the frame
    /// range (`torch.as_tensor(.., dtype=range_tensor.dtype)`), which turns 0.5 into 0; this
    /// follows the float product of the releases that keep it a float.
    Seconds {
        /// Seconds covered by one temporal patch: temporal_patch_size / fps (1.0 by default).
        second_per_grid_t: f64,
        /// `vision_config.tokens_per_second` (2 in Qwen2.5-VL).
        tokens_per_second: f64,
    },
}

impl Time {
    /// Qwen2.5-VL's defaults: second_per_grid_t 1.0, tokens_per_second 2.
    pub const QWEN2_5_VL: Time = Time::Seconds {
        second_per_grid_t: 1.0,
        tokens_per_second: 2.0,
    };
}

/// Where the running position goes after a vision block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Advance {
    /// The reference `get_rope_index` (transformers 4.45–4.5x, Qwen's own code): one past the
    /// block's largest id, so text after the block never reuses an id the block holds.
    #[default]
    PastLargest,
    /// As measured with transformers 5.24: the block's start plus max(H, W)/m. For an image this
    /// equals one past its largest id; a video whose time ids run past its larger side ends
    /// above that, so the text after it reuses ids the video holds.
    MaxSide,
}

/// The rules [`position_ids`] follows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdRules {
    /// `spatial_merge_size`: m × m patches become one token (2 in Qwen2-VL, 2.5-VL and 3-VL).
    pub spatial_merge_size: usize,
    /// How a video's time id grows.
    pub time: Time,
    /// Where the running position goes after a vision block.
    pub advance: Advance,
}

impl IdRules {
    /// Qwen2-VL as its reference code lays ids out: m = 2, t = frame, past the largest id.
    pub const QWEN2_VL: IdRules = IdRules {
        spatial_merge_size: 2,
        time: Time::Frame,
        advance: Advance::PastLargest,
    };

    /// Qwen2.5-VL as its reference code lays ids out, with the default time settings.
    pub const QWEN2_5_VL: IdRules = IdRules {
        spatial_merge_size: 2,
        time: Time::QWEN2_5_VL,
        advance: Advance::PastLargest,
    };
}

/// Describes a segment in an error message: "segment 2 (an image of 5×4 patches)".
fn describe(i: usize, s: &Segment) -> String {
    match *s {
        Segment::Text(n) => format!("segment {i} (text of {n} tokens)"),
        Segment::Image { h, w } => format!("segment {i} (an image of {h}×{w} patches)"),
        Segment::Video { frames, h, w } => {
            format!("segment {i} (a video of {frames} frames of {h}×{w} patches)")
        }
    }
}

/// Checks a vision grid against the merge size and returns the merged (rows, columns).
fn merged_grid(
    i: usize,
    s: &Segment,
    h: usize,
    w: usize,
    m: usize,
) -> Result<(usize, usize), String> {
    if h == 0 || w == 0 {
        return Err(format!(
            "{} has no patches; height and width must be at least {m}.",
            describe(i, s)
        ));
    }
    for (name, v) in [("height", h), ("width", w)] {
        if v % m != 0 {
            return Err(format!(
                "In {}, the {name} {v} is not divisible by spatial_merge_size {m}: the vision \
                 encoder merges {m}×{m} patches into one token.",
                describe(i, s)
            ));
        }
    }
    Ok((h / m, w / m))
}

/// The number of tokens a segment becomes, after checking it. Counted in u128, saturating, so
/// that absurd sizes are counted (and then refused) rather than overflowing.
fn token_count(i: usize, s: &Segment, m: usize) -> Result<u128, String> {
    match *s {
        Segment::Text(0) => Err(format!(
            "{} is empty; every segment needs at least one token.",
            describe(i, s)
        )),
        Segment::Text(n) => Ok(n as u128),
        Segment::Image { h, w } => {
            let (rows, cols) = merged_grid(i, s, h, w, m)?;
            Ok((rows as u128).saturating_mul(cols as u128))
        }
        Segment::Video { frames, h, w } => {
            if frames == 0 {
                return Err(format!(
                    "{} has no frames; a video needs at least one.",
                    describe(i, s)
                ));
            }
            let (rows, cols) = merged_grid(i, s, h, w, m)?;
            Ok((rows as u128)
                .saturating_mul(cols as u128)
                .saturating_mul(frames as u128))
        }
    }
}

/// The time index of video frame `f` (before the block's start is added); `None` when the
/// settings push it to [`MAX_POSITION`] or past.
fn time_index(time: Time, f: usize) -> Option<i64> {
    match time {
        Time::Frame => Some(f as i64),
        Time::Seconds {
            second_per_grid_t,
            tokens_per_second,
        } => {
            // Same order as the reference: frame · second_per_grid_t · tokens_per_second, then
            // `.long()`, which truncates; the product is never negative, so that is the floor.
            let t = f as f64 * second_per_grid_t * tokens_per_second;
            (t < MAX_POSITION as f64).then_some(t as i64)
        }
    }
}

/// The (t, h, w) ids of every token of a mixed sequence, in sequence order, following
/// `get_rope_index`. A text run continues the running position on all three axes. A vision
/// block of merged grid (T, R, C) gives its tokens, t-major then row then column,
/// (start + time(f), start + row, start + column), where start is the running position; then the
/// running position moves as `rules.advance` says.
///
/// Qwen3-VL is this with each video split into one block per frame and its timestamp written as
/// text between them, so every frame's time index is 0: [`frames_as_images`] does the split (the
/// timestamps are ordinary text segments for the caller to add).
pub fn position_ids(segments: &[Segment], rules: &IdRules) -> Result<Vec<TokenId>, String> {
    let m = rules.spatial_merge_size;
    if m == 0 {
        return Err("spatial_merge_size must be at least 1; got 0.".to_string());
    }
    if let Time::Seconds {
        second_per_grid_t,
        tokens_per_second,
    } = rules.time
    {
        for (name, v) in [
            ("second_per_grid_t", second_per_grid_t),
            ("tokens_per_second", tokens_per_second),
        ] {
            if !v.is_finite() || v < 0.0 {
                return Err(format!("{name} {v} must be a finite number, 0 or more."));
            }
        }
    }
    // Check and count every segment first, so that nothing is allocated for a sequence that is
    // refused, and the refusal can say how long the sequence would have been.
    let mut total: u128 = 0;
    for (i, s) in segments.iter().enumerate() {
        total = total.saturating_add(token_count(i, s, m)?);
    }
    if total == u128::MAX {
        // The count saturated: printing u128::MAX would state a number that is not the count.
        return Err(format!(
            "The sequence has more tokens than can be counted; this view lays out at most \
             {MAX_TOKENS}."
        ));
    }
    if total > MAX_TOKENS as u128 {
        return Err(format!(
            "The sequence has {total} tokens; this view lays out at most {MAX_TOKENS}."
        ));
    }
    let total = total as usize;

    let mut out = Vec::with_capacity(total);
    // The running position: where the next text token or vision block starts.
    let mut next: i64 = 0;
    for (seg, s) in segments.iter().enumerate() {
        match *s {
            Segment::Text(n) => {
                // Only a video with huge time ids can bring the running position this far.
                if next + n as i64 > MAX_POSITION {
                    return Err(format!(
                        "{} would pass the largest position {MAX_POSITION}; lower \
                         second_per_grid_t or tokens_per_second.",
                        describe(seg, s)
                    ));
                }
                for i in 0..n {
                    let p = next + i as i64;
                    out.push(TokenId {
                        index: out.len(),
                        kind: Kind::Text,
                        segment: seg,
                        t: p,
                        h: p,
                        w: p,
                    });
                }
                next += n as i64;
            }
            Segment::Image { h, w } | Segment::Video { h, w, .. } => {
                let (frames, video) = match *s {
                    Segment::Video { frames, .. } => (frames, true),
                    _ => (1, false),
                };
                let (rows, cols) = (h / m, w / m);
                let start = next;
                let mut largest = start;
                for f in 0..frames {
                    // Images take t index 0 under every time rule: the reference passes
                    // second_per_grid_t = 0 for them in Qwen2.5-VL.
                    let dt = if video {
                        time_index(rules.time, f).ok_or_else(|| {
                            format!(
                                "In {}, frame {f}'s time index (frame × second_per_grid_t × \
                                 tokens_per_second) passes the largest position \
                                 {MAX_POSITION}; lower second_per_grid_t or tokens_per_second.",
                                describe(seg, s)
                            )
                        })?
                    } else {
                        0
                    };
                    // No overflow: start and dt are both below 2^54 (see the checks).
                    let t = start + dt;
                    for r in 0..rows {
                        for c in 0..cols {
                            let id = TokenId {
                                index: out.len(),
                                kind: s.kind(),
                                segment: seg,
                                t,
                                h: start + r as i64,
                                w: start + c as i64,
                            };
                            largest = largest.max(id.t).max(id.h).max(id.w);
                            out.push(id);
                        }
                    }
                }
                if largest >= MAX_POSITION {
                    return Err(format!(
                        "{} reaches position id {largest}, past the largest position \
                         {MAX_POSITION}; lower second_per_grid_t or tokens_per_second.",
                        describe(seg, s)
                    ));
                }
                next = match rules.advance {
                    Advance::PastLargest => largest + 1,
                    // max(H, W)/m = max(rows, cols), as H and W are multiples of m.
                    Advance::MaxSide => start + rows.max(cols) as i64,
                };
            }
        }
    }
    Ok(out)
}

/// Qwen3-VL's split of videos: each video of `frames` frames becomes that many single-frame
/// image blocks of the same size; other segments are kept. A video with no frames is kept as it
/// is, so that [`position_ids`] refuses it rather than letting it vanish.
pub fn frames_as_images(segments: &[Segment]) -> Result<Vec<Segment>, String> {
    // Every frame becomes at least one token, so more frames than MAX_TOKENS is refused here,
    // before a vector of them is built.
    let mut count: usize = 0;
    for (i, s) in segments.iter().enumerate() {
        let n = match *s {
            Segment::Video { frames, .. } if frames > 0 => frames,
            _ => 1,
        };
        count = match count.checked_add(n) {
            Some(c) if c <= MAX_TOKENS => c,
            _ => {
                return Err(format!(
                    "Splitting {} into frames gives more than {MAX_TOKENS} blocks; this view \
                     lays out at most {MAX_TOKENS} tokens.",
                    describe(i, s)
                ))
            }
        };
    }
    let mut out = Vec::with_capacity(count);
    for s in segments {
        match *s {
            Segment::Video { frames, h, w } if frames > 0 => {
                out.extend(std::iter::repeat_n(Segment::Image { h, w }, frames));
            }
            other => out.push(other),
        }
    }
    Ok(out)
}

/// The ids as CSV: header `token,kind,t,h,w`, one row per token.
pub fn ids_csv(ids: &[TokenId]) -> String {
    let mut s = String::from("token,kind,t,h,w\n");
    for id in ids {
        s.push_str(&format!(
            "{},{},{},{},{}\n",
            id.index,
            id.kind.id(),
            id.t,
            id.h,
            id.w
        ));
    }
    s
}
