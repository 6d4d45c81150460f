//! A model's RoPE settings read from its `config.json` (or from its `rope_scaling` or
//! `rope_parameters` object alone), and presets that are exactly such excerpts of published
//! configurations. The JSON reader is small and strict about size and depth: pasted text is
//! untrusted, and anything it cannot use is refused with a plain sentence, never a panic.

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// Longest text read, and deepest nesting.
pub const MAX_TEXT: usize = 256 * 1024;
const MAX_DEPTH: usize = 64;

impl Json {
    pub fn parse(text: &str) -> Result<Json, String> {
        if text.len() > MAX_TEXT {
            return Err(format!(
                "The text is longer than {} KB; paste the model's config.json or its rope_scaling object.",
                MAX_TEXT / 1024
            ));
        }
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value(0)?;
        p.ws();
        if p.i != p.s.len() {
            return Err(p.error("unexpected text after the JSON value"));
        }
        Ok(v)
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value in a few words, for a sentence that refuses it.
    fn shown(&self) -> String {
        match self {
            Json::Null => "null".into(),
            Json::Bool(b) => b.to_string(),
            Json::Num(n) if n.is_nan() => "NaN".into(),
            Json::Num(n) if n.is_infinite() => {
                if *n > 0.0 { "Infinity" } else { "-Infinity" }.into()
            }
            Json::Num(n) => crate::format::plain(*n),
            Json::Str(s) => format!("the text “{}”", clip(s)),
            Json::Arr(_) => "a list".into(),
            Json::Obj(_) => "an object".into(),
        }
    }
}

/// At most 24 characters of pasted text, for a sentence.
fn clip(text: &str) -> String {
    let mut s: String = text.chars().filter(|c| !c.is_control()).take(24).collect();
    if text.chars().count() > 24 {
        s.push('…');
    }
    s
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        let line = self.s[..self.i.min(self.s.len())]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        format!("That is not valid JSON: {what} (line {line}).")
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, word: &str) -> bool {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            true
        } else {
            false
        }
    }

    /// The items of an object or array after its opening bracket, separated by commas, up to
    /// `close`.
    fn items<T>(
        &mut self,
        close: &str,
        mut item: impl FnMut(&mut Self) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        self.i += 1;
        let mut out = Vec::new();
        self.ws();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(item(self)?);
            self.ws();
            if self.eat(",") {
                continue;
            }
            if self.eat(close) {
                return Ok(out);
            }
            return Err(self.error(&format!("expected ',' or '{close}'")));
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.ws();
        match self.s.get(self.i) {
            None => Err(self.error("it ends too early")),
            Some(b'{') => self
                .items("}", |p| {
                    p.ws();
                    if p.s.get(p.i) != Some(&b'"') {
                        return Err(p.error("expected a key in quotes"));
                    }
                    let key = p.string()?;
                    p.ws();
                    if !p.eat(":") {
                        return Err(p.error("expected ':' after a key"));
                    }
                    Ok((key, p.value(depth + 1)?))
                })
                .map(Json::Obj),
            Some(b'[') => self.items("]", |p| p.value(depth + 1)).map(Json::Arr),
            Some(b'"') => self.string().map(Json::Str),
            Some(b't') if self.eat("true") => Ok(Json::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(Json::Bool(false)),
            Some(b'n') if self.eat("null") => Ok(Json::Null),
            // Python's json.dumps writes these for non-finite floats: read them, so that a
            // config holding one is refused by name where the value is used.
            Some(b'N') if self.eat("NaN") => Ok(Json::Num(f64::NAN)),
            Some(b'I') if self.eat("Infinity") => Ok(Json::Num(f64::INFINITY)),
            Some(b'-') if self.eat("-Infinity") => Ok(Json::Num(f64::NEG_INFINITY)),
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'
                    )
                {
                    self.i += 1;
                }
                std::str::from_utf8(&self.s[start..self.i])
                    .ok()
                    .and_then(|t| t.parse::<f64>().ok())
                    .map(Json::Num)
                    .ok_or_else(|| self.error("a malformed number"))
            }
            Some(_) => Err(self.error("unexpected character")),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out = Vec::new();
        while let Some(&c) = self.s.get(self.i) {
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|_| self.error("invalid UTF-8")),
                b'\\' => {
                    let Some(&e) = self.s.get(self.i) else { break };
                    self.i += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' | b'f' => {}
                        b'u' => {
                            let hex = self
                                .s
                                .get(self.i..self.i + 4)
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .ok_or_else(|| self.error("a malformed \\u escape"))?;
                            self.i += 4;
                            let ch = char::from_u32(hex).unwrap_or('\u{FFFD}');
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        other => out.push(other),
                    }
                }
                c => out.push(c),
            }
        }
        Err(self.error("a string is not closed"))
    }
}

