# mk/runtime.mk: the runtime libraries (emulator and CUDA host side) and the emulator's own test suite.

CC        ?= gcc
NVCC      ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
# sm_90a machine code for Hopper, plus compute_90 PTX that the driver compiles (JIT) for any later GPU.
# PTX_ONLY=1: only the PTX, to test that path on a Hopper (with CUDA_FORCE_PTX_JIT=1, see mk/gpu.mk).
ifeq ($(PTX_ONLY),1)
NVCC_ARCH := -gencode=arch=compute_90,code=compute_90
else
NVCC_ARCH := -gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_90,code=compute_90
endif
NVCC_FLAGS := $(NVCC_ARCH) -O3 -lineinfo -Iruntime -Itests
# DEBUG=1: the Hopper backend checks the operands of bulk copies (alignment, size, masks) and traps with a message.
ifeq ($(DEBUG),1)
NVCC_FLAGS += -DDSM_DEBUG
endif

WARN       := -Wall -Wextra
EMU_CFLAGS := -std=c11 -g -O1 $(WARN) -D_GNU_SOURCE -Iruntime -Itests
# Kernel units: every plain load and store calls the emulator (ThreadSanitizer's instrumentation,
# its runtime not linked: runtime/emu/api/plain_access.c defines the entry points). -fno-tree-sra keeps an
# aggregate load whole: without it gcc splits `uint4 v = p[i]` whose fields are used one by one into four
# 4-byte loads (and drops the unused ones), so the emulator would not see the 16-byte load the GPU makes.
EMU_KERNEL_CFLAGS := -fsanitize=thread --param=tsan-instrument-func-entry-exit=0 --param=tsan-distinguish-volatile=1 -fno-tree-sra
EMU_LIB    := build/libdsm_emu.a
EMU_LDLIBS := $(EMU_LIB) -lcmocka -lm

CUDA_HOST_CFLAGS := -std=c11 -g -O2 $(WARN) -D_GNU_SOURCE -DDSM_BACKEND_CUDA -Iruntime -Itests -I$(CUDA_HOME)/include
CUDA_LIB    := build/libdsm_cuda.a
CUDA_LDLIBS := $(CUDA_LIB) -lcmocka -lm

