-- link.lua: Pandoc Lua filter for one part of the book on its way to the site: links it to the
-- rest of the book (linking.lua) with the facts of every part from the index that make merges
-- (build/book/index.json), and checks its #links. A changed chapter relinks alone; the other
-- parts relink only when the index changes (a heading, a figure or an exercise came or went).
-- The part that is book.md also reports exercises no chapter states.
-- Usage: pandoc -f json build/book/parts/03-x.json --lua-filter tools/book/link.lua \
--          -M book-index=build/book/index.json -M book-course-files="..." -t html5 ...

package.path = pandoc.path.directory(PANDOC_SCRIPT_FILE) .. "/?.lua;" .. package.path

local config = require("config")
local errors = require("errors")
local files = require("files")
local partinfo = require("partinfo")
local linking = require("linking")

function Pandoc(doc)
  local index = doc.meta["book-index"] and pandoc.utils.stringify(doc.meta["book-index"])
  doc.meta["book-index"] = nil
  config.load(doc.meta)
  -- This part's own facts say which source it is; the index has everybody's.
  local own = {}
  for key in pairs(doc.meta) do
    if key:match("^book%-part:") then
      own[key:sub(#"book-part:" + 1)] = true
      doc.meta[key] = nil
    end
  end
  local text = index and files.read(index)
  if not text then
    errors.add(nil, "link.lua needs the index of the book's parts: -M book-index=build/book/index.json")
    errors.finish()
  end
  local ctx = linking.context(partinfo.read(pandoc.read(text, "json").meta))
  config.source = next(own) or "book"
  doc.blocks = linking.link_blocks(doc.blocks, ctx)
  if own["book.md"] then
    linking.check_exercises(ctx)
  end
  linking.check_links(ctx, own)
  errors.finish()
  return doc
end
