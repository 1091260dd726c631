//! `--window` (feature `winit`): the same `Game` in a winit window, driven by
//! `tickfold::winit::App`, which runs the `Runner` from winit's `about_to_wait`, requests a
//! redraw on every `Render` and sleeps with `ControlFlow::WaitUntil` until the fold's deadline.
//!
//! The facade's `winit` feature brings winit and nothing to draw pixels with (softbuffer or
//! wgpu would be new dependencies of every example of this package; the pixel-drawing window
//! example is its own package, `tickfold-window`). So a redraw here does what the headless
//! frame does, blending all 10,000 bodies into the instance buffer a renderer would upload,
//! and shows the per-second figures in the window's title (and prints them); the window's
//! contents stay blank.

use std::time::Instant;

use tickfold::runner::{NoSleep, RealTime, Runner};
use tickfold::winit::{App, Control, Game as WinitGame};
use tickfold::{Event, LoopConfig, LoopState, Period};
use winit::event::WindowEvent;
use winit::event_loop::EventLoop;
use winit::window::{Window, WindowId};

use crate::world::{Figures, Game, Position};

/// The game, its window, and what the redraws need.
struct Windowed {
    game: Game,
    window: Option<Window>,
    buffer: Vec<Position>,
    /// The latest render's alpha, drawn on the next `RedrawRequested`.
    alpha: f64,
    figures: Figures,
    /// Stop at the first render at or after this loop time, in seconds.
    seconds: f64,
    redraws: u64,
    error: Option<String>,
}

impl Windowed {
    /// A redraw: blends the bodies at the latest render's alpha, and once a second puts the
    /// figures in the title (and prints them).
    fn draw(&mut self, state: &LoopState<Instant>) {
        self.redraws += 1;
        let drawn = self.game.render(self.alpha, &mut self.buffer);
        let (now, ticks) = (
            state.real_time().elapsed().0 as f64 * 1e-9,
            state.clock(state.alpha_clock()).unwrap().stats().ticks_run,
        );
        let (alpha, wraps) = (self.alpha, self.game.wraps);
        let line = (self.figures).render(now, ticks, alpha, &self.buffer, drawn.first, wraps);
        if let (Some(line), Some(window)) = (line, &self.window) {
            window.set_title(&format!("tickfold game: {line}"));
            println!("{line}");
        }
    }
}

impl WinitGame for Windowed {
    fn window(&self) -> Option<&Window> {
        self.window.as_ref()
    }

    fn resumed(&mut self, ctl: &mut Control<'_>) {
        if self.window.is_some() {
            return;
        }
        let attributes = Window::default_attributes().with_title("tickfold game");
        match ctl.event_loop().create_window(attributes) {
            Ok(window) => self.window = Some(window),
            Err(e) => {
                self.error = Some(e.to_string());
                ctl.exit();
            }
        }
    }

    fn event(&mut self, event: &Event<Instant>, state: &LoopState<Instant>, ctl: &mut Control<'_>) {
        match event {
            Event::Update(tick) => self.game.update(tick),
            Event::Render(frame) => {
                self.alpha = frame.alpha; // App requests the redraw
                if state.real_time().elapsed().0 as f64 * 1e-9 >= self.seconds {
                    self.draw(state); // App requests no redraw once the game exits
                    ctl.exit();
                }
            }
            _ => {}
        }
    }

    fn window_event(
        &mut self,
        _id: WindowId,
        event: WindowEvent,
        state: &mut LoopState<Instant>,
        ctl: &mut Control<'_>,
    ) {
        match event {
            WindowEvent::CloseRequested => ctl.exit(),
            WindowEvent::RedrawRequested => self.draw(state),
            _ => {}
        }
    }
}

/// Opens the window and runs `game` at `tick_hz`, rendering at `render_hz` (60 by default),
/// until `seconds` of loop time have passed or the window is closed.
pub(crate) fn run(
    game: Game,
    tick_hz: u64,
    seconds: f64,
    render_hz: Option<u64>,
) -> Result<(), Box<dyn std::error::Error>> {
    // winit's event loop does the waiting (`WaitUntil`), so the runner must not sleep, and it
    // needs a render cap (without one each redraw would wake the loop for another frame).
    let render = Period::from_hz(render_hz.unwrap_or(60))?;
    let config = LoopConfig::new(Period::from_hz(tick_hz)?).render_rate(Some(render));
    let state = LoopState::new(config, Instant::now())?;
    let windowed = Windowed {
        buffer: Vec::with_capacity(game.world.len() as usize),
        game,
        window: None,
        alpha: 0.0,
        figures: Figures::new(),
        seconds,
        redraws: 0,
        error: None,
    };
    println!(
        "a window: {tick_hz} Hz ticks, {} Hz renders, for {seconds} s",
        render.hz_f64()
    );
    let mut app = App::new(Runner::new(state, RealTime, NoSleep), windowed);
    EventLoop::new()?.run_app(&mut app)?;
    let (runner, windowed) = app.into_parts();
    if let Some(e) = windowed.error {
        return Err(e.into());
    }
    let state = runner.state();
    println!(
        "window closed: {} ticks in {:.3} s of loop time ({} expected at {tick_hz} Hz), {} redraws, {} wraps",
        state.clock(state.alpha_clock()).unwrap().stats().ticks_run,
        state.real_time().elapsed().0 as f64 * 1e-9,
        state.real_time().elapsed().0 * tick_hz / 1_000_000_000,
        windowed.redraws,
        windowed.game.wraps
    );
    Ok(())
}
