//! Writes to `Time<Fixed>` (timestep, overstep, wrap period), honoured as Bevy's own loop
//! honours them: Bevy's `run_fixed_main_schedule` reads the resource between runs (`expend`
//! subtracts the timestep from the overstep), so a write between frames counts from the next
//! frame, and a write in a run counts from the next run, in the same frame.
//!
//! The loop is stepped once to the frame's time and its ticks are then run; a write in a run
//! with runs after it in the step goes back to the loop as it was before the step (a copy kept
//! only for a step that may run some clock twice or more) and takes the step again with the
//! written clock capped at its runs so far (the cap keeps one total order: every later run of
//! every clock is deferred), applies the write there and steps again at the same time for the
//! runs deferred (see `back_to_run` in `run.rs`). A write in the step's last run applies where
//! the loop stands, and the loop is stepped again at the same time for what it made due (a
//! shorter timestep, an overstep accumulated).

use core::time::Duration;

use bevy_ecs::world::World;
use bevy_time::{Fixed, Time};
use tickfold_core::{ClockId, Events, Nanos, Period};

use crate::resource::Tickfold;

/// What a run (or the app between frames) wrote to a clock's `Time<Fixed>`, against what the
/// plugin had set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Written {
    pub(crate) clock: ClockId,
    timestep: Option<Duration>,
    wrap: Option<Duration>,
    /// (what the plugin set, what the app left).
    overstep: Option<(Duration, Duration)>,
}

/// What `found` (the resource after a run or between frames) holds that `set` (what the
/// plugin set) does not: `None` when nothing was written.
#[inline]
pub(crate) fn written(clock: ClockId, set: &Time<Fixed>, found: &Time<Fixed>) -> Option<Written> {
    let (timestep, wrap, overstep) = (
        found.timestep() != set.timestep(),
        found.wrap_period() != set.wrap_period(),
        found.overstep() != set.overstep(),
    );
    if !(timestep || wrap || overstep) {
        return None;
    }
    Some(Written {
        clock,
        timestep: timestep.then(|| found.timestep()),
        wrap: wrap.then(|| found.wrap_period()),
        overstep: overstep.then(|| (set.overstep(), found.overstep())),
    })
}

/// After a run of `clock`'s schedule whose `Time<Fixed>` the plugin had set to `set`.
#[inline]
pub(crate) fn written_in_run(world: &World, clock: ClockId, set: &Time<Fixed>) -> Option<Written> {
    let found = world.get_resource::<Time<Fixed>>()?;
    written(clock, set, found)
}

impl Tickfold {
    /// Applies `w` to its clock where the loop stands: the wrap period to the clock's
    /// `Time<Fixed>`, the timestep as the clock's rate (from its next tick boundary), an
    /// overstep grown as [`ClockMut::accumulate_overstep`](tickfold_core::ClockMut::accumulate_overstep)
    /// and one shrunk as [`ClockMut::discard_overstep`](tickfold_core::ClockMut::discard_overstep).
    pub(crate) fn apply_written(&mut self, w: Written) {
        self.touch();
        let Ok(mut clock) = self.state.clock_mut(w.clock) else {
            return;
        };
        if let Some(step) = w.timestep {
            // Bevy panics on a zero timestep; a period tickfold cannot hold changes nothing.
            if let Ok(period) = Period::from_duration(step) {
                clock.set_rate(period);
            }
        }
        match w.overstep {
            Some((had, now)) if now > had => {
                clock.accumulate_overstep(nanos(now - had));
            }
            Some((had, now)) if now < had => {
                let _ = clock.discard_overstep(nanos(had - now));
            }
            _ => {}
        }
        let entry = self.entry(w.clock);
        if let Some(wrap) = w.wrap {
            entry.fixed.set_wrap_period(wrap);
        }
        if let Some(step) = w.timestep {
            entry.fixed.set_timestep(step);
        }
        if w.overstep.is_some() {
            entry.moved = true;
        }
    }

    /// Keeps the loop as it is before a step to `now` if the step may run some clock twice or
    /// more (see the module docs); `deadline` is the previous step's. Nothing is kept for a
    /// step that runs each clock at most once (a write in its runs applies where the loop
    /// stands after it).
    pub(crate) fn keep_for_step(&mut self, deadline: Option<Nanos>, now: Nanos) {
        let may_repeat =
            self.touched || deadline.is_some_and(|d| now.0.saturating_sub(d.0) >= self.min_tick());
        self.touched = false;
        if may_repeat {
            match &mut self.snapshot {
                Some(kept) => kept.clone_from(&self.state),
                None => self.snapshot = Some(self.state.clone()),
            }
        } else {
            self.snapshot = None;
        }
    }

    /// The shortest tick of any clock, less one ns (a period of a fractional number of ns has
    /// ticks of two lengths).
    fn min_tick(&mut self) -> u64 {
        if let Some(t) = self.min_tick {
            return t;
        }
        let t = self
            .clocks
            .iter()
            .filter_map(|c| self.state.clock(c.id).ok())
            .map(|c| c.rate().tick_start_nanos(1).saturating_sub(1))
            .min()
            .unwrap_or(0);
        self.min_tick = Some(t);
        t
    }
}

/// The first `n` updates of `a` and `b` are the same ticks (clock and number).
pub(crate) fn same_updates(a: &Events<Nanos>, b: &Events<Nanos>, n: usize) -> bool {
    let (mut a, mut b) = (a.updates(), b.updates());
    (0..n).all(|_| match (a.next(), b.next()) {
        (Some(x), Some(y)) => x.clock == y.clock && x.index == y.index,
        _ => false,
    })
}

fn nanos(d: Duration) -> Nanos {
    Nanos(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}
