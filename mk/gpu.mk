# mk/gpu.mk: the same exercise tests with the kernels built by nvcc, run on a GPU of compute capability >= 9.0 (make grade GPU=1, make gpu-test).
#
# Without a GPU (nvidia-smi -L fails), without nvcc, or on a GPU older than
# Hopper (compute capability < 9.0), these targets print "waived: no GPU of
# compute capability 9.0 or later (why)" and succeed: waived is not failed.
# Kernels carry sm_90a code and compute_90 PTX (NVCC_ARCH, mk/runtime.mk):
# Hopper runs the code, later GPUs JIT-compile the PTX. PTX_ONLY=1 builds only
# the PTX and sets CUDA_FORCE_PTX_JIT=1, so a Hopper tests the JIT path too
# (binaries in build/gpu-ptx/). On a machine without libcmocka-dev, point
# CMOCKA_PREFIX at unpacked .deb files (see the top Makefile).

COMPUTE_SANITIZER ?= $(firstword $(wildcard $(CUDA_HOME)/bin/compute-sanitizer) compute-sanitizer)
SANITIZER_TIMEOUT ?= 600
GPU_OUT := build/gpu
ifeq ($(PTX_ONLY),1)
GPU_OUT := build/gpu-ptx
export CUDA_FORCE_PTX_JIT := 1
endif

# Why this machine cannot run the course's kernels (nvcc, a driver, compute capability >= 9.0); empty
# when it can. Evaluated only when used. The one GPU probe: make grade GPU=1, gpu-test and make bench use it.
gpu_why = $(shell \
  if ! command -v $(NVCC) > /dev/null 2>&1; then echo "no nvcc at $(NVCC)"; \
  elif ! nvidia-smi -L > /dev/null 2>&1; then echo "nvidia-smi -L failed: no GPU or no driver"; \
  else cc=$$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null | head -n 1); \
    case "$$cc" in ([0-8].*) echo "the GPU has compute capability $$cc; thread block clusters need 9.0 or later";; esac; \
  fi)

# Runs the rest of the recipe line only on a machine with such a GPU; otherwise says why and succeeds.
gpu_or_waive = why='$(gpu_why)'; if [ -n "$$why" ]; then echo "waived: no GPU of compute capability 9.0 or later ($$why)"; exit 0; fi; \
  $(if $(filter 1,$(PTX_ONLY)),echo "PTX_ONLY=1: kernels built as compute_90 PTX only and run through the JIT (CUDA_FORCE_PTX_JIT=1)";)

# PTX_ONLY builds go to their own folder, so they never mix with the sm_90a objects.
GPU_GRADE = $(GRADE_RUN) --backend gpu
gpu_ptx_build = $(if $(filter 1,$(PTX_ONLY)),--build build/gpu-ptx/bin/$(notdir $1))

# The exercises with a kernel (built from a .cu: a kernel file, or a header built through its .cu), from
# `grade ini`, comma separated, less those named in $1: the sanitizers check only these (a host-only test
# never initialises CUDA, which compute-sanitizer counts as an error). Shell code, for a recipe that has
# built the grader.
kernel_exercises = $$($(GRADER) ini | awk -F '\t' -v skip=',$(subst $(space),$(comma),$(strip $1)),' \
  '$$4 ~ /\.cu$$/ && index(skip, "," $$1 ",") == 0 { printf "%s%s", sep, $$1; sep = "," }')

# Racecheck models plain shared-memory accesses only: the strong relaxed/acquire/release
# flag loads and stores of the flag-polled ping-pong (ld/st.relaxed|acquire|release.cluster)
# are ordered by the PTX memory model, yet racecheck counts them as hazards. Its tests,
# memcheck and the emulator's race checks still cover it (tests/runtime/test_flags: the same).
RACECHECK_SKIP_EXERCISES := ch05.pingpong_flags
comma := ,
space := $(eval) $(eval)

.PHONY: grade-gpu gpu-test

grade-gpu:
	@$(gpu_or_waive) \
	$(MAKE) --no-print-directory -s runtime-cuda $(GRADER) && \
	$(GPU_GRADE) $(call gpu_ptx_build,$(SRC)) $(GRADE_SELECT) --src $(SRC) --out $(GPU_OUT)/grade$(if $(filter exercises,$(SRC)),,/$(notdir $(SRC))) \
	  $(if $(GRADE_EXPECT),--expect $(GRADE_EXPECT))

gpu-test:
	@$(gpu_or_waive) \
	$(MAKE) --no-print-directory -s runtime-cuda $(GRADER) || exit 1; \
	tests=FAILED; memcheck=FAILED; racecheck=FAILED; \
	$(GPU_GRADE) $(call gpu_ptx_build,solutions) --src solutions --out $(GPU_OUT)/test --expect pass && tests=OK; \
	GRADE_TIMEOUT=$(SANITIZER_TIMEOUT) $(GPU_GRADE) $(call gpu_ptx_build,solutions) --src solutions --out $(GPU_OUT)/memcheck --expect pass --exercise "$(call kernel_exercises)" \
	  --wrap "$(COMPUTE_SANITIZER) --tool memcheck --error-exitcode 1" && memcheck=OK; \
	GRADE_TIMEOUT=$(SANITIZER_TIMEOUT) $(GPU_GRADE) $(call gpu_ptx_build,solutions) --src solutions --out $(GPU_OUT)/racecheck --expect pass --exercise "$(call kernel_exercises,$(RACECHECK_SKIP_EXERCISES))" \
	  --wrap "$(COMPUTE_SANITIZER) --tool racecheck --error-exitcode 1" && racecheck=OK; \
	echo "gpu-test: solutions $$tests, memcheck $$memcheck, racecheck $$racecheck (logs: $(GPU_OUT)/{test,memcheck,racecheck}/logs/)"; \
	[ $$tests$$memcheck$$racecheck = OKOKOK ]
