//! The snapshot target's world: every operation applied to the real types and to the `Vec`
//! models, and the checks after each.

use super::*;

impl<T: Elem> World<T> {
    fn tracked(&mut self, which: Which) -> (&mut Tracked<T>, &mut Vec<T>) {
        match which {
            Which::A => (&mut self.a, &mut self.model_a),
            Which::B => (&mut self.b, &mut self.model_b),
            // The buffer's front through the ring API is the only `&mut Tracked` it exposes;
            // element writes on the buffer go through its own methods (see `apply_buf`).
            Which::Buf => unreachable!("the buffer is handled by apply_buf"),
        }
    }

    pub(super) fn apply(&mut self, op: &Op) {
        match *op {
            Op::Set(Which::Buf, ..)
            | Op::GetMut(Which::Buf, ..)
            | Op::IndexMut(Which::Buf, ..)
            | Op::SliceMut(Which::Buf, ..)
            | Op::WholeMut(Which::Buf, ..)
            | Op::Push(Which::Buf, ..)
            | Op::SwapRemove(Which::Buf, ..)
            | Op::Truncate(Which::Buf, ..)
            | Op::Resize(Which::Buf, ..) => self.apply_buf(op),
            Op::Set(w, i, v) => {
                let (t, m) = self.tracked(w);
                let (i, v) = (usize::from(i), T::make(v));
                let r = t.set(i, v);
                if i < m.len() {
                    check!(r.is_ok(), "set({i}) in range failed: {r:?}");
                    m[i] = v;
                } else {
                    check!(
                        r == Err(oob(i, m.len())),
                        "set({i}) past {}: {r:?}",
                        m.len()
                    );
                }
            }
            Op::GetMut(w, i, v) => {
                let (t, m) = self.tracked(w);
                let (i, v) = (usize::from(i), T::make(v));
                match t.get_mut(i) {
                    Some(x) => {
                        check!(i < m.len(), "get_mut({i}) past the end gave Some");
                        *x = v;
                        m[i] = v;
                    }
                    None => check!(i >= m.len(), "get_mut({i}) in range gave None"),
                }
            }
            Op::IndexMut(w, i, v) => {
                let (t, m) = self.tracked(w);
                let (i, v) = (usize::from(i), T::make(v));
                if i < m.len() {
                    t[i] = v;
                    m[i] = v;
                }
            }
            Op::SliceMut(w, s, e, v) => {
                let (t, m) = self.tracked(w);
                let (s, e, v) = (usize::from(s), usize::from(e), T::make(v));
                let r = t.slice_mut(s..e);
                if s > e {
                    check!(
                        r.err() == Some(SnapshotError::BadRange { start: s, end: e }),
                        "slice_mut({s}..{e}) not BadRange"
                    );
                } else if e > m.len() {
                    check!(
                        r.err() == Some(oob(e, m.len())),
                        "slice_mut({s}..{e}) past {} not OutOfBounds",
                        m.len()
                    );
                } else {
                    match r {
                        Ok(x) => {
                            check!(x.len() == e - s, "slice_mut length");
                            x.fill(v);
                            m[s..e].fill(v);
                        }
                        Err(err) => check!(false, "slice_mut({s}..{e}) failed: {err:?}"),
                    }
                }
            }
            Op::WholeMut(w, i, v) => {
                let (t, m) = self.tracked(w);
                let (i, v) = (usize::from(i), T::make(v));
                let x = t.as_mut_slice();
                if let Some(x) = x.get_mut(i) {
                    *x = v;
                    m[i] = v;
                }
            }
            Op::Push(w, v) => {
                let (t, m) = self.tracked(w);
                if m.len() < MAX_LEN {
                    t.push(T::make(v));
                    m.push(T::make(v));
                }
            }
            Op::SwapRemove(w, i) => {
                let (t, m) = self.tracked(w);
                let i = usize::from(i);
                let r = t.swap_remove(i);
                if i < m.len() {
                    let expected = m.swap_remove(i);
                    check!(r == Ok(expected), "swap_remove({i}) gave {r:?}");
                } else {
                    check!(
                        r == Err(oob(i, m.len())),
                        "swap_remove({i}) past the end: {r:?}"
                    );
                }
            }
            Op::Truncate(w, n) => {
                let (t, m) = self.tracked(w);
                t.truncate(usize::from(n));
                m.truncate(usize::from(n));
            }
            Op::Resize(w, n, v) => {
                let (t, m) = self.tracked(w);
                let n = usize::from(n) % MAX_LEN;
                t.resize(n, T::make(v));
                m.resize(n, T::make(v));
            }
            Op::Threshold(w, p) => {
                let r = match w {
                    // The buffer's front is only reachable through `Tracked` before it is built.
                    Which::Buf => self.a.set_full_copy_percent(p),
                    w => self.tracked(w).0.set_full_copy_percent(p),
                };
                if p > 100 {
                    check!(
                        r == Err(SnapshotError::BadThreshold { percent: p }),
                        "threshold {p} accepted"
                    );
                } else {
                    check!(r.is_ok(), "threshold {p} refused");
                }
            }
            Op::Capture => {
                self.buf.capture();
                self.back.clone_from(&self.front);
            }
            Op::BeforeUpdate(last) => {
                let tick = Tick {
                    clock: ClockId(0),
                    index: 0,
                    t: Nanos(0),
                    dt: Period::ONE_SECOND,
                    lag: tickfold::Lag::ZERO,
                    last_in_step: last,
                };
                let c = self.buf.before_update(&tick);
                check!(
                    c.is_some() == last,
                    "before_update captured: {}",
                    c.is_some()
                );
                if last {
                    self.back.clone_from(&self.front);
                }
            }
            Op::Publish(i, v) => {
                let i = usize::from(i);
                if let Some(x) = self.buf.back_mut().get_mut(i) {
                    *x = T::make(v);
                    self.back[i] = T::make(v);
                }
                self.buf.publish();
                std::mem::swap(&mut self.front, &mut self.back);
            }
            Op::Write(ref next) => {
                let next: Vec<T> = next.iter().map(|v| T::make(*v)).collect();
                let r = self.buf.write(&next);
                if next.len() == self.front.len() {
                    check!(r.is_ok(), "write of the right length failed: {r:?}");
                    self.back = std::mem::replace(&mut self.front, next);
                } else {
                    check!(
                        r == Err(SnapshotError::LengthMismatch {
                            expected: self.back.len(),
                            got: next.len()
                        }),
                        "write of {} elements into {}: {r:?}",
                        next.len(),
                        self.back.len()
                    );
                }
            }
            Op::WriteWith => {
                let n = self.buf.write_with(|front, back| {
                    for (b, f) in back.iter_mut().zip(front) {
                        *b = f.bump();
                    }
                    back.len()
                });
                check!(n == self.back.len(), "write_with's back has another length");
                for (b, f) in self.back.iter_mut().zip(&self.front) {
                    *b = f.bump();
                }
                std::mem::swap(&mut self.front, &mut self.back);
            }
            Op::WriteGuard(i, v) => {
                let i = usize::from(i);
                {
                    let mut g = self.buf.write_guard();
                    check!(g.current() == &self.front[..], "the guard's front is wrong");
                    if let Some(x) = g.get_mut(i) {
                        *x = T::make(v);
                    }
                }
                if let Some(x) = self.back.get_mut(i) {
                    *x = T::make(v);
                }
                std::mem::swap(&mut self.front, &mut self.back);
            }
            Op::Save(r, w, tick) => self.save(usize::from(r), w, u64::from(tick)),
            Op::Load(r, w, tick) => self.load(usize::from(r), w, u64::from(tick)),
            Op::Persist(p) => self.persist(p),
        }
    }

