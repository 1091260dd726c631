//! A list of usually zero or one item: the item inline, more in a spill list (a `Vec`, or a
//! `SmallVec` that holds a few more inline). The storage of a step's rarer events and of its
//! runs, cheap to create (nothing but empty markers is written) and to clear (a cleared list
//! keeps its heap capacity).

use alloc::vec::Vec;
use smallvec::SmallVec;

/// Where a [`Few`] keeps its items once it has two or more.
pub(crate) trait Spill<E>: Default {
    fn push(&mut self, e: E);
    fn as_slice(&self) -> &[E];
    fn clear(&mut self);
    /// Whether the list has ever needed the heap.
    fn spilled(&self) -> bool;
}

impl<E> Spill<E> for Vec<E> {
    #[inline]
    fn push(&mut self, e: E) {
        Vec::push(self, e);
    }
    #[inline]
    fn as_slice(&self) -> &[E] {
        self
    }
    #[inline]
    fn clear(&mut self) {
        Vec::clear(self);
    }
    #[inline]
    fn spilled(&self) -> bool {
        self.capacity() > 0
    }
}

impl<E, const N: usize> Spill<E> for SmallVec<[E; N]> {
    #[inline]
    fn push(&mut self, e: E) {
        SmallVec::push(self, e);
    }
    #[inline]
    fn as_slice(&self) -> &[E] {
        self
    }
    #[inline]
    fn clear(&mut self) {
        SmallVec::clear(self);
    }
    #[inline]
    fn spilled(&self) -> bool {
        SmallVec::spilled(self)
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Few<E, S = Vec<E>> {
    /// The only item, while `len` is 1 (left behind otherwise).
    one: Option<E>,
    /// Every item, while `len` is 2 or more (left behind otherwise, and emptied only when it
    /// is needed again: clearing the list writes nothing but `len`).
    more: S,
    len: u32,
}

impl<E, S: Spill<E>> Few<E, S> {
    /// An empty list.
    #[inline]
    pub(crate) fn new() -> Few<E, S> {
        Few {
            one: None,
            more: S::default(),
            len: 0,
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, e: E) {
        if self.len == 0 {
            self.one = Some(e);
            self.len = 1;
        } else {
            self.push_more(e);
        }
    }

    /// [`push`](Self::push) onto one item or more: the items go to `more`.
    fn push_more(&mut self, e: E) {
        if self.len == 1 {
            self.more.clear();
            if let Some(first) = self.one.take() {
                self.more.push(first);
            }
        }
        self.more.push(e);
        self.len = self.len.saturating_add(1);
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[E] {
        match self.len {
            0 => &[],
            1 => self.one.as_slice(),
            _ => self.more.as_slice(),
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// Empties the list, keeping the heap capacity.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Whether the list has ever needed the heap.
    #[inline]
    pub(crate) fn spilled(&self) -> bool {
        self.more.spilled()
    }
}

impl<E, S: Spill<E>> Extend<E> for Few<E, S> {
    fn extend<I: IntoIterator<Item = E>>(&mut self, iter: I) {
        for e in iter {
            self.push(e);
        }
    }
}
