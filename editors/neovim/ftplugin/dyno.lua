-- Buffer settings for .dyno schemas.
if vim.b.did_ftplugin then
  return
end
vim.b.did_ftplugin = 1

vim.bo.commentstring = '// %s'
-- `///` doc comments continue as doc comments, `//` as comments.
vim.bo.comments = ':///,://'
vim.opt_local.formatoptions:remove('t')
vim.opt_local.formatoptions:append('croql')

-- The examples and docs indent with two spaces; opt out with
-- `vim.g.dyno_recommended_style = false`.
if vim.g.dyno_recommended_style ~= false then
  vim.bo.expandtab = true
  vim.bo.shiftwidth = 2
  vim.bo.softtabstop = 2
end

vim.b.undo_ftplugin = 'setlocal commentstring< comments< formatoptions< expandtab< shiftwidth< softtabstop<'
