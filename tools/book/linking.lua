-- linking.lua: what joins a part to the rest of the book, given the facts of every part
-- (partinfo.lua): the preface's chapter list, the solution groups' headings, references
-- ("Figure 1.2", "Chapter 3") as links, glossary terms linked from their first use in each
-- chapter, cited sources linked (cite.lua) and listed in each chapter's References, links to
-- exercises that no chapter states left as text, and the check of every #link and of every
-- exercise of course/*.ini being stated. assemble.lua applies it to the whole book at once (the
-- print edition, make book-check), link.lua to one part at a time (the site).

local config = require("config")
local course = require("course")
local errors = require("errors")
local phrases = require("phrases")
local xref = require("xref")
local glossary = require("glossary")
local cite = require("cite")

local M = {}

-- The context of linking: facts (partinfo.read) plus the course files, the catalog of sources,
-- and what is reported how (make book-check: errors; make book: warnings).
function M.context(facts)
  local ctx = { facts = facts, chapters = facts.chapters, by_number = {}, exercise_labels = {}, unstated = {},
    report = config.strict and errors.add or errors.warn }
  for _, c in ipairs(facts.chapters) do
    if ctx.by_number[c.number] then
      errors.add(nil, "two chapter files are numbered " .. c.number .. " (#" .. ctx.by_number[c.number].id
        .. " and #" .. c.id .. "): chapters/NN-*.md needs a unique NN")
    end
    ctx.by_number[c.number] = c
  end
  -- Exercise numbers ("2.3") of every course file, for "Exercise 2.3" references; and the
  -- exercises no chapter states (their links become text).
  ctx.courses = {}
  for _, path in ipairs(config.course_files) do
    local parsed, problems = course.load_file(path)
    table.insert(ctx.courses, { path = path, parsed = parsed, problems = problems })
    for _, id in ipairs(parsed and parsed.order or {}) do
      ctx.exercise_labels[course.label(parsed, id)] = id
      if facts.ids[id] ~= "Div" then
        ctx.unstated[id] = true
      end
    end
  end
  local catalog, err = cite.load(config.sources)
  if not catalog then
    errors.add(nil, err)
    catalog = cite.load(nil)
  end
  ctx.catalog = catalog
  return ctx
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

-- The chapter list and the solution groups' headings ("Chapter 3 The lifetime trap").
local function fill_lists(blocks, ctx)
  return pandoc.Div(blocks):walk({
    Div = function(div)
      if div.classes:includes("chapter-list") then
        div.content = chapter_list(ctx.chapters)
        return div
      end
    end,
    Header = function(h)
      local nn = h.identifier:match("^solutions%-ch(%d%d)$")
      local c = nn and ctx.by_number[tostring(tonumber(nn))]
      if c then
        -- The number is text here, not this heading's number.
        h.content = pandoc.List({ pandoc.Str("Chapter"), pandoc.Space() })
        h.content:extend(pandoc.List(c.content):map(function(el)
          if el.t == "Span" and el.classes:includes("header-section-number") then
            return pandoc.Str(pandoc.utils.stringify(el))
          end
          return el
        end))
        return h
      end
    end,
  }).content
end

-- Link the running text of `blocks` (one part or the whole book): references, glossary terms
-- (not inside the glossary, nor in quotations or text in another language: someone else's
-- words), cited sources; each chapter that links to the web gets its References at its end.
function M.link_blocks(blocks, ctx)
  blocks = fill_lists(blocks, ctx)
  local chapter = "the front matter"
  local used, cited = {}, cite.state()
  local seen_missing = {}
  local refs = xref.replacer(xref.targets(ctx.facts.targets, ctx.exercise_labels), function(kind, num)
    local key = chapter .. kind .. num
    if not seen_missing[key] then
      seen_missing[key] = true
      ctx.report(nil, string.format("%s refers to %s %s, which the book does not have (yet)", chapter, kind, num))
    end
  end)
  local terms_here = glossary.replacer(ctx.facts.terms, used)
  local sources_here = cite.replacer(ctx.catalog, cited)
  local function quoted(el)
    return el.t == "Quoted" or (el.t == "Span" and el.attributes["lang"] ~= nil)
  end
  -- One pass over the text for all three (each pass over the whole book costs a second).
  local all = phrases.first(refs, terms_here, sources_here)
  local both = phrases.first(refs, sources_here)
  local out, part = pandoc.List(), pandoc.List()
  local in_glossary, part_id = false, ""
  local function flush()
    local found = cite.take(cited)
    out:extend(part)
    if #found > 0 then
      out:extend(cite.section(found, part_id))
    end
    part = pandoc.List()
  end
  for _, b in ipairs(blocks) do
    if b.t == "Header" and b.level == 1 then
      flush()
      for k in pairs(used) do
        used[k] = nil
      end
      in_glossary = b.identifier == ctx.facts.glossary
      chapter = "#" .. b.identifier
      part_id = b.identifier
      out:insert(b)
    else
      part:insert(phrases.walk_block(b, in_glossary and both or all, quoted))
    end
  end
  flush()
  if next(ctx.unstated) then
    out = pandoc.Div(out):walk({
      Link = function(link)
        local target = link.target:match("^#(.+)$")
        if target and ctx.unstated[target] then
          return link.content
        end
      end,
    }).content
  end
  return out
end

-- Every exercise of course/*.ini is stated in its chapter: make book warns (and leaves the
-- solution's back link out), make book-check (-M book-strict=true) fails.
function M.check_exercises(ctx)
  for _, c in ipairs(ctx.courses) do
    if not c.parsed then
      for _, p in ipairs(c.problems) do
        errors.add(nil, p)
      end
    else
      for _, id in ipairs(c.parsed.order) do
        if ctx.unstated[id] then
          local n = tostring(tonumber(id:sub(3, 4)))
          local where = ctx.by_number[n] and ("add ::: {.exercise id=\"" .. id .. "\"} ::: to chapter " .. n)
            or ("there is no chapters/" .. id:sub(3, 4) .. "-*.md yet")
          ctx.report(nil, string.format("%s:%d: exercise %s is not stated in chapter %s: %s",
            c.path, c.parsed.by_id[id].line, id, n, where))
        end
      end
    end
  end
end

-- Every #link (of the parts whose source is in `sources`, or of all) points somewhere.
function M.check_links(ctx, sources)
  for _, link in ipairs(ctx.facts.links) do
    local t = link.target
    local references = t:match("^(.*)%-references$")
    if (not sources or sources[link.source]) and not ctx.facts.ids[t] and not ctx.unstated[t]
      and not (references and ctx.facts.ids[references] == "Header") then
      errors.add(link.source, string.format("link [%s](#%s) points at no heading, exercise or figure",
        link.text, t))
    end
  end
end

return M
