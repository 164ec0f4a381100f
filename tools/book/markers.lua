-- markers.lua: cut a named BOOK-BEGIN/BOOK-END region out of source text and hide marker lines.
--
-- Conventions (docs/CONVENTIONS.md): a region is the lines between a line containing
-- BOOK-BEGIN(name) and the next line containing BOOK-END(name). Regions may nest; inside a
-- region, lines of other markers, `// BEGIN SOLUTION`, `// END SOLUTION` and lines whose first
-- non-blank characters are `//~` never reach the book.

local M = {}

-- True when `line` is bookkeeping for tools, never shown to a reader.
function M.is_hidden(line)
  if line:find("BOOK-BEGIN(", 1, true) or line:find("BOOK-END(", 1, true) then
    return true
  end
  if line:match("^%s*// BEGIN SOLUTION") or line:match("^%s*// END SOLUTION") then
    return true
  end
  return line:match("^%s*//~") ~= nil
end

-- Remove hidden lines, drop blank lines at both ends, and remove the indentation all
-- remaining lines share (a region cut from inside a function starts at column 0).
function M.clean(lines)
  local kept = {}
  for _, line in ipairs(lines) do
    if not M.is_hidden(line) then
      table.insert(kept, line)
    end
  end
  while #kept > 0 and kept[1]:match("^%s*$") do
    table.remove(kept, 1)
  end
  while #kept > 0 and kept[#kept]:match("^%s*$") do
    table.remove(kept)
  end
  local indent
  for _, line in ipairs(kept) do
    if not line:match("^%s*$") then
      local lead = #line:match("^[ \t]*")
      if indent == nil or lead < indent then
        indent = lead
      end
    end
  end
  if indent and indent > 0 then
    for i, line in ipairs(kept) do
      kept[i] = line:sub(indent + 1)
    end
  end
  return kept
end

-- Return the cleaned lines of region `name` in `lines` (a file's lines), or nil and a
-- message naming `path` and the marker. Without a name, return the whole file cleaned.
function M.region(lines, name, path)
  if name == nil or name == "" then
    return M.clean(lines)
  end
  if not name:match("^[%w_%.%-]+$") then
    return nil, string.format("marker name %q in %s: use letters, digits, '_', '-', '.'", name, path)
  end
  local begin_tag = "BOOK-BEGIN(" .. name .. ")"
  local end_tag = "BOOK-END(" .. name .. ")"
  local first, last
  for i, line in ipairs(lines) do
    if line:find(begin_tag, 1, true) then
      if first then
        return nil, string.format("%s:%d: marker %s appears twice (first at line %d)",
          path, i, begin_tag, first)
      end
      first = i
    elseif line:find(end_tag, 1, true) and first and not last then
      last = i
    end
  end
  if not first then
    return nil, string.format("marker '%s' not found in %s (no line contains %s)", name, path, begin_tag)
  end
  if not last then
    return nil, string.format("%s:%d: marker '%s' has %s but no %s after it",
      path, first, name, begin_tag, end_tag)
  end
  local body = {}
  for i = first + 1, last - 1 do
    table.insert(body, lines[i])
  end
  local kept = M.clean(body)
  if #kept == 0 then
    return nil, string.format("%s:%d: marker '%s' encloses no visible lines", path, first, name)
  end
  return kept, first + 1
end

return M
