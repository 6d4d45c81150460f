//! Where what each view shows comes from: the papers and the reference code, with links. Pure
//! data; the panel's "Sources" block (`ui/sources.rs`) lists [`sources`] for the view and
//! scheme on screen, and `docs/engineers.md` lists [`ALL`] (a test keeps the two in step).

use crate::schemes::kind::Scheme;
use crate::state::View;

/// A paper or a piece of reference code.
#[derive(Debug, PartialEq, Eq)]
pub struct Source {
    /// Who and when, as cited: "Vaswani et al., 2017".
    pub who: &'static str,
    /// The title of the paper, or what the code is.
    pub title: &'static str,
    pub url: &'static str,
    pub kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Paper,
    Code,
}

macro_rules! source {
    ($name:ident, $kind:ident, $who:literal, $title:literal, $url:literal) => {
        pub const $name: Source = Source {
            who: $who,
            title: $title,
            url: $url,
            kind: Kind::$kind,
        };
    };
}

source!(
    VASWANI,
    Paper,
    "Vaswani et al., 2017",
    "Attention Is All You Need",
    "https://arxiv.org/abs/1706.03762"
);
source!(
    DENK,
    Paper,
    "Denk, 2019",
    "Linear Relationships in the Transformer's Positional Encoding",
    "https://timodenk.com/blog/linear-relationships-in-the-transformers-positional-encoding/"
);
source!(
    GEHRING,
    Paper,
    "Gehring et al., 2017",
    "Convolutional Sequence to Sequence Learning",
    "https://arxiv.org/abs/1705.03122"
);
source!(
    BERT,
    Paper,
    "Devlin et al., 2018",
    "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
    "https://arxiv.org/abs/1810.04805"
);
source!(GPT2, Paper, "Radford et al., 2019", "Language Models are Unsupervised Multitask Learners",
    "https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf");
source!(
    ROFORMER,
    Paper,
    "Su et al., 2021",
    "RoFormer: Enhanced Transformer with Rotary Position Embedding",
    "https://arxiv.org/abs/2104.09864"
);
source!(
    LLAMA,
    Paper,
    "Touvron et al., 2023",
    "LLaMA: Open and Efficient Foundation Language Models",
    "https://arxiv.org/abs/2302.13971"
);
source!(
    PI,
    Paper,
    "Chen et al., 2023",
    "Extending Context Window of Large Language Models via Positional Interpolation",
    "https://arxiv.org/abs/2306.15595"
);
source!(NTK, Paper, "bloc97, 2023",
    "NTK-Aware Scaled RoPE allows LLaMA models to have extended (8k+) context size without any fine-tuning",
    "https://www.reddit.com/r/LocalLLaMA/comments/14lz7j5/ntkaware_scaled_rope_allows_llama_models_to_have/");
source!(
    YARN,
    Paper,
    "Peng et al., 2023",
    "YaRN: Efficient Context Window Extension of Large Language Models",
    "https://arxiv.org/abs/2309.00071"
);
source!(
    LLAMA3,
    Paper,
    "Llama Team, AI @ Meta, 2024",
    "The Llama 3 Herd of Models",
    "https://arxiv.org/abs/2407.21783"
);
source!(
    DEEPSEEK_V3,
    Paper,
    "DeepSeek-AI, 2024",
    "DeepSeek-V3 Technical Report",
    "https://arxiv.org/abs/2412.19437"
);
source!(
    NEOX,
    Paper,
    "Black et al., 2022",
    "GPT-NeoX-20B: An Open-Source Autoregressive Language Model",
    "https://arxiv.org/abs/2204.06745"
);
source!(
    ALIBI,
    Paper,
    "Press et al., 2021",
    "Train Short, Test Long: Attention with Linear Biases Enables Input Length Extrapolation",
    "https://arxiv.org/abs/2108.12409"
);
source!(
    T5,
    Paper,
    "Raffel et al., 2019",
    "Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer",
    "https://arxiv.org/abs/1910.10683"
);
source!(
    SHAW,
    Paper,
    "Shaw et al., 2018",
    "Self-Attention with Relative Position Representations",
    "https://arxiv.org/abs/1803.02155"
);
source!(
    HAVIV,
    Paper,
    "Haviv et al., 2022",
    "Transformer Language Models without Positional Encodings Still Learn Positional Information",
    "https://arxiv.org/abs/2203.16634"
);
source!(
    KAZEMNEJAD,
    Paper,
    "Kazemnejad et al., 2023",
    "The Impact of Positional Encoding on Length Generalization in Transformers",
    "https://arxiv.org/abs/2305.19466"
);
source!(
    ADAMW,
    Paper,
    "Loshchilov and Hutter, 2017",
    "Decoupled Weight Decay Regularization",
    "https://arxiv.org/abs/1711.05101"
);
source!(
    PRE_LN,
    Paper,
    "Xiong et al., 2020",
    "On Layer Normalization in the Transformer Architecture",
    "https://arxiv.org/abs/2002.04745"
);
source!(
    GELU,
    Paper,
    "Hendrycks and Gimpel, 2016",
    "Gaussian Error Linear Units (GELUs)",
    "https://arxiv.org/abs/1606.08415"
);

