#!/usr/bin/env bash
# tools/mutants/run.sh: the mutation suite: every tests/mutants/<id>/<name>.patch applied to a copy of solutions/ and graded alone; a wrong version must lose its points, an ok-<name>.patch must keep them (make mutants).
#
# usage: tools/mutants/run.sh [options]
#   --jobs N          mutants graded at a time (each builds and runs one exercise) (nproc)
#   --exercise IDS    only the mutants of these exercises, comma separated (make mutants EX=id)
#   --grader PATH     the grader (build/tools/grade)
#   --make CMD        the make program the grader calls (make)
#   --timeout SEC     the grader's time limit per test binary ($MUTANT_TIMEOUT or 60)
#   --seed N|random   the tests' DSM_SEED ($MUTANT_SEED or 1): fixed, so that a mutant's verdict
#                     does not change from run to run; "random" explores other inputs
#   --out DIR         where each mutant's copy, build and logs go (build/mutants)
#   --mutants DIR     the patches (tests/mutants), --solutions DIR what they patch (solutions),
#   --grader-arg ARG  an option for the grader (--course DIR, --make-arg V=x); repeatable
#
# A patch is a version of one exercise's solution (tests/mutants/<exercise id>/<name>.patch):
# line 1 is "# <why it is wrong>" (or, for ok-<name>.patch, "# <why it is still correct>"),
# then a unified diff with paths relative to the solutions tree (--- a/ch02/histogram.cu),
# applied with patch -p1 and no fuzz (a context that moved is fine, one that changed is not).
# The step fails, naming the file and its reason line, when a patch does not apply, changes
# nothing, does not compile, or when a wrong version keeps its points / an ok- version loses them.
# Every patch found is graded: the suite is whatever tests/mutants/ holds at the time.
set -uo pipefail

mutants_dir=tests/mutants
solutions=solutions
grader_args=()

