//! The rare events as words: a header (the kind in the low byte, the clock above it), then
//! the event's numbers, one word each.

use crate::values::event::{DropReason, Event};
use crate::values::id::ClockId;
use crate::values::rate::{Period, TimeScale};
use crate::values::time::Nanos;

const PAUSED: u64 = 1;
const RESUMED: u64 = 2;
const SCALE: u64 = 3;
const BACKWARDS: u64 = 4;
const DISCARDED_TIME: u64 = 5;
const SLOT_MISSED: u64 = 6;
/// Missed slots whose first tick follows the same clock's discarded time in this list.
const SLOT_MISSED_NEXT: u64 = 7;
const DISCARDED_TICKS: u64 = 8;
const RATE: u64 = 9;
const DEFERRED: u64 = 10;
const END_OF_TIME: u64 = 11;

/// How many words an event of `kind` takes (0: not a kind).
fn size(kind: u64) -> usize {
    match kind {
        PAUSED | RESUMED => 1,
        SCALE | BACKWARDS | SLOT_MISSED_NEXT | DEFERRED | END_OF_TIME => 2,
        SLOT_MISSED | DISCARDED_TICKS => 3,
        DISCARDED_TIME | RATE => 4,
        _ => 0,
    }
}

fn header(kind: u64, clock: ClockId) -> u64 {
    kind | u64::from(clock.0) << 8
}

/// The tick after the last ticks discarded for `clock` in `words`, if any.
fn after_discarded(words: &[u64], clock: ClockId) -> Option<u64> {
    let mut at = 0;
    let mut next = None;
    while let Some(&h) = words.get(at) {
        let n = size(h & 0xff);
        if n == 0 {
            break;
        }
        if h == header(DISCARDED_TIME, clock) {
            let first = words.get(at + 2).copied().unwrap_or(0);
            let ticks = words.get(at + 3).copied().unwrap_or(0);
            next = first.checked_add(ticks);
        }
        at += n;
    }
    next
}

/// `event` as words, after the words `prior` of the same list; `None` for the events that
/// have none (updates, renders, sleeps).
pub(crate) fn encode<T>(event: &Event<T>, prior: &[u64]) -> Option<([u64; 4], usize)> {
    let words = match *event {
        Event::Paused => [PAUSED, 0, 0, 0],
        Event::Resumed => [RESUMED, 0, 0, 0],
        Event::ScaleChanged(s) => {
            let (num, den) = s.as_ratio();
            [SCALE, u64::from(num) << 32 | u64::from(den), 0, 0]
        }
        Event::TimeBackwards { by } => [BACKWARDS, by.0, 0, 0],
        Event::DiscardedTime {
            clock,
            time,
            first,
            ticks,
        } => [header(DISCARDED_TIME, clock), time.0, first, ticks],
        Event::DroppedTicks {
            clock,
            first,
            count,
            reason: DropReason::SlotMissed,
        } => {
            if after_discarded(prior, clock) == Some(first) {
                [header(SLOT_MISSED_NEXT, clock), count, 0, 0]
            } else {
                [header(SLOT_MISSED, clock), first, count, 0]
            }
        }
        Event::DroppedTicks {
            clock,
            first,
            count,
            reason: DropReason::Discarded,
        } => [header(DISCARDED_TICKS, clock), first, count, 0],
        Event::RateChanged {
            clock,
            period,
            from_tick,
        } => {
            let (num, den) = period.as_nanos_ratio();
            [header(RATE, clock), num, den, from_tick]
        }
        Event::Deferred { clock, ticks } => [header(DEFERRED, clock), ticks, 0, 0],
        Event::EndOfTime { clock, next_tick } => [header(END_OF_TIME, clock), next_tick, 0, 0],
        Event::Sleep { .. } | Event::Update(_) | Event::Render(_) => return None,
    };
    Some((words, size(words[0] & 0xff)))
}

/// The event at word `at` of `words` and its length in words; `None` past the end.
#[inline(never)]
pub(crate) fn decode<U>(words: &[u64], at: usize) -> Option<(Event<U>, u32)> {
    let h = *words.get(at)?;
    let kind = h & 0xff;
    let n = size(kind);
    let w = words.get(at..at.checked_add(n)?)?;
    let clock = ClockId((h >> 8) as u16);
    let word = |i: usize| w.get(i).copied().unwrap_or(0);
    let event = match kind {
        PAUSED => Event::Paused,
        RESUMED => Event::Resumed,
        SCALE => {
            let ratio = word(1);
            Event::ScaleChanged(TimeScale::ratio((ratio >> 32) as u32, ratio as u32).ok()?)
        }
        BACKWARDS => Event::TimeBackwards { by: Nanos(word(1)) },
        DISCARDED_TIME => Event::DiscardedTime {
            clock,
            time: Nanos(word(1)),
            first: word(2),
            ticks: word(3),
        },
        SLOT_MISSED | SLOT_MISSED_NEXT => {
            let (first, count) = if kind == SLOT_MISSED {
                (word(1), word(2))
            } else {
                (after_discarded(&words[..at], clock)?, word(1))
            };
            Event::DroppedTicks {
                clock,
                first,
                count,
                reason: DropReason::SlotMissed,
            }
        }
        DISCARDED_TICKS => Event::DroppedTicks {
            clock,
            first: word(1),
            count: word(2),
            reason: DropReason::Discarded,
        },
        RATE => Event::RateChanged {
            clock,
            period: Period::from_ns_ratio(u128::from(word(1)), u128::from(word(2))).ok()?,
            from_tick: word(3),
        },
        DEFERRED => Event::Deferred {
            clock,
            ticks: word(1),
        },
        END_OF_TIME => Event::EndOfTime {
            clock,
            next_tick: word(1),
        },
        _ => return None,
    };
    Some((event, n as u32))
}
