-- test_units.lua: unit tests of the book filter's modules (ini, markers, mathfrac, numbering,
-- autocode, fold, plotmeta).
-- Run: pandoc -f markdown -t plain --lua-filter tests/book/test_units.lua < /dev/null

package.path = pandoc.path.directory(PANDOC_SCRIPT_FILE) .. "/../../tools/book/?.lua;" .. package.path

local ini = require("ini")
local markers = require("markers")
local mathfrac = require("mathfrac")
local numbering = require("numbering")
local autocode = require("autocode")
local fold = require("fold")
local plotmeta = require("plotmeta")

local passed, failed = 0, 0

local function check(name, cond, detail)
  if cond then
    passed = passed + 1
    print("ok - " .. name)
  else
    failed = failed + 1
    print("not ok - " .. name .. (detail and (": " .. detail) or ""))
  end
end

local function lines(...)
  return { ... }
end

-- ini.lua
do
  local text = table.concat({
    "; a comment line",
    "[ch02.a]",
    "file = ch02/a.cu   ; trailing comment",
    "task = uses a;b and x = y",
    "hint = one",
    "hint = two ; note",
    "",
    "  ; indented comment",
    "[ch02.b]",
    "points=5",
  }, "\n")
  local p, err = ini.parse(text, "t.ini")
  check("ini_parse_reads_sections_in_order", p and p.order[1] == "ch02.a" and p.order[2] == "ch02.b", err)
  check("ini_parse_strips_comment_after_whitespace", p and p.by_id["ch02.a"].file == "ch02/a.cu")
  check("ini_parse_keeps_semicolon_and_equals_inside_value",
    p and p.by_id["ch02.a"].task == "uses a;b and x = y", p and p.by_id["ch02.a"].task)
  check("ini_parse_collects_repeated_hints_in_order",
    p and #p.by_id["ch02.a"].hint == 2 and p.by_id["ch02.a"].hint[2] == "two")
  check("ini_parse_accepts_key_without_spaces", p and p.by_id["ch02.b"].points == "5")
  local _, e1 = ini.parse("[a]\nx = 1\nx = 2\n", "r.ini")
  check("ini_parse_rejects_repeated_key_with_line", e1 and e1:find("r.ini:3", 1, true) ~= nil, e1)
  local _, e2 = ini.parse("x = 1\n", "k.ini")
  check("ini_parse_rejects_key_before_section", e2 and e2:find("before the first", 1, true) ~= nil, e2)
  local _, e3 = ini.parse("[a]\n[a]\n", "d.ini")
  check("ini_parse_rejects_duplicate_section", e3 and e3:find("twice", 1, true) ~= nil, e3)
  local _, e4 = ini.parse("[a]\njust text\n", "j.ini")
  check("ini_parse_rejects_line_without_equals", e4 and e4:find("j.ini:2", 1, true) ~= nil, e4)
end

-- markers.lua
do
  local src = lines(
    "int a;",
    "  // BOOK-BEGIN(k)",
    "  int b;",
    "  // BOOK-BEGIN(n)",
    "  // BEGIN SOLUTION",
    "  //~ int skeleton_only;",
    "    int c;",
    "  // END SOLUTION",
    "  // BOOK-END(n)",
    "  // BOOK-END(k)",
    "int z;")
  local r = markers.region(src, "k", "f.cu")
  check("markers_region_is_dedented_and_stripped",
    r and #r == 2 and r[1] == "int b;" and r[2] == "  int c;", r and table.concat(r, "|"))
  local n = markers.region(src, "n", "f.cu")
  check("markers_nested_region_alone", n and #n == 1 and n[1] == "int c;", n and table.concat(n, "|"))
  local whole = markers.region(src, nil, "f.cu")
  check("markers_whole_file_hides_marker_lines", whole and #whole == 4 and whole[4] == "int z;",
    whole and table.concat(whole, "|"))
  local _, e1 = markers.region(src, "missing", "f.cu")
  check("markers_missing_marker_names_file_and_marker",
    e1 and e1:find("f.cu", 1, true) and e1:find("missing", 1, true), e1)
  local _, e2 = markers.region(lines("// BOOK-BEGIN(x)", "int a;"), "x", "g.cu")
  check("markers_begin_without_end_is_an_error", e2 and e2:find("BOOK-END(x)", 1, true), e2)
  local _, e3 = markers.region(lines("// BOOK-BEGIN(x)", "// BOOK-END(x)", "// BOOK-BEGIN(x)"), "x", "h.cu")
  check("markers_duplicate_begin_is_an_error", e3 and e3:find("twice", 1, true), e3)
  local _, e4 = markers.region(lines("// BOOK-BEGIN(x)", "", "// BOOK-END(x)"), "x", "e.cu")
  check("markers_empty_region_is_an_error", e4 and e4:find("no visible lines", 1, true), e4)
  check("markers_prefix_names_do_not_match",
    markers.region(lines("// BOOK-BEGIN(kernel2)", "a;", "// BOOK-END(kernel2)"), "kernel", "p.cu") == nil)
end

-- mathfrac.lua
do
  check("mathfrac_simple", mathfrac.linearise("\\frac{a}{b}") == "{a}/{b}", mathfrac.linearise("\\frac{a}{b}"))
  check("mathfrac_compound_operands_get_brackets",
    mathfrac.linearise("\\frac{a+b}{c}") == "\\left(a+b\\right)/{c}", mathfrac.linearise("\\frac{a+b}{c}"))
  check("mathfrac_nested", not mathfrac.linearise("\\dfrac{1}{\\frac{x}{y}}"):find("frac", 1, true))
  check("mathfrac_leaves_other_tex", mathfrac.linearise("x_{i}^2") == "x_{i}^2")
end

-- numbering.lua
do
  check("slug_like_pandoc", numbering.slug("What one exchange costs") == "what-one-exchange-costs")
  check("slug_accents_spelt_plainly", numbering.slug("Ünïcode naïve café") == "unicode-naive-cafe", numbering.slug("Ünïcode naïve café"))
  check("slug_is_ascii_without_curly_quotes", numbering.slug("The deep dive’s “bug” 中文") == "the-deep-dives-bug",
    numbering.slug("The deep dive’s “bug” 中文"))
  check("slug_drops_punctuation_and_leading_digits",
    numbering.slug("1. Barriers, phases & parity!") == "barriers-phases-parity", numbering.slug("1. Barriers, phases & parity!"))
end

-- mathfrac.lua: \mathtt
do
  check("mathtt_becomes_texttt", mathfrac.monospace("\\mathtt{bins\\_per\\_block}") == "\\texttt{bins\\_per\\_block}",
    mathfrac.monospace("\\mathtt{bins\\_per\\_block}"))
end

-- autocode.lua
do
  local function ac(s) return autocode.markdown(s) end
  check("autocode_snake_case_and_calls",
    ac("Call dsm_cluster_sync() then linear_rank(pos, dims) now.") ==
      "Call `dsm_cluster_sync()` then `linear_rank(pos, dims)` now.", ac("Call dsm_cluster_sync() then linear_rank(pos, dims) now."))
  check("autocode_registers_members_paths_and_indexing",
    ac("Use %cluster_ctarank, out[blockIdx.x], dims.x and ch02/linear_rank.h.") ==
      "Use `%cluster_ctarank`, `out[blockIdx.x]`, `dims.x` and `ch02/linear_rank.h`.",
    ac("Use %cluster_ctarank, out[blockIdx.x], dims.x and ch02/linear_rank.h."))
  check("autocode_leaves_prose_alone",
    ac("The tests (chapter 2) count 4 GiB, e.g. in clusters of 2.") == "The tests (chapter 2) count 4 GiB, e.g. in clusters of 2.",
    ac("The tests (chapter 2) count 4 GiB, e.g. in clusters of 2."))
  check("autocode_leaves_urls_alone",
    ac("See https://docs.nvidia.com/cuda/x_y.html and dsm_x().") == "See https://docs.nvidia.com/cuda/x_y.html and `dsm_x()`.",
    ac("See https://docs.nvidia.com/cuda/x_y.html and dsm_x()."))
  check("autocode_marks_identifiers_outside_backticks", ac("Use `x` and dsm_y.") == "Use `x` and `dsm_y`.")
  check("autocode_ptx_state_space", ac("mapa.shared::cluster maps") == "`mapa.shared::cluster` maps", ac("mapa.shared::cluster maps"))
end

-- fold.lua
do
  local function widest(text)
    local w = 0
    for l in (text .. "\n"):gmatch("(.-)\n") do w = math.max(w, utf8.len(l)) end
    return w
  end
  local comment = "    /* " .. string.rep("word ", 30) .. "*/"
  local f = fold.block(comment, 40, "c")
  check("fold_block_comment_rewrapped_under_its_indent",
    widest(f) <= 40 and f:match("^    /%* word") and f:match("word %*/$") and not f:find("\n%S"), f)
  local code = '    call(first_argument, "a string, with spaces", third_argument, fourth_argument);'
  local g = fold.block(code, 50, "c")
  check("fold_code_breaks_between_tokens_not_in_strings",
    widest(g) <= 50 and g:find('"a string, with spaces"', 1, true) and g:find("\n            ", 1, true), g)
  local trail = "    x = y;  /* " .. string.rep("why ", 12) .. "*/"
  local t = fold.block(trail, 40, "c")
  check("fold_trailing_comment_moves_above_its_code", t:match("^    /%* why") and t:match("\n    x = y;$"), t)
  local out = "  fix       " .. string.rep("advice ", 12)
  local o = fold.block(out, 40, "text")
  check("fold_output_hangs_under_the_text_after_its_label",
    widest(o) <= 40 and o:find("\n            advice", 1, true) ~= nil, o)
  local two = fold.block("  kernel    k\n  where     w\n  last wait this thread's last wait returned at once: its phase had completed", 40, "text")
  check("fold_output_hangs_a_one_space_label_under_the_block_s_label_column",
    two:match("\n  last wait this thread's last wait\n            returned") ~= nil, two)
  local deep = fold.block(string.rep(" ", 36) .. ": SOME_LONG_NAME));", 40, "c")
  check("fold_code_too_deeply_indented_moves_left_to_fit", widest(deep) <= 40 and deep:find("SOME_LONG_NAME", 1, true) ~= nil, deep)
  local _, changed = fold.block("short\nlines", 40, "c")
  check("fold_leaves_short_lines_alone", changed == false)
end

-- plotmeta.lua
do
  local row = plotmeta.split_csv('"NVIDIA H200","580.1 / CUDA 13.0",1980,2026-11-29T19:00:35Z,"a ""q"""')
  check("plotmeta_split_csv_quotes", row[1] == "NVIDIA H200" and row[2] == "580.1 / CUDA 13.0" and row[3] == "1980"
    and row[5] == 'a "q"', table.concat(row, "|"))
  check("plotmeta_driver_number_is_the_cuda_version", plotmeta.driver("13000") == "CUDA 13.0"
    and plotmeta.driver("12040") == "CUDA 12.4" and plotmeta.driver("580.159.04") == "driver 580.159.04",
    plotmeta.driver("13000"))
end

-- cite.lua
do
  local cite = require("cite")
  check("cite_url_of_issue_and_paper", cite.url_of("NVIDIA/cutlass#1684") == "https://github.com/NVIDIA/cutlass/issues/1684"
    and cite.url_of("arXiv:2402.13499") == "https://arxiv.org/abs/2402.13499" and cite.url_of("plain") == nil)
end

print(string.format("%d passed, %d failed", passed, failed))
if failed > 0 then
  os.exit(1)
end
