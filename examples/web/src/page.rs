//! The page: canvas, counters, the loop.

use std::cell::Cell;
use std::rc::Rc;
use tickfold::web::{Hidden, WebHandle, WebLoop};
use tickfold::{
    ClockConfig, DeltaSmoother, Event, LoopConfig, LoopState, Nanos, Period, TimeScale,
};

use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement, KeyboardEvent};

use tickfold_balls::{self as balls, Ball, H, W};

/// The tick rate, unless the query gives one (`?hz=60`).
const TICK_HZ: u64 = 20;
/// How many balls.
const BALLS: usize = 300;

/// What the counters line shows.
#[derive(Default)]
struct Counters {
    ticks: u64,
    frames: u64,
    drops: u64,
    alpha: f64,
    alpha_min: f64,
    alpha_max: f64,
    paused: u64,
    resumed: u64,
    backwards: u64,
    /// Ticks run while the page was hidden (the keep-alive timer's).
    hidden_ticks: u64,
    /// Updates of the "ai" clock (added with the `a` key).
    ai_ticks: u64,
    /// Ticks the handler refused (`?refuse_at`).
    refused: u64,
    /// What `WebHandle::with` said from inside the handler (it must refuse: the loop is in a
    /// step).
    with_in_step: String,
}

struct Game {
    prev: Vec<Ball>,
    cur: Vec<Ball>,
    canvas: HtmlCanvasElement,
    ctx: CanvasRenderingContext2d,
    line: Element,
    counters: Counters,
    panic_at: Option<u64>,
    /// Refuse the main clock's tick of this number once, from the handler (`?refuse_at`), as a
    /// rollback session that was not ready would.
    refuse_at: Option<u64>,
}

impl Game {
    fn on_event(&mut self, event: &Event<Nanos>, state: &LoopState<Nanos>, handle: &WebHandle) {
        let c = &mut self.counters;
        match event {
            Event::Update(tick) => {
                if self.panic_at == Some(c.ticks) {
                    panic!("the game's update panicked at tick {} (?panic_at)", c.ticks);
                }
                if state.clock("ai").is_ok_and(|ai| ai.id() == tick.clock) {
                    c.ai_ticks += 1;
                } else if self.refuse_at == Some(tick.index) {
                    // Not ready for this tick: refused right after the step, it runs again.
                    self.refuse_at = None;
                    c.refused += 1;
                    c.with_in_step = format!("{:?}", handle.with(|_| ()));
                    let (clock, index) = (tick.clock, tick.index);
                    let asked = handle.after_step(move |web| {
                        if let Err(e) = web.state_mut().refuse(clock, index) {
                            web_sys::console::error_1(&format!("refuse: {e}").into());
                        }
                    });
                    if let Err(e) = asked {
                        web_sys::console::error_1(&e.to_string().into());
                    }
                }
                self.prev.copy_from_slice(&self.cur);
                balls::update(&mut self.cur, tick.dt_secs() as f32);
                c.ticks += 1;
                if web_sys::window()
                    .and_then(|w| w.document())
                    .is_some_and(|d| d.hidden())
                {
                    c.hidden_ticks += 1;
                    self.show(state, handle); // no render while hidden: keep the counters current
                }
            }
            Event::Render(r) => {
                c.frames += 1;
                c.alpha = r.alpha;
                if c.frames == 1 {
                    (c.alpha_min, c.alpha_max) = (r.alpha, r.alpha);
                }
                c.alpha_min = c.alpha_min.min(r.alpha);
                c.alpha_max = c.alpha_max.max(r.alpha);
                self.draw(r.alpha as f32);
                self.show(state, handle);
            }
            Event::DiscardedTime { ticks, .. } | Event::DroppedTicks { count: ticks, .. } => {
                c.drops += ticks;
            }
            Event::Paused => c.paused += 1,
            Event::Resumed => c.resumed += 1,
            Event::TimeBackwards { .. } => c.backwards += 1,
            _ => {}
        }
        if !matches!(event, Event::Render(_) | Event::Update(_)) {
            self.show(state, handle);
        }
    }

