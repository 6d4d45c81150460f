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

    fn num(&self) -> Option<f64> {
        match self {
            Json::Num(n) => Some(*n),
            _ => None,
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
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
            // Python's json.dumps writes these for non-finite floats; they mean "no number".
            Some(b'N') if self.eat("NaN") => Ok(Json::Null),
            Some(b'I') if self.eat("Infinity") => Ok(Json::Null),
            Some(b'-') if self.eat("-Infinity") => Ok(Json::Null),
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
}

/// Everything about RoPE that a model's configuration fixes.
#[derive(Clone, Debug, PartialEq)]
pub struct RopeConfig {
    /// θ (`rope_theta`, `rotary_emb_base`).
    pub base: f64,
    /// The width of one head's queries and keys, when the configuration says.
    pub head_dim: Option<usize>,
    /// `partial_rotary_factor` or `rotary_pct`.
    pub rotary_fraction: f64,
    pub method: Method,
    pub factor: f64,
    pub low: f64,
    pub high: f64,
    /// The length the model was trained on before extension.
    pub original: Option<usize>,
    pub beta_fast: f64,
    pub beta_slow: f64,
    pub mscale: f64,
    pub mscale_all_dim: f64,
    /// Things read but not used, in plain words (an explicit attention_factor, say).
    pub notes: Vec<String>,
}

impl RopeConfig {
    /// Reads a `config.json`, or a `rope_scaling` / `rope_parameters` object on its own.
    pub fn from_json(text: &str) -> Result<RopeConfig, String> {
        let root = Json::parse(text)?;
        if !matches!(root, Json::Obj(_)) {
            return Err("Paste a JSON object: the model's config.json or its rope_scaling.".into());
        }
        let params = root
            .get("rope_parameters")
            .filter(|p| matches!(p, Json::Obj(_)));
        let scaling = root
            .get("rope_scaling")
            .filter(|p| matches!(p, Json::Obj(_)))
            .or(params)
            .or_else(|| {
                ["rope_type", "type", "factor"]
                    .iter()
                    .any(|k| root.get(k).is_some())
                    .then_some(&root)
            });
        let number =
            |obj: Option<&Json>, key: &str| obj.and_then(|o| o.get(key)).and_then(Json::num);
        let positive = |v: Option<f64>, what: &str| -> Result<Option<f64>, String> {
            match v {
                Some(x) if !x.is_finite() || x <= 0.0 => Err(format!(
                    "{what} must be a positive number; the config has {x}."
                )),
                other => Ok(other),
            }
        };
        let base = positive(
            number(Some(&root), "rope_theta")
                .or(number(params, "rope_theta"))
                .or(number(Some(&root), "rotary_emb_base")),
            "rope_theta",
        )?
        .unwrap_or(10_000.0);
        let head_dim = number(Some(&root), "qk_rope_head_dim")
            .or(number(Some(&root), "head_dim"))
            .or_else(|| {
                let (h, n) = (
                    number(Some(&root), "hidden_size")?,
                    number(Some(&root), "num_attention_heads")?,
                );
                (n >= 1.0).then(|| (h / n).floor())
            })
            .filter(|d| d.is_finite() && *d >= 2.0)
            .map(|d| d.min(4096.0) as usize);
        let rotary_fraction = number(Some(&root), "partial_rotary_factor")
            .or(number(params, "partial_rotary_factor"))
            .or(number(Some(&root), "rotary_pct"))
            .unwrap_or(1.0);
        if !(rotary_fraction > 0.0 && rotary_fraction <= 1.0) {
            return Err(format!(
                "The rotary fraction must be in (0, 1]; the config has {rotary_fraction}."
            ));
        }
        let max_positions = number(Some(&root), "max_position_embeddings");
        let kind = scaling
            .and_then(|s| s.get("rope_type").or(s.get("type")))
            .and_then(Json::text)
            .unwrap_or("default");
        let method = match kind {
            "default" | "none" => Method::None,
            "linear" => Method::Linear,
            "dynamic" => Method::Dynamic,
            "llama3" => Method::Llama3,
            "yarn" => Method::Yarn,
            other => {
                return Err(format!(
                    "rope_type “{}” is not one the app computes (it knows default, linear, dynamic, llama3 and yarn).",
                    other.chars().take(24).collect::<String>()
                ))
            }
        };
        let factor = positive(number(scaling, "factor"), "factor")?.unwrap_or(1.0);
        if method != Method::None && factor < 1.0 {
            return Err(format!(
                "factor must be at least 1; the config has {factor}."
            ));
        }
        let original = positive(
            number(scaling, "original_max_position_embeddings")
                .or(number(Some(&root), "original_max_position_embeddings"))
                .or(max_positions),
            "original_max_position_embeddings",
        )?
        .map(|o| o.min(1e9) as usize);
        let mut notes = Vec::new();
        if number(scaling, "attention_factor").is_some() {
            notes.push("The config's explicit attention_factor is not used; the app computes YaRN's from the factor and mscale.".into());
        }
        let low = positive(number(scaling, "low_freq_factor"), "low_freq_factor")?.unwrap_or(1.0);
        let high =
            positive(number(scaling, "high_freq_factor"), "high_freq_factor")?.unwrap_or(4.0);
        if method == Method::Llama3 && high <= low {
            return Err("high_freq_factor must be larger than low_freq_factor.".into());
        }
        Ok(RopeConfig {
            base,
            head_dim,
            rotary_fraction,
            method,
            factor,
            low,
            high,
            original,
            beta_fast: positive(number(scaling, "beta_fast"), "beta_fast")?.unwrap_or(32.0),
            beta_slow: positive(number(scaling, "beta_slow"), "beta_slow")?.unwrap_or(1.0),
            mscale: number(scaling, "mscale")
                .filter(|m| m.is_finite() && *m >= 0.0)
                .unwrap_or(0.0),
            mscale_all_dim: number(scaling, "mscale_all_dim")
                .filter(|m| m.is_finite() && *m >= 0.0)
                .unwrap_or(0.0),
            notes,
        })
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
];

/// A preset's configuration.
pub fn preset(id: &str) -> Option<RopeConfig> {
    PRESETS
        .iter()
        .find(|p| p.id == id)
        .and_then(|p| RopeConfig::from_json(p.json).ok())
}
