-- partinfo.lua: what linking a part needs to know about the whole book (every id, every #link,
-- the numbers of chapters, sections and figures, the chapters' titles, the glossary's terms),
-- recorded by chapter.lua for each part in its metadata (and, for the site, in a small facts
-- file per part that make merges into build/book/index.json), and read back by assemble.lua and
-- link.lua. Walking the whole book again for these costs seconds on every build; each part is
-- walked once, when it changes.

local M = {}

local PREFIX = "book-part:"

local function list(t)
  return pandoc.MetaList(pandoc.List(t):map(function(s)
    return type(s) == "string" and pandoc.MetaString(s) or s
  end))
end

-- Record the facts of `doc` (one part, from `source`) in its metadata; `terms` and
-- `glossary_id` are the glossary's terms (glossary.collect), if the part defines any. Returns
-- the doc and the facts (a MetaMap).
function M.record(doc, source, terms, glossary_id)
  local ids, links, targets, chapters = {}, {}, {}, {}
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
      if h.level == 1 and h.attributes["book-kind"] then
        table.insert(chapters, pandoc.MetaMap({ id = pandoc.MetaString(h.identifier),
          number = pandoc.MetaString(h.attributes["book-chapter"]), kind = pandoc.MetaString(h.attributes["book-kind"]),
          title = pandoc.MetaInlines(h.content) }))
        h.attributes["book-kind"] = nil
        h.attributes["book-chapter"] = nil
        return h
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
  local facts = { ids = list(ids), links = list(links), targets = list(targets), chapters = list(chapters) }
  if terms and #terms > 0 then
    facts.glossary = pandoc.MetaString(glossary_id or "")
    facts.terms = list(pandoc.List(terms):map(function(t)
      return pandoc.MetaMap({ id = pandoc.MetaString(t.id), title = pandoc.MetaString(t.title),
        phrases = list(pandoc.List(t.phrases):map(function(p) return table.concat(p, " ") end)) })
    end))
  end
  facts = pandoc.MetaMap(facts)
  doc.meta[PREFIX .. source] = facts
  return doc, facts
end

-- A JSON document holding only the facts of one part (`make` merges these into the index).
function M.facts_document(source, facts)
  return pandoc.write(pandoc.Pandoc({}, { [PREFIX .. source] = facts }), "json")
end

local function strings(v)
  local t = {}
  for _, s in ipairs(v or {}) do
    table.insert(t, pandoc.utils.stringify(s))
  end
  return t
end

-- The facts of every part in `meta` (removed from it):
--   ids = { id = element type }, links = { {target, text, source}... },
--   targets = { chapter = {num = id}, section = ..., figure = ... },
--   chapters = { {id, number, kind, content (title inlines)}... } in order,
--   terms = { {id, title, phrases = { {words...}... }}... }, glossary = id of the glossary.
function M.read(meta)
  local out = { ids = {}, links = {}, targets = { chapter = {}, section = {}, figure = {} }, chapters = {},
    terms = {}, glossary = nil }
  local keys = {}
  for key in pairs(meta) do
    if key:sub(1, #PREFIX) == PREFIX then
      table.insert(keys, key)
    end
  end
  table.sort(keys)
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
    for _, c in ipairs(info.chapters or {}) do
      table.insert(out.chapters, { id = pandoc.utils.stringify(c.id), number = pandoc.utils.stringify(c.number),
        kind = pandoc.utils.stringify(c.kind), content = c.title, source = source })
    end
    if info.terms then
      out.glossary = pandoc.utils.stringify(info.glossary)
      for _, t in ipairs(info.terms) do
        local phrases = {}
        for _, p in ipairs(strings(t.phrases)) do
          local words = {}
          for w in p:gmatch("%S+") do
            table.insert(words, w)
          end
          table.insert(phrases, words)
        end
        table.insert(out.terms, { id = pandoc.utils.stringify(t.id), title = pandoc.utils.stringify(t.title),
          phrases = phrases })
      end
    end
    meta[key] = nil
  end
  return out
end

return M
