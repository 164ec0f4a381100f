# mk/book.mk: the book: book.md + chapters/NN-slug.md -> the site build/book/site/ (one page per
# chapter) and build/book.pdf (printed from the one-page print edition build/book.html).
#
# How: each part (book.md, every chapter) goes through Pandoc with tools/book/chapter.lua
# (code includes by marker, exercise boxes from course/*.ini, figure checks, numbering) into
# build/book/parts/*.json; tools/book/assemble.lua joins them, links references and glossary
# terms, and checks links and that every exercise is stated (a warning for make book, an error
# for make book-check). Pandoc then writes the book once as an HTML fragment, which
# tools/book/site.py cuts into the site, and once as the print edition, which WeasyPrint prints
# (tools/book/print.sh). tools/book/README.md says more.
#
# PDF engine: WeasyPrint (Debian package weasyprint). It lays out the same HTML with the same
# CSS as the browser, so the PDF cannot drift from the page; it draws the SVG figures itself;
# CSS paged media gives page numbers and a contents page with page numbers. It weighs tens of
# MB, where LaTeX would need texlive-xetex plus CJK support (hundreds of MB), an SVG converter
# (librsvg2-bin) and a second, LaTeX-only layout to keep in step with the HTML.
#
# Plots: figures/plots/NAME.gp turns its CSV into build/figures/NAME.svg (the script gets
# gnuplot variables csv and out). The CSV is the path on the script's line `# csv: <path>`
# (e.g. bench/results/bench-h200/pingpong.csv), else bench/results/NAME.csv. A plot is made
# only when its CSV exists; a chapter that shows build/figures/NAME.svg without it fails the
# build, saying which CSV.

PANDOC     ?= pandoc
GNUPLOT    ?= gnuplot
PYTHON     ?= python3

