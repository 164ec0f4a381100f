-- test_units.lua: unit tests of the book filter's modules (ini, markers, mathfrac, numbering).
-- Run: pandoc -f markdown -t plain --lua-filter tests/book/test_units.lua < /dev/null

package.path = pandoc.path.directory(PANDOC_SCRIPT_FILE) .. "/../../tools/book/?.lua;" .. package.path

local ini = require("ini")
local markers = require("markers")
local mathfrac = require("mathfrac")
local numbering = require("numbering")

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
  check("slug_non_ascii_lowered", numbering.slug("Ünïcode naïve café") == "ünïcode-naïve-café", numbering.slug("Ünïcode naïve café"))
  check("slug_drops_punctuation_and_leading_digits",
    numbering.slug("1. Barriers, phases & parity!") == "barriers-phases-parity", numbering.slug("1. Barriers, phases & parity!"))
end

print(string.format("%d passed, %d failed", passed, failed))
if failed > 0 then
  os.exit(1)
end
