//! Sockets for ggrs: loopback UDP on a port the OS picks, an in-memory network on a simulated
//! clock, and a seeded link that adds latency, jitter (hence reordering) and loss.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::io::{self, ErrorKind};
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::rc::Rc;
use std::time::Instant;

use ggrs::{Message, NonBlockingSocket};
use tickfold_testing::SplitMix64;

/// Largest datagram read; ggrs's own UDP socket reads 4096 bytes too.
const RECV_BUFFER: usize = 4096;

/// What a link does to packets: one-way latency, ± jitter (uniform), and loss, drawn from a
/// [`SplitMix64`] seeded with `seed`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinkConfig {
    /// One-way latency, ns.
    pub latency_ns: u64,
    /// Uniform jitter: each packet's delay is `latency ± jitter`, so packets reorder.
    pub jitter_ns: u64,
    /// Packets lost per 10,000.
    pub loss_per_10k: u32,
    /// Seed of the link's generator.
    pub seed: u64,
}

impl LinkConfig {
    /// A perfect link: no delay, no loss.
    pub const PERFECT: LinkConfig = LinkConfig {
        latency_ns: 0,
        jitter_ns: 0,
        loss_per_10k: 0,
        seed: 0,
    };

    /// Latency and jitter in ms, loss in percent.
    #[must_use]
    pub fn new(latency_ms: u64, jitter_ms: u64, loss_percent: u32, seed: u64) -> LinkConfig {
        LinkConfig {
            latency_ns: latency_ms.saturating_mul(1_000_000),
            jitter_ns: jitter_ms.saturating_mul(1_000_000),
            loss_per_10k: loss_percent.saturating_mul(100).min(10_000),
            seed,
        }
    }
}

/// Counters of one socket: nothing it drops goes unreported.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SocketStats {
    /// Packets handed to the link.
    pub sent: u64,
    /// Packets the link dropped on purpose (simulated loss).
    pub lost: u64,
    /// Messages received and decoded.
    pub received: u64,
    /// Datagrams that did not decode as a ggrs message: skipped, counted here.
    pub malformed: u64,
    /// Messages that could not be encoded.
    pub encode_errors: u64,
    /// Send or receive errors from the OS (other than "would block").
    pub io_errors: u64,
    /// The kind of the latest OS error.
    pub last_error: Option<ErrorKind>,
}

/// The impairments of one direction: decides each packet's fate and delivery time.
#[derive(Debug)]
struct Link {
    config: LinkConfig,
    rng: SplitMix64,
}

impl Link {
    fn new(config: LinkConfig) -> Link {
        Link {
            config,
            rng: SplitMix64::new(config.seed),
        }
    }

    /// `None`: lost; `Some(t)`: deliver at `t`.
    fn route(&mut self, now: u64) -> Option<u64> {
        let c = self.config;
        if c.loss_per_10k > 0 && self.rng.below(10_000) < u64::from(c.loss_per_10k) {
            return None;
        }
        let jitter = self.rng.below(2 * c.jitter_ns + 1);
        Some(
            now.saturating_add(c.latency_ns.saturating_add(jitter))
                .saturating_sub(c.jitter_ns),
        )
    }

    /// One outgoing message, counted in `stats`: `None` when it does not encode or the link
    /// loses it, else its bytes and when to deliver them.
    fn send(&mut self, msg: &Message, now: u64, stats: &mut SocketStats) -> Option<(u64, Vec<u8>)> {
        stats.sent += 1;
        let Ok(bytes) = bincode::serialize(msg) else {
            stats.encode_errors += 1;
            return None;
        };
        let at = self.route(now);
        if at.is_none() {
            stats.lost += 1;
        }
        at.map(|at| (at, bytes))
    }
}

fn decode(bytes: &[u8], stats: &mut SocketStats) -> Option<Message> {
    let msg = bincode::deserialize(bytes).ok();
    match msg {
        Some(_) => stats.received += 1,
        None => stats.malformed += 1,
    }
    msg
}

/// A [`NonBlockingSocket`] over a UDP socket bound to `127.0.0.1` on a port the OS picks (so
/// tests never collide, and [`local_addr`](LoopbackSocket::local_addr) says where it is), with
/// a seeded [`LinkConfig`] applied to outgoing packets on the wall clock.
///
/// Unlike ggrs's `UdpNonBlockingSocket` it never binds every interface, never panics on an
/// encoding error and counts malformed datagrams and OS errors in [`SocketStats`].
#[derive(Debug)]
pub struct LoopbackSocket {
    socket: UdpSocket,
    addr: SocketAddr,
    buf: Box<[u8]>,
    link: Link,
    start: Instant,
    delayed: Vec<(u64, SocketAddr, Vec<u8>)>,
    stats: Rc<RefCell<SocketStats>>,
}

