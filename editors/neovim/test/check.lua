-- Headless check of the Neovim runtime files in editors/neovim:
--   filetype detection (ftdetect/dyno.vim and vim.filetype.add), the ftplugin,
--   syntax/dyno.vim on every example, syntax fixture and grammar test file,
--   lsp/dyno.lua's shape, and starting the language server — with a stand-in
--   server (fake_dyno_lsp.py) as `dyno` on PATH, through plugin/dyno.lua on
--   Neovim 0.7-0.10 and vim.lsp.enable('dyno') on 0.11+.
--
-- Run from the repository root (tests/editors_vscode.rs does this):
--   nvim --headless --clean -i NONE --cmd 'set rtp^=editors/neovim' \
--        -c 'luafile editors/neovim/test/check.lua' -c 'cquit 2'
-- Exits 0 when every check passes, 1 when one fails (failures on stderr), and
-- 2 (the trailing cquit) when the script itself cannot run.

local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local nvim_dir = vim.fn.fnamemodify(here, ':h')
local root = vim.fn.fnamemodify(nvim_dir, ':h:h')

local failures = {}
local checks = 0
local function check(ok, message)
  checks = checks + 1
  if not ok then
    table.insert(failures, message)
  end
end

local function finish()
  local version = vim.version()
  local summary = ('neovim %d.%d.%d: %d checks, %d failed'):format(
    version.major, version.minor, version.patch, checks, #failures)
  if #failures > 0 then
    io.stderr:write(table.concat(failures, '\n') .. '\n' .. summary .. '\n')
    vim.cmd('cquit 1')
  else
    io.stdout:write(summary .. '\n')
    vim.cmd('qall!')
  end
end

local function run(f)
  local ok, err = xpcall(f, debug.traceback)
  check(ok, 'check.lua crashed: ' .. tostring(err))
end

local function glob(pattern)
  local files = vim.fn.glob(root .. '/' .. pattern, false, true)
  table.sort(files)
  return files
end

local function rel(file)
  return file:sub(#root + 2)
end

-- Messages (vim.notify) are recorded instead of shown.
local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { msg = msg, level = level })
end

------------------------------------------------------------ runtime path
run(function()
  local rtp = vim.tbl_map(function(p)
    return (vim.fn.fnamemodify(p, ':p'):gsub('/$', ''))
  end, vim.api.nvim_list_runtime_paths())
  check(vim.tbl_contains(rtp, nvim_dir), 'editors/neovim is not on the runtimepath: ' .. table.concat(rtp, ','))
  check(vim.g.loaded_dyno ~= nil, 'plugin/dyno.lua was not loaded')
  check(vim.fn.exists('#filetypedetect#BufRead#*.dyno') == 1, 'ftdetect/dyno.vim did not define its autocommand')
end)

------------------------------------------------- filetype.lua detection
run(function()
  local ok, ft = pcall(vim.filetype.match, { filename = 'schema.dyno' })
  if not (ok and type(ft) == 'string') then
    -- Neovim 0.7: match(name, bufnr) sets 'filetype' on the buffer.
    local buf = vim.api.nvim_create_buf(false, true)
    vim.filetype.match('schema.dyno', buf)
    ft = vim.bo[buf].filetype
    vim.api.nvim_buf_delete(buf, { force = true })
  end
  check(ft == 'dyno', ('vim.filetype.match: schema.dyno is %q, expected dyno'):format(tostring(ft)))
end)

------------------------------------------------------------- lsp/dyno.lua
run(function()
  local file = vim.api.nvim_get_runtime_file('lsp/dyno.lua', false)[1]
  check(file ~= nil, 'lsp/dyno.lua is not on the runtimepath')
  local config = dofile(file)
  check(vim.deep_equal(config.cmd, { 'dyno', 'lsp' }), 'lsp/dyno.lua: cmd is not { "dyno", "lsp" }')
  check(vim.deep_equal(config.filetypes, { 'dyno' }), 'lsp/dyno.lua: filetypes is not { "dyno" }')
  check(vim.deep_equal(config.root_markers, { '.git' }), 'lsp/dyno.lua: root_markers is not { ".git" }')
  check(type(config.on_attach) == 'function', 'lsp/dyno.lua: no on_attach (omnifunc, tagfunc, :DynoView)')
end)

------------------------------------------------------------------ syntax
local function group(line, col)
  return vim.fn.synIDattr(vim.fn.synID(line, col, 1), 'name')
end

-- Where the strings and the comment are on a line (strings stay on one line;
-- `\` escapes; `//` outside a string starts a comment).
local function shape(text)
  local strings, comment = {}, nil
  local i = 1
  while i <= #text do
    local c = text:sub(i, i)
    if c == '"' then
      local j = i + 1
      while j <= #text and text:sub(j, j) ~= '"' do
        j = j + (text:sub(j, j) == '\\' and 2 or 1)
      end
      table.insert(strings, { i, math.min(j, #text) })
      i = j + 1
    elseif text:sub(i, i + 1) == '//' then
      comment = i
      break
    else
      i = i + 1
    end
  end
  local code = text
  for _, s in ipairs(strings) do
    code = code:sub(1, s[1] - 1) .. (' '):rep(s[2] - s[1] + 1) .. code:sub(s[2] + 1)
  end
  if comment then
    code = code:sub(1, comment - 1) .. (' '):rep(#text - comment + 1)
  end
  return strings, comment, code
end

local KEYWORD_GROUPS = {
  dynoKeyword = true, dynoModifier = true, dynoQueryKeyword = true,
  dynoOperatorWord = true, dynoFunction = true, dynoBoolean = true, dynoOperation = true,
}
local CONTEXTUAL = {
  'key', 'index', 'local', 'delimiter', 'item', 'in', 'by', 'asc', 'desc', 'consistent',
  'limit', 'query', 'where', 'and', 'between', 'begins_with', 'all', 'keys_only', 'include', 'pad',
  'get', 'batch', 'scan', 'segments',
}
local TYPES = {
  'string', 'id', 'int', 'decimal', 'bool', 'date', 'datetime', 'epoch', 'uuid', 'ulid', 'enum', 'shard',
  'binary', 'list', 'map', 'number',
}

local function check_buffer(file, valid)
  local name = rel(file)
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  for lnum, text in ipairs(lines) do
    text = text:gsub('\r$', '')
    local at = ('%s:%d: '):format(name, lnum)
    local strings, comment, code = shape(text)

    local indent, word = code:match('^(%s*)(%a+)%f[^%w_]')
    if word == 'table' or word == 'entity' or word == 'pattern' then
      local col = #indent + 1
      local g = group(lnum, col)
      check(g == 'dynoItemKeyword' or g == 'dynoPatternKeyword', at .. word .. ' is ' .. g)
      local name_col = code:find('[%a_]', col + #word)
      if name_col and valid then
        local expected = word == 'pattern' and 'dynoPatternName' or 'dynoTypeName'
        check(group(lnum, name_col) == expected, at .. 'the name after ' .. word .. ' is ' .. group(lnum, name_col))
      end
    end

    if comment then
      local doc = text:sub(comment, comment + 2) == '///' and text:sub(comment + 3, comment + 3) ~= '/'
      local expected = doc and 'dynoDocComment' or 'dynoComment'
      check(group(lnum, comment) == expected, at .. 'comment is ' .. group(lnum, comment) .. ', expected ' .. expected)
      local last = group(lnum, #text)
      check(last == expected or last == 'dynoTodo', at .. 'the comment does not run to the end of the line')
    end

    for _, s in ipairs(strings) do
      check(group(lnum, s[1]) == 'dynoString', at .. 'string at column ' .. s[1] .. ' is ' .. group(lnum, s[1]))
      local body = text:sub(s[1] + 1, s[2])
      for start, hole in body:gmatch('(){([%a_][%w_]*)}') do
        local col = s[1] + start + 1
        check(group(lnum, col) == 'dynoHole', at .. 'hole {' .. hole .. '} is ' .. group(lnum, col))
      end
      if valid then
        for start in body:gmatch('()#') do
          local col = s[1] + start
          check(group(lnum, col) == 'dynoDelimiter', at .. '# in a string is ' .. group(lnum, col))
        end
      end
    end

    if valid then
      for col = 1, #text do
        local g = group(lnum, col)
        check(not g:match('Error$') and not g:match('^dynoBad') and g ~= 'dynoUnclosedHole',
          at .. 'column ' .. col .. ' is ' .. g)
      end
      for _, kw in ipairs(CONTEXTUAL) do
        for col in code:gmatch('%f[%w_]()' .. kw .. '%f[^%w_]') do
          local rest = code:sub(col + #kw)
          local g = group(lnum, col)
          if rest:match('^%s*[:=]') then
            check(not KEYWORD_GROUPS[g], at .. kw .. ' names something here but is ' .. g)
          elseif not (code:sub(1, col - 1):match('%(%s*$') or code:sub(1, col - 1):match(',%s*$')) then
            check(KEYWORD_GROUPS[g], at .. kw .. ' is ' .. (g == '' and 'not highlighted' or g))
          end
        end
      end
      for _, ty in ipairs(TYPES) do
        for col in code:gmatch(':%s*()' .. ty .. '%f[^%w_]') do
          check(group(lnum, col) == 'dynoType', at .. 'type ' .. ty .. ' is ' .. group(lnum, col))
        end
      end
      local attr_indent, attr = code:match('^(%s*)([%a_][%w_]*)%s*:')
      if attr then
        local col = #attr_indent + 1
        check(group(lnum, col) == 'dynoAttribute', at .. 'attribute ' .. attr .. ' is ' .. group(lnum, col))
      end
      local key_indent, key = code:match('^(%s*)([%a_][%w_]*)%s*=')
      if key then
        local col = #key_indent + 1
        check(group(lnum, col) == 'dynoKeyName', at .. 'key ' .. key .. ' is ' .. group(lnum, col))
      end
      for col in code:gmatch('%->%s*()[%a_]') do
        check(group(lnum, col) == 'dynoReturnEntity', at .. 'returned entity is ' .. group(lnum, col))
      end
    end
  end
end

local function edit(file)
  vim.v.errmsg = ''
  local ok, err = pcall(vim.cmd, 'edit ' .. vim.fn.fnameescape(file))
  check(ok, rel(file) .. ': :edit failed: ' .. tostring(err))
  check(vim.v.errmsg == '', rel(file) .. ': error while loading: ' .. vim.v.errmsg)
end

-- No real dyno may start while the syntax is checked (nor later, unless it
-- is the stand-in): take PATH away until the language server section.
local saved_path = vim.env.PATH
vim.env.PATH = '/nonexistent'

run(function()
  local valid = glob('examples/*.dyno')
  check(#valid >= 3, 'examples/*.dyno not found')
  local broken = glob('tests/fixtures/syntax/*.dyno')
  check(#broken >= 10, 'tests/fixtures/syntax/*.dyno not found')
  vim.list_extend(broken, glob('grammar/tests/*.dyno'))
  for _, set in ipairs({ { valid, true }, { broken, false } }) do
    for _, file in ipairs(set[1]) do
      edit(file)
      local name = rel(file)
      check(vim.bo.filetype == 'dyno', name .. ": filetype is '" .. vim.bo.filetype .. "'")
      check(vim.b.current_syntax == 'dyno', name .. ': syntax/dyno.vim was not loaded')
      check(vim.bo.commentstring == '// %s', name .. ": commentstring is '" .. vim.bo.commentstring .. "'")
      check(vim.bo.comments == ':///,://', name .. ": comments is '" .. vim.bo.comments .. "'")
      check_buffer(file, set[2])
      vim.cmd('bwipeout!')
    end
  end
end)

-- Write shards and rate hints (no example uses them yet): they parse and
-- highlight without errors, and the new words are where they belong.
run(function()
  local file = vim.fn.tempname() .. '.dyno'
  vim.fn.writefile({
    'table Games { key pk, sk }',
    'entity Score ~300B ~2500/s {',
    '  userId: id',
    '  shard: shard(10)',
    '  bucket: shard(4, of userId)',
    '  kind: enum(of, off)',
    '  pk = "SCORE#{shard}.{bucket}"',
    '  sk = "{userId}"',
    '}',
    'pattern top(userId) -> Score ~50/s // one shard',
    'pattern board() -> Score[] limit 10 ~200/s',
  }, file)
  edit(file)
  check_buffer(file, true)
  -- The group at the first `text` of line `lnum` (`shift` columns on).
  local function at(lnum, text, expected, shift)
    local line = vim.fn.getline(lnum)
    local col = line:find(text, 1, true)
    col = col and col + (shift or 0)
    local g = col and group(lnum, col) or '(not found)'
    check(g == expected, ('shards:%d: %s is %s, expected %s'):format(lnum, text, g, expected))
  end
  at(2, '2500', 'dynoNumber')
  at(2, '/', 'dynoOperator')
  at(2, 's {', 'dynoRateUnit')
  at(4, 'shard(', 'dynoType')
  at(5, 'of ', 'dynoKeyword')
  at(5, 'userId)', 'dynoShardSource')
  at(6, 'of,', '')
  at(10, 'Score', 'dynoReturnEntity')
  at(10, '/', 'dynoOperator')
  at(10, 's //', 'dynoRateUnit')
  at(10, '//', 'dynoComment')
  at(11, '/s', 'dynoOperator')
  at(11, '/s', 'dynoRateUnit', 1)
  vim.cmd('bwipeout!')
  vim.fn.delete(file)
end)

---------------------------------------------------------- language server
-- A stand-in `dyno` on PATH that answers initialize and logs what it gets.
local function with_fake_server(f)
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  local log = dir .. '/log.jsonl'
  local script = dir .. '/dyno'
  vim.fn.writefile({
    '#!/bin/sh',
    ('exec python3 %s "$@"'):format(vim.fn.shellescape(here .. '/fake_dyno_lsp.py')),
  }, script)
  vim.fn.setfperm(script, 'rwxr-xr-x')
  local path = vim.env.PATH
  vim.env.PATH = dir .. ':' .. path
  vim.env.DYNO_FAKE_LOG = log
  local ok, err = xpcall(f, debug.traceback, log)
  vim.env.PATH = path
  check(ok, 'language server check crashed: ' .. tostring(err))
end

local function clients_of(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = 'dyno' })
  end
  local out = {}
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == 'dyno' then
      table.insert(out, client)
    end
  end
  return out
end

local function read_log(log)
  local entries = {}
  if vim.fn.filereadable(log) == 1 then
    for _, line in ipairs(vim.fn.readfile(log)) do
      table.insert(entries, vim.fn.json_decode(line))
    end
  end
  return entries
end

-- A method on 0.10+, a closure that ignores its argument on 0.7.
local function is_stopped(client)
  return client:is_stopped()
end

-- Opens two schemas of the repository and expects one shared, initialised
-- dyno client; `attach` starts the server by hand when given.
local function expect_one_client(label, log, attach)
  local files = { root .. '/examples/billing.dyno', root .. '/examples/teams.dyno' }
  local buffers = {}
  for _, file in ipairs(files) do
    edit(file)
    local bufnr = vim.api.nvim_get_current_buf()
    table.insert(buffers, bufnr)
    if attach then
      attach(bufnr)
    end
    local attached = vim.wait(10000, function()
      local c = clients_of(bufnr)[1]
      return c ~= nil and c.server_capabilities ~= nil and c.server_capabilities.hoverProvider == true
    end, 20)
    check(attached, label .. ': ' .. rel(file) .. ': the dyno client did not attach and initialise within 10 s')
  end
  local first, second = clients_of(buffers[1])[1], clients_of(buffers[2])[1]
  check(first ~= nil and second ~= nil and first.id == second.id, label .. ': both buffers should share one client')
  if first then
    check(vim.deep_equal(first.config.cmd, { 'dyno', 'lsp' }), label .. ': cmd is ' .. vim.inspect(first.config.cmd))
    check(first.config.root_dir == root or vim.fn.isdirectory(root .. '/.git') == 0,
      label .. ': root_dir is ' .. tostring(first.config.root_dir) .. ', expected the repository root')
  end
  local opened = vim.wait(5000, function()
    local n = 0
    for _, entry in ipairs(read_log(log)) do
      if entry.method == 'textDocument/didOpen' and entry.languageId == 'dyno' then
        n = n + 1
      end
    end
    return n == 2
  end, 20)
  check(opened, label .. ': the server did not receive didOpen (languageId dyno) for both buffers: '
    .. vim.inspect(read_log(log)))
  local argv = (read_log(log)[1] or {}).argv
  check(vim.deep_equal(argv, { 'lsp' }), label .. ': the server was started with arguments ' .. vim.inspect(argv))

  if first then
    vim.lsp.stop_client(first.id)
    local stopped = vim.wait(5000, function()
      return is_stopped(first)
    end, 20)
    check(stopped, label .. ': the client did not stop')
  end
  vim.cmd('silent! %bwipeout!')
end

run(function()
  local modern = vim.fn.has('nvim-0.11') == 1

  -- The syntax checks above opened many dyno buffers without dyno on PATH:
  -- before 0.11 that gives exactly one warning, on 0.11+ (nothing enabled yet) none.
  local warnings = vim.tbl_filter(function(n)
    return n.msg:match('dyno') ~= nil
  end, notes)
  if modern then
    check(#warnings == 0, 'nothing should start before vim.lsp.enable: ' .. vim.inspect(notes))
    check(vim.fn.exists('#dyno_lsp') == 0, 'plugin/dyno.lua must not start the server on Neovim 0.11+')
  else
    check(#warnings == 1 and #notes == 1, 'a missing dyno should give one warning, got: ' .. vim.inspect(notes))
  end
  vim.env.PATH = saved_path

  if vim.fn.executable('python3') ~= 1 then
    check(false, 'python3 is needed for the stand-in language server')
    return
  end

  if modern then
    with_fake_server(function(log)
      vim.lsp.enable('dyno')
      expect_one_client("vim.lsp.enable('dyno')", log)
      vim.lsp.enable('dyno', false)
    end)
  else
    with_fake_server(function(log)
      expect_one_client('plugin/dyno.lua', log)
    end)
  end
  if vim.lsp.start then
    -- The 0.8-0.10 branch of lua/dyno/lsp.lua (vim.lsp.start), driven directly.
    with_fake_server(function(log)
      expect_one_client('dyno.lsp.start', log, function(bufnr)
        require('dyno.lsp').start(bufnr)
      end)
    end)
  end
end)

finish()
