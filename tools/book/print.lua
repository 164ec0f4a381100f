-- print.lua: Pandoc Lua filter for the print edition (build/book.html, printed to the PDF):
-- links to repository files become plain paths (a PDF has no repository next to it), code
-- lines longer than the page's code width are folded (comments and program output rewrapped,
-- long code lines broken between tokens with a deeper indent), and identifiers in table cells
-- may break only after :: . _ / or between the words of a camelCase name.
-- Metadata: book-code-columns (characters of code a PDF line holds; mk/book.mk sets it).

package.path = pandoc.path.directory(PANDOC_SCRIPT_FILE) .. "/?.lua;" .. package.path

local fold = require("fold")

local columns = 96

local function is_repository_file(target)
  return not target:match("^#") and not target:match("^%a[%w+.-]*:") and not target:match("^/")
end

-- A link to exercises/ch02/x.cu shows its text alone: the path is in the text already.
local function Link(link)
  if is_repository_file(link.target) then
    return link.content
  end
end

-- Listings up to this many lines are never split across pages (print.css: .keep).
local KEEP_LINES = 16

local function CodeBlock(block)
  local lang = block.classes[1] or ""
  local text, changed = fold.block(block.text, columns, lang)
  block.text = text
  local _, newlines = text:gsub("\n", "")
  if newlines + 1 <= KEEP_LINES then
    block.classes:insert("keep")
    changed = true
  end
  if changed then
    return block
  end
end

-- Code in a table cell: break opportunities after :: . _ / and inside camelCase
-- (cudaFuncAttribute|NonPortable...), never elsewhere in a word. WeasyPrint ignores <wbr>,
-- so the opportunity is a zero-width space.
local ZWSP = "\u{200B}"
local function cell_code(code)
  code.text = code.text:gsub("(::)", "%1" .. ZWSP):gsub("([%._/])(%w)", "%1" .. ZWSP .. "%2")
    :gsub("(%l)(%u)", "%1" .. ZWSP .. "%2")
  return code
end

local function Table(t)
  return t:walk({ Code = cell_code })
end

local function Meta(meta)
  if meta["book-code-columns"] then
    columns = tonumber(pandoc.utils.stringify(meta["book-code-columns"])) or columns
  end
end

return {
  { Meta = Meta },
  { Link = Link, CodeBlock = CodeBlock, Table = Table },
}
