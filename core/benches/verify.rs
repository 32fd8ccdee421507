//! `cargo bench -p arcade-core`: native `verify` per game; every golden vector's receipt from
//! its JSON text (serde_json into the wire types, then `verify`, with and without writing the
//! report as JSON), per receipt; and the raw SHA-256 compression rate of the same machine in
//! the same run. A v1 verification costs 6 compressions: 2 for the commitment (64 bytes of
//! text), 4 for the HMAC (key block, message, outer key block, digest).
//!
//! The wasm package's `npm run bench` (tests/wasm-node) runs the `verify_json` group with
//! sha2's portable backend (`RUSTFLAGS='--cfg sha2_backend="soft"'`), software SHA-256 as in
//! wasm, and prints its rates beside the wasm ones.

use std::hint::black_box;

use arcade_core::wire::{ReceiptInput, VerificationView};
use arcade_core::{Receipt, verify};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sha2::{Digest, Sha256};

/// Every golden vector's receipt, as JSON text.
fn receipts() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/fairness-v1.json"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["receipt"].to_string())
        .collect()
}

fn parse(json: &str) -> Receipt {
    let input: ReceiptInput = serde_json::from_str(json).unwrap();
    Receipt::try_from(input).unwrap()
}

fn first_receipt_of(game: &str) -> Receipt {
    let json = receipts()
        .into_iter()
        .find(|r| r.contains(&format!("\"game\":\"{game}\"")))
        .unwrap();
    parse(&json)
}

fn bench_verify(c: &mut Criterion) {
    let mut group = c.benchmark_group("verify");
    group.throughput(Throughput::Elements(1));
    for game in ["coinflip", "dice", "roulette"] {
        let receipt = first_receipt_of(game);
        group.bench_function(game, |b| {
            b.iter(|| verify(black_box(&receipt)).unwrap().verified())
        });
    }
    group.finish();
}

/// Per receipt, over every golden vector: its JSON text parsed (serde_json into the wire types)
/// and verified; and the same with the report written as JSON.
fn bench_verify_json(c: &mut Criterion) {
    let receipts = receipts();
    let mut group = c.benchmark_group("verify_json");
    group.throughput(Throughput::Elements(receipts.len() as u64));
    group.bench_function("all_vectors", |b| {
        b.iter(|| {
            for json in &receipts {
                black_box(verify(&parse(black_box(json))).unwrap().verified());
            }
        })
    });
    group.bench_function("all_vectors_with_report", |b| {
        b.iter(|| {
            for json in &receipts {
                let receipt = parse(black_box(json));
                let verification = verify(&receipt).unwrap();
                black_box(
                    serde_json::to_string(&VerificationView {
                        verification: &verification,
                        server_seed: &receipt.server_seed,
                    })
                    .unwrap(),
                );
            }
        })
    });
    group.finish();
}

fn bench_sha256(c: &mut Criterion) {
    let mut group = c.benchmark_group("sha256");
    group.throughput(Throughput::Elements(1));
    // 55 bytes + padding fill exactly one 64-byte block: one compression per digest.
    let one_block = [0x61u8; 55];
    group.bench_function("one_compression", |b| {
        b.iter(|| Sha256::digest(black_box(&one_block)))
    });
    group.finish();
}

criterion_group!(benches, bench_verify, bench_verify_json, bench_sha256);
criterion_main!(benches);
