//! The payment rails, and how the settings choose one (`payments.rail`). Each rail is a file
//! here that implements [`Settler`] and declares its [`RailEntry`]; [`REGISTERED`] lists them.
//!
//! | rail | file | needs |
//! |---|---|---|
//! | `house`: the house signs `transferWithAuthorization` | `house.rs` | nothing |
//! | `facilitator`: an x402 facilitator settles | `facilitated.rs` | `payments.facilitator_url` |
//!
//! Unset, `payments.rail` is the one rail whose own settings are set, or `house` if none is.
//! A rail chosen without its settings, or settings of a rail that is not chosen, stop the start.
//! A payment row records its rail's name (`settled_by`), and only that rail resumes it: an
//! instance without that rail leaves it to the chain or to its authorization's expiry. So two
//! rails never share a name.

mod facilitated;
mod house;
mod settler;

pub use facilitated::FacilitatorRail;
pub use house::HouseRail;
pub use settler::{Presented, RailContext, ResumeError, Resumed, Settler, Submission};

use crate::settings::Settings;

/// The rails this server knows.
pub const REGISTERED: &[RailEntry] = &[house::ENTRY, facilitated::ENTRY];

/// The rail when `payments.rail` is unset and no rail's own settings are.
const DEFAULT: &str = "house";

/// How the settings choose and build one rail.
#[derive(Clone, Copy)]
pub struct RailEntry {
    /// Its `payments.rail` value, which its payments record as `settled_by`: unique.
    pub name: &'static str,
    /// The setting that configures it, if it has one of its own.
    pub needs: Option<&'static str>,
    /// Builds it, or `None` when its own settings are unset.
    pub build: fn(&Settings) -> Built,
}

/// A rail built from the settings, or `None` when its own settings are unset.
pub type Built = Result<Option<Box<dyn Settler>>, RailError>;

#[derive(Debug, thiserror::Error)]
pub enum RailError {
    #[error("payments.rail = {name:?} is no rail this server knows; it knows {known}")]
    Unknown { name: String, known: String },
    #[error("payments.rail = {name:?} needs {needs}")]
    Unconfigured { name: String, needs: &'static str },
    #[error(
        "payments.rail = {chosen:?}, but {needs} is set, which only the {other:?} rail uses: unset one of them"
    )]
    Contradiction {
        chosen: String,
        other: &'static str,
        needs: &'static str,
    },
    #[error("{0} and {1} are both set: choose one rail with payments.rail")]
    Ambiguous(&'static str, &'static str),
    #[error("two rails are registered as {0:?}: each rail records its payments under its own name")]
    Duplicate(&'static str),
    #[error("building the {0} rail: {1}")]
    Build(&'static str, String),
}

/// The rail new payments go to, and every rail the settings build, so that each open payment
/// is resumed by the rail that recorded it.
pub struct Rails {
    chosen: Named,
    others: Vec<Named>,
}

/// A built rail and the name its payments record.
struct Named {
    name: &'static str,
    settler: Box<dyn Settler>,
}

impl Rails {
    /// Chooses and builds the rails of `registry` from `settings`.
    pub fn from_settings(settings: &Settings, registry: &[RailEntry]) -> Result<Self, RailError> {
        for (at, entry) in registry.iter().enumerate() {
            if registry[..at]
                .iter()
                .any(|earlier| earlier.name == entry.name)
            {
                return Err(RailError::Duplicate(entry.name));
            }
        }
        let mut built = Vec::new();
        for entry in registry {
            if let Some(settler) = (entry.build)(settings)? {
                built.push((entry, settler));
            }
        }
        let configured: Vec<&RailEntry> = built
            .iter()
            .filter(|(entry, _)| entry.needs.is_some())
            .map(|(entry, _)| *entry)
            .collect();
        let name = chosen_name(settings, &configured)?;
        let Some(entry) = registry.iter().find(|entry| entry.name == name) else {
            let known: Vec<&str> = registry.iter().map(|entry| entry.name).collect();
            return Err(RailError::Unknown {
                name: name.to_owned(),
                known: known.join(", "),
            });
        };
        if let Some(other) = configured.iter().find(|other| other.name != name) {
            return Err(RailError::Contradiction {
                chosen: name.to_owned(),
                other: other.name,
                needs: other.needs.unwrap_or_default(),
            });
        }
        let Some(at) = built.iter().position(|(built, _)| built.name == name) else {
            return Err(RailError::Unconfigured {
                name: name.to_owned(),
                needs: entry.needs.unwrap_or_default(),
            });
        };
        let named = |(entry, settler): (&RailEntry, Box<dyn Settler>)| Named {
            name: entry.name,
            settler,
        };
        let chosen = named(built.remove(at));
        Ok(Self {
            chosen,
            others: built.into_iter().map(named).collect(),
        })
    }

    /// The rail new payments go to.
    pub fn chosen(&self) -> &dyn Settler {
        self.chosen.settler.as_ref()
    }

    /// The name new payments record.
    pub fn chosen_name(&self) -> &'static str {
        self.chosen.name
    }

    /// The rail that recorded payments as `name`, if this server has it.
    pub fn recorded(&self, name: &str) -> Option<&dyn Settler> {
        std::iter::once(&self.chosen)
            .chain(&self.others)
            .find(|rail| rail.name == name)
            .map(|rail| rail.settler.as_ref())
    }
}

/// `payments.rail`, or the one configured rail, or the default.
fn chosen_name<'a>(
    settings: &'a Settings,
    configured: &[&RailEntry],
) -> Result<&'a str, RailError> {
    if let Some(name) = &settings.payments.rail {
        return Ok(name);
    }
    match configured {
        [] => Ok(DEFAULT),
        [one] => Ok(one.name),
        [one, two, ..] => Err(RailError::Ambiguous(
            one.needs.unwrap_or_default(),
            two.needs.unwrap_or_default(),
        )),
    }
}

#[cfg(test)]
mod tests;