impl LoopbackSocket {
    /// Binds `127.0.0.1:0`, non-blocking.
    ///
    /// # Errors
    ///
    /// The OS's, when it cannot bind or switch to non-blocking.
    pub fn bind(link: LinkConfig) -> io::Result<LoopbackSocket> {
        let socket = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0))?;
        socket.set_nonblocking(true)?;
        Ok(LoopbackSocket {
            addr: socket.local_addr()?,
            socket,
            buf: vec![0; RECV_BUFFER].into_boxed_slice(),
            link: Link::new(link),
            start: Instant::now(),
            delayed: Vec::new(),
            stats: Rc::default(),
        })
    }

    /// The address the OS gave it.
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// A handle on its counters that stays readable after the socket moves into a session.
    #[must_use]
    pub fn stats_handle(&self) -> Rc<RefCell<SocketStats>> {
        Rc::clone(&self.stats)
    }

    fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    fn flush(&mut self) {
        let now = self.now();
        let mut i = 0;
        while i < self.delayed.len() {
            if self.delayed[i].0 <= now {
                let (_, to, bytes) = self.delayed.swap_remove(i);
                if let Err(e) = self.socket.send_to(&bytes, to) {
                    let stats = &mut *self.stats.borrow_mut();
                    stats.io_errors += 1;
                    stats.last_error = Some(e.kind());
                }
            } else {
                i += 1;
            }
        }
    }
}

impl NonBlockingSocket<SocketAddr> for LoopbackSocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        let now = self.now();
        let sent = self.link.send(msg, now, &mut self.stats.borrow_mut());
        if let Some((at, bytes)) = sent {
            self.delayed.push((at, *addr, bytes));
        }
        self.flush();
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        self.flush();
        let mut out = Vec::new();
        let stats = &mut *self.stats.borrow_mut();
        loop {
            match self.socket.recv_from(&mut self.buf) {
                Ok((n, from)) => {
                    if let Some(msg) = decode(&self.buf[..n], stats) {
                        out.push((from, msg));
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => return out,
                // Windows reports an earlier send's ICMP "port unreachable" here; not fatal.
                Err(e) if e.kind() == ErrorKind::ConnectionReset => {
                    stats.last_error = Some(e.kind());
                }
                Err(e) => {
                    stats.io_errors += 1;
                    stats.last_error = Some(e.kind());
                    return out;
                }
            }
        }
    }
}

/// A simulated clock in ns, shared by the sockets of a [`MemoryNet`] and the test driving it.
#[derive(Clone, Debug, Default)]
pub struct SimClock(Rc<Cell<u64>>);

impl SimClock {
    /// A clock at 0.
    #[must_use]
    pub fn new() -> SimClock {
        SimClock::default()
    }

    /// Now, in ns.
    #[must_use]
    pub fn now(&self) -> u64 {
        self.0.get()
    }

    /// Sets the time (it may only move forward; an earlier time is ignored).
    pub fn set(&self, ns: u64) {
        self.0.set(self.0.get().max(ns));
    }
}

type Queue = Vec<(u64, SocketAddr, Vec<u8>)>;

/// An in-memory network on a [`SimClock`]: each packet is encoded as it would be on the wire,
/// delayed by the sender's link and delivered once the simulated time reaches it, so tests of
/// minutes of play run in a fraction of a second, deterministically for the network's part.
/// (ggrs still reads the wall clock for its handshake retries, keep-alives and disconnect
/// timer; see the crate docs.)
#[derive(Clone, Debug, Default)]
pub struct MemoryNet {
    clock: SimClock,
    queues: Rc<RefCell<HashMap<SocketAddr, Queue>>>,
}

impl MemoryNet {
    /// A network on `clock`.
    #[must_use]
    pub fn new(clock: SimClock) -> MemoryNet {
        MemoryNet {
            clock,
            queues: Rc::default(),
        }
    }

    /// A socket at `addr` whose outgoing packets go through `link`.
    #[must_use]
    pub fn socket(&self, addr: SocketAddr, link: LinkConfig) -> MemorySocket {
        self.queues.borrow_mut().entry(addr).or_default();
        MemorySocket {
            net: self.clone(),
            addr,
            link: Link::new(link),
            stats: Rc::default(),
        }
    }

    /// Delivers raw bytes to `to` as if sent by `from`, now: for malformed-packet tests.
    pub fn inject(&self, from: SocketAddr, to: SocketAddr, bytes: Vec<u8>) {
        let now = self.clock.now();
        self.queues
            .borrow_mut()
            .entry(to)
            .or_default()
            .push((now, from, bytes));
    }
}

/// One endpoint of a [`MemoryNet`].
#[derive(Debug)]
pub struct MemorySocket {
    net: MemoryNet,
    addr: SocketAddr,
    link: Link,
    stats: Rc<RefCell<SocketStats>>,
}

impl MemorySocket {
    /// Its address.
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// A handle on its counters that stays readable after the socket moves into a session.
    #[must_use]
    pub fn stats_handle(&self) -> Rc<RefCell<SocketStats>> {
        Rc::clone(&self.stats)
    }
}

impl NonBlockingSocket<SocketAddr> for MemorySocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        let now = self.net.clock.now();
        let sent = self.link.send(msg, now, &mut self.stats.borrow_mut());
        if let Some((at, bytes)) = sent {
            self.net
                .queues
                .borrow_mut()
                .entry(*addr)
                .or_default()
                .push((at, self.addr, bytes));
        }
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let now = self.net.clock.now();
        let mut queues = self.net.queues.borrow_mut();
        let Some(queue) = queues.get_mut(&self.addr) else {
            return Vec::new();
        };
        // Due packets in delivery order (ties by sending order): jitter reorders them.
        queue.sort_by_key(|p| p.0);
        let due = queue.partition_point(|p| p.0 <= now);
        let stats = &mut *self.stats.borrow_mut();
        queue
            .drain(..due)
            .filter_map(|(_, from, bytes)| decode(&bytes, stats).map(|m| (from, m)))
            .collect()
    }
}