    /// Element operations on the buffer: both buffers change length together.
    fn apply_buf(&mut self, op: &Op) {
        let (f, b) = (&mut self.front, &mut self.back);
        match *op {
            Op::Set(_, i, v) => {
                let (i, v) = (usize::from(i), T::make(v));
                let r = self.buf.set(i, v);
                if i < f.len() {
                    check!(r.is_ok(), "buffer set({i}) failed");
                    f[i] = v;
                } else {
                    check!(
                        r == Err(oob(i, f.len())),
                        "buffer set({i}) past the end: {r:?}"
                    );
                }
            }
            Op::GetMut(_, i, v) | Op::IndexMut(_, i, v) => {
                let (i, v) = (usize::from(i), T::make(v));
                match self.buf.get_mut(i) {
                    Some(x) => {
                        check!(i < f.len(), "buffer get_mut({i}) past the end");
                        *x = v;
                        f[i] = v;
                    }
                    None => check!(i >= f.len(), "buffer get_mut({i}) in range gave None"),
                }
            }
            Op::SliceMut(_, s, e, v) => {
                let (s, e, v) = (usize::from(s), usize::from(e), T::make(v));
                match self.buf.slice_mut(s..e) {
                    Ok(x) => {
                        check!(
                            s <= e && e <= f.len(),
                            "buffer slice_mut({s}..{e}) accepted"
                        );
                        x.fill(v);
                        f[s..e].fill(v);
                    }
                    Err(err) => check!(
                        s > e || e > f.len(),
                        "buffer slice_mut({s}..{e}) refused: {err:?}"
                    ),
                }
            }
            Op::WholeMut(_, i, v) => {
                let (i, v) = (usize::from(i), T::make(v));
                if let Some(x) = self.buf.current_mut().get_mut(i) {
                    *x = v;
                    f[i] = v;
                }
            }
            Op::Push(_, v) if f.len() < MAX_LEN => {
                self.buf.push(T::make(v));
                f.push(T::make(v));
                b.push(T::make(v));
            }
            Op::SwapRemove(_, i) => {
                let i = usize::from(i);
                let r = self.buf.swap_remove(i);
                if i < f.len() && i < b.len() {
                    let expected = f.swap_remove(i);
                    b.swap_remove(i);
                    check!(r == Ok(expected), "buffer swap_remove({i}) gave {r:?}");
                } else {
                    check!(r.is_err(), "buffer swap_remove({i}) past the end succeeded");
                }
            }
            Op::Truncate(_, n) => {
                self.buf.truncate(usize::from(n));
                f.truncate(usize::from(n));
                b.truncate(usize::from(n));
            }
            Op::Resize(_, n, v) => {
                let n = usize::from(n) % MAX_LEN;
                self.buf.resize(n, T::make(v));
                f.resize(n, T::make(v));
                b.resize(n, T::make(v));
            }
            _ => {}
        }
    }

