//! The run-time controls part of the report: Bevy's `set_timestep` and `spin_sleep`'s `Delay`
//! against tickfold, their targets rows and their section.

use std::fmt::Write as _;

use crate::controls::{
    DELAY_PERIOD, DELAY_WORK_MS, DelayRun, DelaySummary, FIRST_TIMESTEP, TIMESTEP_CHANGES,
    TIMESTEP_FRAMES, TimestepRun,
};
use crate::report::{int, met};

/// Both runs.
pub struct Controls {
    /// Bevy's `set_timestep` against `set_rate`, fake clock.
    pub timestep: TimestepRun,
    /// `spin_sleep_util`'s `Delay` against `Policy::Delay`, real clock.
    pub delay: DelayRun,
}

fn ms(ns: u64) -> String {
    let whole = ns / 1_000_000;
    let frac = ns % 1_000_000;
    if frac == 0 {
        format!("{whole} ms")
    } else {
        format!("{:.6} ms", ns as f64 / 1e6)
            .trim_end_matches('0')
            .to_string()
    }
}

/// Whether the `set_timestep` run agrees everywhere: the same fixed runs at the same virtual
/// times in the same frames, the same overstep after every frame.
pub fn timestep_agrees(t: &TimestepRun) -> bool {
    t.bevy == t.tickfold && t.same_overstep() == t.bevy_overstep.len()
}

/// Whether every difference of the `Delay` run is explained by the clock readings.
pub fn delay_explained(s: &DelaySummary) -> bool {
    s.explained == s.calls
        && s.same_with_its_reading == s.calls
        && s.late_unexplained == 0
        && s.in_order == s.calls
}

/// The rows of the targets table.
pub fn targets(c: &Controls, out: &mut String) {
    let t = &c.timestep;
    let _ = writeln!(
        out,
        "| the same fixed runs as Bevy across `set_timestep` at run time (20 → 10 → 25 ms, {} frames) | {} of {} at the same frame and virtual time, overstep equal after {} of {} frames | Bevy {} runs | {} |",
        TIMESTEP_FRAMES,
        int(t.same() as u64),
        int(t.tickfold.len() as u64),
        int(t.same_overstep() as u64),
        int(t.bevy_overstep.len() as u64),
        int(t.bevy.len() as u64),
        met(timestep_agrees(t))
    );
    let s = c.delay.summary();
    let _ = writeln!(
        out,
        "| the same schedule as `spin_sleep`'s `MissedTickBehavior::Delay` (real clock, 5 ms, {} calls, {} late) | {} of {} ticks offset by exactly the gap between the two loops' clock readings at the latest late call (at most {} ns, within the time `tick()` took); fed the interval's own reading, {} of {} at the same instant | `Interval` | {} |",
        s.calls,
        s.spin_late,
        s.explained,
        s.calls,
        int(s.max_offset),
        s.same_with_its_reading,
        s.calls,
        met(delay_explained(&s))
    );
}

/// The section of the report.
pub fn section(c: &Controls, out: &mut String) {
    let _ = writeln!(
        out,
        "\n## 3. Run-time controls against the peers that have them\n"
    );
    timestep_section(&c.timestep, out);
    delay_section(&c.delay, out);
}

