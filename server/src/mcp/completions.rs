//! `completion/complete` for the template and prompt arguments that are cheap to list:
//! - `batch_id` of `arcade://seed-batches/{batch_id}`: the published batches, newest first
//!   (the list REST serves, under the same one-token heavy-read limit);
//! - `bet_id` of `arcade://bets/{bet_id}`: the most recent settled bets (the public feed of
//!   `/api/arcade/recent`);
//! - `game` of `play_and_verify`: the game names.
//!
//! Round ids are never completed: holding one is what lets a round be played and read.
//! Addresses and wagers are not either. Values are those starting with what was typed.

use rmcp::ErrorData;
use rmcp::model::{ArgumentInfo, CompleteResult, CompletionInfo, Reference};

use super::errors::protocol_error;
use super::prompts;
use super::tools::ArcadeTools;
use crate::rate_limits::Caller;

/// How many recent bets `bet_id` offers.
const RECENT_BETS: u64 = 20;

impl ArcadeTools {
    pub(super) async fn complete_argument(
        &self,
        reference: &Reference,
        argument: &ArgumentInfo,
        caller: Caller,
    ) -> Result<CompleteResult, ErrorData> {
        let candidates: Vec<String> = match (reference, argument.name.as_str()) {
            (Reference::Resource(r), "batch_id") if r.uri == "arcade://seed-batches/{batch_id}" => {
                let _reading = self
                    .arcade
                    .rate_limits
                    .heavy_read(caller, 1)
                    .map_err(protocol_error)?;
                let batches = self
                    .arcade
                    .seed_batches
                    .all()
                    .await
                    .map_err(protocol_error)?;
                batches
                    .iter()
                    .rev()
                    .map(|b| b.batch_id.to_string())
                    .collect()
            }
            (Reference::Resource(r), "bet_id") if r.uri == "arcade://bets/{bet_id}" => {
                let recent = self
                    .arcade
                    .receipts
                    .recent(RECENT_BETS)
                    .await
                    .map_err(protocol_error)?;
                recent.iter().map(|bet| bet.bet_id.to_string()).collect()
            }
            (Reference::Prompt(p), "game") if p.name == prompts::PLAY => prompts::game_names()
                .into_iter()
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        Ok(CompleteResult::new(starting_with(
            candidates,
            &argument.value,
        )))
    }
}

/// The candidates that start with `typed` (case-insensitively), at most the spec's 100.
fn starting_with(candidates: Vec<String>, typed: &str) -> CompletionInfo {
    let typed = typed.to_ascii_lowercase();
    let matching: Vec<String> = candidates
        .into_iter()
        .filter(|c| c.to_ascii_lowercase().starts_with(&typed))
        .collect();
    let total = u32::try_from(matching.len()).unwrap_or(u32::MAX);
    let values: Vec<String> = matching
        .into_iter()
        .take(CompletionInfo::MAX_VALUES)
        .collect();
    let has_more = values.len() < total as usize;
    CompletionInfo::with_pagination(values, Some(total), has_more).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_starts_with_the_typed_text_is_offered() {
        let offered = starting_with(vec!["12".into(), "3".into(), "120".into()], "12");
        assert_eq!(offered.values, ["12", "120"]);
        assert_eq!((offered.total, offered.has_more), (Some(2), Some(false)));
        let many = starting_with((0..150).map(|n| n.to_string()).collect(), "");
        assert_eq!(many.values.len(), 100);
        assert_eq!((many.total, many.has_more), (Some(150), Some(true)));
    }
}
