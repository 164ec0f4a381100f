-- assemble.lua: Pandoc Lua filter for the whole book (all parts joined): fills the chapter list,
-- names the solution groups, checks every #link and that every exercise of course/*.ini is stated.
-- With -M book-strict=true (make book-check) an exercise left unstated is an error, else a warning.
-- Usage: pandoc -f json build/book/parts/*.json -t json --lua-filter tools/book/assemble.lua \
--          -M book-course-files="course/ch01.ini ..." -o build/book/book.json

package.path = pandoc.path.directory(PANDOC_SCRIPT_FILE) .. "/?.lua;" .. package.path

local config = require("config")
local course = require("course")
local errors = require("errors")
local phrases = require("phrases")
local xref = require("xref")
local glossary = require("glossary")
local cite = require("cite")
local partinfo = require("partinfo")

-- The chapters and appendices, in order: { id, number, kind, content (title with number) }.
local function chapters_of(doc)
  local out = {}
  for _, b in ipairs(doc.blocks) do
    if b.t == "Header" and b.level == 1 and b.attributes["book-kind"] then
      table.insert(out, { id = b.identifier, number = b.attributes["book-chapter"],
        kind = b.attributes["book-kind"], content = b.content })
    end
  end
  return out
end

-- A bullet list linking every chapter, for the ::: {.chapter-list} div of book.md.
local function chapter_list(chapters)
  if #chapters == 0 then
    return { pandoc.Para({ pandoc.Emph({ pandoc.Str("No chapters yet.") }) }) }
  end
  local items = {}
  for _, c in ipairs(chapters) do
    local title = pandoc.List()
    title:extend({ pandoc.Str(c.kind == "appendix" and "Appendix" or "Chapter"), pandoc.Space() })
    title:extend(c.content)
    table.insert(items, { pandoc.Plain({ pandoc.Link(title, "#" .. c.id) }) })
  end
  return { pandoc.BulletList(items) }
end

-- Plain references ("Figure 1.2", "Chapter 3") become links, each glossary term is linked from
-- its first use in every chapter (not inside the glossary itself), cited sources are linked
-- (cite.lua) and every chapter that links to the web ends with its References section.
local function link_running_text(doc, facts, exercise_labels, report)
  local terms, glossary_chapter
  terms, glossary_chapter, doc = glossary.collect(doc)
  local catalog, err = cite.load(config.sources)
  if not catalog then
    errors.add(nil, err)
    catalog = cite.load(nil)
  end
  local targets = xref.targets(facts.targets, exercise_labels)
  local chapter = "the front matter"
  local used, cited = {}, cite.state()
  local seen_missing = {}
  local refs = xref.replacer(targets, function(kind, num)
    local key = chapter .. kind .. num
    if not seen_missing[key] then
      seen_missing[key] = true
      report(nil, string.format("%s refers to %s %s, which the book does not have (yet)", chapter, kind, num))
    end
  end)
  local terms_here = glossary.replacer(terms, used)
  local sources_here = cite.replacer(catalog, cited)
  -- Terms are not linked inside quotations or text in another language: those are someone
  -- else's words.
  local function quoted(el)
    return el.t == "Quoted" or (el.t == "Span" and el.attributes["lang"] ~= nil)
  end
  -- One pass over the text for all three (each pass over the whole book costs a second).
  local all = phrases.first(refs, terms_here, sources_here)
  local both = phrases.first(refs, sources_here)
  local blocks, part = pandoc.List(), pandoc.List()
  local in_glossary, part_id = false, ""
  local function flush()
    local found = cite.take(cited)
    blocks:extend(part)
    if #found > 0 then
      local section = cite.section(found, part_id)
      facts.ids[section[1].identifier] = "Header"
      blocks:extend(section)
    end
    part = pandoc.List()
  end
  for _, b in ipairs(doc.blocks) do
    if b.t == "Header" and b.level == 1 then
      flush()
      for k in pairs(used) do
        used[k] = nil
      end
      in_glossary = b.identifier == glossary_chapter
      chapter = "#" .. b.identifier
      part_id = b.identifier
      blocks:insert(b)
    else
      part:insert(phrases.walk_block(b, in_glossary and both or all, quoted))
    end
  end
  flush()
  doc.blocks = blocks
  return doc
end

-- The chapter pass's notes on level-1 headings, for this filter only.
local function strip(h)
  if h.t == "Header" and h.level == 1 then
    h.attributes["book-kind"] = nil
    h.attributes["book-chapter"] = nil
  end
  return h
end

function Pandoc(doc)
  config.load(doc.meta)
  config.source = "book"
  local chapters = chapters_of(doc)
  local by_number = {}
  for _, c in ipairs(chapters) do
    if by_number[c.number] then
      errors.add(nil, "two chapter files are numbered " .. c.number
        .. " (#" .. by_number[c.number].id .. " and #" .. c.id .. "): chapters/NN-*.md needs a unique NN")
    end
    by_number[c.number] = c
  end

  doc = doc:walk({
    Div = function(div)
      if div.classes:includes("chapter-list") then
        div.content = chapter_list(chapters)
        return div
      end
    end,
    Header = function(h)
      local nn = h.identifier:match("^solutions%-ch(%d%d)$")
      local c = nn and by_number[tostring(tonumber(nn))]
      if c then
        -- "Chapter 3 The lifetime trap": the number is text here, not this heading's number.
        h.content = pandoc.List({ pandoc.Str("Chapter"), pandoc.Space() })
        h.content:extend(pandoc.List(c.content):map(function(el)
          if el.t == "Span" and el.classes:includes("header-section-number") then
            return pandoc.Str(pandoc.utils.stringify(el))
          end
          return el
        end))
      end
      return h
    end,
  })

  -- Exercise numbers ("2.3") of every course file, for "Exercise 2.3" references.
  local exercise_labels = {}
  for _, path in ipairs(config.course_files) do
    local parsed = course.load_file(path)
    for _, id in ipairs(parsed and parsed.order or {}) do
      exercise_labels[course.label(parsed, id)] = id
    end
  end
  local report = config.strict and errors.add or errors.warn
  local facts = partinfo.read(doc.meta)
  doc = link_running_text(doc, facts, exercise_labels, report)

  local ids = facts.ids
  local unstated = {}
  -- Every exercise of course/*.ini must be stated in its chapter. `make book` warns and
  -- leaves the solution's back link out; `make book-check` (-M book-strict=true) fails.
  for _, path in ipairs(config.course_files) do
    local parsed, problems = course.load_file(path)
    if not parsed then
      for _, p in ipairs(problems) do
        errors.add(nil, p)
      end
    else
      for _, id in ipairs(parsed.order) do
        if ids[id] ~= "Div" then
          unstated[id] = true
          local n = tostring(tonumber(id:sub(3, 4)))
          local where = by_number[n] and ("add ::: {.exercise id=\"" .. id .. "\"} ::: to chapter " .. n)
            or ("there is no chapters/" .. id:sub(3, 4) .. "-*.md yet")
          report(nil, string.format("%s:%d: exercise %s is not stated in chapter %s: %s",
            path, parsed.by_id[id].line, id, n, where))
        end
      end
    end
  end
  for _, link in ipairs(facts.links) do
    if not ids[link.target] and not unstated[link.target] then
      errors.add(link.source, string.format(
        "link [%s](#%s) points at no heading, exercise or figure", link.text, link.target))
    end
  end

  errors.finish()
  doc.blocks = doc.blocks:map(strip)
  if next(unstated) then
    return doc:walk({
      Link = function(link)
        local target = link.target:match("^#(.+)$")
        if target and unstated[target] then
          return link.content
        end
      end,
    })
  end
  return doc
end
