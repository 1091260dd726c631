//! The same bouncing-ball world as the terminal demo, in a real window (winit 0.30 with a
//! softbuffer surface; it builds without any system development package), through the facade's
//! `winit` feature: `tickfold::winit::App` calls `Runner::frame` on every `about_to_wait`,
//! requests a redraw when the frame rendered (none while the window is occluded) and hands the
//! fold's deadline to `ControlFlow::WaitUntil`, so the process sleeps until the next tick or
//! render slot. This file is the game: its window, updates, drawing and keys. `I` toggles
//! interpolation, `Space` pauses (virtual time stops, alpha
//! freezes), `S` cycles the time scale (1, ½, ¼, 2); the title bar shows the statistics.
//!
//! ```text
//! cargo run --release -p tickfold-window
//! cargo run --release -p tickfold-window -- --seconds 3   # closes itself after 3 s
//! ```

use std::num::NonZeroU32;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

use tickfold::runner::{NoSleep, RealTime, Runner};
use tickfold::winit::{App, Control, Game};
use tickfold::{Event, LoopConfig, LoopState, Period, TimeScale};
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::EventLoop;
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

use tickfold_balls::{self as balls, Ball, H, W, spawn, update};

/// Pixels per world cell.
const CELL: u32 = 10;
const SCALES: [(u32, u32); 4] = [(1, 1), (1, 2), (1, 4), (2, 1)];

struct Gfx {
    window: Rc<Window>,
    surface: softbuffer::Surface<Rc<Window>, Rc<Window>>,
}

struct Demo {
    world: Vec<Ball>,
    prev: Vec<Ball>,
    alpha: f32,
    interpolate: bool,
    scale: usize,
    frames: u64,
    stop_at: Option<Instant>,
    gfx: Option<Gfx>,
    error: Option<String>,
}

impl Demo {
    fn draw(&mut self, s: &LoopState<Instant>) -> Result<(), String> {
        let Some(g) = &mut self.gfx else {
            return Ok(());
        };
        let size = g.window.inner_size();
        let (Some(w), Some(h)) = (NonZeroU32::new(size.width), NonZeroU32::new(size.height)) else {
            return Ok(());
        };
        g.surface.resize(w, h).map_err(|e| e.to_string())?;
        let mut buf = g.surface.buffer_mut().map_err(|e| e.to_string())?;
        buf.fill(0x0010_1820);
        let alpha = if self.interpolate { self.alpha } else { 1.0 };
        for (p, c) in self.prev.iter().zip(&self.world) {
            let (x, y) = balls::blend(p, c, alpha);
            let (px, py) = ((x * CELL as f32) as u32, (y * CELL as f32) as u32);
            for dy in 0..4 {
                for dx in 0..4 {
                    let (xx, yy) = (px + dx, py + dy);
                    if xx < size.width && yy < size.height {
                        buf[(yy * size.width + xx) as usize] = 0x00f0_c040;
                    }
                }
            }
        }
        buf.present().map_err(|e| e.to_string())?;
        self.frames += 1;
        let (n, d) = SCALES[self.scale];
        g.window.set_title(&format!(
            "tickfold: tick {} frame {} | interpolation {} (I) | {} (Space) | scale {n}/{d} (S)",
            s.clock(s.alpha_clock()).unwrap().stats().ticks_run,
            self.frames,
            if self.interpolate { "on" } else { "off" },
            if s.virtual_time().is_paused() {
                "paused"
            } else {
                "running"
            },
        ));
        Ok(())
    }

    fn key(&mut self, key: &Key, state: &mut LoopState<Instant>) {
        match key.as_ref() {
            Key::Character("i" | "I") => self.interpolate = !self.interpolate,
            Key::Named(NamedKey::Space) => {
                let paused = state.virtual_time().is_paused();
                state.virtual_time_mut().set_paused(!paused);
            }
            Key::Character("s" | "S") => {
                self.scale = (self.scale + 1) % SCALES.len();
                let (n, d) = SCALES[self.scale];
                if let Ok(scale) = TimeScale::ratio(n, d) {
                    state.virtual_time_mut().set_scale(scale);
                }
            }
            _ => {}
        }
    }
}

