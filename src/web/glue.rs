//! The browser glue of [`WebLoop`] (wasm32 only): `requestAnimationFrame`, `visibilitychange`,
//! the keep-alive Worker, and the [`WebHandle`] a game keeps.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::rc::Rc;

use tickfold_core::{Event, LoopState, Nanos};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Blob, BlobPropertyBag, Document, MessageEvent, Performance, Url, VisibilityState, Window,
    Worker,
};

use super::WebLoop;

/// How often, in ms, the keep-alive Worker of [`Hidden::KeepTicking`](super::Hidden::KeepTicking)
/// posts a beat while the page is hidden: a fifth of a 20 Hz tick, so a tick runs within 10 ms
/// of its due time.
pub const KEEP_TICKING_INTERVAL_MS: u32 = 10;

/// The game's handler: every event, the state (as of its tick for an update), the handle.
type Handler = Box<dyn FnMut(&Event<Nanos>, &LoopState<Nanos>, &WebHandle)>;

/// The keep-alive Worker's message handler.
type Beat = Closure<dyn FnMut(MessageEvent)>;

/// Work the game asked for from inside a step, done right after it.
type AfterStep = Box<dyn FnOnce(&mut WebLoop)>;

/// Why a [`WebHandle`] could not reach the loop.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HandleError {
    /// Called while the loop is in use: from inside a step (the event handler, or code it
    /// calls), where the loop is handing on the step's events (use
    /// [`WebHandle::after_step`] there), or from inside another [`WebHandle::with`].
    InStep,
    /// The module panicked: a `wasm32-unknown-unknown` panic aborts the call it happens in
    /// and leaves the loop mid-step, so it is stopped and nobody may touch it again.
    Panicked,
}

impl fmt::Display for HandleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HandleError::InStep => {
                "tickfold::web: the loop is in a step (use WebHandle::after_step from the handler)"
            }
            HandleError::Panicked => "tickfold::web: the loop stopped on a panic",
        })
    }
}

impl std::error::Error for HandleError {}

/// The game's handle on a loop that [`start`] runs: what
/// [`Runner`](crate::runner::Runner) gives a native game between frames and in its handler
/// ([`Control::exit`](crate::runner::Control::exit), `state_mut`), for a loop whose frames are
/// the browser's. Cheap to clone; keep one in your input handlers (a menu's pause, a settings
/// screen); the event handler gets one with every event.
///
/// * [`with`](WebHandle::with): the [`WebLoop`] between frames, to pause, change the time
///   scale, add or remove clocks ([`WebLoop::state_mut`]), switch the rule for hidden tabs
///   ([`WebLoop::set_hidden`]), read or save the state;
/// * [`after_step`](WebHandle::after_step): the same from inside the event handler, done right
///   after the step's last event (a tick refused for rollback, [`LoopState::refuse`]);
/// * [`exit`](WebHandle::exit): stops the loop for good.
#[derive(Clone)]
pub struct WebHandle {
    shell: Rc<Shell>,
}

impl fmt::Debug for WebHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WebHandle")
            .field("running", &self.is_running())
            .finish_non_exhaustive()
    }
}

impl WebHandle {
    /// Runs `f` on the loop now, between frames, and gives back what it returns. The
    /// keep-alive Worker follows whatever `f` did.
    ///
    /// Works after [`exit`](WebHandle::exit) too (to save the state).
    ///
    /// # Errors
    ///
    /// [`HandleError::InStep`] from inside a step (use [`after_step`](WebHandle::after_step)
    /// there) or another `with`, [`HandleError::Panicked`] after a panic; `f` does not run.
    pub fn with<R>(&self, f: impl FnOnce(&mut WebLoop) -> R) -> Result<R, HandleError> {
        if std::thread::panicking() {
            return Err(HandleError::Panicked);
        }
        if self.shell.busy.replace(true) {
            return Err(HandleError::InStep);
        }
        let out = f(&mut self.shell.web.borrow_mut());
        self.shell.finish();
        self.shell.busy.set(false);
        Ok(out)
    }