# The emulator, one folder per layer (runtime/README.md): each calls only itself and the folders before it here.
EMU_LAYERS := base state diagnostics checks engine mechanisms api
RUNTIME_HEADERS := $(wildcard runtime/*.h runtime/emu/*.h $(EMU_LAYERS:%=runtime/emu/%/*.h) runtime/hopper/*.h runtime/model/*.h)
EMU_SRCS   := $(wildcard $(EMU_LAYERS:%=runtime/emu/%/*.c)) $(wildcard runtime/model/*.c)
EMU_ASM    := $(wildcard $(EMU_LAYERS:%=runtime/emu/%/*.S))
EMU_OBJS   := $(patsubst runtime/%.c,build/runtime/%.o,$(EMU_SRCS)) $(patsubst runtime/%.S,build/runtime/%.o,$(EMU_ASM))
CUDA_SRCS  := $(wildcard runtime/hopper/*.c) $(wildcard runtime/model/*.c)
CUDA_OBJS  := $(patsubst runtime/%.c,build/runtime-cuda/%.o,$(CUDA_SRCS))

.PHONY: runtime runtime-cuda test-layers

runtime: $(EMU_LIB)

$(EMU_LIB): $(EMU_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

build/runtime/%.o: runtime/%.c $(RUNTIME_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) -c $< -o $@

build/runtime/%.o: runtime/%.S
	@mkdir -p $(@D)
	$(CC) -c $< -o $@

# No cycle among the emulator's object files (from their defined and undefined symbols: tools/check_cycles.sh).
test-layers: $(EMU_OBJS)
	@tools/check_cycles.sh $(EMU_OBJS)

runtime-cuda: $(CUDA_LIB)

$(CUDA_LIB): $(CUDA_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

build/runtime-cuda/%.o: runtime/%.c $(RUNTIME_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CUDA_HOST_CFLAGS) -c $< -o $@

# ---- the emulator's own test suite: tests/runtime/test_<x>.c, with kernels from tests/runtime/kernels/<x>.cu ----
RT_TEST_SRCS := $(wildcard tests/runtime/test_*.c)
RT_TESTS     := $(patsubst tests/runtime/%.c,build/runtime-tests/%,$(RT_TEST_SRCS))

.PHONY: test-runtime runtime-bench runtime-course-twins
test-runtime: $(RT_TESTS)
	@fail=0; for t in $(RT_TESTS); do \
	  if $$t > $$t.log 2>&1; then echo "PASS $$t"; else echo "FAIL $$t (log: $$t.log)"; tail -n 30 $$t.log; fail=1; fi; \
	done; $(MAKE) --no-print-directory runtime-course-twins || fail=1; exit $$fail

# The course's tests see plain accesses too: ch02.histogram's solution with its remote atomic replaced
# by a plain p[bin]++ through a mapped pointer (issue 8's racy histogram) must fail, as a race.
TWIN_HIST := build/twins-course/ch02/histogram.cu
runtime-course-twins:
	@$(MAKE) --no-print-directory -s runtime $(GRADER)
	@mkdir -p $(dir $(TWIN_HIST)) build/test
	@sed 's|dsm_red_add_shared_cluster_u32(addr, 1u);|(void)addr; ((uint32_t *)dsm_map_shared_rank(\&smem[offset], owner))[0]++;|' \
	  solutions/ch02/histogram.cu > $(TWIN_HIST)
	@grep -q 'dsm_map_shared_rank(&smem' $(TWIN_HIST) || { echo "runtime-course-twins: solutions/ch02/histogram.cu changed, update the sed"; exit 1; }
	@$(GRADE_RUN) --exercise ch02.histogram --src build/twins-course --out build/test/twins-course --expect fail \
	  > build/test/twins-course.log 2>&1 || { cat build/test/twins-course.log; exit 1; }
	@grep -q 'read-modify-write' build/test/twins-course.log || { cat build/test/twins-course.log; \
	  echo "runtime-course-twins: the racy histogram failed, but not as a read-modify-write race"; exit 1; }
	@echo "PASS runtime-course-twins (ch02.histogram with a plain p[bin]++ fails as a race)"

build/runtime-tests/%.o: tests/runtime/%.c $(RUNTIME_HEADERS) tests/runtime/runtime_test.h
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) -c $< -o $@

build/runtime-tests/kernels/%.o: tests/runtime/kernels/%.cu $(RUNTIME_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) $(EMU_KERNEL_CFLAGS) -x c -DDSM_UNIT=rt_$* -c $< -o $@

.SECONDEXPANSION:
build/runtime-tests/test_%: build/runtime-tests/test_%.o $$(if $$(wildcard tests/runtime/kernels/$$*.cu),build/runtime-tests/kernels/$$*.o) $(EMU_LIB)
	$(CC) $^ -lcmocka -lm -o $@

# ---- the same suite on a GPU: kernels through nvcc (Hopper backend), tests linked with the CUDA host runtime ----
# cmocka from a folder where libcmocka-dev was unpacked (CMOCKA_PREFIX, see Makefile) lands in CMOCKA_INC/CMOCKA_LIB.
RT_GPU_TESTS := $(patsubst tests/runtime/%.c,build/runtime-gpu-tests/%,$(RT_TEST_SRCS))

# Test binaries whose fixed kernels hand shared memory from one warp to another through ld.acquire /
# st.release or volatile flags between fences: correct (PTX memory model), but racecheck knows only
# barriers, so it would call the hand-off a hazard. test_lifetime_order's fixed twins end a CTA's life on a
# remote mbarrier arrive or a release flag from its peer (not a cluster barrier): on the H200 racecheck
# reported their correct reads as "located in a block that might have already exited" (2026-12-02).
RACECHECK_SKIP := test_flags test_lifetime_order
.PHONY: runtime-gpu-test runtime-gpu-run
# Runs the suite on the GPU, then compute-sanitizer memcheck and racecheck on each binary (logs in
# build/runtime-gpu-tests/). Without a Hopper GPU it says so and succeeds (gpu_or_waive, mk/gpu.mk).
runtime-gpu-test:
	@$(gpu_or_waive) $(MAKE) --no-print-directory runtime-gpu-run

runtime-gpu-run: $(RT_GPU_TESTS)
	@fail=0; for t in $(RT_GPU_TESTS); do \
	  if $$t > $$t.log 2>&1; then echo "PASS $$t"; else echo "FAIL $$t (log: $$t.log)"; tail -n 30 $$t.log; fail=1; fi; \
	  [ -f tests/runtime/kernels/$$(basename $$t | sed 's/^test_//').cu ] || continue; \
	  if grep -q 'PASSED  \] 0 test' $$t.log; then echo "  sanitizers: skipped (every test of it is emulator-only: no kernel runs here)"; continue; fi; \
	  for tool in memcheck racecheck; do \
	    case " $(RACECHECK_SKIP) " in (*" $$(basename $$t) "*) if [ $$tool = racecheck ]; then \
	      echo "  racecheck: skipped (hand-offs through release/acquire flags or remote arrives, which racecheck does not model)"; continue; fi;; esac; \
	    compute-sanitizer --tool $$tool --report-api-errors no --error-exitcode 3 $$t > $$t.$$tool.log 2>&1; rc=$$?; \
	    echo "  $$tool: rc=$$rc, $$(grep -E '========= (ERROR SUMMARY|RACECHECK SUMMARY)' $$t.$$tool.log | tail -n 1)"; \
	    [ $$rc -eq 0 ] || fail=1; \
	  done; \
	done; exit $$fail

build/runtime-gpu-tests/%.o: tests/runtime/%.c $(RUNTIME_HEADERS) tests/runtime/runtime_test.h
	@mkdir -p $(@D)
	$(CC) $(CUDA_HOST_CFLAGS) $(CMOCKA_INC) -c $< -o $@

build/runtime-gpu-tests/kernels/%.o: tests/runtime/kernels/%.cu $(RUNTIME_HEADERS)
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) -c $< -o $@

build/runtime-gpu-tests/test_%: build/runtime-gpu-tests/test_%.o $$(if $$(wildcard tests/runtime/kernels/$$*.cu),build/runtime-gpu-tests/kernels/$$*.o) $(CUDA_LIB)
	$(NVCC) $(NVCC_ARCH) $^ $(CMOCKA_LIB) -lcmocka -lm -o $@

# ---- the emulator's speed: 2 CTAs x 256 threads through 1000 cluster barriers (target < 1 s) ----
build/runtime-bench/bench_cluster_barriers: tests/runtime/bench/bench_cluster_barriers.c tests/runtime/bench/barrier_loop.cu $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) $(EMU_KERNEL_CFLAGS) -x c -DDSM_UNIT=bench_loop -c tests/runtime/bench/barrier_loop.cu -o $@.k.o
	$(CC) $(EMU_CFLAGS) tests/runtime/bench/bench_cluster_barriers.c $@.k.o $(EMU_LIB) -lm -o $@

runtime-bench: build/runtime-bench/bench_cluster_barriers
	$<

# ---- the emulator itself under UndefinedBehaviorSanitizer (kernels built without it: some tests plant bugs in them).
# AddressSanitizer is left out: it does not follow the emulator's own stack switching. ----
UBSAN := -fsanitize=undefined -fno-sanitize-recover=undefined
RT_UBSAN_TESTS := $(patsubst tests/runtime/%.c,build/runtime-ubsan/%,$(RT_TEST_SRCS))
.PHONY: test-runtime-ubsan
test-runtime-ubsan: $(RT_UBSAN_TESTS)
	@fail=0; for t in $(RT_UBSAN_TESTS); do \
	  if $$t > $$t.log 2>&1 && ! grep -q 'runtime error' $$t.log; then echo "PASS (ubsan) $$t"; \
	  else echo "FAIL (ubsan) $$t (log: $$t.log)"; grep -m3 'runtime error' $$t.log; fail=1; fi; \
	done; exit $$fail

build/runtime-ubsan/lib/%.o: runtime/%.c $(RUNTIME_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) $(UBSAN) -c $< -o $@

build/runtime-ubsan/libdsm_emu.a: $(patsubst runtime/%.c,build/runtime-ubsan/lib/%.o,$(EMU_SRCS)) $(patsubst runtime/%.S,build/runtime/%.o,$(EMU_ASM))
	rm -f $@ && ar rcs $@ $^

build/runtime-ubsan/test_%: tests/runtime/test_%.c $$(if $$(wildcard tests/runtime/kernels/$$*.cu),build/runtime-tests/kernels/$$*.o) build/runtime-ubsan/libdsm_emu.a
	$(CC) $(EMU_CFLAGS) $(UBSAN) $^ -lcmocka -lm -o $@
