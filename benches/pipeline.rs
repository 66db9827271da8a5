//! Micro-benchmarks of the pipeline's stages for 75-ball cards: draw, key,
//! insert (single and bulk by shard), record encoding, and the whole
//! in-memory pipeline. Fixed seeds; parameters in the names.
//!
//! Run: `cargo bench --bench pipeline`

use bingomint::dedup::{KeySet, Keyed, Pending};
use bingomint::game::us75::{StarRule, Us75, RECORD_SIZE};
use bingomint::game::Game;
use bingomint::pipeline;
use bingomint::seed::stream;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;

const N: usize = 1 << 20;

fn draw(c: &mut Criterion) {
    let mut group = c.benchmark_group("us75");
    group.throughput(Throughput::Elements(N as u64));
    for star in [StarRule::Off, StarRule::On] {
        let game = Us75::new(star);
        group.bench_function(
            format!("draw/star={}/cards={N}", star == StarRule::On),
            |b| {
                b.iter(|| {
                    let mut rng = stream(42, 0);
                    for _ in 0..N {
                        black_box(game.draw(&mut rng));
                    }
                })
            },
        );
    }
    let game = Us75::new(StarRule::On);
    let mut rng = stream(42, 0);
    let cards: Vec<_> = (0..N).map(|_| game.draw(&mut rng)).collect();
    group.bench_function(format!("key/cards={N}"), |b| {
        b.iter(|| {
            for card in &cards {
                black_box(game.keys(card));
            }
        })
    });
    let mut records = vec![0u8; N * RECORD_SIZE];
    group.bench_function(format!("encode/cards={N}"), |b| {
        b.iter(|| {
            for (card, record) in cards.iter().zip(records.chunks_exact_mut(RECORD_SIZE)) {
                game.encode(card, record);
            }
            black_box(&records);
        })
    });
    group.bench_function(format!("insert-single/cards={N}"), |b| {
        b.iter_batched(
            || KeySet::with_capacity(N),
            |set| {
                for (i, card) in cards.iter().enumerate() {
                    black_box(set.claim(card.key(), i as u32 + 1));
                }
                set
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function(format!("insert-bulk-by-shard/cards={N}"), |b| {
        b.iter_batched(
            || {
                let set = KeySet::with_capacity(N);
                let mut by_shard = vec![Vec::new(); set.shard_count()];
                for (i, card) in cards.iter().enumerate() {
                    let key = card.key();
                    let hash = set.hash(&key);
                    by_shard[set.shard_of(hash)].push(Pending {
                        hash,
                        key,
                        index: i as u32 + 1,
                    });
                }
                (set, by_shard)
            },
            |(set, by_shard)| {
                let mut losers = Vec::new();
                for (shard, batch) in by_shard.iter().enumerate() {
                    set.claim_shard(shard, std::iter::once(&batch[..]), &mut losers);
                }
                (set, losers)
            },
            BatchSize::LargeInput,
        )
    });
    group.sample_size(10);
    group.bench_function(format!("mint-in-memory/cards={}", 4 * N), |b| {
        b.iter_batched(
            || (KeySet::with_capacity(4 * N), vec![0u8; 4 * N * RECORD_SIZE]),
            |(set, mut records)| {
                pipeline::mint_records(&game, 42, &mut records, &set, &|_| {}).unwrap();
                (set, records)
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, draw, strips, boards, calls);
criterion_main!(benches);

fn strips(c: &mut Criterion) {
    use bingomint::game::uk90::rules::Rules;
    use bingomint::game::uk90::tables::Tables;
    use bingomint::game::uk90::{Uk90, BATCH};
    let mut group = c.benchmark_group("uk90");
    group.sample_size(10);
    group.bench_function("tables-build/rules=uk", |b| {
        b.iter(|| black_box(Tables::build(Rules::Uk)))
    });
    const S: usize = 1 << 16;
    group.throughput(Throughput::Elements(S as u64));
    for rules in [Rules::Uk, Rules::Es] {
        let game = Uk90::new(rules);
        group.bench_function(format!("draw/rules={}/strips={S}", rules.name()), |b| {
            b.iter(|| {
                let mut rng = stream(42, 0);
                for _ in 0..S {
                    black_box(game.draw(&mut rng));
                }
            })
        });
        // The six tickets' column-count vectors alone.
        let tables = game.tables();
        group.bench_function(format!("vectors/rules={}/strips={S}", rules.name()), |b| {
            b.iter(|| {
                let mut rng = stream(42, 0);
                for _ in 0..S {
                    black_box(tables.draw_vectors(&mut rng));
                }
            })
        });
        // A stream per strip: one at a time, and eight at a time.
        group.bench_function(format!("draw-own/rules={}/strips={S}", rules.name()), |b| {
            b.iter(|| {
                for i in 0..S {
                    black_box(game.draw(&mut stream(42, i as u64)));
                }
            })
        });
        group.bench_function(
            format!("draw-many8/rules={}/strips={S}", rules.name()),
            |b| {
                b.iter(|| {
                    for i in (0..S).step_by(BATCH) {
                        let mut rngs = std::array::from_fn(|k| stream(42, (i + k) as u64));
                        black_box(game.draw_many::<BATCH>(&mut rngs));
                    }
                })
            },
        );
    }
    group.finish();
}

/// One board at a time from the project's sample set and, when present, the
/// real 91-objective Lockout set.
fn boards(c: &mut Criterion) {
    use bingomint::boards::board::{Size, Weighting};
    use bingomint::boards::engine::Engine;
    use bingomint::boards::render::Renderer;
    use bingomint::boards::set::ObjectiveSet;
    use bingomint::boards::{draw_board, mint, BoardSeed};
    use std::path::Path;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut group = c.benchmark_group("boards");
    const B: usize = 1 << 12;
    group.throughput(Throughput::Elements(B as u64));
    for (name, path) in [
        ("sample", root.join("data/sample-goals.json")),
        (
            "smo_short",
            root.join("../shared/data/lockout/smo_short.json"),
        ),
    ] {
        if !path.exists() {
            eprintln!("SKIPPED: boards bench on {} (absent)", path.display());
            continue;
        }
        let set = ObjectiveSet::from_file(&path).unwrap();
        for size in ["5x5", "7x7"] {
            let size: Size = size.parse().unwrap();
            let engine = Engine::new(&set, size, Weighting::Lockout).unwrap();
            group.bench_function(format!("draw/{name}/{size}/boards={B}"), |b| {
                b.iter(|| {
                    let mut rng = stream(42, 0);
                    for _ in 0..B {
                        black_box(draw_board(&engine, &mut rng, 0));
                    }
                })
            });
            // Rendering alone: B boards as JSON Lines into a buffer of 16
            // boards at a time.
            let seed = BoardSeed::parse("s1").unwrap();
            let (list, _) = mint(&engine, &seed, B as u64, &|_| {}).unwrap();
            let renderer = Renderer::new(&set, &engine, &seed);
            group.bench_function(format!("render-jsonl/{name}/{size}/boards={B}"), |b| {
                let mut text = String::new();
                b.iter(|| {
                    for (i, board) in list.iter().enumerate() {
                        if i % 16 == 0 {
                            text.clear();
                        }
                        renderer.json(i as u64 + 1, board, &mut text);
                        text.push('\n');
                    }
                    black_box(text.len())
                })
            });
        }
    }
    group.finish();
}

/// A live hall game's whole order (ChaCha20 under the whole seed and the
/// room's seed) against the minting generator's (xoshiro256++).
fn calls(c: &mut Criterion) {
    use bingomint::play::calls::Calls;
    let mut group = c.benchmark_group("calls");
    let seed = "hall2-00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    for balls in [75u8, 90] {
        group.bench_function(format!("live-order/balls={balls}"), |b| {
            b.iter(|| {
                Calls::of_hall(
                    balls,
                    std::hint::black_box(seed),
                    "table 4",
                    usize::from(balls),
                )
            })
        });
        group.bench_function(format!("mint-order/balls={balls}"), |b| {
            b.iter(|| Calls::seeded(balls, std::hint::black_box(42), usize::from(balls)))
        });
    }
    group.finish();
}
