;;; e2e.el --- the real `dyno lsp' in a real Emacs, through eglot -*- lexical-binding: t -*-

;; Loads editors/emacs/dyno-mode.el (the configuration docs/editors.md
;; gives), opens a schema with an error and checks, with bounded polling
;; (never fixed sleeps):
;;   1. the server's diagnostics reach Flymake: one says [E203], on the
;;      typo's line;
;;   2. go to definition (xref, as M-. does): on a pattern's name eglot's
;;      xref backend lists the key templates its Query relies on; on a
;;      pattern's parameter `xref-find-definitions' lands on the key template
;;      built from it;
;;   3. completion-at-point (eglot's capf) offers `USER#' right after
;;      `begins_with(sk, "', and the top-level keywords on an empty line.
;;   4. fixing the typo in the buffer (eglot's didChange) clears [E203]
;;      from Flymake.
;;
;; tests/editors_emacs.rs runs it with the freshly built dyno first on PATH:
;;   emacs --batch -l editors/emacs/test/e2e.el
;; with DYNO_E2E_SCHEMA (the schema, a `"USERS#"' typo planted in it),
;; DYNO_E2E_TYPO_LINE (its 0-based line), DYNO_E2E_BIN (the dyno that PATH
;; must resolve to) and DYNO_E2E_TIMEOUT_MS (the bound of every wait).
;; Prints "all checks passed" and exits 0, or exits 1 naming the failure.

(require 'cl-lib)
(require 'subr-x)

(define-error 'dyno-e2e-failure "dyno e2e check failed")

(defvar dyno-e2e-timeout
  (/ (string-to-number (or (getenv "DYNO_E2E_TIMEOUT_MS") "20000")) 1000.0))

(defvar dyno-e2e-started (float-time))

(defun dyno-e2e-say (format-string &rest args)
  (princ (format "e2e [%5d ms] %s\n"
                 (round (* 1000 (- (float-time) dyno-e2e-started)))
                 (apply #'format format-string args))))

(defun dyno-e2e-fail (format-string &rest args)
  (signal 'dyno-e2e-failure (list (apply #'format format-string args))))

(defun dyno-e2e-wait (what predicate)
  "Waits (processing the server's output) until PREDICATE holds.
Returns the milliseconds waited; fails past `dyno-e2e-timeout'."
  (let* ((t0 (float-time))
         (deadline (+ t0 dyno-e2e-timeout)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline)
        (dyno-e2e-fail "timed out after %.0f s waiting for %s" dyno-e2e-timeout what))
      (accept-process-output nil 0.05))
    (round (* 1000 (- (float-time) t0)))))

(defun dyno-e2e-pause ()
  "Runs the idle timers once, as Emacs does when the user stops typing:
eglot sends a change to the server, and Flymake starts a check, on idle
timers, and a batch Emacs never becomes idle."
  (dolist (timer (copy-sequence timer-idle-list))
    (when (memq timer timer-idle-list)
      (timer-event-handler timer))))

(defun dyno-e2e-goto (regexp &optional group from)
  "Moves point to the start of GROUP of the first match of REGEXP at or
after line FROM (1-based), skipping comment lines; returns the line."
  (goto-char (point-min))
  (when from (forward-line (1- from)))
  (let (found)
    (while (and (not found) (re-search-forward regexp nil t))
      (unless (save-excursion (beginning-of-line) (looking-at-p "\\s-*//"))
        (setq found (line-number-at-pos))))
    (unless found (dyno-e2e-fail "no line matches %S" regexp))
    (goto-char (match-beginning (or group 0)))
    found))

(defun dyno-e2e-line-text (&optional line)
  (save-excursion
    (when line (goto-char (point-min)) (forward-line (1- line)))
    (buffer-substring-no-properties (line-beginning-position) (line-end-position))))

(defun dyno-e2e-key-template-p (text)
  (and text (string-match-p "^\\s-*[[:alnum:]_]+\\s-*=\\s-*\"" text)))

(defun dyno-e2e-candidates ()
  "What completion-at-point would offer at point: the first function of
`completion-at-point-functions' that answers, and all its completions."
  (let ((capf (run-hook-wrapped 'completion-at-point-functions
                                (lambda (f) (funcall f)))))
    (unless capf (dyno-e2e-fail "no completion-at-point function answered at line %d"
                                (line-number-at-pos)))
    (let* ((start (nth 0 capf))
           (table (nth 2 capf))
           (prefix (buffer-substring-no-properties start (point))))
      (all-completions prefix table))))

(defun dyno-e2e-main ()
  (let* ((schema (or (getenv "DYNO_E2E_SCHEMA") (dyno-e2e-fail "DYNO_E2E_SCHEMA is not set")))
         (here (file-name-directory (or load-file-name buffer-file-name)))
         (exe (executable-find "dyno")))
    (dyno-e2e-say "emacs %s" emacs-version)
    (unless exe (dyno-e2e-fail "`dyno' is not on PATH"))
    (let ((want (getenv "DYNO_E2E_BIN")))
      (when (and want (not (string-empty-p want))
                 (not (equal (file-truename exe) (file-truename want))))
        (dyno-e2e-fail "`dyno' on PATH is %s, expected %s" exe want)))
    (dyno-e2e-say "dyno on PATH: %s" exe)

    ;; The documented configuration, then eglot (built in from Emacs 29; the
    ;; elpa-eglot package on Debian's Emacs 28).
    (load (expand-file-name "../dyno-mode.el" here) nil t)
    (require 'eglot)
    (dyno-e2e-say "eglot from %s" (locate-library "eglot"))

    (find-file schema)
    (unless (eq major-mode 'dyno-mode)
      (dyno-e2e-fail "%s opened in %s, expected dyno-mode" schema major-mode))
    ;; `eglot-ensure' (on dyno-mode-hook) connects once the command that
    ;; opened the file ends; in batch no command runs, so end one here.
    (run-hooks 'post-command-hook)
    (let ((ms (dyno-e2e-wait "eglot to manage the buffer"
                             (lambda () (and (eglot-current-server) eglot--managed-mode)))))
      (dyno-e2e-say "eglot connected after %d ms" ms))
    (let ((buffer (current-buffer))
          (typo-line (1+ (string-to-number (or (getenv "DYNO_E2E_TYPO_LINE") "-1")))))
      (when (< typo-line 1)
        (setq typo-line (dyno-e2e-goto "\"USERS#\"")))

      ;; 1. diagnostics, through Flymake.
      (let* ((e203 nil)
             (ms (dyno-e2e-wait
                  "a Flymake diagnostic [E203]"
                  (lambda ()
                    (setq e203 (cl-find-if (lambda (d) (string-match-p "\\[E203\\]" (flymake-diagnostic-text d)))
                                           (flymake-diagnostics)))))))
        (dolist (d (flymake-diagnostics))
          (dyno-e2e-say "  %d: %s %s" (line-number-at-pos (flymake-diagnostic-beg d))
                        (flymake-diagnostic-type d) (flymake-diagnostic-text d)))
        (let ((line (with-current-buffer buffer (line-number-at-pos (flymake-diagnostic-beg e203)))))
          (unless (= line typo-line)
            (dyno-e2e-fail "[E203] is on line %d, the typo on line %d" line typo-line)))
        (unless (eq (flymake-diagnostic-type e203) 'eglot-error)
          (dyno-e2e-fail "[E203] is of type %s, expected eglot-error" (flymake-diagnostic-type e203)))
        (dyno-e2e-say "ok 1: Flymake has [E203] on line %d (%d ms)" typo-line ms))

      ;; 2. go to definition.
      (let* ((user (dyno-e2e-goto "^entity User"))
             (user-pk (dyno-e2e-goto "^\\s-*pk\\s-*=" nil user))
             (user-sk (dyno-e2e-goto "^\\s-*sk\\s-*=" nil user))
             (pattern (dyno-e2e-goto "^pattern \\(listUsers\\)" 1))
             (identifier (xref-backend-identifier-at-point 'eglot))
             (lines (mapcar (lambda (xref)
                              (let ((location (xref-item-location xref)))
                                (with-current-buffer buffer
                                  (save-excursion
                                    (goto-char (marker-position (xref-location-marker location)))
                                    (line-number-at-pos)))))
                            (xref-backend-definitions 'eglot identifier))))
        (dyno-e2e-say "  listUsers -> lines %S" lines)
        (unless (and (memq user-pk lines) (memq user-sk lines))
          (dyno-e2e-fail "the definitions of listUsers (%S) miss User's pk and sk templates (%d, %d)"
                         lines user-pk user-sk))
        (dyno-e2e-say "ok 2a: listUsers -> User's pk and sk templates")
        ;; M-. on the parameter: one location, so point moves there.
        (dyno-e2e-goto "(\\(tenantId\\))" 1 pattern)
        (forward-char 1)
        (call-interactively #'xref-find-definitions)
        (let ((line (line-number-at-pos))
              (text (dyno-e2e-line-text)))
          (dyno-e2e-say "  M-. on tenantId: %s line %d: %s" (buffer-name) line (string-trim text))
          (unless (and (eq (current-buffer) buffer) (= line user-pk) (dyno-e2e-key-template-p text))
            (dyno-e2e-fail "M-. on tenantId landed on line %d (%S), expected User's pk template on line %d"
                           line text user-pk)))
        (dyno-e2e-say "ok 2b: M-. lands on User's pk template, line %d" user-pk))

      ;; 3. completion-at-point.
      (dyno-e2e-goto "begins_with(sk, \"")
      (goto-char (match-end 0))
      (let ((labels (dyno-e2e-candidates)))
        (dyno-e2e-say "  after begins_with(sk, \": %s" (string-join labels " "))
        (unless (cl-some (lambda (l) (string-match-p "USER#" l)) labels)
          (dyno-e2e-fail "completion after begins_with(sk, \" does not offer USER#: %S" labels)))
      (goto-char (point-max))
      (insert "\n\n")
      (let ((labels (dyno-e2e-candidates)))
        (dyno-e2e-say "  on an empty top-level line: %s" (string-join labels " "))
        (dolist (keyword '("table" "entity" "pattern"))
          (unless (member keyword labels)
            (dyno-e2e-fail "completion on an empty top-level line does not offer %s: %S" keyword labels))))
      (dyno-e2e-say "ok 3: completion-at-point offers USER# and the top-level keywords")

      ;; 4. fixing the typo (eglot sends the change) clears the diagnostic.
      (dyno-e2e-goto "\"\\(USERS#\\)\"" 1)
      (delete-region (match-beginning 1) (match-end 1))
      (insert "USER#")
      (dyno-e2e-pause)
      (let ((ms (dyno-e2e-wait
                 "[E203] to leave Flymake after fixing the typo"
                 (lambda ()
                   (not (cl-some (lambda (d) (string-match-p "\\[E203\\]" (flymake-diagnostic-text d)))
                                 (flymake-diagnostics)))))))
        (dyno-e2e-say "ok 4: fixed \"USERS#\" -> \"USER#\", [E203] gone after %d ms" ms))
      (set-buffer-modified-p nil)))
  (dyno-e2e-say "all checks passed"))

(condition-case err
    (progn
      (dyno-e2e-main)
      (let ((server (ignore-errors (eglot-current-server))))
        (when server (ignore-errors (eglot-shutdown server))))
      (kill-emacs 0))
  (dyno-e2e-failure
   (message "e2e FAILED: %s" (cadr err))
   (kill-emacs 1))
  (error
   (message "e2e.el crashed: %S" err)
   (kill-emacs 1)))

;;; e2e.el ends here