/// The extension method a configuration asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    None,
    Linear,
    Dynamic,
    Llama3,
    Yarn,
    LongRope,
}

impl Method {
    /// transformers' `rope_type` for it.
    pub fn id(self) -> &'static str {
        match self {
            Method::None => "default",
            Method::Linear => "linear",
            Method::Dynamic => "dynamic",
            Method::Llama3 => "llama3",
            Method::Yarn => "yarn",
            Method::LongRope => "longrope",
        }
    }
}

/// The extension method of a configuration with its numbers (each method reads its own; the
/// others keep transformers' defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct Scaling {
    pub method: Method,
    /// The scale s, as the config gives it (unclamped; 1 for plain RoPE).
    pub factor: f64,
    /// llama3's `low_freq_factor` and `high_freq_factor`.
    pub low: f64,
    pub high: f64,
    /// YaRN's ramp ends, DeepSeek's mscale pair (0: not given), and whether the ramp's ends are
    /// rounded to whole pairs.
    pub beta_fast: f64,
    pub beta_slow: f64,
    pub mscale: f64,
    pub mscale_all_dim: f64,
    pub truncate: bool,
    /// LongRoPE's per-pair factors, as float32 values (transformers makes float32 tensors of
    /// them).
    pub short_factor: Vec<f64>,
    pub long_factor: Vec<f64>,
    /// An explicit `attention_factor` (YaRN, LongRoPE), which replaces the formula.
    pub attention_factor: Option<f64>,
}

impl Scaling {
    fn plain() -> Scaling {
        Scaling {
            method: Method::None,
            factor: 1.0,
            low: 1.0,
            high: 4.0,
            beta_fast: 32.0,
            beta_slow: 1.0,
            mscale: 0.0,
            mscale_all_dim: 0.0,
            truncate: true,
            short_factor: Vec::new(),
            long_factor: Vec::new(),
            attention_factor: None,
        }
    }
}

/// Everything about RoPE that a pasted configuration names. A setting the paste does not name
/// is `None`, and applying the paste leaves it as it was.
#[derive(Clone, Debug, PartialEq)]
pub struct RopeConfig {
    /// θ (`rope_theta`, `rotary_emb_base`); a whole config without one: 10,000, transformers'
    /// default.
    pub base: Option<f64>,
    /// The width of one head's queries and keys (`qk_rope_head_dim`, `head_dim`, or
    /// hidden_size // num_attention_heads), as the config gives it.
    pub head_dim: Option<f64>,
    /// `partial_rotary_factor` or `rotary_pct` (a whole config without one: 1).
    pub rotary_fraction: Option<f64>,
    /// The extension method (a whole config without `rope_scaling`: plain RoPE).
    pub scaling: Option<Scaling>,
    /// The length the model was trained on before extension.
    pub original: Option<f64>,
    /// What was read, each with where it came from: "θ 500,000 (rope_theta)".
    pub read: Vec<String>,
    /// Keys read but not used, in plain words.
    pub notes: Vec<String>,
}

/// The sentence every refusal ends with.
const UNCHANGED: &str = "Nothing was changed.";

/// A number the config gives under `key`, if any: null or absent is `None`; text, `true`, a
/// list, NaN or Infinity are refused by name.
fn number(obj: Option<&Json>, key: &str) -> Result<Option<f64>, String> {
    match obj.and_then(|o| o.get(key)) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Num(n)) if n.is_finite() => Ok(Some(*n)),
        Some(v @ Json::Num(_)) => Err(format!(
            "{key} is {}, not a finite number. {UNCHANGED}",
            v.shown()
        )),
        Some(v) => Err(format!("{key} is {}, not a number. {UNCHANGED}", v.shown())),
    }
}

