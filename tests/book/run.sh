#!/bin/bash
# run.sh: tests of the book filter on the fixtures in tests/book/fixtures (a tiny repository).
# Usage: tests/book/run.sh [test_name]   (from the repository root; prints "N passed, N failed")
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIXTURES=$ROOT/tests/book/fixtures
WORK=$ROOT/build/book-test/filter
CHAPTER_LUA=$ROOT/tools/book/chapter.lua
ASSEMBLE_LUA=$ROOT/tools/book/assemble.lua
passed=0
failed=0

# A fresh copy of the fixtures for one test; the test runs inside it.
fresh() {
    rm -rf "$WORK/$1" && mkdir -p "$WORK" && cp -r "$FIXTURES" "$WORK/$1" && cd "$WORK/$1"
}

# part FILE: pass 1 on one Markdown file into out.html, errors into err.txt; returns pandoc's status.
part() {
    pandoc -f markdown-auto_identifiers "$1" -t html --wrap=none --lua-filter "$CHAPTER_LUA" \
        -M book-course-files="$(ls course/*.ini 2>/dev/null | tr '\n' ' ')" -o out.html 2>err.txt
}

# book [-M book-strict=true]: pass 1 on every part into JSON, then pass 2 (assemble) into out.html.
book() {
    local inis parts=() f
    inis=$(ls course/*.ini 2>/dev/null | tr '\n' ' ')
    mkdir -p parts
    for f in book.md chapters/*.md; do
        pandoc -f markdown-auto_identifiers "$f" -t json --lua-filter "$CHAPTER_LUA" \
            -M book-course-files="$inis" -o "parts/$(basename "$f" .md).json" 2>err.txt || return 1
        parts+=("parts/$(basename "$f" .md).json")
    done
    pandoc -f json "${parts[@]}" -t html --wrap=none --lua-filter "$ASSEMBLE_LUA" \
        -M book-course-files="$inis" "$@" -o out.html 2>err.txt
}

has() { grep -qF -- "$1" "$2"; }

# make on the fixture repository, independent of any make (and its flags) that runs this script.
fixture_make() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -f mk/book.mk "$@"
}

result() {  # result NAME STATUS [detail]
    if [ "$2" -eq 0 ]; then
        passed=$((passed + 1)); echo "ok - $1"
    else
        failed=$((failed + 1)); echo "not ok - $1"
        [ -f err.txt ] && sed 's/^/    stderr: /' err.txt | head -5
    fi
}

test_include_by_marker_shows_only_the_region() {
    part chapters/02-tiny.md && has OUTER-FIRST out.html && has OUTER-LAST out.html &&
        [ "$(grep -c OUTSIDE-BEFORE out.html)" = 1 ]   # once: from the whole-file include only
}

test_include_hides_marker_solution_and_skeleton_lines() {
    part chapters/02-tiny.md && ! has BOOK-BEGIN out.html && ! has BOOK-END out.html &&
        ! has "BEGIN SOLUTION" out.html && ! has "END SOLUTION" out.html && ! has SKELETON-ONLY out.html
}

test_include_nested_region_keeps_solution_code() {
    part chapters/02-tiny.md && [ "$(grep -c INNER-LINE out.html)" = 3 ] && [ "$(grep -c SOLUTION-LINE out.html)" = 3 ]
}

test_include_dedents_the_region() {
    part chapters/02-tiny.md && grep -q '<span id="cb2-1"><a href="#cb2-1" aria-hidden="true" tabindex="-1"></a>y ' out.html
}

test_include_highlights_cuda_as_c_and_names_the_file() {
    part chapters/02-tiny.md && has 'class="sourceCode c"' out.html && has '<code>src/regions.cu</code>' out.html
}

test_missing_marker_fails_naming_file_and_marker() {
    sed -i '/BOOK-BEGIN(outer)/d' src/regions.cu
    ! part chapters/02-tiny.md && has "src/regions.cu" err.txt && has "outer" err.txt && [ ! -s out.html ]
}

test_missing_end_marker_fails() {
    sed -i '/BOOK-END(inner)/d' src/regions.cu
    ! part chapters/02-tiny.md && has "BOOK-END(inner)" err.txt
}

test_missing_file_fails_naming_the_file() {
    rm src/regions.cu
    ! part chapters/02-tiny.md && has "cannot read file src/regions.cu" err.txt
}

test_include_block_with_a_body_fails() {
    printf '\n```{include="src/regions.cu"}\nint x;\n```\n' >> chapters/02-tiny.md
    ! part chapters/02-tiny.md && has "must be empty" err.txt
}

test_exercise_box_states_title_points_task_and_file() {
    part chapters/02-tiny.md && has 'id="ch02.tiny_ring" class="exercise"' out.html &&
        has '<strong>Exercise 2.1</strong> Pass a <em>value</em> around the ring' out.html &&
        has '10 points' out.html && has 'href="exercises/ch02/tiny_ring.cu"' out.html &&
        has 'a;b stays in the text' out.html && has 'make grade EX=ch02.tiny_ring' out.html
}

test_exercise_box_keeps_the_prose_inside_the_div() {
    part chapters/02-tiny.md && has PROSE-INSIDE-THE-DIV out.html
}

test_unknown_exercise_id_fails() {
    printf '\n::: {.exercise id="ch02.no_such"}\n:::\n' >> chapters/02-tiny.md
    ! part chapters/02-tiny.md && has "ch02.no_such does not exist" err.txt && has "course/ch02.ini" err.txt
}

test_exercise_of_a_missing_course_file_fails() {
    printf '\n::: {.exercise id="ch07.nothing"}\n:::\n' >> chapters/02-tiny.md
    ! part chapters/02-tiny.md && has "ch07.nothing does not exist: there is no course/ch07.ini" err.txt
}

add_second_exercise() {
    printf '\n[ch02.second]\nchapter = 2\nfile = ch02/tiny_ring.cu\npoints = 5\ntitle = T\ntask = X\n' >> course/ch02.ini
}

test_book_check_fails_on_an_exercise_not_stated_in_its_chapter() {
    add_second_exercise
    ! book -M book-strict=true && has "course/ch02.ini:13: exercise ch02.second is not stated in chapter 2" err.txt
}

test_book_builds_with_a_warning_when_an_exercise_is_not_stated() {
    add_second_exercise
    book && has "warning: course/ch02.ini:13: exercise ch02.second is not stated" err.txt &&
        ! has 'href="#ch02.second"' out.html
}

test_exercise_stated_in_another_chapter_fails() {
    printf '# Three\n\n::: {.exercise id="ch02.tiny_ring"}\n:::\n' > chapters/03-other.md
    ! part chapters/03-other.md && has "belongs to chapter 2" err.txt
}

test_exercise_with_missing_skeleton_fails() {
    rm exercises/ch02/tiny_ring.cu
    ! part chapters/02-tiny.md && has "exercises/ch02/tiny_ring.cu does not exist" err.txt
}

test_course_file_without_required_key_fails() {
    sed -i '/^points/d' course/ch02.ini
    ! part chapters/02-tiny.md && has "has no 'points'" err.txt
}

test_headings_and_figures_are_numbered_by_file_name() {
    part chapters/02-tiny.md && has '<span class="header-section-number">2</span> A tiny chapter' <(tr '\n' ' ' < out.html) &&
        has '2.2.1</span> The whole file' out.html && has 'Figure 2.1: A tiny figure.' out.html
}

test_double_quotes_nested_in_double_quotes_become_single_quotes() {
    printf '\nIt said "hit error 719 due to "unspecified launch failure" on sync" today.\n' >> chapters/02-tiny.md
    part chapters/02-tiny.md && has '“hit error 719 due to ‘unspecified launch failure’ on sync”' out.html
}

test_check_html_fails_on_a_plain_reference_a_file_link_and_a_wide_code_line() {
    printf '<html><body><nav id="TOC"><a href="#ch01">1</a></nav><h1 id="ch01"><span class="header-section-number">1</span> T</h1>\n<p>As Figure 9.9 shows, see <a href="exercises/x.cu">x</a>.</p><pre>%s</pre></body></html>\n' \
        "$(printf 'x%.0s' $(seq 120))" > page.html
    ! python3 "$ROOT/tools/book/check_html.py" page.html --columns 96 > out.txt 2>err.txt &&
        grep -A1 "not ok - html: print: every Chapter/Figure" out.txt | grep -q "Figure 9.9" &&
        grep -A1 "not ok - html: print: no link to a local file" out.txt | grep -q "exercises/x.cu" &&
        grep -A1 "not ok - html: print: no code line is wider" out.txt | grep -q "120 > 96"
}

test_same_chapter_links_follow_the_new_ids() {
    part chapters/02-tiny.md && has 'href="#ch02-the-outer-region"' out.html && has 'id="ch02-the-outer-region"' out.html
}

test_missing_image_fails() {
    printf '\n![x](figures/none.svg)\n' >> chapters/02-tiny.md
    ! part chapters/02-tiny.md && has "image figures/none.svg not found" err.txt
}

test_plot_without_its_csv_fails_naming_the_csv() {
    mkdir -p figures/plots && cp "$ROOT/figures/plots/ch01-latency-ladder-h200.gp" figures/plots/
    printf '\n![x](build/figures/ch01-latency-ladder-h200.svg)\n' >> chapters/02-tiny.md
    rm -rf bench
    ! part chapters/02-tiny.md && has "needs bench/results/ch01-latency-ladder-h200.csv" err.txt
}

test_plot_script_turns_the_csv_into_svg() {
    mkdir -p build/figures &&
        gnuplot -e "csv='bench/results/ch01-latency-ladder-h200.csv'; out='build/figures/ch01-latency-ladder-h200.svg'" \
            "$ROOT/figures/plots/ch01-latency-ladder-h200.gp" 2>err.txt &&
        has '<svg' build/figures/ch01-latency-ladder-h200.svg && has 'fixture peer' build/figures/ch01-latency-ladder-h200.svg
}

test_tex_fractions_become_html_text() {
    part chapters/02-tiny.md && has '<em>B</em>/<em>W</em><sub>L2</sub>' out.html
}

test_solutions_appendix_is_generated_and_collapsed() {
    part chapters/90-appendix-solutions.md && has '<details class="solution">' out.html &&
        has 'id="solution-ch02.tiny_ring"' out.html && has 'SOLUTION-BODY' out.html &&
        ! has 'BEGIN SOLUTION' out.html && ! has 'TODO(ch02.tiny_ring)' out.html
}

test_book_assembles_with_chapter_list() {
    book && has 'href="#ch02"' out.html && has 'Appendix' out.html && has 'Chapter <span' out.html
}

test_references_in_running_text_become_links() {
    book && has '<a href="#ch02" class="xref">Chapter 2</a>' out.html &&
        has '<a href="#fig-2-1" class="xref">Figure 2.1</a>' out.html &&
        has '<a href="#ch02.tiny_ring" class="xref">Exercise 2.1</a>' out.html && has 'id="fig-2-1"' out.html
}

test_reference_to_a_missing_chapter_warns_and_fails_book_check() {
    printf '\nAs Chapter 7 will show.\n' >> chapters/02-tiny.md
    book && has "refers to chapter 7" err.txt && has "As Chapter 7 will show" out.html &&
        ! book -M book-strict=true && has "refers to chapter 7" err.txt
}

test_glossary_term_is_linked_once_per_chapter_and_not_in_the_glossary() {
    printf '# Three\n\nA cluster again, and a cluster.\n' > chapters/03-three.md
    book && [ "$(grep -o 'href="#term-cluster"' out.html | wc -l)" = 2 ] &&
        has '<a href="#term-cluster" class="term" title="A group of CTAs that run together.">cluster</a>' out.html &&
        has 'id="term-cluster" class="term"' out.html
}

test_glossary_term_is_not_linked_inside_a_quotation() {
    printf '# Three\n\nThey wrote "one cluster only". Then a cluster.\n' > chapters/03-three.md
    book && has 'They wrote “one cluster only”. Then a <a href="#term-cluster"' out.html
}

test_plot_caption_names_gpu_driver_clock_and_date() {
    mkdir -p build/figures &&
        gnuplot -e "csv='bench/results/ch01-latency-ladder-h200.csv'; out='build/figures/ch01-latency-ladder-h200.svg'" \
            "$ROOT/figures/plots/ch01-latency-ladder-h200.gp" 2>err.txt &&
        mkdir -p figures/plots && cp "$ROOT/figures/plots/ch01-latency-ladder-h200.gp" figures/plots/ &&
        printf '\n![Ladder.](build/figures/ch01-latency-ladder-h200.svg)\n' >> chapters/02-tiny.md &&
        part chapters/02-tiny.md &&
        has 'Measured on fixture gpu (driver 0, SM clock 1000 MHz), 2026-01-01; data: <a href="bench/results/ch01-latency-ladder-h200.csv"><code>bench/results/ch01-latency-ladder-h200.csv</code></a>.' \
            <(tr '\n' ' ' < out.html | tr -s ' ')
}

test_book_check_fails_on_a_course_file_without_its_chapter() {
    rm chapters/02-tiny.md
    ! book -M book-strict=true && has "there is no chapters/02-*.md yet" err.txt
}

test_book_with_a_broken_cross_chapter_link_fails() {
    printf '\nSee [nowhere](#ch09-nothing).\n' >> book.md
    ! book && has "book.md: link [nowhere](#ch09-nothing)" err.txt
}

test_book_with_two_chapters_numbered_alike_fails() {
    printf '# Again\n' > chapters/90-again.md
    ! book && has "two chapter files are numbered A" err.txt
}

# The site of the fixture repository (no PDF), with the real tools and mk/book.mk.
book_site() {
    ln -s "$ROOT/tools" tools && ln -s "$ROOT/mk" mk && fixture_make build/book/site/index.html
}

# The fixture repository with the real tools, mk/book.mk, figures/*.svg and plot scripts, and a
# chapter 3 that shows every figure and every plot whose CSV the fixtures have.
fixture_repo_with_all_figures() {
    ln -s "$ROOT/tools" tools && ln -s "$ROOT/mk" mk && mkdir -p figures/plots &&
        cp "$ROOT"/figures/*.svg figures/ && cp "$ROOT"/figures/plots/*.gp figures/plots/ || return 1
    {
        echo "# Every figure"
        for f in "$ROOT"/figures/*.svg; do
            printf '\n![Figure %s.](figures/%s)\n' "$(basename "$f" .svg)" "$(basename "$f")"
        done
        for g in figures/plots/*.gp; do
            n=$(basename "$g" .gp)
            # if, not &&: a last script without its CSV must not fail the whole function
            if [ -f "bench/results/$n.csv" ]; then printf '\n![Plot %s.](build/figures/%s.svg)\n' "$n" "$n"; fi
        done
    } > chapters/03-figures.md
}

test_make_book_shows_every_figure_in_site_pdf_and_browser() {
    fixture_repo_with_all_figures &&
        fixture_make book >make.txt 2>err.txt &&
        [ -s build/book/site/index.html ] && [ -s build/book/site/ch03.html ] && [ -s build/book.pdf ] &&
        [ -s build/figures/ch01-latency-ladder-h200.svg ] &&
        python3 tools/book/check_html.py build/book.html build/book/site --columns 96 >>err.txt &&
        python3 tools/book/check_pdf.py build/book.pdf build/book.html >>err.txt &&
        grep -q "figure drawn in the PDF: Figure 3.1" err.txt &&
        python3 tools/book/check_browser.py build/book/site build/book-test --quick >>err.txt &&
        grep -q "all $(( $(ls figures/*.svg | wc -l) + 1 )) images load" err.txt
}

test_site_has_a_page_per_chapter_linked_both_ways() {
    book_site >make.txt 2>err.txt &&
        [ -s build/book/site/ch02.html ] && [ -s build/book/site/appa.html ] && [ -s build/book/site/appb.html ] &&
        has 'href="appa.html#solution-ch02.tiny_ring"' build/book/site/ch02.html &&
        has 'rel="next" href="appa.html"' build/book/site/ch02.html && has 'rel="prev" href="ch02.html"' build/book/site/appa.html &&
        has 'href="src/exercises/ch02/tiny_ring.cu.html"' build/book/site/ch02.html &&
        [ -f build/book/site/src/exercises/ch02/tiny_ring.cu.txt ] && [ ! -e build/book/site/src/exercises/ch02/tiny_ring.cu ] &&
        has 'class="sourceCode' build/book/site/src/exercises/ch02/tiny_ring.cu.html &&
        has 'href="tiny_ring.cu.txt"' build/book/site/src/exercises/ch02/tiny_ring.cu.html &&
        has '"u": "ch02.html#ch02-the-outer-region"' <(sed 's/,"/, "/g; s/":"/": "/g' build/book/site/search-index.js)
}

test_print_edition_has_no_file_links_and_folds_long_code() {
    printf '\n```c\nint x = 1; /* %s */\n```\n' "$(printf 'long%.0s ' $(seq 40))" >> chapters/02-tiny.md &&
        fixture_repo_with_all_figures && fixture_make build/book.html >make.txt 2>err.txt &&
        ! has 'href="exercises/' build/book.html && has '<code>exercises/ch02/tiny_ring.cu</code>' build/book.html &&
        python3 tools/book/check_html.py build/book.html --columns 96 >>err.txt
}

test_make_book_fails_when_a_shown_plot_has_no_csv() {
    fixture_repo_with_all_figures && rm bench/results/ch01-latency-ladder-h200.csv &&
        printf '\n![Plot.](build/figures/ch01-latency-ladder-h200.svg)\n' >> chapters/03-figures.md &&
        ! fixture_make book >make.txt 2>err.txt &&
        has "needs bench/results/ch01-latency-ladder-h200.csv" err.txt && [ ! -e build/figures/ch01-latency-ladder-h200.svg ]
}

# A plot script whose line `# csv: <path>` names a CSV elsewhere (the committed H200 run).
plot_script_naming_its_csv() {
    mkdir -p figures/plots bench/results/bench-h200 &&
        cp bench/results/ch01-latency-ladder-h200.csv bench/results/bench-h200/ladder.csv &&
        sed '1a # csv: bench/results/bench-h200/ladder.csv' "$ROOT/figures/plots/ch01-latency-ladder-h200.gp" \
            > figures/plots/ladder.gp &&
        printf '\n![Plot.](build/figures/ladder.svg)\n' >> chapters/03-figures.md
}

test_make_book_draws_a_plot_from_the_csv_its_script_names() {
    fixture_repo_with_all_figures && plot_script_naming_its_csv &&
        fixture_make build/book/parts/03-figures.json >make.txt 2>err.txt &&
        has 'fixture peer' build/figures/ladder.svg && has "csv='bench/results/bench-h200/ladder.csv'" make.txt
}

test_plot_whose_named_csv_is_missing_fails_naming_that_csv() {
    fixture_repo_with_all_figures && plot_script_naming_its_csv && rm bench/results/bench-h200/ladder.csv &&
        ! fixture_make build/book/parts/03-figures.json >make.txt 2>err.txt &&
        has "needs bench/results/bench-h200/ladder.csv" err.txt
}

test_make_book_fails_on_a_deleted_marker_naming_file_and_marker() {
    fixture_repo_with_all_figures && fixture_make book >make.txt 2>err.txt &&
        sed -i '/BOOK-END(outer)/d' src/regions.cu &&
        ! fixture_make book >make.txt 2>err.txt &&
        has "src/regions.cu" err.txt && has "'outer'" err.txt
}

test_plot_points_print_in_the_pdf_without_current_color() {
    # gnuplot draws points as <use> of markers painted with currentColor, which
    # WeasyPrint cannot resolve; the plot rule inlines them with their colour.
    printf 'x,y\n1,2\n2,3\n' > pts.csv &&
        gnuplot -e "set terminal svg; set output 'pts.svg'; set datafile separator ','; \
                    plot 'pts.csv' using 1:2 every ::1 with linespoints pt 7 lc rgb '#1f5f99'" 2>err.txt &&
        grep -q "<use xlink:href='#gpPt" pts.svg &&
        python3 "$ROOT/tools/book/svg_resolve_current_color.py" pts.svg 2>>err.txt &&
        ! sed -n '/<\/defs>/,$p' pts.svg | grep -q "<use xlink:href='#gpPt" &&
        grep -q "fill='rgb( 31,  95, 153)'\|stroke='rgb( 31,  95, 153)'" pts.svg &&
        printf '<html><body><img src="pts.svg"></body></html>' > pts.html &&
        weasyprint pts.html pts.pdf 2>>err.txt && [ -s pts.pdf ]
}

test_cited_issue_paper_and_catalog_phrase_are_linked_and_listed() {
    printf '\nAs NVIDIA/cutlass#1684 shows (arXiv 2402.13499), the tiny guide says so; the tiny guide again.\n' \
        >> chapters/02-tiny.md
    printf '[tiny-guide]\ntitle = The Tiny Guide\nurl = https://example.org/tiny\nmatch = tiny guide\n\n[arXiv:2402.13499]\ntitle = A Paper\n' \
        > chapters/sources.ini
    book && has '<a href="https://github.com/NVIDIA/cutlass/issues/1684" class="cite"' out.html &&
        has '<a href="https://arxiv.org/abs/2402.13499" class="cite"' out.html &&
        [ "$(grep -o 'href="https://example.org/tiny" class="cite"' out.html | wc -l)" = 1 ] &&
        has 'id="ch02-references"' out.html && has '<em>A Paper</em>' out.html &&
        has '>https://example.org/tiny</a>' out.html && has '>https://github.com/NVIDIA/cutlass/issues/1684</a>' out.html
}

test_a_path_with_a_hash_is_not_a_cited_issue() {
    printf '\nSee bench/results/x.csv#3 and a/b/c#4.\n' >> chapters/02-tiny.md
    book && ! has 'github.com' out.html && ! has 'references' out.html
}

test_heading_ids_are_plain_ascii() {
    printf '\n## The peer’s “word”\n\nSee [it](#the-peers-word).\n' >> chapters/02-tiny.md
    part chapters/02-tiny.md && has 'id="ch02-the-peers-word"' out.html && has 'href="#ch02-the-peers-word"' out.html
}

plot_in_chapter() {  # plot_in_chapter CAPTION: chapter 2 shows the fixture's ladder plot
    mkdir -p build/figures figures/plots && cp "$ROOT/figures/plots/ch01-latency-ladder-h200.gp" figures/plots/ &&
        gnuplot -e "csv='bench/results/ch01-latency-ladder-h200.csv'; out='build/figures/ch01-latency-ladder-h200.svg'" \
            figures/plots/ch01-latency-ladder-h200.gp 2>err.txt &&
        printf '\n![%s](build/figures/ch01-latency-ladder-h200.svg)\n' "$1" >> chapters/02-tiny.md
}

test_plot_caption_that_names_its_data_fails() {
    plot_in_chapter 'Ladder. Data: `bench/results/ch01-latency-ladder-h200.csv`, 2026-01-01.' &&
        ! part chapters/02-tiny.md && has "its caption names 'bench/results/ch01-latency-ladder-h200.csv'" err.txt &&
        has "say it once" err.txt
}

test_plot_without_a_date_fails_until_its_script_gives_one() {
    plot_in_chapter 'Ladder.' &&
        sed -i 's/,date,/,when,/' bench/results/ch01-latency-ladder-h200.csv &&
        ! part chapters/02-tiny.md && has "add a line '# date: YYYY-MM-DD' to figures/plots/ch01-latency-ladder-h200.gp" err.txt &&
        sed -i '1a # date: 2025-05-05' figures/plots/ch01-latency-ladder-h200.gp &&
        part chapters/02-tiny.md && has '2025-05-05; data:' out.html
}

test_words_for_the_screen_stay_out_of_print() {
    printf '\nTerms link here[; hover over the link]{.web-only}[; see the glossary]{.print-only}.\n' >> chapters/02-tiny.md &&
        fixture_repo_with_all_figures && fixture_make build/book.html build/book/site/index.html >make.txt 2>err.txt &&
        ! has 'hover over the link' build/book.html && has 'see the glossary' build/book.html &&
        has '<span class="web-only">; hover over the link</span>' build/book/site/ch02.html
}

test_make_site_builds_the_site_without_the_pdf() {
    fixture_repo_with_all_figures && fixture_make site >make.txt 2>err.txt &&
        [ -s build/book/site/ch02.html ] && [ ! -e build/book.pdf ] && [ ! -e build/book.html ] &&
        ! grep -q 'href="[^"]*02-tiny.md"' build/book/site/ch02.html
}

test_make_book_source_url_links_each_page_to_its_source() {
    fixture_repo_with_all_figures && fixture_make site SOURCE_URL=https://example.org/r/blob/main/ >make.txt 2>err.txt &&
        has 'href="https://example.org/r/blob/main/chapters/02-tiny.md"' build/book/site/ch02.html &&
        has 'href="https://example.org/r/blob/main/book.md"' build/book/site/index.html &&
        fixture_make site >make.txt 2>>err.txt && ! has 'example.org' build/book/site/ch02.html
}

test_site_links_work_once_the_site_is_copied_elsewhere() {
    fixture_repo_with_all_figures && fixture_make site >make.txt 2>err.txt &&
        rm -rf "$WORK/copied-site" && cp -r build/book/site "$WORK/copied-site" && rm -rf build &&
        python3 -c '
import os, re, sys, urllib.parse
site = sys.argv[1]
bad = []
for name in os.listdir(site):
    if name.endswith(".html"):
        for href in re.findall(r"href=\"([^\"#]+)", open(os.path.join(site, name), encoding="utf-8").read()):
            if not re.match(r"[a-z]+:", href) and href != "book.pdf" and not os.path.exists(os.path.join(site, urllib.parse.unquote(href))):
                bad.append(name + ": " + href)
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)' "$WORK/copied-site" 2>err.txt
}

test_check_html_fails_on_screen_words_unlinked_citations_twice_named_data_and_markers() {
    svg=$(printf '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><marker id="m"/></defs></svg>' | base64 -w0)
    printf '<html><body><nav id="TOC"><a href="#ch01">1</a></nav><h1 id="ch01"><span class="header-section-number">1</span> T</h1>\n<p id="the-peer’s">Hover over the link; see arXiv 2402.13499 and NVIDIA/cutlass#1684; <a href="https://x.org/a">a</a>.</p><figure><img src="data:image/svg+xml;base64,%s" alt="f"><figcaption>Measured on G (driver 13000), 2026-01-01; data: a/b.csv. Data: a/b.csv.</figcaption></figure></body></html>\n' \
        "$svg" > page.html
    ! python3 "$ROOT/tools/book/check_html.py" page.html > out.txt 2>err.txt &&
        grep -q "not ok - html: print: no words meant for a screen" out.txt &&
        grep -q "not ok - html: print: every cited paper and issue is a link" out.txt &&
        grep -q "not ok - html: print: every plot caption states its data source once" out.txt &&
        grep -A3 "not ok - html: print: every plot caption" out.txt | grep -q "driver NNNNN" &&
        grep -q "not ok - html: print: every chapter lists the sources" out.txt &&
        grep -q "not ok - html: print: every id is plain ASCII" out.txt &&
        grep -q "not ok - html: print: no SVG uses what WeasyPrint draws wrong" out.txt
}

# The fixture's site with a long line of program output, broken the four ways the browser check
# must catch: code that does not wrap, a figure wider than the column, headings without anchors,
# and search results whose target is gone (make_book_shows_every_figure_in_site_pdf_and_browser
# checks that the unbroken site passes).
test_check_browser_fails_on_wide_code_wide_figure_missing_anchor_and_lost_target() {
    printf '\n```text\n%s\n```\n' "$(printf 'word%.0s ' $(seq 80))" >> chapters/02-tiny.md &&
        fixture_repo_with_all_figures && fixture_make site >make.txt 2>err.txt &&
        printf '.code pre > code > span.ln { white-space: pre !important; overflow-wrap: normal !important; }\nfigure img { min-width: 1500px !important; }\n' \
            >> build/book/site/site.css &&
        sed -i 's/<a class="anchor"[^>]*>#<\/a>//g; s/id="ch02-/id="gone-/g' build/book/site/ch02.html &&
        ! python3 tools/book/check_browser.py build/book/site build/book-test --quick >out.txt 2>>err.txt &&
        grep -q "not ok - browser: at every width no code block is wider than its column" out.txt &&
        grep -q "not ok - browser: at every width every figure fits its column" out.txt &&
        grep -q "not ok - browser: every heading has an anchor" out.txt &&
        grep -q "not ok - browser: search finds misspellings, counts in good English, and .* land on their section" out.txt
}

# The fixture's site with the defects a reader met on a phone: the search results hanging off the
# screen's left edge, a figure that keeps its width and no longer opens on a tap, and a table box
# wider than the column.
test_check_browser_fails_on_search_off_screen_wide_figure_and_wide_table_box() {
    fixture_repo_with_all_figures && fixture_make site >make.txt 2>err.txt &&
        printf '#search-results { position: absolute !important; left: auto !important; right: 0 !important; width: 34rem !important; }\nfigure img { max-width: none !important; }\n.table-wrap { width: 900px; overflow: visible !important; }\n' \
            >> build/book/site/site.css &&
        sed -i 's/<a class="figure-open"/<a class="figure-gone"/g' build/book/site/ch03.html &&
        ! python3 tools/book/check_browser.py build/book/site build/book-test --quick >out.txt 2>>err.txt &&
        grep -q "not ok - browser: the search results lie inside the window" out.txt &&
        grep -q "not ok - browser: at every width every figure fits its column, scaled, and opens full size" out.txt
}

tests=$(declare -F | awk '{print $3}' | grep '^test_')
[ $# -gt 0 ] && tests=$1
for t in $tests; do
    ( fresh "$t" && $t ) >/dev/null 2>&1
    status=$?
    cd "$WORK/$t" 2>/dev/null && result "${t#test_}" $status
    cd "$ROOT"
done

# The Lua unit tests (ini parser, markers, fractions, ids) report in the same format.
units=$(cd "$ROOT" && pandoc -f markdown -t plain --lua-filter tests/book/test_units.lua < /dev/null)
echo "$units" | grep -E '^(not )?ok - '
passed=$((passed + $(echo "$units" | grep -c '^ok - ')))
failed=$((failed + $(echo "$units" | grep -c '^not ok - ')))

echo "book-filter: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
