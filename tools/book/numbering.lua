-- numbering.lua: number a part's headings (2, 2.1, 2.1.1; appendix A, A.1) and figures
-- (Figure 2.1), and give unlabelled headings ids unique across the book (ch02-slug).

local errors = require("errors")
local config = require("config")

local M = {}

-- Latin letters with accents, spelt plainly in ids (é -> e); other non-ASCII characters
-- (curly quotes, CJK) are dropped, so that every id is plain ASCII and survives any URL.
local PLAIN = {}
for plain, accented in pairs({ a = "àáâãäåā", c = "çč", e = "èéêëēě", i = "ìíîïī", n = "ñń",
  o = "òóôõöøō", s = "šś", u = "ùúûüūů", y = "ýÿ", z = "žź" }) do
  for _, cp in utf8.codes(accented) do
    PLAIN[utf8.char(cp)] = plain
  end
end
PLAIN["ß"] = "ss"

-- Pandoc's auto-identifier rule, in ASCII: lower case; keep letters, digits, _ - .; join the
-- remaining words with '-'; drop everything before the first letter.
function M.slug(text)
  local s = pandoc.text.lower(text):gsub(utf8.charpattern, function(ch)
    if #ch == 1 then
      return ch
    end
    return PLAIN[ch] or (ch:match("^\u{2019}$") and "" or " ")
  end)
  s = s:gsub("[^%w_%.%-%s]", "")
  local words = {}
  for w in s:gmatch("%S+") do
    table.insert(words, w)
  end
  s = table.concat(words, "-"):gsub("^[^%a]+", "")
  if s == "" then
    return "section"
  end
  return s
end

local function is_unnumbered(h)
  return h.classes:includes("unnumbered") or h.classes:includes("-")
end

local function number_span(text)
  return pandoc.Span({ pandoc.Str(text) }, pandoc.Attr("", { "header-section-number" }))
end

-- Number headings and figures of the whole part, then point same-part links at the new ids.
function M.Pandoc(doc)
  local prefix = ""
  if config.kind == "chapter" then
    prefix = "ch" .. config.nn
  elseif config.kind == "appendix" then
    prefix = "app" .. config.number:lower()
  end
  local used, renamed = {}, {}
  local h1s, counts, figures = 0, { 0, 0, 0 }, 0
  local function unique(id)
    local base, n = id, 0
    while used[id] do
      n = n + 1
      id = base .. "-" .. n
    end
    used[id] = true
    return id
  end

  doc = doc:walk({
    Header = function(h)
      local slug = M.slug(pandoc.utils.stringify(h.content))
      if h.identifier == "" then
        local id
        if config.kind == "front" then
          id = slug
        elseif h.level == 1 then
          id = prefix
        else
          id = prefix .. "-" .. slug
        end
        h.identifier = unique(id)
        renamed[slug] = renamed[slug] or h.identifier
      else
        used[h.identifier] = true
      end
      if h.level == 1 then
        h.attributes["source"] = config.source  -- the site links each page to its Markdown
      end
      if config.kind == "front" then
        return h
      end
      if h.level == 1 then
        h1s = h1s + 1
        counts = { 0, 0, 0 }
        h.attributes["book-chapter"] = tostring(config.number)
        h.attributes["book-kind"] = config.kind
      elseif h.level <= 3 then
        counts[h.level] = counts[h.level] + 1
        for l = h.level + 1, 3 do
          counts[l] = 0
        end
      end
      if is_unnumbered(h) or h.level > 3 then
        return h
      end
      local label = tostring(config.number)
      for l = 2, h.level do
        label = label .. "." .. counts[l]
      end
      h.content:insert(1, pandoc.Space())
      h.content:insert(1, number_span(label))
      return h
    end,
  })

  if config.kind ~= "front" and h1s ~= 1 then
    errors.add(config.source, string.format("a chapter file has exactly one level-1 heading (# Title); found %d", h1s))
  end

  return doc:walk({
    Para = function(p)
      local img = p.content[1]
      if #p.content ~= 1 or img.t ~= "Image" or not img.title:match("^fig:") then
        return nil
      end
      figures = figures + 1
      local number = (config.kind == "front" and "" or (config.number .. ".")) .. figures
      local label = "Figure " .. number .. ":"
      -- An id to link to ("Figure 2.1" in the text becomes a link to #fig-2-1, see xref.lua).
      if img.identifier == "" then
        img.identifier = "fig-" .. number:gsub("%.", "-")
      end
      img.attributes["book-figure"] = number
      img.caption:insert(1, pandoc.Space())
      img.caption:insert(1, pandoc.Str(label))
      return p
    end,
    Link = function(link)
      local target = link.target:match("^#(.+)$")
      if target then
        if renamed[target] and not used[target] then
          link.target = "#" .. renamed[target]
          return link
        end
      end
    end,
  })
end

return M
