//! winit 0.30 integration (feature `winit`): winit's event loop drives a [`Runner`].
//!
//! Write the game as a [`Game`] (create the window in [`Game::resumed`], run updates and take
//! the render's `alpha` in [`Game::event`], draw on `WindowEvent::RedrawRequested` in
//! [`Game::window_event`]) and hand it with a runner to [`App`], winit's `ApplicationHandler`:
//!
//! ```no_run
//! use std::time::Instant;
//! use tickfold::runner::{NoSleep, RealTime, Runner};
//! use tickfold::winit::{App, Control, Game};
//! use tickfold::{Event, Interpolate, LoopConfig, LoopState, Period};
//! use winit::event::WindowEvent;
//! use winit::event_loop::EventLoop;
//! use winit::window::{Window, WindowId};
//!
//! #[derive(Default)]
//! struct Ball {
//!     window: Option<Window>,
//!     previous: f64,
//!     height: f64,
//!     alpha: f64,
//! }
//!
//! impl Game for Ball {
//!     fn window(&self) -> Option<&Window> {
//!         self.window.as_ref()
//!     }
//!
//!     fn resumed(&mut self, ctl: &mut Control<'_>) {
//!         if self.window.is_none() {
//!             match ctl.event_loop().create_window(Window::default_attributes()) {
//!                 Ok(window) => self.window = Some(window),
//!                 Err(_) => ctl.exit(),
//!             }
//!         }
//!     }
//!
//!     fn event(&mut self, event: &Event<Instant>, state: &LoopState<Instant>, ctl: &mut Control<'_>) {
//!         match event {
//!             Event::Update(tick) => {
//!                 (self.previous, self.height) = (self.height, self.height + tick.dt_secs());
//!                 if state.clock("main").map_or(0, |c| c.stats().ticks_run) == 600 {
//!                     ctl.exit(); // ten seconds at 60 Hz
//!                 }
//!             }
//!             Event::Render(render) => self.alpha = render.alpha, // App requests the redraw
//!             _ => {}
//!         }
//!     }
//!
//!     fn window_event(
//!         &mut self,
//!         _id: WindowId,
//!         event: WindowEvent,
//!         _state: &mut LoopState<Instant>,
//!         ctl: &mut Control<'_>,
//!     ) {
//!         match event {
//!             WindowEvent::CloseRequested => ctl.exit(),
//!             WindowEvent::RedrawRequested => {
//!                 let _y = self.previous.interpolate(&self.height, self.alpha);
//!                 // draw the ball at `_y` (softbuffer, wgpu, ...)
//!             }
//!             _ => {}
//!         }
//!     }
//! }
//!
//! let config = LoopConfig::new(Period::from_hz(60)?).render_rate(Some(Period::from_hz(144)?));
//! let runner = Runner::new(LoopState::new(config, Instant::now())?, RealTime, NoSleep);
//! let mut app = App::new(runner, Ball::default());
//! EventLoop::new()?.run_app(&mut app)?;
//! println!("{} ticks, {} redraws", app.runner().state().clock("main").map_or(0, |c| c.stats().ticks_run), app.redraws_requested());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! On every `about_to_wait`, [`App`] calls [`Runner::frame`], handing each of the fold's events
//! to [`Game::event`]; if the frame rendered it calls `request_redraw` on [`Game::window`]; then
//! it sets `ControlFlow::WaitUntil` to the deadline the frame returned (`ControlFlow::Wait` when
//! nothing is due by time alone, e.g. paused without a render cap), so the process sleeps until
//! the next tick or render slot, or until input. Give the loop a render cap
//! ([`LoopConfig::render_rate`](crate::LoopConfig::render_rate)): without one every frame
//! renders, and each redraw wakes the loop for another frame, as fast as the surface presents.
//! Use [`NoSleep`]: the event loop does the waiting, and a sleeper
//! would block it inside `frame`. With a render cap the frames come at the fold's deadlines,
//! and the runner does not smooth their times; without one (every frame redrawn, paced by a
//! vsync'd present) it smooths them by default, see
//! [`Runner::with_smoothing`](crate::runner::Runner::with_smoothing).
//!
//! **Occlusion.** On `WindowEvent::Occluded(true)` for the game's window (covered, minimised or
//! on another workspace, as the platform reports it) [`App`] stops requesting redraws; the
//! ticks go on at their deadlines, and `WaitUntil` keeps the loop asleep between them (it never
//! spins). On `Occluded(false)` it requests one redraw at once and resumes. The game sees both
//! events too, and can pause the loop itself if it should not run hidden.
//!
//! **Exit.** [`Control::exit`], from any of the game's handlers, ends the event loop: `App` steps
//! no further frame (the events of the current one are still handed on), and
//! `run_app` returns. [`App::exit_requested`] tells afterwards whether the game asked.
//!
//! The application depends on winit 0.30 itself, for its types (this feature builds winit with
//! its `x11` backend only; the application's dependency, with winit's default features, adds
//! Wayland). The window example, `cargo run --release -p tickfold-window`, is written this way.

