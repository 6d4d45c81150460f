//! The tasks a tiny transformer is trained on, each chosen to ask one thing of position, and
//! their generators: every example is drawn from a seeded stream, so a seed names a data set.

use crate::math::rng::SplitMix64;
use std::cell::Cell;

/// One training or test sequence: token ids, and at each position the class to predict (`None`
/// where nothing is asked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    pub tokens: Vec<u32>,
    pub targets: Vec<Option<u32>>,
}

/// What the model is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Task {
    /// "the dog bites the man ?": name the one who bites.
    #[default]
    Agent,
    /// At every position, output the token three places earlier.
    Copy,
    /// At every position, output the first token of the sequence.
    First,
    /// Passkey retrieval (needle in a haystack): a two-digit key hidden at some depth in
    /// filler, asked for at the end.
    Passkey,
}

/// How far back the relative task looks.
pub const COPY_OFFSET: usize = 3;

const NOUNS: [&str; 8] = [
    "dog", "man", "cat", "woman", "child", "bird", "horse", "girl",
];
const VERBS: [&str; 6] = ["bites", "sees", "chases", "helps", "pushes", "follows"];
const FILLERS: [&str; 10] = [
    "the", "a", "big", "small", "old", "young", "very", "today", "then", "loudly",
];
/// The token after which the model answers.
pub const QUERY: &str = "?";
const LETTERS: [&str; 10] = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
/// The passkey task's words: the marker before the key, the key's digits, the filler.
pub const KEY: &str = "key";
const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
const HAY: [&str; 6] = ["the", "grass", "is", "green", "sky", "blue"];
/// Tokens of a passkey example besides the filler: "key", two digits, "?", the first digit.
const NEEDLE_TOKENS: usize = 5;
/// Depths at which held-out passkey examples hide the key: k/7 of the way through the filler,
/// k = 0..7, in turn (example i at depth i mod 8).
pub const DEPTHS: usize = 8;

impl Task {
    pub const ALL: [Task; 4] = [Task::Agent, Task::Copy, Task::First, Task::Passkey];

