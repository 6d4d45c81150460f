// The lesson's steps as a student meets them, in order: each step's title, the view it opens,
// its scheme (the sidebar's, or `grid`: the Image patches view's 2-D scheme, as that view has no
// sidebar scheme), and a setting it makes (a slider or the variant). Shared by the tests that
// walk, print or package the lesson, so the number of steps is said once, here.

export const STEPS = [
  { title: 'Why order matters', view: 'attention', scheme: 'sinusoidal' },
  { title: 'The sinusoidal formula', view: 'heatmap', scheme: 'sinusoidal', d_model: '64' },
  { title: 'Frequencies and wavelengths', view: 'waves', scheme: 'sinusoidal', length: '200' },
  { title: 'The rotation property', view: 'rotations', scheme: 'sinusoidal', d_model: '16' },
  { title: 'Dot product by offset', view: 'offsets', scheme: 'sinusoidal', length: '256' },
  { title: 'Learned positions and their limit', view: 'heatmap', scheme: 'learned', length: '600' },
  { title: 'RoPE: rotate queries and keys', view: 'offsets', scheme: 'rope', length: '512' },
  { title: 'ALiBi: a penalty that grows with distance', view: 'heatmap', scheme: 'alibi' },
  { title: 'T5: buckets of distance', view: 'heatmap', scheme: 't5', length: '256' },
  { title: 'Why add instead of concatenate', view: 'addition', scheme: 'sinusoidal', d_model: '64' },
  { title: 'Bugs worth recognising', view: 'heatmap', scheme: 'sinusoidal', variant: 'tutorial-bug' },
  { title: 'From a line of tokens to a grid of patches', view: 'patches', grid: 'vit_sincos' },
];
