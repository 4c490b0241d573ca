-- dyno: filetype detection and, on Neovim 0.7-0.10, the language server.
--
-- Neovim 0.11+ starts the server through its own LSP configuration
-- (lsp/dyno.lua): call vim.lsp.enable('dyno'). This file then only registers
-- the filetype, so the server is never started twice.
--
-- On older versions this file starts `dyno lsp` for every dyno buffer
-- (vim.lsp.start on 0.8+, vim.lsp.start_client + buf_attach_client on 0.7).
-- Options, set before the plugin loads:
--   vim.g.dyno_lsp = false                          -- do not start the server
--   vim.g.dyno_lsp_cmd = { '/path/to/dyno', 'lsp' } -- another binary
if vim.g.loaded_dyno then
  return
end
vim.g.loaded_dyno = 1

if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { dyno = 'dyno' } })
end

if vim.fn.has('nvim-0.11') == 1 or vim.g.dyno_lsp == false then
  return
end

vim.api.nvim_create_autocmd('FileType', {
  group = vim.api.nvim_create_augroup('dyno_lsp', { clear = true }),
  pattern = 'dyno',
  desc = 'Start the dyno language server',
  callback = function(args)
    require('dyno.lsp').start(args.buf)
  end,
})