/// A positive number under `key`, if any.
/// A number a config may give in three places, read with `read` (each one, so that a bad value
/// is refused even where an earlier place gives one): `key` at the root, then `key` in
/// rope_parameters (`params`; named `in_params`), then `alias` at the root. The first given, and
/// the name of its place.
fn first_given(
    read: fn(Option<&Json>, &str) -> Result<Option<f64>, String>,
    root: &Json,
    params: Option<&Json>,
    [key, in_params, alias]: [&'static str; 3],
) -> Result<Option<(f64, &'static str)>, String> {
    let given = [
        (read(Some(root), key)?, key),
        (read(params, key)?, in_params),
        (read(Some(root), alias)?, alias),
    ];
    Ok(given.into_iter().find_map(|(v, place)| Some((v?, place))))
}

fn positive(obj: Option<&Json>, key: &str) -> Result<Option<f64>, String> {
    match number(obj, key)? {
        Some(x) if x <= 0.0 => Err(format!(
            "{key} must be a positive number; the config has {}. {UNCHANGED}",
            crate::format::plain(x)
        )),
        other => Ok(other),
    }
}

/// A name under `key` (`rope_type`), if any.
fn name<'a>(obj: &'a Json, key: &str) -> Result<Option<&'a str>, String> {
    match obj.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Str(s)) => Ok(Some(s)),
        Some(v) => Err(format!(
            "{key} must be a name such as “yarn”, not {}. {UNCHANGED}",
            v.shown()
        )),
    }
}

/// A list of positive numbers under `key`, as float32 values.
fn factors(obj: &Json, key: &str) -> Result<Option<Vec<f64>>, String> {
    match obj.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Arr(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Json::Num(x) if x.is_finite() && *x > 0.0 && (*x as f32).is_finite() => {
                    Ok(*x as f32 as f64)
                }
                v => Err(format!(
                    "{key}[{i}] is {}; every factor must be a positive number. {UNCHANGED}",
                    v.shown()
                )),
            })
            .collect::<Result<Vec<f64>, String>>()
            .map(Some),
        Some(v) => Err(format!(
            "{key} must be a list of numbers, one per pair, not {}. {UNCHANGED}",
            v.shown()
        )),
    }
}

/// Keys of a rope_scaling / rope_parameters object the app reads.
const SCALING_KEYS: &[&str] = &[
    "rope_type",
    "type",
    "factor",
    "original_max_position_embeddings",
    "low_freq_factor",
    "high_freq_factor",
    "beta_fast",
    "beta_slow",
    "mscale",
    "mscale_all_dim",
    "attention_factor",
    "truncate",
    "short_factor",
    "long_factor",
    "rope_theta",
    "partial_rotary_factor",
];

fn thousands(x: f64) -> String {
    if x.fract() == 0.0 && (0.0..1e15).contains(&x) {
        crate::format::group_thousands(x as u64)
    } else {
        crate::format::plain(x)
    }
}

