//! No component is lost or invented by a save and a load, in a self-describing format
//! (`serde_json`) and a binary one (bincode): unit-struct markers, zero-sized components,
//! `Option`-valued components and absent components all come back as they were.

mod common;

use core::time::Duration;

use bevy_app::App;
use bevy_ecs::prelude::*;
use common::{base_app, frame};
use serde::{Deserialize, Serialize};
use tickfold_bevy::{Saved, TickfoldPlugin, WorldSave, load_world, save_world};

/// A unit-struct marker: `null` in JSON, like `None`.
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Player;
/// Zero-sized, but not a unit struct.
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Ghost([u8; 0]);
/// `Option`-valued: `Target(None)` is `null` in JSON, like `None`.
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Target(Option<u32>);
/// A unit inside a newtype: `null` in JSON too.
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Flag(());
/// An ordinary component.
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Hp(i32);

type Kept = (Player, Ghost, Target, Flag, Hp);

/// What an entity holds, by its `Saved` id.
type Row = (
    u64,
    Option<Player>,
    Option<Ghost>,
    Option<Target>,
    Option<Flag>,
    Option<Hp>,
);

fn app() -> App {
    let mut app = base_app();
    app.add_plugins(TickfoldPlugin::new());
    frame(&mut app, 0, Duration::ZERO);
    app
}

fn rows(app: &mut App) -> Vec<Row> {
    let world = app.world_mut();
    let mut rows: Vec<Row> = world
        .query::<(
            &Saved,
            Option<&Player>,
            Option<&Ghost>,
            Option<&Target>,
            Option<&Flag>,
            Option<&Hp>,
        )>()
        .iter(world)
        .map(|(s, p, g, t, f, h)| {
            (
                s.0,
                p.cloned(),
                g.cloned(),
                t.cloned(),
                f.cloned(),
                h.cloned(),
            )
        })
        .collect();
    rows.sort_by_key(|r| r.0);
    rows
}

/// Every combination of the five components (64 entities: 32 combinations, each with both values of `Target`).
fn spawn_all(app: &mut App) {
    let world = app.world_mut();
    for id in 0..64_u64 {
        let mut e = world.spawn(Saved(id));
        if id & 1 != 0 {
            e.insert(Player);
        }
        if id & 2 != 0 {
            e.insert(Ghost([]));
        }
        if id & 4 != 0 {
            e.insert(Target((id & 32 != 0).then_some(id as u32)));
        }
        if id & 8 != 0 {
            e.insert(Flag(()));
        }
        if id & 16 != 0 {
            e.insert(Hp(-(id as i32)));
        }
    }
}

/// The loaded world into a fresh app whose entities hold everything (so that a component the
/// save says is absent must be removed, and one it says is present must be kept).
fn loaded(save: WorldSave<Kept>) -> Vec<Row> {
    let mut b = app();
    let world = b.world_mut();
    for id in 0..64_u64 {
        world.spawn((
            Saved(id),
            Player,
            Ghost([]),
            Target(Some(7)),
            Flag(()),
            Hp(1),
        ));
    }
    load_world(b.world_mut(), save).unwrap();
    rows(&mut b)
}

fn original() -> (App, Vec<Row>) {
    let mut a = app();
    spawn_all(&mut a);
    frame(&mut a, 1, Duration::from_millis(40));
    let want = rows(&mut a);
    assert_eq!(want.len(), 64);
    assert_eq!(want.iter().filter(|r| r.1.is_some()).count(), 32);
    (a, want)
}

#[test]
fn json_keeps_unit_zero_sized_option_valued_and_absent_components() {
    let (mut a, want) = original();
    let file = serde_json::to_string(&save_world::<Kept>(a.world_mut())).unwrap();
    let save: WorldSave<Kept> = serde_json::from_str(&file).unwrap();
    assert_eq!(loaded(save), want);
}

#[test]
fn bincode_keeps_unit_zero_sized_option_valued_and_absent_components() {
    let (mut a, want) = original();
    let file = bincode::serialize(&save_world::<Kept>(a.world_mut())).unwrap();
    let save: WorldSave<Kept> = bincode::deserialize(&file).unwrap();
    assert_eq!(loaded(save), want);
}

/// A marker alone (the one-component set) through JSON: the case, one player.
#[test]
fn a_unit_marker_alone_survives_json() {
    let mut a = app();
    a.world_mut().spawn((Saved(1), Player));
    a.world_mut().spawn(Saved(2));
    let file = serde_json::to_string(&save_world::<(Player,)>(a.world_mut())).unwrap();
    let save: WorldSave<(Player,)> = serde_json::from_str(&file).unwrap();
    let mut b = app();
    load_world(b.world_mut(), save).unwrap();
    let world = b.world_mut();
    let mut have: Vec<(u64, bool)> = world
        .query::<(&Saved, Option<&Player>)>()
        .iter(world)
        .map(|(s, p)| (s.0, p.is_some()))
        .collect();
    have.sort_unstable();
    assert_eq!(have, [(1, true), (2, false)]);
}

/// A save written the old way (each component an `Option`, `null` for both a unit marker and
/// no component) is refused with a serde error, not read wrongly.
#[test]
fn a_save_in_the_old_option_encoding_is_refused() {
    let mut a = app();
    let file = serde_json::to_value(save_world::<(Hp,)>(a.world_mut())).unwrap();
    let mut old = file.clone();
    old["entities"] = serde_json::json!([[1, [null]]]);
    assert!(serde_json::from_value::<WorldSave<(Hp,)>>(old).is_err());
    // The new encoding of the same rows: absent is `[]`, present `[value]`.
    let mut new = file;
    new["entities"] = serde_json::json!([[1, [[]]], [2, [[5]]]]);
    let save: WorldSave<(Hp,)> = serde_json::from_value(new).unwrap();
    assert_eq!(save.entities, [(1, (None,)), (2, (Some(Hp(5)),))]);
}
