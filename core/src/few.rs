//! A list of usually zero or one item: the item inline, more in a `Vec`. The storage of a
//! step's rarer events and of its runs, cheap to create (nothing but empty markers is written)
//! and to clear (a cleared list keeps its heap capacity).

use alloc::vec::Vec;

#[derive(Clone, Debug)]
pub(crate) struct Few<E> {
    /// The only item, while `more` is empty.
    one: Option<E>,
    /// Every item, once there were two or more since the last clear.
    more: Vec<E>,
}

impl<E> Few<E> {
    /// An empty list.
    #[inline]
    pub(crate) const fn new() -> Few<E> {
        Few {
            one: None,
            more: Vec::new(),
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, e: E) {
        if self.more.is_empty() {
            match self.one.take() {
                None => {
                    self.one = Some(e);
                    return;
                }
                Some(first) => self.more.push(first),
            }
        }
        self.more.push(e);
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[E] {
        if self.more.is_empty() {
            self.one.as_slice()
        } else {
            &self.more
        }
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut E> {
        if self.more.is_empty() {
            self.one.as_mut().filter(|_| i == 0)
        } else {
            self.more.get_mut(i)
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// Empties the list, keeping the heap capacity.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.one = None;
        self.more.clear();
    }

    /// Whether the list has ever needed the heap.
    #[inline]
    pub(crate) fn spilled(&self) -> bool {
        self.more.capacity() > 0
    }
}

impl<E> Extend<E> for Few<E> {
    fn extend<I: IntoIterator<Item = E>>(&mut self, iter: I) {
        for e in iter {
            self.push(e);
        }
    }
}
