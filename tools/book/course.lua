-- course.lua: look up exercises in course/chNN.ini, checked once per file, cached.

local ini = require("ini")
local files = require("files")
local config = require("config")

local M = { cache = {} }

local REQUIRED = { "chapter", "file", "points", "title", "task" }

-- Check one parsed ini against the conventions; return a list of problems ("path: ...").
local function validate(parsed, path, nn)
  local problems = {}
  for _, id in ipairs(parsed.order) do
    local e = parsed.by_id[id]
    local where = string.format("%s:%d: [%s]", path, e.line, id)
    if not id:match("^ch%d%d%.[%l%d_]+$") then
      table.insert(problems, where .. " id must look like chNN.snake_name")
    elseif nn and id:sub(3, 4) ~= nn then
      table.insert(problems, where .. " belongs in course/ch" .. id:sub(3, 4) .. ".ini")
    end
    for _, key in ipairs(REQUIRED) do
      if e[key] == nil or e[key] == "" then
        table.insert(problems, where .. " has no '" .. key .. "'")
      end
    end
    if e.points and not e.points:match("^%d+$") then
      table.insert(problems, where .. " points must be a whole number, got '" .. e.points .. "'")
    end
    if e.chapter and nn and tonumber(e.chapter) ~= tonumber(nn) then
      table.insert(problems, where .. " says chapter = " .. e.chapter .. " in " .. path)
    end
  end
  return problems
end

-- Load `path` (a chNN.ini); return the parsed table, or nil and a list of problems.
function M.load_file(path)
  local hit = M.cache[path]
  if hit then
    return hit.parsed, hit.problems
  end
  local text, err = files.read(path)
  local parsed, problems
  if not text then
    problems = { "cannot read " .. path .. " (" .. tostring(err) .. ")" }
  else
    local perr
    parsed, perr = ini.parse(text, path)
    if not parsed then
      problems = { perr }
    else
      local nn = pandoc.path.filename(path):match("^ch(%d%d)%.ini$")
      problems = validate(parsed, path, nn)
      if #problems > 0 then
        parsed = nil
      end
    end
  end
  M.cache[path] = { parsed = parsed, problems = problems }
  return parsed, problems
end

-- The ini file that must hold exercise `id` (ch02.x -> course/ch02.ini), or nil for a bad id.
function M.path_for(id)
  local nn = id:match("^ch(%d%d)%.")
  if not nn then
    return nil
  end
  return pandoc.path.join({ config.course_dir, "ch" .. nn .. ".ini" })
end

-- Number of `id` within its chapter ("2.3" for the third exercise of course/ch02.ini).
function M.label(parsed, id)
  for i, other in ipairs(parsed.order) do
    if other == id then
      return string.format("%d.%d", tonumber(id:sub(3, 4)), i)
    end
  end
  return "?"
end

return M
