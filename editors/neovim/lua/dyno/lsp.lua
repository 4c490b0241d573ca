-- Starts the dyno language server on Neovim 0.7-0.10 (0.11+ uses
-- vim.lsp.enable('dyno') with lsp/dyno.lua instead).
local M = {}

local uv = vim.uv or vim.loop

--- The server configuration: lsp/dyno.lua from 'runtimepath', with
--- vim.g.dyno_lsp_cmd replacing the command when set.
function M.config()
  local config
  local file = vim.api.nvim_get_runtime_file('lsp/dyno.lua', false)[1]
  if file then
    config = dofile(file)
  else
    config = { cmd = { 'dyno', 'lsp' }, filetypes = { 'dyno' }, root_markers = { '.git' } }
  end
  if vim.g.dyno_lsp_cmd then
    config.cmd = vim.g.dyno_lsp_cmd
  end
  return config
end

--- The nearest ancestor directory of the buffer's file holding one of the
--- markers, else the file's directory (the working directory for a buffer
--- without a file).
function M.root_dir(bufnr, markers)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return uv.cwd()
  end
  local start = vim.fn.fnamemodify(name, ':p:h')
  local dir = start
  while true do
    for _, marker in ipairs(markers) do
      if uv.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return start
    end
    dir = parent
  end
end

local warned = false
local clients = {} -- root_dir -> client id, for Neovim 0.7

--- Starts (or reuses) the server for the buffer and attaches it. Returns the
--- client id, or nil when the server cannot be started.
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local config = M.config()
  if vim.fn.executable(config.cmd[1]) ~= 1 then
    if not warned then
      warned = true
      vim.notify(
        ('dyno: cannot start the language server: `%s` is not an executable on PATH. '
          .. 'Install dyno (`cargo install --path .` in the dyno repository) '
          .. 'or set vim.g.dyno_lsp_cmd = { "/path/to/dyno", "lsp" }.'):format(config.cmd[1]),
        vim.log.levels.WARN
      )
    end
    return nil
  end
  local root = M.root_dir(bufnr, config.root_markers or { '.git' })
  local client_config = { name = 'dyno', cmd = config.cmd, root_dir = root, on_attach = config.on_attach }

  if vim.lsp.start then -- 0.8+: reuses a client with the same name and root
    return vim.api.nvim_buf_call(bufnr, function()
      return vim.lsp.start(client_config, { bufnr = bufnr })
    end)
  end

  local id = clients[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(client_config)
    if not id then
      return nil
    end
    clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

return M