    /// Draws the balls at `alpha`, scaled to the canvas (which follows the page's size).
    fn draw(&self, alpha: f32) {
        let (cw, ch) = (self.canvas.client_width(), self.canvas.client_height());
        if cw > 0 && (self.canvas.width() != cw as u32 || self.canvas.height() != ch as u32) {
            self.canvas.set_width(cw as u32); // a page resize: draw at the new size
            self.canvas.set_height(ch as u32);
        }
        let (w, h) = (
            f64::from(self.canvas.width()),
            f64::from(self.canvas.height()),
        );
        self.ctx.set_fill_style_str("#111");
        self.ctx.fill_rect(0.0, 0.0, w, h);
        self.ctx.set_fill_style_str("#6cf");
        let (sx, sy) = (w / W as f64, h / H as f64);
        for (p, c) in self.prev.iter().zip(&self.cur) {
            let (x, y) = balls::blend(p, c, alpha);
            self.ctx
                .fill_rect(f64::from(x) * sx, f64::from(y) * sy, 4.0, 4.0);
        }
    }

    /// Writes the counters line (text and `data-*` attributes for the test).
    fn show(&self, state: &LoopState<Nanos>, handle: &WebHandle) {
        let c = &self.counters;
        let main = state.clock("main").map(|clock| clock.stats()).ok();
        let real_ms = state.real_time().elapsed().0 as f64 / 1e6;
        self.line.set_text_content(Some(&format!(
            "ticks {} · frames {} · drops {} · alpha {:.2} · paused {} · resumed {}",
            c.ticks, c.frames, c.drops, c.alpha, c.paused, c.resumed
        )));
        let attrs = [
            ("data-ticks", c.ticks.to_string()),
            ("data-frames", c.frames.to_string()),
            ("data-drops", c.drops.to_string()),
            ("data-alpha-min", c.alpha_min.to_string()),
            ("data-alpha-max", c.alpha_max.to_string()),
            ("data-paused", c.paused.to_string()),
            ("data-resumed", c.resumed.to_string()),
            ("data-backwards", c.backwards.to_string()),
            ("data-hidden-ticks", c.hidden_ticks.to_string()),
            ("data-ai-ticks", c.ai_ticks.to_string()),
            ("data-refused", c.refused.to_string()),
            ("data-with-in-step", c.with_in_step.clone()),
            (
                "data-ticks-run",
                main.as_ref().map_or(0, |m| m.ticks_run).to_string(),
            ),
            (
                "data-ticks-refused",
                main.as_ref().map_or(0, |m| m.ticks_refused).to_string(),
            ),
            ("data-running", handle.is_running().to_string()),
            ("data-real-ms", real_ms.to_string()),
            (
                "data-virtual-ms",
                (state.virtual_time().elapsed().0 as f64 / 1e6).to_string(),
            ),
        ];
        for (name, value) in attrs {
            let _ = self.line.set_attribute(name, &value);
        }
    }
}

/// A panic in the game goes to the console as an error (the test fails on it) and onto the
/// page, instead of a silent stop.
fn panic_to_console() {
    std::panic::set_hook(Box::new(|info| {
        let message = format!("panicked: {info}");
        web_sys::console::error_1(&message.clone().into());
        if let Some(line) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("counters"))
        {
            line.set_text_content(Some(&message));
            let _ = line.set_attribute("data-panicked", "true");
        }
    }));
}

