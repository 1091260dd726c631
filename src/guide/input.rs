//! Input that is never lost or doubled: `InputQueue` gives each input to exactly one tick.
//!
//! Input polled once per frame is lost in a frame that runs no tick and seen twice in a frame that
//! runs two (Bevy issue #6183). An `InputQueue` gives each input to exactly one tick, by time: push
//! each input with its timestamp (your clock reading or the OS event time) before the step that
//! covers it; after the step, each update drains its own inputs. Tick `k` takes the inputs whose
//! virtual time (the step's exact real→virtual mapping: pauses and time scale included) is before
//! its due time, so with catch-up it sees those of `[k·dt, (k+1)·dt)`. The attribution is the same
//! however the frames slice the timeline (a property test checks it against a model on random
//! timelines with pauses, scales and single steps); only ticks fired early (the nearest rule,
//! hysteresis) can miss inputs from the rest of their interval, which then go to the next tick.
//! Inputs in the future wait, inputs before the start count as the start, inputs pushed late go to
//! the next tick, nothing panics. This is also how a ggrs shell gets its one local input per frame:
//! fold each tick's inputs into one value.
//!
//! ```rust
//! use tickfold::{Event, InputQueue, LoopConfig, LoopState, Nanos, Period};
//!
//! // 10 Hz ticks, one frame of 250 ms: two ticks, and the press at 120 ms goes to the second.
//! let mut state = LoopState::new(LoopConfig::new(Period::from_hz(10)?), Nanos(0))?;
//! let mut queue = InputQueue::new(&state);
//! queue.push(Nanos::from_millis(30), "jump");
//! queue.push(Nanos::from_millis(120), "fire");
//! queue.push(Nanos::from_millis(270), "duck"); // after this frame's now: it waits
//! let events = state.advance(Nanos::from_millis(250));
//! queue.observe(&state); // after every step (a drain does it too)
//! let mut per_tick = Vec::new();
//! state.hand_on(&events, |event, state| {
//!     if let Event::Update(tick) = event {
//!         per_tick.push(queue.drain(&tick, state).collect::<Vec<_>>());
//!     }
//! })?;
//! assert_eq!(per_tick, [vec!["jump"], vec!["fire"]]);
//! assert_eq!(queue.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
