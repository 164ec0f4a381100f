-- solutions.lua: filter part that fills the ::: {.solutions} div with every exercise's full
-- solution, generated from course/*.ini and solutions/ so the appendix never drifts.

local course = require("course")
local markers = require("markers")
local files = require("files")
local errors = require("errors")
local config = require("config")

local M = {}

local LANG = { cu = "c", cuh = "c", c = "c", h = "c" }

-- Blocks for one exercise: heading, file line, and the solution inside <details>
-- (collapsed in a browser; WeasyPrint prints <details> content expanded).
local function solution_blocks(e, label)
  local path = config.solutions_dir .. "/" .. e.file
  local text, err = files.read(path)
  if not text then
    errors.add(config.source, string.format("solution of %s: cannot read %s (%s)", e.id, path, tostring(err)))
    return {}
  end
  local title = pandoc.read(e.title, "markdown").blocks
  local heading = pandoc.List({ pandoc.Str("Exercise " .. label .. ":"), pandoc.Space() })
  heading:extend(pandoc.utils.blocks_to_inlines(title))
  local info = pandoc.Para({
    pandoc.Code(path), pandoc.Space(), pandoc.Str("·"), pandoc.Space(),
    pandoc.Str(e.points .. " points"), pandoc.Space(), pandoc.Str("·"), pandoc.Space(),
    pandoc.Link({ pandoc.Str("back to the exercise") }, "#" .. e.id),
  })
  local lang = LANG[path:match("%.(%w+)$") or ""] or ""
  local code = table.concat(markers.clean(files.lines(text)), "\n")
  -- The heading and its file line stay together, and with the listing's start, on paper.
  return {
    pandoc.Div({ pandoc.Header(3, heading, pandoc.Attr("solution-" .. e.id, { "unnumbered" })), info },
      pandoc.Attr("", { "solution-head" })),
    pandoc.RawBlock("html", "<details class=\"solution\"><summary>Show the solution</summary>"),
    pandoc.CodeBlock(code, pandoc.Attr("", { lang })),
    pandoc.RawBlock("html", "</details>"),
  }
end

-- Replace the .solutions div by one section per course file, one entry per exercise.
function M.Div(div)
  if not div.classes:includes("solutions") then
    return nil
  end
  local blocks = pandoc.List(div.content)
  if #config.course_files == 0 then
    blocks:insert(pandoc.Para({ pandoc.Str("No exercises yet.") }))
  end
  for _, path in ipairs(config.course_files) do
    local parsed, problems = course.load_file(path)
    if not parsed then
      for _, p in ipairs(problems) do
        errors.add(config.source, p)
      end
    elseif #parsed.order > 0 then
      local n = tonumber(pandoc.path.filename(path):match("^ch(%d%d)") or "0")
      blocks:insert(pandoc.Header(2, { pandoc.Str("Chapter " .. n) },
        pandoc.Attr("solutions-ch" .. string.format("%02d", n), { "unnumbered" })))
      for _, id in ipairs(parsed.order) do
        blocks:extend(solution_blocks(parsed.by_id[id], course.label(parsed, id)))
      end
    end
  end
  -- The div's content replaces it: Pandoc's contents list skips headings of a div that
  -- starts with one.
  return blocks
end

return M
