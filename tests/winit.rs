//! `tickfold::winit` in a real window on an X display (CI: `.ci/winit` starts Xvfb): the loop
//! ticks on the real clock at the fold's count, requests redraws at the render cap, sleeps
//! between deadlines instead of spinning, requests none while the window is covered by another
//! one and resumes when it is uncovered, and ends through `Control::exit`.
//!
//! winit's event loop must run on the main thread and can be created once per process, so this
//! is a `harness = false` test: `main` runs each case on one X11 event loop
//! (`run_app_on_demand`) and prints `N passed, M failed`.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use tickfold::runner::{NoSleep, RealTime, Runner};
use tickfold::winit::{App, Control, Game};
use tickfold::{Event, LoopConfig, LoopState, Period};
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::WindowEvent;
use winit::event_loop::EventLoop;
use winit::platform::run_on_demand::EventLoopExtRunOnDemand;
use winit::platform::x11::EventLoopBuilderExtX11;
use winit::window::{Window, WindowId};

/// 60 Hz ticks and a 60 Hz render cap.
const HZ: u64 = 60;

type Check = Result<(), String>;
type Case = fn(&mut EventLoop<()>) -> Check;

fn ensure(ok: bool, what: impl FnOnce() -> String) -> Check {
    if ok { Ok(()) } else { Err(what()) }
}

fn app<G: Game>(game: G) -> App<G> {
    let config = LoopConfig::new(Period::from_hz(HZ).unwrap())
        .render_rate(Some(Period::from_hz(HZ).unwrap()));
    let state = LoopState::new(config, Instant::now()).unwrap();
    App::new(Runner::new(state, RealTime, NoSleep), game)
}

fn open(ctl: &Control<'_>, size: u32) -> Window {
    let attributes = Window::default_attributes()
        .with_title("tickfold winit test")
        .with_position(PhysicalPosition::new(0, 0))
        .with_inner_size(PhysicalSize::new(size, size));
    ctl.event_loop()
        .create_window(attributes)
        .expect("create a window")
}

/// Counts what the loop hands it and exits after `run_for` of real time.
struct Pacing {
    run_for: Duration,
    start: Instant,
    window: Option<Window>,
    updates: u64,
    renders: u64,
    redraws_received: u64,
    exited_at: Option<Instant>,
}

impl Game for Pacing {
    fn window(&self) -> Option<&Window> {
        self.window.as_ref()
    }

    fn resumed(&mut self, ctl: &mut Control<'_>) {
        if self.window.is_none() {
            self.window = Some(open(ctl, 200));
        }
    }

    fn event(&mut self, event: &Event<Instant>, _: &LoopState<Instant>, ctl: &mut Control<'_>) {
        match event {
            Event::Update(_) => {
                self.updates += 1;
                if self.exited_at.is_none() && self.start.elapsed() >= self.run_for {
                    self.exited_at = Some(Instant::now());
                    ctl.exit();
                }
            }
            Event::Render(_) => self.renders += 1,
            _ => {}
        }
    }

    fn window_event(
        &mut self,
        _: WindowId,
        event: WindowEvent,
        _: &mut LoopState<Instant>,
        _: &mut Control<'_>,
    ) {
        if event == WindowEvent::RedrawRequested {
            self.redraws_received += 1;
        }
    }
}

