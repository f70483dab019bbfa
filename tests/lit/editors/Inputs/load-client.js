// Loads the packaged extension's client (extension.js) outside VS Code and prints how it
// would start the server. VS Code's API module exists only inside VS Code: a stand-in
// answers the few calls activate() makes, with fabc.path = /opt/fabc/bin/fabc and
// fabc.serverArguments = ["-I", "lib"]. The language client library must resolve inside the
// extension (a .vsix without it fails here); it is not loaded but replaced by a recorder of
// what the client is given, since the real one needs the whole editor.
// usage: node load-client.js EXTENSION_DIR
"use strict";
const Module = require("module");
const path = require("path");

const ext = path.resolve(process.argv[2]);
const realClient = require.resolve("vscode-languageclient/node", { paths: [ext] });
if (!realClient.startsWith(ext + path.sep))
  throw new Error("vscode-languageclient is not inside the extension: " + realClient);
const settings = { path: "/opt/fabc/bin/fabc", serverArguments: ["-I", "lib"] };
const vscode = {
  workspace: {
    getConfiguration: () => ({ get: (k, d) => (k in settings ? settings[k] : d) }),
    workspaceFolders: undefined,
    createFileSystemWatcher: () => ({ dispose() {} }),
    onDidChangeConfiguration: () => ({ dispose() {} }),
  },
  window: { showErrorMessage: (m) => console.log("error: " + m) },
  commands: { registerCommand: (name) => ({ name, dispose() {} }) },
};
class RecordingClient {
  constructor(id, name, server, client) {
    const run = server.run;
    console.log(`server: ${[run.command, ...run.args].join(" ")}`);
    console.log(`documents: ${client.documentSelector.map((d) => d.scheme + ":" + d.language).join(" ")}`);
  }
  start() { return Promise.resolve(); }
  stop() { return Promise.resolve(); }
}

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (request === "vscode") return "vscode";
  return resolve.call(this, request, parent, ...rest);
};
require.cache["vscode"] = { id: "vscode", filename: "vscode", loaded: true, exports: vscode };
require.cache[realClient] = { id: realClient, filename: realClient, loaded: true, exports: { LanguageClient: RecordingClient } };

const extension = require(path.join(ext, "extension.js"));
const subscriptions = [];
extension.activate({ subscriptions }).then(() => {
  console.log(`subscriptions: ${subscriptions.length}`);
});
