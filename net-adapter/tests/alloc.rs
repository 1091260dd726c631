//! The adapter's save and load path allocates nothing once warm; ggrs's own allocations per
//! `advance_frame` are measured and printed, not hidden. Only the measuring thread counts.

use tickfold_core::{ClockId, Lag, Nanos, Period, Tick};
use tickfold_ggrs::ggrs::{GameStateCell, GgrsRequest, InputStatus};
use tickfold_ggrs::test_support::game::{self, Config, Game};
use tickfold_ggrs::test_support::sync_test::SyncTest;
use tickfold_ggrs::{Refusal, Rollback};

fn count(f: impl FnOnce()) -> u64 {
    allocation_counter::measure(f).count_total
}

/// A tick that is the last of its step: the capture rule captures before its frame.
fn last_tick() -> Tick {
    Tick {
        clock: ClockId::default(),
        index: 0,
        t: Nanos(0),
        dt: Period::from_hz(60).expect("rate"),
        lag: Lag::ZERO,
        last_in_step: true,
    }
}

/// A rollback of 7 frames as ggrs sends it: load, then (save, advance) × 7, then the fresh
/// save and advance. Built outside the measurement: ggrs allocates these, the adapter does not.
fn rollback_requests(from: i32, to: i32) -> Vec<GgrsRequest<Config>> {
    let inputs = || vec![(game::FIRE | game::LEFT, InputStatus::Confirmed); 2];
    let mut requests = vec![GgrsRequest::LoadGameState {
        cell: GameStateCell::default(),
        frame: from,
    }];
    for frame in from..to {
        if frame > from {
            requests.push(GgrsRequest::SaveGameState {
                cell: GameStateCell::default(),
                frame,
            });
        }
        requests.push(GgrsRequest::AdvanceFrame { inputs: inputs() });
    }
    requests.push(GgrsRequest::SaveGameState {
        cell: GameStateCell::default(),
        frame: to,
    });
    requests.push(GgrsRequest::AdvanceFrame { inputs: inputs() });
    requests
}

#[test]
fn save_load_and_resimulate_allocate_nothing_once_warm() {
    let mut world = Game::new();
    let mut rollback = Rollback::<Config, Game>::new(&world, 8, Refusal::Drop).expect("ring");
    let mut sim = game::step;
    let tick = last_tick();
    // Warm up: 40 frames saved one by one, bullets spawned up to their steady count.
    for frame in 0..40 {
        let requests = vec![
            GgrsRequest::SaveGameState {
                cell: GameStateCell::default(),
                frame,
            },
            GgrsRequest::AdvanceFrame {
                inputs: vec![(game::FIRE, InputStatus::Confirmed); 2],
            },
        ];
        let _ = rollback
            .handle(requests, &mut world, Some(&tick), &mut sim)
            .expect("warm-up");
    }
    assert!(world.bullets.len() > 4, "bullets in flight");
    let mut total = 0;
    for round in 0..20 {
        let now = rollback.frame();
        let requests = rollback_requests(now - 7, now);
        total += count(|| {
            let frames = rollback
                .handle(requests, &mut world, Some(&tick), &mut sim)
                .expect("rollback");
            assert_eq!(frames, 8, "round {round}");
        });
    }
    assert_eq!(total, 0, "the adapter allocated in its save/load path");
    assert_eq!(rollback.stats().rollbacks, 20);
    // The capture rule ran inside the measured calls: one capture per call.
    assert_eq!(world.ships.stats().captures, 40 + 20);
}

#[test]
fn ggrs_allocations_per_frame_are_measured() {
    let SyncTest {
        mut session,
        mut rollback,
        game: mut world,
    } = SyncTest::new(7, Refusal::Drop).expect("session and ring");
    let mut sim = game::step;
    let tick = last_tick();
    let (mut ggrs_allocs, mut adapter_allocs) = (0, 0);
    let frames = 500;
    for frame in 0..frames {
        let mut requests = None;
        let ggrs = count(|| {
            session.add_local_input(0, game::FIRE).expect("input");
            session.add_local_input(1, game::RIGHT).expect("input");
            requests = Some(session.advance_frame().expect("advance"));
        });
        let requests = requests.expect("requests");
        let adapter = count(|| {
            let _ = rollback
                .handle(requests, &mut world, Some(&tick), &mut sim)
                .expect("handle");
        });
        if frame >= 100 {
            ggrs_allocs += ggrs;
            adapter_allocs += adapter;
        }
    }
    let measured = frames - 100;
    println!(
        "sync test, check distance 7, per frame: ggrs advance_frame {:.1} allocations, \
         adapter {:.1}",
        ggrs_allocs as f64 / f64::from(measured),
        adapter_allocs as f64 / f64::from(measured),
    );
    assert_eq!(adapter_allocs, 0);
    assert!(
        ggrs_allocs > 0,
        "ggrs allocates its request list every frame"
    );
}