    fn save(&mut self, r: usize, which: Which, tick: u64) {
        let (data, chunk_len) = match which {
            Which::A => {
                self.rings[r].save(tick, &mut self.a);
                (self.model_a.clone(), self.a.chunk_len())
            }
            Which::B => {
                self.rings[r].save(tick, &mut self.b);
                (self.model_b.clone(), self.b.chunk_len())
            }
            Which::Buf => {
                self.rings[r].save_buffer(tick, &mut self.buf);
                (self.front.clone(), self.buf.tracked().chunk_len())
            }
        };
        let m = &mut self.ring_models[r];
        let s = m.slot(tick);
        m.slots[s] = Some(SavedSlot {
            tick,
            data,
            chunk_len,
        });
    }

    fn load(&mut self, r: usize, which: Which, tick: u64) {
        let held = self.ring_models[r].holds(tick).map(|s| s.data.clone());
        if matches!(which, Which::Buf)
            && crate::skipped("buffer_length")
            && held.as_ref().is_some_and(|d| d.len() != self.front.len())
        {
            return;
        }
        let result = match which {
            Which::A => self.rings[r].load(tick, &mut self.a),
            Which::B => self.rings[r].load(tick, &mut self.b),
            Which::Buf => self.rings[r].load_buffer(tick, &mut self.buf),
        };
        match held {
            Some(data) => {
                check!(
                    result.is_ok(),
                    "load({tick}) of a held tick failed: {result:?}"
                );
                match which {
                    Which::A => self.model_a = data,
                    Which::B => self.model_b = data,
                    Which::Buf => {
                        // The documented rule: a load of another length makes the back a copy
                        // of the loaded front; one of the same length keeps the back.
                        if data.len() != self.back.len() {
                            self.back.clone_from(&data);
                        }
                        self.front = data;
                    }
                }
            }
            None => {
                let m = &self.ring_models[r];
                let holds = m.slots[m.slot(tick)].as_ref().map(|s| s.tick);
                check!(
                    result == Err(TickNotInRing { tick, holds }),
                    "load({tick}) of a tick not held: {result:?} (slot holds {holds:?})"
                );
            }
        }
    }

