-- files.lua: read text files for the filter and remember every file read (make's dependency list).

local M = { read_paths = {}, seen = {} }

-- Remember `path` as an input of this part (for the depfile), once.
function M.note(path)
  if not M.seen[path] then
    M.seen[path] = true
    table.insert(M.read_paths, path)
  end
end

-- Return the contents of `path` with CR-LF turned into LF, or nil and the reason.
function M.read(path)
  local f, err = io.open(path, "rb")
  if not f then
    return nil, err
  end
  M.note(path)
  local text = f:read("a")
  f:close()
  return (text:gsub("\r\n", "\n"))
end

-- True when `path` names an existing readable file.
function M.exists(path)
  local f = io.open(path, "rb")
  if f then
    f:close()
    return true
  end
  return false
end

-- Split text into a table of lines (without their newlines); a final newline adds no empty line.
function M.lines(text)
  local out = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do
    table.insert(out, line)
  end
  if #out > 0 and out[#out] == "" and text:sub(-1) == "\n" then
    table.remove(out)
  end
  return out
end

-- Write a make depfile: `target` depends on every file read; files outside build/ get empty
-- rules so that deleting one makes make rebuild the part instead of stopping (like gcc -MP).
function M.write_depfile(depfile, target)
  local f = assert(io.open(depfile, "w"))
  f:write(target .. ":")
  for _, p in ipairs(M.read_paths) do
    f:write(" \\\n  " .. p)
  end
  f:write("\n")
  for _, p in ipairs(M.read_paths) do
    if not p:match("^build/") then
      f:write("\n" .. p .. ":\n")
    end
  end
  f:close()
end

return M
