//! Which clock a tracker follows, as its builder and readings: [`Interpolated::clock`],
//! [`clock_id`](Interpolated::clock_id), [`bound_clock`](Interpolated::bound_clock) and
//! [`alpha`](Interpolated::alpha). The rule itself lives in `binding.rs`.

use hecs::Component;
use tickfold_core::{ClockId, Interpolate};

use crate::binding::{Binding, UNBOUND};
use crate::interpolated::Interpolated;

/// The binding, as a tracker's builder and readings.
impl<T: Interpolate + Component + Clone> Interpolated<T> {
    /// Follows `clock`'s updates, and only those: use the clock whose updates change `T`.
    /// Reads then blend with that clock's alpha, [`alpha`](Self::alpha), which is not
    /// `Render::alpha` when another clock is the loop's alpha clock.
    ///
    /// Look the id up by name, `state.clock("physics")?.id()`: ids are handed out in
    /// declaration order, so a number assumed from one game's order (`ClockId(0)`) names
    /// another clock in a game that declares its clocks in another order, and a number the
    /// loop does not have names no clock at all. The tracker cannot tell while it is handed
    /// ticks (a tick of another clock is only counted); [`alpha`](Self::alpha) refuses a clock
    /// the loop does not have, with the lookup's error.
    ///
    /// Without it, a tracker binds itself to the clock of the first tick handed to
    /// [`before_update`](Self::before_update) and follows that clock from then on. Either way
    /// a tick of another clock is not acted on (no capture, no ghost ageing) and is counted
    /// in [`Stats::other_clock_ticks`](crate::Stats::other_clock_ticks): handing a tracker every update of a loop of several
    /// clocks is fine when the tracker is bound to the right one. On a tracker that bound
    /// itself such ticks are most likely a mistake (it follows whichever clock's tick came
    /// first: with every update handed, the clock whose tick is due first, the fastest), so
    /// check the count, or bind it with this method.
    ///
    /// # Examples
    ///
    /// ```
    /// use tickfold_core::{ClockConfig, LoopConfig, LoopState, Nanos, Period};
    /// use tickfold_hecs::{Interpolated, hecs::World};
    ///
    /// // AI (10 Hz) declared before physics (30 Hz); bodies move on physics.
    /// let config = LoopConfig::from_clock(ClockConfig::new("ai", Period::from_hz(10)?))
    ///     .clock(ClockConfig::new("physics", Period::from_hz(30)?));
    /// let mut state = LoopState::new(config, Nanos(0))?;
    /// let physics = state.clock("physics").expect("declared").id();
    /// let mut world = World::new();
    /// let (mut bound, mut by_first) = (Interpolated::<f32>::new().clock(physics), Interpolated::<f32>::new());
    /// assert_eq!((bound.bound_clock(), by_first.bound_clock()), (Some(physics), None));
    /// let _ = (bound.spawn(&mut world, (0.0_f32,)), by_first.spawn(&mut world, (0_u8,)));
    /// let events = state.advance(Nanos::from_millis(120)); // physics 0, 1, AI 0, physics 2
    /// for tick in events.updates() {
    ///     bound.before_update(&mut world, &tick);
    ///     by_first.before_update(&mut world, &tick);
    /// }
    /// // The first tick was physics tick 0: the unbound tracker bound itself to physics.
    /// assert_eq!(by_first.bound_clock(), Some(physics));
    /// assert_eq!((bound.stats().updates, bound.stats().other_clock_ticks), (3, 1));
    /// assert_eq!((by_first.stats().updates, by_first.stats().other_clock_ticks), (3, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn clock(mut self, clock: ClockId) -> Self {
        self.binding = Binding::Explicit(clock);
        self
    }

    /// The clock this tracker captures on: the one given to [`clock`](Self::clock), or the
    /// one it bound itself to. While a tracker made without `.clock(id)` has been handed no
    /// tick, `ClockId(u16::MAX)`, an id no clock of any loop has (ids stop at 65,534), so
    /// that nothing reads another clock's numbers through it; ask
    /// [`bound_clock`](Self::bound_clock) to tell.
    #[must_use]
    pub fn clock_id(&self) -> ClockId {
        self.binding.clock().unwrap_or(UNBOUND)
    }

    /// The clock this tracker follows, or `None` while it is unbound (made without
    /// [`clock`](Self::clock) and handed no tick yet).
    #[must_use]
    pub fn bound_clock(&self) -> Option<ClockId> {
        self.binding.clock()
    }
}
