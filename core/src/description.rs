//! Each game described as data: what a player sends to call it, what its receipt's `params`
//! and `result` show, which of those the signed `Play` and `Receipt` carry, and its rule in a
//! line. Everything outside the core that must know a game's fields (the server's inputs and
//! documents, the wasm module's export, the page, the client libraries) reads this, or is held
//! to it by a test. Each game writes its own in its [`GameRules::DESCRIPTION`];
//! [`GAMES`](crate::GAMES) lists them in the order of the list of games (`call.rs`). With feature `serde` they serialize as the JSON
//! that `wasm/js/games.js` holds (written by `cargo run -p arcade-core --example games`, held
//! to the core by a test), which the wasm package ships beside its module.
//!
//! [`GameRules::DESCRIPTION`]: crate::GameRules::DESCRIPTION

/// What a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "lowercase"))]
pub enum Kind {
    /// One of these words; an optional field left out is the first.
    Choice {
        /// The words.
        words: &'static [&'static str],
    },
    /// A whole number from `min` to `max`.
    Integer {
        /// The smallest value.
        min: u64,
        /// The largest value.
        max: u64,
    },
    /// Text in the language of the regular expression `pattern`.
    Text {
        /// The language, anchored (`^…$`).
        pattern: &'static str,
    },
    /// Text the core writes (a receipt shows it; nothing reads it as a call).
    Shown,
    /// A JSON number the core writes with at most two decimals.
    Number,
}

/// One field of a call, a receipt's `params` or its `result`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Field {
    /// Its key.
    pub name: &'static str,
    /// What it holds.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub kind: Kind,
    /// Whether it must be given: `false` for a field with a default or one only some calls
    /// name (see `required_with`).
    pub required: bool,
    /// The other field and word with which it is required (roulette's `number`, with the bet
    /// `straight`); with any other word it is left out.
    pub required_with: Option<(&'static str, &'static str)>,
    /// What it means, in a sentence.
    pub about: &'static str,
}

/// Where a member of the signed `Play` and `Receipt` comes from (docs/proofs.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Source {
    /// The receipt's `params` field of this name (its default when absent).
    Param(&'static str),
    /// This word, whatever the call.
    Word(&'static str),
    /// Nothing: `0` (`target`), or no number (`has_number` false).
    Absent,
}

/// The members of a call and a result that the signed `Play` and `Receipt` carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Signed {
    /// `call`.
    pub call: Source,
    /// `target`.
    pub target: Source,
    /// `number` (and `has_number`).
    pub number: Source,
    /// The receipt's `result` field that the `Receipt`'s `outcome` signs.
    pub outcome: &'static str,
    /// For an outcome that is a word: the words whose index is the signed number.
    pub outcome_words: &'static [&'static str],
}

/// A game described: its name, its rule in a line, and its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Description {
    /// The game's name: `"coinflip"`.
    pub name: &'static str,
    /// What the player calls and what a win returns, in one line.
    pub summary: &'static str,
    /// `N`: how many equally likely outcomes `u_0` draws.
    pub outcomes: u64,
    /// How `u_0` maps to the outcome (fairness v1), as a verifier shows it: words and symbols
    /// with `{u0}`, `{drawn}` (the number `u_0` maps to, a report's `trace.drawn`) and
    /// `{<result field>}` (the derived result's) to fill in.
    pub mapping: &'static str,
    /// The call as a player sends it (a game body, an MCP tool's arguments).
    pub call: &'static [Field],
    /// The call as a receipt's `params` show it and the player's `Play` names it.
    pub params: &'static [Field],
    /// A receipt's `result`.
    pub result: &'static [Field],
    /// What the signed `Play` and `Receipt` carry.
    pub signed: Signed,
}

impl Description {
    /// The call field named `name`.
    pub fn call_field(&self, name: &str) -> Option<&'static Field> {
        self.call.iter().find(|field| field.name == name)
    }
}

impl Kind {
    /// Whether a whole number is one this field holds.
    pub fn holds_integer(&self, n: u64) -> bool {
        matches!(*self, Kind::Integer { min, max } if (min..=max).contains(&n))
    }
}