# ---- one mutant (the script runs itself with --one for each patch, in parallel) ----
# Prints one line, "ok ..." or "FAILED ...", and writes it to <out>/<id>/<name>.result.
one() {
    local out=$1 grader=$2 make=$3 timeout=$4 support=$5 solutions=$6 seed=$7 patch=$8
    local id name work reason expect
    id=$(basename "$(dirname "$patch")")
    name=$(basename "$patch" .patch)
    work=$out/$id/$name
    case "$name" in ok-*) expect=pass ;; *) expect=fail ;; esac
    rm -rf "$work" && mkdir -p "$work"
    reason=$(head -n 1 "$patch")

    # verdict STATUS TEXT: the line of this mutant (STATUS ok or FAILED).
    verdict() {
        local line
        if [ "$1" = ok ]; then
            line=$(printf 'ok      %s/%s: %s' "$id" "$name" "$2")
        else
            line=$(printf 'FAILED  %s: %s\n        reason: %s' "$patch" "$2" "${reason:-(none)}")
        fi
        printf '%s\n' "$line" | tee "$work.result"
        [ "$1" = ok ] && rm -rf "$work/build" # keep the logs, not the binary
    }

    if [[ ! "$reason" =~ ^#\ [^[:space:]] ]]; then
        reason=""
        verdict FAILED 'its first line must be "# <one line: why it is wrong (or, ok-: why it is still correct)>"'
        return
    fi
    reason=${reason#\# }
    cp -r "$solutions" "$work/src"
    if ! patch -d "$work/src" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch -r - \
        < "$patch" > "$work/patch.log" 2>&1; then
        verdict FAILED "does not apply to $solutions/ (without fuzz): $(grep -v '^patching file' "$work/patch.log" | head -n 1)"
        return
    fi
    if diff -rq "$solutions" "$work/src" > /dev/null 2>&1; then
        verdict FAILED "changes nothing in $solutions/"
        return
    fi
    # The test support object is the same for every mutant: reuse it (make sees it up to date).
    mkdir -p "$work/build/_support" && cp -p "$support" "$work/build/_support/"

    local seed_env=()
    [ "$seed" != random ] && seed_env=(DSM_SEED="$seed")
    env "${seed_env[@]}" GRADE_TIMEOUT="$timeout" "$grader" "${grader_args[@]}" --exercise "$id" --src "$work/src" --build "$work/build" \
        --out "$work/grade" --jobs 1 --make "$make" --expect "$expect" > "$work/grade.log" 2>&1
    local rc=$?
    local json=$work/grade/results.json outcome why
    outcome=$(sed -n 's/.*"outcome": "\([a-z]*\)".*/\1/p' "$json" 2>/dev/null | head -n 1)
    why=$(sed -n 's/.*"reason": "\(\([^"\\]\|\\.\)*\)".*/\1/p' "$json" 2>/dev/null | head -n 1)
    local short=$why
    [ ${#why} -gt 110 ] && short="${why:0:110}..."
    if [ $rc -eq 2 ] || [ -z "$outcome" ]; then
        verdict FAILED "the grader could not grade it: $(grep -m 1 -i 'error\|unknown' "$work/grade.log" || tail -n 1 "$work/grade.log")"
    elif [ "$outcome" = compile ]; then
        verdict FAILED "does not compile (a mutant is a version a learner could run): $why"
    elif [ "$expect" = fail ] && [ "$outcome" = pass ]; then
        verdict FAILED "keeps full points, yet it is wrong: the tests miss this mistake"
    elif [ "$expect" = pass ] && [ "$outcome" != pass ]; then
        verdict FAILED "loses points, yet it is a correct design: $why"
    elif [ $rc -ne 0 ]; then
        verdict FAILED "the grader exited with status $rc (log: $work/grade.log)"
    elif [ "$expect" = pass ]; then
        verdict ok "keeps full points (a correct alternative)"
    else
        verdict ok "loses its points ($outcome): $short"
    fi
}

if [ "${1:-}" = --one ]; then
    # --one OUT GRADER MAKE TIMEOUT SUPPORT SOLUTIONS SEED [GRADER_ARG...] -- PATCH
    args=("${@:2:7}")
    shift 8
    while [ "$1" != -- ]; do grader_args+=("$1"); shift; done
    one "${args[@]}" "$2"
    exit 0
fi

jobs=$(nproc 2> /dev/null || echo 2)
ids=""
grader=build/tools/grade
make=make
timeout=${MUTANT_TIMEOUT:-60}
seed=${MUTANT_SEED:-1}
out=build/mutants
while [ $# -gt 0 ]; do
    case "$1" in
    --jobs) jobs=$2 ;;
    --exercise) ids=$2 ;;
    --grader) grader=$2 ;;
    --make) make=$2 ;;
    --timeout) timeout=$2 ;;
    --seed) seed=$2 ;;
    --out) out=$2 ;;
    --mutants) mutants_dir=${2%/} ;;
    --solutions) solutions=${2%/} ;;
    --grader-arg) grader_args+=("$2") ;;
    -h | --help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "mutants: unknown option $1 (--help lists them)" >&2; exit 2 ;;
    esac
    [ $# -ge 2 ] || { echo "mutants: $1 needs a value" >&2; exit 2; }
    shift 2
done
[ -x "$grader" ] || { echo "mutants: no grader at $grader (make $grader)" >&2; exit 2; }

# Patches outside tests/mutants/<id>/ are a mistake of their author, not something to skip.
misplaced=$(find "$mutants_dir" -name '*.patch' ! -path "$mutants_dir/*/*.patch" 2> /dev/null; \
            find "$mutants_dir" -mindepth 3 -name '*.patch' 2> /dev/null)
if [ -n "$misplaced" ]; then
    echo "mutants: FAILED: a patch must be $mutants_dir/<exercise id>/<name>.patch, not:" >&2
    printf '  %s\n' $misplaced >&2
    exit 1
fi
patches=()
while IFS= read -r p; do
    id=$(basename "$(dirname "$p")")
    if [ -n "$ids" ] && [[ ",$ids," != *",$id,"* ]]; then
        continue
    fi
    patches+=("$p")
done < <(find "$mutants_dir" -mindepth 2 -maxdepth 2 -name '*.patch' 2> /dev/null | LC_ALL=C sort)
if [ ${#patches[@]} -eq 0 ]; then
    if [ -n "$ids" ]; then
        echo "mutants: no patches under $mutants_dir/ for $ids" >&2
        exit 1
    fi
    echo "mutants: OK: no patches under $mutants_dir/ yet"
    exit 0
fi

# The support object every mutant links: built once, copied into each mutant's build folder.
support=$out/_support/test_support.o
mkdir -p "$out/_support"
if [ ! "$support" -nt tests/support/test_support.c ] || [ ! "$support" -nt tests/support/test_support.h ]; then
    $make --no-print-directory -s GRADE_BACKEND=emu "GRADE_BUILD=$out" "$support" > "$out/_support/build.log" 2>&1 || {
        cat "$out/_support/build.log"; echo "mutants: tests/support did not build" >&2; exit 1; }
fi

echo "mutants: ${#patches[@]} patches, $jobs at a time, DSM_SEED=$seed (each: a copy of solutions/, one exercise built and graded)"
# Old results of patches that no longer exist must not count.
find "$out" -name '*.result' -delete 2> /dev/null
printf '%s\0' "${patches[@]}" |
    xargs -0 -n 1 -P "$jobs" bash "$0" --one "$out" "$grader" "$make" "$timeout" "$support" "$solutions" "$seed" \
        "${grader_args[@]}" --

bad=0 wrong=0 ok=0
for p in "${patches[@]}"; do
    id=$(basename "$(dirname "$p")")
    name=$(basename "$p" .patch)
    result=$out/$id/$name.result
    if [ ! -f "$result" ]; then
        echo "FAILED  $p: no result (the runner itself failed)"
        bad=$((bad + 1))
    elif ! grep -q '^ok ' "$result"; then
        bad=$((bad + 1))
    elif [[ "$name" == ok-* ]]; then
        ok=$((ok + 1))
    else
        wrong=$((wrong + 1))
    fi
done
if [ $bad -gt 0 ]; then
    echo "mutants: FAILED: $bad of ${#patches[@]} patches did not behave (above; logs under $out/<id>/<name>/)"
    exit 1
fi
echo "mutants: OK: $wrong wrong versions lose their points, $ok correct alternatives keep them"
