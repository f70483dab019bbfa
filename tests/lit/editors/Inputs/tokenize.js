// Tokenizes a file with the extension's TextMate grammar, as VS Code does (vscode-textmate
// and the Oniguruma regex engine, from the extension's node_modules: run it with NODE_PATH
// set there), and prints one token a line: its text, a tab, its innermost scope.
// usage: NODE_PATH=EXT/node_modules node tokenize.js GRAMMAR.json FILE
"use strict";
const fs = require("fs");
const path = require("path");
const oniguruma = require("vscode-oniguruma");
const vsctm = require("vscode-textmate");

async function main() {
  const [grammarPath, file] = process.argv.slice(2);
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async () => vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath),
  });
  const grammar = await registry.loadGrammar("source.fabric");
  let state = vsctm.INITIAL;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) {
      const text = line.substring(t.startIndex, t.endIndex);
      if (text.trim() !== "")
        console.log(`${text.trim()}\t${t.scopes[t.scopes.length - 1]}`);
    }
    state = r.ruleStack;
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
