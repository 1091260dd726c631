//! A clock's part of a save (feature `serde`): every field it keeps, written as is and read
//! back checked against the rules the fold keeps for it (the loader turns a broken rule into
//! its `StateError`, see `save/check.rs`).

use serde::{Deserialize, Serialize};

use super::Clock;
use alloc::boxed::Box;

use crate::clock::jitter::Snap;
use crate::config::{Checked, ClockConfig};
use crate::grid::{Grid, segment_end};
use crate::values::event::TickSpan;
use crate::values::id::ClockId;

/// A clock's part of a save, written by reference (`C = &ClockConfig`, `S = &Snap`, see
/// [`ClockOut`]) and read back owned (`ClockConfig`, `Snap`, see [`ClockIn`]): one list of
/// fields for both.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename = "Clock")]
pub(crate) struct SavedClock<C, S> {
    pub(crate) id: ClockId,
    pub(crate) config: C,
    origin: u64,
    /// The grid segment a run-time control started (see `regrid.rs`): its lead over
    /// `origin`, its first tick number and simulation time, and where time ends for it.
    shift: u64,
    base: u64,
    base_t: u64,
    /// The fraction of a ns `base_t` carries, over the period's denominator.
    #[serde(default)]
    base_r: u64,
    end: u64,
    refused: u64,
    last_count: u32,
    /// Refused ticks the next steps must run whatever happens to their slots, and the
    /// lowest tick the latest refusals undid.
    #[serde(default)]
    spare: u32,
    #[serde(default)]
    undone: u64,
    /// The grid the latest step ran on, if a control has moved it since.
    #[serde(default)]
    stepped: Option<Grid>,
    next_tick: u64,
    ran: u64,
    dropped_slots: u64,
    clamp_dropped: u64,
    clamp_time: u64,
    end_reported: bool,
    snap: S,
    /// 1 + the latest tick run (0: none), the same before the latest step that ran ticks, and
    /// the latest tick's span when a control restarted the grid after it.
    #[serde(default)]
    latest: u64,
    #[serde(default)]
    prior: u64,
    #[serde(default)]
    earlier: Option<TickSpan>,
}

/// A clock as a save writes it.
pub(crate) type ClockOut<'a> = SavedClock<&'a ClockConfig, &'a Snap>;

/// A clock as a save holds it, read but not yet checked.
pub(crate) type ClockIn = SavedClock<ClockConfig, Snap>;

/// Which rule of the fold a loaded clock breaks (the loader names the clock in its
/// [`StateError`](crate::StateError)).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Broken {
    /// `ran + dropped != next_tick`.
    Accounting,
    /// The grid segment contradicts the tick number, the end of time, the refusals or the
    /// latest tick run.
    Grid,
    /// The latest step ran more updates than the segment has run.
    StepCount,
}

impl Clock {
    /// The clock as a save writes it.
    pub(crate) fn saved(&self) -> ClockOut<'_> {
        ClockOut {
            id: self.id,
            config: &self.config,
            origin: self.origin,
            shift: self.shift,
            base: self.base,
            base_t: self.base_t,
            base_r: self.base_r,
            end: self.end,
            refused: self.refused,
            last_count: self.last_count,
            spare: self.spare,
            undone: self.undone,
            stepped: self.stepped,
            next_tick: self.next_tick,
            ran: self.ran,
            dropped_slots: self.dropped_slots,
            clamp_dropped: self.clamp_dropped,
            clamp_time: self.clamp_time,
            end_reported: self.end_reported,
            snap: &self.snap,
            latest: self.latest,
            prior: self.prior,
            earlier: self.earlier.as_deref().copied(),
        }
    }

    /// The clock a save holds, its configuration `checked` by the loader, checked (see
    /// [`check_loaded`](Self::check_loaded)); whether its id and name are unique among the
    /// loop's clocks is the loader's to check.
    pub(crate) fn load(c: ClockIn, checked: Checked) -> Result<Clock, Broken> {
        let mut clock = Clock::new(c.id, c.config, checked, c.origin);
        clock.ran = c.ran;
        clock.dropped_slots = c.dropped_slots;
        clock.clamp_dropped = c.clamp_dropped;
        clock.clamp_time = c.clamp_time;
        clock.end_reported = c.end_reported;
        clock.snap = c.snap;
        clock.refused = c.refused;
        clock.last_count = c.last_count;
        clock.shift = c.shift;
        clock.base = c.base;
        clock.base_t = c.base_t;
        clock.base_r = c.base_r;
        clock.spare = c.spare;
        clock.undone = c.undone;
        clock.stepped = c.stepped;
        clock.end = c.end;
        clock.latest = c.latest;
        clock.prior = c.prior;
        clock.earlier = c.earlier.map(Box::new);
        // The grid, the due time and the end-of-time flag follow from the tick number.
        clock.jump_to(c.next_tick);
        clock.check_loaded()?;
        Ok(clock)
    }

    /// Checks a loaded clock, its grid point and due time already recomputed from its tick
    /// number (so those cannot disagree with it), against the rules the fold keeps for it.
    fn check_loaded(&self) -> Result<(), Broken> {
        // Every tick below `next_tick` ran or was dropped (by a missed slot, a control or the
        // max frame delta): nothing else moves it. A refused tick moved it back and left
        // `ran`, so refusals are not part of the sum. Exact: the sum cannot pass `u64::MAX`.
        let accounted =
            u128::from(self.ran) + u128::from(self.dropped_slots) + u128::from(self.clamp_dropped);
        if accounted != u128::from(self.next_tick) {
            return Err(Broken::Accounting);
        }
        // The segment's end as `set_lead` computes it; the end of time stays earlier only
        // where the clock had already reached it (tick numbers never repeat), and the first
        // segment starts at simulation time 0.
        let full = self.base.saturating_add(segment_end(
            self.rate(),
            self.origin,
            self.shift,
            self.constant_rate(),
        ));
        if self.base > self.next_tick
            || self.end > full
            || self.end < self.base
            || (self.end < full && self.end > self.next_tick)
            || (self.base == 0 && (self.base_t != 0 || self.base_r != 0))
            || self.base_r >= self.rate().as_nanos_ratio().1
            || u64::from(self.spare) > self.refused
            || self.prior > self.latest
            || self.latest > self.next_tick
            || (self.latest > 0 && self.latest <= self.base && self.latest_tick().is_none())
        {
            return Err(Broken::Grid);
        }
        // The latest step's updates are the latest ticks below `next_tick`, all run on the
        // current segment (every control that moves the grid forgets them).
        let on_segment = self.next_tick - self.base;
        if u64::from(self.last_count) > self.ran.min(on_segment) {
            return Err(Broken::StepCount);
        }
        Ok(())
    }
}
