-- config.lua: settings of one filter run, from the input file name and `-M book-*` metadata.

local M = {
  source = "",            -- the Markdown file being converted (chapters/02-ring.md)
  kind = "front",         -- "front" (book.md), "chapter" (NN < 90) or "appendix" (NN >= 90)
  number = nil,           -- chapter number (2) or appendix letter ("A")
  nn = nil,               -- the two digits of the file name ("02")
  course_dir = "course",  -- where chNN.ini live
  course_files = {},      -- every course/*.ini, in order (for the solutions appendix)
  exercises_dir = "exercises",
  solutions_dir = "solutions",
  exercise_url = "exercises/",  -- link prefix for exercise files, from the repository root (site.py
                                -- makes it relative to the site; print.lua unlinks it)
  depfile = nil,          -- where to write make's dependency list
  target = nil,           -- the part being made (the depfile's target)
  strict = false,         -- book-check: an exercise not stated in its chapter is an error
  sources = "chapters/sources.ini",  -- the catalog of cited documents (cite.lua)
  facts = nil,            -- where chapter.lua writes the part's facts (partinfo.lua) for the site
}

-- Split text into words (runs of non-space).
local function words(s)
  local out = {}
  for w in s:gmatch("%S+") do
    table.insert(out, w)
  end
  return out
end

-- Work out the chapter from the input file name (NN-slug.md) and read book-* metadata,
-- removing it so that it does not travel into the assembled book.
function M.load(meta)
  M.source = PANDOC_STATE.input_files[1] or ""
  local nn = pandoc.path.filename(M.source):match("^(%d%d)%-")
  if nn then
    M.nn = nn
    local n = tonumber(nn)
    if n >= 90 then
      M.kind = "appendix"
      M.number = string.char(string.byte("A") + n - 90)
    else
      M.kind = "chapter"
      M.number = n
    end
  end
  local function get(key)
    local v = meta[key]
    meta[key] = nil
    if v == nil then
      return nil
    elseif type(v) == "boolean" then  -- -M key=true arrives as a YAML boolean
      return tostring(v)
    end
    return pandoc.utils.stringify(v)
  end
  M.course_dir = get("book-course-dir") or M.course_dir
  M.exercises_dir = get("book-exercises-dir") or M.exercises_dir
  M.solutions_dir = get("book-solutions-dir") or M.solutions_dir
  M.exercise_url = get("book-exercise-url") or M.exercise_url
  M.course_files = words(get("book-course-files") or "")
  M.depfile = get("book-depfile")
  M.target = get("book-target")
  M.strict = (get("book-strict") or "") == "true"
  M.sources = get("book-sources") or M.sources
  M.facts = get("book-facts")
  return meta
end

M.words = words

return M
