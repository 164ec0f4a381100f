# mk/course.mk: grading (grade, check, hint, reset), skeletons, and the course checks that make test runs.
#
# tools/grade (the grader, C) reads course/*.ini and runs make once with the
# test binaries of the exercises it grades as goals (GRADE_BUILD below); the
# static pattern rules at the end of this file build them in parallel, each
# exercise's compiler output in its own log. The grader then runs each binary
# in its own process with a time limit and prints the score.

GRADER        := build/tools/grade
GRADER_SRCS   := $(wildcard tools/grade/*.c)
GRADER_CFLAGS := -std=c11 -O2 -g $(WARN) -D_GNU_SOURCE

# Skeletons generated from solutions/ for the checks (never the learner's exercises/).
SKELETON_DIR   := build/skeletons/exercises
SKELETON_STAMP := build/skeletons/.stamp
SOLUTION_FILES := $(shell find solutions -type f ! -name '.*' 2>/dev/null)

# The grader's options shared by every run; the selection applies to grade and check.
GRADE_RUN    = $(GRADER) --jobs $(JOBS) --make '$(MAKE)'
GRADE_SELECT = $(if $(CH),--chapter $(CH)) $(if $(EX),--exercise $(EX))
# Where a run over sources $1 keeps its logs and results.json: build/grade for exercises/.
grade_out    = build/grade$(if $(filter exercises,$1),,/$(notdir $1))

.PHONY: grade grade-emu check test-solutions test-skeletons-fail hint reset deps \
        skeletons test-skeletons-sync test-nvcc test-grader test-diagnostics
.PHONY: watch progress chapters-check

grade: grade-$(if $(filter 1 yes,$(GPU)),gpu,emu)

grade-emu:
	@bash tools/deps.sh grade
	@$(MAKE) --no-print-directory -s runtime $(GRADER) || { \
	  echo "make grade: the emulator library or the grader did not build (above): a bug of DSMEM Lab, not of your code."; exit 1; }
	@$(GRADE_RUN) $(GRADE_SELECT) --src $(SRC) --out $(call grade_out,$(SRC)) $(if $(GRADE_EXPECT),--expect $(GRADE_EXPECT))

check:
	@$(MAKE) --no-print-directory grade SRC=solutions GRADE_EXPECT=pass

# Grades the exercise you edit each time you save it (Ctrl-C stops); inotifywait when installed.
# EX=id (or CH=n): grade that exercise first and watch only it (or that chapter).
watch:
	@bash tools/deps.sh grade
	@$(MAKE) --no-print-directory -s runtime $(GRADER) || { \
	  echo "make watch: the emulator library or the grader did not build (above): a bug of DSMEM Lab, not of your code."; exit 1; }
	@$(GRADER) watch --jobs $(JOBS) --make '$(MAKE)' $(GRADE_SELECT) --src $(SRC) --out $(call grade_out,$(SRC))

# What passes so far (from the earlier make grade runs), per chapter, and the next exercise.
progress: $(GRADER)
	@$(GRADER) progress --src $(SRC) --out $(call grade_out,$(SRC))

hint: $(GRADER)
	@$(if $(EX),$(GRADER) hint $(EX),echo "usage: make hint EX=chNN.name (make grade shows the ids)"; exit 1)

reset: $(GRADER)
	@$(if $(EX),$(GRADER) reset $(EX),echo "usage: make reset EX=chNN.name (make grade shows the ids)"; exit 1)

deps:
	@bash tools/deps.sh all

# The grader links the emulator library for the names of its report kinds (dsm_report_kind_name).
$(GRADER): $(GRADER_SRCS) $(wildcard tools/grade/*.h) $(RUNTIME_HEADERS) $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(GRADER_CFLAGS) -Iruntime $(GRADER_SRCS) $(EMU_LIB) -lm -o $@

# ---- skeletons ----
skeletons:
	sh tools/skeleton/generate.sh solutions exercises .backup/skeletons/$(shell date +%Y%m%d-%H%M%S)

$(SKELETON_STAMP): $(SOLUTION_FILES) tools/skeleton/skeleton.awk tools/skeleton/generate.sh
	@rm -rf $(SKELETON_DIR) && mkdir -p $(SKELETON_DIR)
	@sh tools/skeleton/generate.sh solutions $(SKELETON_DIR) > /dev/null
	@touch $@

test-skeletons-sync: $(SKELETON_STAMP)
	@sh tools/skeleton/check.sh $(SKELETON_DIR) exercises
	@sh tools/skeleton/chapters_check.sh chapters

# No chapter includes a region of solutions/ that lies inside a solution block (part of test-skeletons-sync).
chapters-check:
	@sh tools/skeleton/chapters_check.sh chapters

# ---- the course's steps of make test (no dependency installs: make test did them) ----
test-solutions: runtime $(GRADER)
	@$(GRADE_RUN) --src solutions --out build/test/solutions --expect pass

test-skeletons-fail: runtime $(GRADER) $(SKELETON_STAMP)
	@$(GRADE_RUN) --src $(SKELETON_DIR) --build build/emu/skeletons --out build/test/skeletons --expect fail

# The emulator reports the chapters show are what the emulator prints now (tools/capture_diagnostics.sh).
test-diagnostics: runtime
	@bash tools/capture_diagnostics.sh --check > build/test-diagnostics.log 2>&1 || { cat build/test-diagnostics.log; exit 1; }
	@tail -n 1 build/test-diagnostics.log

test-grader: $(GRADER) runtime
	@bash tests/grader/run.sh $(GRADER)

# Every kernel compiles with nvcc for sm_90a: solutions, fresh skeletons (what exercises/ holds
# when in sync), the chapters' buggy examples, the runtime's test kernels and the benchmark.
NVCC_SOURCES   := $(filter %.cu,$(SOLUTION_FILES)) $(shell find bench examples tests/runtime -name '*.cu' 2>/dev/null)
NVCC_SKELETONS := $(patsubst solutions/%,$(SKELETON_DIR)/%,$(filter solutions/%.cu,$(SOLUTION_FILES)))
NVCC_OBJS      := $(patsubst %.cu,build/nvcc/%.o,$(NVCC_SOURCES) $(NVCC_SKELETONS))

test-nvcc:
	@if command -v $(NVCC) > /dev/null 2>&1; then \
	  $(MAKE) --no-print-directory nvcc-objects && echo "test-nvcc: OK: $(words $(NVCC_OBJS)) kernels compile for sm_90a"; \
	else \
	  echo "test-nvcc: SKIPPED: no nvcc ($(NVCC)): the kernels were not compiled for sm_90a"; \
	  mkdir -p $(TEST_STATUS) && touch $(TEST_STATUS)/test-nvcc.skipped; \
	fi

.PHONY: nvcc-objects
nvcc-objects: $(NVCC_OBJS)

$(NVCC_SKELETONS): $(SKELETON_STAMP) ;

build/nvcc/%.o: %.cu $(RUNTIME_HEADERS)
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) -c $< -o $@

# ---- the test binaries the grader asks for (make GRADE_BUILD=... <binary>...) ----
# The grader runs make with GRADE_BACKEND (emu or gpu), GRADE_SRC (the sources graded),
# GRADE_BUILD (where the binaries go), GRADE_OUT (its logs), GRADE_TESTS (the tests' root, tests)
# and, as goals, the binary of each exercise chNN.<name>: $(GRADE_BUILD)/chNN/<name>/test_<name>.
# Everything else follows from that path (course/*.ini's names, checked by the grader): the source
# $(GRADE_SRC)/chNN/<name>.cu or .c (a header exercise chNN/<name>.h builds through its .cu), the
# test $(GRADE_TESTS)/chNN/test_<name>.c, DSM_UNIT chNN_<name>, the objects beside the binary and
# the compiler's output in $(GRADE_OUT)/logs/chNN.<name>.build.log. Kernels (.cu) are compiled as C
# against the emulator, host-only exercises (.c) as plain C; the test sees the exercise's directory
# (its headers). A test may come with $(GRADE_TESTS)/chNN/test_<name>_probe.h, force-included into
# the kernel (emulator only), e.g. to count its cluster barriers (tests/ch01/barrier_probe.h).
ifdef GRADE_BUILD
GRADE_SRC      ?= exercises
GRADE_OUT      ?= build/grade
GRADE_TESTS    ?= tests
GRADE_BACKEND  ?= emu
GRADE_SUPPORT  := $(GRADE_BUILD)/_support/test_support.o
GRADE_BINARIES := $(filter-out $(GRADE_SUPPORT),$(filter $(GRADE_BUILD)/%,$(MAKECMDGOALS)))

# Of a binary's stem chNN/<name>/test_<name> ($1): the exercise's path stem chNN/<name>, its id,
# DSM_UNIT, source, test, probe header and build log.
grade_stem   = $(patsubst %/,%,$(dir $1))
grade_id     = $(subst /,.,$(call grade_stem,$1))
grade_unit   = $(subst /,_,$(call grade_stem,$1))
grade_source = $(firstword $(wildcard $(GRADE_SRC)/$(call grade_stem,$1).c) $(GRADE_SRC)/$(call grade_stem,$1).cu)
grade_test   = $(GRADE_TESTS)/$(dir $(call grade_stem,$1))test_$(notdir $(call grade_stem,$1)).c
grade_probe  = $(wildcard $(patsubst %.c,%_probe.h,$(call grade_test,$1)))
grade_log    = $(GRADE_OUT)/logs/$(call grade_id,$1).build.log

GRADE_HOST_LDLIBS ?= $(EMU_LDLIBS)
grade_emu_libs = $(if $(filter %.cu,$1),$(EMU_LDLIBS),$(GRADE_HOST_LDLIBS))

.SECONDEXPANSION:
ifeq ($(GRADE_BACKEND),gpu)
# GPU backend: kernels built by nvcc (mk/gpu.mk's flags), host-only exercises by cc; linked by nvcc.
$(GRADE_BINARIES): $(GRADE_BUILD)/%: $$(call grade_source,$$*) $$(call grade_test,$$*) $(GRADE_SUPPORT) $(CUDA_LIB) $(RUNTIME_HEADERS)
	@rm -f $@ && mkdir -p $(@D) $(GRADE_OUT)/logs
	@( set -x; \
	  $(if $(filter %.cu,$<),$(NVCC) $(NVCC_FLAGS),$(CC) $(CUDA_HOST_CFLAGS)) -I$(dir $<) -DDSM_UNIT=$(call grade_unit,$*) \
	    -c $< -o $(@D)/kernel.o && \
	  $(CC) $(CUDA_HOST_CFLAGS) $(CMOCKA_INC) -I$(dir $<) -MMD -MP -MT $@ -MF $(@D)/test.d -c $(word 2,$^) -o $(@D)/test.o && \
	  $(NVCC) $(NVCC_ARCH) $(@D)/test.o $(@D)/kernel.o $(GRADE_SUPPORT) $(CMOCKA_LIB) $(CUDA_LDLIBS) -o $@ \
	) > $(call grade_log,$*) 2>&1

$(GRADE_SUPPORT): tests/support/test_support.c tests/support/test_support.h
	@mkdir -p $(@D)
	$(CC) $(CUDA_HOST_CFLAGS) $(CMOCKA_INC) -c $< -o $@
else
# Emulator backend.
$(GRADE_BINARIES): $(GRADE_BUILD)/%: $$(call grade_source,$$*) $$(call grade_test,$$*) $(GRADE_SUPPORT) \
                   $$(filter %.a,$$(call grade_emu_libs,$$(call grade_source,$$*)))
	@rm -f $@ && mkdir -p $(@D) $(GRADE_OUT)/logs
	@( set -x; \
	  $(CC) $(EMU_CFLAGS) $(CMOCKA_INC) -I$(dir $<) $(if $(filter %.cu,$<),-x c $(EMU_KERNEL_CFLAGS)) \
	    -DDSM_UNIT=$(call grade_unit,$*) $(if $(call grade_probe,$*),-include $(call grade_probe,$*)) \
	    -MMD -MP -MT $@ -MF $(@D)/kernel.d -c $< -o $(@D)/kernel.o && \
	  $(CC) $(EMU_CFLAGS) $(CMOCKA_INC) -I$(dir $<) -MMD -MP -MT $@ -MF $(@D)/test.d -c $(word 2,$^) -o $(@D)/test.o && \
	  $(CC) $(EMU_CFLAGS) $(@D)/test.o $(@D)/kernel.o $(GRADE_SUPPORT) $(CMOCKA_LIB) $(call grade_emu_libs,$<) -o $@ \
	) > $(call grade_log,$*) 2>&1

$(GRADE_SUPPORT): tests/support/test_support.c tests/support/test_support.h
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) $(CMOCKA_INC) -c $< -o $@
endif
-include $(wildcard $(addsuffix *.d,$(dir $(GRADE_BINARIES))))
endif

# ---- the mutation suite (tools/mutants/run.sh; docs/CONVENTIONS.md, "The mutation suite") ----
# Every tests/mutants/<id>/<name>.patch applied to a copy of solutions/ and that one exercise graded:
# a wrong version must lose its points, an ok-<name>.patch must keep them. EX=id: that exercise's only.
# make mutants: the same (the name the chapters and tools/mutants/new.sh use).
.PHONY: test-mutants mutants
mutants: test-mutants
test-mutants: runtime $(GRADER)
	@bash tools/mutants/run.sh --jobs $(JOBS) --make '$(MAKE)' $(if $(EX),--exercise $(EX))

