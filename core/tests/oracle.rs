//! The fold against a naive oracle: the Scheme loop article's accumulator written in a few lines of
//! integer arithmetic (no floats, the tick length as an exact fraction of nanoseconds), with the
//! optional cap and max-frame-delta rule, compared event for event on random schedules and rates.

use core::time::Duration;

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{Event, LoopConfig, LoopState, Nanos, Period};

/// What one step did, as both sides see it: (tick, t, lag) per update, then alpha if rendered.
type Step = (Vec<(u64, u64, u64)>, Option<f64>);

/// The oracle: `v` is real time in units of 1/den ns, so `dt` is exactly `num` and tick `k`
/// is due once `v >= (k+1)·num`. The clamp drops the oldest due ticks beyond what `clamp` ns
/// of this frame allow, never the next tick due when the frame began; the cap stops a step
/// and keeps the backlog, bounded by the max frame delta (see `core/tests/overload.rs`).
fn oracle(num: u64, den: u64, cap: Option<u32>, clamp: Option<u64>, frames: &[u64]) -> Vec<Step> {
    let (num, den) = (u128::from(num), u128::from(den));
    let (mut v, mut k, mut out) = (0u128, 0u128, Vec::new());
    for (i, &frame) in frames.iter().enumerate() {
        let before = v;
        v += u128::from(frame) * den;
        if let Some(c) = clamp.filter(|c| frame > *c) {
            // Kept: ticks due by `before + c`, or by the next tick's due time if later (the
            // time the fold asked the shell to wait for is never a stall).
            let limit = (before + u128::from(c) * den).max((k + 1) * num) / num;
            k += (v / num).saturating_sub(limit.max(k));
        }
        let mut updates = Vec::new();
        while v >= (k + 1) * num && cap.is_none_or(|c| updates.len() < c as usize) {
            updates.push((
                k as u64,
                (k * num / den) as u64,
                ((v - k * num) / den) as u64,
            ));
            k += 1;
        }
        // The overload bound: a backlog the cap left whose oldest tick is due more than `clamp`
        // ns before `v` gives up every tick due by `v − clamp/2` (whole ns).
        if let Some(c) = clamp {
            let (c, ns) = (u128::from(c), v / den);
            let backlog = cap.is_some_and(|cap| updates.len() >= cap as usize);
            if backlog && v >= (k + 1) * num && ns >= c && (k + 1) * num <= (ns - c) * den {
                k = k.max((ns - c / 2) * den / num);
            }
        }
        let rendered = i == 0 || frame > 0;
        out.push((
            updates,
            rendered.then(|| ((v - k * num) as f64 / num as f64).min(1.0)),
        ));
    }
    out
}

fn fold(config: LoopConfig, frames: &[u64]) -> Vec<Step> {
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut now = 0;
    frames
        .iter()
        .map(|f| {
            now += f;
            let events = state.advance(Nanos(now));
            let updates = events
                .updates()
                .map(|t| (t.index, t.t.0, t.lag.behind().0))
                .collect();
            let alpha = events.iter().find_map(|e| match e {
                Event::Render(r) => Some(r.alpha),
                _ => None,
            });
            (updates, alpha)
        })
        .collect()
}

#[derive(Clone, Debug)]
struct Case {
    rate: (u64, u64),
    cap: Option<u32>,
    clamp: Option<u64>,
    frames: Vec<u64>,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        // 60 Hz, 59.94 Hz, 144 Hz, 50 Hz, and random rates, all as (ticks, per seconds).
        let rate = match u8::arbitrary(g) % 5 {
            0 => (60, 1),
            1 => (60_000, 1_001),
            2 => (144, 1),
            3 => (50, 1),
            _ => (1 + u64::arbitrary(g) % 2_000, 1 + u64::arbitrary(g) % 7),
        };
        let cap = (bool::arbitrary(g)).then(|| 1 + u32::arbitrary(g) % 12);
        let clamp = (bool::arbitrary(g)).then(|| 1 + u64::arbitrary(g) % 300_000_000);
        let frames = (0..usize::arbitrary(g) % 80)
            .map(|_| match u8::arbitrary(g) % 8 {
                0 => 0,
                1 => u64::arbitrary(g) % 2_000_000_000,
                _ => u64::arbitrary(g) % 40_000_000,
            })
            .collect();
        Case {
            rate,
            cap,
            clamp,
            frames,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let me = self.clone();
        Box::new(self.frames.shrink().map(move |frames| Case {
            frames,
            ..me.clone()
        }))
    }
}

#[test]
fn the_fold_matches_the_naive_oracle() {
    fn prop(c: Case) -> bool {
        let rate = Period::from_hz_ratio(c.rate.0, c.rate.1).unwrap();
        let config = LoopConfig::new(rate)
            .max_updates(c.cap)
            .max_frame_delta(c.clamp.map(Duration::from_nanos));
        let (num, den) = rate.as_nanos_ratio();
        let (got, want) = (
            fold(config, &c.frames),
            oracle(num, den, c.cap, c.clamp, &c.frames),
        );
        got.len() == want.len()
            && got.iter().zip(&want).all(|(g, w)| {
                g.0 == w.0
                    && match (g.1, w.1) {
                        (Some(a), Some(b)) => (a - b).abs() < 1e-12,
                        (None, None) => true,
                        _ => false,
                    }
            })
    }
    QuickCheck::new()
        .tests(3_000)
        .quickcheck(prop as fn(Case) -> bool);
}

#[test]
fn the_oracle_reproduces_the_scheme_trace_it_stands_for() {
    // Guard the oracle itself: the Scheme loop article's second trace, 50 Hz ticks and 16 ms
    // frames.
    let frames = [16_000_000u64; 6];
    let steps = oracle(20_000_000, 1, None, None, &frames);
    let lags: Vec<u64> = steps
        .iter()
        .flat_map(|s| s.0.iter().map(|u| u.2 / 1_000_000))
        .collect();
    assert_eq!(lags, [32, 28, 24, 20]);
    assert_eq!(steps[0].1, Some(0.8));
}
