//! Figures: settings in, chart data and its CSV out, with no browser dependency. The views only
//! render what these return (natively tested in `tests/`).

pub mod addition;
pub mod attention;
pub mod compare;
pub mod mrope;
pub mod norms;
pub mod offsets;
pub mod patches;
pub mod resolution;
pub mod rope;
pub mod rotations;
pub mod schemes;
pub mod waves;

/// Declares what a figure reads from the settings, as a struct the figure is computed from. The
/// struct is also the view's memo key, so a figure recomputes exactly when something it reads
/// changes (the compiler refuses a figure that reads anything else).
///
/// ```ignore
/// figure_inputs! {
///     /// The ALiBi distance chart.
///     AlibiDistanceInputs {
///         slopes: Vec<f64> = |s| s.schemes.alibi.slopes(),
///         length: usize = |s| s.length,
///     }
/// }
/// ```
#[macro_export]
macro_rules! figure_inputs {
    ($(#[$meta:meta])* $name:ident { $($field:ident : $ty:ty = $get:expr),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name {
            $(pub $field: $ty,)*
        }

        impl $name {
            pub fn of(s: &$crate::state::Settings) -> Self {
                $name {
                    $($field: {
                        let get: fn(&$crate::state::Settings) -> $ty = $get;
                        get(s)
                    },)*
                }
            }
        }
    };
}
