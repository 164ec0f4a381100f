-- partinfo.lua: what assemble.lua needs to know about a part (its ids, its #links, the numbers
-- of its chapter, sections and figures), written by chapter.lua into the part's metadata and
-- read back by assemble.lua. Walking the whole book again for these costs seconds on every
-- build; each part is walked once, when it changes.

local M = {}

local PREFIX = "book-part:"

-- Record the facts of `doc` (one part, from `source`) in its metadata.
function M.record(doc, source)
  local ids, links, targets = {}, {}, {}
  local function note(el)
    if el.identifier and el.identifier ~= "" then
      table.insert(ids, el.t .. "\t" .. el.identifier)
    end
  end
  doc = doc:walk({
    Header = function(h)
      note(h)
      for _, el in ipairs(h.content) do
        if el.t == "Span" and el.classes:includes("header-section-number") then
          local kind = h.level == 1 and "chapter" or "section"
          table.insert(targets, kind .. "\t" .. pandoc.utils.stringify(el) .. "\t" .. h.identifier)
        end
      end
    end,
    Image = function(img)
      note(img)
      local num = img.attributes["book-figure"]
      if num and img.identifier ~= "" then
        table.insert(targets, "figure\t" .. num .. "\t" .. img.identifier)
      end
      img.attributes["book-figure"] = nil
      return img
    end,
    Link = function(link)
      note(link)
      local target = link.target:match("^#(.+)$")
      if target then
        table.insert(links, target .. "\t" .. pandoc.utils.stringify(link.content))
      end
    end,
    Div = note, Span = note, CodeBlock = note, Code = note, Table = note,
  })
  local function list(t)
    return pandoc.MetaList(pandoc.List(t):map(function(s) return pandoc.MetaString(s) end))
  end
  doc.meta[PREFIX .. source] = pandoc.MetaMap({ ids = list(ids), links = list(links), targets = list(targets) })
  return doc
end

-- The facts of every part in `meta` (removed from it): { ids = {id = element type}, links = {
-- {target, text, source}...}, targets = { chapter = {num = id}, section = ..., figure = ... } }.
function M.read(meta)
  local out = { ids = {}, links = {}, targets = { chapter = {}, section = {}, figure = {} } }
  local keys = {}
  for key in pairs(meta) do
    if key:sub(1, #PREFIX) == PREFIX then
      table.insert(keys, key)
    end
  end
  table.sort(keys)
  local function strings(v)
    local t = {}
    for _, s in ipairs(v or {}) do
      table.insert(t, pandoc.utils.stringify(s))
    end
    return t
  end
  for _, key in ipairs(keys) do
    local info = meta[key]
    local source = key:sub(#PREFIX + 1)
    for _, t in ipairs(strings(info.ids)) do
      local kind, id = t:match("^(.-)\t(.*)$")
      out.ids[id] = kind
    end
    for _, l in ipairs(strings(info.links)) do
      local target, text = l:match("^(.-)\t(.*)$")
      table.insert(out.links, { target = target, text = text, source = source })
    end
    for _, t in ipairs(strings(info.targets)) do
      local kind, num, id = t:match("^(.-)\t(.-)\t(.*)$")
      out.targets[kind][num] = id
    end
    meta[key] = nil
  end
  return out
end

return M