/// Half a second at 60 Hz: the ticks are the fold's count for the time that passed, the
/// renders were requested as redraws, the loop woke about once per deadline, and it ended
/// through `Control::exit`.
fn ticks_renders_and_exit(event_loop: &mut EventLoop<()>) -> Check {
    let start = Instant::now();
    let mut app = app(Pacing {
        run_for: Duration::from_millis(500),
        start,
        window: None,
        updates: 0,
        renders: 0,
        redraws_received: 0,
        exited_at: None,
    });
    event_loop
        .run_app_on_demand(&mut app)
        .map_err(|e| format!("run_app_on_demand: {e}"))?;
    let wall = start.elapsed();
    let state = app.runner().state();
    let g = app.game();
    let ticks = state.clock("main").unwrap().stats().ticks_run;
    println!(
        "  {wall:.3?}: {ticks} ticks, {} renders, {} redraws requested, {} received, {} frames",
        g.renders,
        app.redraws_requested(),
        g.redraws_received,
        app.frames()
    );
    ensure(app.exit_requested() && g.exited_at.is_some(), || {
        "the loop ended without Control::exit".into()
    })?;
    let exit_after = g.exited_at.unwrap().duration_since(start);
    ensure(
        exit_after >= Duration::from_millis(500) && wall < Duration::from_secs(2),
        || format!("exit requested after {exit_after:?}, run_app returned after {wall:?}"),
    )?;
    ensure(
        g.updates == ticks && state.clock("main").unwrap().stats().ticks_dropped == 0,
        || {
            format!(
                "{} updates handed on, {ticks} run, {} dropped",
                g.updates,
                state.clock("main").unwrap().stats().ticks_dropped
            )
        },
    )?;
    // The fold's count for the real time of its latest step: floor(t / (1/60 s)).
    let due = state
        .clock("main")
        .unwrap()
        .stats()
        .rate
        .ticks_in(state.real_time().elapsed().0);
    ensure(ticks == due, || {
        format!(
            "{ticks} ticks, {due} due at {:?}",
            state.real_time().elapsed()
        )
    })?;
    let most = wall.as_secs_f64() * HZ as f64;
    ensure(ticks + 1 >= 30 && ticks as f64 <= most, || {
        format!("{ticks} ticks: expected 29..={most:.1} in {wall:?}")
    })?;
    ensure(g.renders >= 20 && app.redraws_requested() >= 20, || {
        format!(
            "{} renders, {} redraws requested",
            g.renders,
            app.redraws_requested()
        )
    })?;
    ensure(app.redraws_requested() <= g.renders, || {
        "more redraws requested than renders".into()
    })?;
    ensure(g.redraws_received > 0, || {
        "no RedrawRequested arrived".into()
    })?;
    // 30 tick and 30 render deadlines (the same instants at 60/60 Hz) plus one iteration per
    // redraw: about 60 frames. A loop that spun would run thousands.
    let bound = 3 * (ticks + g.renders) + 10;
    ensure(app.frames() <= bound, || {
        format!(
            "{} frames for {ticks} ticks and {} renders: spinning?",
            app.frames(),
            g.renders
        )
    })
}

#[derive(Copy, Clone, Debug, Default)]
struct Counts {
    at: Option<Instant>,
    redraws: u64,
    frames: u64,
    ticks: u64,
    renders: u64,
}

impl Counts {
    fn take(ctl: &Control<'_>, ticks: u64, renders: u64) -> Counts {
        Counts {
            at: Some(Instant::now()),
            redraws: ctl.redraws_requested(),
            frames: ctl.frames(),
            ticks,
            renders,
        }
    }
}

/// Runs visible for 0.25 s, covers its window with a bigger one, waits for `Occluded(true)`,
/// stays covered for 0.3 s, closes the cover, waits for `Occluded(false)`, runs 0.25 s, exits.
struct Occlusion {
    start: Instant,
    window: Option<Window>,
    cover: Option<Window>,
    ticks: u64,
    renders: u64,
    covered: Counts,
    occluded: Counts,
    uncovered: Counts,
    visible_again: Counts,
    timed_out: bool,
}

impl Occlusion {
    fn phase(&mut self, ctl: &mut Control<'_>) {
        let now = Instant::now();
        let since = |c: &Counts| c.at.map(|t| now.duration_since(t));
        if now.duration_since(self.start) > Duration::from_secs(5) {
            self.timed_out = true;
            ctl.exit();
        } else if self.covered.at.is_none() {
            if now.duration_since(self.start) >= Duration::from_millis(250) {
                self.cover = Some(open(ctl, 400));
                self.covered = Counts::take(ctl, self.ticks, self.renders);
            }
        } else if self.uncovered.at.is_none() {
            if since(&self.occluded).is_some_and(|d| d >= Duration::from_millis(300)) {
                self.cover = None; // destroys the window
                self.uncovered = Counts::take(ctl, self.ticks, self.renders);
            }
        } else if since(&self.visible_again).is_some_and(|d| d >= Duration::from_millis(250)) {
            ctl.exit();
        }
    }
}

impl Game for Occlusion {
    fn window(&self) -> Option<&Window> {
        self.window.as_ref()
    }

    fn resumed(&mut self, ctl: &mut Control<'_>) {
        if self.window.is_none() {
            self.window = Some(open(ctl, 200));
        }
    }

    fn event(&mut self, event: &Event<Instant>, _: &LoopState<Instant>, ctl: &mut Control<'_>) {
        match event {
            Event::Update(_) => self.ticks += 1,
            Event::Render(_) => self.renders += 1,
            _ => {}
        }
        if !ctl.is_exiting() {
            self.phase(ctl);
        }
    }

