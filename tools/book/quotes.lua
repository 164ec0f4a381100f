-- quotes.lua: filter part that repairs straight double quotes nested in double quotes.
-- Pandoc reads "Program hit X due to "unspecified launch failure" on Y" as a quote that ends at
-- `to "` followed, with no space, by a word: a closing quote is never directly followed by a
-- letter. Such a quote is reopened as “… to ‘unspecified launch failure’ on Y”.

local M = {}

local CLOSE = "”"

local function fix(inlines)
  for i = 1, #inlines - 1 do
    local q, nxt = inlines[i], inlines[i + 1]
    if q.t == "Quoted" and q.quotetype == "DoubleQuote" and nxt.t == "Str" and nxt.text:match("^%w") then
      local inner, outer
      for j = i + 1, #inlines do
        local el = inlines[j]
        if el.t == "Str" and el.text:find(CLOSE, 1, true) then
          if not inner then
            inner = j
            if select(2, el.text:gsub(CLOSE, "")) > 1 then  -- both quotes end in one word
              outer = j
              break
            end
          else
            outer = j
            break
          end
        end
      end
      if inner and outer then
        local out = pandoc.List()
        for k = 1, i - 1 do
          out:insert(inlines[k])
        end
        out:insert(pandoc.Str("“"))
        out:extend(q.content)
        out:insert(pandoc.Space())
        out:insert(pandoc.Str("‘" .. nxt.text))
        for k = i + 2, #inlines do
          local el = inlines[k]
          if k == inner and el.t == "Str" then
            local a = el.text:find(CLOSE, 1, true)
            el = pandoc.Str(el.text:sub(1, a - 1) .. "’" .. el.text:sub(a + #CLOSE))
          end
          out:insert(el)
        end
        if inner == i + 1 then  -- the nested quote is a single word: "to "word" on"
          local a = nxt.text:find(CLOSE, 1, true)
          out[i + #q.content + 2] = pandoc.Str("‘" .. nxt.text:sub(1, a - 1) .. "’" .. nxt.text:sub(a + #CLOSE))
        end
        return fix(out)
      end
    end
  end
  return inlines
end

function M.Para(p)
  p.content = fix(p.content)
  return p
end

M.Plain = M.Para

return M
