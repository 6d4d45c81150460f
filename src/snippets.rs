//! NumPy and PyTorch code that rebuilds the matrix the "Position matrix" view shows, with the
//! current scheme and settings, so engineers can check the app against their own code. Each
//! snippet ends with `matrix`: the same rows and columns as the view's CSV.

use crate::math::rope::{RopePairing, RopeScaling};
use crate::math::scheme::Scheme;
use crate::math::sinusoidal::Variant;
use crate::state::Settings;

/// Which library the snippet uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    NumPy,
    PyTorch,
}

/// A float literal Python reads back exactly.
fn py(v: f64) -> String {
    let s = format!("{v:?}");
    if s.contains(['.', 'e', 'E']) {
        s
    } else {
        format!("{s}.0")
    }
}

/// The pieces of code that differ between the libraries.
struct Lib {
    name: &'static str,
    float: &'static str,
    cat: &'static str,
    axis: &'static str,
}

impl Lib {
    fn of(library: Library) -> Lib {
        match library {
            Library::NumPy => Lib {
                name: "np",
                float: "dtype=np.float64",
                cat: "np.concatenate",
                axis: "axis",
            },
            Library::PyTorch => Lib {
                name: "torch",
                float: "dtype=torch.float64",
                cat: "torch.cat",
                axis: "dim",
            },
        }
    }

    fn zeros(&self, rows: &str, cols: &str) -> String {
        if self.name == "np" {
            format!("np.zeros(({rows}, {cols}))")
        } else {
            format!("torch.zeros({rows}, {cols}, dtype=torch.float64)")
        }
    }
}

/// The snippet for the current settings.
pub fn snippet(s: &Settings, library: Library) -> String {
    let lib = Lib::of(library);
    let imports = match library {
        Library::NumPy => "import math\nimport numpy as np\n",
        Library::PyTorch => "import math\nimport torch\n",
    };
    let body = match s.scheme {
        Scheme::Sinusoidal => sinusoidal(s, &lib),
        Scheme::Learned => learned(s, library),
        Scheme::Rope => rope(s, &lib),
        Scheme::Alibi => alibi(s, &lib),
        Scheme::T5 => t5(s, library),
        Scheme::None => {
            "# No position scheme: there is no matrix to build.\nmatrix = None\n".into()
        }
    };
    format!(
        "# Positional Encoding Explorer: {}\n{imports}\n{body}",
        s.scheme.label()
    )
}

fn sinusoidal(s: &Settings, lib: &Lib) -> String {
    let Lib {
        name,
        float,
        cat,
        axis,
    } = *lib;
    let (count, exponent, note) = match s.variant {
        Variant::Paper | Variant::Split => ("(d_model + 1) // 2", "(2 * i) / d_model", ""),
        Variant::TutorialBug => (
            "(d_model + 1) // 2",
            "(2 * (2 * i)) / d_model",
            "# The tutorial bug: the column index 2i is doubled again (the paper's exponent is 2i/d).\n",
        ),
        Variant::T2t => ("d_model // 2", "i / max(d_model // 2 - 1, 1)", ""),
    };
    let zeros = lib.zeros("length", "d_model");
    let build = match s.variant {
        Variant::Paper | Variant::TutorialBug => format!(
            "pe = {zeros}\n\
             pe[:, 0::2] = {name}.sin(pos * omega)\n\
             pe[:, 1::2] = {name}.cos(pos * omega[: d_model // 2])\n"
        ),
        Variant::Split => format!(
            "# The paper's columns reordered: all sines, then all cosines.\n\
             pe = {cat}([{name}.sin(pos * omega), {name}.cos(pos * omega[: d_model // 2])], {axis}=1)\n"
        ),
        Variant::T2t => format!(
            "pe = {cat}([{name}.sin(pos * omega), {name}.cos(pos * omega)], {axis}=1)\n\
             if d_model % 2:  # tensor2tensor and fairseq pad an odd width with zeros\n    \
             pe = {cat}([pe, {}], {axis}=1)\n",
            lib.zeros("length", "1")
        ),
    };
    format!(
        "d_model, length, base = {}, {}, {}  # variant: {}\n\
         {note}\
         i = {name}.arange({count}, {float})\n\
         omega = base ** (-({exponent}))\n\
         pos = {name}.arange(length, {float})[:, None]\n\
         {build}\
         matrix = pe  # length × d_model, as in the app's CSV\n",
        s.d_model,
        s.length,
        py(s.base),
        s.variant.id()
    )
}