    /// Runs `f` on the loop right after the step being handed on (or the
    /// [`with`](WebHandle::with) under way), before anything else touches the loop (the next
    /// frame, beat or visibility change), in the order asked; at once otherwise. For the event handler, which sees the state only as `&`: refuse
    /// the tick a rollback session was not ready for, pause at a level's end.
    ///
    /// # Errors
    ///
    /// [`HandleError::Panicked`] after a panic; `f` does not run.
    pub fn after_step(&self, f: impl FnOnce(&mut WebLoop) + 'static) -> Result<(), HandleError> {
        if std::thread::panicking() {
            return Err(HandleError::Panicked);
        }
        if self.shell.busy.get() {
            self.shell.after.borrow_mut().push_back(Box::new(f));
            return Ok(());
        }
        self.with(f)
    }

    /// Stops the loop: no more frames, beats or visibility changes reach it, the Worker ends
    /// and the listener is removed. From the handler, the events of the step after this one
    /// are not handed on (as [`Runner::run_with`](crate::runner::Runner::run_with) stops after
    /// the event whose handler calls [`Control::exit`](crate::runner::Control::exit)). Calling
    /// it again does nothing.
    pub fn exit(&self) {
        self.shell.halt();
    }

    /// Whether the loop still runs: not stopped by [`exit`](WebHandle::exit) or a panic.
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.shell.running.get() && !std::thread::panicking()
    }
}

/// The loop, the game's handler and the page's parts, shared by the callbacks and the handles.
struct Shell {
    web: RefCell<WebLoop>,
    on_event: RefCell<Handler>,
    /// A callback of the loop is running (set on entry, cleared on return).
    busy: Cell<bool>,
    running: Cell<bool>,
    after: RefCell<VecDeque<AfterStep>>,
    page: RefCell<Page>,
}

/// The browser's side: what to undo when the loop stops.
struct Page {
    window: Window,
    document: Document,
    performance: Performance,
    /// The frame callback, which asks for the next frame with itself.
    frame: Option<Closure<dyn FnMut(f64)>>,
    /// The pending `requestAnimationFrame`.
    frame_id: Option<i32>,
    on_visibility: Option<Closure<dyn FnMut()>>,
    /// The keep-alive Worker, made the first time it is wanted, and its message handler.
    worker: Option<(Worker, Beat)>,
    /// Whether the Worker was told to beat.
    beating: bool,
}

impl Shell {
    /// Whether a callback may run the loop: it runs, and nothing panicked. A panic (in the
    /// handler, or anywhere in the module: a `wasm32-unknown-unknown` panic aborts the call,
    /// and leaves the loop mid-step) stops the loop here, once and silently: the panic hook
    /// said why.
    fn enter(&self) -> bool {
        if !self.running.get() {
            return false;
        }
        // `busy` still set: the previous call never returned (a panic that unwound out of it,
        // on a build with `panic=unwind`, leaves `panicking()` false).
        if std::thread::panicking() || self.busy.get() {
            self.halt();
            return false;
        }
        self.busy.set(true);
        true
    }

    /// Steps the loop with `step` (which gets the loop and the handler), then does the work
    /// asked for during the step and lets the Worker follow.
    fn run<R>(
        self: &Rc<Shell>,
        step: impl FnOnce(&mut WebLoop, &mut dyn FnMut(&Event<Nanos>, &LoopState<Nanos>)) -> R,
    ) -> R {
        let handle = WebHandle {
            shell: Rc::clone(self),
        };
        let out = {
            let mut web = self.web.borrow_mut();
            let mut on_event = self.on_event.borrow_mut();
            step(&mut web, &mut |event, state| {
                if self.running.get() {
                    on_event(event, state, &handle);
                }
            })
        };
        self.finish();
        out
    }

    /// Does the work asked for with [`WebHandle::after_step`] meanwhile, in order, and lets the
    /// Worker follow what changed.
    fn finish(self: &Rc<Shell>) {
        loop {
            let next = self.after.borrow_mut().pop_front();
            let Some(f) = next else { break };
            f(&mut self.web.borrow_mut());
        }
        self.sync_worker();
    }