source!(T2T_CODE, Code, "tensor2tensor", "get_timing_signal_1d in layers/common_attention.py",
    "https://github.com/tensorflow/tensor2tensor/blob/master/tensor2tensor/layers/common_attention.py");
source!(FAIRSEQ_CODE, Code, "fairseq", "SinusoidalPositionalEmbedding",
    "https://github.com/facebookresearch/fairseq/blob/main/fairseq/modules/sinusoidal_positional_embedding.py");
source!(
    PYTORCH_EXAMPLES_CODE,
    Code,
    "pytorch/examples",
    "PositionalEncoding in word_language_model/model.py",
    "https://github.com/pytorch/examples/blob/main/word_language_model/model.py"
);
source!(
    ANNOTATED_CODE,
    Code,
    "Harvard NLP",
    "The Annotated Transformer",
    "https://nlp.seas.harvard.edu/annotated-transformer/"
);
source!(GPTJ_CODE, Code, "Hugging Face transformers", "create_sinusoidal_positions in GPT-J",
    "https://github.com/huggingface/transformers/blob/main/src/transformers/models/gptj/modeling_gptj.py");
source!(
    TF_TUTORIAL_CODE,
    Code,
    "TensorFlow",
    "Neural machine translation with a Transformer and Keras",
    "https://www.tensorflow.org/text/tutorials/transformer"
);
source!(
    BERT_CODE,
    Code,
    "google-research/bert",
    "position embeddings in modeling.py",
    "https://github.com/google-research/bert/blob/master/modeling.py"
);
source!(
    GPT2_CODE,
    Code,
    "openai/gpt-2",
    "the wpe table in src/model.py",
    "https://github.com/openai/gpt-2/blob/master/src/model.py"
);
source!(
    ROFORMER_CODE,
    Code,
    "ZhuiyiTechnology",
    "RoFormer",
    "https://github.com/ZhuiyiTechnology/roformer"
);
source!(LLAMA_CODE, Code, "Hugging Face transformers", "rotate_half and apply_rotary_pos_emb in Llama",
    "https://github.com/huggingface/transformers/blob/main/src/transformers/models/llama/modeling_llama.py");
source!(
    ROPE_UTILS_CODE,
    Code,
    "Hugging Face transformers",
    "modeling_rope_utils.py (linear, dynamic NTK, llama3, YaRN)",
    "https://github.com/huggingface/transformers/blob/main/src/transformers/modeling_rope_utils.py"
);
source!(
    ALIBI_CODE,
    Code,
    "ofirpress",
    "attention_with_linear_biases (get_slopes)",
    "https://github.com/ofirpress/attention_with_linear_biases"
);
source!(T5_CODE, Code, "Hugging Face transformers", "_relative_position_bucket in T5",
    "https://github.com/huggingface/transformers/blob/main/src/transformers/models/t5/modeling_t5.py");
source!(
    ADAMW_CODE,
    Code,
    "PyTorch",
    "torch.optim.AdamW",
    "https://pytorch.org/docs/stable/generated/torch.optim.AdamW.html"
);
source!(
    LLM_C_CODE,
    Code,
    "karpathy",
    "llm.c (a transformer's forward and backward written out)",
    "https://github.com/karpathy/llm.c"
);
source!(
    SAFETENSORS_CODE,
    Code,
    "Hugging Face",
    "safetensors (the model file format)",
    "https://github.com/huggingface/safetensors"
);

