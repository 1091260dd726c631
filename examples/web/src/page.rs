//! The page: canvas, counters, the loop.

use tickfold::web::{Hidden, WebLoop};
use tickfold::{Event, LoopConfig, LoopState, Nanos, Period};
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement};

use tickfold_balls::{self as balls, Ball, H, W};

/// The tick rate.
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
}

struct Game {
    prev: Vec<Ball>,
    cur: Vec<Ball>,
    canvas: HtmlCanvasElement,
    ctx: CanvasRenderingContext2d,
    line: Element,
    counters: Counters,
    panic_at: Option<u64>,
}

impl Game {
    fn on_event(&mut self, event: &Event<Nanos>, state: &LoopState<Nanos>) {
        let c = &mut self.counters;
        match event {
            Event::Update(tick) => {
                if self.panic_at == Some(c.ticks) {
                    panic!("the game's update panicked at tick {} (?panic_at)", c.ticks);
                }
                self.prev.copy_from_slice(&self.cur);
                balls::update(&mut self.cur, tick.dt_secs() as f32);
                c.ticks += 1;
                if web_sys::window()
                    .and_then(|w| w.document())
                    .is_some_and(|d| d.hidden())
                {
                    c.hidden_ticks += 1;
                    self.show(state); // no render while hidden: keep the counters current
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
                self.show(state);
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
            self.show(state);
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
    fn show(&self, state: &LoopState<Nanos>) {
        let c = &self.counters;
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
    // The runner's clock works in the browser too (it read `std::time::Instant` and panicked).
    let runner_clock = tickfold::runner::RealNanos::new();
    line.set_attribute("data-runner-clock", &runner_clock.now().0.to_string())?;

    let start = balls::spawn(BALLS);
    let mut game = Game {
        prev: start.clone(),
        cur: start,
        canvas,
        ctx,
        line,
        counters: Counters::default(),
        panic_at,
    };
    let period = Period::from_hz(TICK_HZ).map_err(|e| e.to_string())?;
    let state = LoopState::new(LoopConfig::new(period), Nanos(0)).map_err(|e| e.to_string())?;
    let web = WebLoop::new(state, hidden).map_err(|e| e.to_string())?;
    tickfold::web::start(web, move |event, state| game.on_event(event, state))
}
