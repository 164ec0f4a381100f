# Makefile: DSMEM Lab. `make help` lists the targets; docs/CONVENTIONS.md explains the layout.

.DEFAULT_GOAL := help

# What `make grade` grades, and how: make grade CH=3, EX=ch03.fix_trap, SRC=solutions, GPU=1.
SRC ?= exercises
CH  ?=
EX  ?=
GPU ?=
# Builds and tests at a time.
ifndef JOBS
JOBS := $(shell nproc 2>/dev/null || echo 2)
endif
# The time limit of one exercise's tests is the environment's GRADE_TIMEOUT (60 s when unset; the
# emulator's watchdog gets a third of it, so a hanging kernel is reported with its line first).

# cmocka from elsewhere than the system, e.g. .deb files unpacked into a folder on a GPU machine:
# make grade GPU=1 CMOCKA_PREFIX=$HOME/cmocka (or set CMOCKA_INC and CMOCKA_LIB yourself).
CMOCKA_PREFIX ?=
CMOCKA_LIBDIR := $(CMOCKA_PREFIX)/usr/lib/x86_64-linux-gnu
CMOCKA_INC ?= $(if $(CMOCKA_PREFIX),-I$(CMOCKA_PREFIX)/usr/include)
CMOCKA_LIB ?= $(if $(CMOCKA_PREFIX),-L$(CMOCKA_LIBDIR) -Xlinker -rpath -Xlinker $(CMOCKA_LIBDIR))

include mk/runtime.mk
-include mk/course.mk
-include mk/gpu.mk
# The grader's own make runs (GRADE_LIST set: one per grading, one per mutant) need only the course's
# rules: the book's and the benchmark's would cost most of their start-up.
ifndef GRADE_LIST
-include mk/book.mk
-include mk/bench.mk
endif

# ---- make test: everything CI checks (.ci/run calls it) ----
# Each step is a target (runtime-test: mk/runtime.mk, book-test: mk/book.mk, the others: mk/course.mk);
# a step passed when its status file exists afterwards, and was skipped when it left <step>.skipped.
TEST_STATUS := build/test/status
TEST_STEPS  := runtime-test runtime-ubsan check-solutions check-skeletons mutants skeletons-check diagnostics-check grader-test nvcc-check book-test bench-dry bench-dry-exercises test-bench-layers

.PHONY: help clean test
help:
	@{ printf '%s\n' \
	  "make grade  grade your exercises/ on the emulator (CH=3 or EX=ch03.fix_trap: only those; GPU=1: on a Hopper GPU)" \
	  "make hint EX=id  show the next hint of exercise id" \
	  "make reset EX=id  restore exercise id's skeleton (your file is saved under .backup/ first)" \
	  "make watch  grade the exercise you edit each time you save it (EX=id: that one, graded first; Ctrl-C stops)" \
	  "make progress  what passes so far, per chapter, and the next exercise to do" \
	  "make check  grade solutions/: must be full marks" \
	  "make test  everything CI checks: runtime tests, solutions pass, skeletons and mutants fail, nvcc, the book" \
	  "make mutants  the mutation suite: every tests/mutants/<id>/*.patch must lose its points (ok-*: keep them); EX=id" \
	  "make deps  install the missing Debian packages (tools/deps.sh)" \
	  "make runtime  build the emulator library (build/libdsm_emu.a)" \
	  "make runtime-test  run the emulator's own tests (bug/fix kernel pairs)" \
	  "make runtime-ubsan  the same tests with the emulator built under UndefinedBehaviorSanitizer" \
	  "make runtime-bench  time the emulator: 2 CTAs x 256 threads through 1000 cluster barriers" \
	  "make runtime-gpu-test  the runtime's tests through the Hopper backend, memcheck, racecheck (GPU)" \
	  "make skeletons  regenerate exercises/ from solutions/ (authors; changed files saved under .backup/)" \
	  "make skeletons-check  fail if the committed exercises/ differ from the skeletons of solutions/" \
	  "make chapters-check  fail if a chapter includes solution code (part of skeletons-check)" \
	  "make check-skeletons  grade fresh skeletons of solutions/: each must compile and fail" \
	  "make nvcc-check  compile every kernel with nvcc for sm_90a (skipped without nvcc)" \
	  "make grader-test  test the grader on its fixture course (tests/grader/)" \
	  "make diagnostics-check  the emulator reports shown in the chapters are what it prints now" \
	  "make gpu-test  solutions' tests, memcheck and racecheck on a Hopper GPU (waived without one)" \
	  "make bench  the DSMEM-vs-global benchmark on a GPU of compute capability >= 9.0 (QUICK=1, NCU=1, SRC=exercises, FAMILY=name); without one: the dry run" \
	  "make bench-dry  the benchmark's dry run on the emulator: every family with tiny sizes, every kernel checked" \
	  "make bench-dry-exercises  the dry run on fresh skeletons: must fail, and carry no number of an unfinished kernel" \
	  "make bench-commit RUN=dir  make a run folder the committed H200 reference (bench/results/bench-h200/)" \
	  "make bench-compare A=dir B=dir  do two runs agree within 3 % on every headline number?" \
	  $(HELP_BOOK) \
	  "make clean  remove build/"; } | awk -F '  +' '{ printf "%-22s %s\n", $$1, $$2 }'

clean:
	rm -rf build

test:
	@bash tools/deps.sh all
	@rm -rf $(TEST_STATUS) && mkdir -p $(TEST_STATUS)
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory -k -j$(JOBS) -Otarget $(TEST_STEPS:%=$(TEST_STATUS)/%); \
	pass=0; fail=0; skip=0; echo; echo "make test ($$(( $$(date +%s) - start )) s):"; \
	for step in $(TEST_STEPS); do \
	  if [ -f $(TEST_STATUS)/$$step.skipped ]; then skip=$$((skip + 1)); echo "  skipped  $$step"; \
	  elif [ -f $(TEST_STATUS)/$$step ]; then pass=$$((pass + 1)); echo "  passed   $$step"; \
	  else fail=$$((fail + 1)); echo "  FAILED   $$step"; fi; \
	done; \
	echo "test: $$pass passed, $$fail failed, $$skip skipped"; [ $$fail -eq 0 ]

$(TEST_STATUS)/%: %
	@mkdir -p $(@D) && touch $@

# The grader's list of test binaries to build (tools/grade writes it; rules in mk/course.mk, mk/gpu.mk).
ifdef GRADE_LIST
include $(GRADE_LIST)
endif
