//! A naive model of one catch-up clock under the run-time controls, walked tick by tick with
//! exact rationals: the oracle of `controls.rs` and `seams_model.rs`.

#![allow(dead_code)]

use tickfold_core::{DropReason, Event, Nanos};

pub(crate) fn ceil_mul(m: u64, (num, den): (u64, u64)) -> i128 {
    (u128::from(m) * u128::from(num)).div_ceil(u128::from(den)) as i128
}

/// A catch-up clock walked tick by tick: the grid segment starts at `origin` (whole ns, may
/// be negative after added lag) with tick `base`, simulation time `base_t` (exact, in units of
/// `1/dt.1` ns) and period `dt`. Simulation time is the exact sum of the ticks' lengths; a
/// rate change starts the new period at the old boundary rounded up to a whole ns.
pub(crate) struct Model {
    pub(crate) dt: (u64, u64),
    pub(crate) origin: i128,
    pub(crate) base: u64,
    pub(crate) base_t: u128,
    pub(crate) next: u64,
    pub(crate) ran: u64,
    pub(crate) dropped: u64,
    pub(crate) refused: u64,
    pub(crate) v: u64,
    pub(crate) expect: Vec<Event<Nanos>>,
}

impl Model {
    pub(crate) fn m(&self) -> u64 {
        self.next - self.base
    }
    /// Where tick `base + m` starts.
    pub(crate) fn start(&self, m: u64) -> i128 {
        self.origin + ceil_mul(m, self.dt)
    }
    pub(crate) fn due(&self, index: u64) -> i128 {
        self.start(index - self.base + 1)
    }
    pub(crate) fn restart(&mut self, at: i128) {
        self.base_t += u128::from(self.m()) * u128::from(self.dt.0);
        self.base = self.next;
        self.origin = at;
    }
    pub(crate) fn drop_to(&mut self, next: u64) {
        if next > self.next {
            self.expect.push(Event::DroppedTicks {
                clock: tickfold_core::ClockId(0),
                first: self.next,
                count: next - self.next,
                reason: DropReason::Discarded,
            });
            self.dropped += next - self.next;
            self.next = next;
        }
    }
    pub(crate) fn step(&mut self) -> Vec<(u64, u64)> {
        self.step_due()
            .into_iter()
            .map(|(k, t, _)| (k, t))
            .collect()
    }
    /// The ticks due by `v`: (index, simulation time, due time).
    pub(crate) fn step_due(&mut self) -> Vec<(u64, u64, i128)> {
        let mut ticks = Vec::new();
        while self.due(self.next) <= i128::from(self.v) {
            let t = ((self.base_t + u128::from(self.next - self.base) * u128::from(self.dt.0))
                / u128::from(self.dt.1)) as u64;
            ticks.push((self.next, t, self.due(self.next)));
            self.next += 1;
            self.ran += 1;
        }
        ticks
    }
}

pub(crate) fn merge_drop(expect: &mut Vec<Event<Nanos>>) {
    // The fold reports consecutive discards of one clock as one event.
    let mut out: Vec<Event<Nanos>> = Vec::new();
    for e in expect.drain(..) {
        if let (
            Event::DroppedTicks { first, count, .. },
            Some(Event::DroppedTicks {
                first: f, count: n, ..
            }),
        ) = (e, out.last_mut())
        {
            if *f + *n == first {
                *n += count;
                continue;
            }
        }
        out.push(e);
    }
    *expect = out;
}
