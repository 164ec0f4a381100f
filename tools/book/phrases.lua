-- phrases.lua: find phrases ("Figure 2.1", "thread block cluster") in running text and replace
-- them, for xref.lua and glossary.lua. Text inside links, code, math, images and headings is
-- left alone: only Para and Plain blocks (and figure captions) are searched, and the search
-- does not enter a Link.

local M = {}

local OPEN = "^([%(%[“‘\"']*)"                  -- punctuation that may come before a phrase
local CLOSE_OK = { "^$", "^[%.,;:!%?%)%]”’\"']+$", "^[’']s[%.,;:!%?%)%]”’\"']*$" }

-- True when `rest` (what follows a word in its Str) is punctuation or a possessive 's.
function M.closing(rest)
  for _, p in ipairs(CLOSE_OK) do
    if rest:match(p) then
      return true
    end
  end
  return false
end

-- Split the Str text `s` into (opening punctuation, word) when `s` starts with `word`
-- after punctuation; return the remainder as a third value. Case matters.
function M.split(s, word)
  local open = s:match(OPEN)
  local body = s:sub(#open + 1)
  if body:sub(1, #word) == word then
    return open, word, body:sub(#word + 1)
  end
  return nil
end

local function is_space(el)
  return el and (el.t == "Space" or el.t == "SoftBreak")
end

-- Try to match the words of `phrase` (a list) at position i of `inlines`. Returns the index of
-- the last element, the opening punctuation and the closing text, or nil. A one-word phrase
-- also matches a Code element with exactly that text.
function M.match(inlines, i, phrase)
  local el = inlines[i]
  if #phrase == 1 and el.t == "Code" and el.text == phrase[1] then
    return i, "", ""
  end
  if el.t ~= "Str" then
    return nil
  end
  local open, _, rest = M.split(el.text, phrase[1])
  if not open then
    return nil
  end
  local j = i
  for k = 2, #phrase do
    if rest ~= "" or not is_space(inlines[j + 1]) or not inlines[j + 2] or inlines[j + 2].t ~= "Str" then
      return nil
    end
    j = j + 2
    local o, _, r = M.split(inlines[j].text, phrase[k])
    if not o or o ~= "" then
      return nil
    end
    rest = r
  end
  if not M.closing(rest) then
    return nil
  end
  return j, open, rest
end

-- The inlines i..j of `inlines` with the opening punctuation cut from the first Str and the
-- closing text from the last.
function M.slice(inlines, i, j, open, rest)
  local out = pandoc.List()
  for k = i, j do
    out:insert(inlines[k])
  end
  if out[1].t == "Str" then
    out[1] = pandoc.Str(out[1].text:sub(#open + 1))
  end
  if out[#out].t == "Str" and rest ~= "" then
    local t = out[#out].text
    out[#out] = pandoc.Str(t:sub(1, #t - #rest))
  end
  return out
end

-- `node` (a replacement of a matched phrase) between the opening punctuation and the closing text
-- the match cut from it (M.slice): the inlines that stand for the phrase.
function M.wrapped(open, node, rest)
  local out = pandoc.List()
  if open ~= "" then
    out:insert(pandoc.Str(open))
  end
  out:insert(node)
  if rest ~= "" then
    out:insert(pandoc.Str(rest))
  end
  return out
end

-- The words a Str could be the first word of a phrase as: its text without opening
-- punctuation, and that without closing punctuation or a possessive ('s).
local function first_words(text)
  local body = text:sub(#text:match(OPEN) + 1)
  local out = { body }
  local bare = body:gsub("[%.,;:!%?%)%]”’\"']+$", "")
  if bare ~= body then
    table.insert(out, bare)
  end
  local stem = bare:match("^(.+)’s$") or bare:match("^(.+)'s$")
  if stem then
    table.insert(out, stem)
  end
  return out
end

-- An index of `candidates` (each with `words`, a list) by first word, for M.longest: the book
-- has thousands of words and hundreds of phrases, and trying every phrase at every word is slow.
function M.index(candidates)
  local by_first = {}
  for _, c in ipairs(candidates) do
    local list = by_first[c.words[1]]
    if not list then
      list = {}
      by_first[c.words[1]] = list
    end
    table.insert(list, c)
  end
  return by_first
end

-- The longest candidate of `index` (M.index) that matches at position i of `inlines` and for
-- which `wanted(c)` is true: (candidate, last index, opening punctuation, closing text) or nil.
function M.longest(index, inlines, i, wanted)
  local el = inlines[i]
  local keys
  if el.t == "Str" then
    keys = first_words(el.text)
  elseif el.t == "Code" then
    keys = { el.text }
  else
    return nil
  end
  local best, best_last, best_open, best_rest
  for _, key in ipairs(keys) do
    for _, c in ipairs(index[key] or {}) do
      if (not best or #c.words > #best.words) and (not wanted or wanted(c)) then
        local last, open, rest = M.match(inlines, i, c.words)
        if last then
          best, best_last, best_open, best_rest = c, last, open, rest
        end
      end
    end
  end
  if best then
    return best, best_last, best_open, best_rest
  end
  return nil
end

local DESCEND = { Emph = true, Strong = true, Span = true, Quoted = true, SmallCaps = true,
  Underline = true, Strikeout = true, Superscript = true, Subscript = true }

-- Rewrite a list of inlines with `replace(inlines, i, skipped)`, which returns (last index used,
-- replacement inlines) or nil; descends into emphasis and spans but never into links. Inside an
-- element for which `skip(el)` is true (a quotation), `skipped` is true.
function M.rewrite(inlines, replace, skip, skipped)
  local out, changed = pandoc.List(), false
  local i = 1
  while i <= #inlines do
    local el = inlines[i]
    local last, repl = replace(inlines, i, skipped)
    if last then
      out:extend(repl)
      i = last + 1
      changed = true
    else
      local inner = skipped or (skip ~= nil and skip(el))
      local t = el.t
      if DESCEND[t] then
        local content, c = M.rewrite(el.content, replace, skip, inner)
        if c then
          el.content = content
          changed = true
        end
      elseif t == "Image" then  -- a figure's caption is running text too
        local caption, c = M.rewrite(el.caption, replace, skip, inner)
        if c then
          el.caption = caption
          changed = true
        end
      end
      out:insert(el)
      i = i + 1
    end
  end
  return out, changed
end

-- One replace function that tries each of `...` in turn (one pass over the text for all).
function M.first(...)
  local list = { ... }
  return function(inlines, i, skipped)
    for _, replace in ipairs(list) do
      local last, repl = replace(inlines, i, skipped)
      if last then
        return last, repl
      end
    end
    return nil
  end
end

-- Apply `replace` to the running text of `block` (every Para and Plain inside it), in order.
function M.walk_block(block, replace, skip)
  local function fix(b)
    local content, changed = M.rewrite(b.content, replace, skip)
    if changed then  -- setting unchanged content back costs as much as the search
      b.content = content
      return b
    end
  end
  if block.t == "Para" or block.t == "Plain" then
    return fix(block) or block
  end
  if block.t == "Header" or block.t == "CodeBlock" or block.t == "RawBlock" then
    return block
  end
  return block:walk({ Para = fix, Plain = fix })
end

return M
