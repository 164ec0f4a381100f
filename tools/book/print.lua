-- print.lua: Pandoc Lua filter for the print edition (build/book.html, printed to the PDF):
-- links to repository files become plain paths (a PDF has no repository next to it), code
-- lines longer than the page's code width are folded (comments and program output rewrapped,
-- long code lines broken between tokens with a deeper indent), and identifiers in table cells
-- may break only after :: . _ / or between the words of a camelCase name. Text marked
-- [...]{.web-only} (words about hovering or clicking) is left out; [...]{.print-only} stays.
-- Every SVG figure gets the printed width at which its smallest label is at least
-- MIN_LABEL_PT (a tall figure may then exceed print.css's usual 105 mm).
-- Metadata: book-code-columns (characters of code a PDF line holds; mk/book.mk sets it).

package.path = pandoc.path.directory(PANDOC_SCRIPT_FILE) .. "/?.lua;" .. package.path

local fold = require("fold")

local columns = 96

local COLUMN_MM = 174       -- A4 less print.css's side margins
local MAX_HEIGHT_MM = 105   -- print.css: a figure no taller than this, unless its labels need it
local MIN_LABEL_PT = 6.5    -- check_pdf.py measures this in the PDF
local PX_MM = 25.4 / 96     -- an SVG pixel (CSS px) in millimetres

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
local KEEP_LINES = 10

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

-- (width, height, smallest font size) of an SVG file in px, or nil.
local function svg_size(path)
  local f = io.open(path, "rb")
  if not f then
    return nil
  end
  local svg = f:read(400000)
  f:close()
  local tag = svg:match("<svg%f[%s][^>]*>")
  local w = tag and tonumber(tag:match('%swidth="([%d.]+)'))
  local h = tag and tonumber(tag:match('%sheight="([%d.]+)'))
  local least
  for size in svg:gmatch('font%-size[=:]%s*["\']?([%d.]+)') do
    size = tonumber(size)
    least = (not least or size < least) and size or least
  end
  if w and h and least then
    return w, h, least
  end
  return nil
end

-- The printed width of a figure: the column (or its own size, if smaller); if that makes it
-- taller than MAX_HEIGHT_MM, shrink it, but not below the size at which its smallest label
-- prints at MIN_LABEL_PT.
local function figure_width_mm(w, h, font)
  local scale = math.min(1, COLUMN_MM / (w * PX_MM))
  if h * PX_MM * scale > MAX_HEIGHT_MM then
    local short = MAX_HEIGHT_MM / (h * PX_MM)
    local legible = MIN_LABEL_PT / (font * 0.75)
    scale = math.min(scale, math.max(short, legible))
  end
  return w * PX_MM * scale
end

local function Image(img)
  if img.src:match("%.svg$") then
    local w, h, font = svg_size(img.src)
    if w then
      img.attributes["style"] = string.format("width: %.1fmm; max-height: none", figure_width_mm(w, h, font))
      return img
    end
  end
end

-- Words for the screen only go; words for paper only stay, without their span.
local function Span(span)
  if span.classes:includes("web-only") then
    return {}
  elseif span.classes:includes("print-only") then
    return span.content
  end
end

local function Div(div)
  if div.classes:includes("web-only") then
    return {}
  elseif div.classes:includes("print-only") then
    return div.content
  end
end

-- A paragraph that ends in a colon leads in to the listing, figure or box after it: it goes in
-- a div.lead-in, which print.css keeps on the same page as what follows.
local function Blocks(blocks)
  local out, changed = pandoc.List(), false
  for i, b in ipairs(blocks) do
    local nxt = blocks[i + 1]
    local last = b.t == "Para" and b.content[#b.content]
    if last and last.t == "Str" and last.text:match(":$") and nxt and (nxt.t == "CodeBlock" or nxt.t == "Div"
        or (nxt.t == "Para" and #nxt.content == 1 and nxt.content[1].t == "Image")) then
      out:insert(pandoc.Div({ b }, pandoc.Attr("", { "lead-in" })))
      changed = true
    else
      out:insert(b)
    end
  end
  if changed then
    return out
  end
end

local function Meta(meta)
  if meta["book-code-columns"] then
    columns = tonumber(pandoc.utils.stringify(meta["book-code-columns"])) or columns
  end
end

return {
  { Meta = Meta },
  { Link = Link, CodeBlock = CodeBlock, Table = Table, Image = Image, Span = Span, Div = Div },
  { Blocks = Blocks },
}
