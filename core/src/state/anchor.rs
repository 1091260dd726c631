//! Moving a [`LoopState`] to another time axis. Every time inside a state is kept in ns since
//! its `start`, the only field of the timestamp type, so swapping the start moves the whole
//! state exactly: the way a state saved from an `Instant` loop (which cannot be serialized)
//! becomes a `LoopState<Nanos>` and back.

use crate::state::{Contents, Inner, LoopState};

impl<T> LoopState<T> {
    /// The same state on another time axis: `start` stands for the old start, and every time
    /// in the state stays where it was relative to it (the latest reading, each clock's grid,
    /// the render slots, virtual time). Stepping the rebased state at `start + x` gives exactly
    /// the events (with [`Event::Sleep`](crate::Event::Sleep) times and deadlines moved to the
    /// new axis) and the state that stepping the original at its `start + x` would.
    ///
    /// This is how a real-time game saves: a `LoopState<Instant>` cannot be serialized (an
    /// `Instant` means nothing in the next process), its rebase onto
    /// [`Nanos`](crate::Nanos) can. To load it into a new process, rebase it back with
    /// [`resume_at`](LoopState::resume_at) (the latest reading becomes a given instant, e.g.
    /// `Instant::now()`), or run it as a `LoopState<Nanos>` on the real clock (the facade's
    /// `runner::RealNanos`), which needs no conversion at all.
    ///
    /// Rebasing moves the state into a new box (one allocation).
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
    /// let (state, _) = state.step(Nanos::from_millis(40));
    /// // The same loop on an axis whose start is 1 s: later times move by 1 s.
    /// let moved = state.clone().rebase(Nanos::from_secs(1));
    /// assert_eq!(moved.real_time().elapsed(), state.real_time().elapsed()); // 40 ms since the start, as before
    /// let (a, ea) = state.step(Nanos::from_millis(100));
    /// let (b, eb) = moved.step(Nanos::from_millis(1_100));
    /// assert_eq!(ea.deadline().map(|d| d.0 + 1_000_000_000), eb.deadline().map(|d| d.0));
    /// assert_eq!(ea.updates().collect::<Vec<_>>(), eb.updates().collect::<Vec<_>>());
    /// assert_eq!(a, b.rebase(Nanos(0)));
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    #[must_use]
    pub fn rebase<U>(self, start: U) -> LoopState<U> {
        // Every field named: a new field of type `T` must be thought about here.
        let Inner {
            real,
            virt,
            clocks,
            render,
            span,
            pool,
            fast,
            cursor,
        } = self.inner.into_inner();
        LoopState {
            inner: Contents::new(Inner {
                real: real.rebase(start),
                virt,
                clocks,
                render,
                span,
                pool: pool.rebase(),
                fast,
                cursor,
            }),
        }
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl<T> LoopState<T> {
    /// The state on `Instant`s, its latest reading at `now`: the state continues as if no
    /// time had passed between that reading (at the save) and `now` (at the load). This is the
    /// load half of a real-time save game: [`rebase`](LoopState::rebase) onto `Nanos` to save,
    /// `resume_at(Instant::now())` after loading.
    ///
    /// # Errors
    ///
    /// Gives the state back unchanged when its start cannot be an `Instant`: `now` less the
    /// state's [`real_time`](LoopState::real_time) is earlier than the platform's `Instant`s
    /// go (on most platforms they count from boot, so a save holding 10 hours of play loaded
    /// 5 minutes after boot). Run such a game as a `LoopState<Nanos>` on the facade's
    /// `runner::RealNanos`, which has no such limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
    ///
    /// let t0 = Instant::now();
    /// let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), t0)?;
    /// let (state, _) = state.step(t0 + Duration::from_millis(40));
    /// let saved: LoopState<Nanos> = state.rebase(Nanos(0)); // serializable (feature `serde`)
    ///
    /// // A new process, a minute later:
    /// let now = Instant::now() + Duration::from_secs(60);
    /// let loaded = saved.resume_at(now).expect("the platform's Instants reach back 40 ms");
    /// assert_eq!(loaded.real_time().elapsed(), Nanos::from_millis(40));
    /// assert_eq!(*loaded.real_time().start() + Duration::from_millis(40), now);
    /// let (_, events) = loaded.step(now + Duration::from_millis(10));
    /// assert_eq!(events.update_count(), 1); // tick 2, due at 50 ms of the loop's time
    /// # Ok::<(), tickfold_core::ConfigError>(())
    /// ```
    pub fn resume_at(
        self,
        now: std::time::Instant,
    ) -> Result<LoopState<std::time::Instant>, LoopState<T>> {
        match now.checked_sub(core::time::Duration::from_nanos(
            self.real_time().elapsed().0,
        )) {
            Some(start) => Ok(self.rebase(start)),
            None => Err(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    use crate::{ClockConfig, LoopConfig, LoopState, Nanos, Period, Policy, TimeScale};

    /// Steps `state` at `start + x` for each `x`; the events (times made relative) per step.
    fn fold(
        mut state: LoopState<Nanos>,
        start: u64,
        xs: &[u64],
    ) -> (LoopState<Nanos>, Vec<String>) {
        let mut out = Vec::new();
        for &x in xs {
            let events;
            (state, events) = state.step(Nanos(start + x));
            let deadline = events.deadline().map(|d| d.0 - start);
            let list: Vec<String> = events
                .iter()
                .map(|e| match e {
                    crate::Event::Sleep { until } => format!("Sleep({})", until.0 - start),
                    other => format!("{other:?}"),
                })
                .collect();
            out.push(format!("{list:?} {deadline:?}"));
        }
        (state, out)
    }

    #[test]
    fn a_rebased_state_folds_the_same_schedule_moved_by_the_new_start() {
        let config = LoopConfig::new(Period::from_hz(60).unwrap())
            .clock(ClockConfig::new("ai", Period::from_hz(7).unwrap()).policy(Policy::DropAndRest))
            .render_rate(Some(Period::from_hz(144).unwrap()))
            .time_scale(TimeScale::ratio(2, 3).unwrap());
        let state = LoopState::new(config, Nanos(0)).unwrap();
        let xs: Vec<u64> = (1..200u64)
            .map(|k| k * 7_300_001 + (k * k) % 5_000_000)
            .collect();
        let (mid, _) = fold(state.clone(), 0, &xs[..80]);
        let (whole, expected) = fold(state, 0, &xs);
        let shift = 123_456_789_012;
        let (moved, got) = fold(mid.rebase(Nanos(shift)), shift, &xs[80..]);
        assert_eq!(got, expected[80..]);
        assert_eq!(*moved.real_time().start(), Nanos(shift));
        assert_eq!(moved.rebase(Nanos(0)), whole);
    }
}
