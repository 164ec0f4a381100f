-- exercise.lua: filter part that turns ::: {.exercise id="chNN.name"} divs into boxed statements
-- from course/chNN.ini (assemble.lua checks that every exercise is stated).

local course = require("course")
local errors = require("errors")
local config = require("config")
local files = require("files")
local autocode = require("autocode")
local taskparts = require("taskparts")

local M = { stated = {}, stated_at = {} }

local function markdown_inlines(text)
  local doc = pandoc.read(text, "markdown")
  return pandoc.utils.blocks_to_inlines(doc.blocks)
end

local function markdown_blocks(text)
  return pandoc.read(text, "markdown").blocks
end

local function sep()
  return { pandoc.Space(), pandoc.Str("·"), pandoc.Space() }
end

-- Build the box for exercise `e` (an ini entry); `inner` is the prose written inside the div.
local function box(e, label, inner)
  local id = e.id
  local points = tonumber(e.points)
  local head = pandoc.List({ pandoc.Strong({ pandoc.Str("Exercise " .. label) }), pandoc.Space() })
  head:extend(markdown_inlines(e.title))
  head:insert(pandoc.Space())
  head:insert(pandoc.Span({ pandoc.Str(points .. (points == 1 and " point" or " points")) },
    pandoc.Attr("", { "points" })))

  local file = config.exercises_dir .. "/" .. e.file
  local meta = pandoc.List({ pandoc.Str("Edit"), pandoc.Space(),
    pandoc.Link({ pandoc.Code(file) }, config.exercise_url .. e.file) })
  if e.test and e.test ~= "" then
    meta:extend(sep())
    -- the test file is a link when it exists (the site shows it as a page of its own)
    local test = pandoc.Code(e.test)
    meta:extend({ pandoc.Str("tests:"), pandoc.Space(), files.exists(e.test) and pandoc.Link({ test }, e.test) or test })
  end

  local run = pandoc.List({ pandoc.Str("Grade:"), pandoc.Space(), pandoc.Code("make grade EX=" .. id) })
  run:extend(sep())
  run:extend({ pandoc.Str("hints:"), pandoc.Space(), pandoc.Code("make hint EX=" .. id) })
  run:extend(sep())
  run:extend({ pandoc.Link({ pandoc.Str("solution") }, "#solution-" .. id) })

  local blocks = pandoc.List({
    pandoc.Div({ pandoc.Para(head) }, pandoc.Attr("", { "exercise-head" })),
    pandoc.Div({ pandoc.Para(meta) }, pandoc.Attr("", { "exercise-meta" })),
  })
  -- Plain task text gets its identifiers in code font (autocode.lua); Markdown is kept; a task
  -- in labelled parts (Goal, You write, Rules, The tests check) shows one paragraph per part.
  blocks:extend(taskparts.parts(markdown_blocks(autocode.markdown(e.task))))
  blocks:extend(inner)
  blocks:insert(pandoc.Div({ pandoc.Para(run) }, pandoc.Attr("", { "exercise-run" })))
  return pandoc.Div(blocks, pandoc.Attr(id, { "exercise" }))
end

-- Replace an exercise div by its box, or record why it cannot be stated.
function M.Div(div)
  if not div.classes:includes("exercise") then
    return nil
  end
  local id = div.identifier
  if id == "" then
    id = div.attributes["id"] or ""
  end
  if id == "" then
    errors.add(config.source, "an .exercise div needs an id: ::: {.exercise id=\"chNN.name\"}")
    return nil
  end
  local path = course.path_for(id)
  if not path then
    errors.add(config.source, "exercise id '" .. id .. "' does not look like chNN.snake_name")
    return nil
  end
  if M.stated_at[id] then
    errors.add(config.source, "exercise " .. id .. " is stated twice")
    return nil
  end
  M.stated_at[id] = true
  table.insert(M.stated, id)
  if not files.exists(path) then
    errors.add(config.source, "exercise " .. id .. " does not exist: there is no " .. path)
    return nil
  end
  local parsed, problems = course.load_file(path)
  if not parsed then
    for _, p in ipairs(problems) do
      errors.add(config.source, p)
    end
    return nil
  end
  local e = parsed.by_id[id]
  if not e then
    errors.add(config.source, "exercise " .. id .. " does not exist: " .. path
      .. " has no [" .. id .. "] section (it has: " .. table.concat(parsed.order, ", ") .. ")")
    return nil
  end
  if config.kind ~= "chapter" or id:sub(3, 4) ~= config.nn then
    errors.add(config.source, "exercise " .. id .. " belongs to chapter " .. tonumber(id:sub(3, 4))
      .. "; state it in chapters/" .. id:sub(3, 4) .. "-*.md (link to it here with [text](#" .. id .. "))")
    return nil
  end
  local exfile = config.exercises_dir .. "/" .. e.file
  if not files.exists(exfile) then
    errors.add(config.source, "exercise " .. id .. ": " .. exfile
      .. " does not exist (course says file = " .. e.file .. "; run make skeletons?)")
    return nil
  end
  -- Not noted as a dependency: the learner edits exercises/, and that must not rebuild the book.
  return box(e, course.label(parsed, id), div.content)
end

return M
