;;; dyno-mode.el --- .dyno schemas, with the dyno language server via eglot -*- lexical-binding: t -*-

;; A small major mode (highlighting, `//' comments, two-space indentation)
;; and the eglot configuration that starts `dyno lsp'. docs/editors.md
;; shows this file; tests/editors_emacs.rs checks both are the same and
;; runs it in `emacs --batch' against the real server.

(define-derived-mode dyno-mode prog-mode "Dyno"
  "Major mode for .dyno DynamoDB single-table schemas."
  (modify-syntax-entry ?/ ". 12" dyno-mode-syntax-table)
  (modify-syntax-entry ?\n ">" dyno-mode-syntax-table)
  (modify-syntax-entry ?_ "w" dyno-mode-syntax-table)
  (setq-local comment-start "// ")
  (setq-local comment-start-skip "//+\\s-*")
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width 2)
  (setq-local font-lock-defaults
              '((("^\\s-*\\(\\(?:\\sw\\)+\\)\\s-*:" 1 font-lock-variable-name-face)
                 ("\\(\\(?:\\sw\\)+\\)\\s-*=[^=]" 1 font-lock-variable-name-face)
                 ("\\_<\\(table\\|entity\\)\\_>\\s-*\\(\\sw*\\)"
                  (1 font-lock-keyword-face) (2 font-lock-type-face))
                 ("\\_<\\(pattern\\)\\_>\\s-*\\(\\sw*\\)"
                  (1 font-lock-keyword-face) (2 font-lock-function-name-face))
                 (":\\s-*\\_<\\(string\\|id\\|int\\|decimal\\|bool\\|date\\|datetime\\|uuid\\|ulid\\|enum\\|shard\\|binary\\|list\\|map\\|number\\)\\_>"
                  1 font-lock-type-face)
                 ("\\_<\\(true\\|false\\)\\_>" . font-lock-constant-face)
                 ("\\_<\\(key\\|index\\|local\\|delimiter\\|item\\|in\\|by\\|asc\\|desc\\|consistent\\|limit\\|query\\|where\\|and\\|between\\|begins_with\\|all\\|keys_only\\|include\\|pad\\|of\\)\\_>"
                  . font-lock-keyword-face)
                 ("{\\(\\sw+\\)}" 1 font-lock-variable-name-face t)))))
(add-to-list 'auto-mode-alist '("\\.dyno\\'" . dyno-mode))

;; The server: `dyno lsp' over stdio. For a binary not on PATH, replace
;; "dyno" with its full path.
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(dyno-mode . ("dyno" "lsp"))))
(add-hook 'dyno-mode-hook #'eglot-ensure)

(provide 'dyno-mode)
;;; dyno-mode.el ends here
