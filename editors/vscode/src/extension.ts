// The Dyno extension: starts `dyno lsp` (stdio) for .dyno files.
// Highlighting, snippets and the language configuration are declarative
// (package.json); this file only runs the language client.

import * as vscode from 'vscode';
import { Executable, LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';

import { SERVER_ARGS, fallbackWarning, findServer, notFoundMessage } from './server';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;

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
