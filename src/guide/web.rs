//! The loop in a browser: `tickfold::web` (feature `web`), hidden tabs, the web demo.
//!
//! A browser's main thread must never sleep or block, and `std::time::Instant::now()` panics
//! on `wasm32-unknown-unknown` ("time not implemented on this platform"). The browser paces the
//! frames itself: `requestAnimationFrame` calls the page once per display refresh with a
//! stamp, the time the frame began. `tickfold::web::WebLoop` steps the
//! fold at each stamp and hands the events to your code as the runner does; on `wasm32`,
//! `tickfold::web::start` wires it to `requestAnimationFrame`,
//! `visibilitychange` and (for one mode) a Worker.
//!
//! With the default features on `wasm32-unknown-unknown` nothing panics: `runner::RealNanos`
//! reads `web-time`'s `Instant` (`performance.now()`), and the time source and sleepers that
//! would panic there (`RealTime`, `SpinSleep`, `ThreadSleep`) are left out, so using one is a
//! compile error.
//!
//! # Stamps
//!
//! The loop runs as a `LoopState<Nanos>`: each stamp (milliseconds as an `f64`) becomes whole
//! nanoseconds (`stamp_to_nanos`), and the first stamp is the
//! state's latest time, so the first frame steps by zero. On the web the frames are
//! `requestAnimationFrame`'s, and so is the time axis: the shell feeds the fold the frames'
//! stamps (and, while a hidden page keeps ticking, the Worker's beats, never ahead of the next
//! frame), never a listener's `performance.now()`, which can run up to a frame ahead of the
//! next frame's stamp. A stamp that is not a time, or too far for a `u64` of nanoseconds, is
//! refused with `BadStamp`; one that goes back is reported once by the fold
//! ([`Event::TimeBackwards`](crate::Event::TimeBackwards)) and the page's axis is anchored
//! again there, so one bogus stamp an hour ahead costs one frame, not an hour of frozen frames;
//! a repeated one steps by zero. The logic is plain Rust, so it is tested on the host, here on
//! a fake 144 Hz display:
//!
//! ```
//! # #[cfg(feature = "web")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use tickfold::web::{Hidden, WebLoop};
//! use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
//!
//! let state = LoopState::new(LoopConfig::new(Period::from_hz(20)?), Nanos(0))?;
//! let mut web = WebLoop::new(state, Hidden::default())?;
//! let mut ticks = 0;
//! for frame in 0..=144 {
//!     web.frame(3_000.0 + f64::from(frame) * 1000.0 / 144.0, |event, _state| {
//!         if let Event::Update(_) = event {
//!             ticks += 1;
//!         }
//!     })?;
//! }
//! assert_eq!(ticks, 20);
//! assert!(web.frame(f64::NAN, |_, _| {}).is_err()); // refused, not stepped
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "web"))]
//! # fn main() {}
//! ```
//!
//! # Hidden tabs
//!
//! Browsers stop `requestAnimationFrame` in a hidden tab, so the first frame back can come
//! minutes later. One setting, `Hidden`, says what that gap is:
//!
//! | mode | while hidden | reported as |
//! |---|---|---|
//! | `Pause` (default) | virtual time paused from the latest frame to the first frame back | `Event::Paused` when the page hides, `Event::Resumed` with the first frame back |
//! | `Report` | virtual time runs; the first frame back is one long frame | `Event::DiscardedTime`: the ticks beyond the max frame delta, exactly |
//! | `KeepTicking` | a Worker's `setInterval` (not stopped in hidden tabs) steps the fold every 10 ms, renders off; the Worker beats only while the page is hidden | ordinary `Event::Update`s |
//!
//! `Pause` is the default because it is what the browser does with the page's own animations
//! and what a Bevy game does in effect (its 250 ms max delta throws the hidden time away),
//! here with events. `KeepTicking` is for networked games, whose peers do not wait; in headless
//! Chromium it kept the 20 Hz demo at 19.97 ticks a second while hidden.
//!
//! ```
//! # #[cfg(feature = "web")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use tickfold::web::{Hidden, WebLoop};
//! use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
//!
//! let state = LoopState::new(LoopConfig::new(Period::from_hz(20)?), Nanos(0))?;
//! let mut web = WebLoop::new(state, Hidden::Pause)?;
//! let mut seen = Vec::new();
//! web.frame(0.0, |_, _| {})?;
//! web.frame(1_000.0, |_, _| {})?;
//! web.set_visible(false, |event, _| seen.push(*event)); // `visibilitychange`: hidden
//! assert_eq!(seen, [Event::Paused]); // now, to mute the sound
//! web.set_visible(true, |_, _| {}); // ten minutes later
//! seen.clear();
//! web.frame(601_000.0, |event, _| seen.push(*event))?; // the first frame back
//! assert!(seen.contains(&Event::Resumed)); // resumes, and draws:
//! assert!(seen.iter().any(|event| matches!(event, Event::Render(_))));
//! web.frame(601_050.0, |_, _| {})?;
//! // Only the visible 1 s and 50 ms count (and the 1 ns the first frame back steps).
//! assert_eq!(web.state().virtual_time().elapsed(), Nanos(1_050_000_001));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "web"))]
//! # fn main() {}
//! ```
//!
//! # Handlers and smoothed stamps
//!
//! Each update's handler gets the state *as of its tick* (its clock's latest tick, the virtual
//! time, the other clocks' ticks before it), as the runner's do: `WebLoop` hands the events on
//! through [`LoopState::hand_on`](crate::LoopState::hand_on). `requestAnimationFrame` stamps
//! jitter around the display's refresh and are coarsened to 100 µs without cross-origin
//! isolation, so at matched rates (60 Hz ticks, a 60 Hz display) raw stamps make frames of 0
//! and 2 updates. So by default `WebLoop` passes every stamp through a
//! [`DeltaSmoother`](crate::DeltaSmoother) (Godot's delta smoothing, which Godot also ships
//! on): frames step by whole refresh intervals, the loop's time stays within the smoother's
//! bound (4 ms) of the page's and never goes back, and a hidden tab's gap passes through
//! whole. `WebLoop::with_smoothing(None)` turns it off. The figures are in `BENCHMARKS.md`
//! ("Defaults against defaults": 4 irregular frames of 36,000 at 60 Hz, all in the first 2 s,
//! against 5,872 unsmoothed).
//!
//! # Controlling the loop after `start`
//!
//! `start` takes the `WebLoop` and gives back a `WebHandle` (wasm32), the web's form of what the
//! runner gives a native game: keep a clone in your input handlers, and the event handler gets
//! one with every event (its third argument). `handle.with(|web| ...)` reaches the `WebLoop`
//! between frames (pause for a menu, `set_scale`, `add_clock`, `set_hidden`, save the state);
//! from inside the handler, `handle.after_step(|web| ...)` does the same right after the step's
//! last event (refuse a tick for rollback); `handle.exit()` stops the loop, as the runner's
//! `Control::exit` does. A panic stops the loop once: the console shows the panic's message and
//! nothing after it. The web demo's keys use the handle (below).
//!
//! # The web demo
//!
//! `examples/web/` is the balls demo in a `<canvas>`: the world of `examples/balls`
//! at 20 Hz, drawn at the display's rate between ticks with the fold's `alpha`, with a line of
//! counters (ticks, frames, drops, alpha, pauses). `?hidden=report` or `?hidden=keep` picks the
//! other rules; `?panic_at=N` makes the update panic at tick `N` (the panic hook writes it to
//! the console and the page says it stopped); `?refuse_at=N` refuses tick `N` once from the
//! handler; `?hz=60` sets the tick rate. Keys drive the handle: `p` pause, `f` double speed,
//! `a` add a 5 Hz clock, `k` keep ticking when hidden, `x` stop.
//!
//! ```sh
//! bash examples/web/build.sh                        # needs the wasm target and wasm-bindgen-cli
//! python3 -m http.server -d examples/web/www 8000   # then open http://localhost:8000/
//! ```
//!
//! `build.sh` prints the size of the release `.wasm` it built (not run through `wasm-opt`), and
//! CI's log shows it for each commit. CI (`.ci/web`) builds the
//! facade for `wasm32-unknown-unknown`, builds the demo, and `examples/web/test.mjs` opens it in
//! the system's headless Chromium with `puppeteer-core`, with a probe in the page that sees
//! every `requestAnimationFrame` callback and every Worker message: 20 ticks a second within
//! 1 % over 8 s, every alpha in [0, 1], no console error; each hidden rule checked from the
//! counters after 3 s behind another tab (one `Paused` while hidden, then `Resumed`; ticks run
//! plus dropped equal the ticks due; the Worker's ticks at the full rate with no frame drawn,
//! and no Worker message while visible); the first frame after each of 8 real tab switches per
//! rule draws and is no `TimeBackwards`; a panic (also one while hidden under `KeepTicking`) is
//! one message and nothing after it; a stamp an hour ahead costs one frame; the handle (a tick
//! refused, pause, time scale, a clock added, the hidden rule switched, exit); a resize.