impl Game for Demo {
    fn window(&self) -> Option<&Window> {
        self.gfx.as_ref().map(|g| &*g.window)
    }

    fn resumed(&mut self, ctl: &mut Control<'_>) {
        if self.gfx.is_some() {
            return;
        }
        let size = winit::dpi::PhysicalSize::new(W as u32 * CELL, H as u32 * CELL);
        let attributes = Window::default_attributes()
            .with_title("tickfold")
            .with_inner_size(size);
        let result = ctl
            .event_loop()
            .create_window(attributes)
            .map_err(|e| e.to_string())
            .and_then(|w| {
                let window = Rc::new(w);
                let context =
                    softbuffer::Context::new(window.clone()).map_err(|e| e.to_string())?;
                let surface = softbuffer::Surface::new(&context, window.clone())
                    .map_err(|e| e.to_string())?;
                Ok(Gfx { window, surface })
            });
        match result {
            Ok(g) => self.gfx = Some(g),
            Err(e) => {
                self.error = Some(e);
                ctl.exit();
            }
        }
    }

    fn event(&mut self, event: &Event<Instant>, _: &LoopState<Instant>, ctl: &mut Control<'_>) {
        match event {
            Event::Update(tick) => {
                if tick.last_in_step {
                    self.prev.copy_from_slice(&self.world);
                }
                update(&mut self.world, tick.dt.dt_secs_f32());
            }
            // The render cap gives one at 144 Hz even while paused: check the time there.
            Event::Render(r) => {
                self.alpha = r.alpha as f32;
                if self.stop_at.is_some_and(|t| Instant::now() >= t) {
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
            WindowEvent::KeyboardInput {
                event:
                    KeyEvent {
                        logical_key,
                        state: ElementState::Pressed,
                        ..
                    },
                ..
            } => self.key(&logical_key, state),
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.draw(state) {
                    self.error = Some(e);
                    ctl.exit();
                }
            }
            _ => {}
        }
    }
}

fn main() -> ExitCode {
    let mut stop_at = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match (
            flag.as_str(),
            args.next().and_then(|v| v.parse::<f64>().ok()),
        ) {
            ("--seconds", Some(s)) if s > 0.0 => {
                stop_at = Some(Instant::now() + Duration::from_secs_f64(s))
            }
            _ => {
                eprintln!("usage: window [--seconds F]");
                return ExitCode::from(2);
            }
        }
    }
    let config = match Period::from_hz(20)
        .and_then(|t| Ok(LoopConfig::new(t).render_rate(Some(Period::from_hz(144)?))))
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("window: {e}");
            return ExitCode::from(2);
        }
    };
    let Ok(state) = LoopState::new(config, Instant::now()) else {
        return ExitCode::from(2);
    };
    let world = spawn(300);
    let demo = Demo {
        prev: world.clone(),
        world,
        alpha: 0.0,
        interpolate: true,
        scale: 0,
        frames: 0,
        stop_at,
        gfx: None,
        error: None,
    };
    let mut app = App::new(Runner::new(state, RealTime, NoSleep), demo);
    let result = EventLoop::new()
        .map_err(|e| e.to_string())
        .and_then(|el| el.run_app(&mut app).map_err(|e| e.to_string()));
    let (runner, demo) = app.into_parts();
    match result.err().or(demo.error) {
        None => {
            let s = runner.state();
            println!(
                "window closed: {} ticks, {} frames drawn, {} dropped",
                s.clock(s.alpha_clock()).unwrap().stats().ticks_run,
                demo.frames,
                s.clock(s.alpha_clock()).unwrap().stats().ticks_dropped
            );
            ExitCode::SUCCESS
        }
        Some(e) => {
            eprintln!("window: {e}");
            ExitCode::FAILURE
        }
    }
}
