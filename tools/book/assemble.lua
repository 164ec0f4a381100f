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

-- Every identifier in the document, so that links can be checked.
local function collect_ids(doc)
  local ids = {}
  local function note(el)
    if el.identifier and el.identifier ~= "" then
      ids[el.identifier] = el.t
    end
  end
  doc:walk({ Header = note, Div = note, Span = note, CodeBlock = note, Code = note,
    Image = note, Link = note, Table = note })
  return ids
end

-- Plain references ("Figure 1.2", "Chapter 3") become links, and each glossary term is linked
-- from its first use in every chapter (not inside the glossary itself).
local function link_running_text(doc, exercise_labels, report)
  local terms, glossary_chapter
  terms, glossary_chapter, doc = glossary.collect(doc)
  local targets = xref.targets(doc, exercise_labels)
  local chapter = "the front matter"
  local used = {}
  local seen_missing = {}
  local refs = xref.replacer(targets, function(kind, num)
    local key = chapter .. kind .. num
    if not seen_missing[key] then
      seen_missing[key] = true
      report(nil, string.format("%s refers to %s %s, which the book does not have (yet)", chapter, kind, num))
    end
  end)
  local terms_here = glossary.replacer(terms, used)
  local in_glossary = false
  -- Terms are not linked inside quotations or text in another language: those are someone
  -- else's words.
  local function quoted(el)
    return el.t == "Quoted" or (el.t == "Span" and el.attributes["lang"] ~= nil)
  end
  local blocks = pandoc.List()
  for _, b in ipairs(doc.blocks) do
    if b.t == "Header" and b.level == 1 then
      for k in pairs(used) do
        used[k] = nil
      end
      in_glossary = b.identifier == glossary_chapter
      chapter = "#" .. b.identifier
      blocks:insert(b)
    else
      b = phrases.walk_block(b, refs)
      if not in_glossary then
        b = phrases.walk_block(b, terms_here, quoted)
      end
      blocks:insert(b)
    end
  end
  doc.blocks = blocks
  return doc
end

local function strip(el)
  for _, key in ipairs({ "book-src", "book-kind", "book-chapter", "book-figure" }) do
    el.attributes[key] = nil
  end
  return el
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
  doc = link_running_text(doc, exercise_labels, report)

  local ids = collect_ids(doc)
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
  doc:walk({
    Link = function(link)
      local target = link.target:match("^#(.+)$")
      if target and not ids[target] and not unstated[target] then
        errors.add(link.attributes["book-src"] or "book", string.format(
          "link [%s](#%s) points at no heading, exercise or figure", pandoc.utils.stringify(link.content), target))
      end
    end,
  })

  errors.finish()
  return doc:walk({
    Header = strip,
    Image = strip,
    Link = function(link)
      local target = link.target:match("^#(.+)$")
      if target and unstated[target] then
        return link.content
      end
      return strip(link)
    end,
  })
end
