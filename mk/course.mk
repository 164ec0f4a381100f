# mk/course.mk: grading (grade, check, hint, reset), skeletons, and the course checks that make test runs.
#
# tools/grade (the grader, C) reads course/*.ini, writes a build list for the
# exercises it grades and runs `make GRADE_LIST=<list> grade-build`: the list
# instantiates grade_exercise_emu (here) or grade_exercise_gpu (mk/gpu.mk)
# once per exercise, so make builds all test binaries in parallel, each
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

.PHONY: grade grade-emu check check-solutions check-skeletons hint reset deps \
        skeletons skeletons-check nvcc-check grader-test grade-build diagnostics-check
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

$(GRADER): $(GRADER_SRCS) $(wildcard tools/grade/*.h)
	@mkdir -p $(@D)
	$(CC) $(GRADER_CFLAGS) $(GRADER_SRCS) -o $@

# ---- skeletons ----
skeletons:
	sh tools/skeleton/generate.sh solutions exercises .backup/skeletons/$(shell date +%Y%m%d-%H%M%S)

$(SKELETON_STAMP): $(SOLUTION_FILES) tools/skeleton/skeleton.awk tools/skeleton/generate.sh
	@rm -rf $(SKELETON_DIR) && mkdir -p $(SKELETON_DIR)
	@sh tools/skeleton/generate.sh solutions $(SKELETON_DIR) > /dev/null
	@touch $@

skeletons-check: $(SKELETON_STAMP)
	@sh tools/skeleton/check.sh $(SKELETON_DIR) exercises
	@sh tools/skeleton/chapters_check.sh chapters

# No chapter includes a region of solutions/ that lies inside a solution block (part of skeletons-check).
chapters-check:
	@sh tools/skeleton/chapters_check.sh chapters

# ---- the course checks of make test (no dependency installs: make test did them) ----
check-solutions: runtime $(GRADER)
	@$(GRADE_RUN) --src solutions --out build/test/solutions --expect pass

check-skeletons: runtime $(GRADER) $(SKELETON_STAMP)
	@$(GRADE_RUN) --src $(SKELETON_DIR) --build build/emu/skeletons --out build/test/skeletons --expect fail

# The emulator reports the chapters show are what the emulator prints now (tools/capture_diagnostics.sh).
diagnostics-check: runtime
	@bash tools/capture_diagnostics.sh --check > build/diagnostics-check.log 2>&1 || { cat build/diagnostics-check.log; exit 1; }
	@tail -n 1 build/diagnostics-check.log

grader-test: $(GRADER)
	@bash tests/grader/run.sh $(GRADER)

# Every kernel compiles with nvcc for sm_90a: solutions, fresh skeletons (what exercises/ holds
# when in sync), the chapters' buggy examples, the runtime's test kernels and the benchmark.
NVCC_SOURCES   := $(filter %.cu,$(SOLUTION_FILES)) $(shell find bench examples tests/runtime -name '*.cu' 2>/dev/null)
NVCC_SKELETONS := $(patsubst solutions/%,$(SKELETON_DIR)/%,$(filter solutions/%.cu,$(SOLUTION_FILES)))
NVCC_OBJS      := $(patsubst %.cu,build/nvcc/%.o,$(NVCC_SOURCES) $(NVCC_SKELETONS))

nvcc-check:
	@if command -v $(NVCC) > /dev/null 2>&1; then \
	  $(MAKE) --no-print-directory nvcc-objects && echo "nvcc-check: OK: $(words $(NVCC_OBJS)) kernels compile for sm_90a"; \
	else \
	  echo "nvcc-check: SKIPPED: no nvcc ($(NVCC)): the kernels were not compiled for sm_90a"; \
	  mkdir -p $(TEST_STATUS) && touch $(TEST_STATUS)/nvcc-check.skipped; \
	fi

.PHONY: nvcc-objects
nvcc-objects: $(NVCC_OBJS)

$(NVCC_SKELETONS): $(SKELETON_STAMP) ;

build/nvcc/%.o: %.cu $(RUNTIME_HEADERS)
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) -c $< -o $@

# ---- the rules the grader's build list instantiates (emulator backend) ----
# The test binary of one exercise: $1 source, $2 test, $3 DSM_UNIT, $4 object directory,
# $5 binary, $6 build log. Kernels (.cu) are compiled as C against the emulator; host-only
# exercises (.c) as plain C. The test sees the exercise's directory (its headers). A test may
# come with tests/chNN/test_<name>_probe.h, force-included into the kernel here (emulator only),
# e.g. to count its cluster barriers (tests/ch01/barrier_probe.h).
GRADE_HOST_LDLIBS ?= $(EMU_LDLIBS)
grade_emu_libs = $(if $(filter %.cu,$1),$(EMU_LDLIBS),$(GRADE_HOST_LDLIBS))

define grade_exercise_emu
$5: $1 $2 $(GRADE_SUPPORT) $(filter %.a,$(call grade_emu_libs,$1))
	@rm -f $$@ && mkdir -p $4 $(dir $6)
	@( set -x; \
	  $(CC) $(EMU_CFLAGS) $(CMOCKA_INC) -I$(dir $1) $(if $(filter %.cu,$1),-x c $(EMU_KERNEL_CFLAGS)) -DDSM_UNIT=$3 \
	    $(if $(wildcard $(2:.c=_probe.h)),-include $(2:.c=_probe.h)) \
	    -MMD -MP -MT $$@ -MF $4/kernel.d -c $1 -o $4/kernel.o && \
	  $(CC) $(EMU_CFLAGS) $(CMOCKA_INC) -I$(dir $1) -MMD -MP -MT $$@ -MF $4/test.d -c $2 -o $4/test.o && \
	  $(CC) $(EMU_CFLAGS) $4/test.o $4/kernel.o $(GRADE_SUPPORT) $(CMOCKA_LIB) $(call grade_emu_libs,$1) -o $$@ \
	) > $6 2>&1
-include $(wildcard $4/*.d)
endef

# tests/support/test_support.c for one build directory's binaries: $1 the object.
define grade_support_emu
$1: tests/support/test_support.c tests/support/test_support.h
	@mkdir -p $$(@D)
	$(CC) $(EMU_CFLAGS) $(CMOCKA_INC) -c $$< -o $$@
endef

# ---- the mutation suite (tools/mutants/run.sh; docs/CONVENTIONS.md, "The mutation suite") ----
# Every tests/mutants/<id>/<name>.patch applied to a copy of solutions/ and that one exercise graded:
# a wrong version must lose its points, an ok-<name>.patch must keep them. EX=id: that exercise's only.
.PHONY: mutants mutants-support
mutants: runtime $(GRADER)
	@bash tools/mutants/run.sh --jobs $(JOBS) --make '$(MAKE)' $(if $(EX),--exercise $(EX))

# The tests/support object every mutant links, built once by the runner (GRADE_SUPPORT_OBJ=path).
ifdef GRADE_SUPPORT_OBJ
$(eval $(call grade_support_emu,$(GRADE_SUPPORT_OBJ)))
mutants-support: $(GRADE_SUPPORT_OBJ)
endif
