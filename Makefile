# Thin wrapper over CMake: `make run`, `make test`, `make bench`.
BUILD ?= build
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build run test bench sanitize format clean

all: build

$(BUILD)/Makefile:
	@command -v cmake >/dev/null && pkg-config --exists inih jansson cmocka zlib || sh scripts/bootstrap.sh
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/warpsim dram -c configs/ddr4-2400.ini --synthetic mixed --requests 200000 --set mc.policy=fcfs -o $(BUILD)/fcfs.json
	./$(BUILD)/warpsim dram -c configs/ddr4-2400.ini --synthetic mixed --requests 200000 --set mc.policy=frfcfs -o $(BUILD)/frfcfs.json

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	./$(BUILD)/bench_dram

sanitize:
	$(MAKE) test BUILD=build-asan CMAKE_FLAGS="-DWS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang"

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) build-asan
