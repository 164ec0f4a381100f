-- fold.lua: fold code lines that are wider than a printed page, the way a person would:
-- comments and program output are rewrapped at word boundaries under their own indent, a
-- trailing comment moves above its code line, and a long code line breaks between tokens
-- with its continuation indented 8 more columns. Used by print.lua (the PDF edition only).

local M = {}

local function width(s)
  return utf8.len(s) or #s
end

local words_of = require("config").words

-- Fill words into lines: the first starts with `first`, the others with `rest`; `limit` columns.
-- A word longer than a line gets a line of its own.
function M.fill(text, limit, first, rest)
  local lines, line, empty = {}, first, true
  for _, w in ipairs(words_of(text)) do
    if not empty and width(line) + 1 + width(w) > limit then
      table.insert(lines, line)
      line, empty = rest .. w, false
    else
      line = line .. (empty and "" or " ") .. w
      empty = false
    end
  end
  table.insert(lines, line)
  return lines
end

-- True when position `at` of a C line is outside string and character literals.
local function outside_literals(line, at)
  local quote, i = nil, 1
  while i < at do
    local c = line:sub(i, i)
    if quote then
      if c == "\\" then
        i = i + 1
      elseif c == quote then
        quote = nil
      end
    elseif c == '"' or c == "'" then
      quote = c
    end
    i = i + 1
  end
  return quote == nil
end

-- Break a code line between tokens (at a space outside literals, after the indent);
-- `suffix` ends every broken line (" \\" for shell and preprocessor lines).
local function break_code(line, limit, suffix)
  local indent = line:match("^(%s*)")
  local out = {}
  local cont = indent .. string.rep(" ", 8)
  while width(line) > limit do
    local best
    for pos in line:gmatch("() ") do
      local before = line:sub(1, pos - 1)
      if pos > #indent + 1 and width(before) + #suffix <= limit and before:match("%S$")
        and outside_literals(line, pos) then
        best = pos
      end
    end
    if not best then
      -- Nothing to break at, but an indent deeper than the page: move the text left until it
      -- ends at the margin (a continuation aligned far right under an opening parenthesis).
      local body = line:gsub("^%s+", "")
      if width(body) <= limit then
        line = string.rep(" ", limit - width(body)) .. body
      end
      break
    end
    table.insert(out, line:sub(1, best - 1) .. suffix)
    line = cont .. line:sub(best + 1):gsub("^%s+", "")
  end
  table.insert(out, line)
  return out
end

local C_LIKE = { c = true, cpp = true, cuda = true, h = true, [""] = false }
local SHELL = { sh = true, bash = true, shell = true, console = true, make = true, makefile = true }

-- Fold one line of C (or CUDA) code.
local function fold_c(line, limit)
  local indent, body = line:match("^(%s*)/%*+%s*(.-)%s*%*/%s*$")
  if indent and not body:find("*/", 1, true) then              -- /* a whole-line comment */
    local lines = M.fill(body .. " */", limit, indent .. "/* ", indent .. "   ")
    return lines
  end
  local lead, text = line:match("^(%s*//+%s?)(.*)$")
  if lead then                                                 -- // a whole-line comment
    return M.fill(text, limit, lead, lead)
  end
  local star, rest = line:match("^(%s*%*%s)(.*)$")
  if star and not line:match("^%s*%*/") then                   -- * inside a block comment
    return M.fill(rest, limit, star, star)
  end
  local code, comment = line:match("^(.-%S)%s+(/%*.-%*/)%s*$")
  if not code then
    code, comment = line:match("^(.-%S)%s+(//.*)$")
  end
  if code and outside_literals(line, #code + 1) then          -- code  /* trailing comment */
    local ind = code:match("^(%s*)")
    local out = fold_c(ind .. comment, limit)
    for _, l in ipairs(fold_c(code, limit)) do
      table.insert(out, l)
    end
    return out
  end
  return break_code(line, limit, line:match("^%s*#") and " \\" or "")
end

-- Fold one line of program output: continuation lines hang under the text after a label
-- ("  fix       use an atomic ..." continues under "use"; `column`, the block's usual label
-- width, also serves a label with one space: "  last wait this ..."), or 4 columns in.
local function fold_output(line, limit, column)
  local label = line:match("^(%s*%S+%s%s+)%S")
  local indent = line:match("^(%s*)")
  if not label and column and column > #indent + 1 and line:sub(column, column) == " "
    and line:sub(column + 1, column + 1):match("%S") then
    label = line:sub(1, column)
  end
  local hang = label and string.rep(" ", width(label)) or (indent .. "    ")
  local first = label or indent
  return M.fill(line:sub(#first + 1), limit, first, hang)
end

-- Fold every line of `text` (a code block in language `lang`) wider than `limit` columns.
-- Returns the new text and whether anything changed.
function M.block(text, limit, lang)
  local out, changed = {}, false
  -- Program output: the most common label width of the block's lines.
  local column
  if not C_LIKE[lang] and not SHELL[lang] then
    local counts, best = {}, 0
    for line in (text .. "\n"):gmatch("(.-)\n") do
      local label = line:match("^(%s*%S+%s%s+)%S")
      if label then
        counts[#label] = (counts[#label] or 0) + 1
        if counts[#label] > best or (counts[#label] == best and #label < column) then
          best, column = counts[#label], #label
        end
      end
    end
  end
  for line in (text .. "\n"):gmatch("(.-)\n") do
    line = line:gsub("\t", "    ")
    if width(line) <= limit then
      table.insert(out, line)
    else
      changed = true
      local folded
      if C_LIKE[lang] then
        folded = fold_c(line, limit)
      elseif SHELL[lang] then
        folded = break_code(line, limit, " \\")
      else
        folded = fold_output(line, limit, column)
      end
      for _, l in ipairs(folded) do
        table.insert(out, l)
      end
    end
  end
  return table.concat(out, "\n"), changed
end

return M