impl RopeConfig {
    /// Reads a `config.json`, or a `rope_scaling` / `rope_parameters` object on its own. A paste
    /// that names nothing RoPE uses, or names something wrongly (a number as text, NaN, an
    /// unknown method, a method without its factor), is refused with one sentence.
    pub fn from_json(text: &str) -> Result<RopeConfig, String> {
        // A byte-order mark is not part of the JSON.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let root = Json::parse(text)?;
        if !matches!(root, Json::Obj(_)) {
            return Err(format!(
                "Paste a JSON object: the model's config.json or its rope_scaling. {UNCHANGED}"
            ));
        }
        let mut read = Vec::new();
        let mut notes = Vec::new();
        let object = |key: &str| -> Result<Option<&Json>, String> {
            match root.get(key) {
                None | Some(Json::Null) => Ok(None),
                Some(o @ Json::Obj(_)) => Ok(Some(o)),
                Some(v) => Err(format!(
                    "{key} must be an object such as {{\"rope_type\": \"yarn\", \"factor\": 4}}, \
                     not {}. {UNCHANGED}",
                    v.shown()
                )),
            }
        };
        let params = object("rope_parameters")?;
        let rope_scaling = object("rope_scaling")?;
        // transformers v5 may nest rope_parameters by layer type.
        if let Some(Json::Obj(fields)) = params {
            let nested = !fields.is_empty()
                && fields.iter().all(|(_, v)| matches!(v, Json::Obj(_)))
                && ["rope_type", "type", "rope_theta"]
                    .iter()
                    .all(|k| params.and_then(|p| p.get(k)).is_none());
            if nested {
                let kinds: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
                return Err(format!(
                    "rope_parameters differs by layer type ({}); paste one of them. {UNCHANGED}",
                    clip(&kinds.join(", "))
                ));
            }
        }
        let bare = ["rope_type", "type"].iter().any(|k| root.get(k).is_some());
        let (scaling_obj, where_) = match (rope_scaling, params) {
            (Some(s), _) => (Some(s), "rope_scaling"),
            (None, Some(p)) => (Some(p), "rope_parameters"),
            (None, None) if bare => (Some(&root), "the pasted object"),
            _ => (None, ""),
        };
        if scaling_obj.is_none() && !bare && root.get("factor").is_some() {
            return Err(format!(
                "The paste has a factor but no rope_type: say which method (linear, dynamic, \
                 llama3, yarn or longrope). {UNCHANGED}"
            ));
        }

        // θ.
        let base = first_given(
            positive,
            &root,
            params,
            [
                "rope_theta",
                "rope_parameters.rope_theta",
                "rotary_emb_base",
            ],
        )?;
        // The head width, as transformers finds it: `head_dim or hidden_size // heads` (and
        // DeepSeek's rotary part of the head).
        let head = |key: &str| -> Result<Option<f64>, String> {
            Ok(number(Some(&root), key)?.filter(|d| *d > 0.0))
        };
        let head_dim = if let Some(d) = head("qk_rope_head_dim")? {
            read.push(format!(
                "rotary head width {} (qk_rope_head_dim)",
                thousands(d)
            ));
            Some(d)
        } else if let Some(d) = head("head_dim")? {
            read.push(format!("head_dim {} (head_dim)", thousands(d)));
            Some(d)
        } else {
            match (
                number(Some(&root), "hidden_size")?,
                number(Some(&root), "num_attention_heads")?,
            ) {
                (Some(h), Some(n)) if h > 0.0 && n >= 1.0 => {
                    let d = (h / n).floor();
                    let exact = d * n == h;
                    read.push(format!(
                        "head_dim {} = hidden_size {} {} num_attention_heads {}{}",
                        thousands(d),
                        crate::format::plain(h),
                        if exact { "/" } else { "//" },
                        crate::format::plain(n),
                        if exact { "" } else { " (rounded down)" }
                    ));
                    Some(d).filter(|d| *d >= 1.0)
                }
                _ => None,
            }
        };
        // A whole config (it gives a head width): what it leaves out has transformers' default.
        let whole = head_dim.is_some();
        let base = match base {
            Some((b, key)) => {
                read.insert(0, format!("θ {} ({key})", thousands(b)));
                Some(b)
            }
            None if whole => {
                read.insert(0, "θ 10,000 (no rope_theta: transformers' default)".into());
                Some(10_000.0)
            }
            None => None,
        };
        let fraction = first_given(
            number,
            &root,
            params,
            [
                "partial_rotary_factor",
                "rope_parameters.partial_rotary_factor",
                "rotary_pct",
            ],
        )?;
        let rotary_fraction = match fraction {
            Some((f, _)) if !(f > 0.0 && f <= 1.0) => {
                return Err(format!(
                    "The rotary fraction must be in (0, 1]; the config has {}. {UNCHANGED}",
                    crate::format::plain(f)
                ))
            }
            Some((f, key)) => {
                read.push(format!(
                    "rotary fraction {} ({key})",
                    crate::format::plain(f)
                ));
                Some(f)
            }
            None if whole => Some(1.0),
            None => None,
        };

        // The method and its numbers.
        let max_positions = positive(Some(&root), "max_position_embeddings")?;
        let scaling = match scaling_obj {
            Some(obj) => Some(Self::scaling(obj, where_, &root, &mut read, &mut notes)?),
            None if rope_scaling.is_none() && root.get("rope_scaling").is_some() => {
                read.push("rope_scaling null: plain RoPE".into());
                Some(Scaling::plain())
            }
            None if whole => {
                read.push("no rope_scaling: plain RoPE".into());
                Some(Scaling::plain())
            }
            None => None,
        };
        if base.is_none() && head_dim.is_none() && scaling.is_none() {
            return Err(format!(
                "Nothing here sets RoPE: the text has no rope_theta, no rope_scaling and no head \
                 width (head_dim, or hidden_size with num_attention_heads). {UNCHANGED}"
            ));
        }
        // LongRoPE's lists hold one factor per rotated pair.
        if let (Some(sc), Some(d)) = (&scaling, head_dim) {
            if sc.method == Method::LongRope && d <= 4096.0 {
                let pairs = crate::math::rope::Rope::new(
                    d as usize,
                    10_000.0,
                    crate::math::rope::RopePairing::RotateHalf,
                    crate::math::rope::RopeScaling::None,
                )
                .with_rotary_fraction(rotary_fraction.unwrap_or(1.0))
                .pair_count();
                for (key, list) in [
                    ("short_factor", &sc.short_factor),
                    ("long_factor", &sc.long_factor),
                ] {
                    if list.len() != pairs {
                        return Err(format!(
                            "{key} has {} numbers, but a head of {} with rotary fraction {} \
                             turns {pairs} pairs. {UNCHANGED}",
                            list.len(),
                            thousands(d),
                            crate::format::plain(rotary_fraction.unwrap_or(1.0))
                        ));
                    }
                }
            }
        }

        // The length trained on before extension, where transformers takes it from.
        let method = scaling.as_ref().map(|s| s.method);
        let in_scaling = match scaling_obj {
            Some(obj) => positive(Some(obj), "original_max_position_embeddings")?,
            None => None,
        };
        let at_root = positive(Some(&root), "original_max_position_embeddings")?;
        let candidates: [(Option<f64>, &str); 3] = match method {
            // standardize_rope_params: a top-level original_max_position_embeddings (Phi-3)
            // wins over the one inside rope_scaling.
            Some(Method::Llama3 | Method::Yarn | Method::LongRope) => [
                (at_root, "original_max_position_embeddings"),
                (in_scaling, "rope_scaling.original_max_position_embeddings"),
                (max_positions, "max_position_embeddings"),
            ],
            // Dynamic NTK grows from max_position_embeddings.
            Some(Method::Dynamic) => [
                (max_positions, "max_position_embeddings"),
                (in_scaling, "rope_scaling.original_max_position_embeddings"),
                (at_root, "original_max_position_embeddings"),
            ],
            _ => [
                (in_scaling, "rope_scaling.original_max_position_embeddings"),
                (at_root, "original_max_position_embeddings"),
                (max_positions, "max_position_embeddings"),
            ],
        };
        let original = candidates
            .iter()
            .find_map(|(v, key)| v.map(|v| (v, *key)))
            .map(|(o, key)| {
                read.push(format!("trained length {} ({key})", thousands(o)));
                o
            });
        // LongRoPE without a factor: max_position_embeddings / original.
        let mut scaling = scaling;
        if let Some(sc) = scaling.as_mut() {
            if sc.method == Method::LongRope && sc.factor.is_nan() {
                match (max_positions, original) {
                    (Some(m), Some(o)) => {
                        sc.factor = m / o;
                        read.push(format!(
                            "factor {} = max_position_embeddings {} / original {}",
                            crate::format::plain(sc.factor),
                            thousands(m),
                            thousands(o)
                        ));
                    }
                    _ => {
                        return Err(format!(
                            "longrope needs a factor, or max_position_embeddings and \
                             original_max_position_embeddings to divide. {UNCHANGED}"
                        ))
                    }
                }
                if sc.factor < 1.0 {
                    return Err(format!(
                        "max_position_embeddings is shorter than the original length, so \
                         longrope's factor would be {}. {UNCHANGED}",
                        crate::format::plain(sc.factor)
                    ));
                }
            }
        }
        Ok(RopeConfig {
            base,
            head_dim,
            rotary_fraction,
            scaling,
            original,
            read,
            notes,
        })
    }

