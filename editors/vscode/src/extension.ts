// The Dyno extension: starts `dyno lsp` (stdio) for .dyno files.
// Highlighting, snippets and the language configuration are declarative
// (package.json); this file runs the language client, and shows the
// DynoTable page the server writes for `dyno.view` in a webview.

import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { Executable, LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';

import { COPY_COMMANDS, COPY_WHAT, VIEW_COMMAND, copiedText, pagePath, pageTitle, viewArguments } from './page';
import { SERVER_ARGS, fallbackWarning, findServer, notFoundMessage } from './server';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;
/** The DynoTable page, reused by each `dyno.view`. */
let pagePanel: vscode.WebviewPanel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('Dyno Language Server');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('dyno.restartServer', () => restart(context)),
    vscode.commands.registerCommand('dyno.showOutput', () => output?.show(true)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('dyno.server.path')) {
        void restart(context);
      }
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await stop();
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const configured = vscode.workspace.getConfiguration('dyno').get<string>('server.path');
  const lookup = findServer({
    configured,
    extensionPath: context.extensionPath,
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
  });

  if (!lookup.command) {
    const message = notFoundMessage(lookup);
    output?.appendLine(message);
    const choice = await vscode.window.showErrorMessage(message, 'Open Settings');
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'dyno.server.path');
    }
    return;
  }
  const warning = fallbackWarning(lookup);
  if (warning) {
    output?.appendLine(warning);
    void vscode.window.showWarningMessage(warning);
  }
  output?.appendLine(`Starting ${lookup.command} ${SERVER_ARGS.join(' ')} (found via ${lookup.source}).`);

  // No `transport` on purpose: with TransportKind.stdio the client would add
  // a `--stdio` argument; left out, it simply talks over stdin/stdout.
  const executable: Executable = { command: lookup.command, args: [...SERVER_ARGS] };
  const serverOptions: ServerOptions = { run: executable, debug: executable };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'dyno' },
      { scheme: 'untitled', language: 'dyno' },
    ],
    outputChannel: output,
    // `dyno.severity`, `dyno.defaults` and `dyno.diffAgainstHead` reach the
    // server as they change (it also asks with `workspace/configuration`).
    synchronize: { configurationSection: 'dyno' },
    middleware: {
      // The client registers the server's `dyno.view` (its code lenses run
      // it); the server writes the page and answers its path, shown here.
      executeCommand: async (command, args, next) => {
        if (COPY_COMMANDS.includes(command)) {
          // The server answers `{ text }` (docs/lsp.md): the clipboard is the
          // editor's.
          const answer: unknown = await next(command, args);
          const text = copiedText(answer);
          if (text !== undefined) {
            await vscode.env.clipboard.writeText(text);
            void vscode.window.setStatusBarMessage(`Dyno: copied the ${COPY_WHAT[command]}`, 3000);
          }
          return answer;
        }
        if (command !== 'dyno.view') {
          return next(command, args);
        }
        const sent = viewArguments(args, vscode.window.activeTextEditor?.document.uri.toString());
        if (!sent) {
          void vscode.window.showInformationMessage('Dyno: open a .dyno file to view its table.');
          return undefined;
        }
        const path = pagePath(await next(command, sent));
        if (path) {
          showPage(path, pageTitle(String(sent[0]), sent[1]));
        }
        return undefined;
      },
    },
  };

  // The id `dyno` makes the client read the `dyno.trace.server` setting.
  client = new LanguageClient('dyno', 'Dyno Language Server', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(
      `Dyno: the language server \`${lookup.command} ${SERVER_ARGS.join(' ')}\` failed to start: ${reason}`,
    );
  }
}

/** Shows the page file in the webview beside the editor. */
function showPage(path: string, title: string): void {
  if (!pagePanel) {
    pagePanel = vscode.window.createWebviewPanel(VIEW_COMMAND, title, vscode.ViewColumn.Beside, {
      enableScripts: true,
    });
    pagePanel.onDidDispose(() => {
      pagePanel = undefined;
    });
  }
  pagePanel.title = title;
  pagePanel.webview.html = fs.readFileSync(path, 'utf8');
  pagePanel.reveal(vscode.ViewColumn.Beside, true);
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    try {
      await running.stop();
    } catch {
      // Already stopped or never started: nothing to do.
    }
  }
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await stop();
  await start(context);
}
