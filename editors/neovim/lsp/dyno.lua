-- The dyno language server, in the shape of Neovim 0.11's vim.lsp.config.
-- With this directory on 'runtimepath', enable it with:
--
--   vim.lsp.enable('dyno')
--
-- and override any field with vim.lsp.config('dyno', { cmd = { '/path/to/dyno', 'lsp' } }).
-- On Neovim 0.7-0.10, plugin/dyno.lua starts the server with this same table.
return {
  cmd = { 'dyno', 'lsp' },
  filetypes = { 'dyno' },
  root_markers = { '.git' },
}
