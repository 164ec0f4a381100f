-- glossary.lua: the glossary appendix's terms, and links to them from their first use in each
-- chapter. A term is a span in a definition list of the glossary chapter:
--   [CTA]{.term match="CTA|CTAs|thread block"}
--   :   Cooperative thread array: ...
-- `match` lists the words or phrases that count as a use (default: the term itself); a phrase
-- written in lower case also matches with a capital first letter, and a one-word phrase also
-- matches code with exactly that text (`mapa`).

local phrases = require("phrases")
local numbering = require("numbering")

local M = {}

local function first_sentence(blocks)
  local text = pandoc.utils.stringify(blocks[1] or pandoc.Para({}))
  local s = text:match("^(.-[%.!?])%s") or text
  if utf8.len(s) and utf8.len(s) > 180 then
    s = s:sub(1, utf8.offset(s, 178)) .. "…"
  end
  return s
end

local function words(phrase)
  local out = {}
  for w in phrase:gmatch("%S+") do
    table.insert(out, w)
  end
  return out
end

local function term_id(span)
  if span.identifier ~= "" then
    return span.identifier
  end
  return "term-" .. numbering.slug(pandoc.utils.stringify(span))
end

-- Chapter pass: a term's span gets its id (term-slug) where the glossary defines it.
function M.Span(span)
  if span.classes:includes("term") and span.identifier == "" then
    span.identifier = term_id(span)
    return span
  end
end

-- Every term of the book: { id, title (tooltip), phrases = { {words...}, ... } }, and the id of
-- the chapter that holds them (no links are made inside it). The terms are the spans of
-- definition lists (top-level blocks of the glossary); their match attributes are removed.
function M.collect(doc)
  local terms, chapter, current = {}, nil, nil
  for _, b in ipairs(doc.blocks) do
    if b.t == "Header" and b.level == 1 then
      current = b.identifier
    elseif b.t == "DefinitionList" then
      local items = b.content
      for _, item in ipairs(items) do
        local term, defs = item[1], item[2]
        for _, el in ipairs(term) do
          if el.t == "Span" and el.classes:includes("term") then
            local name = pandoc.utils.stringify(el)
            local list = {}
            for alt in (el.attributes["match"] or name):gmatch("[^|]+") do
              alt = alt:gsub("^%s+", ""):gsub("%s+$", "")
              table.insert(list, words(alt))
              local cap = alt:sub(1, 1):upper() .. alt:sub(2)
              if cap ~= alt then
                table.insert(list, words(cap))
              end
            end
            table.insert(terms, { id = term_id(el), title = first_sentence(defs[1] or {}), phrases = list })
            el.attributes["match"] = nil
            chapter = current
          end
        end
      end
      b.content = items
    end
  end
  return terms, chapter, doc
end

-- A replace function for phrases.rewrite that links each term once: `used` holds the ids of the
-- terms already linked (the caller empties it at each chapter). Nothing is linked where
-- phrases.rewrite says the text is `skipped` (a quotation).
function M.replacer(terms, used)
  local all = {}
  for _, t in ipairs(terms) do
    for _, p in ipairs(t.phrases) do
      table.insert(all, { term = t, words = p })
    end
  end
  local index = phrases.index(all)
  local function unused(cand)
    return not used[cand.term.id]
  end
  return function(inlines, i, skipped)
    if skipped then  -- inside a quotation: someone else's words
      return nil
    end
    local cand, last, open, rest = phrases.longest(index, inlines, i, unused)
    if not cand then
      return nil
    end
    used[cand.term.id] = true
    return last, phrases.wrapped(open, pandoc.Link(phrases.slice(inlines, i, last, open, rest),
      "#" .. cand.term.id, cand.term.title, pandoc.Attr("", { "term" })), rest)
  end
end

return M