    pub fn id(self) -> &'static str {
        match self {
            Task::Agent => "agent",
            Task::Copy => "copy",
            Task::First => "first",
            Task::Passkey => "passkey",
        }
    }

    pub fn from_id(id: &str) -> Option<Task> {
        Task::ALL.into_iter().find(|t| t.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            Task::Agent => "Who did what to whom",
            Task::Copy => "Copy the token 3 back (relative)",
            Task::First => "Repeat the first token (absolute)",
            Task::Passkey => "Passkey in a haystack (long context)",
        }
    }

    /// One paragraph: what the task asks of position.
    pub fn explanation(self) -> &'static str {
        match self {
            Task::Agent => {
                "Each example is a short sentence such as “the old dog bites a man today ?”, with \
                 filler words scattered so that no role sits at a fixed slot. At the “?” the model \
                 names the one who acts. Both nouns and the verb are in the sentence whichever way \
                 round it is said, so only word order tells “dog bites man” from “man bites dog”. \
                 A model with no position information and no mask sees the same bag of words for \
                 both, gives the same answer to both, and cannot beat 50 % on the held-out pairs. \
                 The encoder (no mask) is the default; the “none + causal mask” row shows what a \
                 decoder's mask alone lets the model work out."
            }
            Task::Copy => {
                "Random letters; at every position from the fourth on, the model outputs the \
                 letter three places earlier. The answer depends only on the distance between \
                 two tokens, never on where they are, which is the kind of rule relative schemes \
                 (RoPE, ALiBi, T5) are built to express. Trained at one length and tested at 2, 4 \
                 and 8 times that length, it is the length-extrapolation test: Kazemnejad et al. \
                 (NeurIPS 2023) found that decoder-only models with no position encoding at all \
                 often extrapolated best. Whether that holds here is for the table to say."
            }
            Task::First => {
                "Random letters; at every position the model outputs the first letter of the \
                 sequence. The answer sits at one absolute place, position 0, at a different \
                 distance from every query: absolute schemes can learn to look for “position \
                 0”, while relative schemes must find the start some other way (a causal mask \
                 gives a hint: the first token is the only one that sees nothing before it)."
            }
            Task::Passkey => {
                "Filler words (“the grass is green the sky is blue …”) with a two-digit key \
                 hidden somewhere inside: “… key 7 3 …”. At the end comes “? 7”: at the “?” the \
                 model names the key's first digit, then its second. This is passkey retrieval \
                 (Mohtashami and Jaggi 2023), the test behind every “needle in a haystack” \
                 picture: trained on short sequences, tested on sequences 2, 4 and 8 times \
                 longer, with the key at eight depths from the start to the end of the filler. \
                 Finding the key is a content search, but copying the digit that follows it \
                 needs to know what is next to what: position."
            }
        }
    }

    /// The tokens the task uses: input vocabulary and output classes alike.
    pub fn vocab(self) -> Vec<&'static str> {
        match self {
            Task::Agent => {
                let mut v = vec![QUERY];
                v.extend(NOUNS);
                v.extend(VERBS);
                v.extend(FILLERS);
                v
            }
            Task::Copy | Task::First => LETTERS.to_vec(),
            Task::Passkey => {
                let mut v = vec![QUERY, KEY];
                v.extend(DIGITS);
                v.extend(HAY);
                v
            }
        }
    }

    /// Held-out examples come at this many depths (example i at depth i mod `depths`): the
    /// passkey's needle-in-a-haystack cells; 1 for the other tasks.
    pub fn depths(self) -> usize {
        match self {
            Task::Passkey => DEPTHS,
            _ => 1,
        }
    }

    /// Depth bin k as a share of the filler before the key, for headings: k/(depths − 1).
    pub fn depth_share(self, k: usize) -> f64 {
        let n = self.depths();
        if n < 2 {
            0.0
        } else {
            k as f64 / (n - 1) as f64
        }
    }

    /// Decoder tasks mask future keys for every scheme; the agent task is an encoder task.
    pub fn causal(self) -> bool {
        !matches!(self, Task::Agent)
    }

    /// The shortest sequence the task can make.
    pub fn min_length(self) -> usize {
        match self {
            Task::Agent => 4,
            Task::Copy => COPY_OFFSET + 1,
            Task::First => 2,
            Task::Passkey => NEEDLE_TOKENS,
        }
    }

    /// The answers a model that knows the rules but not the order chooses among, at a position
    /// with a target: for the agent the distinct nouns of the sentence (two), otherwise every
    /// letter (any of them may be the one asked for).
    pub fn candidates(self, tokens: &[u32]) -> usize {
        match self {
            Task::Agent => {
                let mut nouns: Vec<u32> = tokens.iter().copied().filter(|&t| is_noun(t)).collect();
                nouns.sort_unstable();
                nouns.dedup();
                nouns.len().max(1)
            }
            Task::Copy | Task::First | Task::Passkey => LETTERS.len(),
        }
    }

    /// The accuracy of guessing among the [`Task::candidates`] on `examples`: the mean of
    /// 1/candidates over every position with a target.
    pub fn chance_on(self, examples: &[Example]) -> f64 {
        // Positions counted per number of candidates, so equal terms are summed exactly.
        let mut by_candidates: Vec<(usize, usize)> = Vec::new();
        for e in examples {
            let c = self.candidates(&e.tokens);
            let n = e.targets.iter().flatten().count();
            match by_candidates.iter_mut().find(|(k, _)| *k == c) {
                Some((_, total)) => *total += n,
                None => by_candidates.push((c, n)),
            }
        }
        let counted: usize = by_candidates.iter().map(|(_, n)| n).sum();
        if counted == 0 {
            return 0.0;
        }
        by_candidates
            .iter()
            .map(|&(c, n)| n as f64 / c as f64)
            .sum::<f64>()
            / counted as f64
    }

    /// The chance level of the task, measured on held-out examples: 50 % for the agent (one of
    /// the sentence's two nouns), one in ten letters otherwise. Measured once per task and kept:
    /// the views ask for it at every render of a training run.
    pub fn chance(self) -> f64 {
        thread_local! {
            static KNOWN: Cell<[f64; Task::ALL.len()]> = const { Cell::new([f64::NAN; Task::ALL.len()]) };
        }
        let i = self as usize;
        let known = KNOWN.get()[i];
        if !known.is_nan() {
            return known;
        }
        let chance = self.chance_on(&self.heldout(0, 12, 200));
        let mut all = KNOWN.get();
        all[i] = chance;
        KNOWN.set(all);
        chance
    }

    /// What a consistently wrong rule answers instead, where the task has an obvious one: for
    /// the agent, the other noun of the sentence (the one acted on). `None` for the letter tasks.
    pub fn rival(self, tokens: &[u32], target: u32) -> Option<u32> {
        match self {
            Task::Agent => tokens.iter().copied().find(|&t| is_noun(t) && t != target),
            Task::Copy | Task::First | Task::Passkey => None,
        }
    }

    /// The rival answer in words, for the explanation of a result below chance.
    pub fn rival_name(self) -> Option<&'static str> {
        match self {
            Task::Agent => Some("the other noun (the one acted on)"),
            Task::Copy | Task::First | Task::Passkey => None,
        }
    }

    /// A training example of a length drawn from `min_length()..=max_len`.
    pub fn sample_train(self, rng: &mut SplitMix64, max_len: usize) -> Example {
        let lo = self.min_length();
        let hi = max_len.max(lo);
        let len = lo + (rng.next_u64() % (hi - lo + 1) as u64) as usize;
        self.sample(rng, len)
    }

    /// An example of exactly `len` tokens (at least `min_length()`).
    pub fn sample(self, rng: &mut SplitMix64, len: usize) -> Example {
        let len = len.max(self.min_length());
        match self {
            Task::Agent => {
                let (agent, patient) = two_nouns(rng);
                let verb = pick(rng, VERBS.len());
                agent_sentence(rng, len, agent, verb, patient)
            }
            Task::Copy => {
                let tokens = letters(rng, len);
                let targets = (0..len)
                    .map(|i| i.checked_sub(COPY_OFFSET).map(|j| tokens[j]))
                    .collect();
                Example { tokens, targets }
            }
            Task::First => {
                let tokens = letters(rng, len);
                let targets = (0..len).map(|i| (i > 0).then_some(tokens[0])).collect();
                Example { tokens, targets }
            }
            Task::Passkey => {
                let filler = len - NEEDLE_TOKENS;
                let before = pick(rng, filler + 1);
                passkey(rng, len, before)
            }
        }
    }

    /// A passkey example of `len` tokens with the key at depth bin `k` of [`DEPTHS`].
    fn passkey_at(rng: &mut SplitMix64, len: usize, k: usize) -> Example {
        let filler = len - NEEDLE_TOKENS;
        let before = (k * filler + (DEPTHS - 1) / 2) / (DEPTHS - 1);
        passkey(rng, len, before.min(filler))
    }

    /// `count` held-out examples of exactly `len` tokens. For the agent task they come in
    /// pairs that differ only in which noun comes first ("dog bites man" and "man bites dog",
    /// same fillers in the same places), so a model blind to order gets exactly one of each
    /// pair right and scores exactly 50 %.
    pub fn heldout(self, seed: u64, len: usize, count: usize) -> Vec<Example> {
        let mut rng = SplitMix64::new(seed ^ 0x4845_4c44_4f55_5400 ^ ((len as u64) << 20));
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            let e = if self == Task::Passkey {
                Task::passkey_at(&mut rng, len.max(NEEDLE_TOKENS), out.len() % DEPTHS)
            } else {
                self.sample(&mut rng, len)
            };
            if self == Task::Agent {
                let swapped = swap_roles(&e);
                out.push(e);
                if out.len() < count {
                    out.push(swapped);
                }
            } else {
                out.push(e);
            }
        }
        out
    }

    /// Token ids of words; `None` if a word is not in the task's vocabulary.
    pub fn encode(self, words: &[&str]) -> Option<Vec<u32>> {
        let vocab = self.vocab();
        words
            .iter()
            .map(|w| vocab.iter().position(|v| v == w).map(|i| i as u32))
            .collect()
    }

    /// The word of a token id.
    pub fn word(self, id: u32) -> &'static str {
        self.vocab().get(id as usize).copied().unwrap_or("?")
    }
}