fn learned(s: &Settings, library: Library) -> String {
    let t = s.learned();
    if library == Library::PyTorch {
        return format!(
            "# An untrained learned table, nn.Embedding(max_len, d_model) initialised as Hugging\n\
             # Face initialises BERT and GPT-2: N(0, 0.02²). torch's generator is not the app's,\n\
             # so the numbers differ; the NumPy snippet reproduces the app's table exactly.\n\
             max_len, d_model, length = {}, {}, {}\n\
             table = torch.nn.Embedding(max_len, d_model)\n\
             torch.nn.init.normal_(table.weight, mean=0.0, std=0.02)\n\
             matrix = table(torch.arange(min(length, max_len))).detach()  # no rows past max_len\n",
            t.max_len, t.d_model, s.length
        );
    }
    format!(
        "# The app's untrained table: every cell is N(0, 0.02²) from its own SplitMix64 stream,\n\
         # seeded by (seed, position·d_model + dimension). Positions ≥ max_len do not exist (NaN).\n\
         max_len, d_model, length, seed = {}, {}, {}, {}\n\
         def splitmix(state):\n    \
             state = state + np.uint64(0x9E3779B97F4A7C15)\n    \
             z = (state ^ (state >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)\n    \
             z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)\n    \
             return state, z ^ (z >> np.uint64(31))\n\
         def unit(bits):  # 53 random bits, never exactly 0\n    \
             return ((bits >> np.uint64(11)).astype(np.float64) + 0.5) / 2.0**53\n\
         rows = min(length, max_len)\n\
         with np.errstate(over=\"ignore\"):  # 64-bit arithmetic wraps, as intended\n    \
             cell = (np.arange(rows, dtype=np.uint64)[:, None] * np.uint64(d_model)\n            \
                     + np.arange(d_model, dtype=np.uint64)[None, :])\n    \
             key = np.uint64(((seed << 17) | (seed >> 47)) & 0xFFFFFFFFFFFFFFFF)  # rotate left 17\n    \
             _, hashed = splitmix(cell)  # hash the cell index first\n    \
             state = key ^ hashed\n    \
             state, a = splitmix(state)\n    \
             state, b = splitmix(state)\n\
         normal = np.sqrt(-2.0 * np.log(unit(a))) * np.cos(2.0 * np.pi * unit(b))  # Box–Muller\n\
         matrix = np.full((length, d_model), np.nan)\n\
         matrix[:rows] = 0.02 * normal\n",
        t.max_len, t.d_model, s.length, t.seed
    )
}

fn rope(s: &Settings, lib: &Lib) -> String {
    let Lib {
        name,
        float,
        cat,
        axis,
    } = *lib;
    let rope = s.rope();
    let (scale, base) = match rope.scaling {
        RopeScaling::Interpolation(f) => (py(f), py(s.base)),
        RopeScaling::Ntk(f) => (
            "1.0".into(),
            format!(
                "{} * {} ** (d_model / (d_model - 2))  # NTK-aware scaling",
                py(s.base),
                py(f)
            ),
        ),
        RopeScaling::DynamicNtk {
            factor,
            original,
            length,
        } => (
            "1.0".into(),
            format!(
                "{0} * max({1} * {2} / {3} - ({1} - 1), 1.0) ** ({4} / ({4} - 2)) if {2} > {3} else {0}  # dynamic NTK",
                py(s.base),
                py(factor),
                length,
                original,
                2 * rope.pair_count()
            ),
        ),
        _ => ("1.0".into(), py(s.base)),
    };
    let method = match rope.scaling {
        RopeScaling::Llama3 {
            factor,
            low,
            high,
            original,
        } => format!(
            "# Llama 3.1's \"llama3\" rescaling (factor {f}, low {lo}, high {hi}, original {o})\n\
             wavelen = 2 * {pi} / theta\n\
             smooth = ({o} / wavelen - {lo}) / ({hi} - {lo})\n\
             theta = {wh}(wavelen < {o} / {hi}, theta, {wh}(wavelen > {o} / {lo}, theta / {f}, (1 - smooth) * theta / {f} + smooth * theta))\n",
            f = py(factor),
            lo = py(low),
            hi = py(high),
            o = original,
            pi = if name == "np" { "np.pi" } else { "torch.pi" },
            wh = if name == "np" { "np.where" } else { "torch.where" },
        ),
        RopeScaling::Yarn {
            factor,
            original,
            beta_fast,
            beta_slow,
            ..
        } => format!(
            "# YaRN (factor {f}, original {o}, beta_fast {bf}, beta_slow {bs}): a ramp from left alone to interpolated\n\
             import math\n\
             corr = lambda r: 2 * half * math.log({o} / (r * 2 * math.pi)) / (2 * math.log(base))\n\
             low, high = max(math.floor(corr({bf})), 0), min(math.ceil(corr({bs})), 2 * half - 1)\n\
             ramp = {name}.clip(({name}.arange(half, {float}) - low) / ((high - low) or 0.001), 0, 1)\n\
             theta = theta / {f} * ramp + theta * (1 - ramp)\n\
             # libraries also multiply cos and sin by the attention factor {af}\n",
            f = py(factor),
            o = original,
            bf = py(beta_fast),
            bs = py(beta_slow),
            af = py(rope.attention_factor()),
        ),
        _ => String::new(),
    };
    let layout = match s.rope_pairing {
        RopePairing::RotateHalf => format!(
            "# rotate-half (GPT-NeoX, LLaMA in Hugging Face): the cache repeats [θ | θ]\n\
             cols = {cat}([angles, angles], {axis}=1)\n"
        ),
        RopePairing::Adjacent => format!(
            "# adjacent pairs (GPT-J, RoFormer, Meta's LLaMA): each θ twice, side by side\n\
             cols = {}\n",
            if name == "np" {
                "np.repeat(angles, 2, axis=1)"
            } else {
                "torch.repeat_interleave(angles, 2, dim=1)"
            }
        ),
    };
    format!(
        "d_model, length = {}, {}\n\
         base = {base}\n\
         scale = {scale}  # position interpolation divides positions by this factor\n\
         half = {rotary} // 2  # rotated pairs\n\
         theta = base ** (-(2 * {name}.arange(half, {float})) / (2 * half))\n\
         {method}\
         omega = theta * (1.0 / scale)\n\
         angles = {name}.arange(length, {float})[:, None] * omega[None, :]\n\
         {layout}\
         pad = {}  # dimensions past the rotated pairs are not rotated\n\
         matrix = {cat}([{name}.cos(cols), pad], {axis}=1)  # cos(m·θ), length × d_model\n",
        s.d_model,
        s.length,
        lib.zeros("length", "d_model - 2 * half"),
        rotary = if rope.rotary_dim == s.d_model {
            "d_model".to_string()
        } else {
            rope.rotary_dim.to_string()
        },
    )
}

