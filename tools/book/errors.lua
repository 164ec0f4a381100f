-- errors.lua: collect book build errors so one run reports all of them, then fails the build.

local M = { list = {} }

-- Record one error; `where` names the Markdown file (or nil), `msg` says what and what to do.
function M.add(where, msg)
  if where and where ~= "" then
    msg = where .. ": " .. msg
  end
  table.insert(M.list, msg)
end

-- Print a warning now: something `make book-check` fails on but that does not stop the book.
function M.warn(where, msg)
  io.stderr:write("book: warning: " .. ((where and where ~= "") and (where .. ": ") or "") .. msg .. "\n")
end

-- Print every recorded error as `book: error: ...` and exit 1; return quietly when there are none.
function M.finish()
  if #M.list == 0 then
    return
  end
  for _, msg in ipairs(M.list) do
    io.stderr:write("book: error: " .. msg .. "\n")
  end
  io.stderr:write(string.format("book: %d error(s); the book was not built.\n", #M.list))
  os.exit(1)
end

return M
