"""The Python layer's cost, measured against the same engine stepping inside Rust, in one process.

    python python/benches/overhead.py [--rounds 5]

1. ``step()`` from Python against the Rust loop (``step(n)``: one call, n steps in Rust) on
   falling_mixed(1000), from the same saved state each round (a pickled copy), so both do exactly
   the same steps. Target: within 5%.
2. ``run(600)`` on the demo scene (every frame recorded into NumPy arrays, impacts, the HTML
   replay) against ``step(600)`` alone. Target: under 2x.
3. An ensemble of 1,000 demo runs of 180 steps on 2 threads against 1. Target: at most 0.55x.

Rounds are interleaved (A, B, B, A, ...) and medians reported, so a noisy neighbour on a shared
machine hits both sides alike. Prints a table; numbers are wall-clock seconds.
"""

import argparse
import pickle
import statistics
import time

import sweep2d


def timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def median_pair(rounds, a, b):
    """Medians of ``rounds`` timings of each, interleaved and alternating which goes first."""
    ta, tb = [], []
    for k in range(rounds):
        if k % 2:
            tb.append(b())
            ta.append(a())
        else:
            ta.append(a())
            tb.append(b())
    return statistics.median(ta), statistics.median(tb)


def step_overhead(rounds, steps=60, settle=120):
    world = sweep2d.builtin_scene("falling_mixed", 1000)
    world.step(settle)  # into the landing: contacts, impacts
    saved = pickle.dumps(world)

    def rust():
        w = pickle.loads(saved)
        return timed(lambda: w.step(steps))

    def python():
        w = pickle.loads(saved)

        def loop():
            for _ in range(steps):
                w.step()

        return timed(loop)

    r, p = median_pair(rounds, rust, python)
    return r / steps, p / steps


def run_overhead(rounds, steps=600):
    scene = sweep2d.demo_scene()

    def rust():
        w = sweep2d.load_scene(scene)
        return timed(lambda: w.step(steps))

    def recorded():
        w = sweep2d.load_scene(scene)
        return timed(lambda: w.run(steps))

    return median_pair(rounds, rust, recorded)


def ensemble_scaling(rounds, n=1000, steps=180):
    scene = sweep2d.demo_scene()
    one = lambda: timed(lambda: sweep2d.ensemble(scene, n=n, steps=steps, seed=1, threads=1))
    two = lambda: timed(lambda: sweep2d.ensemble(scene, n=n, steps=steps, seed=1, threads=2))
    return median_pair(rounds, one, two)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    rows = []
    r, p = step_overhead(args.rounds)
    rows.append(("step() on falling_mixed(1000), per step", r, p, p / r, "<= 1.05"))
    r, p = run_overhead(args.rounds)
    rows.append(("run(600) on the demo scene", r, p, p / r, "< 2"))
    one, two = ensemble_scaling(max(3, args.rounds // 2))
    rows.append(("ensemble, 1,000 demo runs x 180 steps", one, two, two / one, "<= 0.55"))
    print(f"{'work':44} {'Rust / 1 thread':>16} {'Python / 2 threads':>19} {'ratio':>7} target")
    for name, a, b, ratio, target in rows:
        print(f"{name:44} {a * 1e3:13.3f} ms {b * 1e3:16.3f} ms {ratio:7.3f} {target}")


if __name__ == "__main__":
    main()
