// The DynoTable page (`dyno view`, docs/view.md) as the editor asks for it:
// the language server's `dyno.view` command writes the page of an open
// document and answers its path; the extension shows that file in a
// webview. These helpers are free of the VS Code API, for the unit tests.

/** The command the server offers and its code lenses run. */
export const VIEW_COMMAND = 'dyno.view';

/**
 * The arguments to send with `dyno.view`: a code lens passes the document's
 * URI and the pattern to pick; from the command palette there are none,
 * and the active editor's document is shown. `undefined` when there is no
 * document to show.
 */
export function viewArguments(args: unknown[], activeDocument: string | undefined): unknown[] | undefined {
  if (args.length > 0 && typeof args[0] === 'string') {
    return args;
  }
  return activeDocument === undefined ? undefined : [activeDocument];
}

/** The page's path in the server's answer `{"path": …}`, if it is one. */
export function pagePath(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) {
    return undefined;
  }
  const path = (answer as { path?: unknown }).path;
  return typeof path === 'string' && path.length > 0 ? path : undefined;
}

/** The webview's title: `Dyno: billing.dyno`, and the pattern picked. */
export function pageTitle(documentUri: string, pattern: unknown): string {
  const name = decodeURIComponent(documentUri.split('/').pop() || 'schema');
  return typeof pattern === 'string' ? `Dyno: ${name} · ${pattern}` : `Dyno: ${name}`;
}

/** The server's copy commands (its "Copy Query" / "Copy AWS CLI" lenses). */
export const COPY_COMMANDS = ['dyno.copyQuery', 'dyno.copyAwsCli'];

/** What each copy command puts on the clipboard, for the status message. */
export const COPY_WHAT: Record<string, string> = {
  'dyno.copyQuery': 'Query request JSON',
  'dyno.copyAwsCli': 'AWS CLI command',
};

/** The text in the server's answer `{"text": …}` to a copy command. */
export function copiedText(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) {
    return undefined;
  }
  const text = (answer as { text?: unknown }).text;
  return typeof text === 'string' ? text : undefined;
}
