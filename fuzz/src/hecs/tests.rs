//! Hand-written inputs for the hecs target, replayable without libFuzzer.

use super::*;

fn spec(mode: u8, second_clock: bool) -> TrackSpec {
    TrackSpec {
        mode,
        adopt: true,
        ghosts: 2,
        rendered: true,
        second_clock,
    }
}

fn update(second_clock: bool, ops: Vec<Op>) -> Update {
    Update { second_clock, ops }
}

/// A teleport, then a despawn with ghosts, in a step's last update: the ghost does not
/// blend across the jump (nor from the spawn value of an entity spawned in that update).
#[test]
fn a_ghost_never_blends_across_a_teleport_or_a_spawn() {
    run(Input {
        pos: spec(0, false),
        tag: spec(0, false),
        steps: vec![
            Step {
                updates: vec![update(
                    false,
                    vec![Op::Spawn(SpawnHow::Both, Some(0), None, None)],
                )],
                one_by_one: false,
                alpha: 0.5,
            },
            Step {
                updates: vec![update(
                    false,
                    vec![
                        Op::Teleport(0, Kind::Pos, false),
                        Op::Write(0, Kind::Pos, 100),
                        Op::Despawn(0, DespawnHow::Both),
                        Op::Spawn(SpawnHow::Both, Some(3), None, None),
                        Op::Write(1, Kind::Pos, 50),
                        Op::Despawn(1, DespawnHow::PosOnly),
                    ],
                )],
                one_by_one: false,
                alpha: 0.5,
            },
        ],
    });
}

/// Spawns four ways, steps of several updates on both clocks, writes, teleports, raw
/// removals, despawns with ghosts and reads: every read matches the model, for every mode.
#[test]
fn a_small_world_passes_every_check() {
    for mode in 0..6 {
        run(Input {
            pos: spec(mode, false),
            tag: spec(mode, true),
            steps: vec![
                Step {
                    updates: vec![update(
                        false,
                        vec![
                            Op::Spawn(SpawnHow::Both, Some(1), Some(2), None),
                            Op::Spawn(SpawnHow::Companions, Some(3), None, Some(9)),
                            Op::Spawn(SpawnHow::Bare, Some(5), Some(6), None),
                            Op::Spawn(SpawnHow::PosOnly, Some(7), Some(8), None),
                            Op::Render(0.25),
                        ],
                    )],
                    one_by_one: false,
                    alpha: 0.25,
                },
                Step {
                    updates: vec![
                        update(false, vec![Op::Write(0, Kind::Pos, 11)]),
                        update(true, vec![Op::Write(0, Kind::Tag, 12)]),
                        update(
                            false,
                            vec![
                                Op::Write(1, Kind::Pos, 13),
                                Op::Teleport(1, Kind::Pos, false),
                                Op::Teleport(0, Kind::Pos, true),
                                Op::Write(0, Kind::Pos, -40),
                            ],
                        ),
                    ],
                    one_by_one: true,
                    alpha: 0.75,
                },
                Step {
                    updates: vec![
                        update(false, vec![Op::RemoveRaw(2, Kind::Tag)]),
                        update(
                            true,
                            vec![
                                Op::InsertRaw(2, Kind::Tag, 7),
                                Op::Despawn(0, DespawnHow::Both),
                            ],
                        ),
                        update(false, vec![Op::Despawn(1, DespawnHow::PosOnly)]),
                    ],
                    one_by_one: false,
                    alpha: f64::NAN,
                },
                Step {
                    updates: vec![update(false, vec![Op::Capture, Op::Render(0.5)])],
                    one_by_one: false,
                    alpha: 0.5,
                },
            ],
        });
    }
}
