//! The browser glue of [`WebLoop`] (wasm32 only): `requestAnimationFrame`, `visibilitychange`
//! and the keep-alive Worker.

use std::cell::RefCell;
use std::rc::Rc;

use tickfold_core::{Event, LoopState, Nanos};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, MessageEvent, Url, VisibilityState, Worker};

use super::{Hidden, WebLoop};

/// How often, in ms, the keep-alive Worker of [`Hidden::KeepTicking`] posts a beat while the
/// page is hidden: a fifth of a 20 Hz tick, so a tick runs within 10 ms of its due time.
pub const KEEP_TICKING_INTERVAL_MS: u32 = 10;

type Shared<F> = Rc<RefCell<(WebLoop, F)>>;
/// The frame callback, which asks for the next frame with itself.
type FrameCallback = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

/// Runs `web` in the page for as long as the page lives, handing every event to `on_event`:
/// one [`WebLoop::frame`] per `requestAnimationFrame` callback with its stamp,
/// [`WebLoop::set_visible`] on `visibilitychange` with `performance.now()`, and with
/// [`Hidden::KeepTicking`] a dedicated Worker (made from a `Blob`, no file to serve) whose
/// `setInterval` beats step the loop while the page is hidden ([`WebLoop::timer_tick`]).
/// Never sleeps, never blocks. A refused stamp is written to the console as an error.
///
/// If `on_event` panics, the frame loop stops (a `wasm32-unknown-unknown` panic aborts the
/// module): install a panic hook that writes to the console (the web demo's is three lines,
/// or the `console_error_panic_hook` crate) so the page says why.
///
/// # Errors
///
/// When the page has no `window`, `document` or `performance`, or the browser refuses the
/// listener, the first frame or the Worker.
pub fn start<F>(web: WebLoop, on_event: F) -> Result<(), JsValue>
where
    F: FnMut(&Event<Nanos>, &LoopState<Nanos>) + 'static,
{
    let window = web_sys::window().ok_or("tickfold::web::start: no window")?;
    let document = window
        .document()
        .ok_or("tickfold::web::start: no document")?;
    let performance = window
        .performance()
        .ok_or("tickfold::web::start: no performance")?;
    let keep_ticking = web.hidden() == Hidden::KeepTicking;
    let shared: Shared<F> = Rc::new(RefCell::new((web, on_event)));

    // Visibility: now (a page opened in a background tab starts hidden), then on each change.
    let on_visibility = {
        let (shared, document, performance) =
            (shared.clone(), document.clone(), performance.clone());
        move || {
            let visible = document.visibility_state() == VisibilityState::Visible;
            let (web, on_event) = &mut *shared.borrow_mut();
            if let Err(bad) = web.set_visible(visible, performance.now(), |e, s| on_event(e, s)) {
                web_sys::console::error_1(&bad.to_string().into());
            }
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
    // The listener lives as long as the page.
    on_visibility.forget();

    // Frames: each callback steps at its stamp, then asks for the next frame.
    let next: FrameCallback = Rc::new(RefCell::new(None));
    let frame = {
        let (shared, next, window) = (shared.clone(), next.clone(), window.clone());
        move |stamp: f64| {
            {
                let (web, on_event) = &mut *shared.borrow_mut();
                if let Err(bad) = web.frame(stamp, |e, s| on_event(e, s)) {
                    web_sys::console::error_1(&bad.to_string().into());
                }
            }
            if let Some(callback) = next.borrow().as_ref() {
                if let Err(refused) =
                    window.request_animation_frame(callback.as_ref().unchecked_ref())
                {
                    web_sys::console::error_2(
                        &"tickfold::web: requestAnimationFrame".into(),
                        &refused,
                    );
                }
            }
        }
    };
    *next.borrow_mut() = Some(Closure::new(frame));
    if let Some(callback) = next.borrow().as_ref() {
        window.request_animation_frame(callback.as_ref().unchecked_ref())?;
    }

    if keep_ticking {
        let source = format!("setInterval(() => postMessage(0), {KEEP_TICKING_INTERVAL_MS});");
        let options = BlobPropertyBag::new();
        options.set_type("text/javascript");
        let blob = Blob::new_with_str_sequence_and_options(
            &js_sys::Array::of1(&JsValue::from_str(&source)),
            &options,
        )?;
        let worker = Worker::new(&Url::create_object_url_with_blob(&blob)?)?;
        let beat = Closure::<dyn FnMut(MessageEvent)>::new(move |_: MessageEvent| {
            let (web, on_event) = &mut *shared.borrow_mut();
            if let Err(bad) = web.timer_tick(performance.now(), |e, s| on_event(e, s)) {
                web_sys::console::error_1(&bad.to_string().into());
            }
        });
        worker.set_onmessage(Some(beat.as_ref().unchecked_ref()));
        beat.forget();
        // The page keeps the Worker for as long as it lives.
        let _ = Box::leak(Box::new(worker));
    }
    Ok(())
}
