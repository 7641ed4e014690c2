#!/bin/sh
# Runs wlprobe's kernels under Nsight Compute and writes one CSV of the counters that
# tools/gpuprobe/wlcompare.py sets beside warpsim's models (docs/calibration.md):
#     tools/gpuprobe/wlprobe.sh > wlprobe.csv
# Each block starts with a line "# NAME N"; what follows is ncu's --csv output for that run.
set -e
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
nvcc -O2 -arch=native -o /tmp/wlprobe wlprobe.cu
M=smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
M=$M,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum
M=$M,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
M=$M,dram__sectors_read.sum,dram__sectors_write.sum,gpc__cycles_elapsed.max,gpu__time_duration.sum
for run in "atax 8192" "bicg 8192" "mvt 8192" "gesummv 4096" "mm2 256" "syrk 256" "syr2k 256" \
    "mm2 2048" "syr2k 2048"; do
    echo "# $run"
    # shellcheck disable=SC2086
    "$NCU" --csv --print-units base --clock-control none --metrics "$M" /tmp/wlprobe $run
done