fn timestep_section(t: &TimestepRun, out: &mut String) {
    let changes: Vec<String> = TIMESTEP_CHANGES
        .iter()
        .zip(&t.carried)
        .map(|((after, step), carried)| {
            format!(
                "to {} after frame {after} (at {}; overstep carried: {})",
                ms(*step),
                ms(t.frames[*after as usize]),
                ms(*carried)
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "### Bevy's `Time<Fixed>::set_timestep` and `set_rate`\n"
    );
    let _ = writeln!(
        out,
        "A minimal Bevy `App` (`TimePlugin`, one `FixedUpdate` system recording \
         `Time<Fixed>::elapsed()`, time fed by `TimeUpdateStrategy::ManualInstant`) and a \
         tickfold loop get the same {} frames of 12 to 20 ms (splitmix64, fixed seed; frame 0 \
         at the start is Bevy's first update). The timestep starts at {} and changes {}, \
         between frames, with `set_timestep` in Bevy and `ClockMut::set_rate` in tickfold. A \
         fixed run is compared by its frame and its virtual time at the end of the tick \
         (Bevy: `Time<Fixed>::elapsed()` inside the system; tickfold: `t + dt`).\n",
        TIMESTEP_FRAMES,
        ms(FIRST_TIMESTEP),
        changes.join(", ")
    );
    let first_diff = t
        .bevy
        .iter()
        .zip(&t.tickfold)
        .find(|(a, b)| a != b)
        .map(|(a, b)| {
            format!(
                "first difference: Bevy frame {} at {}, tickfold frame {} at {}",
                a.0,
                ms(a.1),
                b.0,
                ms(b.1)
            )
        })
        .unwrap_or_else(|| "none".to_string());
    let _ = writeln!(
        out,
        "| loop | fixed runs | at the same frame and virtual time as Bevy | overstep equal after the frame | rate changes reported | differences |\n|---|---|---|---|---|---|"
    );
    let _ = writeln!(
        out,
        "| `bevy_time` 0.20.1 | {} | | | nothing (a plain setter) | |",
        int(t.bevy.len() as u64)
    );
    let _ = writeln!(
        out,
        "| tickfold `set_rate` | {} | {} of {} | {} of {} | {} `Event::RateChanged` | {} |\n",
        int(t.tickfold.len() as u64),
        int(t.same() as u64),
        int(t.bevy.len().max(t.tickfold.len()) as u64),
        int(t.same_overstep() as u64),
        int(t.bevy_overstep.len() as u64),
        t.rate_changed,
        first_diff
    );
    let _ = writeln!(
        out,
        "Why they agree: Bevy keeps an overstep and spends it one timestep at a time, and \
         `set_timestep` changes the size of the next spend, \"respecting what is currently in \
         `overstep`\". tickfold restarts the clock's grid at its current tick boundary, which \
         is the virtual time less the lag, and keeps the lag: the next tick is due once the \
         lag reaches the new period, exactly when Bevy's overstep does. The two rules are the \
         same whenever the timesteps are whole nanoseconds (Bevy's `Duration` always is). Two \
         differences this run does not exercise, both checked in \
         `core/tests/peer_bevy_time.rs`: a `set_timestep` from inside a `FixedUpdate` system \
         changes the rest of the same frame's runs in Bevy, while tickfold's `set_rate` \
         applies from the next step; and a period that is not a whole number of nanoseconds \
         (60 Hz) is exact in tickfold (its boundary rounds up to the ns when virtual time \
         reaches it) where Bevy rounds the timestep itself.\n"
    );
}

fn delay_section(d: &DelayRun, out: &mut String) {
    let s = d.summary();
    let work: Vec<String> = DELAY_WORK_MS
        .iter()
        .enumerate()
        .filter(|(_, w)| **w > 1)
        .map(|(i, w)| format!("{w} ms after call {i}"))
        .collect();
    let _ = writeln!(
        out,
        "### `spin_sleep_util`'s `MissedTickBehavior::Delay` and `Policy::Delay`\n"
    );
    let _ = writeln!(
        out,
        "`spin_sleep_util` 0.1.1's `Interval` reads `Instant::now()` itself, so this run is on \
         the real clock: an `Interval` of {} ms with `MissedTickBehavior::Delay`, {} calls to \
         `tick()` with a `thread::sleep` of work between them (1 ms, except {}). Each call \
         records `Instant::now()` just before and just after `tick()`. The readings taken \
         before are then fed, in order, to a tickfold loop with `Policy::Delay` at the same \
         period. Compared per call: whether it was late, and where each grid puts its tick \
         (the interval: the tick it returns when on time, its own reading inside `tick()` when \
         late, that is its next tick less a period; tickfold: the `Event::Sleep` deadline when \
         on time, the step's `now` when late, as the late slot starts then).\n",
        DELAY_PERIOD.as_millis(),
        s.calls,
        work.join(", ")
    );
    let _ = writeln!(
        out,
        "| calls | late (interval) | late (tickfold) | lateness differs (tick between the readings) | tick at the same instant | offset = the gap between the readings (within the read window) | largest offset | largest read window | same instant, fed the interval's own reading | tickfold tick number = call number | ticks dropped by tickfold |\n|---|---|---|---|---|---|---|---|---|---|---|"
    );
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} | {} of {} | {} of {} | {} ns | {} ns | {} of {} | {} of {} | {} |\n",
        s.calls,
        s.spin_late,
        s.tickfold_late,
        s.late_differs,
        s.same,
        s.calls,
        s.explained,
        s.calls,
        int(s.max_offset),
        int(s.max_window),
        s.same_with_its_reading,
        s.calls,
        s.in_order,
        s.calls,
        d.dropped
    );
    let _ = writeln!(
        out,
        "Both follow the same rule: on time, sleep until the tick and schedule the next one a \
         period later; late, tick at once and schedule the next one a period after *now*, so \
         no tick is lost and none comes less than a period after the previous one. The only \
         difference is which *now*: the interval reads the clock inside `tick()`, a little \
         after the reading tickfold is given, so after each late call its grid sits later by \
         that gap (never more than the time `tick()` took, the read window) until the next \
         late call re-phases both. The first call is late in both (the interval's first tick \
         \"returns immediately\": its start is a reading taken before the call), so no tick \
         of this run is at the very same instant; fed the interval's own reading (its next \
         tick less a period) tickfold puts every tick at the same instant. A shell driving tickfold reads the clock once and gives it \
         to the fold, so its grid is exactly where its own reading says."
    );
}