fn pick(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

fn letters(rng: &mut SplitMix64, len: usize) -> Vec<u32> {
    (0..len).map(|_| pick(rng, LETTERS.len()) as u32).collect()
}

/// Filler, "key d1 d2" after `before` filler tokens, more filler, then "? d1": the model names
/// d1 at the "?" and d2 at the d1 that follows.
fn passkey(rng: &mut SplitMix64, len: usize, before: usize) -> Example {
    let word = |w: &str| {
        Task::Passkey
            .vocab()
            .iter()
            .position(|v| *v == w)
            .unwrap_or(0) as u32
    };
    let (query, key, zero, hay) = (word(QUERY), word(KEY), word(DIGITS[0]), word(HAY[0]));
    let d1 = zero + pick(rng, DIGITS.len()) as u32;
    let d2 = zero + pick(rng, DIGITS.len()) as u32;
    let filler = len - NEEDLE_TOKENS;
    // The filler runs through its six words in order from a random start, as a repeated
    // sentence does ("the grass is green the sky is blue ...").
    let start = pick(rng, HAY.len());
    let mut hay_tokens = (0..filler).map(|i| hay + ((start + i) % HAY.len()) as u32);
    let mut tokens = Vec::with_capacity(len);
    tokens.extend(hay_tokens.by_ref().take(before));
    tokens.extend([key, d1, d2]);
    tokens.extend(hay_tokens);
    tokens.extend([query, d1]);
    let mut targets = vec![None; len];
    targets[len - 2] = Some(d1);
    targets[len - 1] = Some(d2);
    Example { tokens, targets }
}

fn two_nouns(rng: &mut SplitMix64) -> (usize, usize) {
    let a = pick(rng, NOUNS.len());
    let b = (a + 1 + pick(rng, NOUNS.len() - 1)) % NOUNS.len();
    (a, b)
}

/// Token ids in the agent task's vocabulary: "?" is 0, then nouns, verbs, fillers.
fn noun_id(i: usize) -> u32 {
    1 + i as u32
}
fn verb_id(i: usize) -> u32 {
    (1 + NOUNS.len() + i) as u32
}
fn filler_id(i: usize) -> u32 {
    (1 + NOUNS.len() + VERBS.len() + i) as u32
}

/// noun verb noun ?, with `len − 4` fillers dropped into the four gaps before the "?".
fn agent_sentence(
    rng: &mut SplitMix64,
    len: usize,
    agent: usize,
    verb: usize,
    patient: usize,
) -> Example {
    let mut gaps = [0usize; 4];
    for _ in 0..len.saturating_sub(4) {
        gaps[pick(rng, 4)] += 1;
    }
    let mut tokens = Vec::with_capacity(len);
    let fill = |tokens: &mut Vec<u32>, n: usize, rng: &mut SplitMix64| {
        for _ in 0..n {
            tokens.push(filler_id(pick(rng, FILLERS.len())));
        }
    };
    fill(&mut tokens, gaps[0], rng);
    tokens.push(noun_id(agent));
    fill(&mut tokens, gaps[1], rng);
    tokens.push(verb_id(verb));
    fill(&mut tokens, gaps[2], rng);
    tokens.push(noun_id(patient));
    fill(&mut tokens, gaps[3], rng);
    tokens.push(0);
    let mut targets = vec![None; tokens.len()];
    targets[tokens.len() - 1] = Some(noun_id(agent));
    Example { tokens, targets }
}

/// Whether a token of the agent task is a noun.
fn is_noun(t: u32) -> bool {
    (1..=NOUNS.len() as u32).contains(&t)
}

/// The same sentence with the two nouns exchanged: the other one now acts.
fn swap_roles(e: &Example) -> Example {
    let nouns: Vec<usize> = (0..e.tokens.len())
        .filter(|&i| is_noun(e.tokens[i]))
        .collect();
    let mut tokens = e.tokens.clone();
    if let [a, b] = nouns[..] {
        tokens.swap(a, b);
    }
    let first = nouns.first().map(|&i| tokens[i]);
    let mut targets = e.targets.clone();
    if let Some(last) = targets.last_mut() {
        *last = first;
    }
    Example { tokens, targets }
}

/// "the dog bites the man ?" and "the man bites the dog ?" in the agent task's token ids.
pub fn dog_and_man() -> [Vec<u32>; 2] {
    let enc = |s: &str| {
        Task::Agent
            .encode(&s.split(' ').collect::<Vec<_>>())
            .unwrap_or_default()
    };
    [
        enc("the dog bites the man ?"),
        enc("the man bites the dog ?"),
    ]
}