    fn window_event(
        &mut self,
        id: WindowId,
        event: WindowEvent,
        _: &mut LoopState<Instant>,
        ctl: &mut Control<'_>,
    ) {
        let ours = self.window.as_ref().is_some_and(|w| w.id() == id);
        // The first Occluded(true) after the cover opened, the first Occluded(false) after it
        // closed.
        let slot = match event {
            WindowEvent::Occluded(true) if ours && self.covered.at.is_some() => &mut self.occluded,
            WindowEvent::Occluded(false) if ours && self.uncovered.at.is_some() => {
                &mut self.visible_again
            }
            _ => return,
        };
        if slot.at.is_none() {
            *slot = Counts::take(ctl, self.ticks, self.renders);
        }
    }
}

/// A window covered by another gets `Occluded(true)` from the X server: App requests no
/// redraws while it lasts although the fold keeps ticking and rendering, the loop still sleeps
/// between deadlines, and redraws resume once the cover is gone.
fn occluded_window_stops_redraws(event_loop: &mut EventLoop<()>) -> Check {
    let mut app = app(Occlusion {
        start: Instant::now(),
        window: None,
        cover: None,
        ticks: 0,
        renders: 0,
        covered: Counts::default(),
        occluded: Counts::default(),
        uncovered: Counts::default(),
        visible_again: Counts::default(),
        timed_out: false,
    });
    event_loop
        .run_app_on_demand(&mut app)
        .map_err(|e| format!("run_app_on_demand: {e}"))?;
    let g = app.game();
    let (occ, unc, vis) = (g.occluded, g.uncovered, g.visible_again);
    ensure(!g.timed_out && occ.at.is_some() && vis.at.is_some(), || {
        format!(
            "timed out: occluded {}, visible again {}",
            occ.at.is_some(),
            vis.at.is_some()
        )
    })?;
    ensure(app.exit_requested() && !app.is_occluded(), || {
        "not exited through Control::exit, or still occluded".into()
    })?;
    let hidden = unc.at.unwrap().duration_since(occ.at.unwrap());
    let (ticks, renders) = (unc.ticks - occ.ticks, unc.renders - occ.renders);
    let (redraws, frames) = (unc.redraws - occ.redraws, unc.frames - occ.frames);
    println!(
        "  occluded {hidden:.3?}: {ticks} ticks, {renders} renders, {redraws} redraws \
         requested, {frames} frames; visible again: {} redraws requested in {:.3?}",
        app.redraws_requested() - vis.redraws,
        vis.at.unwrap().elapsed()
    );
    ensure(g.covered.redraws > 0, || {
        "no redraws before the cover".into()
    })?;
    ensure(redraws == 0, || {
        format!("{redraws} redraws requested while occluded")
    })?;
    let expected = hidden.as_secs_f64() * HZ as f64;
    ensure(ticks as f64 >= expected - 2.0 && renders > 0, || {
        format!("{ticks} ticks and {renders} renders while occluded {hidden:?}")
    })?;
    let bound = 3 * (ticks + renders) + 10;
    ensure(frames <= bound, || {
        format!("{frames} frames while occluded for {ticks} ticks and {renders} renders")
    })?;
    ensure(app.redraws_requested() >= vis.redraws + 5, || {
        format!(
            "{} redraws requested after Occluded(false)",
            app.redraws_requested() - vis.redraws
        )
    })
}

fn main() -> ExitCode {
    if std::env::var_os("DISPLAY").is_none() {
        if std::env::var_os("CI").is_some() {
            eprintln!(
                "tests/winit.rs: DISPLAY is not set; CI runs this test under Xvfb (.ci/winit)"
            );
            return ExitCode::FAILURE;
        }
        println!(
            "tests/winit.rs: SKIPPED, DISPLAY is not set (run `bash .ci/winit`, which starts \
             Xvfb); 0 passed, 0 failed"
        );
        return ExitCode::SUCCESS;
    }
    let mut event_loop = match EventLoop::builder().with_x11().build() {
        Ok(el) => el,
        Err(e) => {
            eprintln!("tests/winit.rs: no X11 event loop on DISPLAY: {e}");
            return ExitCode::FAILURE;
        }
    };
    let cases: [(&str, Case); 2] = [
        ("ticks_renders_and_exit", ticks_renders_and_exit),
        (
            "occluded_window_stops_redraws",
            occluded_window_stops_redraws,
        ),
    ];
    let (mut passed, mut failed) = (0, 0);
    for (name, case) in cases {
        println!("test {name} ...");
        match case(&mut event_loop) {
            Ok(()) => {
                println!("test {name} ... ok");
                passed += 1;
            }
            Err(e) => {
                println!("test {name} ... FAILED: {e}");
                failed += 1;
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
