"""How automatic payment's time grows with the number of sources and of cost symbols.

Run ``python -m castrules.benchmarks.bench_solver`` (shipped in the wheel, so an installed
castrules has it; ``castrules bench`` prints it too): ``--json`` for machine-readable figures,
with the text under "text"; ``--quick`` for fewer repetitions and sizes (sources up to 1,280,
the oracle up to 1,000 Forests).  Each solver figure is the best, over
several repetitions, of the mean time of one ``solve`` call.  ``x2`` is time(2n) / time(n): a
polynomial solver of degree d shows about 2**d; the solver's flow network has a bounded
size, so expect ~1-2.  The oracle rows time a whole request up to 10,000 sources: N Forests
paying an {X} spell with X = N through ``pay: auto`` (setup, N activations, the snapshot),
where a quadratic step anywhere in the oracle would show as x10 ~ 100.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from castrules.oracle.mana import COLOR_PAIRS, Color, ManaCost, ManaPool, ManaSymbol, Source, solve

COLORS = list(Color)


def mixed_sources(n: int, seed: int = 7) -> list[Source]:
    """Basics, duals, any-color lands, snow basics and Sol Rings in a fixed 10-source cycle
    (4 basics, 3 duals, 1 any-color, 1 snow basic, 1 Sol Ring), colors drawn at random."""
    rng = random.Random(seed)
    kinds = ["basic", "dual", "basic", "any", "dual", "basic", "snow", "dual", "basic", "sol"]
    out: list[Source] = []
    for i in range(n):
        kind = kinds[i % len(kinds)]
        if kind == "basic":
            out.append(Source.of(f"basic{i}", rng.choice("WUBRGC")))
        elif kind == "dual":
            a, b = rng.choice(COLOR_PAIRS)
            out.append(Source.of(f"dual{i}", a.value + b.value))
        elif kind == "any":
            out.append(Source.of(f"any{i}", "WUBRG"))
        elif kind == "snow":
            out.append(Source.of(f"snow{i}", rng.choice("WUBRG"), snow=True))
        else:
            out.append(Source.of(f"sol{i}", "C", "C"))
    return out


def mixed_cost(symbols: int, seed: int = 11) -> ManaCost:
    """A cost of ``symbols`` symbols: generic, colored, hybrid, twobrid, Phyrexian, hybrid
    Phyrexian and snow, in a fixed mix."""
    rng = random.Random(seed)
    makers = [
        lambda: ManaSymbol.generic(1),
        lambda: ManaSymbol.colored(rng.choice(COLORS)),
        lambda: ManaSymbol.hybrid(*rng.choice(COLOR_PAIRS)),
        lambda: ManaSymbol.twobrid(rng.choice(COLORS)),
        lambda: ManaSymbol.phyrexian(rng.choice(COLORS)),
        lambda: ManaSymbol.hybrid_phyrexian(*rng.choice(COLOR_PAIRS)),
        lambda: ManaSymbol.hybrid(*rng.choice(COLOR_PAIRS)),
        lambda: ManaSymbol.snow(),
    ]
    return ManaCost(tuple(makers[i % len(makers)]() for i in range(symbols)))


def unpayable_cost(sources: list[Source]) -> ManaCost:
    """One more generic than all the mana there is, plus hybrid and Phyrexian symbols, so the
    solver must run its full search (including the life binary search) and fail."""
    units = sum(len(s.units) for s in sources)
    head = ManaCost.parse("{W/U}{B/P}{G/W/P}{2/R}")
    return head + ManaCost((ManaSymbol.generic(units),))


def best_time(fn, repeat: int, budget: float = 0.05) -> float:
    """Best mean seconds per call over ``repeat`` rounds of enough calls to last ``budget``."""
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= budget or number >= 1 << 16:
            break
        number *= 2
    best = elapsed / number
    for _ in range(repeat - 1):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


SOURCES = (10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240)
FORESTS = (10, 100, 1000, 10000)


def measure(repeat: int, quick: bool = False) -> dict:
    life = 20
    pool = ManaPool.parse("{G}{U}")
    by_sources = []
    for n in SOURCES[:8] if quick else SOURCES:
        sources = mixed_sources(n)
        cost = mixed_cost(15)
        hard = unpayable_cost(sources)
        by_sources.append(
            {
                "sources": n,
                "symbols": len(cost.symbols),
                "payable": solve(cost, pool, sources, life) is not None,
                "seconds": best_time(lambda: solve(cost, pool, sources, life), repeat),
                "unpayable_seconds": best_time(lambda: solve(hard, pool, sources, life), repeat),
            }
        )
    by_symbols = []
    sources60 = mixed_sources(60)
    for m in (5, 10, 15, 30, 60):
        cost = mixed_cost(m)
        by_symbols.append(
            {
                "sources": 60,
                "symbols": m,
                "payable": solve(cost, pool, sources60, life) is not None,
                "seconds": best_time(lambda: solve(cost, pool, sources60, life), repeat),
            }
        )
    headline_cost = ManaCost.parse("{3}{W/U}{U/B}{B/R}{R/G}{G/W}{W/P}{U/P}{B/P}{R/G/P}{G/U/P}{W}{U}{B}{R}")
    headline = {
        "case": "15 symbols with hybrid and Phyrexian over 60 mixed sources",
        "cost": str(headline_cost),
        "symbols": len(headline_cost.symbols),
        "payable": solve(headline_cost, pool, sources60, life) is not None,
        "seconds": best_time(lambda: solve(headline_cost, pool, sources60, life), repeat),
    }
    for rows, key in ((by_sources, "sources"), (by_symbols, "symbols")):
        for prev, row in zip(rows, rows[1:]):
            row["ratio_to_previous"] = row["seconds"] / prev["seconds"]
            row["size_ratio"] = row[key] / prev[key]
            if "unpayable_seconds" in row:
                row["unpayable_ratio_to_previous"] = row["unpayable_seconds"] / prev["unpayable_seconds"]
    return {"python": sys.version.split()[0], "by_sources": by_sources, "by_symbols": by_symbols, "headline": headline,
            "oracle": measure_oracle(repeat, FORESTS[:3] if quick else FORESTS)}


def oracle_request(forests: int, x: int) -> dict:
    """A request: ``forests`` untapped Forests pay Endless One ({X}) with ``x`` through pay: auto."""
    from castrules.harness.suite import shared_suite

    objects = [{"id": f"f{i}", "card": "Forest", "zone": "battlefield", "controller": "A"} for i in range(forests)]
    objects.append({"id": "endless", "card": "Endless One", "zone": "hand", "owner": "A"})
    case = {"id": "bench/pay/endless-one",
            "setup": {"players": {"A": {}, "B": {}}, "turn": {"active": "A", "step": "precombat_main"}, "objects": objects},
            "steps": [{"cast": {"player": "A", "object": "endless", "x": x, "pay": "auto"}}]}
    return {"case": case, "cards": shared_suite().catalog.subset(["Forest", "Endless One"]), "observe": [1]}


def measure_oracle(repeat: int, sizes: tuple[int, ...] = FORESTS) -> list[dict]:
    """The oracle paying X = N from N Forests (N activations), N up to 10,000."""
    from castrules.oracle.engine import OracleEngine

    engine = OracleEngine()
    rows: list[dict] = []
    for n in sizes:
        request = oracle_request(n, n)
        seconds, legal = float("inf"), None
        for _ in range(1 if n >= 10000 else repeat):
            start = time.perf_counter()
            legal = engine.run(request)["steps"][0]["legal"]
            seconds = min(seconds, time.perf_counter() - start)
        row = {"sources": n, "x": n, "legal": legal, "seconds": seconds}
        if rows:
            row["ratio_to_previous"] = seconds / rows[-1]["seconds"]
        rows.append(row)
    return rows


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.3f}"


def render(figures: dict) -> str:
    lines = ["Payment solver timings (best of repetitions, ms per solve call)", ""]
    lines.append("Growing sources (cost: 15 mixed symbols; 'unpayable': hybrid + Phyrexian + too much generic)")
    lines.append(f"{'sources':>8} {'payable':>8} {'ms':>9} {'x2':>6} {'unpayable ms':>13} {'x2':>6}")
    for row in figures["by_sources"]:
        ratio = f"{row['ratio_to_previous']:6.2f}" if "ratio_to_previous" in row else f"{'':>6}"
        hard_ratio = f"{row['unpayable_ratio_to_previous']:6.2f}" if "unpayable_ratio_to_previous" in row else f"{'':>6}"
        lines.append(
            f"{row['sources']:>8} {str(row['payable']):>8} {_ms(row['seconds'])} {ratio} "
            f"{_ms(row['unpayable_seconds']):>13} {hard_ratio}"
        )
    lines += ["", "Growing cost symbols (60 mixed sources)"]
    lines.append(f"{'symbols':>8} {'payable':>8} {'ms':>9} {'ratio':>6}  (ratio: to the previous row)")
    for row in figures["by_symbols"]:
        ratio = f"{row['ratio_to_previous']:6.2f}" if "ratio_to_previous" in row else f"{'':>6}"
        lines.append(f"{row['symbols']:>8} {str(row['payable']):>8} {_ms(row['seconds'])} {ratio}")
    h = figures["headline"]
    lines += ["", f"{h['case']}: {h['cost']}", f"  payable={h['payable']}  {_ms(h['seconds']).strip()} ms per solve"]
    lines += ["", "The oracle paying {X} with X = N from N Forests (pay: auto; setup, N activations, snapshot)"]
    lines.append(f"{'sources':>8} {'legal':>8} {'ms':>9} {'x10':>6}")
    for row in figures.get("oracle", ()):
        ratio = f"{row['ratio_to_previous']:6.2f}" if "ratio_to_previous" in row else f"{'':>6}"
        lines.append(f"{row['sources']:>8} {str(row['legal']):>8} {_ms(row['seconds'])} {ratio}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args(argv)
    figures = measure(repeat=2 if args.quick else 7, quick=args.quick)
    print(json.dumps({**figures, "text": render(figures)}, indent=2) if args.json else render(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
