//! A finger on a slider, until it is known whether it drags along the slider or swipes the page
//! up or down: a swipe scrolls and leaves the value alone; a drag along it or a tap sets it.
//! One state machine for every slider that can meet a finger: the app's and the first paint's.
//! No web types: the callers feed it pointer positions and slider stops.

/// How far (CSS px) a finger moves before its direction decides what the touch is.
pub const TOUCH_SLOP: f64 = 8.0;

/// A touch's state on one slider.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TouchGuard {
    touch: Option<Touch>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Touch {
    x: f64,
    y: f64,
    /// `Some(true)`: along the slider; `Some(false)`: a scroll; `None`: not yet known.
    along: Option<bool>,
    /// The stop the slider moved to while undecided, applied only if the touch turns out not to
    /// be a scroll.
    pending: Option<usize>,
}

impl TouchGuard {
    /// A finger went down at (x, y) (only touch pointers: a mouse or a pen drags as usual).
    pub fn down(&mut self, x: f64, y: f64) {
        self.touch = Some(Touch {
            x,
            y,
            along: None,
            pending: None,
        });
    }

    /// The slider moved to `stop`: `Some(stop)` to apply it now, `None` to hold it back (the
    /// caller puts the slider back where its value is) while the touch may still be a scroll.
    pub fn slide(&mut self, stop: usize) -> Option<usize> {
        match &mut self.touch {
            Some(t) if t.along != Some(true) => {
                if t.along.is_none() {
                    t.pending = Some(stop);
                }
                None
            }
            _ => Some(stop),
        }
    }

    /// The finger moved to (x, y): once past the slop its direction decides; a drag along the
    /// slider returns the stop held back meanwhile, to apply now.
    pub fn moved(&mut self, x: f64, y: f64) -> Option<usize> {
        let t = self.touch.as_mut().filter(|t| t.along.is_none())?;
        let (dx, dy) = (x - t.x, y - t.y);
        if dx.abs().max(dy.abs()) <= TOUCH_SLOP {
            return None;
        }
        let along = dx.abs() >= dy.abs();
        t.along = Some(along);
        if along {
            t.pending.take()
        } else {
            t.pending = None;
            None
        }
    }

    /// The finger lifted: a tap or a drag along the slider returns the stop it was holding.
    pub fn up(&mut self) -> Option<usize> {
        match self.touch.take() {
            Some(Touch {
                along: None | Some(true),
                pending,
                ..
            }) => pending,
            _ => None,
        }
    }

    /// The browser took the touch for a scroll: the value stays as it was.
    pub fn cancel(&mut self) {
        self.touch = None;
    }
}
