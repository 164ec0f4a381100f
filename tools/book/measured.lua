-- measured.lua: filter part that turns a ::: {.measured} div (how a section's numbers were taken:
-- GPU, driver, clock, date, command, data file, earlier runs) into a box titled "How we measured":
-- a collapsed <details> on the site, a small-type note in the print edition (WeasyPrint prints
-- <details> expanded; print.css and site.css style both).

local errors = require("errors")
local config = require("config")

local M = {}

local TITLE = "How we measured"

-- Replace a .measured div by its box; an empty one is an error (a box must say something).
function M.Div(div)
  if not div.classes:includes("measured") then
    return nil
  end
  if #div.content == 0 then
    errors.add(config.source, "a ::: {.measured} box is empty: say how the section's numbers were measured")
    return {}
  end
  local blocks = pandoc.List({ pandoc.RawBlock("html", "<details class=\"measured\"><summary>" .. TITLE .. "</summary>") })
  blocks:extend(div.content)
  blocks:insert(pandoc.RawBlock("html", "</details>"))
  return blocks
end

return M
