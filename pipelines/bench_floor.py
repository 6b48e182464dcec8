"""The floor: a hand-written Polars job over the same results files as ``traveller run``.

The nightly-scale targets compare the product with what the bare work costs: read every
``results-*.csv`` of an inbox, score each contract (Law 77), give Neuberg-free pair
matchpoints per board (two per result beaten, one per result tied), total them into
standings and write those to Parquet. Nothing else: no validation, rulings, adjustments,
teams, IMPs, reconciliation, audit or site. It is run as its own process
(``python -m pipelines.bench_floor INBOX OUT``), as the issue measured it, so that its wall
time includes starting Python and importing Polars.

It is deliberately not the product's kernel: it is the yardstick the product is held to.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import polars as pl

# vulnerability by board number mod 16 (Law 2): 0 none, 1 NS, 2 EW, 3 both
_VUL = [3, 0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1]


def contract_score(df: pl.LazyFrame) -> pl.LazyFrame:
    """Add ``ns_score``: the declarer's score (Law 77) from NS's side, vectorised."""
    c = pl.col("contract").str.to_uppercase()
    v = pl.lit(pl.Series(_VUL)).get(pl.col("board") % 16)
    parts = df.with_columns(
        _level=c.str.slice(0, 1).cast(pl.Int64, strict=False),
        _strain=c.str.slice(1, 1),
        _dbl=pl.when(c.str.ends_with("XX")).then(4).when(c.str.ends_with("X")).then(2).otherwise(1),
        _passed=c.str.starts_with("P"),
        _ns=pl.col("declarer").is_in(["N", "S"]),
        _v=v,
    ).with_columns(
        _vul=pl.when("_ns").then(pl.col("_v").is_in([1, 3])).otherwise(pl.col("_v").is_in([2, 3])),
        _over=pl.col("tricks") - pl.col("_level") - 6,
        _per=pl.when(pl.col("_strain").is_in(["C", "D"])).then(20).otherwise(30),
    )
    level, strain, doubled = pl.col("_level"), pl.col("_strain"), pl.col("_dbl")
    vul, over, per = pl.col("_vul"), pl.col("_over"), pl.col("_per")
    made_trick = (level * per + pl.when(strain == "N").then(10).otherwise(0)) * doubled
    game = pl.when(made_trick >= 100).then(pl.when(vul).then(500).otherwise(300)).otherwise(50)
    slam = (
        pl.when(level == 7)
        .then(pl.when(vul).then(1500).otherwise(1000))
        .when(level == 6)
        .then(pl.when(vul).then(750).otherwise(500))
        .otherwise(0)
    )
    insult = pl.when(doubled == 2).then(50).when(doubled == 4).then(100).otherwise(0)
    overtricks = (
        pl.when(doubled == 1)
        .then(over * per)
        .otherwise(over * doubled * pl.when(vul).then(100).otherwise(50))
    )
    made = made_trick + game + slam + insult + overtricks
    down = -over
    undoubled = down * pl.when(vul).then(100).otherwise(50)
    dbl_nv = (
        pl.when(down == 1).then(100).when(down == 2).then(300).otherwise(500 + (down - 3) * 300)
    )
    dbl_v = pl.lit(200) + (down - 1) * 300
    penalty = (
        pl.when(doubled == 1)
        .then(undoubled)
        .otherwise(pl.when(vul).then(dbl_v).otherwise(dbl_nv) * (doubled // 2))
    )
    declarer = pl.when(over >= 0).then(made).otherwise(-penalty)
    ns = pl.when("_passed").then(0).when("_ns").then(declarer).otherwise(-declarer)
    return parts.with_columns(ns_score=pl.coalesce(ns, pl.col("score"))).drop(
        "_level", "_strain", "_dbl", "_passed", "_ns", "_v", "_vul", "_over", "_per"
    )


def _header(path: Path) -> list[str]:
    with path.open() as f:
        return f.readline().strip().split(",")


def run(inbox: Path, out: Path) -> int:
    """Score every results file of ``inbox`` and write the standings to ``out``; the
    number of results scored."""
    text = ["section", "ns_pair", "ew_pair", "contract", "declarer", "tricks", "score"]
    keep = ["event_id", "session", "board", *text]
    # pair files only (an individual's file names four players, not two pairs)
    files = [p for p in sorted(inbox.glob("results-*.csv")) if "ns_pair" in _header(p)]
    rows = (
        pl.scan_csv(files, schema_overrides=dict.fromkeys(text, pl.String))
        .select(keep)
        .with_columns(pl.col("tricks", "score").cast(pl.Int64, strict=False))
    )
    scored = contract_score(rows).filter(pl.col("ns_score").is_not_null()).collect().lazy()
    board = ["event_id", "session", "section", "board"]
    mp = scored.with_columns(
        ns_mp=(pl.col("ns_score").rank("average").over(board) - 1) * 2,
        top=(pl.len().over(board) - 1) * 2,
    ).with_columns(ew_mp=pl.col("top") - pl.col("ns_mp"))
    sides = pl.concat(
        [
            mp.select(*board[:3], pair=pl.col("ns_pair"), mp=pl.col("ns_mp"), top=pl.col("top")),
            mp.select(*board[:3], pair=pl.col("ew_pair"), mp=pl.col("ew_mp"), top=pl.col("top")),
        ]
    )
    standings = (
        sides.group_by(*board[:3], "pair")
        .agg(mp=pl.col("mp").sum(), top=pl.col("top").sum(), boards=pl.len())
        .with_columns(pct=pl.col("mp") / pl.col("top") * 100)
        .with_columns(rank=pl.col("pct").rank("min", descending=True).over(board[:3]))
        .sort(*board[:3], "rank")
    )
    out.mkdir(parents=True, exist_ok=True)
    standings.sink_parquet(out / "standings.parquet")
    return scored.select(pl.len()).collect().item()


def main(argv: list[str]) -> None:
    t = time.perf_counter()
    n = run(Path(argv[0]), Path(argv[1]))
    print(f"{n} {time.perf_counter() - t:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