    /// The method of a rope_scaling / rope_parameters object (or of a bare one), with the
    /// numbers it needs.
    fn scaling(
        obj: &Json,
        where_: &str,
        root: &Json,
        read: &mut Vec<String>,
        notes: &mut Vec<String>,
    ) -> Result<Scaling, String> {
        let kind = match (name(obj, "rope_type")?, name(obj, "type")?) {
            (Some(k), _) | (None, Some(k)) => k,
            // transformers v5's rope_parameters of a plain model: {"rope_theta": …} alone.
            (None, None) if where_ == "rope_parameters" => "default",
            (None, None) => {
                return Err(format!(
                    "{where_} has no rope_type: say which method (linear, dynamic, llama3, yarn \
                     or longrope). {UNCHANGED}"
                ))
            }
        };
        let method = match kind {
            "default" | "none" => Method::None,
            "linear" => Method::Linear,
            "dynamic" => Method::Dynamic,
            "llama3" => Method::Llama3,
            "yarn" => Method::Yarn,
            "longrope" => Method::LongRope,
            "su" => {
                notes.push("rope_type “su” is longrope's former name.".into());
                Method::LongRope
            }
            other => {
                return Err(format!(
                    "rope_type “{}” is not one the app computes (it knows default, linear, \
                     dynamic, llama3, yarn and longrope). {UNCHANGED}",
                    clip(other)
                ))
            }
        };
        let mut sc = Scaling {
            method,
            ..Scaling::plain()
        };
        if method == Method::None {
            read.push(format!("rope_type default ({where_}): plain RoPE"));
            return Ok(sc);
        }
        let o = Some(obj);
        let factor = positive(o, "factor")?;
        match (method, factor) {
            // transformers reads longrope's factor with .get(): absent, it is derived below.
            (Method::LongRope, None) => sc.factor = f64::NAN,
            (_, None) => {
                return Err(format!(
                    "{} needs a factor, and {where_} has none. {UNCHANGED}",
                    method.id()
                ))
            }
            (_, Some(f)) if f < 1.0 => {
                return Err(format!(
                    "factor must be at least 1; the config has {}. {UNCHANGED}",
                    crate::format::plain(f)
                ))
            }
            (_, Some(f)) => sc.factor = f,
        }
        let mut said = vec![format!("rope_type {}", method.id())];
        if let Some(f) = factor {
            said.push(format!("factor {}", crate::format::plain(f)));
        }
        match method {
            Method::Llama3 => {
                let (low, high) = (
                    positive(o, "low_freq_factor")?,
                    positive(o, "high_freq_factor")?,
                );
                let (Some(low), Some(high)) = (low, high) else {
                    return Err(format!(
                        "llama3 needs low_freq_factor and high_freq_factor, and {where_} lacks {}. \
                         {UNCHANGED}",
                        if low.is_none() { "low_freq_factor" } else { "high_freq_factor" }
                    ));
                };
                if high <= low {
                    return Err(format!(
                        "high_freq_factor must be larger than low_freq_factor. {UNCHANGED}"
                    ));
                }
                (sc.low, sc.high) = (low, high);
                said.push(format!(
                    "low_freq_factor {}, high_freq_factor {}",
                    crate::format::plain(low),
                    crate::format::plain(high)
                ));
            }
            Method::Yarn => {
                // `get("beta_fast") or 32`: absent, null or 0 take the default.
                sc.beta_fast = or_default(o, "beta_fast", 32.0)?;
                sc.beta_slow = or_default(o, "beta_slow", 1.0)?;
                sc.mscale = non_negative(o, "mscale")?;
                sc.mscale_all_dim = non_negative(o, "mscale_all_dim")?;
                sc.truncate = match obj.get("truncate") {
                    None | Some(Json::Null) => true,
                    Some(Json::Bool(b)) => *b,
                    Some(v) => {
                        return Err(format!(
                            "truncate must be true or false, not {}. {UNCHANGED}",
                            v.shown()
                        ))
                    }
                };
                said.push(format!(
                    "beta_fast {}, beta_slow {}",
                    crate::format::plain(sc.beta_fast),
                    crate::format::plain(sc.beta_slow)
                ));
                if sc.mscale > 0.0 || sc.mscale_all_dim > 0.0 {
                    said.push(format!(
                        "mscale {}, mscale_all_dim {}",
                        crate::format::plain(sc.mscale),
                        crate::format::plain(sc.mscale_all_dim)
                    ));
                }
                said.push(format!("truncate {}", sc.truncate));
            }
            Method::LongRope => {
                let short = factors(obj, "short_factor")?;
                let long = factors(obj, "long_factor")?;
                let (Some(short), Some(long)) = (short, long) else {
                    return Err(format!(
                        "longrope needs short_factor and long_factor lists, one factor per pair, \
                         and {where_} lacks {}. {UNCHANGED}",
                        if obj.get("short_factor").is_none() {
                            "short_factor"
                        } else {
                            "long_factor"
                        }
                    ));
                };
                if short.len() != long.len() || short.is_empty() {
                    return Err(format!(
                        "short_factor has {} numbers and long_factor {}: they need one per pair \
                         each. {UNCHANGED}",
                        short.len(),
                        long.len()
                    ));
                }
                said.push(format!(
                    "{} short and {} long factors (float32, as transformers holds them)",
                    short.len(),
                    long.len()
                ));
                (sc.short_factor, sc.long_factor) = (short, long);
            }
            _ => {}
        }
        if matches!(method, Method::Yarn | Method::LongRope) {
            sc.attention_factor = positive(o, "attention_factor")?;
            if let Some(a) = sc.attention_factor {
                said.push(format!("attention_factor {}", crate::format::plain(a)));
            }
        }
        read.push(format!("{} ({where_})", said.join(", ")));
        // Keys of the object the app does not read (not for a bare object: that is the root).
        if !std::ptr::eq(obj, root) {
            if let Json::Obj(fields) = obj {
                let unused: Vec<&str> = fields
                    .iter()
                    .map(|(k, _)| k.as_str())
                    .filter(|k| !SCALING_KEYS.contains(k))
                    .collect();
                if !unused.is_empty() {
                    notes.push(format!(
                        "Not used from {where_}: {}.",
                        clip(&unused.join(", "))
                    ));
                }
            }
        }
        Ok(sc)
    }
}

