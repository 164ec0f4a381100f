-- figures.lua: filter part that checks every image a chapter shows exists (plots included).

local files = require("files")
local errors = require("errors")
local config = require("config")
local plotmeta = require("plotmeta")

local M = {}

-- The CSV a plot script draws: the path on its line `# csv: <path>`, else
-- bench/results/NAME.csv (the same rule as mk/book.mk's book_plot_csv).
function M.plot_csv(script)
  local text = files.exists(script) and files.read(script) or ""
  for _, line in ipairs(files.lines(text)) do
    local path = line:match("^#%s*csv:%s*(%S+)")
    if path then
      return path
    end
  end
  return "bench/results/" .. pandoc.path.filename(script):gsub("%.gp$", "") .. ".csv"
end

-- Record an error for an image that the book could not embed.
function M.Image(img)
  local src = img.src
  if src:match("^data:") then
    return nil
  end
  if src:match("^%a[%w+.-]*://") then
    errors.add(config.source, "image " .. src .. " is remote; the book is one self-contained page: "
      .. "save it under figures/ and refer to it by path")
    return nil
  end
  local plot = src:match("^build/figures/([%w_%-]+)%.svg$")
  if files.exists(src) then
    files.note(src)
    if plot then
      -- A plot's caption says where its data was measured: GPU, driver, clock, date, file.
      local where = plotmeta.sentence(M.plot_csv("figures/plots/" .. plot .. ".gp"))
      if where ~= "" then
        img.caption:extend({ pandoc.Space(), pandoc.Str(where) })
        return img
      end
    end
    return nil
  end
  if plot then
    local script = "figures/plots/" .. plot .. ".gp"
    local csv = M.plot_csv(script)
    if not files.exists(script) then
      errors.add(config.source, "plot " .. src .. " has no script: write " .. script)
    elseif not files.exists(csv) then
      errors.add(config.source, "plot " .. src .. " needs " .. csv .. " (made by make bench on a "
        .. "Hopper GPU and committed); " .. script .. " turns it into the plot")
    else
      errors.add(config.source, "plot " .. src .. " was not made from " .. csv
        .. " (run make book, which runs " .. script .. ")")
    end
    return nil
  end
  errors.add(config.source, "image " .. src .. " not found (paths are relative to the repository root)")
  return nil
end

return M