BOOK_CHAPTERS := $(sort $(wildcard chapters/[0-9][0-9]-*.md))
BOOK_COURSE   := $(sort $(wildcard course/ch[0-9][0-9].ini))
BOOK_PARTS    := build/book/parts/book.json $(patsubst chapters/%.md,build/book/parts/%.json,$(BOOK_CHAPTERS))
# The site's path: each part's facts (what linking needs to know of it, partinfo.lua), merged
# into one index; each part linked to the rest of the book and written as HTML on its own; the
# fragments joined. A changed chapter relinks alone unless its facts changed.
BOOK_FACTS    := $(BOOK_PARTS:.json=.facts.json)
BOOK_LINKED   := $(patsubst build/book/parts/%.json,build/book/linked/%.html,$(BOOK_PARTS))
# The CSV a plot script draws: the path on its line `# csv: <path>`, else bench/results/NAME.csv.
book_plot_csv  = $(or $(firstword $(shell sed -n 's/^\#[[:space:]]*csv:[[:space:]]*//p' $1)),bench/results/$(basename $(notdir $1)).csv)
BOOK_PLOT_GPS := $(sort $(wildcard figures/plots/*.gp))
BOOK_PLOTS    := $(foreach g,$(BOOK_PLOT_GPS),$(if $(wildcard $(call book_plot_csv,$g)),build/figures/$(basename $(notdir $g)).svg))
BOOK_FILTER   := $(wildcard tools/book/*.lua)
BOOK_STYLE    := tools/book/template.html tools/book/book.css tools/book/print.css
BOOK_META     := -M book-course-files="$(BOOK_COURSE)"
# The version and date on the title page and in the PDF's metadata: git describe and the date
# of the last commit (a copy without git history says "unversioned" and today's date).
BOOK_VERSION  := $(or $(shell git describe --always --tags --dirty 2>/dev/null),unversioned)
BOOK_DATE     := $(or $(shell git log -1 --format=%cs 2>/dev/null),$(shell date -u +%Y-%m-%d))
BOOK_STAMP    := -M book-version="$(BOOK_VERSION)" -M date="$(BOOK_DATE)"
# Characters of code one PDF line holds: print.css sets code in 7.8 pt DejaVu Sans Mono (4.70 pt
# a character); a 174 mm column less a listing's padding, an exercise box or a list indent leaves
# 455 pt. print.lua folds longer lines; check_html.py fails on any line still longer.
BOOK_CODE_COLUMNS := 96
BOOK_HTML_OPTS := -s --template tools/book/template.html --css tools/book/book.css \
                  --css tools/book/print.css --self-contained --toc --toc-depth=2 \
                  --highlight-style=tango --wrap=none --lua-filter tools/book/print.lua $(BOOK_STAMP) \
                  -M book-code-columns=$(BOOK_CODE_COLUMNS)
BOOK_SITE_FILES := tools/book/site.py tools/book/site.html tools/book/site.css tools/book/book.css tools/book/book.js
# The catalog of cited documents (tools/book/cite.lua): assemble.lua links them and lists them.
BOOK_SOURCES  := $(wildcard chapters/sources.ini)
BOOK_META     += -M book-sources="$(BOOK_SOURCES)"
# Where each page's "Source" link (its Markdown) points: a URL prefix such as
# https://github.com/OWNER/REPO/blob/main/ (make book SOURCE_URL=...); unset, pages have no such
# link. Repository files the text links to (exercises, tests, plot data) are always pages of the
# site (build/book/site/src/PATH.html, highlighted, with the raw text beside), so that the site
# works when copied or hosted alone.
SOURCE_URL      ?=
BOOK_SOURCE_URL ?= $(SOURCE_URL)

# Lines for `make help` (the top Makefile prints them with: @printf '%s\n' $(HELP_BOOK)).
HELP_BOOK := "make book           the book: build/book/site/index.html (one page per chapter) and build/book.pdf" \
             "make site           the site alone, fast, for writing (also: make book-html)" \
             "make book-check     check the book's includes, figures, links and exercise statements" \
             "make test-book      build the book, test its filter, check the site, the PDF and each page in Chromium" \
             "make test-prose     the prose's voice: sentence length, inline paths, internal vocabulary, length (--report: tools/book/prose_check.py)"

.PHONY: book site book-html book-check test-book test-prose book-deps book-test-deps book-plots book-parts-list

# The PDF is copied into the site as well, which links to it.
book: build/book/site/index.html build/book.pdf
	@cp build/book.pdf build/book/site/book.pdf

# The edit loop: the site alone (a touched chapter rebuilds in a few seconds; the PDF takes longer).
site book-html: build/book/site/index.html

# Everything make book checks, and strictly: every exercise of course/*.ini stated in its chapter.
book-check: $(BOOK_PARTS) build/book/parts.list
	$(PANDOC) -f json $(BOOK_PARTS) -t json --lua-filter tools/book/assemble.lua \
	  $(BOOK_META) -M book-strict=true -o /dev/null

test-book: book-check book build/book.html | book-test-deps
	bash tests/book/run.sh
	$(PYTHON) tools/book/check_plot_keys.py --self-test
	$(PYTHON) tools/book/check_plot_keys.py $(BOOK_PLOT_GPS)
	$(PYTHON) tools/book/check_html.py build/book.html build/book/site --columns $(BOOK_CODE_COLUMNS)
	$(PYTHON) tools/book/check_pdf.py build/book.pdf build/book.html
	$(PYTHON) tools/book/check_browser.py build/book/site build/book-test

# The prose of book.md and every chapter against the book's voice (limits in tools/book/prose_check.py),
# after proving on small texts that each limit is caught.
test-prose: | book-deps
	@$(PYTHON) tools/book/prose_check.py --self-test >/dev/null || $(PYTHON) tools/book/prose_check.py --self-test
	$(PYTHON) tools/book/prose_check.py

book-deps:
	@sh tools/book/deps.sh build

book-test-deps:
	@sh tools/book/deps.sh test

book-plots: $(BOOK_PLOTS)

# One rule per plot script, each with its own CSV (see book_plot_csv).
define book_plot_rule
build/figures/$(basename $(notdir $1)).svg: $1 $2 tools/book/svg_resolve_current_color.py | book-deps
	@mkdir -p $$(@D)
	$$(GNUPLOT) -e "csv='$2'; out='$$@.tmp'" $1
	$$(PYTHON) tools/book/svg_resolve_current_color.py $$@.tmp && mv $$@.tmp $$@
endef
$(foreach g,$(BOOK_PLOT_GPS),$(eval $(call book_plot_rule,$g,$(call book_plot_csv,$g))))

# One part per Markdown file; the filter writes a depfile listing every file it read.
# The facts file is replaced only when the facts change, so that the other parts' links need
# not be redone after an edit that moves no heading, figure or exercise.
book_part = $(PANDOC) -f markdown-auto_identifiers $1 -t json --lua-filter tools/book/chapter.lua \
	  $(BOOK_META) -M book-depfile=$(@:.json=.d) -M book-target=$@ -M book-facts=$(@:.json=.facts.json).tmp \
	  -o $@.tmp && mv $@.tmp $@ && \
	{ cmp -s $(@:.json=.facts.json).tmp $(@:.json=.facts.json) && rm $(@:.json=.facts.json).tmp || \
	  mv $(@:.json=.facts.json).tmp $(@:.json=.facts.json); }

build/book/parts/book.json: book.md $(BOOK_FILTER) $(BOOK_COURSE) | book-deps book-plots
	@mkdir -p $(@D)
	$(call book_part,$<)

build/book/parts/%.json: chapters/%.md $(BOOK_FILTER) $(BOOK_COURSE) | book-deps book-plots
	@mkdir -p $(@D)
	$(call book_part,$<)

# Made with its part (an empty recipe: make looks at the file's time again afterwards).
$(BOOK_FACTS): build/book/parts/%.facts.json: build/book/parts/%.json ;

-include $(BOOK_PARTS:.json=.d)

# Rewritten only when the list of parts or course files changes, so that adding or removing
# a chapter reassembles the book.
book-parts-list: ;
build/book/parts.list: book-parts-list
	@mkdir -p $(@D)
	@echo '$(BOOK_PARTS) $(BOOK_COURSE)' | cmp -s - $@ 2>/dev/null || echo '$(BOOK_PARTS) $(BOOK_COURSE)' > $@

# The whole book after assemble.lua, for the print edition.
build/book/book.json: $(BOOK_PARTS) $(BOOK_COURSE) $(BOOK_SOURCES) build/book/parts.list $(BOOK_FILTER)
	$(PANDOC) -f json $(BOOK_PARTS) -t json --lua-filter tools/book/assemble.lua \
	  $(BOOK_META) -o $@.tmp && mv $@.tmp $@

# The print edition: one self-contained page (links to repository files become plain paths),
# printed to the PDF.
build/book.html: build/book/book.json $(BOOK_STYLE) tools/book/print.lua tools/book/fold.lua
	$(PANDOC) -f json $< -t html5 $(BOOK_HTML_OPTS) -o $@

build/book.pdf: build/book.html tools/book/print.sh tools/book/paginate.py
	sh tools/book/print.sh $< $@

# The site: every part's facts merged into the index (replaced only when it changes); each
# part linked and written as HTML with the index; the parts joined into the fragment that
# site.py cuts into pages.
build/book/index.json: $(BOOK_FACTS) build/book/parts.list
	$(PANDOC) -f json $(BOOK_FACTS) -t json -o $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

build/book/linked/%.html: build/book/parts/%.json build/book/index.json $(BOOK_COURSE) $(BOOK_SOURCES) $(BOOK_FILTER) tools/book/fragment.html
	@mkdir -p $(@D)
	$(PANDOC) -f json $< --lua-filter tools/book/link.lua $(BOOK_META) -M book-index=build/book/index.json \
	  -M pagetitle=book -t html5 -s --template tools/book/fragment.html --highlight-style=tango --wrap=none \
	  -o $@.tmp && mv $@.tmp $@

build/book/fragment.html: $(BOOK_LINKED) build/book/parts.list
	cat $(BOOK_LINKED) > $@

build/book/highlight.css: tools/book/highlight.html
	@mkdir -p $(@D)
	printf '```c\nint x;\n```\n' | $(PANDOC) -f markdown -t html5 -s --template $< \
	  --highlight-style=tango -M title=x -o $@

# Rewritten only when the source URL changes, so that changing it rebuilds the site.
build/book/source-url: book-parts-list
	@mkdir -p $(@D)
	@echo '$(BOOK_SOURCE_URL)' | cmp -s - $@ 2>/dev/null || echo '$(BOOK_SOURCE_URL)' > $@

build/book/site/index.html: build/book/fragment.html build/book/highlight.css $(BOOK_SITE_FILES) build/book/source-url
	$(PYTHON) tools/book/site.py $< $(@D) --version "$(BOOK_VERSION)" --date "$(BOOK_DATE)" \
	  --highlight-css build/book/highlight.css --pdf build/book.pdf --source-url "$(BOOK_SOURCE_URL)" \
	  --pandoc "$(PANDOC)"
