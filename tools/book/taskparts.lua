-- taskparts.lua: an exercise's statement (course/*.ini `task`) in its four labelled parts.
-- The task is one line of Markdown in which the parts start with bold labels:
--   task = **Goal:** ... **You write:** ... **Rules:** ... **The tests check:** ...
-- parts() turns that paragraph into one paragraph per part, each led by its label, so that the
-- site and the PDF show four short blocks; a task without the labels is kept as written.

local M = {}

M.LABELS = { "Goal", "You write", "Rules", "The tests check" }

local is_label = {}
for _, l in ipairs(M.LABELS) do
  is_label[l] = true
end

-- The label an inline starts a part with (a Strong holding exactly "Label:"), or nil.
local function label_of(inline)
  if inline.t ~= "Strong" then
    return nil
  end
  local text = pandoc.utils.stringify(inline):gsub(":$", "")
  return is_label[text] and text or nil
end

-- Blocks of a task: a single paragraph with labelled parts becomes one paragraph per part.
function M.parts(blocks)
  if #blocks ~= 1 or blocks[1].t ~= "Para" then
    return blocks
  end
  local out, current = pandoc.List(), nil
  for _, inline in ipairs(blocks[1].content) do
    local label = label_of(inline)
    if label then
      if current then
        out:insert(current)
      end
      current = pandoc.Para({ pandoc.Strong({ pandoc.Str(label .. ":") }) })
    elseif current then
      if not (#current.content == 1 and (inline.t == "Space" or inline.t == "SoftBreak")) then
        current.content:insert(inline)
      end
    else
      return blocks   -- text before the first label: not in parts
    end
  end
  if current then
    out:insert(current)
  end
  for _, p in ipairs(out) do
    while #p.content > 1 and (p.content[#p.content].t == "Space" or p.content[#p.content].t == "SoftBreak") do
      p.content:remove()
    end
    p.content:insert(2, pandoc.Space())
    if #p.content >= 3 and p.content[3].t == "Space" then
      p.content:remove(3)
    end
  end
  return #out > 0 and out or blocks
end

return M