// The sources of schemes added since the list in `docs/engineers.md`: cited by their schemes, not
// in [`ALL`].
source!(
    KERPLE_PAPER,
    Paper,
    "Chi et al., 2022",
    "KERPLE: Kernelized Relative Positional Embedding for Length Extrapolation",
    "https://arxiv.org/abs/2205.09921"
);
source!(
    KERPLE_CODE,
    Code,
    "Chi et al.",
    "KERPLE reference code (ParallelKerpleLog)",
    "https://github.com/chijames/KERPLE"
);
source!(
    FIRE_PAPER,
    Paper,
    "Li et al., 2024",
    "Functional Interpolation for Relative Positions Improves Long Context Transformers",
    "https://arxiv.org/abs/2310.04418"
);

source!(
    DOSOVITSKIY,
    Paper,
    "Dosovitskiy et al., 2021",
    "An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale",
    "https://arxiv.org/abs/2010.11929"
);
source!(
    MAE,
    Paper,
    "He et al., 2022",
    "Masked Autoencoders Are Scalable Vision Learners",
    "https://arxiv.org/abs/2111.06377"
);
source!(
    MAE_CODE,
    Code,
    "facebookresearch/mae",
    "util/pos_embed.py: get_2d_sincos_pos_embed, interpolate_pos_embed",
    "https://github.com/facebookresearch/mae/blob/main/util/pos_embed.py"
);
source!(
    ROPE_VIT,
    Paper,
    "Heo et al., 2024",
    "Rotary Position Embedding for Vision Transformer (ECCV 2024)",
    "https://arxiv.org/abs/2403.13298"
);
source!(
    ROPE_VIT_CODE,
    Code,
    "naver-ai/rope-vit",
    "self-attn/rope_self_attn.py: compute_axial_cis, init_2d_freqs, compute_mixed_cis",
    "https://github.com/naver-ai/rope-vit/blob/main/self-attn/rope_self_attn.py"
);
source!(
    EVA02,
    Paper,
    "Fang et al., 2024",
    "EVA-02: A Visual Representation for Neon Genesis",
    "https://arxiv.org/abs/2303.11331"
);
source!(
    EVA02_CODE,
    Code,
    "baaivision/EVA",
    "EVA-02/asuka/rope.py: VisionRotaryEmbeddingFast (positions scaled by pt_seq_len / ft_seq_len)",
    "https://github.com/baaivision/EVA/blob/master/EVA-02/asuka/rope.py"
);
source!(
    QWEN2_VL,
    Paper,
    "Wang et al., 2024",
    "Qwen2-VL: Enhancing Vision-Language Model's Perception of the World at Any Resolution",
    "https://arxiv.org/abs/2409.12191"
);
source!(
    QWEN25_VL,
    Paper,
    "Bai et al., 2025",
    "Qwen2.5-VL Technical Report",
    "https://arxiv.org/abs/2502.13923"
);
source!(
    QWEN3_VL,
    Paper,
    "Bai et al., 2025",
    "Qwen3-VL Technical Report",
    "https://arxiv.org/abs/2511.21631"
);
source!(
    QWEN2_VL_CODE,
    Code,
    "huggingface/transformers",
    "models/qwen2_vl/modeling_qwen2_vl.py: get_rope_index, apply_multimodal_rotary_pos_emb",
    "https://github.com/huggingface/transformers/blob/main/src/transformers/models/qwen2_vl/modeling_qwen2_vl.py"
);
source!(
    QWEN3_VL_CODE,
    Code,
    "huggingface/transformers",
    "models/qwen3_vl/modeling_qwen3_vl.py: apply_interleaved_mrope, get_rope_index",
    "https://github.com/huggingface/transformers/blob/main/src/transformers/models/qwen3_vl/modeling_qwen3_vl.py"
);

