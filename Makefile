# Thin wrapper over CMake: `make run`, `make test`, `make bench`.
BUILD ?= build
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build run test bench sanitize fuzz format clean

all: build

$(BUILD)/Makefile:
	@command -v cmake >/dev/null && pkg-config --exists inih jansson cmocka zlib liblzma libzstd || sh scripts/bootstrap.sh
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)

# The default GPU (configs/rtx2060s.ini) on Rodinia-style BFS with FR-FCFS, on a generated graph
# of 262,144 nodes (10 MB of arrays: more than the 4 MB L2, so the DRAM is exercised); then
# FR-FCFS and Warped-MC side by side on SYR2K at the paper's input (HOA in seed 000's Table 1),
# 5 M warp instructions each, with the seed-000 recipe's controller queues.
run: build
	./$(BUILD)/warpsim run -c configs/rtx2060s.ini -w bfs --set workload.bfs.nodes=262144 --set mc.policy=frfcfs -o $(BUILD)/bfs.json
	./$(BUILD)/warpsim compare -c configs/rtx2060s.ini -w syr2k --size paper --set gpu.max_insts=5000000 --set mc.rq_size=512 --set gpu.dram_q=256 mc.policy=frfcfs-rr,warped-mc

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

bench: build
	./$(BUILD)/bench_dram
	./$(BUILD)/bench_gpu
	./$(BUILD)/bench_trace $(BUILD)
	./$(BUILD)/bench_workloads

sanitize:
	$(MAKE) test BUILD=build-asan CTEST_ARGS="-E _e2e" CMAKE_FLAGS="-DWS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang"

# libFuzzer targets for the trace reader, the command list and the GPGPU-Sim config importer,
# each run for FUZZ_SECONDS (default 60).
fuzz:
	sh scripts/fuzz.sh

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) build-asan build-fuzz build-plain build-debug
