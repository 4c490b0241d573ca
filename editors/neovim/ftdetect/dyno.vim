" .dyno files are DynamoDB single-table schemas (classic filetype detection;
" plugin/dyno.lua registers the same with vim.filetype.add).
autocmd BufRead,BufNewFile *.dyno setfiletype dyno
