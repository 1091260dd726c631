//! A saved render cap loads with both its rate and its next slot, or with neither; a save
//! with one of them only is refused with the error that names the missing half (the check is
//! the save layer's, `save/state.rs`; the cap's own file only rebuilds what it is given).
#![cfg(feature = "serde")]

use serde_json::Value;
use tickfold_core::{LoopConfig, LoopState, Nanos, Period, SavedState, StateError};

fn capped_save() -> (LoopState, Value) {
    let config = LoopConfig::new(Period::from_hz(60).unwrap())
        .render_rate(Some(Period::from_hz(30).unwrap()));
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    for ms in [10, 40, 55] {
        let _ = state.advance(Nanos::from_millis(ms));
    }
    let save = serde_json::to_value(&state).unwrap();
    assert!(!save["render_rate"].is_null() && !save["render_next"].is_null());
    (state, save)
}

fn load(save: &Value) -> Result<LoopState, StateError> {
    let saved: SavedState = serde_json::from_value(save.clone()).expect("the save parses");
    LoopState::try_from(saved)
}

#[test]
fn a_render_cap_loads_whole_or_not_at_all() {
    let (state, save) = capped_save();
    let loaded = load(&save).expect("the whole cap loads");
    assert_eq!(loaded, state);
    assert_eq!(
        loaded.real_time().render_rate(),
        Some(Period::from_hz(30).unwrap())
    );

    let mut rate_only = save.clone();
    rate_only["render_next"] = Value::Null;
    assert_eq!(load(&rate_only).err(), Some(StateError::MissingRenderSlot));

    let mut slot_only = save.clone();
    slot_only["render_rate"] = Value::Null;
    assert_eq!(
        load(&slot_only).err(),
        Some(StateError::RenderSlotWithoutRate)
    );

    let mut neither = save;
    neither["render_rate"] = Value::Null;
    neither["render_next"] = Value::Null;
    let uncapped = load(&neither).expect("a save without a cap loads");
    assert_eq!(uncapped.real_time().render_rate(), None);
}
