//! How a view of a loop borrows it: [`Shared`] for the read-only views (`state.clock("ai")?`,
//! from `&LoopState`), [`Exclusive`] for the handles that also hold the controls
//! (`state.clock_mut("ai")?`, from `&mut LoopState`).
//!
//! Each view is one type generic over its access, so its readers are written once and both
//! forms have them: a handle reads exactly as its view does. (A `Deref` from the handle to
//! the view cannot be written without `unsafe`: a view borrows parts of the loop shared, the
//! handle borrows them exclusively, and it cannot hold a shared borrow of what it may change.)
//!
//! May call: nothing. Called by: `state`.

use core::ops::Deref;

/// The borrow a view holds: [`Shared`] (the views, from `&LoopState`) or [`Exclusive`] (the
/// handles with controls, from `&mut LoopState`). Sealed: these two are the only ones.
///
/// # Examples
///
/// ```
/// use tickfold_core::{ClockMut, ClockView, LoopConfig, LoopState, Nanos, Period};
///
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// // The same readers through `&LoopState` and through `&mut LoopState`.
/// let view: ClockView<'_> = state.clock("main")?;
/// assert_eq!(view.rate(), Period::from_hz(60)?);
/// let mut handle: ClockMut<'_> = state.clock_mut("main")?;
/// handle.set_rate(Period::from_hz(30)?);
/// assert_eq!(handle.rate(), Period::from_hz(30)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Access: sealed::Sealed {
    /// The reference a view with this access holds to the part of the loop it reads:
    /// `&'a X` for [`Shared`], `&'a mut X` for [`Exclusive`].
    type Ref<'a, X: 'a>: Deref<Target = X>;
}

/// Read-only access, through `&LoopState`: the views [`ClockView`](crate::ClockView),
/// [`VirtualTimeView`](crate::VirtualTimeView) and [`RealTimeView`](crate::RealTimeView),
/// which are `Copy`.
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
///
/// let state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// let time = state.virtual_time(); // a `VirtualTimeHandle<'_, Shared>`
/// let again = time; // `Copy`
/// assert_eq!((time.elapsed(), again.is_paused()), (Nanos(0), false));
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Debug)]
pub enum Shared {}

/// Read-write access, through `&mut LoopState`: the handles
/// [`ClockMut`](crate::ClockMut), [`VirtualTimeMut`](crate::VirtualTimeMut) and
/// [`RealTimeMut`](crate::RealTimeMut), which add the controls to the readers.
///
/// # Examples
///
/// ```
/// use tickfold_core::{LoopConfig, LoopState, Nanos, Period};
///
/// let mut state = LoopState::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0))?;
/// let mut time = state.virtual_time_mut(); // a `VirtualTimeHandle<'_, Exclusive>`
/// time.pause();
/// assert!(time.is_paused());
/// # Ok::<(), tickfold_core::ConfigError>(())
/// ```
#[derive(Debug)]
pub enum Exclusive {}

impl Access for Shared {
    type Ref<'a, X: 'a> = &'a X;
}

impl Access for Exclusive {
    type Ref<'a, X: 'a> = &'a mut X;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Shared {}
    impl Sealed for super::Exclusive {}
}
