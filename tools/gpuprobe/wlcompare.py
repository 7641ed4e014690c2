#!/usr/bin/env python3
"""Sets a real GPU's memory counters for PolyBench/GPU kernels beside warpsim's models of them.

    tools/gpuprobe/wlcompare.py docs/calibration/h200-2026-11-28-wlprobe.csv -c configs/h200.ini -j 2

The CSV is tools/gpuprobe/wlprobe.sh's output: Nsight Compute's counters for each run of
wlprobe.cu, a block per "# NAME N" line. For each run this simulates `-w NAME` at the same size
to completion and prints, summed over the run's kernels (chip / model):

  load warps   global load warp instructions (smsp__inst_executed_op_global_ld / load_warps)
  L1 hits      share of the global-load sectors served by the L1 (real) / of line requests (sim)
  L2 reads     read requests the L1s send to the L2 (lts__t_requests_srcunit_tex_op_read /
               the L2's read accesses: line requests, each for the sectors it misses)
  DRAM reads   32 B sectors read from DRAM (dram__sectors_read / dram.reads, one 32 B burst each)
  cycles       the kernels' elapsed cycles (gpc__cycles_elapsed.max / gpu.cycles; a simulated
               run also counts its launch overheads)
Nsight Compute flushes the GPU's caches before each kernel it profiles (its default
--cache-control all), so the simulated runs empty the L2 before each kernel too
(gpu.flush_l2 = true, gpu.warm_l2 = false). Runs larger than the largest size SIZE_KEYS
simulates (too long to run whole here) print the chip's side alone.
"""
import argparse
import concurrent.futures as cf
import csv
import sys

from compare import add_sim_args, run  # tools/gpuprobe/compare.py, beside this script

# the workload's size key(s) in warpsim, and the largest size simulated to completion here
SIZE_KEYS = {
    "atax": (["workload.atax.nx", "workload.atax.ny"], 8192),
    "bicg": (["workload.bicg.nx", "workload.bicg.ny"], 8192),
    "mvt": (["workload.mvt.n"], 8192),
    "gesummv": (["workload.gesummv.n"], 4096),
    "mm2": (["workload.mm2.n"], 512),
    "syrk": (["workload.syrk.n", "workload.syrk.m"], 512),
    "syr2k": (["workload.syr2k.n", "workload.syr2k.m"], 512),
}
REAL = {
    "ld": "smsp__inst_executed_op_global_ld.sum",
    "l1_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1_hits": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
    "l2_reads": "lts__t_requests_srcunit_tex_op_read.sum",
    "dram_reads": "dram__sectors_read.sum",
    "cycles": "gpc__cycles_elapsed.max",
}


METRIC_KEY = {m: k for k, m in REAL.items()}


class Block:
    """One '# NAME N' run of the CSV while it is read."""

    def __init__(self, name, n, line):
        self.name, self.n, self.line = name, n, line
        self.cols = None  # the ncu table's header
        self.tot = {k: 0.0 for k in REAL}
        self.kernels, self.seen = set(), set()


