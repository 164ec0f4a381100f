-- mathfrac.lua: filter part that rewrites \frac{a}{b} as a/b in TeX math, because Pandoc's
-- HTML text math (the only kind both browsers and WeasyPrint show offline) cannot stack it,
-- and \mathtt{word} as \texttt{word}, which it shows as one word in code font.

local M = {}

-- Return the text of the {group} starting at position i of s (s:sub(i, i) == "{") and the
-- position after it, or nil when the braces do not balance.
local function group(s, i)
  if s:sub(i, i) ~= "{" then
    return nil
  end
  local depth = 0
  for j = i, #s do
    local c = s:sub(j, j)
    if c == "{" then
      depth = depth + 1
    elseif c == "}" then
      depth = depth - 1
      if depth == 0 then
        return s:sub(i + 1, j - 1), j + 1
      end
    end
  end
  return nil
end

-- A numerator or denominator keeps its own brackets when it is more than one term.
local function operand(t)
  if t:match("^%s*[%w\\_%^{}%.]+%s*$") then
    return "{" .. t .. "}"
  end
  return "\\left(" .. t .. "\\right)"
end

-- Rewrite every \frac, \dfrac and \tfrac in `tex`, innermost included.
function M.linearise(tex)
  local out, i = {}, 1
  while true do
    local s, e = tex:find("\\[dt]?frac%s*", i)
    if not s then
      table.insert(out, tex:sub(i))
      break
    end
    local a, after_a = group(tex, e + 1)
    local b, after_b
    if a then
      b, after_b = group(tex, after_a)
    end
    if not b then
      table.insert(out, tex:sub(i, e))
      i = e + 1
    else
      table.insert(out, tex:sub(i, s - 1))
      table.insert(out, operand(M.linearise(a)) .. "/" .. operand(M.linearise(b)))
      i = after_b
    end
  end
  return table.concat(out)
end

-- \mathtt{bins\_per\_block} comes out of Pandoc's HTML math one letter per <code>; \texttt
-- gives one <code> for the whole word.
function M.monospace(tex)
  return (tex:gsub("\\mathtt%s*{", "\\texttt{"))
end

function M.Math(m)
  local text = M.monospace(m.text)
  if text:find("frac", 1, true) then
    text = M.linearise(text)
  end
  if text ~= m.text then
    m.text = text
    return m
  end
end

return M
