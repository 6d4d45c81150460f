//! NumPy and PyTorch code that rebuilds the matrix the "Position matrix" view shows, with the
//! current scheme and settings, so engineers can check the app against their own code. Each
//! snippet ends with `matrix`: the same rows and columns as the view's CSV.

use crate::state::Settings;

/// Which library the snippet uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    NumPy,
    PyTorch,
}

/// A float literal Python reads back exactly.
pub(crate) fn py(v: f64) -> String {
    let s = format!("{v:?}");
    if s.contains(['.', 'e', 'E']) {
        s
    } else {
        format!("{s}.0")
    }
}

/// The pieces of code that differ between the libraries.
pub(crate) struct Lib {
    pub name: &'static str,
    pub float: &'static str,
    pub cat: &'static str,
    pub axis: &'static str,
}

impl Lib {
    pub(crate) fn of(library: Library) -> Lib {
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

    pub(crate) fn zeros(&self, rows: &str, cols: &str) -> String {
        if self.name == "np" {
            format!("np.zeros(({rows}, {cols}))")
        } else {
            format!("torch.zeros({rows}, {cols}, dtype=torch.float64)")
        }
    }
}

/// The snippet for the current settings.
pub fn snippet(s: &Settings, library: Library) -> String {
    let imports = match library {
        Library::NumPy => "import math\nimport numpy as np\n",
        Library::PyTorch => "import math\nimport torch\n",
    };
    let body = s.scheme.def().snippet(s, library);
    format!(
        "# Positional Encoding Explorer: {}\n{imports}\n{body}",
        s.scheme.label()
    )
}