fn alibi(s: &Settings, lib: &Lib) -> String {
    let name = lib.name;
    let nan = if name == "np" {
        "np.nan"
    } else {
        "float(\"nan\")"
    };
    let where_ = if name == "np" {
        "np.where"
    } else {
        "torch.where"
    };
    let nan_value = if name == "np" {
        nan.to_string()
    } else {
        format!("torch.tensor({nan}, dtype=torch.float64)")
    };
    format!(
        "def get_slopes(n):  # as in the ALiBi reference code\n    \
             def power_of_2(n):\n        \
                 start = 2 ** (-(2 ** -(math.log2(n) - 3)))\n        \
                 return [start * start**i for i in range(n)]\n    \
             if math.log2(n).is_integer():\n        \
                 return power_of_2(n)\n    \
             closest = 2 ** math.floor(math.log2(n))\n    \
             return power_of_2(closest) + get_slopes(2 * closest)[0::2][: n - closest]\n\
         heads, head, length = {}, {}, {}\n\
         slope = get_slopes(heads)[head]\n\
         i = {name}.arange(length, {float})[:, None]  # query\n\
         j = {name}.arange(length, {float})[None, :]  # key\n\
         matrix = {where_}(j <= i, -slope * (i - j), {nan_value})  # causal: future keys masked\n",
        s.alibi_heads,
        s.alibi_head,
        s.length,
        float = lib.float
    )
}

fn t5(s: &Settings, library: Library) -> String {
    let t = s.t5;
    let bidirectional = if t.bidirectional { "True" } else { "False" };
    if library == Library::PyTorch {
        return format!(
            "# Hugging Face's own function computes the same buckets:\n\
             from transformers.models.t5.modeling_t5 import T5Attention\n\
             length = {}\n\
             query = torch.arange(length)[:, None]\n\
             key = torch.arange(length)[None, :]\n\
             matrix = T5Attention._relative_position_bucket(\n    \
                 key - query, bidirectional={bidirectional}, num_buckets={}, max_distance={})\n",
            s.length, t.num_buckets, t.max_distance
        );
    }
    format!(
        "def relative_position_bucket(r, bidirectional, num_buckets, max_distance):\n    \
             # Hugging Face's _relative_position_bucket in NumPy, with float32 logs like torch\n    \
             out = np.zeros_like(r)\n    \
             if bidirectional:\n        \
                 num_buckets //= 2\n        \
                 out += (r > 0).astype(r.dtype) * num_buckets\n        \
                 r = np.abs(r)\n    \
             else:\n        \
                 r = -np.minimum(r, 0)\n    \
             max_exact = max(num_buckets // 2, 1)\n    \
             scale = np.float32(math.log(max_distance / max_exact))\n    \
             if scale <= 0:  # max_distance <= max_exact: all longer distances share the last bucket\n        \
                 large = np.full_like(r, num_buckets - 1)\n    \
             else:\n        \
                 ratio = np.log(np.maximum(r, max_exact).astype(np.float32) / np.float32(max_exact))\n        \
                 large = max_exact + (ratio / scale * np.float32(num_buckets - max_exact)).astype(r.dtype)\n    \
             large = np.minimum(large, num_buckets - 1)\n    \
             return out + np.where(r < max_exact, r, large)\n\
         length = {}\n\
         query = np.arange(length)[:, None]\n\
         key = np.arange(length)[None, :]\n\
         matrix = relative_position_bucket(key - query, {bidirectional}, {}, {})\n",
        s.length, t.num_buckets, t.max_distance
    )
}