def parse(path):
    """[(name, n, {counter: sum over the run's kernels}, kernels)]; a malformed file stops with
    path:line and what is wrong."""
    runs, cur = [], None

    def close():
        if cur is None:
            return
        if cur.cols is None:
            sys.exit(f"{path}:{cur.line}: no Nsight Compute table for '{cur.name} {cur.n}'")
        for m in REAL.values():
            if m not in cur.seen:
                sys.exit(f"{path}:{cur.line}: run '{cur.name} {cur.n}' has no {m}")
        runs.append((cur.name, cur.n, cur.tot, len(cur.kernels)))

    with open(path, newline="") as f:
        for ln, line in enumerate(f, 1):
            if line.startswith("# "):
                close()
                parts = line.split()
                if len(parts) != 3 or not parts[2].isdigit():
                    sys.exit(f"{path}:{ln}: expected '# NAME N'")
                cur = Block(parts[1], int(parts[2]), ln)
                continue
            if line.startswith("==ERROR=="):
                sys.exit(f"{path}:{ln}: Nsight Compute: {line[9:].strip()}")
            if line.startswith("==") or not line.strip():
                continue
            if cur is None:
                sys.exit(f"{path}:{ln}: a table line before any '# NAME N'")
            row = next(csv.reader([line]))
            if cur.cols is None:
                if not row or row[0] != "ID":
                    sys.exit(f"{path}:{ln}: expected Nsight Compute's CSV header (\"ID\", ...)")
                cur.cols = row
                continue
            if len(row) != len(cur.cols):
                sys.exit(f"{path}:{ln}: {len(row)} fields, the header has {len(cur.cols)}")
            d = dict(zip(cur.cols, row))
            cur.kernels.add(d["ID"])
            k = METRIC_KEY.get(d["Metric Name"])
            if k is None:
                continue
            try:
                cur.tot[k] += float(d["Metric Value"].replace(",", ""))
            except ValueError:
                sys.exit(f"{path}:{ln}: {d['Metric Name']} = '{d['Metric Value']}' is not a number")
            cur.seen.add(d["Metric Name"])
    close()
    if not runs:
        sys.exit(f"{path}: no '# NAME N' run in it")
    return runs


def simulate(warpsim, config, name, n):
    keys, _ = SIZE_KEYS[name]
    sets = ["gpu.warm_l2=false", "gpu.flush_l2=true"] + [f"{k}={n}" for k in keys]
    r = run(warpsim, config, sets, workload=name)["stats"]
    l2 = r["l2"]
    l1 = r["l1d"]
    l1_reads = l1["rd_hit"] + l1["rd_hit_reserved"] + l1["rd_sector_miss"] + l1["rd_miss"]
    return {
        "ld": r["gpu"]["load_warps"],
        "l1_hit": (l1["rd_hit"] + l1["rd_hit_reserved"]) / l1_reads if l1_reads else 0.0,
        "l2_reads": l2["rd_hit"] + l2["rd_hit_reserved"] + l2["rd_sector_miss"] + l2["rd_miss"],
        "dram_reads": r["dram"]["reads"],
        "cycles": r["gpu"]["cycles"],
    }


def ratio(sim, real):
    return f"{100 * (sim / real - 1):+.0f} %" if real else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", help="tools/gpuprobe/wlprobe.sh's output")
    add_sim_args(ap)
    a = ap.parse_args()
    runs = parse(a.csv)
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(simulate, a.warpsim, a.config, name, n)
                if name in SIZE_KEYS and n <= SIZE_KEYS[name][1] else None
                for name, n, _, _ in runs]
        print(f"{a.csv} against {a.config} (real / simulated, simulated's difference)\n")
        print("| run | kernels | load warps | L1 hits | L2 reads | DRAM reads | cycles |")
        print("|---|---:|---|---|---|---|---|")
        for (name, n, t, nk), fu in zip(runs, futs):
            l1 = t["l1_hits"] / t["l1_sectors"] if t["l1_sectors"] else 0.0
            if fu is None:
                print(f"| {name} {n} | {nk} | {t['ld']:.0f} | {100 * l1:.1f} % | "
                      f"{t['l2_reads']:.0f} | {t['dram_reads']:.0f} | {t['cycles']:.0f} |")
                continue
            s = fu.result()
            print(f"| {name} {n} | {nk} | {t['ld']:.0f} / {s['ld']} ({ratio(s['ld'], t['ld'])}) | "
                  f"{100 * l1:.1f} / {100 * s['l1_hit']:.1f} % | "
                  f"{t['l2_reads']:.0f} / {s['l2_reads']} ({ratio(s['l2_reads'], t['l2_reads'])}) | "
                  f"{t['dram_reads']:.0f} / {s['dram_reads']} "
                  f"({ratio(s['dram_reads'], t['dram_reads'])}) | "
                  f"{t['cycles']:.0f} / {s['cycles']} ({ratio(s['cycles'], t['cycles'])}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
