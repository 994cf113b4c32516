"""What a box's way of being offline costs the machine: the engine's ``NetworkDisabled`` (what
sandboxes use) against ``--network none``. Both give a fresh namespace with only loopback; the
second also has the engine build a network sandbox for it. Prints the CPU-seconds (all of the
machine's, from /proc/stat, steal excluded) per create, start and remove of a container that
runs ``sleep``, the two modes alternating. A script that prints figures, never a test; it must
run on the engine's own machine (Linux).

    uv run python benchmarks/bench_network_modes.py [--cycles 16] [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from fastapi_env.image import image_tag
from fastapi_env.sandbox.docker import docker_client

MODES = {"NetworkDisabled": True, "--network none": False}


def busy_cpu_seconds() -> float:
    """CPU time the whole machine spent busy: all but idle, iowait and steal."""
    ticks = [int(v) for v in open("/proc/stat").readline().split()[1:]]
    idle, iowait, steal = ticks[3], ticks[4], ticks[7]
    return (sum(ticks[:8]) - idle - iowait - steal) / os.sysconf("SC_CLK_TCK")


def cycle_cost(api, network_disabled: bool, cycles: int) -> float:
    """CPU-seconds per create, start and remove, including the engine's work after it."""
    host_config = api.create_host_config(log_config={"type": "none"}, network_mode="none",
                                         read_only=True, cap_drop=["ALL"])
    before = busy_cpu_seconds()
    for _ in range(cycles):
        container = api.create_container(image_tag(), ["sleep", "60"], host_config=host_config,
                                         network_disabled=network_disabled)["Id"]
        api.start(container)
        api.remove_container(container, force=True)
    time.sleep(1.0)  # the kernel and the engine finish tearing down (idle, it costs ~0.01 s)
    return (busy_cpu_seconds() - before) / cycles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=16, help="containers per measurement")
    parser.add_argument("--rounds", type=int, default=2, help="alternations of the two modes")
    args = parser.parse_args()
    api = docker_client().api
    costs: dict[str, list[float]] = {mode: [] for mode in MODES}
    for _ in range(args.rounds):
        for mode, disabled in MODES.items():
            costs[mode].append(cycle_cost(api, disabled, args.cycles))
    print(f"CPU-seconds per create + start + remove ({args.cycles} containers, "
          f"{args.rounds} alternating rounds)")
    for mode, values in costs.items():
        runs = ", ".join(f"{v:.3f}" for v in values)
        print(f"  {mode:16s} median {statistics.median(values):.3f}   runs: {runs}")


if __name__ == "__main__":
    main()
