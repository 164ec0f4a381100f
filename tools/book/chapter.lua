-- chapter.lua: Pandoc Lua filter for one part of the book (book.md or chapters/NN-slug.md):
-- code includes, exercise boxes, the solutions appendix, figure checks, math, numbering.
-- Usage: pandoc -f markdown-auto_identifiers chapters/02-x.md -t json \
--          --lua-filter tools/book/chapter.lua -M book-course-files="course/ch02.ini ..." \
--          [-M book-depfile=part.d -M book-target=part.json] [-M book-facts=part.facts.json] \
--          -o part.json

package.path = pandoc.path.directory(PANDOC_SCRIPT_FILE) .. "/?.lua;" .. package.path

local config = require("config")
local include = require("include")
local exercise = require("exercise")
local solutions = require("solutions")
local figures = require("figures")
local mathfrac = require("mathfrac")
local quotes = require("quotes")
local numbering = require("numbering")
local errors = require("errors")
local files = require("files")
local partinfo = require("partinfo")
local glossary = require("glossary")
local measured = require("measured")

-- Source comments (<!-- purpose of this file -->) stay out of the book.
local function drop_comment(raw)
  if raw.format == "html" and raw.text:match("^%s*<!%-%-.*%-%->%s*$") then
    return {}
  end
end

local function finish(doc)
  errors.finish()
  local terms, glossary_id
  terms, glossary_id, doc = glossary.collect(doc)
  local facts
  doc, facts = partinfo.record(doc, config.source, terms, glossary_id)
  -- The site's build merges every part's facts into its index (mk/book.mk).
  if config.facts then
    local f = assert(io.open(config.facts, "w"))
    f:write(partinfo.facts_document(config.source, facts))
    f:close()
  end
  if config.depfile and config.target then
    files.write_depfile(config.depfile, config.target)
  end
  return doc
end

return {
  { Meta = config.load, RawBlock = drop_comment },
  { CodeBlock = include.CodeBlock },
  { Div = solutions.Div },
  { Div = measured.Div },
  { Div = exercise.Div },
  { Image = figures.Image, Math = mathfrac.Math, Span = glossary.Span },
  { Para = quotes.Para, Plain = quotes.Plain },
  { Pandoc = numbering.Pandoc },
  { Pandoc = finish },
}
