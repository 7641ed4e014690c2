#!/usr/bin/env python3
"""Runs the simulator twin of every point of a gpuprobe result and prints both side by side.

    tools/gpuprobe/compare.py docs/calibration/h100-2026-11-26-b.json -c configs/h100.ini -j 2

Latency points run `-w chase` with the probe's footprint, stride and order (footprints up to
1 GB: the chain lives in the simulator's host memory); the chain is warmed into the L2 through
its host-to-device copy when it fits the probe GPU's L2, as the probe's warm-up lap leaves it.
Loaded points run `-w chase` with the probe's warps and lanes over a 1 GB chain, at most 64
loads per lane. Simulated cycles per load are SM cycles, as the probe's clock64 counts them:
for latency points the run's cycles over its loads, for loaded points the difference between
that run and a one-load run over the remaining loads (the probe times the loop alone, not the
launch); G loads/s are chains over that time at the config's SM clock.
"""
import argparse
import concurrent.futures as cf
import json
import os
import subprocess
import sys
import tempfile

MAX_FOOTPRINT = 1 << 30


def add_sim_args(ap):
    """The options of every comparison here: the preset, parallel runs, the warpsim binary."""
    ap.add_argument("-c", "--config", required=True, help="machine preset to compare")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--warpsim", default=os.path.join("build", "warpsim"))


def run(warpsim, config, sets, workload="chase"):
    """One `warpsim run` of the workload with the --set values; its result JSON."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    try:
        cmd = [warpsim, "run", "-c", config, "-w", workload, "-q", "-o", out]
        for s in sets:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True)
        with open(out) as f:
            return json.load(f)
    finally:
        os.unlink(out)


def latency_job(warpsim, config, p, l2_bytes):
    loads = min(p["loads"], 65536)
    # an in-order chain beyond the L2 behaves alike at any size: simulate at most 1 GB of it
    fp = min(p["footprint"], MAX_FOOTPRINT) if p["kind"].endswith("-seq") else p["footprint"]
    sets = [
        f"workload.chase.footprint={fp}",
        f"workload.chase.stride={p['stride']}",
        f"workload.chase.loads={loads}",
        f"workload.chase.order={'seq' if p['kind'].endswith('-seq') else 'random'}",
        f"gpu.warm_l2={'true' if fp < l2_bytes else 'false'}",
    ]
    r = run(warpsim, config, sets)
    return r["stats"]["gpu"]["cycles"] / loads


def loaded_job(warpsim, config, p):
    nodes = MAX_FOOTPRINT // 128
    chains = p["warps"] * p["lanes"]
    loads = max(2, min(64, nodes // chains))

    def cycles(n):
        sets = [
            f"workload.chase.footprint={MAX_FOOTPRINT}",
            f"workload.chase.loads={n}",
            f"workload.chase.warps={p['warps']}",
            f"workload.chase.lanes={p['lanes']}",
            "gpu.warm_l2=false",
        ]
        r = run(warpsim, config, sets)
        return r["stats"]["gpu"]["cycles"], float(r["config"]["gpu.core_mhz"])

    # the probe times each lane's loop alone (clock64): a one-load run takes the launch out
    full, mhz = cycles(loads)
    base, _ = cycles(1)
    loop = (full - base) / (loads - 1)
    return loop, chains / (loop / (mhz * 1e6)) / 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("probe", help="gpuprobe's JSON output")
    add_sim_args(ap)
    a = ap.parse_args()
    with open(a.probe) as f:
        probe = json.load(f)
    # the simulator has no L1-bypassing load: cached loads only, and in-order chains (beyond the L1)
    lat = [p for p in probe["latency"]
           if p["kind"] in ("ca-seq", "cg-seq")
           or (p["kind"] == "ca" and p["footprint"] <= MAX_FOOTPRINT)]
    loaded = probe.get("loaded", [])
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        lf = [ex.submit(latency_job, a.warpsim, a.config, p, probe["l2_bytes"]) for p in lat]
        df = [ex.submit(loaded_job, a.warpsim, a.config, p) for p in loaded]
        print(f"{probe['device']} against {a.config}\n")
        print("| load | footprint | stride | measured cycles/load | simulated | diff |")
        print("|---|---:|---:|---:|---:|---:|")
        for p, f in zip(lat, lf):
            s = f.result()
            kb = p["footprint"] // 1024
            fp = f"{kb // 1024} MB" if kb >= 1024 else f"{kb} KB"
            m = p["cycles_per_load"]
            print(f"| {p['kind']} | {fp} | {p['stride']} | {m:.1f} | {s:.1f} | "
                  f"{100 * (s / m - 1):+.1f} % |")
        if loaded:
            print("\n| warps x lanes | measured cycles/load | G loads/s | simulated cycles/load "
                  "| G loads/s |")
            print("|---|---:|---:|---:|---:|")
            for p, f in zip(loaded, df):
                c, g = f.result()
                print(f"| {p['warps']} x {p.get('lanes', 1)} | {p['cycles_per_load']:.0f} | "
                      f"{p['gloads_per_s']:.2f} | {c:.0f} | {g:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
