-- ini.lua: parse course/chNN.ini exercise metadata (format in docs/CONVENTIONS.md).
--
-- [id] starts an exercise; `key = value` lines follow (split at the first '='); `hint` may
-- repeat, other keys may not; ';' starts a comment at the start of a line or after whitespace.

local M = {}

local function trim(s)
  return (s:gsub("^%s+", ""):gsub("%s+$", ""))
end

-- Cut a comment: ';' as the first non-blank character, or ';' preceded by whitespace.
local function strip_comment(line)
  if line:match("^%s*;") then
    return ""
  end
  local at = line:find("%s;")
  if at then
    return line:sub(1, at)
  end
  return line
end

-- Parse `text` read from `path`. Returns { order = {id...}, by_id = {id = entry} } where an
-- entry holds each key's value, `hint` (a list), `id` and `line`; or nil and "path:line: why".
function M.parse(text, path)
  local result = { order = {}, by_id = {} }
  local current
  local n = 0
  for raw in (text .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    local line = trim(strip_comment(raw))
    if line ~= "" then
      local section = line:match("^%[(.-)%]$")
      if section then
        section = trim(section)
        if result.by_id[section] then
          return nil, string.format("%s:%d: exercise [%s] appears twice (first at line %d)",
            path, n, section, result.by_id[section].line)
        end
        current = { id = section, line = n, hint = {} }
        result.by_id[section] = current
        table.insert(result.order, section)
      else
        local key, value = line:match("^([^=]-)%s*=%s*(.*)$")
        if not key or key == "" then
          return nil, string.format("%s:%d: expected [id] or key = value, got %q", path, n, raw)
        end
        key = trim(key)
        if not current then
          return nil, string.format("%s:%d: key '%s' before the first [id] section", path, n, key)
        end
        if key == "hint" then
          table.insert(current.hint, value)
        elseif current[key] ~= nil then
          return nil, string.format("%s:%d: key '%s' repeated in [%s]", path, n, key, current.id)
        else
          current[key] = value
        end
      end
    end
  end
  return result
end

return M
