-- cite.lua: link the sources the book cites, and list them at the end of each chapter.
-- Three kinds of citation in running text become links:
--   * a GitHub issue or pull request, owner/repo#123 (-> github.com/owner/repo/issues/123);
--   * an arXiv paper, "arXiv 2402.13499" or "arXiv:2402.13499" (-> arxiv.org/abs/2402.13499);
--   * a phrase of the catalog chapters/sources.ini ("the PTX memory model", "Hopper tuning
--     guide"): its first use in each chapter links to the entry's url.
-- The catalog also gives titles and authors for issues and papers (sections [owner/repo#123],
-- [arXiv:2402.13499]). Every http(s) link of a chapter, these and any written by hand, is listed
-- in the chapter's "References" section, which the build appends.

local ini = require("ini")
local files = require("files")
local phrases = require("phrases")

local M = {}

-- The catalog at `path` (missing file: an empty catalog): { by_url = {url = entry},
-- by_key = {key = entry}, index = phrases.index of the match phrases }, or nil and why.
function M.load(path)
  local catalog = { by_url = {}, by_key = {}, index = {} }
  local text = path and files.exists(path) and files.read(path)
  if not text then
    return catalog
  end
  local parsed, err = ini.parse(text, path)
  if not parsed then
    return nil, err
  end
  local candidates = {}
  for _, key in ipairs(parsed.order) do
    local e = parsed.by_id[key]
    e.key = key
    e.url = e.url or M.url_of(key)
    if not e.url then
      return nil, string.format("%s:%d: [%s] needs url = https://...", path, e.line, key)
    end
    if not e.title then
      return nil, string.format("%s:%d: [%s] needs title = ...", path, e.line, key)
    end
    catalog.by_url[e.url] = e
    catalog.by_key[key] = e
    for alt in (e.match or ""):gmatch("[^|]+") do
      alt = alt:gsub("^%s+", ""):gsub("%s+$", ""):gsub("'", "’")
      local code = alt:match("^`(.+)`$")
      local variants = { alt }
      if not code and alt:sub(1, 1):match("%l") then
        table.insert(variants, alt:sub(1, 1):upper() .. alt:sub(2))
      end
      for _, v in ipairs(variants) do
        local words = {}
        for w in (code or v):gmatch("%S+") do
          table.insert(words, w)
        end
        if #words > 0 then
          table.insert(candidates, { words = words, entry = e })
        end
      end
    end
  end
  catalog.index = phrases.index(candidates)
  return catalog
end

-- The url of a catalog key that names an issue or a paper ("NVIDIA/cutlass#1684",
-- "arXiv:2402.13499"), or nil.
function M.url_of(key)
  local repo, n = key:match("^([%w][%w%-%._]*/[%w%-%._]+)#(%d+)$")
  if repo then
    return "https://github.com/" .. repo .. "/issues/" .. n
  end
  local id = key:match("^arXiv:(%d%d%d%d%.%d%d%d%d%d?)$")
  if id then
    return "https://arxiv.org/abs/" .. id
  end
  return nil
end

local function link(content, url, entry, fallback)
  local title = entry and ((entry.by and (entry.by .. ": ") or "") .. entry.title) or fallback
  return pandoc.Link(content, url, title, pandoc.Attr("", { "cite" }))
end

-- Split a Str at an issue reference: (before, "owner/repo#N", after) or nil.
local function issue_in(text)
  local a, b, repo, n = text:find("([%w][%w%-%._]*/[%w%-_]+[%w%-%._]*)#(%d+)")
  if not a then
    return nil
  end
  -- "bench/results/x.csv#3" is a path, not a repository: a repository name has no slash
  -- before it and an owner is not a file.
  local before = text:sub(1, a - 1)
  if before:match("[%w/]$") then
    return nil
  end
  return before, repo, n, text:sub(b + 1)
end

local ARXIV = "(%d%d%d%d%.%d%d%d%d%d?)(v?%d*)"

-- Per-chapter state of M.replacer: the urls linked so far, in order of first use.
function M.state()
  return { used = {}, list = {} }
end

-- Empty `state` for the next chapter; return the references it collected: a list of
-- { url, entry (catalog, or nil), text (the link's own words) }.
function M.take(state)
  local list = state.list
  state.used, state.list = {}, {}
  return list
end

local function remember(state, catalog, l)
  if not state.used[l.target] then
    state.used[l.target] = true
    table.insert(state.list, { url = l.target, entry = catalog.by_url[l.target],
      text = pandoc.utils.stringify(l.content) })
  end
  return l
end

-- A replace function for phrases.rewrite: issues and papers link every time, catalog phrases
-- once per chapter; every http(s) link it makes or meets (written by hand) is remembered in
-- `state` (M.state) for the chapter's References.
function M.replacer(catalog, state)
  local function unused(c)
    return not state.used[c.entry.url]
  end
  local function link_to(content, url, entry, fallback)
    return remember(state, catalog, link(content, url, entry, fallback))
  end
  return function(inlines, i)
    local el = inlines[i]
    if el.t == "Link" then
      if el.target:match("^https?://") then
        remember(state, catalog, el)
      end
      return nil
    end
    if el.t == "Str" then
      local before, repo, n, after = issue_in(el.text)
      if repo then
        local key = repo .. "#" .. n
        local url = M.url_of(key)
        local out = pandoc.List()
        if before ~= "" then
          out:insert(pandoc.Str(before))
        end
        out:insert(link_to({ pandoc.Str(key) }, url, catalog.by_key[key], "GitHub: " .. key))
        if after ~= "" then
          out:insert(pandoc.Str(after))
        end
        return i, out
      end
      -- "arXiv:2402.13499," in one Str, or "(arXiv" Space "2402.13499)."
      local open, id, v, rest = el.text:match("^(.-)arXiv:" .. ARXIV .. "(.*)$")
      local last = i
      if not open then
        open = el.text:match("^([%(%[]*)arXiv$")
        local nxt = inlines[i + 2]
        if open and inlines[i + 1] and inlines[i + 1].t == "Space" and nxt and nxt.t == "Str" then
          id, v, rest = nxt.text:match("^" .. ARXIV .. "(.*)$")
          last = i + 2
        end
      end
      if id and not rest:match("^%w") then
        local key = "arXiv:" .. id
        return last, phrases.wrapped(open, link_to({ pandoc.Str("arXiv"), pandoc.Space(), pandoc.Str(id .. v) },
          M.url_of(key), catalog.by_key[key], key), rest)
      end
    end
    local cand, last, open, rest = phrases.longest(catalog.index, inlines, i, unused)
    if not cand then
      return nil
    end
    return last, phrases.wrapped(open, link_to(phrases.slice(inlines, i, last, open, rest), cand.entry.url,
      cand.entry), rest)
  end
end

-- The References section for `refs` (M.collect) of the chapter with id `chapter_id`.
function M.section(refs, chapter_id)
  local items = {}
  for _, r in ipairs(refs) do
    local inl = pandoc.List()
    local e = r.entry
    if e then
      if e.by then
        inl:extend({ pandoc.Str(e.by .. ","), pandoc.Space() })
      end
      inl:insert(pandoc.Emph(pandoc.utils.blocks_to_inlines(pandoc.read(e.title, "markdown").blocks)))
      if e.note then
        inl:extend({ pandoc.Str(","), pandoc.Space() })
        inl:extend(pandoc.utils.blocks_to_inlines(pandoc.read(e.note, "markdown").blocks))
      end
    else
      inl:insert(pandoc.Str(r.text ~= "" and r.text or r.url))
    end
    inl:extend({ pandoc.Str("."), pandoc.Space() })
    inl:insert(pandoc.Link({ pandoc.Str(r.url) }, r.url, "", pandoc.Attr("", { "url" })))
    table.insert(items, { pandoc.Plain(inl) })
  end
  local id = (chapter_id ~= "" and (chapter_id .. "-") or "") .. "references"
  return {
    pandoc.Header(2, { pandoc.Str("References") }, pandoc.Attr(id, { "unnumbered", "references" })),
    pandoc.Div({ pandoc.OrderedList(items) }, pandoc.Attr("", { "references" })),
  }
end

return M
