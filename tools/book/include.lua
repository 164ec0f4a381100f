-- include.lua: filter part that fills ```{include="path" marker="name"}``` code blocks from real files.

local markers = require("markers")
local files = require("files")
local errors = require("errors")
local config = require("config")

local M = {}

-- Highlighting language for a file name when the block names none (CUDA highlights as C).
local BY_EXTENSION = {
  cu = "c", cuh = "c", c = "c", h = "c", S = "gnuassembler",
  mk = "makefile", ini = "ini", sh = "bash", py = "python", lua = "lua",
}

local function language(path)
  if pandoc.path.filename(path) == "Makefile" then
    return "makefile"
  end
  return BY_EXTENSION[path:match("%.([%w]+)$") or ""]
end

-- Classes for the block: the author's, with cuda/cu spelt as c (Pandoc has no CUDA syntax).
local function classes_for(block, path)
  local out = {}
  for _, c in ipairs(block.classes) do
    if c == "cuda" or c == "cu" then
      c = "c"
    end
    table.insert(out, c)
  end
  if #out == 0 then
    table.insert(out, language(path))
  end
  return out
end

-- Replace an include block by a captioned listing, or record an error naming file and marker.
function M.CodeBlock(block)
  local path = block.attributes["include"]
  if path == nil then
    return nil
  end
  local name = block.attributes["marker"]
  local what = "include " .. path .. (name and (" marker " .. name) or "")
  if block.text:match("%S") then
    errors.add(config.source, what .. ": the code block must be empty (its text comes from the file)")
    return nil
  end
  if path == "" then
    errors.add(config.source, "include=\"\" names no file")
    return nil
  end
  local text, err = files.read(path)
  if not text then
    errors.add(config.source, string.format("%s: cannot read file %s (%s)", what, path, tostring(err)))
    return nil
  end
  local lines, rerr = markers.region(files.lines(text), name, path)
  if not lines then
    errors.add(config.source, rerr)
    return nil
  end
  block.attributes["include"] = nil
  block.attributes["marker"] = nil
  local code = pandoc.CodeBlock(table.concat(lines, "\n"),
    pandoc.Attr(block.identifier, classes_for(block, path), block.attributes))
  local caption = pandoc.Para({ pandoc.Code(path) })
  return pandoc.Div({ caption, code }, pandoc.Attr("", { "listing" }))
end

return M
