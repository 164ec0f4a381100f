-- xref.lua: turn plain references in running text into links: "Chapter 3", "chapter 3",
-- "Appendix A", "Figure 1.2", "Exercise 2.3", "Section 2.4" (and "Chapters 2 and 3", "Figures
-- 1.1–1.2"). A reference to something the book does not have is reported (assemble.lua: a
-- warning for make book, an error for make book-check).

local phrases = require("phrases")

local M = {}

local KINDS = {
  chapter = "chapter", chapters = "chapter", appendix = "chapter", appendices = "chapter",
  figure = "figure", figures = "figure", exercise = "exercise", exercises = "exercise",
  section = "section", sections = "section",
}
local PLURAL = { chapters = true, appendices = true, figures = true, exercises = true, sections = true }
local JOINERS = { ["and"] = true, ["or"] = true, ["to"] = true, ["–"] = true, ["-"] = true }

-- Targets of the whole book: { chapter = { ["3"] = "ch03", A = "solutions" }, figure = {...},
-- exercise = { ["2.1"] = "ch02.neighbor_read" }, section = { ["2.4"] = "ch02-..." } }, from the
-- parts' facts (partinfo.lua) and the exercise labels of the course files.
function M.targets(facts, exercise_labels)
  return { chapter = facts.chapter, figure = facts.figure, exercise = exercise_labels or {},
    section = facts.section }
end

-- Split "1.2," into ("1.2", ","); "2–3" into ("2", "–3"); nil when it is not a number.
local function number_of(s, kind)
  local num, rest
  if kind == "chapter" then
    num, rest = s:match("^(%d+)(.*)$")
    if not num then
      num, rest = s:match("^(%u)(.*)$")
    end
  else
    num, rest = s:match("^(%w+%.%d+)(.*)$")
  end
  if num and (rest == "" or rest:match("^[^%w]")) then
    return num, rest
  end
  return nil
end

-- A space between words, or a line break of the source ("Figure\n3.1").
local function is_space(el)
  return el.t == "Space" or el.t == "SoftBreak"
end

-- A replace function for phrases.rewrite; `missing(kind, number)` is told of dangling references.
function M.replacer(targets, missing)
  local function link(word, num, kind)
    local id = targets[kind][num]
    if not id then
      missing(kind, num)
      return nil
    end
    local content = word and { pandoc.Str(word), pandoc.Space(), pandoc.Str(num) } or { pandoc.Str(num) }
    return pandoc.Link(content, "#" .. id, "", pandoc.Attr("", { "xref" }))
  end

  return function(inlines, i)
    local el = inlines[i]
    if el.t ~= "Str" then
      return nil
    end
    local open, word = el.text:match("^([%(%[“‘\"']*)(%a+)$")
    local kind = word and KINDS[word:lower()]
    if not kind or not (inlines[i + 1] and is_space(inlines[i + 1])) or not inlines[i + 2]
      or inlines[i + 2].t ~= "Str" then
      return nil
    end
    local num, rest = number_of(inlines[i + 2].text, kind)
    if not num then
      return nil
    end
    local first = link(word, num, kind)
    if not first then
      return nil
    end
    local out = pandoc.List()
    if open ~= "" then
      out:insert(pandoc.Str(open))
    end
    out:insert(first)
    local last = i + 2
    -- "Chapters 2 and 3", "Figures 1.1, 1.2", "Chapters 2–3": the further numbers link too.
    while PLURAL[word:lower()] do
      local joiner, nxt
      local dash = (rest:sub(1, 3) == "–" and "–") or (rest:sub(1, 1) == "-" and "-") or nil
      if dash then
        local n2, r2 = number_of(rest:sub(#dash + 1), kind)
        if n2 and targets[kind][n2] then
          out:insert(pandoc.Str(dash))
          out:insert(link(nil, n2, kind))
          rest = r2
        end
        break
      elseif rest == "," and inlines[last + 1] and is_space(inlines[last + 1]) and inlines[last + 2]
        and inlines[last + 2].t == "Str" then
        nxt = last + 2
        joiner = { pandoc.Str(","), pandoc.Space() }
      elseif rest == "" and inlines[last + 1] and is_space(inlines[last + 1]) and inlines[last + 2]
        and inlines[last + 2].t == "Str" and JOINERS[inlines[last + 2].text] and inlines[last + 3]
        and is_space(inlines[last + 3]) and inlines[last + 4] and inlines[last + 4].t == "Str" then
        nxt = last + 4
        joiner = { pandoc.Space(), pandoc.Str(inlines[last + 2].text), pandoc.Space() }
      else
        break
      end
      local n2, r2 = number_of(inlines[nxt].text, kind)
      if not n2 or not targets[kind][n2] then
        break
      end
      out:extend(joiner)
      out:insert(link(nil, n2, kind))
      rest, last = r2, nxt
    end
    if rest ~= "" then
      out:insert(pandoc.Str(rest))
    end
    return last, out
  end
end

return M
