//! The floor: the least a loop must compute to report what tickfold's events report, written
//! here in the bench so that tickfold's per-frame cost can be read against it.
//!
//! One catch-up clock on an exact grid: tick `k` covers `[k·num/den, (k+1)·num/den)` ns and is
//! due once virtual time reaches `⌈(k+1)·num/den⌉`. Integer ns throughout; the grid is walked
//! with one add and one compare per tick (`num/den` split into whole ns and a remainder), never a
//! division on the hot path. Per step it reports, like tickfold's `Events`:
//!
//! * the updates as a compact description (first index, count, the grid point of the first
//!   tick, the step's virtual time), from which [`FloorStep::ticks`] yields per update: index,
//!   `t` (start, rounded down), `dt` (`num/den`), lag (virtual time less the tick's exact start,
//!   rounded down, signed) and `last_in_step`;
//! * the render (only when time advanced, or on the first step): alpha (exact lag over `dt`, as
//!   `f64`, clamped to `[0, 1]`), the exact lag rounded down, ticks run;
//! * the deadline: when the next tick is due, or at once when the cap left a backlog (both
//!   from the latest `now`);
//! * what was lost: the clock going backwards (by how much), ticks discarded by the max frame
//!   delta (first index, count and the virtual time discarded; the oldest due ticks go and the
//!   tick number jumps over them), and ticks deferred by the per-step cap.
//!
//! The rules for backwards time, empty frames and the max frame delta are tickfold's (a
//! backwards `now` passes no time; a frame at the latest `now` renders nothing; beyond the max
//! frame delta only as many ticks run as are due by the later of the step's start plus the
//! delta and the next tick's due time). What the floor leaves out: several clocks, the constant-rate policies,
//! phase, hysteresis, the nearest firing rule, time scale, pause, render cap and the end of
//! time (its grid saturates instead). Generic `Timestamp`s are out too: times are `u64` ns.

/// `m·num/den` split as `q + r/den`, walked by adding `num/den` split the same way.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Point {
    /// Which multiple of the period.
    pub m: u64,
    /// Whole ns.
    pub q: u64,
    /// Remainder, in `1/den` ns.
    pub r: u64,
}

impl Point {
    #[inline(always)]
    fn ceil(self) -> u64 {
        self.q + u64::from(self.r > 0)
    }

    #[inline(always)]
    fn advance(&mut self, pq: u64, pr: u64, den: u64) {
        self.m += 1;
        self.q = self.q.saturating_add(pq);
        self.r += pr;
        if self.r >= den {
            self.r -= den;
            self.q = self.q.saturating_add(1);
        }
    }

    fn at(m: u64, num: u64, den: u64) -> Point {
        let x = u128::from(m) * u128::from(num);
        let q = u64::try_from(x / u128::from(den)).unwrap_or(u64::MAX);
        Point {
            m,
            q,
            r: (x % u128::from(den)) as u64,
        }
    }
}

/// One update, as [`FloorStep::ticks`] yields it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FloorTick {
    /// Tick number.
    pub index: u64,
    /// Start of the tick, rounded down, ns.
    pub t: u64,
    /// Virtual time less the tick's exact start, rounded down (negative never happens here, but
    /// the type is tickfold's: signed).
    pub lag: i64,
    /// Whether this is the step's last update.
    pub last_in_step: bool,
}

/// What one step of the floor reports.
#[derive(Copy, Clone, Debug, Default)]
pub struct FloorStep {
    /// Index of the first update.
    pub first: u64,
    /// Updates in this step.
    pub count: u64,
    /// The grid point of the first update's start.
    start: Point,
    /// The step's virtual time, ns.
    virt: u64,
    /// Whether the step renders.
    pub renders: bool,
    /// Render alpha in `[0, 1]`.
    pub alpha: f64,
    /// Exact lag after the updates, rounded down, ns.
    pub lag: i64,
    /// Ticks run so far.
    pub ticks: u64,
    /// When to step again, ns since the start.
    pub deadline: u64,
    /// How far the clock went backwards (0 if not).
    pub backwards: u64,
    /// Ticks discarded by the max frame delta: the first, how many (0: none), and the virtual
    /// time discarded.
    pub discarded: (u64, u64, u64),
    /// Ticks due but deferred by the cap.
    pub deferred: u64,
    /// Tick period (`dt` is `num/den` ns).
    pub num: u64,
    /// Tick period denominator.
    pub den: u64,
    pq: u64,
    pr: u64,
}

impl FloorStep {
    /// The tick length, `num/den` ns.
    pub fn dt(&self) -> (u64, u64) {
        (self.num, self.den)
    }

    /// The updates of the step, in order.
    #[inline(always)]
    pub fn ticks(&self) -> impl Iterator<Item = FloorTick> + '_ {
        let mut p = self.start;
        let (pq, pr, den, virt, count) = (self.pq, self.pr, self.den, self.virt, self.count);
        (0..count).map(move |i| {
            let tick = FloorTick {
                index: self.first + i,
                t: p.q,
                lag: virt.wrapping_sub(p.ceil()) as i64,
                last_in_step: i + 1 == count,
            };
            p.advance(pq, pr, den);
            tick
        })
    }
}

/// The floor loop's state.
#[derive(Clone, Debug)]
pub struct FloorLoop {
    num: u64,
    den: u64,
    pq: u64,
    pr: u64,
    num_f: f64,
    den_f: f64,
    cap: u64,
    max_delta: u64,
    /// Whether a step has run.
    started: bool,
    /// Latest `now`.
    last: u64,
    virt: u64,
    /// Start of the next tick, and its end (the next tick's due time, rounded up).
    start: Point,
    end: Point,
    ran: u64,
    /// The latest step's report.
    pub out: FloorStep,
}

