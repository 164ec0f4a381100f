-- assemble.lua: Pandoc Lua filter for the whole book (all parts joined), for the print edition
-- and make book-check: links every part to the rest of the book (linking.lua: chapter list,
-- solution groups, references, glossary terms, cited sources and References), checks every
-- #link and that every exercise of course/*.ini is stated. With -M book-strict=true (make
-- book-check) an exercise left unstated is an error, else a warning.
-- Usage: pandoc -f json build/book/parts/*.json -t json --lua-filter tools/book/assemble.lua \
--          -M book-course-files="course/ch01.ini ..." [-M book-sources=chapters/sources.ini] \
--          -o build/book/book.json

package.path = pandoc.path.directory(PANDOC_SCRIPT_FILE) .. "/?.lua;" .. package.path

local config = require("config")
local errors = require("errors")
local partinfo = require("partinfo")
local linking = require("linking")

function Pandoc(doc)
  config.load(doc.meta)
  config.source = "book"
  local ctx = linking.context(partinfo.read(doc.meta))
  doc.blocks = linking.link_blocks(doc.blocks, ctx)
  linking.check_exercises(ctx)
  linking.check_links(ctx)
  errors.finish()
  return doc
end
