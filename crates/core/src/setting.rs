//! Validation of user-supplied settings.
//!
//! Contract: every setting a user can write (config key, CLI flag, model
//! parameter) is checked before use; a value outside its domain becomes an
//! [`InvalidSetting`] that names the setting, its value and the rule, never a
//! NaN result or a panic later on.

/// A setting outside its domain.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("setting `{setting}` = {value}: {why}")]
pub struct InvalidSetting {
    /// The setting's name as the user writes it.
    pub setting: &'static str,
    /// The offending value, as text.
    pub value: String,
    /// The rule it breaks.
    pub why: &'static str,
}

impl InvalidSetting {
    /// An error for `setting` = `value` breaking `why`.
    pub fn new(setting: &'static str, value: impl ToString, why: &'static str) -> InvalidSetting {
        InvalidSetting { setting, value: value.to_string(), why }
    }

    /// The same error under another setting name (e.g. a unit-suffixed key).
    pub fn renamed(self, setting: &'static str) -> InvalidSetting {
        InvalidSetting { setting, ..self }
    }
}

/// `value` must be finite and > 0.
pub fn positive(setting: &'static str, value: f64) -> Result<f64, InvalidSetting> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(InvalidSetting::new(setting, value, "must be a positive, finite number"))
    }
}

/// `value` must lie in [0, 1].
pub fn probability(setting: &'static str, value: f64) -> Result<f64, InvalidSetting> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(InvalidSetting::new(setting, value, "must lie in [0, 1]"))
    }
}

/// `value` must be at least 1.
pub fn at_least_one<T: PartialOrd + From<u8> + ToString>(setting: &'static str, value: T) -> Result<T, InvalidSetting> {
    if value >= T::from(1) { Ok(value) } else { Err(InvalidSetting::new(setting, value, "must be at least 1")) }
}
