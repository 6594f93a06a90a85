"""What confirming a guess against the exercises' sealed self-checks costs.

Reads every check of the student copies (exercises/release: what a student, or an
attacker, has), times one check (one PBKDF2-HMAC-SHA256 key at the rounds stored in the
check), and extrapolates a brute force over every fraction p/q with q <= 1000 in [0, 1]
and every integer 0..10,000, against every check; for checks that accept any exact
number (kind="exact") also over fractions in [-10, 10].  Prints CPU hours.  It also
counts the checks a self-check cannot protect: answers among a few choices and small
whole numbers, found by trying them all in seconds to minutes.

    python benchmarks/check_cost.py            # measure and extrapolate
    python benchmarks/check_cost.py --run 60   # also really try guesses for 60 s of CPU,
                                               # in the order an attacker would (small
                                               # denominators first), and say how many
                                               # checks fell (never which answers)
"""
from __future__ import annotations

import argparse
import ast
import json
import math
import sys
import time
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from kingdoms.exercises import _derive, _open, strip_hidden_tests  # noqa: E402

FRACTIONS_0_1 = 1 + sum(  # 0/1, 1/1 and every reduced p/q with 0 < p < q <= 1000
    1 for q in range(2, 1001) for p in range(1, q) if math.gcd(p, q) == 1) + 1
INTEGERS = 10_001


def checks(folder: Path) -> list[dict]:
    """Every check_answer of the student copies: kind, length and the sealed string."""
    out = []
    for path in sorted(folder.rglob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] != "code":
                continue
            src = "".join(cell["source"])
            for node in ast.walk(ast.parse(strip_hidden_tests(src))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check_answer":
                    kw = {k.arg: k.value for k in node.keywords}
                    out.append({"where": f"{path.relative_to(folder)}: {ast.literal_eval(node.args[0])}",
                                "kind": ast.literal_eval(kw.get("kind", ast.Constant("exact"))),
                                "length": ast.literal_eval(kw["length"]) if "length" in kw else None,
                                "choices": "choices" in kw,
                                "sealed": _open(ast.literal_eval(kw["sealed"]))})
    return out


def space(check: dict) -> tuple[int, str]:
    """How many guesses the attacker's natural search space holds for one check."""
    kind, length = check["kind"], check["length"]
    if kind in ("text", "choice"):
        return 6, "one of a few choices"
    if kind == "int":
        return INTEGERS, "integers 0..10,000"
    if kind == "probability":
        return FRACTIONS_0_1 + INTEGERS - 2, "fractions q<=1000 in [0,1] + integers"
    if kind == "exact":
        return 20 * (FRACTIONS_0_1 - 1) + INTEGERS + 10, "fractions q<=1000 in [-10,10] + integers"
    if kind == "tuple":
        return 31 ** (length or 3), f"tuples of {length} whole numbers 0..30"
    if kind == "probabilities":   # (a, b, 1-a-b): pairs of fractions with q <= 100
        n = sum(1 for q in range(1, 101) for p in range(0, q + 1) if math.gcd(p, q) == 1)
        return n ** ((length or 3) - 1), f"{length}-tuples of fractions q<=100 summing to 1"
    raise ValueError(kind)


def guesses(kind: str):
    """Guesses in the order an attacker tries them: small numbers, small denominators."""
    if kind == "int":
        yield from range(INTEGERS)
        return
    if kind in ("probability", "exact"):
        yield from (0, 1)
        for q in range(2, 1001):
            for p in range(1, q):
                if math.gcd(p, q) == 1:
                    yield Fraction(p, q)
            if q <= 30 and kind == "exact":
                yield from range(2, 2 + q * 10)
        yield from range(2, INTEGERS)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, default=REPO / "exercises" / "release")
    parser.add_argument("--run", type=float, default=0,
                        help="also try guesses for this many CPU seconds (bounded brute force)")
    args = parser.parse_args(argv)
    found = checks(args.release)
    if not found:
        print(f"no sealed checks in {args.release}")
        return 1
    rounds = {c["sealed"].iterations for c in found}
    t = time.process_time()
    n = 0
    while time.process_time() - t < 2 or n < 10:
        _derive(Fraction(n, 997), "benchmark", max(rounds))
        n += 1
    per_check = (time.process_time() - t) / n
    print(f"{len(found)} sealed checks in {args.release.relative_to(REPO) if args.release.is_relative_to(REPO) else args.release}; "
          f"rounds: {', '.join(map(str, sorted(rounds)))} (PBKDF2-HMAC-SHA256)")
    print(f"one check (one key derivation): {per_check * 1000:.0f} ms of CPU "
          f"({n} timed) — what a student waits, what an attacker pays per guess and check")
    print()
    total_baseline = 0.0      # fractions in [0, 1] and integers up to 10,000, every check
    total_natural = 0.0
    unprotected = {}
    rows = {}
    for c in found:
        size, label = space(c)
        hours = size * per_check / 3600
        total_natural += hours
        total_baseline += (FRACTIONS_0_1 + INTEGERS - 2) * per_check / 3600
        rows.setdefault((c["kind"], label), []).append(hours)
        if c["kind"] in ("text", "choice"):
            unprotected.setdefault("answers among a few choices (found in well under a second)", []).append(c["where"])
        elif c["kind"] == "int":
            unprotected.setdefault(f"whole-number answers (0..100 in {100 * per_check:.0f} s, "
                                   f"0..10,000 in {INTEGERS * per_check / 60:.0f} min)", []).append(c["where"])
        elif hours < 1:
            unprotected.setdefault("tuples of small whole numbers (all of them in under an hour)",
                                   []).append(c["where"])
    print(f"{'kind':<14}{'checks':>7}  {'search space per check':<48}{'CPU hours each':>15}")
    for (kind, label), hours in sorted(rows.items()):
        print(f"{kind:<14}{len(hours):>7}  {label:<48}{hours[0]:>15,.2f}")
    print()
    print(f"every fraction p/q (q <= 1000) in [0, 1] and every integer 0..10,000 "
          f"({FRACTIONS_0_1 + INTEGERS - 2:,} guesses) against all {len(found)} checks: "
          f"{total_baseline:,.0f} CPU hours")
    print(f"each check's own search space (wider for exact numbers and tuples, narrower for "
          f"choices): {total_natural:,.0f} CPU hours")
    print()
    n_unprotected = sum(map(len, unprotected.values()))
    print(f"{n_unprotected} of {len(found)} checks have a tiny answer space a self-check cannot "
          "protect (grades come from nbgrader's hidden tests):")
    for why, where in unprotected.items():
        print(f"  {len(where):>2} {why}")
    if args.run:
        print()
        budget = args.run
        start = time.process_time()
        tried = fell = 0
        per = budget / len(found)
        for c in found:
            s = c["sealed"]
            t0 = time.process_time()
            for g in guesses(c["kind"]):
                if time.process_time() - t0 > per:
                    break
                tried += 1
                if _derive(g, s.salt, s.iterations)[0] == s.right:
                    fell += 1
                    break
        spent = time.process_time() - start
        print(f"bounded brute force: {tried:,} guesses in {spent:.0f} s of CPU "
              f"({spent / max(tried, 1) * 1000:.0f} ms each), {per:.1f} s per check: "
              f"{fell} of {len(found)} checks fell (answers not shown)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