/// Every source, papers first (the list in `docs/engineers.md`).
pub const ALL: &[&Source] = &[
    &VASWANI,
    &DOSOVITSKIY,
    &MAE,
    &ROPE_VIT,
    &EVA02,
    &QWEN2_VL,
    &QWEN25_VL,
    &QWEN3_VL,
    &DENK,
    &GEHRING,
    &BERT,
    &GPT2,
    &ROFORMER,
    &LLAMA,
    &PI,
    &NTK,
    &YARN,
    &LLAMA3,
    &DEEPSEEK_V3,
    &NEOX,
    &ALIBI,
    &T5,
    &SHAW,
    &KERPLE_PAPER,
    &FIRE_PAPER,
    &HAVIV,
    &KAZEMNEJAD,
    &ADAMW,
    &PRE_LN,
    &GELU,
    &T2T_CODE,
    &FAIRSEQ_CODE,
    &PYTORCH_EXAMPLES_CODE,
    &ANNOTATED_CODE,
    &GPTJ_CODE,
    &TF_TUTORIAL_CODE,
    &BERT_CODE,
    &GPT2_CODE,
    &ROFORMER_CODE,
    &LLAMA_CODE,
    &ROPE_UTILS_CODE,
    &ALIBI_CODE,
    &T5_CODE,
    &KERPLE_CODE,
    &ADAMW_CODE,
    &LLM_C_CODE,
    &SAFETENSORS_CODE,
    &MAE_CODE,
    &ROPE_VIT_CODE,
    &EVA02_CODE,
    &QWEN2_VL_CODE,
    &QWEN3_VL_CODE,
];

/// A scheme's own sources, the first its paper (each scheme's module lists them).
pub type SchemeSources = fn(Scheme) -> &'static [&'static Source];

/// The sources of `view` showing `scheme`, each once, in the order they are cited. The lesson
/// shows its step's view (`lesson_view`).
pub fn sources(
    view: View,
    lesson_view: View,
    scheme: Scheme,
    scheme_sources: SchemeSources,
) -> Vec<&'static Source> {
    let mut out: Vec<&'static Source> = Vec::new();
    let mut add = |list: &[&'static Source]| {
        for s in list {
            if !out.iter().any(|o| o.url == s.url) {
                out.push(s);
            }
        }
    };
    let view = if view == View::Lesson {
        lesson_view
    } else {
        view
    };
    match view {
        View::Matrix | View::Offsets => {
            add(scheme_sources(scheme));
            if view == View::Offsets && scheme == Scheme::Sinusoidal {
                add(&[&DENK]);
            }
        }
        View::Attention => {
            add(&[&VASWANI]);
            add(scheme_sources(scheme));
        }
        View::Waves => add(&[
            &VASWANI,
            &T2T_CODE,
            &FAIRSEQ_CODE,
            &GPTJ_CODE,
            &TF_TUTORIAL_CODE,
        ]),
        View::Rotations => add(&[&VASWANI, &DENK]),
        View::Patches => add(&[
            &DOSOVITSKIY,
            &MAE,
            &MAE_CODE,
            &ROPE_VIT,
            &ROPE_VIT_CODE,
            &EVA02,
            &EVA02_CODE,
            &QWEN2_VL,
            &QWEN25_VL,
            &QWEN3_VL,
            &QWEN2_VL_CODE,
            &QWEN3_VL_CODE,
        ]),
        View::Norms | View::Addition => add(&[&VASWANI, &ANNOTATED_CODE]),
        View::Compare => {
            for s in Scheme::on_a_line() {
                add(&scheme_sources(s)[..1]);
            }
        }
        View::Quiz | View::Lesson => add(&[
            &VASWANI, &BERT, &GPT2, &ROFORMER, &LLAMA, &LLAMA3, &ALIBI, &T5,
        ]),
        // Every scheme is trained: each one's own paper, after the two on models without one.
        View::Train => {
            add(&[&KAZEMNEJAD, &HAVIV]);
            for s in Scheme::on_a_line() {
                add(&scheme_sources(s)[..1]);
            }
            add(&[
                &PRE_LN,
                &GELU,
                &ADAMW,
                &ADAMW_CODE,
                &LLM_C_CODE,
                &SAFETENSORS_CODE,
            ]);
        }
    }
    out
}
