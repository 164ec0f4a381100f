-- plotmeta.lua: where a plot's data was measured (GPU, driver, SM clock, date), read from its
-- CSV's columns gpu, driver, sm_clock_mhz and date (first data row), with the run's machine.txt in
-- the CSV's folder filling what the CSV lacks, and lines `# date: 2026-11-29` (or gpu, driver,
-- sm_clock_mhz) of the plot script saying what neither says or correcting it; figures.lua
-- adds the sentence to the plot's caption.

local files = require("files")

local M = {}

-- Split one CSV line into fields ("a,""b"",c" quoting as in RFC 4180).
function M.split_csv(line)
  local out, i, n = {}, 1, #line
  while i <= n + 1 do
    if line:sub(i, i) == '"' then
      local buf, j = {}, i + 1
      while j <= n do
        local c = line:sub(j, j)
        if c == '"' and line:sub(j + 1, j + 1) == '"' then
          table.insert(buf, '"')
          j = j + 2
        elseif c == '"' then
          j = j + 1
          break
        else
          table.insert(buf, c)
          j = j + 1
        end
      end
      table.insert(out, table.concat(buf))
      i = line:find(",", j, true) or n + 1
      i = i + 1
    else
      local j = line:find(",", i, true) or n + 1
      table.insert(out, line:sub(i, j - 1))
      i = j + 1
    end
  end
  return out
end

local KEYS = { "gpu", "driver", "sm_clock_mhz", "date" }

-- { gpu=, driver=, sm_clock_mhz=, date= } (any may be nil) for the CSV at `path`; `script`
-- (optional) is the plot script, whose `# key: value` lines win.
function M.read(path, script)
  local meta = {}
  local text = files.read(path)
  if text then
    local lines = {}
    for _, l in ipairs(files.lines(text)) do
      if not l:match("^%s*#") and l:match("%S") then  -- comments, as gnuplot skips them
        table.insert(lines, l)
      end
    end
    local head, row = M.split_csv(lines[1] or ""), M.split_csv(lines[2] or "")
    for k, name in ipairs(head) do
      name = name:gsub("^%s+", ""):gsub("%s+$", "")
      if row[k] and row[k] ~= "" then
        meta[name] = row[k]
      end
    end
  end
  -- the run's machine.txt (what bench/driver/machine.c writes: "gpu: ...", "driver: ...",
  -- "SM clock (cudaDevAttrClockRate): 1980 MHz", "date: ...") fills what the CSV lacks
  local machine_path = pandoc.path.join({ pandoc.path.directory(path), "machine.txt" })
  local machine = files.exists(machine_path) and files.read(machine_path)
  for _, line in ipairs(machine and files.lines(machine) or {}) do
    local name, value = line:match("^([^:]+):%s*(.-)%s*$")
    local key = ({ gpu = "gpu", driver = "driver", date = "date",
                   ["SM clock (cudaDevAttrClockRate)"] = "sm_clock_mhz" })[name or ""]
    if key and not meta[key] and value ~= "" then
      meta[key] = key == "sm_clock_mhz" and value:match("^(%d+)") or value
    end
  end
  local own = script and files.exists(script) and files.read(script)
  for _, line in ipairs(own and files.lines(own) or {}) do
    local key, value = line:match("^#%s*([%w_]+):%s*(.-)%s*$")
    for _, k in ipairs(KEYS) do
      if key == k and value ~= "" then
        meta[k] = value
      end
    end
  end
  return meta
end

-- A driver column holding cudaDriverGetVersion()'s number (13000) names the CUDA version.
function M.driver(value)
  local n = value and value:match("^%d+$") and tonumber(value)
  if n and n >= 1000 then
    return string.format("CUDA %d.%d", n // 1000, (n % 1000) // 10)
  end
  return value and ("driver " .. value)
end

-- The sentence for a caption, as text: "Measured on NVIDIA H200 (driver …, SM clock 1980 MHz),
-- 2026-11-29; data: bench/results/x.csv." Empty when the CSV names no GPU.
function M.sentence(path, script)
  local m = M.read(path, script)
  if not m.gpu then
    return ""
  end
  local details = {}
  if m.driver then
    table.insert(details, M.driver(m.driver))
  end
  if m.sm_clock_mhz then
    table.insert(details, "SM clock " .. m.sm_clock_mhz .. " MHz")
  end
  local s = "Measured on " .. m.gpu
  if #details > 0 then
    s = s .. " (" .. table.concat(details, ", ") .. ")"
  end
  if m.date then
    s = s .. ", " .. m.date:sub(1, 10)
  end
  return s .. "; data: " .. path .. ".", m
end

return M
