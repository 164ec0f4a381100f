#!/usr/bin/env bash
# run.sh: tests of the grader (grading, hints by failure kind, progress, watch), the mutation runner, the skeleton tools, the chapters' no-solution check and tests/support on the fixture course in tests/grader/ (make grader-test).
#
# usage: tests/grader/run.sh [GRADER]   (from the repository root; GRADER defaults to build/tools/grade)
set -uo pipefail

grader=${1:-build/tools/grade}
fixture=tests/grader/fixture
work=build/grader-test
rm -rf "$work" && mkdir -p "$work"

passed=0
failed=0

# expect NAME COMMAND...: one claim; prints ok or FAIL with the command.
expect() {
    local name=$1
    shift
    if "$@" > /dev/null 2>&1; then
        passed=$((passed + 1))
        echo "  ok    $name"
    else
        failed=$((failed + 1))
        echo "  FAIL  $name    ($*)"
    fi
}

# contains FILE TEXT: FILE has a line containing TEXT (fixed string).
contains() { grep -qF -- "$2" "$1"; }
# lacks FILE TEXT: no line of FILE contains TEXT.
lacks() { ! grep -qF -- "$2" "$1"; }
# exercise_json FILE ID TEXT: the results.json line of exercise ID contains TEXT.
exercise_json() { grep -F "\"id\": \"$2\"" "$1" | grep -qF -- "$3"; }
# block FILE ID TEXT: TEXT appears under exercise ID's line, before the next exercise's line.
block() { awk -v id="  $2 " -v text="$3" '
    /^  (PASS|FAIL) / { inside = index($0, id) > 0; next }
    /^Score/ { inside = 0 }
    inside && index($0, text) { found = 1 }
    END { exit !found }' "$1"; }
# not_block FILE ID TEXT: TEXT does not appear under exercise ID's line.
not_block() { ! block "$@"; }

run_grader() { # OUT_NAME ARGS...: grades the fixture; output in $work/OUT_NAME.txt, status in $work/OUT_NAME.rc
    local name=$1
    shift
    "$grader" --course "$fixture/course" --src "$fixture/src" --build "$work/build" \
        --out "$work/$name" --timeout 2 --make-arg 'GRADE_HOST_LDLIBS=-lcmocka -lm' "$@" \
        > "$work/$name.txt" 2>&1
    echo $? > "$work/$name.rc"
}

echo "grader on the fixture course:"
start=$(date +%s)
run_grader all
seconds=$(($(date +%s) - start))
out=$work/all.txt
json=$work/all/results.json
expect "grading exits 0 whatever the score" test "$(cat "$work/all.rc")" = 0
expect "a passing exercise: PASS and its points" grep -qE '^  PASS +10/10 +ch01\.passes +Scales an array$' "$out"
expect "a failed assertion: FAIL and no points" grep -qE '^  FAIL +0/20 +ch01\.fails_assertion ' "$out"
expect "a failed assertion: the failing test by name" block "$out" ch01.fails_assertion "test_fails_assertion_doubles_every_element failed:"
expect "a failed assertion: index, expected and actual" block "$out" ch01.fails_assertion "[0] expected"
expect "a failed assertion: the test's file and line" block "$out" ch01.fails_assertion "at tests/grader/fixture/tests/ch01/test_fails_assertion.c:25"
expect "a failed assertion: the seed to repeat the run" block "$out" ch01.fails_assertion "(repeat with DSM_SEED="
expect "a failed assertion: the first hint" block "$out" ch01.fails_assertion "hint: Twice x is x + x, not x + 1."
expect "a failed assertion: where the log is" block "$out" ch01.fails_assertion "log: $work/all/logs/ch01.fails_assertion.log"
expect "a test that passed is not reported as failed" lacks "$out" "test_fails_assertion_zero_array_stays_small failed"
expect "a report printed by a passing test is not blamed" lacks "$out" "expected report of a passing test"
expect "a compile error: the compiler's error line" block "$out" ch01.no_compile "no_compile.c:4:12: error:"
expect "a compile error: no warnings or notes" lacks "$out" "warning: control reaches end"
expect "a compile error: the build log" block "$out" ch01.no_compile "log: $work/all/logs/ch01.no_compile.build.log"
expect "a compile error: its hint.compile" block "$out" ch01.no_compile "hint: The compiler names the line: read its first error."
expect "a crash: the signal's name" block "$out" ch02.crashes "crashed: SIGSEGV"
expect "a crash: the test that crashed" block "$out" ch02.crashes "in test_crashes_first_of_nothing"
expect "a crash: its hint.crash" block "$out" ch02.crashes "hint: A crash: which pointer was null?"
expect "a hang: stopped at the time limit" block "$out" ch02.hangs "did not finish in 2 s: an infinite loop or a deadlock?"
expect "a hang: the test that was running" block "$out" ch02.hangs "(test_hangs_wait_returns was running)"
expect "a hang: its hint.timeout" block "$out" ch02.hangs "hint: Out of time: which loop never ends?"
expect "a hang costs only the time limit (run took ${seconds} s; a loaded machine is slow)" test "$seconds" -lt 90
expect "an emulator report: its first line" block "$out" ch02.emu_report "dsm-emu: error: lifetime trap"
expect "an emulator report: its block up to the blank line" block "$out" ch02.emu_report "where     emu_report.c:7"
expect "an emulator report: the test's own message" block "$out" ch02.emu_report "ERROR: launch returned 719"
expect "an emulator report: its fix line whole, however long" block "$out" ch02.emu_report "so that a cut is seen: END-OF-FIX"
expect "an emulator report: the hint of its kind (lifetime)" block "$out" ch02.emu_report "hint: A CTA ended while its memory was read."
expect "an emulator report: not the first plain hint" lacks "$out" "hint: Read the report: it names the line."
expect "a failed assertion: not the hint of another kind" lacks "$out" "A race hint that a failed assertion must not show."
expect "results.json: the failure's kind" exercise_json "$json" ch02.emu_report '"kind": "lifetime"'
expect "a header exercise: the missing file named is the header" block "$out" ch02.header_work "missing file: $fixture/src/ch02/header_work.h"
expect "a missing file is named" block "$out" ch02.missing "missing file: $fixture/src/ch02/missing.c"
expect "exit(0) before the tests finished is not a pass" grep -qE '^  FAIL +0/5 +ch02\.exits_early ' "$out"
expect "exit(0) before the tests finished: said so" block "$out" ch02.exits_early "before its tests finished (in test_exits_early_finish_returns_1)"
expect "a failing run: one next step, the first failure" test "$(grep -c 'Next: ' "$out")" = 1
expect "a failing run: the course line says where the course stands" grep -qx 'Course: 1 of 14 exercises pass, 10/150 points.' "$out"
expect "score per chapter: ch01" contains "$out" "Score ch01: 10/35"
expect "score per chapter: ch02" contains "$out" "Score ch02: 0/100"
expect "total score" grep -qx 'Score: 10/150' "$out"
expect "results.json: total" grep -q '"score": 10,' "$json"
expect "results.json: pass" exercise_json "$json" ch01.passes '"status": "pass", "outcome": "pass", "points": 10'
expect "results.json: assertion" exercise_json "$json" ch01.fails_assertion '"outcome": "assertion"'
expect "results.json: compile" exercise_json "$json" ch01.no_compile '"outcome": "compile"'
expect "results.json: crash" exercise_json "$json" ch02.crashes '"outcome": "crash"'
expect "results.json: timeout" exercise_json "$json" ch02.hangs '"outcome": "timeout"'
expect "results.json: emulator" exercise_json "$json" ch02.emu_report '"outcome": "emulator"'
expect "results.json: missing" exercise_json "$json" ch02.missing '"outcome": "missing"'
expect "results.json: exit before the end" exercise_json "$json" ch02.exits_early '"outcome": "failed"'
expect "a hang in every test: the emulator's watchdog report, not the grader's limit" \
    block "$out" ch03.watchdog "dsm-emu: error: the kernel ran past the time limit"
expect "a hang in every test: not \"did not finish\"" bash -c "! grep -A3 'ch03.watchdog' $out | grep -q 'did not finish'"
expect "a hang in every test: the run stops at the first failed test" \
    bash -c "grep -q test_watchdog_first $work/all/logs/ch03.watchdog.log && ! grep -q test_watchdog_second $work/all/logs/ch03.watchdog.log"
expect "a hang: its hint.timeout" block "$out" ch03.watchdog "hint: The emulator stopped a kernel that ran too long"
expect "a long message is cut after a whole field, not inside one" \
    grep -qE ' field [0-9]+ = [0-9]+ \.\.\. \(the whole line is in the log\)$' "$out"
expect "a long message: more than 200 characters shown" bash -c "grep -q 'field 20 = 1020, ' $out"
expect "exit(0) after a test passed, before the others finished: not a pass" grep -qE '^  FAIL +0/5 +ch02\.exits_early ' "$out"
expect "the test's output is in its log" contains "$work/all/logs/ch01.fails_assertion.log" "[ RUN      ] test_fails_assertion_doubles_every_element"
# A killed process can take a moment to disappear on a loaded machine: look again for up to 5 s.
gone() { for _ in $(seq 50); do pgrep -f "$1" > /dev/null || return 0; sleep 0.1; done; return 1; }
expect "no test process is left running" gone "$work/build/ch02/hangs/test_hangs"

echo "selection and expectations:"
run_grader one --exercise ch01.passes
expect "EX selects one exercise" grep -qx 'Score: 10/10' "$work/one.txt"
expect "EX: a pass of one exercise does not claim that every exercise passes" lacks "$work/one.txt" "Every exercise"
expect "EX: says the graded exercise passes" contains "$work/one.txt" "The exercise graded here passes."
expect "EX: a progress line for the whole course, with the next exercise" \
    contains "$work/one.txt" "Course: 1 of 14 exercises pass, 10/150 points. Next: ch01.fails_assertion"
run_grader chapter --chapter 2
expect "CH selects one chapter" grep -qx 'Score: 0/100' "$work/chapter.txt"
expect "CH leaves other chapters out" bash -c "! grep -qE '^  (PASS|FAIL) .* ch01\.' $work/chapter.txt"
run_grader chapter03 --chapter ch01
expect "CH accepts ch01" grep -qx 'Score: 10/35' "$work/chapter03.txt"
run_grader unknown --exercise ch01.nope
expect "an unknown exercise is an error (status 2)" test "$(cat "$work/unknown.rc")" = 2
expect "an unknown exercise lists the ids" contains "$work/unknown.txt" "ch01.fails_assertion"
run_grader pass_ok --exercise ch01.passes --expect pass
expect "--expect pass: 0 when all pass" test "$(cat "$work/pass_ok.rc")" = 0
run_grader pass_bad --chapter 1 --expect pass
expect "--expect pass: 1 when one fails" test "$(cat "$work/pass_bad.rc")" = 1
run_grader fail_ok --exercise ch01.fails_assertion,ch02.crashes --expect fail
expect "--expect fail: 0 when all compile and fail" test "$(cat "$work/fail_ok.rc")" = 0
run_grader fail_bad --chapter 1 --expect fail
expect "--expect fail: 1 when one passes or does not compile" test "$(cat "$work/fail_bad.rc")" = 1
expect "--expect fail: names a solved skeleton" contains "$work/fail_bad.txt" "ch01.passes passes its tests"
expect "--expect fail: names a skeleton that does not compile" contains "$work/fail_bad.txt" "ch01.no_compile does not compile"
GRADE_TIMEOUT=1 "$grader" --course "$fixture/course" --src "$fixture/src" --build "$work/build" --out "$work/env" \
    --exercise ch02.hangs --make-arg 'GRADE_HOST_LDLIBS=-lcmocka -lm' > "$work/env.txt" 2>&1
expect "GRADE_TIMEOUT sets the time limit" contains "$work/env.txt" "did not finish in 1 s"

expect "an emulator report: its kind line is not shown" lacks "$out" "dsm-emu-report:"
expect "results.json: the emulator report's kind" exercise_json "$json" ch02.emu_report '"report": "lifetime"'
expect "results.json: no report kind for a failed assertion" exercise_json "$json" ch01.fails_assertion '"report": ""'
expect "a warning about the learner's file is shown under the failure" \
    block "$out" ch01.fails_assertion "fails_assertion.c:7:9: warning: unused variable"
expect "a warning: with its source line" block "$out" ch01.fails_assertion "int left_unused;"
expect "a plan's failed assertion: hint.plan" block "$out" ch04.plan "hint: Ask the occupancy API how many clusters fit."
expect "a plan's failed assertion: not hint.wrong" lacks "$out" "A wrong-value hint that a plan's failure must not show."
expect "results.json: a plan's failure is kind plan" exercise_json "$json" ch04.plan '"kind": "plan"'
expect "an exercise that includes a failing exercise's file says so" \
    block "$out" ch04.uses_dep "depends on ch04.dep_base (ch04/dep_base.h), which fails: fix that exercise first"
expect "a failing exercise that depends on no other says nothing of dependencies" \
    not_block "$out" ch04.dep_base "depends on"
mkdir -p "$work/dep_alone" && cp "$work/all/progress" "$work/dep_alone/progress"
run_grader dep_alone --exercise ch04.uses_dep
expect "graded alone: a dependency's failure comes from the last grading" block "$work/dep_alone.txt" ch04.uses_dep \
    "depends on ch04.dep_base (ch04/dep_base.h), which failed when last graded: make grade EX=ch04.dep_base"
run_grader dep_none --exercise ch04.uses_dep
expect "graded alone, never graded before: nothing said of the dependency" lacks "$work/dep_none.txt" "depends on"

echo "hints by the kind of the emulator's report:"
kind_hint() { # NAME KIND TITLE HINT: a report of KIND titled TITLE gets the hint HINT
    FIXTURE_REPORT_KIND=$2 FIXTURE_REPORT_TITLE=$3 run_grader "kind_$1" --exercise ch02.emu_report
    expect "a report of kind $2 (\"${3%%:*}...\") shows $4" block "$work/kind_$1.txt" ch02.emu_report "hint: $4"
}
kind_hint race race_read_write "data race on rank 0's shared memory: unordered write and read of the same word" "Two unordered accesses to one word."
kind_hint unpublished unpublished_read "read of rank 1's shared memory that rank 1 wrote but never published" "Read before it was published."
kind_hint deadlock deadlock "deadlock: every live thread of the cluster is blocked" "Every thread waits."
kind_hint deadlock_words deadlock "an mbarrier wait that never completes" "Every thread waits."
kind_hint words lifetime "data race, deadlock: words that name another kind" "A CTA ended while its memory was read."
kind_hint fallback mbarrier_stale_parity "an mbarrier wait satisfied by a stale phase" "Every thread waits."
kind_hint crash out_of_bounds "access just outside rank 1's shared memory (64 bytes allocated)" "Read the report: it names the line."
kind_hint nokind - "lifetime trap: a report without its kind line" "Read the report: it names the line."

echo "report kinds (every dsm_report_kind of the emulator, and its hint):"
# The category each report kind must get (docs/CONVENTIONS.md, "Hints"): a kind the emulator
# has and this table lacks fails below, as does a kind whose hint is not its category's.
declare -A category=(
    [none]=none [lifetime]=lifetime [lifetime_hazard]=lifetime [unpublished_read]=unpublished
    [race_write_write]=race [race_read_write]=race [schedule_dependent]=race [uninitialized_read]=unpublished
    [rank_out_of_range]=crash [out_of_bounds]=crash [double_arrive]=deadlock [wait_without_arrive]=deadlock
    [syncthreads_divergence]=deadlock [deadlock]=deadlock [bulk_alignment]=bulk [bulk_size]=bulk [bulk_self]=bulk
    [mbarrier_uninitialized]=mbarrier [mbarrier_tx_mismatch]=mbarrier [invalid_launch]=launch
    [illegal_address]=crash [timeout]=timeout [mbarrier_stale_parity]=mbarrier
)
"$grader" kinds > "$work/kinds.tsv" 2>&1
expect "grade kinds lists every kind (the emulator has $(wc -l < "$work/kinds.tsv"))" test "$(wc -l < "$work/kinds.tsv")" -ge 23
while IFS=$'\t' read -r kind cat; do
    want=${category[$kind]:-"(no expectation in tests/grader/run.sh)"}
    expect "report kind $kind: category $want" test "$cat" = "$want"
    [ "$kind" = none ] && continue
    FIXTURE_REPORT_KIND=$kind run_grader "every_$kind" --exercise ch04.every_kind
    expect "report kind $kind: a log with its kind line gets hint.$want" \
        block "$work/every_$kind.txt" ch04.every_kind "hint: The $want hint."
    expect "report kind $kind: results.json names it" \
        exercise_json "$work/every_$kind/results.json" ch04.every_kind "\"kind\": \"$want\", \"report\": \"$kind\""
done < "$work/kinds.tsv"

echo "progress:"
"$grader" progress --course "$fixture/course" --src "$fixture/src" --out "$work/all" > "$work/progress.txt" 2>&1
expect "progress: a bar and the points per chapter" grep -qE '^ch01 \[#+\.+\] +10/35 +points, 1 of 3 exercises$' "$work/progress.txt"
expect "progress: each exercise's state" grep -qE '^ +fail +ch02\.crashes$' "$work/progress.txt"
expect "progress: the next exercise, failing" contains "$work/progress.txt" "Next: ch01.fails_assertion ($fixture/src/ch01/fails_assertion.c, fails)"
"$grader" progress --course "$fixture/course" --src "$fixture/src" --out "$work/fresh" > "$work/progress0.txt" 2>&1
expect "progress: before any grading nothing passes, the first exercise is next" \
    contains "$work/progress0.txt" "Course: 0 of 14 exercises pass, 0/150 points. Next: ch01.passes ($fixture/src/ch01/passes.c, not graded yet)"
mkdir -p "$work/ahead" && printf 'ch01.fails_assertion pass 20 none\n' > "$work/ahead/progress"
"$grader" progress --course "$fixture/course" --src "$fixture/src" --out "$work/ahead" > "$work/ahead.txt" 2>&1
expect "progress: after skipping ahead, next is the one after the furthest pass (not the first)" \
    contains "$work/ahead.txt" "Next: ch01.no_compile ($fixture/src/ch01/no_compile.c, not graded yet)"
printf 'ch01.fails_assertion pass 20 none\nch04.uses_dep pass 4 none\nch01.passes fail 0 wrong\n' > "$work/ahead/progress"
"$grader" progress --course "$fixture/course" --src "$fixture/src" --out "$work/ahead" > "$work/ahead2.txt" 2>&1
expect "progress: past the last exercise, next wraps to the first one left behind" \
    contains "$work/ahead2.txt" "Next: ch01.passes ($fixture/src/ch01/passes.c, fails)"
mkdir -p "$work/keep" && cp "$work/all/progress" "$work/keep/progress"
"$grader" --course "$fixture/course" --src "$fixture/src" --build "$work/build" --out "$work/keep" --timeout 2 \
    --make-arg 'GRADE_HOST_LDLIBS=-lcmocka -lm' --exercise ch01.passes > "$work/keep.txt" 2>&1
expect "progress: a later run keeps the results of the earlier ones" grep -qx "ch02.crashes fail 0 crash" "$work/keep/progress"

echo "watch:"
mkdir -p "$work/watched" && cp -r "$fixture/src/." "$work/watched/"
rm -rf "$work/watch" && mkdir -p "$work/watch" && cp "$work/all/progress" "$work/watch/progress"
"$grader" watch --course "$fixture/course" --src "$work/watched" --build "$work/build-watch" --out "$work/watch" \
    --timeout 2 --make-arg 'GRADE_HOST_LDLIBS=-lcmocka -lm' --watch-runs 2 > "$work/watch.txt" 2>&1 &
watcher=$!
# Wait for the first grading (the next exercise), then save another exercise's file.
for _ in $(seq 600); do grep -q '^Course:' "$work/watch.txt" 2>/dev/null && break; sleep 0.1; done
sleep 1.1 # a new modification time even on a coarse clock
printf '\n/* saved */\n' >> "$work/watched/ch01/passes.c"
for _ in $(seq 600); do kill -0 "$watcher" 2> /dev/null || break; sleep 0.1; done
kill "$watcher" 2> /dev/null && echo "  (watch did not stop by itself)"
wait "$watcher" 2> /dev/null
expect "watch: first grades the next exercise to do" contains "$work/watch.txt" "== ch01.fails_assertion: the next exercise to do =="
expect "watch: grades the exercise whose file was saved" contains "$work/watch.txt" "== ch01.passes: $work/watched/ch01/passes.c changed =="
expect "watch: that grading ran the saved exercise" grep -qE '^  PASS +10/10 +ch01\.passes ' "$work/watch.txt"
expect "watch: stops after --watch-runs gradings" test "$(grep -c '^Score: ' "$work/watch.txt")" = 2

echo "mutation suite (tools/mutants/run.sh):"
mutants() { # OUT_NAME ARGS...: the runner on the fixture's mutants; output in $work/OUT_NAME.txt, status in .rc
    local name=$1
    shift
    bash tools/mutants/run.sh --grader "$grader" --mutants "$fixture/mutants" --solutions "$fixture/solutions" \
        --out "$work/$name" --timeout 2 --grader-arg --course --grader-arg "$fixture/course" \
        --grader-arg --make-arg --grader-arg 'GRADE_HOST_LDLIBS=-lcmocka -lm' "$@" > "$work/$name.txt" 2>&1
    echo $? > "$work/$name.rc"
}
mutants mut
m=$work/mut.txt
expect "mutants: a wrong version that loses its points is ok" grep -q '^ok      ch01.passes/adds-one: loses its points (assertion)' "$m"
expect "mutants: a correct alternative that keeps them is ok" grep -q '^ok      ch01.passes/ok-backwards: keeps full points' "$m"
expect "mutants: a wrong version that keeps its points fails, named" grep -q "^FAILED  $fixture/mutants/ch01.passes/survives.patch: keeps full points" "$m"
expect "mutants: ... with its reason line" contains "$m" "reason: (fixture) claims to be wrong but multiplies"
expect "mutants: an ok- version that loses points fails, with why" grep -q "ok-broken.patch: loses points, yet it is a correct design: test_passes_scales_every_element failed" "$m"
expect "mutants: a patch that does not apply fails" grep -q "stale.patch: does not apply to $fixture/solutions/ (without fuzz): Hunk #1 FAILED" "$m"
expect "mutants: a patch without its reason line fails" grep -q 'no-reason.patch: its first line must be "# ' "$m"
expect "mutants: a mutant that does not compile fails" grep -q "no-compile.patch: does not compile" "$m"
expect "mutants: the step fails, counting the bad patches" grep -q '^mutants: FAILED: 5 of 7 patches' "$m"
expect "mutants: status 1" test "$(cat "$work/mut.rc")" = 1
expect "mutants: the solutions are untouched" contains "$fixture/solutions/ch01/passes.c" "out[i] = factor * in[i];"
mkdir -p "$work/mut-good/ch01.passes" && cp "$fixture/mutants/ch01.passes/adds-one.patch" "$fixture/mutants/ch01.passes/ok-backwards.patch" "$work/mut-good/ch01.passes/"
bash tools/mutants/run.sh --grader "$grader" --mutants "$work/mut-good" --solutions "$fixture/solutions" \
    --out "$work/mut2" --timeout 2 --grader-arg --course --grader-arg "$fixture/course" \
    --grader-arg --make-arg --grader-arg 'GRADE_HOST_LDLIBS=-lcmocka -lm' > "$work/mut2.txt" 2>&1
echo $? > "$work/mut2.rc"
expect "mutants: all behave: status 0 and a count" \
    bash -c "test \"\$(cat $work/mut2.rc)\" = 0 && grep -q '^mutants: OK: 1 wrong versions lose their points, 1 correct alternatives keep them' $work/mut2.txt"
mutants mut-one --exercise ch01.fails_assertion
expect "mutants: --exercise with no patches says so and fails" \
    bash -c "test \"\$(cat $work/mut-one.rc)\" = 1 && grep -q 'no patches under' $work/mut-one.txt"

rm -rf "$work/watch-ex" && mkdir -p "$work/watch-ex" && cp "$work/all/progress" "$work/watch-ex/progress"
"$grader" watch --course "$fixture/course" --src "$work/watched" --build "$work/build-watch" --out "$work/watch-ex" \
    --timeout 2 --make-arg 'GRADE_HOST_LDLIBS=-lcmocka -lm' --exercise ch01.passes --watch-runs 1 > "$work/watch-ex.txt" 2>&1
expect "watch EX=id: grades that exercise first" contains "$work/watch-ex.txt" "== ch01.passes: the exercise chosen =="
expect "watch EX=id: and not the course's next one" lacks "$work/watch-ex.txt" "== ch01.fails_assertion"
expect "watch EX=id: that grading ran it" grep -qE '^  PASS +10/10 +ch01\.passes ' "$work/watch-ex.txt"

echo "chapters-check:"
mkdir -p "$work/chapters"
printf '```{.c include="tests/grader/skeleton/input.cu" marker="x"}\n```\n' > "$work/chapters/01-none.md"
sh tools/skeleton/chapters_check.sh "$work/chapters" > "$work/cc0.txt" 2>&1
expect "chapters-check: no include of solutions/ passes" contains "$work/cc0.txt" "chapters-check: OK: 0 includes"
mkdir -p "$work/cc/solutions/ch01" && cat > "$work/cc/solutions/ch01/k.cu" <<'EOF_K'
// BOOK-BEGIN(shape)
void k(void)
{
    // BEGIN SOLUTION
    //~ // TODO: do it
    do_it();
    // END SOLUTION
}
// BOOK-END(shape)
// BOOK-BEGIN(around)
void helper(void) {}
// BOOK-END(around)
// BEGIN SOLUTION
// BOOK-BEGIN(inside)
int answer = 42;
// BOOK-END(inside)
// END SOLUTION
EOF_K
printf '```{.c include="solutions/ch01/k.cu" marker="around"}\n```\n' > "$work/cc/02-ok.md"
printf 'text\n```{.c include="solutions/ch01/k.cu" marker="shape"}\n```\n' > "$work/cc/03-shape.md"
printf '```{.c include="solutions/ch01/k.cu" marker="inside"}\n```\n' > "$work/cc/04-inside.md"
printf '```{.c include="solutions/ch01/k.cu"}\n```\n' > "$work/cc/05-whole.md"
cc() { (cd "$work/cc" && sh "$OLDPWD/tools/skeleton/chapters_check.sh" "$@"); }
cc 02-ok.md > "$work/cc1.txt" 2>&1
expect "chapters-check: a region outside solution blocks passes" contains "$work/cc1.txt" "chapters-check: OK: 1 includes"
cc 03-shape.md > "$work/cc2.txt" 2>&1
echo $? > "$work/cc2.rc"
expect "chapters-check: a region around a solution block fails" test "$(cat "$work/cc2.rc")" = 1
expect "chapters-check: names the chapter line and the solution line" contains "$work/cc2.txt" "03-shape.md:2: shows solution code: solutions/ch01/k.cu:6"
cc 04-inside.md > "$work/cc3.txt" 2>&1
expect "chapters-check: a region inside a solution block fails" contains "$work/cc3.txt" "04-inside.md:1: shows solution code"
cc 05-whole.md > "$work/cc4.txt" 2>&1
expect "chapters-check: a whole solution file fails" contains "$work/cc4.txt" "05-whole.md:1: shows solution code"
expect "chapters-check: the course's chapters show no solution code" sh tools/skeleton/chapters_check.sh chapters

echo "course metadata checks:"
mkdir -p "$work/badcourse"
printf '[ch01.bad]\nchapter = 2\nfile = ch01/x.cu\npoints = ten\ntitle = t\nhint = h\n[ch01.bad]\nchapter = 1\n' > "$work/badcourse/ch01.ini"
"$grader" --course "$work/badcourse" --src "$fixture/src" --out "$work/bad" > "$work/bad.txt" 2>&1
echo $? > "$work/bad.rc"
expect "bad metadata: status 2" test "$(cat "$work/bad.rc")" = 2
expect "bad metadata: wrong chapter" contains "$work/bad.txt" "says chapter = 2"
expect "bad metadata: points not a number" contains "$work/bad.txt" "points must be a whole number"
expect "bad metadata: no test" contains "$work/bad.txt" "has no 'test'"
expect "bad metadata: duplicate id" contains "$work/bad.txt" "appears twice"
printf '[ch01.kinds]\nchapter = 1\nfile = ch01/x.cu\ntest = t.c\npoints = 1\ntitle = t\nhint = h\nhint.wrong = w\nhint.lifetim = typo\nhint.wrong = again\n' > "$work/badcourse/ch01.ini"
"$grader" --course "$work/badcourse" --src "$fixture/src" --out "$work/bad" > "$work/bad3.txt" 2>&1
expect "bad metadata: an unknown hint kind is named" contains "$work/bad3.txt" "key 'hint.lifetim'"
expect "bad metadata: a repeated hint kind" contains "$work/bad3.txt" "key 'hint.wrong' repeated"
expect "bad metadata: a known hint kind is accepted" lacks "$work/bad3.txt" "key 'hint.wrong' (line"
printf '[ch01.x]\nnot a key value line\n' > "$work/badcourse/ch01.ini"
"$grader" --course "$work/badcourse" --src "$fixture/src" --out "$work/bad" > "$work/bad2.txt" 2>&1
expect "bad metadata: syntax error with file and line" contains "$work/bad2.txt" "$work/badcourse/ch01.ini:2: expected [id] or key = value"

echo "hints:"
hint() { "$grader" hint ch01.passes --course "$fixture/course" --out "$work/hints"; }
hint > "$work/hint1.txt" 2>&1
hint > "$work/hint2.txt" 2>&1
hint > "$work/hint3.txt" 2>&1
expect "the first call shows hint 1" contains "$work/hint1.txt" "> hint 1 of 2: Multiply every element by the factor."
expect "the first call does not show hint 2" lacks "$work/hint1.txt" "hint 2 of 2"
expect "the second call shows hint 2" contains "$work/hint2.txt" "> hint 2 of 2: out[i] = factor * in[i]; for every i < n."
expect "the count is remembered" test "$(cat "$work/hints/hints/ch01.passes")" = 2
expect "after the last hint all are shown again" contains "$work/hint3.txt" "no more hints"
"$grader" hint ch02.emu_report --course "$fixture/course" --out "$work/all" > "$work/hint-kind.txt" 2>&1
expect "make hint adds the hint for the last grade's kind of failure" \
    contains "$work/hint-kind.txt" "for your last grade's failure (lifetime): A CTA ended while its memory was read."
"$grader" hint ch02.crashes --course "$fixture/course" --out "$work/hints" > "$work/hint-nokind.txt" 2>&1
expect "make hint without a recorded failure shows no kind hint" lacks "$work/hint-nokind.txt" "for your last grade"

echo "reset:"
mkdir -p "$work/learner/ch01"
echo "/* my work in progress */" > "$work/learner/ch01/passes.c"
reset() { "$grader" reset ch01.passes --course "$fixture/course" --src "$work/learner" \
    --solutions "$fixture/solutions" --backup "$work/backup"; }
reset > "$work/reset1.txt" 2>&1
echo $? > "$work/reset1.rc"
backup=$(find "$work/backup/ch01.passes" -type f -name '*-passes.c' 2>/dev/null | head -n 1)
expect "reset succeeds" test "$(cat "$work/reset1.rc")" = 0
expect "reset saves the learner's file under .backup/<id>/" test -n "$backup"
expect "the backup holds the learner's work" grep -qx '/\* my work in progress \*/' "${backup:-/dev/null}"
expect "reset names the backup" contains "$work/reset1.txt" "Saved your version of $work/learner/ch01/passes.c as $work/backup/ch01.passes/"
expect "the file is the skeleton again" contains "$work/learner/ch01/passes.c" "// TODO(ch01.passes): multiply every element by factor."
expect "the skeleton has no solution" lacks "$work/learner/ch01/passes.c" "out[i] = factor * in[i];"
reset > "$work/reset2.txt" 2>&1
expect "a second reset changes nothing" contains "$work/reset2.txt" "is already the skeleton"
expect "a second reset makes no second backup" test "$(find "$work/backup" -type f | wc -l)" = 1
rm "$work/learner/ch01/passes.c"
reset > "$work/reset3.txt" 2>&1
expect "reset restores a deleted file" contains "$work/learner/ch01/passes.c" "TODO(ch01.passes)"

echo "skeleton generator:"
skel=tests/grader/skeleton
awk -f tools/skeleton/skeleton.awk "$skel/input.cu" > "$work/skeleton.cu" 2>&1
expect "regions dropped, //~ lines kept without the prefix, indentation kept" cmp -s "$work/skeleton.cu" "$skel/expected.cu"
for bad in unbalanced stray nested; do
    awk -f tools/skeleton/skeleton.awk "$skel/$bad.c" > /dev/null 2> "$work/$bad.err"
    echo $? > "$work/$bad.rc"
    expect "broken markers ($bad.c) are an error with file and line" \
        bash -c "test \"\$(cat $work/$bad.rc)\" = 1 && grep -q '^$skel/$bad.c:[0-9]*: error:' $work/$bad.err"
done
mkdir -p "$work/gen-src/ch01" && cp "$skel/input.cu" "$work/gen-src/ch01/example.cu"
printf 'helper without markers\n' > "$work/gen-src/ch01/helper.h"
sh tools/skeleton/generate.sh "$work/gen-src" "$work/gen" > /dev/null 2>&1
expect "generate.sh: marked files become skeletons" cmp -s "$work/gen/ch01/example.cu" "$skel/expected.cu"
expect "generate.sh: files without markers are copied" cmp -s "$work/gen/ch01/helper.h" "$work/gen-src/ch01/helper.h"
echo "edited" >> "$work/gen/ch01/example.cu"
sh tools/skeleton/generate.sh "$work/gen-src" "$work/gen" "$work/gen-backup" > /dev/null 2>&1
expect "generate.sh: a file it overwrites is saved first" grep -qx edited "$work/gen-backup/ch01/example.cu"
expect "generate.sh: and then regenerated" cmp -s "$work/gen/ch01/example.cu" "$skel/expected.cu"
sh tools/skeleton/generate.sh "$work/gen-src" "$work/gen-check" > /dev/null 2>&1
expect "check.sh: in sync passes" sh tools/skeleton/check.sh "$work/gen-check" "$work/gen"
echo "// my edit" >> "$work/gen/ch01/helper.h"
expect "check.sh: out of sync fails" bash -c "! sh tools/skeleton/check.sh $work/gen-check $work/gen"
expect "check.sh: changes nothing" grep -qx '// my edit' "$work/gen/ch01/helper.h"

echo "tests/support:"
bin=$work/build/ch01/fails_assertion/test_fails_assertion
DSM_SEED=12345 "$bin" > "$work/seed.txt" 2>&1
expect "DSM_SEED fixes the seed, printed once" test "$(grep -c '^seed 12345 (repeat with DSM_SEED=12345)$' "$work/seed.txt")" = 1
DSM_SEED=12345 "$bin" > "$work/seed2.txt" 2>&1
expect "the same seed gives the same inputs" cmp -s "$work/seed.txt" "$work/seed2.txt"
"$bin" test_fails_assertion_zero_array_stays_small > "$work/one-test.txt" 2>&1
expect "argv[1] runs one test alone" bash -c "grep -q 'Running 1 test' $work/one-test.txt && ! grep -q doubles_every $work/one-test.txt"
"$bin" --list > "$work/list.txt" 2>&1
expect "--list names every test" test "$(wc -l < "$work/list.txt")" = 2
"$bin" no_such_test > /dev/null 2>&1
expect "an unknown test name is an error (status 2)" test $? = 2

echo "test-grader: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
