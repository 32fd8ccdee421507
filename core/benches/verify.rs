//! `cargo bench -p arcade-core`: native `verify` per game, and the raw SHA-256 compression rate
//! of the same machine in the same run. A v1 verification costs 6 compressions: 2 for the
//! commitment (64 bytes of text), 4 for the HMAC (key block, message, outer key block, digest).

use std::hint::black_box;

use arcade_core::wire::ReceiptInput;
use arcade_core::{Receipt, verify};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sha2::{Digest, Sha256};

fn first_receipt_of(game: &str) -> Receipt {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/fairness-v1.json"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let case = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["receipt"]["game"] == game)
        .unwrap();
    let input: ReceiptInput = serde_json::from_value(case["receipt"].clone()).unwrap();
    Receipt::try_from(input).unwrap()
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

criterion_group!(benches, bench_verify, bench_sha256);
criterion_main!(benches);
