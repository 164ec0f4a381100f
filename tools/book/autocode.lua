-- autocode.lua: put the identifiers of plain exercise text (course/*.ini `task`) in code font.
-- Text already in backticks is left as written. An identifier is a word with an
-- underscore (dsm_cluster_sync, bins_per_block, __shared__), a PTX register (%cluster_ctarank),
-- a camelCase word (blockIdx, cudaErrorLaunchFailure), a call (linear_rank(pos, dims),
-- sync()), an index or member access (out[blockIdx.x], dims.x), a PTX state space
-- (mapa.shared::cluster), a file path (ch02/linear_rank.h) or the instruction name mapa.

local M = {}

local KNOWN = { mapa = true }   -- instruction names used as words in the text
local EXTENSIONS = { c = true, cu = true, h = true, cuh = true, ini = true, md = true, csv = true }

-- The identifier starting at position i of s (a word start), or nil: returns its end.
local function scan(s, i)
  local a, b = s:find("^%%?[%a_][%w_]*", i)
  if not a then
    return nil
  end
  local base = s:sub(a, b)
  local camel = base:match("^%l") and base:find("%l%u")
  local qualifies = base:find("_", 1, true) or base:sub(1, 1) == "%" or camel or KNOWN[base]
  local j = b + 1
  while true do
    local m = s:match("^%.[%a_][%w_]*", j) or s:match("^::[%a_][%w_]*", j) or s:match("^/[%w_]+", j)
    local call = s:match("^%b()", j)
    local index = s:match("^%b[]", j)
    if m then
      if m:match("^%.[xyz]$") and #base > 1 then
        qualifies = true
      elseif m:match("^%.%a+$") and m:find("_", 1, true) then
        qualifies = true
      elseif m:sub(1, 1) == "/" or m:sub(1, 2) == "::" then
        qualifies = qualifies or m:sub(1, 2) == "::" or s:sub(a, j - 1):find("/", 1, true)
      elseif EXTENSIONS[m:match("^%.(%a+)$") or ""] then
        qualifies = true
      end
      if m:sub(1, 1) == "/" then
        qualifies = true
      end
      j = j + #m
    elseif call and (qualifies or call == "()") then
      qualifies = true
      j = j + #call
    elseif index and (qualifies or #base > 1) and not index:find("%s") then
      qualifies = true
      j = j + #index
    else
      break
    end
  end
  if qualifies then
    return j - 1
  end
  return nil
end

-- Return `text` with its identifiers in backticks; what is already in backticks stays as it is.
function M.markdown(text)
  if text:find("`", 1, true) then
    local out, i = {}, 1
    while i <= #text do
      local a, b = text:find("(`+).-%1", i)
      if not a then
        table.insert(out, M.plain(text:sub(i)))
        break
      end
      table.insert(out, M.plain(text:sub(i, a - 1)))
      table.insert(out, text:sub(a, b))
      i = b + 1
    end
    return table.concat(out)
  end
  return M.plain(text)
end

-- `text` (no backticks in it) with its identifiers in backticks.
function M.plain(text)
  local out, i, n = {}, 1, #text
  while i <= n do
    local prev = i > 1 and text:sub(i - 1, i - 1) or " "
    local stop = nil
    if not prev:match("[%w_%%%./:@-]") then  -- not inside a word, path, URL or address
      stop = scan(text, i)
    end
    if stop then
      table.insert(out, "`" .. text:sub(i, stop) .. "`")
      i = stop + 1
    else
      table.insert(out, text:sub(i, i))
      i = i + 1
    end
  end
  return table.concat(out)
end

return M
