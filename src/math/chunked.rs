//! Long computations done a range at a time, so the page can stay responsive between ranges.
//! The math is the same as computing everything at once: each range restarts its walk from an
//! exact value at the range's first item.

use std::ops::Range;

/// Work (in a job's units, about one multiply-add each) done at once: below this a job finishes
/// in a few milliseconds and the chart stays in step with the slider.
pub const SYNC_WORK: usize = 12_000_000;

/// A computation over the items `0..len()`, done in consecutive ranges.
pub trait Chunked: 'static {
    type Output: 'static;
    /// How many items there are.
    fn len(&self) -> usize;
    /// Work units (multiply-adds, roughly) per item, to size the ranges.
    fn cost(&self) -> usize;
    /// Computes the items in `range`; called with consecutive ranges starting at 0.
    fn compute(&mut self, range: Range<usize>);
    /// The result, once every item is computed.
    fn finish(self) -> Self::Output;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether it is small enough to compute at once, inside a render or before the first paint
    /// (a few milliseconds): larger jobs are run in slices with the browser free in between.
    fn is_small(&self) -> bool {
        self.len().saturating_mul(self.cost()) <= SYNC_WORK
    }

    /// Everything at once.
    fn run(mut self) -> Self::Output
    where
        Self: Sized,
    {
        let n = self.len();
        self.compute(0..n);
        self.finish()
    }
}

/// Several jobs one after another, as one.
pub struct Sequence<J: Chunked> {
    jobs: Vec<J>,
}

impl<J: Chunked> Sequence<J> {
    pub fn new(jobs: Vec<J>) -> Self {
        Sequence { jobs }
    }
}

impl<J: Chunked> Chunked for Sequence<J> {
    type Output = Vec<J::Output>;

    fn len(&self) -> usize {
        self.jobs.iter().map(|j| j.len()).sum()
    }

    fn cost(&self) -> usize {
        self.jobs.iter().map(|j| j.cost()).max().unwrap_or(1)
    }

    fn compute(&mut self, range: Range<usize>) {
        let mut start = 0;
        for job in &mut self.jobs {
            let end = start + job.len();
            let (a, b) = (range.start.max(start), range.end.min(end));
            if a < b {
                job.compute(a - start..b - start);
            }
            start = end;
        }
    }

    fn finish(self) -> Vec<J::Output> {
        self.jobs.into_iter().map(|j| j.finish()).collect()
    }
}