    fn leave(&self) {
        self.busy.set(false);
    }

    /// Stops everything once: the pending frame, the listener, the Worker.
    fn halt(&self) {
        if !self.running.replace(false) {
            return;
        }
        let Ok(mut page) = self.page.try_borrow_mut() else {
            return;
        };
        if let Some(id) = page.frame_id.take() {
            let _ = page.window.cancel_animation_frame(id);
        }
        if let Some(listener) = &page.on_visibility {
            let _ = page.document.remove_event_listener_with_callback(
                "visibilitychange",
                listener.as_ref().unchecked_ref(),
            );
        }
        if let Some((worker, _)) = &page.worker {
            worker.set_onmessage(None);
            worker.terminate();
        }
        page.beating = false;
    }

    /// Starts or stops the Worker's beats as the loop wants them
    /// ([`WebLoop::keeps_ticking`]): only while the page is hidden under
    /// [`Hidden::KeepTicking`](super::Hidden::KeepTicking).
    fn sync_worker(self: &Rc<Shell>) {
        let wanted = self.running.get() && self.web.borrow().keeps_ticking();
        if wanted == self.page.borrow().beating {
            return;
        }
        if self.page.borrow().worker.is_none() {
            match self.make_worker() {
                Ok(worker) => self.page.borrow_mut().worker = Some(worker),
                Err(refused) => {
                    web_sys::console::error_2(
                        &"tickfold::web: the keep-alive Worker".into(),
                        &refused,
                    );
                    return;
                }
            }
        }
        let mut page = self.page.borrow_mut();
        if let Some((worker, _)) = &page.worker {
            if let Err(refused) = worker.post_message(&JsValue::from_bool(wanted)) {
                web_sys::console::error_2(&"tickfold::web: the keep-alive Worker".into(), &refused);
                return;
            }
        }
        page.beating = wanted;
    }

    /// A dedicated Worker made from a `Blob` (no file to serve) whose `setInterval` beats
    /// while told `true`, and its message handler, which steps the loop.
    fn make_worker(self: &Rc<Shell>) -> Result<(Worker, Beat), JsValue> {
        let source = format!(
            "let beat = null; onmessage = (e) => {{ clearInterval(beat); \
             beat = e.data ? setInterval(() => postMessage(0), {KEEP_TICKING_INTERVAL_MS}) : null; }};"
        );
        let options = BlobPropertyBag::new();
        options.set_type("text/javascript");
        let blob = Blob::new_with_str_sequence_and_options(
            &js_sys::Array::of1(&JsValue::from_str(&source)),
            &options,
        )?;
        let url = Url::create_object_url_with_blob(&blob)?;
        let worker = Worker::new(&url)?;
        Url::revoke_object_url(&url)?;
        let shell = Rc::clone(self);
        let performance = self.page.borrow().performance.clone();
        let beat: Beat = Closure::new(move |_: MessageEvent| {
            if !shell.enter() {
                return;
            }
            let now = performance.now();
            if let Err(bad) = shell.run(|web, on_event| web.timer_tick(now, on_event)) {
                web_sys::console::error_1(&bad.to_string().into());
            }
            shell.leave();
        });
        worker.set_onmessage(Some(beat.as_ref().unchecked_ref()));
        Ok((worker, beat))
    }

    /// Asks for the next frame.
    fn request_frame(&self) -> Result<(), JsValue> {
        let mut page = self.page.borrow_mut();
        if let Some(callback) = &page.frame {
            let id = page
                .window
                .request_animation_frame(callback.as_ref().unchecked_ref())?;
            page.frame_id = Some(id);
        }
        Ok(())
    }
}