use std::time::Instant;

use ::winit::application::ApplicationHandler;
use ::winit::event::WindowEvent;
use ::winit::event_loop::{ActiveEventLoop, ControlFlow};
use ::winit::window::{Window, WindowId};
use tickfold_core::{Event, LoopState};

use crate::runner::{NoSleep, RealTime, Runner, Sleeper, TimeSource};

/// A game driven by [`App`]: its window, its fixed updates and renders, its window events.
pub trait Game {
    /// The window whose redraws [`App`] requests on every render, and whose occlusion stops
    /// them. `None` until [`resumed`](Game::resumed) has created it.
    fn window(&self) -> Option<&Window>;

    /// winit's `resumed`: create the window here (winit 0.30 creates windows only once the
    /// event loop runs). It may be called again after `suspended` (Android).
    fn resumed(&mut self, ctl: &mut Control<'_>);

    /// Each event of the fold, in order: run fixed updates on [`Event::Update`], keep
    /// [`Event::Render`]'s `alpha` for the next `RedrawRequested` (App requests the redraw after
    /// the frame, unless the window is occluded). For an update, `state` reads as of that
    /// tick (its virtual time, every clock's latest tick and counts at the tick's place in
    /// the total order, see [`LoopState::as_of`]), as the runner hands it; for the other
    /// events, at the end of the step.
    fn event(&mut self, event: &Event<Instant>, state: &LoopState<Instant>, ctl: &mut Control<'_>);

    /// A window event: draw on `RedrawRequested`, read input, exit on `CloseRequested` if the
    /// game wants to. `state` is the loop's, to pause it or change its time scale.
    /// `Occluded` comes here too, after App has noted it.
    fn window_event(
        &mut self,
        id: WindowId,
        event: WindowEvent,
        state: &mut LoopState<Instant>,
        ctl: &mut Control<'_>,
    );

    /// winit's `suspended` (Android, iOS): drop surfaces here. Nothing by default.
    fn suspended(&mut self, ctl: &mut Control<'_>) {
        let _ = ctl;
    }
}

/// What App keeps besides the runner and the game.
#[derive(Copy, Clone, Debug, Default)]
struct Shell {
    exit: bool,
    occluded: bool,
    redraws: u64,
    frames: u64,
}

/// Handed to the game's handlers: the active event loop (to create windows), exit, occlusion.
#[derive(Debug)]
pub struct Control<'a> {
    event_loop: &'a ActiveEventLoop,
    shell: &'a mut Shell,
}

impl<'a> Control<'a> {
    /// Ends the event loop: [`App`] steps no further frame, and `run_app` returns once winit
    /// has finished its current iteration.
    pub fn exit(&mut self) {
        self.shell.exit = true;
        self.event_loop.exit();
    }

    /// Whether the game (or anything else) asked the event loop to exit.
    pub fn is_exiting(&self) -> bool {
        self.shell.exit || self.event_loop.exiting()
    }

    /// Whether the game's window is occluded (App requests no redraws meanwhile).
    pub fn is_occluded(&self) -> bool {
        self.shell.occluded
    }

    /// How many redraws [`App`] has requested so far ([`App::redraws_requested`]).
    pub fn redraws_requested(&self) -> u64 {
        self.shell.redraws
    }

