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

-- Words of `text` as Pandoc inlines (Str and Space).
local function inlines(text)
  local out = pandoc.List()
  for w in text:gmatch("%S+") do
    if #out > 0 then
      out:insert(pandoc.Space())
    end
    out:insert(pandoc.Str(w))
  end
  return out
end

-- A plot's caption says once where its data was measured: the build appends "Measured on GPU
-- (driver, clock), date; data: file." (plotmeta.lua), so the author's caption must not name the
-- file or the date itself, and the data must have a date.
function M.plot_caption(img, src, script)
  local csv = M.plot_csv(script)
  local sentence, m = plotmeta.sentence(csv, script)
  if sentence == "" then
    return nil
  end
  local said = pandoc.utils.stringify(img.caption)
  local twice = {}
  for _, s in ipairs({ csv, pandoc.path.filename(csv), "Data:", m.date and m.date:sub(1, 10) }) do
    if s and said:find(s, 1, true) then
      table.insert(twice, "'" .. s .. "'")
    end
  end
  if #twice > 0 then
    errors.add(config.source, "plot " .. src .. ": its caption names " .. table.concat(twice, " and ")
      .. "; the build adds 'Measured on " .. m.gpu .. " ..., date; data: " .. csv .. ".' itself, "
      .. "so say it once: remove that from the caption")
  end
  if not m.date then
    errors.add(config.source, "plot " .. src .. ": " .. csv .. " says nowhere when it was measured: "
      .. "give it a date column, or add a line '# date: YYYY-MM-DD' to " .. script)
  end
  local text = sentence:gsub("; data: .*$", "; data:")
  img.caption:insert(pandoc.Space())
  img.caption:extend(inlines(text))
  img.caption:extend({ pandoc.Space(), pandoc.Link({ pandoc.Code(csv) }, csv), pandoc.Str(".") })
  return img
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
      return M.plot_caption(img, src, "figures/plots/" .. plot .. ".gp")
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