/// Runs `web` in the page until the game calls [`WebHandle::exit`] or the module panics,
/// handing every event to `on_event` with the state and the loop's [`WebHandle`]; gives back a
/// handle to keep. On the web the frames are `requestAnimationFrame`'s: one
/// [`WebLoop::frame`] per callback with its stamp; [`WebLoop::set_visible`] on
/// `visibilitychange`; and, while the page is hidden under
/// [`Hidden::KeepTicking`](super::Hidden::KeepTicking) (and only then), a dedicated Worker
/// (made from a `Blob`, no file to serve) whose `setInterval` beats step the loop
/// ([`WebLoop::timer_tick`], stamped with `performance.now()`). Never sleeps, never blocks. A
/// refused stamp is written to the console as an error.
///
/// **A panic stops the loop once.** A `wasm32-unknown-unknown` panic aborts the call it
/// happens in (and so leaves the loop mid-step): the next frame, beat or visibility change
/// finds it so and stops everything (no frame asked for, the listener removed, the Worker
/// ended) without a word, so the console shows the panic's own message and nothing after it.
/// Install a panic hook that writes to the console (the web demo's is a few lines, or the
/// `console_error_panic_hook` crate) so the page says why.
///
/// The web demo (`examples/web/src/page.rs`, built and driven in headless Chromium by CI)
/// shows the handle in use: its keys pause the game, double its speed, add a clock and switch
/// the hidden rule through [`WebHandle::with`], stop it with [`WebHandle::exit`], and its
/// handler refuses a tick with [`WebHandle::after_step`].
///
/// # Errors
///
/// When the page has no `window`, `document` or `performance`, or the browser refuses the
/// listener, the first frame or the Worker.
pub fn start<F>(web: WebLoop, on_event: F) -> Result<WebHandle, JsValue>
where
    F: FnMut(&Event<Nanos>, &LoopState<Nanos>, &WebHandle) + 'static,
{
    let window = web_sys::window().ok_or("tickfold::web::start: no window")?;
    let document = window
        .document()
        .ok_or("tickfold::web::start: no document")?;
    let performance = window
        .performance()
        .ok_or("tickfold::web::start: no performance")?;
    let shell = Rc::new(Shell {
        web: RefCell::new(web),
        on_event: RefCell::new(Box::new(on_event)),
        busy: Cell::new(false),
        running: Cell::new(true),
        after: RefCell::new(VecDeque::new()),
        page: RefCell::new(Page {
            window: window.clone(),
            document: document.clone(),
            performance,
            frame: None,
            frame_id: None,
            on_visibility: None,
            worker: None,
            beating: false,
        }),
    });

    // Visibility: now (a page opened in a background tab starts hidden), then on each change.
    let on_visibility = {
        let (shell, document) = (Rc::clone(&shell), document.clone());
        move || {
            if !shell.enter() {
                return;
            }
            let visible = document.visibility_state() == VisibilityState::Visible;
            shell.run(|web, on_event| web.set_visible(visible, on_event));
            shell.leave();
        }
    };
    let on_visibility = Closure::<dyn FnMut()>::new(on_visibility);
    if document.visibility_state() != VisibilityState::Visible {
        on_visibility
            .as_ref()
            .unchecked_ref::<js_sys::Function>()
            .call0(&JsValue::NULL)?;
    }
    document.add_event_listener_with_callback(
        "visibilitychange",
        on_visibility.as_ref().unchecked_ref(),
    )?;
    shell.page.borrow_mut().on_visibility = Some(on_visibility);

    // Frames: each callback steps at its stamp, then asks for the next frame.
    let frame = {
        let shell = Rc::clone(&shell);
        move |stamp: f64| {
            shell.page.borrow_mut().frame_id = None;
            if !shell.enter() {
                return;
            }
            if let Err(bad) = shell.run(|web, on_event| web.frame(stamp, on_event)) {
                web_sys::console::error_1(&bad.to_string().into());
            }
            shell.leave();
            if shell.running.get() {
                if let Err(refused) = shell.request_frame() {
                    web_sys::console::error_2(
                        &"tickfold::web: requestAnimationFrame".into(),
                        &refused,
                    );
                }
            }
        }
    };
    shell.page.borrow_mut().frame = Some(Closure::new(frame));
    shell.request_frame()?;
    shell.sync_worker();
    // The callbacks hold the shell, and the shell the callbacks: it lives as long as the page.
    Ok(WebHandle { shell })
}
