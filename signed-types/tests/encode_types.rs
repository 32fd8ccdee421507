//! The `encodeType` of every signed type, pinned: a change in a declaration changes every
//! signature of its type, so it shows here first. docs/proofs.md states the same strings.

use alloy_sol_types::SolStruct;
use arcade_signed_types::{
    Commitment, Play, RECEIPT_WITH_HOUSE_AGENT, Receipt, ReceiptWithHouseAgent, SeedBatch,
    SignedMarks, members, signed_types,
};

const COMMITMENT: &str = "Commitment(string round_id,address player,bytes32 commitment,uint256 batch_id,uint256 index,uint256 fairness_version,uint256 created_at)";
/// `Receipt` before `house_agent` was signed.
const BEFORE: &str = "Receipt(string round_id,uint256 bet_id,address player,string game,bytes32 commitment,bytes32 server_seed,string client_seed,uint256 nonce,string call,uint256 target,bool has_number,uint256 number,uint256 wager,uint256 outcome,bool won,uint256 payout,int256 balance_change,uint256 batch_id,uint256 index,uint256 fairness_version,uint256 settled_at)";
const WITH_HOUSE_AGENT: &str = "Receipt(string round_id,uint256 bet_id,address player,string game,bytes32 commitment,bytes32 server_seed,string client_seed,uint256 nonce,string call,uint256 target,bool has_number,uint256 number,uint256 wager,uint256 outcome,bool won,uint256 payout,int256 balance_change,uint256 batch_id,uint256 index,uint256 fairness_version,uint256 settled_at,bool house_agent)";
const SEED_BATCH: &str =
    "SeedBatch(uint256 batch_id,uint256 size,bytes32 merkle_root,uint256 created_at)";
const SIGNED_MARKS: &str = "SignedMarks(uint256 signed_from,uint256 house_agent_signed_from)";
const PLAY: &str = "Play(string round_id,address player,bytes32 commitment,string game,string client_seed,string call,uint256 target,bool has_number,uint256 number,uint256 wager)";

#[test]
fn every_declaration_has_its_pinned_encode_type() {
    assert_eq!(Commitment::eip712_encode_type(), COMMITMENT);
    assert_eq!(Receipt::eip712_encode_type(), BEFORE);
    assert_eq!(
        ReceiptWithHouseAgent::eip712_encode_type(),
        WITH_HOUSE_AGENT
    );
    assert_eq!(SeedBatch::eip712_encode_type(), SEED_BATCH);
    assert_eq!(SignedMarks::eip712_encode_type(), SIGNED_MARKS);
    assert_eq!(Play::eip712_encode_type(), PLAY);
}

#[test]
fn the_table_lists_each_type_once_under_its_name() {
    let listed: Vec<(&str, String)> = signed_types()
        .into_iter()
        .map(|(name, text)| (name, text.into_owned()))
        .collect();
    let expected = [
        ("Commitment", COMMITMENT),
        ("Receipt", BEFORE),
        (RECEIPT_WITH_HOUSE_AGENT, WITH_HOUSE_AGENT),
        ("SeedBatch", SEED_BATCH),
        ("SignedMarks", SIGNED_MARKS),
        ("Play", PLAY),
    ];
    assert_eq!(listed.len(), expected.len());
    for ((name, text), (want_name, want_text)) in listed.iter().zip(expected) {
        assert_eq!((*name, text.as_str()), (want_name, want_text));
    }
}

#[test]
fn members_read_back_into_the_encode_type() {
    for (_, text) in signed_types() {
        let inner: Vec<String> = members(&text)
            .map(|(kind, name)| format!("{kind} {name}"))
            .collect();
        let name = text.split_once('(').unwrap().0;
        assert_eq!(format!("{name}({})", inner.join(",")), text);
    }
    assert_eq!(members("SignedMarks").count(), 0);
}

/// docs/proofs.md keeps its tables; each type's `encodeType` stands there on a line of its own.
#[test]
fn the_documented_types_are_the_declared_ones() {
    let doc = include_str!("../../docs/proofs.md");
    for (name, text) in signed_types() {
        assert!(
            doc.lines().any(|line| line.trim() == text),
            "docs/proofs.md does not state {name} as {text}"
        );
    }
    let documented = doc
        .lines()
        .filter(|line| {
            [
                "Commitment(",
                "Receipt(",
                "SeedBatch(",
                "SignedMarks(",
                "Play(",
            ]
            .iter()
            .any(|start| line.starts_with(start))
        })
        .count();
    assert_eq!(documented, signed_types().len(), "one line per signed type");
}

/// The first-column names of the field table under docs/proofs.md's heading for `name`.
fn documented_fields(doc: &str, name: &str) -> Vec<String> {
    let heading = format!("### `{name}`");
    doc.lines()
        .skip_while(|line| !line.starts_with(&heading))
        .skip(1)
        .take_while(|line| !line.starts_with('#'))
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|row| row.split_once(" |").map(|(cell, _)| cell))
        .flat_map(|cell| cell.split(", "))
        .map(|field| field.trim_matches('`').to_owned())
        .collect()
}

/// Each field table names every member of its type once, and nothing else.
#[test]
fn the_documented_tables_name_every_member() {
    let doc = include_str!("../../docs/proofs.md");
    for (name, text) in [
        ("Commitment", Commitment::eip712_encode_type()),
        ("Receipt", ReceiptWithHouseAgent::eip712_encode_type()),
        ("Play", Play::eip712_encode_type()),
    ] {
        let mut documented = documented_fields(doc, name);
        let mut declared: Vec<String> = members(&text).map(|(_, n)| n.to_owned()).collect();
        documented.sort();
        declared.sort();
        assert_eq!(documented, declared, "docs/proofs.md's table of {name}");
    }
}
