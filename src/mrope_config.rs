//! A vision-language model's M-RoPE read from its pasted `config.json`: the head width, θ,
//! `mrope_section` (chunked, or interleaved when `mrope_interleaved` is true or the model is a
//! Qwen3-VL), the vision tower's `spatial_merge_size` and `tokens_per_second`. Qwen2-VL keeps
//! these at the top level (`rope_scaling`); Qwen2.5-VL and Qwen3-VL may nest them under
//! `text_config` and call the object `rope_parameters`. Read with the RoPE box's JSON reader;
//! anything unusable is refused with a plain sentence.

use crate::math::mrope::{Layout, Mrope};
use crate::rope_config::Json;

/// The model's name when the config gives none.
const PASTED: &str = "the pasted model";

/// The largest `tokens_per_second` read.
const MAX_TOKENS_PER_SECOND: f64 = 1000.0;

/// A model name as the link can carry it: letters, digits, '_', '.' and '-', at most 40.
fn model_name(text: &str) -> String {
    let name: String = text
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || "_.-".contains(*c))
        .take(40)
        .collect();
    if name.is_empty() {
        PASTED.to_string()
    } else {
        name
    }
}

/// A number as the link writes it (so a config read from a paste and from its link are equal).
fn as_written(x: f64) -> f64 {
    crate::format::plain(x).parse().unwrap_or(x)
}

fn layout_word(layout: Layout) -> &'static str {
    match layout {
        Layout::Chunked => "chunked",
        Layout::Interleaved => "interleaved",
    }
}

/// What a pasted config sets.
#[derive(Clone, Debug, PartialEq)]
pub struct MropeConfig {
    /// `model_type` (letters, digits, '_', '.' and '-' only), or "the pasted model".
    pub model: String,
    pub mrope: Mrope,
    /// `vision_config.spatial_merge_size` (2 when absent).
    pub merge: usize,
    /// `vision_config.tokens_per_second` (Qwen2.5-VL's video time rule), when given.
    pub tokens_per_second: Option<f64>,
}

fn number(v: Option<&Json>, what: &str) -> Result<Option<f64>, String> {
    match v {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Num(n)) if n.is_finite() => Ok(Some(*n)),
        Some(_) => Err(format!("{what} is not a number.")),
    }
}

fn whole(v: Option<&Json>, what: &str, max: f64) -> Result<Option<usize>, String> {
    match number(v, what)? {
        None => Ok(None),
        Some(n) if n.fract() == 0.0 && (1.0..=max).contains(&n) => Ok(Some(n as usize)),
        Some(n) => Err(format!(
            "{what} is {}, not a whole number from 1 to {max}.",
            crate::format::plain(n)
        )),
    }
}

impl MropeConfig {
    pub fn from_json(text: &str) -> Result<MropeConfig, String> {
        let root = Json::parse(text)?;
        if !matches!(root, Json::Obj(_)) {
            return Err("Paste a JSON object: the model's config.json.".into());
        }
        let text_config = root
            .get("text_config")
            .filter(|t| matches!(t, Json::Obj(_)));
        // A key from the text config, else the top level.
        let get = |key: &str| {
            text_config
                .and_then(|t| t.get(key))
                .or_else(|| root.get(key))
        };
        let rope = get("rope_scaling")
            .filter(|r| matches!(r, Json::Obj(_)))
            .or_else(|| get("rope_parameters").filter(|r| matches!(r, Json::Obj(_))));
        let Some(rope) = rope else {
            return Err(
                "No rope_scaling or rope_parameters object with an mrope_section: \
                        this does not look like a Qwen2-VL, Qwen2.5-VL or Qwen3-VL config."
                    .into(),
            );
        };
        let section = match rope.get("mrope_section") {
            Some(Json::Arr(items)) if items.len() == 3 => {
                let mut s = [0usize; 3];
                for (slot, item) in s.iter_mut().zip(items) {
                    *slot =
                        whole(Some(item), "An mrope_section entry", 4096.0)?.ok_or_else(|| {
                            "An mrope_section entry is null; each must be a whole number from 1 \
                         to 4096."
                                .to_string()
                        })?;
                }
                s
            }
            Some(_) => {
                return Err("mrope_section must be a list of three whole numbers (T, H, W).".into())
            }
            None => return Err("The rope settings have no mrope_section.".into()),
        };
        let model = match get("model_type").or_else(|| root.get("model_type")) {
            Some(Json::Str(s)) => model_name(s),
            _ => PASTED.to_string(),
        };
        let interleaved = match rope.get("mrope_interleaved") {
            Some(Json::Bool(b)) => *b,
            _ => model.starts_with("qwen3"),
        };
        let theta = number(rope.get("rope_theta"), "rope_theta")?
            .or(number(get("rope_theta"), "rope_theta")?)
            .unwrap_or(crate::math::mrope::DEFAULT_THETA);
        let head_dim = match whole(get("head_dim"), "head_dim", 4096.0)? {
            Some(h) => h,
            None => {
                let hidden = whole(get("hidden_size"), "hidden_size", 1e6)?;
                let heads = whole(get("num_attention_heads"), "num_attention_heads", 4096.0)?;
                match (hidden, heads) {
                    (Some(h), Some(n)) if h % n == 0 => h / n,
                    (Some(h), Some(n)) => {
                        return Err(format!(
                            "hidden_size {h} is not a multiple of num_attention_heads {n}."
                        ))
                    }
                    // No width given: the one the section implies.
                    _ => 2 * section.iter().sum::<usize>(),
                }
            }
        };
        let layout = if interleaved {
            Layout::Interleaved
        } else {
            Layout::Chunked
        };
        let mrope = Mrope::new(head_dim, as_written(theta), section, layout)?;
        let vision = root.get("vision_config");
        let merge = whole(
            vision.and_then(|v| v.get("spatial_merge_size")),
            "spatial_merge_size",
            8.0,
        )?
        .unwrap_or(2);
        let tokens_per_second = number(
            vision.and_then(|v| v.get("tokens_per_second")),
            "tokens_per_second",
        )?
        .filter(|t| *t > 0.0 && *t <= MAX_TOKENS_PER_SECOND)
        .map(as_written);
        Ok(MropeConfig {
            model,
            mrope,
            merge,
            tokens_per_second,
        })
    }