    fn persist(&mut self, op: PersistOp) {
        let p = &mut self.persistent;
        let (cur, prev) = (&mut self.cur, &mut self.prev);
        match op {
            PersistOp::Set(i, v) => {
                let (i, v) = (usize::from(i), T::make(v));
                let r = p.set(i, v);
                if i < cur.len() {
                    check!(r.is_ok(), "persistent set({i}) failed");
                    cur[i] = v;
                } else {
                    check!(r == Err(oob(i, cur.len())), "persistent set({i}): {r:?}");
                }
            }
            PersistOp::GetMut(i, v) => {
                let (i, v) = (usize::from(i), T::make(v));
                match p.get_mut(i) {
                    Some(x) => {
                        check!(i < cur.len(), "persistent get_mut({i}) past the end");
                        *x = v;
                        cur[i] = v;
                    }
                    None => check!(i >= cur.len(), "persistent get_mut({i}) gave None"),
                }
            }
            PersistOp::Push(v) => {
                if cur.len() < MAX_LEN {
                    p.push(T::make(v));
                    cur.push(T::make(v));
                    prev.push(T::make(v));
                }
            }
            PersistOp::Remove(i) => {
                let i = usize::from(i);
                let r = p.remove(i);
                if i < cur.len() {
                    prev.remove(i);
                    check!(r == Ok(cur.remove(i)), "persistent remove({i}): {r:?}");
                } else {
                    check!(r == Err(oob(i, cur.len())), "persistent remove({i}): {r:?}");
                }
            }
            PersistOp::SwapRemove(i) => {
                let i = usize::from(i);
                let r = p.swap_remove(i);
                if i < cur.len() {
                    prev.swap_remove(i);
                    check!(
                        r == Ok(cur.swap_remove(i)),
                        "persistent swap_remove({i}): {r:?}"
                    );
                } else {
                    check!(
                        r == Err(oob(i, cur.len())),
                        "persistent swap_remove({i}): {r:?}"
                    );
                }
            }
            PersistOp::Truncate(n) => {
                p.truncate(usize::from(n));
                cur.truncate(usize::from(n));
                prev.truncate(usize::from(n));
            }
            PersistOp::Capture => {
                p.capture();
                prev.clone_from(cur);
            }
            PersistOp::BeforeUpdate(last) => {
                let tick = Tick {
                    clock: ClockId(0),
                    index: 0,
                    t: Nanos(0),
                    dt: Period::ONE_SECOND,
                    lag: tickfold::Lag::ZERO,
                    last_in_step: last,
                };
                check!(p.before_update(&tick) == last, "persistent before_update");
                if last {
                    prev.clone_from(cur);
                }
            }
        }
    }

    /// Everything observable equals the models; ring checksums equal the ones from scratch.
    pub(super) fn check(&self) {
        check!(
            self.a.as_slice() == &self.model_a[..],
            "Tracked A differs from its model"
        );
        check!(
            self.b.as_slice() == &self.model_b[..],
            "Tracked B differs from its model"
        );
        check!(
            self.buf.current() == &self.front[..],
            "buffer front differs from its model"
        );
        check!(
            crate::skipped("buffer_length") || self.buf.previous() == &self.back[..],
            "buffer back differs from its model"
        );
        check!(
            crate::skipped("buffer_length")
                || self.buf.current().len() == self.buf.previous().len(),
            "buffer front has {} elements, back {}: index i no longer names one entity",
            self.buf.current().len(),
            self.buf.previous().len()
        );
        check!(self.buf.len() == self.front.len(), "buffer len");
        for (t, m) in [(&self.a, &self.model_a), (&self.b, &self.model_b)] {
            check!(
                t.chunk_count() == m.len().div_ceil(t.chunk_len()),
                "chunk_count {} for {} elements in chunks of {}",
                t.chunk_count(),
                m.len(),
                t.chunk_len()
            );
        }
        for (ring, model) in self.rings.iter().zip(&self.ring_models) {
            let mut held: Vec<u64> = model.slots.iter().flatten().map(|s| s.tick).collect();
            let mut ticks: Vec<u64> = ring.ticks().collect();
            held.sort_unstable();
            ticks.sort_unstable();
            check!(held == ticks, "ring holds {ticks:?}, model {held:?}");
            for s in model.slots.iter().flatten() {
                check!(ring.contains(s.tick), "ring lost tick {}", s.tick);
                check!(
                    ring.get(s.tick) == Some(&s.data[..]),
                    "ring's tick {} differs from what was saved",
                    s.tick
                );
                let (chunks, state) = checksums(&s.data, s.chunk_len);
                check!(
                    ring.chunk_checksums(s.tick) == Some(&chunks[..]),
                    "chunk checksums of tick {} differ from XXH3-64 of its chunks",
                    s.tick
                );
                check!(
                    ring.checksum(s.tick) == Some(state),
                    "state checksum of tick {} differs from the recomputed one",
                    s.tick
                );
            }
        }
        check!(
            self.persistent.current().iter().eq(self.cur.iter()),
            "persistent current differs"
        );
        check!(
            self.persistent.previous().iter().eq(self.prev.iter()),
            "persistent previous differs"
        );
        check!(self.persistent.len() == self.cur.len(), "persistent len");
    }
}
