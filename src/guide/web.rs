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
//! state's latest time, so the first frame steps by zero. A stamp that is not a time is refused
//! with `BadStamp`; one that goes back is reported by the fold
//! ([`Event::TimeBackwards`](crate::Event::TimeBackwards)); a repeated one steps by zero. The
//! logic is plain Rust, so it is tested on the host, here on a fake 144 Hz display:
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
//! | `Pause` (default) | virtual time paused from the latest frame to the moment the page shows | `Event::Paused`, `Event::Resumed` |
//! | `Report` | virtual time runs; the first frame back is one long frame | `Event::DiscardedTime`: the ticks beyond the max frame delta, exactly |
//! | `KeepTicking` | a Worker's `setInterval` (not stopped in hidden tabs) steps the fold every 10 ms, renders off | ordinary `Event::Update`s |
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
//! let mut see = |event: &Event<Nanos>, _: &LoopState<Nanos>| seen.push(*event);
//! web.frame(0.0, &mut see)?;
//! web.frame(1_000.0, &mut see)?;
//! web.set_visible(false, 1_005.0, &mut see)?; // `visibilitychange`: hidden
//! web.set_visible(true, 601_000.0, &mut see)?; // ten minutes later
//! web.frame(601_050.0, &mut see)?;
//! assert!(seen.contains(&Event::Paused) && seen.contains(&Event::Resumed));
//! // Only the visible 1 s and 50 ms count.
//! assert_eq!(web.state().virtual_time().elapsed(), Nanos::from_millis(1_050));
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
//! # The web demo
//!
//! `examples/web/` is the balls demo in a `<canvas>`: the world of `examples/balls`
//! at 20 Hz, drawn at the display's rate between ticks with the fold's `alpha`, with a line of
//! counters (ticks, frames, drops, alpha, pauses). `?hidden=report` or `?hidden=keep` picks the
//! other rules; `?panic_at=N` makes the update panic at tick `N` (the panic hook writes it to
//! the console and the page says it stopped).
//!
//! ```sh
//! bash examples/web/build.sh                        # needs the wasm target and wasm-bindgen-cli
//! python3 -m http.server -d examples/web/www 8000   # then open http://localhost:8000/
//! ```
//!
//! The release `.wasm` is 179,732 bytes (not run through `wasm-opt`). CI (`.ci/web`) builds the
//! facade for `wasm32-unknown-unknown`, builds the demo, and `examples/web/test.mjs` opens it in
//! the system's headless Chromium with `puppeteer-core`: 20 ticks a second within 1 % over 8 s,
//! every alpha in [0, 1], no console error; each hidden rule checked from the counters after
//! 3 s behind another tab (no tick and one `Paused`/`Resumed` pair; ticks run plus dropped equal
//! the ticks due; the Worker's ticks at the full rate with no frame drawn); a resize; a panic
//! that reaches the console.
