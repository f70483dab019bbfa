// The Fabric extension's client: starts `fabc lsp` (the language server, docs/lsp.md) over
// stdio for .fab files and restarts it when its settings change. Highlighting is the
// TextMate grammar (syntaxes/), comments and brackets language-configuration.json.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

// The server: `<fabc.path> lsp <fabc.serverArguments...>`, talking JSON-RPC on its stdin and
// stdout. No `transport` on purpose: with TransportKind.stdio the client would append
// `--stdio` to the arguments, which fabc lsp does not need.
function serverOptions() {
  const config = vscode.workspace.getConfiguration("fabc");
  let command = config.get("path") || "fabc";
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (folder)
    command = command.replace("${workspaceFolder}", folder.uri.fsPath);
  const args = ["lsp", ...config.get("serverArguments", [])];
  const options = folder ? { cwd: folder.uri.fsPath } : {};
  return { run: { command, args, options }, debug: { command, args, options } };
}

function clientOptions() {
  return {
    documentSelector: [
      { scheme: "file", language: "fabric" },
      { scheme: "untitled", language: "fabric" },
    ],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.fab") },
  };
}

async function start() {
  client = new LanguageClient("fabc", "Fabric (fabc lsp)", serverOptions(), clientOptions());
  try {
    await client.start();
  } catch (err) {
    const path = vscode.workspace.getConfiguration("fabc").get("path") || "fabc";
    vscode.window.showErrorMessage(
      `Could not start '${path} lsp': ${err.message}. Set "fabc.path" to the fabc executable.`);
  }
}

async function restart() {
  if (client) {
    const old = client;
    client = undefined;
    await old.stop().catch(() => {});
  }
  await start();
}

async function activate(context) {
  context.subscriptions.push(vscode.commands.registerCommand("fabc.restartServer", restart));
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration("fabc.path") || e.affectsConfiguration("fabc.serverArguments"))
      restart();
  }));
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
