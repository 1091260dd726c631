//! The page's time axis: page stamps (milliseconds) turned into loop times (whole ns), with
//! the rules for stamps that go back or run ahead. Plain Rust, tested on the host.

use tickfold_core::{Nanos, Timestamp};

use super::{BadStamp, stamp_to_nanos};

/// Where a stamp comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Source {
    /// A `requestAnimationFrame` stamp: the time the frame began.
    Frame,
    /// The keep-alive Worker's beat, stamped with `performance.now()` when it is handled.
    Beat,
}

/// What a stamp means for the loop.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Mapped {
    /// Step the fold to this loop time (the latest one again for a repeated stamp).
    At(Nanos),
    /// The stamp is `by` ns before the latest one fed: the fold is to report it
    /// ([`Event::TimeBackwards`](tickfold_core::Event::TimeBackwards)); the axis is already
    /// moved so that this stamp maps to the latest loop time.
    Back(Nanos),
}

/// The page-to-loop mapping and the latest loop time fed.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Axis {
    /// A page stamp and the loop time it maps to; later stamps map by their distance from it.
    /// `None` before the first stamp.
    anchor: Option<(Nanos, Nanos)>,
    /// The latest loop time fed to the fold and where its stamp came from.
    latest: Option<(Nanos, Source)>,
}

impl Axis {
    /// The loop time of `stamp_ms` from `source`; the first stamp maps to `start` (the state's
    /// latest time). The rules:
    ///
    /// * a frame at or before the latest *beat* (whose `performance.now()` stamp runs up to a
    ///   frame ahead of the next frame's rAF stamp, which is when the frame began) is fed 1 ns
    ///   after that beat: the frame moves real time, so it renders, and the fold never sees
    ///   the two kinds of stamps disagree;
    /// * any other stamp before the latest one is [`Mapped::Back`], and the axis is anchored
    ///   again at it (it maps to the latest loop time), so the frames after it step from there
    ///   (a bogus stamp far ahead costs one reported frame, not every frame until the page's
    ///   clock catches up);
    /// * a stamp so far ahead that the loop time would not fit in a `u64` of ns is refused.
    pub(super) fn map(
        &mut self,
        stamp_ms: f64,
        source: Source,
        start: Nanos,
    ) -> Result<Mapped, BadStamp> {
        let bad = BadStamp(stamp_ms);
        let stamp = stamp_to_nanos(stamp_ms).ok_or(bad)?;
        let (page, at) = *self.anchor.get_or_insert((stamp, start));
        // The stamp's loop time, as a signed offset from the latest one fed.
        let raw = i128::from(at.0) + i128::from(stamp.0) - i128::from(page.0);
        let time = u64::try_from(raw).ok().map(Nanos);
        let Some((latest, latest_from)) = self.latest else {
            let time = time.ok_or(bad)?;
            self.latest = Some((time, source));
            return Ok(Mapped::At(time));
        };
        if raw > i128::from(latest.0) {
            let time = time.ok_or(bad)?;
            self.latest = Some((time, source));
            return Ok(Mapped::At(time));
        }
        if source == Source::Frame && latest_from == Source::Beat {
            let time = latest.add_nanos(1);
            self.latest = Some((time, source));
            return Ok(Mapped::At(time));
        }
        if raw == i128::from(latest.0) {
            return Ok(Mapped::At(latest));
        }
        self.anchor = Some((stamp, latest));
        let by = u64::try_from(i128::from(latest.0) - raw).unwrap_or(u64::MAX);
        Ok(Mapped::Back(Nanos(by)))
    }

    /// Whether a stamp has been seen.
    pub(super) fn started(&self) -> bool {
        self.latest.is_some()
    }
}