#[wasm_bindgen(start)]
fn main() -> Result<(), JsValue> {
    panic_to_console();
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let query = web_sys::UrlSearchParams::new_with_str(&window.location().search()?)?;
    let hidden = match query.get("hidden").as_deref() {
        None | Some("pause") => Hidden::Pause,
        Some("report") => Hidden::Report,
        Some("keep") => Hidden::KeepTicking,
        Some(other) => return Err(format!("?hidden={other}: pause, report or keep").into()),
    };
    let panic_at = query.get("panic_at").and_then(|n| n.parse().ok());
    let refuse_at = query.get("refuse_at").and_then(|n| n.parse().ok());
    let hz = query
        .get("hz")
        .and_then(|n| n.parse().ok())
        .unwrap_or(TICK_HZ);
    let canvas: HtmlCanvasElement = document
        .get_element_by_id("balls")
        .ok_or("no #balls canvas")?
        .dyn_into()?;
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")?
        .ok_or("no 2d context")?
        .dyn_into()?;
    let line = document
        .get_element_by_id("counters")
        .ok_or("no #counters")?;
    line.set_attribute("data-hidden-mode", &format!("{hidden:?}"))?;
    line.set_attribute("data-tick-hz", &hz.to_string())?;
    // The runner's clock works in the browser too (it read `std::time::Instant` and panicked).
    let runner_clock = tickfold::runner::RealNanos::new();
    line.set_attribute("data-runner-clock", &runner_clock.now().0.to_string())?;

    let start = balls::spawn(BALLS);
    let mut game = Game {
        prev: start.clone(),
        cur: start,
        canvas,
        ctx,
        line: line.clone(),
        counters: Counters::default(),
        panic_at,
        refuse_at,
    };
    let period = Period::from_hz(hz).map_err(|e| e.to_string())?;
    let state = LoopState::new(LoopConfig::new(period), Nanos(0)).map_err(|e| e.to_string())?;
    let mut web = WebLoop::new(state, hidden).map_err(|e| e.to_string())?;
    // `?smooth=on` or `off` sets frame-delta smoothing; without it the shell's default holds.
    if let Some(smooth) = query.get("smooth") {
        web = web.with_smoothing((smooth == "on").then(DeltaSmoother::new));
    }
    let handle = tickfold::web::start(web, move |event, state, handle| {
        game.on_event(event, state, handle);
    })?;
    keys(&window, handle, line)
}

/// The game's keys, through the loop's handle: `p` pauses or resumes (a menu), `f` runs the
/// game at twice the speed, `a` adds a 5 Hz "ai" clock, `k` keeps ticking in hidden tabs from
/// now on, `x` stops the loop.
fn keys(window: &web_sys::Window, handle: WebHandle, line: Element) -> Result<(), JsValue> {
    let on_key = Closure::<dyn FnMut(KeyboardEvent)>::new(move |key: KeyboardEvent| {
        let done = match key.key().as_str() {
            "p" => handle.with(|web| {
                let paused = web.state().virtual_time().is_paused();
                web.state_mut().virtual_time_mut().set_paused(!paused);
                Ok(())
            }),
            "f" => handle.with(|web| {
                let twice = TimeScale::ratio(2, 1).map_err(|e| e.to_string())?;
                web.state_mut().virtual_time_mut().set_scale(twice);
                Ok(())
            }),
            "a" => handle.with(|web| {
                let ai = ClockConfig::new("ai", Period::from_hz(5).map_err(|e| e.to_string())?);
                web.state_mut()
                    .add_clock(ai, None)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }),
            "k" => handle.with(|web| {
                web.set_hidden(Hidden::KeepTicking)
                    .map_err(|e| e.to_string())
            }),
            "n" => {
                // A `with` inside a `with` is refused; `after_step` inside one runs when it ends.
                let (inner, ran) = (handle.clone(), Rc::new(Cell::new(false)));
                let flag = Rc::clone(&ran);
                let nested = handle.with(|_| {
                    let asked = inner.after_step(move |_| flag.set(true));
                    (inner.with(|_| ()), asked, ran.get())
                });
                let _ = line.set_attribute("data-nested", &format!("{nested:?} {}", ran.get()));
                Ok(Ok(()))
            }
            "x" => {
                handle.exit();
                let _ = line.set_attribute("data-running", &handle.is_running().to_string());
                Ok(Ok(()))
            }
            _ => Ok(Ok(())),
        };
        match done {
            Ok(Ok(())) => {}
            Ok(Err(e)) => web_sys::console::error_1(&e.into()),
            Err(e) => web_sys::console::error_1(&e.to_string().into()),
        }
    });
    window.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
    // The keys work as long as the page lives.
    on_key.forget();
    Ok(())
}
