-- The dyno language server, in the shape of Neovim 0.11's vim.lsp.config
-- (and of nvim-lspconfig's lsp/*.lua). With this directory on 'runtimepath',
-- enable it with:
--
--   vim.lsp.enable('dyno')
--
-- and override any field with vim.lsp.config('dyno', { cmd = { '/path/to/dyno', 'lsp' } }).
-- On Neovim 0.7-0.10, plugin/dyno.lua starts the server with this same table.
--
-- When the server attaches to a buffer:
--   'omnifunc' and 'tagfunc' are set to the LSP ones when empty (Neovim 0.8+
--   does this itself; 0.7 does not), so CTRL-X CTRL-O completes and CTRL-]
--   goes to the definition;
--   :DynoView [pattern] writes the buffer's DynoTable page (the server's
--   dyno.view command) and opens it (vim.ui.open, Neovim 0.10+; set
--   vim.g.dyno_view_open = false to only print its path);
--   the code lenses "Copy Query" and "Copy AWS CLI" (vim.lsp.codelens.run)
--   put the pattern's request JSON or `aws dynamodb query` command on the
--   unnamed register, and on "+" when Neovim has a clipboard.

--- The server answers a copy command with { text = ... }; the registers
--- are the editor's.
local function copy(command, ctx)
  local params = { command = command.command, arguments = command.arguments }
  vim.lsp.buf_request(ctx.bufnr, 'workspace/executeCommand', params, function(err, result)
    if err or type(result) ~= 'table' or type(result.text) ~= 'string' then
      vim.notify(command.command .. ': ' .. (err and err.message or 'nothing to copy'), vim.log.levels.ERROR)
      return
    end
    vim.fn.setreg('"', result.text)
    if vim.fn.has('clipboard') == 1 then
      pcall(vim.fn.setreg, '+', result.text)
    end
    vim.notify('dyno: copied (' .. command.command .. ')')
  end)
end

return {
  cmd = { 'dyno', 'lsp' },
  filetypes = { 'dyno' },
  root_markers = { '.git' },
  on_attach = function(_, bufnr)
    vim.lsp.commands['dyno.copyQuery'] = copy
    vim.lsp.commands['dyno.copyAwsCli'] = copy
    if vim.bo[bufnr].omnifunc == '' then
      vim.bo[bufnr].omnifunc = 'v:lua.vim.lsp.omnifunc'
    end
    if vim.bo[bufnr].tagfunc == '' then
      vim.bo[bufnr].tagfunc = 'v:lua.vim.lsp.tagfunc'
    end
    vim.api.nvim_buf_create_user_command(bufnr, 'DynoView', function(opts)
      local arguments = { vim.uri_from_bufnr(bufnr) }
      if opts.args ~= '' then
        table.insert(arguments, opts.args)
      end
      local params = { command = 'dyno.view', arguments = arguments }
      vim.lsp.buf_request(bufnr, 'workspace/executeCommand', params, function(err, result)
        if err or type(result) ~= 'table' or not result.path then
          vim.notify('dyno.view: ' .. (err and err.message or 'no page'), vim.log.levels.ERROR)
          return
        end
        vim.b[bufnr].dyno_view_path = result.path
        if vim.ui.open and vim.g.dyno_view_open ~= false then
          vim.ui.open(result.path)
        end
        vim.notify('dyno: DynoTable page ' .. result.path)
      end)
    end, { nargs = '?', desc = 'dyno: write and open the DynoTable page (optionally for one pattern)' })
  end,
}