/// A number under `key` read as transformers' `get(key) or default` reads it: absent, null or
/// 0 give the default; a negative number is refused.
fn or_default(obj: Option<&Json>, key: &str, default: f64) -> Result<f64, String> {
    match number(obj, key)? {
        None => Ok(default),
        Some(0.0) => Ok(default),
        Some(x) if x < 0.0 => Err(format!(
            "{key} must be a positive number; the config has {}. {UNCHANGED}",
            crate::format::plain(x)
        )),
        Some(x) => Ok(x),
    }
}

/// A number ≥ 0 under `key` (0 when absent).
fn non_negative(obj: Option<&Json>, key: &str) -> Result<f64, String> {
    match number(obj, key)? {
        Some(x) if x < 0.0 => Err(format!(
            "{key} must be 0 or more; the config has {}. {UNCHANGED}",
            crate::format::plain(x)
        )),
        other => Ok(other.unwrap_or(0.0)),
    }
}
/// A published configuration, as the excerpt of its config.json that RoPE reads.
pub struct Preset {
    pub id: &'static str,
    pub name: &'static str,
    /// Where the numbers come from.
    pub source: &'static str,
    pub json: &'static str,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        id: "llama-3.1-8b",
        name: "Llama 3.1 8B (llama3 ×8)",
        source: "meta-llama/Llama-3.1-8B config.json: θ 500,000, factor 8, low 1, high 4, original 8,192",
        json: r#"{"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0, "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"}}"#,
    },
    Preset {
        id: "qwen2.5-yarn",
        name: "Qwen2.5 7B with YaRN ×4",
        source: "Qwen/Qwen2.5-7B-Instruct config.json plus the rope_scaling its model card gives for inputs past 32,768 tokens",
        json: r#"{"hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 32768, "rope_theta": 1000000.0, "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}}"#,
    },
    Preset {
        id: "deepseek-v3",
        name: "DeepSeek-V3 (YaRN ×40)",
        source: "deepseek-ai/DeepSeek-V3 config.json: qk_rope_head_dim 64, θ 10,000, factor 40, original 4,096, mscale = mscale_all_dim = 1",
        json: r#"{"qk_rope_head_dim": 64, "max_position_embeddings": 163840, "rope_theta": 10000, "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0, "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096, "type": "yarn"}}"#,
    },
    Preset {
        id: "llama-2-dynamic",
        name: "Llama 2 7B with dynamic NTK ×2",
        source: "meta-llama/Llama-2-7b-hf config.json with rope_scaling {type: dynamic, factor: 2}",
        json: r#"{"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096, "rope_theta": 10000.0, "rope_scaling": {"type": "dynamic", "factor": 2.0}}"#,
    },
    Preset {
        id: "llama-2-linear",
        name: "Llama 2 7B with linear interpolation ×4",
        source: "meta-llama/Llama-2-7b-hf config.json with rope_scaling {type: linear, factor: 4}",
        json: r#"{"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096, "rope_theta": 10000.0, "rope_scaling": {"type": "linear", "factor": 4.0}}"#,
    },
    Preset {
        id: "gpt-neox-20b",
        name: "GPT-NeoX-20B (rotary_pct 0.25)",
        source: "EleutherAI/gpt-neox-20b config.json: hidden 6,144, 64 heads (head_dim 96), rotary_pct 0.25, rotary_emb_base 10,000",
        json: r#"{"hidden_size": 6144, "num_attention_heads": 64, "rotary_pct": 0.25, "rotary_emb_base": 10000, "max_position_embeddings": 2048}"#,
    },
    Preset {
        id: "phi-2",
        name: "Phi-2 (partial_rotary_factor 0.4)",
        source: "microsoft/phi-2 config.json: hidden 2,560, 32 heads (head_dim 80), partial_rotary_factor 0.4, θ 10,000",
        json: r#"{"hidden_size": 2560, "num_attention_heads": 32, "partial_rotary_factor": 0.4, "rope_theta": 10000.0, "max_position_embeddings": 2048}"#,
    },
    Preset {
        id: "phi-3.5-mini",
        name: "Phi-3.5-mini (longrope, 128K)",
        source: "microsoft/Phi-3.5-mini-instruct config.json: hidden 3,072, 32 heads (head_dim 96), θ 10,000, original 4,096, max_position_embeddings 131,072, its 48 short and 48 long factors",
        json: r#"{"hidden_size": 3072, "num_attention_heads": 32, "max_position_embeddings": 131072, "original_max_position_embeddings": 4096, "rope_theta": 10000.0, "rope_scaling": {"long_factor": [1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115, 1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523, 32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457, 62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688, 64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062], "short_factor": [1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684, 1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788, 1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533, 2.729999542236328, 2.749999523162842, 2.8399994373321533], "type": "longrope"}}"#,
    },
    Preset {
        id: "gpt-oss",
        name: "gpt-oss (YaRN ×32, truncate false)",
        source: "openai/gpt-oss-20b config.json: head_dim 64, θ 150,000, YaRN factor 32 over 4,096, beta_fast 32, beta_slow 1, truncate false",
        json: r#"{"head_dim": 64, "max_position_embeddings": 131072, "rope_theta": 150000, "rope_scaling": {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "original_max_position_embeddings": 4096, "truncate": false}}"#,
    },
    Preset {
        id: "qwen2.5-1m",
        name: "Qwen2.5 7B 1M (θ 10,000,000)",
        source: "Qwen/Qwen2.5-7B-Instruct-1M config.json: hidden 3,584, 28 heads (head_dim 128), θ 10,000,000, max_position_embeddings 1,010,000, no rope_scaling",
        json: r#"{"hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 1010000, "rope_theta": 10000000.0}"#,
    },
];

/// A preset's configuration.
pub fn preset(id: &str) -> Option<RopeConfig> {
    PRESETS
        .iter()
        .find(|p| p.id == id)
        .and_then(|p| RopeConfig::from_json(p.json).ok())
}