impl FloorLoop {
    /// Ticks of `num/den` ns, at most `cap` updates per step, max frame delta `max_delta` ns
    /// (`u64::MAX`: none).
    pub fn new(num: u64, den: u64, cap: u64, max_delta: u64) -> FloorLoop {
        let (pq, pr) = (num / den, num % den);
        FloorLoop {
            num,
            den,
            pq,
            pr,
            num_f: num as f64,
            den_f: den as f64,
            cap,
            max_delta,
            started: false,
            last: 0,
            virt: 0,
            start: Point::at(0, num, den),
            end: Point::at(1, num, den),
            ran: 0,
            out: FloorStep {
                num,
                den,
                pq,
                pr,
                ..FloorStep::default()
            },
        }
    }

    /// Ticks that come due by virtual time `v`: `⌊v·den/num⌋`.
    fn due_by(&self, v: u64) -> u64 {
        let x = u128::from(v) * u128::from(self.den) / u128::from(self.num);
        u64::try_from(x).unwrap_or(u64::MAX)
    }

    /// Moves the grid to tick `m`.
    fn goto(&mut self, m: u64) {
        self.start = Point::at(m, self.num, self.den);
        self.end = Point::at(m + 1, self.num, self.den);
    }

    /// The max frame delta: virtual time moves by `elapsed`; of the ticks due by then, those
    /// past the later of the step's start plus the delta and the next tick's due time are
    /// too many, and that many of the oldest are discarded (the tick number jumps over them).
    /// Returns the first discarded tick, how many, and the virtual time discarded.
    #[cold]
    #[inline(never)]
    fn clamp(&mut self, elapsed: u64) -> (u64, u64, u64) {
        let limit = (self.virt.saturating_add(self.max_delta)).max(self.end.ceil());
        self.virt = self.virt.saturating_add(elapsed);
        if self.virt <= limit {
            return (0, 0, 0);
        }
        let next = self.start.m;
        let kept = self.due_by(limit).max(next);
        let count = self.due_by(self.virt).saturating_sub(kept);
        if count == 0 {
            return (0, 0, 0);
        }
        self.goto(next + count);
        (next, count, self.virt - limit)
    }

    /// The backlog bound under sustained overload (tickfold's, see its `max_frame_delta`): the
    /// cap left a backlog at `v`; when its oldest tick is more than the max frame delta behind,
    /// the ticks due by `v` less half the delta are given up (the tick number jumps over them).
    /// Returns what was given up (first, count, the grid span in ns) and whether ticks are
    /// still owed.
    #[cold]
    #[inline(never)]
    fn bound(&mut self, v: u64) -> (Option<(u64, u64, u64)>, bool) {
        let behind = v
            .checked_sub(self.max_delta)
            .is_some_and(|limit| self.end.ceil() <= limit);
        if self.max_delta == u64::MAX || !behind {
            return (None, true);
        }
        let first = self.start.m;
        let upto = self.due_by(v - self.max_delta / 2);
        if upto <= first {
            return (None, true);
        }
        let from = self.start.ceil();
        self.goto(upto);
        let shed = (first, upto - first, self.start.ceil() - from);
        (Some(shed), v >= self.end.ceil())
    }

    /// Ticks due and not run (the cap stopped the step), discarded ones left out.
    #[cold]
    #[inline(never)]
    fn deferred(&self, v: u64) -> u64 {
        self.due_by(v) - self.start.m
    }

    /// One step at `now` (ns since the start); the report is in [`FloorLoop::out`].
    /// `#[inline(always)]`: a floor, with nothing in the way (the rare paths are out of line).
    #[inline(always)]
    pub fn step(&mut self, now: u64) {
        let first_step = !self.started;
        self.started = true;
        let (elapsed, backwards) = if now >= self.last {
            (now - self.last, 0)
        } else {
            (0, self.last - now)
        };
        self.last += elapsed;
        let discarded = if elapsed > self.max_delta {
            self.clamp(elapsed)
        } else {
            self.virt += elapsed;
            (0, 0, 0)
        };
        let v = self.virt;
        let (first, start) = (self.start.m, self.start);
        let mut count = 0;
        while count < self.cap && v >= self.end.ceil() {
            self.start = self.end;
            self.end.advance(self.pq, self.pr, self.den);
            count += 1;
        }
        self.ran += count;
        let mut backlog = count == self.cap && v >= self.end.ceil();
        let mut discarded = discarded;
        if backlog {
            let (shed, owed) = self.bound(v);
            if let Some(shed) = shed {
                discarded = shed;
            }
            backlog = owed;
        }
        let renders = first_step || elapsed > 0;
        let deferred = if backlog { self.deferred(v).max(1) } else { 0 };
        let out = &mut self.out;
        out.first = first;
        out.count = count;
        out.start = start;
        out.virt = v;
        out.renders = renders;
        if renders {
            let whole = v.wrapping_sub(self.start.q) as i64;
            out.alpha =
                ((whole as f64 * self.den_f - self.start.r as f64) / self.num_f).clamp(0.0, 1.0);
            out.lag = v.wrapping_sub(self.start.ceil()) as i64;
            out.ticks = self.ran;
        }
        // From the latest `now` (later than `now` when the clock went backwards).
        out.deadline = if backlog {
            self.last
        } else {
            self.last.saturating_add(self.end.ceil() - v)
        };
        out.backwards = backwards;
        out.discarded = discarded;
        out.deferred = deferred;
    }

    /// Ticks run so far.
    pub fn ticks_run(&self) -> u64 {
        self.ran
    }
}