    /// The link's form (`mrope_config`): model_type, head_dim, θ, the three sections, the
    /// layout, spatial_merge_size and, when given, tokens_per_second, comma-separated:
    /// `qwen2_vl,128,1000000,16,24,24,chunked,2` (a config without a model_type starts with the
    /// comma).
    pub fn to_link(&self) -> String {
        let s = self.mrope.section();
        // No name: an empty field (`model_name` never makes an empty name).
        let model = if self.model == PASTED {
            ""
        } else {
            &self.model
        };
        let mut out = format!(
            "{model},{},{},{},{},{},{},{}",
            self.mrope.head_dim(),
            crate::format::plain(self.mrope.theta()),
            s[0],
            s[1],
            s[2],
            layout_word(self.mrope.layout()),
            self.merge
        );
        if let Some(t) = self.tokens_per_second {
            out.push(',');
            out.push_str(&crate::format::plain(t));
        }
        out
    }

    /// Reads [`MropeConfig::to_link`]'s form, refusing anything a pasted config would be
    /// refused for, with the reason.
    pub fn from_link(text: &str) -> Result<MropeConfig, String> {
        let fields: Vec<&str> = text.split(',').map(str::trim).collect();
        if !(8..=9).contains(&fields.len()) {
            return Err(format!(
                "expected 8 or 9 comma-separated fields (model, head_dim, rope_theta, the three \
                 mrope_section numbers, chunked or interleaved, spatial_merge_size and \
                 optionally tokens_per_second); got {}.",
                fields.len()
            ));
        }
        let model = match fields[0] {
            "" => PASTED.to_string(),
            m if !m.is_empty()
                && m.len() <= 40
                && m.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)) =>
            {
                m.to_string()
            }
            m => {
                return Err(format!(
                    "the model name {:?} is not up to 40 letters, digits, '_', '.' or '-'.",
                    m.chars().take(40).collect::<String>()
                ))
            }
        };
        let whole = |field: &str, what: &str, max: usize| -> Result<usize, String> {
            field
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("{what} {field:?} is not a whole number from 1 to {max}."))
        };
        let head_dim = whole(fields[1], "head_dim", crate::math::mrope::MAX_HEAD_DIM)?;
        let theta = fields[2]
            .parse::<f64>()
            .ok()
            .filter(|t| t.is_finite())
            .ok_or_else(|| format!("rope_theta {:?} is not a number.", fields[2]))?;
        let mut section = [0usize; 3];
        for (slot, field) in section.iter_mut().zip(&fields[3..6]) {
            *slot = whole(
                field,
                "an mrope_section entry",
                crate::math::mrope::MAX_HEAD_DIM,
            )?;
        }
        let layout = match fields[6] {
            "chunked" => Layout::Chunked,
            "interleaved" => Layout::Interleaved,
            l => return Err(format!("the layout {l:?} is not chunked or interleaved.")),
        };
        let merge = whole(fields[7], "spatial_merge_size", 8)?;
        let tokens_per_second = match fields.get(8) {
            None => None,
            Some(f) => Some(
                f.parse::<f64>()
                    .ok()
                    .filter(|t| *t > 0.0 && *t <= MAX_TOKENS_PER_SECOND)
                    .map(as_written)
                    .ok_or_else(|| {
                        format!("tokens_per_second {f:?} is not a number above 0 and up to 1000.")
                    })?,
            ),
        };
        Ok(MropeConfig {
            model,
            mrope: Mrope::new(head_dim, as_written(theta), section, layout)?,
            merge,
            tokens_per_second,
        })
    }

    /// What was read, in one sentence.
    pub fn report(&self) -> String {
        let s = self.mrope.section();
        format!(
            "Read {}: head_dim {}, θ = {}, mrope_section [{}, {}, {}] {}, spatial_merge_size {}{}.",
            self.model,
            self.mrope.head_dim(),
            crate::format::plain(self.mrope.theta()),
            s[0],
            s[1],
            s[2],
            match self.mrope.layout() {
                Layout::Chunked => "in blocks",
                Layout::Interleaved => "interleaved",
            },
            self.merge,
            match self.tokens_per_second {
                Some(t) => format!(
                    ", tokens_per_second {} (video time in seconds)",
                    crate::format::plain(t)
                ),
                None => String::new(),
            }
        )
    }
}
