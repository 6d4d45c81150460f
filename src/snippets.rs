//! NumPy and PyTorch code that rebuilds the matrix the "Position matrix" view shows, with the
//! current scheme and settings, so engineers can check the app against their own code. Each
//! snippet ends with `matrix`: the same rows and columns as the view's CSV. Each scheme writes
//! its own (`SchemeDef::snippet`); this module holds what differs between the libraries.

/// Which library the snippet uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    NumPy,
    PyTorch,
}

/// A float literal Python reads back exactly.
pub fn py(v: f64) -> String {
    let s = format!("{v:?}");
    if s.contains(['.', 'e', 'E']) {
        s
    } else {
        format!("{s}.0")
    }
}

/// The pieces of code that differ between the libraries.
pub struct Lib {
    pub name: &'static str,
    pub float: &'static str,
    pub cat: &'static str,
    pub axis: &'static str,
}

impl Lib {
    pub fn of(library: Library) -> Lib {
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

    pub fn zeros(&self, rows: &str, cols: &str) -> String {
        if self.name == "np" {
            format!("np.zeros(({rows}, {cols}))")
        } else {
            format!("torch.zeros({rows}, {cols}, dtype=torch.float64)")
        }
    }
}