    /// How many frames [`App`] has run so far ([`App::frames`]; the current one not counted).
    pub fn frames(&self) -> u64 {
        self.shell.frames
    }

    /// The active event loop, e.g. to create windows.
    pub fn event_loop(&self) -> &'a ActiveEventLoop {
        self.event_loop
    }
}

/// winit's `ApplicationHandler` for a [`Game`]: runs the [`Runner`] from `about_to_wait` and
/// sleeps until its deadline with `ControlFlow::WaitUntil` (see the [module](self) docs).
#[derive(Debug)]
pub struct App<G, C = RealTime, S = NoSleep> {
    runner: Runner<Instant, C, S>,
    game: G,
    shell: Shell,
}

impl<G: Game, C: TimeSource<Instant>, S: Sleeper<Instant>> App<G, C, S> {
    /// An application that drives `game` with `runner`; pass it to `EventLoop::run_app`.
    pub fn new(runner: Runner<Instant, C, S>, game: G) -> App<G, C, S> {
        App {
            runner,
            game,
            shell: Shell::default(),
        }
    }

    /// The runner, for the loop's state and statistics.
    pub fn runner(&self) -> &Runner<Instant, C, S> {
        &self.runner
    }

    /// The runner, to change the loop between runs.
    pub fn runner_mut(&mut self) -> &mut Runner<Instant, C, S> {
        &mut self.runner
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The game, mutably.
    pub fn game_mut(&mut self) -> &mut G {
        &mut self.game
    }

    /// Gives back the runner and the game.
    pub fn into_parts(self) -> (Runner<Instant, C, S>, G) {
        (self.runner, self.game)
    }

    /// Whether the game called [`Control::exit`].
    pub fn exit_requested(&self) -> bool {
        self.shell.exit
    }

    /// Whether the game's window is occluded (the latest `WindowEvent::Occluded` said so).
    pub fn is_occluded(&self) -> bool {
        self.shell.occluded
    }

    /// How many redraws App has requested of the game's window.
    pub fn redraws_requested(&self) -> u64 {
        self.shell.redraws
    }

    /// How many frames ([`Runner::frame`] calls) App has run: one per wake-up of the loop.
    pub fn frames(&self) -> u64 {
        self.shell.frames
    }

    fn request_redraw(&mut self) {
        if let Some(window) = self.game.window() {
            window.request_redraw();
            self.shell.redraws += 1;
        }
    }
}

impl<G: Game, C: TimeSource<Instant>, S: Sleeper<Instant>> ApplicationHandler for App<G, C, S> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        let mut ctl = Control {
            event_loop,
            shell: &mut self.shell,
        };
        self.game.resumed(&mut ctl);
    }

    fn suspended(&mut self, event_loop: &ActiveEventLoop) {
        let mut ctl = Control {
            event_loop,
            shell: &mut self.shell,
        };
        self.game.suspended(&mut ctl);
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, id: WindowId, event: WindowEvent) {
        if let WindowEvent::Occluded(occluded) = event {
            if self.game.window().is_some_and(|w| w.id() == id) {
                let was = std::mem::replace(&mut self.shell.occluded, occluded);
                if was && !occluded && !self.shell.exit {
                    self.request_redraw();
                }
            }
        }
        let mut ctl = Control {
            event_loop,
            shell: &mut self.shell,
        };
        self.game
            .window_event(id, event, self.runner.state_mut(), &mut ctl);
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.shell.exit || event_loop.exiting() {
            return;
        }
        let mut rendered = false;
        let deadline = {
            let game = &mut self.game;
            let mut ctl = Control {
                event_loop,
                shell: &mut self.shell,
            };
            self.runner.frame(|event, state| {
                rendered |= matches!(event, Event::Render(_));
                game.event(event, state, &mut ctl);
            })
        };
        self.shell.frames += 1;
        if self.shell.exit {
            return;
        }
        if rendered && !self.shell.occluded {
            self.request_redraw();
        }
        event_loop.set_control_flow(match deadline {
            Some(at) => ControlFlow::WaitUntil(at),
            None => ControlFlow::Wait,
        });
    }
}
